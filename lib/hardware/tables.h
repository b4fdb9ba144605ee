/* Lookups over the tables compiled from the data/ TSV files by scripts/gen-table
 * (lib/hardware/tables.c): driver and CUDA versions, framework builds, GPU
 * models, AMD gfx targets, Xid codes. Backends name GPUs with them, the
 * probes and the doctor judge versions with them. */
#ifndef GPUWISE_HARDWARE_TABLES_H
#define GPUWISE_HARDWARE_TABLES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/version.h"

/* Row types of the generated tables (arrays are only in tables.c). */
#include "cuda_toolkit_driver.h"
#include "cuda_minor_compat.h"
#include "driver_cuda.h"
#include "torch_cuda_arch.h"
#include "torch_rocm_arch.h"
#include "tensorflow_cuda.h"
#include "jax_cuda.h"
#include "nvidia_gpus.h"
#include "amd_gfx.h"
#include "amd_gpus.h"
#include "xid.h"
#include "sonames.h"
#include "cuda_toolkit_arch.h"

/* Driver version → highest CUDA it supports ("12.4"). 0 or GW_ENOTFOUND
 * (older than the first row). Newer branches than the table give the last row. */
int gw__tbl_driver_max_cuda(const gw_ver *driver, gw_ver *cuda);
/* The row of a CUDA toolkit release (update from the patch when < 10,
 * else GA): its own minimum driver. NULL when unknown. */
const gw_row_cuda_toolkit_driver *gw__tbl_toolkit_driver(const gw_ver *cuda);
/* Lowest driver that runs an application built with this CUDA runtime,
 * counting minor-version compatibility (11.1+, 12.x, 13.x) — the floor the
 * `driver-too-old-for-framework` check wants. 0 or GW_ENOTFOUND. */
int gw__tbl_cuda_min_driver(const gw_ver *cuda, gw_ver *driver);
/* Does this driver run an application built with this CUDA runtime? */
bool gw__tbl_driver_runs_cuda(const gw_ver *driver, const gw_ver *cuda);
/* PyTorch arch list for torch version × variant ("cu121"); NULL if unknown. */
const gw_row_torch_cuda_arch *gw__tbl_torch_cuda_arch(const gw_ver *torch, const char *variant);
/* ROCm torch variant ("rocm6.1", "rocm6.2.4") → gfx list row; NULL if unknown. */
const gw_row_torch_rocm_arch *gw__tbl_torch_rocm_arch(const char *variant);
/* TensorFlow major.minor → tested CUDA/cuDNN; NULL if unknown. */
const gw_row_tensorflow_cuda *gw__tbl_tensorflow_cuda(const gw_ver *tf);
/* JAX CUDA plugin dist (normalised) → row; NULL if not a CUDA plugin. */
const gw_row_jax_cuda *gw__tbl_jax_cuda(const char *dist);
/* NVIDIA GPU by PCI device id (0x2330) or by marketing name. NULL if unknown. */
const gw_row_nvidia_gpus *gw__tbl_nvidia_gpu_by_id(unsigned device_id);
const gw_row_nvidia_gpus *gw__tbl_nvidia_gpu_by_name(const char *name);
/* Parse a row's "9.0" compute capability. 0 or GW_EPARSE. */
int gw__tbl_cc(const char *cc, unsigned *major, unsigned *minor);
/* AMD gfx target ("gfx1100") → row; NULL if unknown. */
const gw_row_amd_gfx *gw__tbl_amd_gfx(const char *gfx);
/* AMD GPU marketing name ("AMD Radeon RX 7900 XTX") by PCI device id and
 * revision (-1 when unknown), from amdgpu.ids; NULL when the table cannot
 * tell (an unlisted chip, or a revision of a chip sold under several names). */
const char *gw__tbl_amd_gpu_name(unsigned device_id, int revision);
/* A CUDA GPU target ("sm_86", "compute_90", "sm_90a") → the toolkits
 * that know it; NULL if not in the table. */
const gw_row_cuda_toolkit_arch *gw__tbl_toolkit_arch(const char *target);
/* Xid code → row; NULL if not in the table. */
const gw_row_xid *gw__tbl_xid(unsigned xid);
/* A library file name as a loader prints it ("libcudnn_ops_infer.so.8",
 * "libcudart.so.11.0", "cublas64_12.dll"; len bytes, any case) → the row of
 * data/sonames.tsv that names it: the longest name that matches the whole
 * file name, or its start followed by '.' (a longer version). NULL if none. */
const gw_row_sonames *gw__tbl_soname(const char *name, size_t len);
/* The row of data/sonames.tsv whose component, as its column names it up
 * to a " (" ("CUDA runtime", "cuDNN", "NVIDIA driver"), ends the text
 * (len bytes, any case) at a word's start: the row that implies no
 * version when the component has one, else its first. NULL if none. */
const gw_row_sonames *gw__tbl_soname_component(const char *text, size_t len);
/* The length of r's component name up to a " (" ("CUDA runtime (cudart)"
 * is "CUDA runtime"). */
size_t gw__tbl_soname_component_len(const gw_row_sonames *r);

/* The PyTorch wheel variants (data/torch_cuda_arch.tsv for a compute
 * capability, torch_rocm_arch.tsv for a gfx target when gfx is not NULL)
 * whose targets run on the GPU, each once, space-separated, oldest first:
 * "cu128 cu129 cu130". Writes "" when none. */
void gw__tbl_torch_builds_for(unsigned major, unsigned minor, const char *gfx, char *out, size_t outsz);
/* Does a build with these cubins ("sm_50 sm_80 ...") and PTX ("compute_90")
 * run on a GPU of compute capability major.minor? Same-major cubin with
 * minor ≤ the GPU's, or PTX ≤ the GPU's capability (doctor.md §3.3). */
bool gw__cuda_archs_run(const char *archs, const char *ptx, unsigned major, unsigned minor);
/* Normalise a distribution name (PEP 503): lower case, runs of -_. → '-'. */
void gw__dist_normalize(const char *in, char *out, size_t outsz);
/* Is gfx (e.g. "gfx1100") in the space-separated list? */
bool gw__gfx_in_list(const char *list, const char *gfx);

#endif

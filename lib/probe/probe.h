/* gpuwise probes — what `doctor` knows about a machine without asking a GPU.
 *
 * gw__probe_run() reads files only (under the root, like every read in lib/):
 * PCI devices and bound drivers, the NVIDIA kernel module and user-space
 * driver libraries, device nodes, CUDA toolkits, cuDNN, NCCL, the library
 * search path, Python environments and the frameworks in them (from their
 * files, never importing them), AMD/ROCm, container and WSL hints, and Xid
 * lines of the kernel log. Live GPU state (memory, MIG, clocks, ECC) is the
 * device model's job (gw_context), not the probes'.
 *
 * Everything found lands in one gw_probe_report, allocated by the run and
 * freed by gw__probe_free(). Arrays are fixed and bounded; `truncated` flags
 * say when a bound was hit. A version with nparts == 0 is unknown.
 *
 * The parsers (gw__parse_*) are pure functions over a NUL-terminated buffer
 * so they can be fuzzed (tests/fuzz/fuzz_probe_parsers.c); the lookups
 * (gw__tbl_*) answer from the tables compiled from data/ (TSV).
 */
#ifndef GPUWISE_PROBE_H
#define GPUWISE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuwise/device.h"
/* gw_ver and gw__version_* (lib/core/version.c); the generated tables' row
 * types, gw__tbl_* lookups, gw__cuda_archs_run, gw__gfx_in_list and
 * gw__dist_normalize (lib/hardware/tables.c); the /etc/group parser
 * gw__parse_group_member (lib/core/proc_parse.c). */
#include "core/proc_parse.h"
#include "hardware/tables.h"
#include "core/version.h"


#define GW_PROBE_PATH 256

/* ---- options -------------------------------------------------------------- */

/* The environment the probes see. Passed in (never read with getenv deep
 * inside) so tests can set it. NULL = unset. */
typedef struct gw_probe_env {
	const char *path;
	const char *ld_library_path;
	const char *cuda_home;
	const char *cuda_path;               /* CUDA_PATH, an alias some installers set */
	const char *cuda_visible_devices;
	const char *cuda_device_order;
	const char *virtual_env;
	const char *conda_prefix;
	const char *home;
	const char *hsa_override_gfx_version;
	const char *nvidia_visible_devices;
	const char *kubernetes_service_host;
	const char *ld_preload;
	/* NCCL's transport switches and interface choice (lib/probe/dist.c). */
	const char *nccl_p2p_disable;
	const char *nccl_ib_disable;
	const char *nccl_shm_disable;
	const char *nccl_socket_ifname;
} gw_probe_env;

typedef struct gw_probe_options {
	const char *root;                    /* GPUWISE_ROOT; NULL or "/" = the real tree */
	const char *const *python_envs;      /* --python-env PREFIX... */
	size_t npython_envs;
	gw_probe_env env;
	/* True only without GPUWISE_ROOT: lets the probes use
	 * getuid()/getgroups(). */
	bool real_system;
	long uid;                            /* with a root override: whose groups (from <root>/etc); -1 = getuid() */
	bool skip_kernel_log;                /* skip the Xid scan */
} gw_probe_options;

/* Fill opts from the process environment (GPUWISE_ROOT, PATH, ...). The
 * strings point into environ; python_envs is left empty. For the CLI. */
void gw__probe_options_from_environ(gw_probe_options *opts);

/* ---- hardware ------------------------------------------------------------- */

#define GW_PROBE_MAX_GPUS 32

typedef struct gw_probe_pci_gpu {
	char bus_id[16];          /* "0000:18:00.0" */
	gw_vendor vendor;
	unsigned vendor_id, device_id, subsys_vendor_id, subsys_device_id;
	unsigned class_code;      /* 0x030000 VGA, 0x030200 3D controller */
	char driver[32];          /* bound kernel driver ("nvidia", "nouveau", "amdgpu", "vfio-pci"); "" = none */
	const gw_row_nvidia_gpus *model;   /* NVIDIA model from the device id, or NULL */
	const gw_row_amd_gfx *gfx;         /* AMD: from the KFD node of this GPU, or NULL */
} gw_probe_pci_gpu;

/* A device node: exists, and can this user open it read-write. */
typedef struct gw_probe_node {
	char path[48];
	bool exists;
	bool accessible;          /* access(R_OK|W_OK) on the resolved path */
	unsigned gid;             /* owning group (valid when exists) */
	char group[32];           /* its name from <root>/etc/group, or "" */
	bool user_in_group;       /* this user is in the owning group */
} gw_probe_node;

/* ---- NVIDIA driver -------------------------------------------------------- */

typedef enum gw_probe_kmod_flavor {
	GW_KMOD_UNKNOWN = 0,
	GW_KMOD_PROPRIETARY,
	GW_KMOD_OPEN              /* "NVIDIA UNIX Open Kernel Module" */
} gw_probe_kmod_flavor;

#define GW_PROBE_MAX_LIBS 16

/* One copy of a driver library the loader could find. */
typedef struct gw_probe_libfile {
	char dir[GW_PROBE_PATH];
	char file[96];            /* the versioned file, e.g. "libnvidia-ml.so.550.54.15" */
	gw_ver version;       /* from the file name; unknown when only .so.1 exists */
	bool has_soname;          /* dir has libX.so.1, what dlopen asks for */
	const char *origin;       /* "LD_LIBRARY_PATH", "ld.so.conf", "default", "wsl" */
} gw_probe_libfile;

typedef struct gw_probe_nvidia {
	bool module_loaded;              /* /proc/modules or /sys/module/nvidia */
	bool proc_driver_present;        /* /proc/driver/nvidia exists */
	gw_ver module_version;       /* kernel module version */
	gw_probe_kmod_flavor flavor;
	char module_banner[160];         /* the NVRM line, for evidence */
	bool nouveau_loaded;
	bool uvm_loaded;                 /* nvidia_uvm module */
	/* In loader search order; [0] is what dlopen("libX.so.1") would take. */
	gw_probe_libfile nvml[GW_PROBE_MAX_LIBS];
	size_t nnvml;
	gw_probe_libfile libcuda[GW_PROBE_MAX_LIBS];
	size_t nlibcuda;
	gw_probe_node ctl, uvm;          /* /dev/nvidiactl, /dev/nvidia-uvm */
	gw_probe_node dev[GW_PROBE_MAX_GPUS];   /* /dev/nvidia0.. */
	size_t ndev;
	bool persistenced;               /* /var/run/nvidia-persistenced/ present */
} gw_probe_nvidia;

/* ---- CUDA toolkits and libraries ----------------------------------------- */

/* The CUDA libraries the path checks care about. */
typedef enum gw_cudalib {
	GW_CUDALIB_CUDART = 0,
	GW_CUDALIB_CUBLAS,
	GW_CUDALIB_CUBLASLT,
	GW_CUDALIB_CUDNN,
	GW_CUDALIB_NVJITLINK,
	GW_CUDALIB_CUSPARSE,
	GW_CUDALIB_NCCL,
	GW_CUDALIB_CUDA,          /* the driver's libcuda */
	GW_CUDALIB_COUNT
} gw_cudalib;

/* "libcudart", ... (no ".so"). */
const char *gw__cudalib_name(gw_cudalib lib);

#define GW_PROBE_MAX_TOOLKITS 12

typedef struct gw_probe_toolkit {
	char prefix[GW_PROBE_PATH];       /* as found: "/usr/local/cuda", "/opt/cuda-12.4" */
	char resolved[GW_PROBE_PATH];     /* symlinks resolved (under the root) */
	gw_ver version;
	const char *version_source;       /* "version.json", "version.txt", "dist-info", "cuda.h", "directory" */
	bool has_nvcc;
	bool nvcc_on_path;                /* the first nvcc on PATH is this toolkit's */
	bool is_cuda_home;                /* CUDA_HOME / CUDA_PATH point here */
	gw_ver cudnn;                 /* include/cudnn_version.h (or cudnn.h) */
	gw_ver nccl;                  /* include/nccl.h */
	/* Its library folder (lib64, targets/<arch>/lib: the one holding
	 * libcudart.so*), "" when it has none, and how the dynamic loader
	 * finds it (lib/probe/ldso.c): "LD_LIBRARY_PATH", "ld.so.cache",
	 * "ld.so.conf" (no cache to read), "default"; NULL = it does not.
	 * lib_conf_only: an ld.so.conf file names it but ld.so.cache does not
	 * (ldconfig was not run since). */
	char lib_dir[GW_PROBE_PATH];
	const char *lib_origin;
	bool lib_conf_only;
} gw_probe_toolkit;

/* A header-declared or library-found component outside the toolkits. */
#define GW_PROBE_MAX_COMPONENTS 8
typedef struct gw_probe_component {
	char where[GW_PROBE_PATH];        /* the header or library file */
	gw_ver version;
} gw_probe_component;

/* One LD_LIBRARY_PATH entry and the CUDA libraries it holds. */
#define GW_PROBE_MAX_LDPATH 24
typedef struct gw_probe_ldpath {
	char dir[GW_PROBE_PATH];
	bool exists;
	bool has[GW_CUDALIB_COUNT];
	gw_ver version[GW_CUDALIB_COUNT];   /* highest found in the file names (.so.12 → "12") */
} gw_probe_ldpath;

/* ---- Python --------------------------------------------------------------- */

typedef enum gw_fw_kind {
	GW_FW_TORCH = 0,
	GW_FW_TENSORFLOW,
	GW_FW_JAX,
	GW_FW_CUPY,
	GW_FW_HOROVOD,
	GW_FW_KIND_COUNT
} gw_fw_kind;

const char *gw__fw_kind_name(gw_fw_kind k);   /* "pytorch", "tensorflow", ... */

typedef enum gw_fw_gpu {
	GW_FW_GPU_UNKNOWN = 0,    /* could not tell (source build, no build info) */
	GW_FW_GPU_NONE,           /* a CPU-only build */
	GW_FW_GPU_CUDA,
	GW_FW_GPU_ROCM
} gw_fw_gpu;

/* A wheel a framework's METADATA requires that is absent or of another version. */
#define GW_PROBE_MAX_FW_WHEELS 16
typedef struct gw_probe_fw_wheel {
	char dist[40];            /* "nvidia-cublas-cu12" */
	char spec[40];            /* "==12.4.5.8", ">=9.1,<10.0" as the METADATA writes it, spaces dropped */
	char have[24];            /* the installed version, "" when not installed */
} gw_probe_fw_wheel;

#define GW_PROBE_MAX_SYSLIBS 8
typedef struct gw_probe_framework {
	gw_fw_kind kind;
	/* The package itself (torch, tensorflow*, jax, cupy*, horovod) or a
	 * companion (jaxlib, jax-cuda12-plugin, -pjrt): only primary entries
	 * count for "framework-cpu-only-build" and "multiple-framework-packages". */
	bool primary;
	char dist[64];            /* distribution name as in dist-info ("cupy-cuda12x"); "" = module only */
	gw_ver version;       /* dist-info or the module's own version file */
	char variant[24];         /* torch local tag "cu121", "rocm6.1", "cpu"; "" if none */
	gw_fw_gpu gpu;
	gw_ver cuda;          /* CUDA it was built for (torch.version.cuda, TF cuda_version, cupy major) */
	gw_ver cudnn;         /* cuDNN it was built with, when known */
	gw_ver hip;           /* torch.version.hip */
	/* Targets it carries: "sm_50 sm_60 ..." / "gfx90a gfx942 ...", and the
	 * PTX ("compute_90"). arch_source says where they came from. */
	char archs[192];
	char ptx[48];
	const char *arch_source;  /* "table", "build_info", NULL = unknown */
	/* The CUDA wheels its METADATA requires on this platform (Requires-Dist
	 * nvidia-*, jax-*-pjrt; lib/probe/wheels.c) that the environment lacks
	 * or holds in another version: at most GW_PROBE_MAX_FW_WHEELS kept,
	 * wheels_missing + wheels_wrong counted in full. */
	char metadata[GW_PROBE_PATH];   /* its dist-info/METADATA, "" when none was read */
	unsigned wheels_required;       /* CUDA wheels that apply here */
	unsigned wheels_missing, wheels_wrong;
	char wheels_extra[24];          /* the extra they belong to ("and-cuda"), "" = unconditional */
	gw_probe_fw_wheel wheels_bad[GW_PROBE_MAX_FW_WHEELS];
	size_t nwheels_bad;
	/* A build without bundled CUDA libraries (bundles_cuda false) relies on
	 * the system's: the sonames it loads (TensorFlow's dlopen set, else the
	 * DT_NEEDED CUDA entries of its own library) resolved as ld.so does
	 * (lib/probe/ldso.c). syslibs_missing: those the loader cannot find
	 * (at most GW_PROBE_MAX_SYSLIBS kept, nsyslibs_missing counted in
	 * full); syslibs_elf: the library whose RPATH/RUNPATH was read ("" none);
	 * syslibs_search: the RPATH/RUNPATH searched, as written ("" none). */
	unsigned nsyslibs_checked, nsyslibs_missing;
	char syslibs_missing[GW_PROBE_MAX_SYSLIBS][32];
	char syslibs_elf[GW_PROBE_PATH];
	char syslibs_search[GW_PROBE_PATH];
	char syslibs_hint[GW_PROBE_PATH];   /* a toolkit library folder holding the first missing one, "" none */
	bool has_libtorch_cuda;   /* torch/lib/libtorch_cuda.so */
	bool bundles_cuda;        /* ships CUDA libs (torch/lib/libcudart*, nvidia/<name>/lib wheels) */
	char evidence[GW_PROBE_PATH];   /* file the facts came from (under the root) */
} gw_probe_framework;

/* A pip CUDA wheel: site-packages/nvidia/<name>/lib. */
typedef struct gw_probe_pywheel {
	char name[32];            /* "cudnn", "cublas", "cuda_runtime", "cu13" */
	char dist[64];            /* "nvidia-cudnn-cu12", or "" when no dist-info matched */
	gw_ver version;       /* from the dist-info */
	char lib_dir[GW_PROBE_PATH];
	bool has[GW_CUDALIB_COUNT];
} gw_probe_pywheel;

/* torchvision or torchaudio next to torch: the release and build each is,
 * to judge against torch's (doctor's torch-companion-mismatch). */
typedef struct gw_probe_torch_part {
	char dist[16];                  /* "torchvision", "torchaudio" */
	gw_ver version;                 /* version.py __version__, else the dist-info name */
	char variant[24];               /* local tag: "cu121", "cpu", "rocm6.1"; "" none */
	gw_ver cuda;                    /* version.py `cuda = '12.1'`, else from a cuXYZ tag */
	char torch_pin[40];             /* METADATA Requires-Dist: torch (==2.5.1): "2.5.1"; "" none */
	char evidence[GW_PROBE_PATH];   /* the file the facts came from */
} gw_probe_torch_part;

#define GW_PROBE_MAX_ENVS 24
#define GW_PROBE_MAX_FRAMEWORKS 16
#define GW_PROBE_MAX_WHEELS 24

typedef struct gw_probe_pyenv {
	char site[GW_PROBE_PATH];       /* site-packages folder, as found */
	char resolved[GW_PROBE_PATH];   /* for dedupe */
	const char *origin;             /* "--python-env", "VIRTUAL_ENV", "CONDA_PREFIX", "system", "user", "PATH", "python3" */
	char python[16];                /* "3.12" from the lib/python3.12 folder, or "" */
	gw_probe_framework fw[GW_PROBE_MAX_FRAMEWORKS];
	size_t nfw;
	gw_probe_pywheel wheels[GW_PROBE_MAX_WHEELS];
	size_t nwheels;
	gw_probe_torch_part torch_parts[2];
	size_t ntorch_parts;
	bool truncated;
} gw_probe_pyenv;

/* ---- AMD ------------------------------------------------------------------ */

#define GW_PROBE_MAX_AGENTS 16
typedef struct gw_probe_amd_agent {
	unsigned node;                  /* KFD topology node number */
	unsigned gfx_target_version;    /* 110000 */
	char gfx[16];                   /* "gfx1100" */
	unsigned vendor_id, device_id;
	unsigned drm_render_minor;
	const gw_row_amd_gfx *info;     /* table row, or NULL */
} gw_probe_amd_agent;

typedef struct gw_probe_amd {
	bool amdgpu_loaded;
	gw_ver amdgpu_version;      /* /sys/module/amdgpu/version (DKMS) */
	gw_probe_node kfd;
	gw_probe_node render[GW_PROBE_MAX_GPUS];
	size_t nrender;
	gw_probe_amd_agent agent[GW_PROBE_MAX_AGENTS];
	size_t nagents;
	gw_ver rocm;                /* /opt/rocm/.info/version or rocm_version.h */
	char rocm_path[GW_PROBE_PATH];
	char hsa_override[24];          /* HSA_OVERRIDE_GFX_VERSION as set, "" unset */
	char hsa_override_gfx[16];      /* what it makes the runtime report, "gfx1030" */
	bool user_in_render, user_in_video;   /* groups named render / video */
} gw_probe_amd;

/* ---- environment ---------------------------------------------------------- */

typedef struct gw_probe_sysenv {
	bool container;
	char container_kind[16];        /* "docker", "podman", "kubernetes", "lxc", "container" */
	bool nvidia_visible_set;
	char nvidia_visible_devices[64];
	bool gpu_runtime_hint;          /* /proc/driver/nvidia or /dev/nvidia* visible inside */
	bool wsl;
	bool wsl_libcuda;               /* /usr/lib/wsl/lib/libcuda.so */
	char os_pretty[96];             /* os-release PRETTY_NAME */
	char os_id[32];                 /* os-release ID ("ubuntu", "rhel", "rocky"), "" unknown */
	char os_id_like[64];            /* os-release ID_LIKE ("rhel centos fedora"), "" none */
	char os_version_id[32];         /* os-release VERSION_ID ("22.04", "9.4", "15.5") */
	char kernel[96];                /* /proc/sys/kernel/osrelease */
} gw_probe_sysenv;

/* ---- Xid ------------------------------------------------------------------ */

#define GW_PROBE_MAX_XIDS 32
typedef struct gw_probe_xid {
	unsigned xid;
	char pci[24];                   /* "0000:3b:00" as the log prints it */
	unsigned count;
	char last_line[192];            /* the latest line seen, trimmed */
	const gw_row_xid *info;         /* table row, or NULL for a code not in the table */
} gw_probe_xid;

/* ---- the distributed stack (lib/probe/dist.c) ------------------------------ */

/* The NCCL variables that switch a transport off. */
typedef enum gw_nccl_switch {
	GW_NCCL_P2P_DISABLE = 0,
	GW_NCCL_SHM_DISABLE,
	GW_NCCL_IB_DISABLE,
	GW_NCCL_SWITCH_COUNT
} gw_nccl_switch;
/* "NCCL_P2P_DISABLE", ... */
const char *gw__nccl_switch_name(gw_nccl_switch s);

#define GW_PROBE_MAX_NICS 32
typedef struct gw_probe_nic {
	char name[32];            /* "eth0", "ib0": a /sys/class/net entry */
	bool physical;            /* has a device link (a PCI NIC; not lo, a bridge or veth) */
	int numa_node;            /* its device's numa_node; -1 unknown */
	long speed_mbps;          /* /sys/class/net/X/speed; -1 unknown (link down, virtual) */
} gw_probe_nic;

/* What a compiled extension's ELF file shows (lib/probe/elf.c). */
typedef struct gw_probe_elf {
	bool read;                /* a 64-bit little-endian ELF whose section table was read */
	bool needs_nccl;          /* .dynstr names libnccl.so / librccl.so */
	bool needs_gpu_runtime;   /* .dynstr names libcudart.so / libamdhip64.so */
	bool nccl_banner;         /* .rodata holds "NCCL version " / "RCCL version " (NCCL linked in) */
	bool cudart_static;       /* .rodata holds the CUDA runtime's own error text */
	char nccl_version[24];    /* from the banner, "" unknown */
} gw_probe_elf;

/* Horovod's per-framework extensions (horovod/<module>/<prefix>.*.so). */
typedef enum gw_hvd_ext {
	GW_HVD_TORCH = 0,
	GW_HVD_TENSORFLOW,
	GW_HVD_MXNET,
	GW_HVD_EXT_COUNT
} gw_hvd_ext;
typedef struct gw_hvd_ext_info {
	const char *module;       /* "torch": horovod.torch */
	const char *prefix;       /* "mpi_lib_v2": the extension's file name before its EXT_SUFFIX */
	gw_fw_kind fw;            /* the framework it is for; GW_FW_KIND_COUNT = not probed (MXNet) */
	const char *with_var;     /* HOROVOD_WITH_<with_var>=1 */
	const char *pretty;       /* "PyTorch" */
} gw_hvd_ext_info;
extern const gw_hvd_ext_info gw__hvd_exts[GW_HVD_EXT_COUNT];

#define GW_PROBE_MAX_HOROVOD 4
typedef struct gw_probe_horovod {
	size_t env;                                   /* index into the report's envs */
	bool ext_present[GW_HVD_EXT_COUNT];
	char ext_file[GW_HVD_EXT_COUNT][GW_PROBE_PATH];
	gw_probe_elf ext[GW_HVD_EXT_COUNT];
} gw_probe_horovod;

typedef struct gw_probe_net {
	bool listed;                     /* /sys/class/net could be listed */
	gw_probe_nic nic[GW_PROBE_MAX_NICS];
	size_t nnic;
	unsigned nrdma;                  /* /sys/class/infiniband entries (InfiniBand / RoCE HCAs) */
	int gpu_numa[GW_PROBE_MAX_GPUS]; /* numa_node of gpus[i]; -1 unknown */
	/* The NCCL variables as set ("" and *_set false = unset). */
	bool switch_set[GW_NCCL_SWITCH_COUNT];
	char switch_value[GW_NCCL_SWITCH_COUNT][32];
	bool ifname_set;
	char ifname[256];                /* NCCL_SOCKET_IFNAME */
	/* The first LD_PRELOAD entry that is a libnccl, and its version (from
	 * the file name, symlinks followed); "" when none. */
	char preload_nccl[GW_PROBE_PATH];
	gw_ver preload_nccl_version;
	/* Environments holding Horovod, and its extensions there. */
	gw_probe_horovod hvd[GW_PROBE_MAX_HOROVOD];
	size_t nhvd;
} gw_probe_net;

/* NCCL_SOCKET_IFNAME's syntax (NCCL's own): a comma list of name prefixes
 * ("eth,ib"), exact names when the list starts with "=" ("=eth0"), and an
 * exclusion list when it starts with "^" ("^docker,lo", "^=docker0"); a
 * ":port" after an entry is ignored. Does it select interface `name`? */
bool gw__nccl_ifname_selects(const char *spec, const char *name);

/* ---- the report ----------------------------------------------------------- */

typedef struct gw_probe_report {
	char root[GW_PROBE_PATH];

	gw_probe_pci_gpu gpus[GW_PROBE_MAX_GPUS];
	size_t ngpus;

	gw_probe_nvidia nvidia;

	gw_probe_toolkit toolkits[GW_PROBE_MAX_TOOLKITS];
	size_t ntoolkits;
	int nvcc_toolkit;               /* index of the toolkit whose nvcc is first on PATH, -1 */
	int cuda_home_toolkit;          /* index of the CUDA_HOME/CUDA_PATH toolkit, -1 */
	gw_probe_component cudnn[GW_PROBE_MAX_COMPONENTS];   /* headers/libs outside toolkits */
	size_t ncudnn;
	gw_probe_component nccl[GW_PROBE_MAX_COMPONENTS];
	size_t nnccl;
	gw_probe_ldpath ldpath[GW_PROBE_MAX_LDPATH];
	size_t nldpath;
	int ld_first[GW_CUDALIB_COUNT]; /* index into ldpath of the first dir holding it, -1 */

	gw_probe_pyenv envs[GW_PROBE_MAX_ENVS];
	size_t nenvs;

	gw_probe_amd amd;
	gw_probe_sysenv sys;
	gw_probe_net net;

	gw_probe_xid xids[GW_PROBE_MAX_XIDS];
	size_t nxids;
	char kernel_log[GW_PROBE_PATH]; /* the log file read, "" when none was readable */

	/* Copies of the environment the run saw (NULL = unset). */
	char *cuda_visible_devices;
	char *cuda_device_order;
	char *ld_library_path;
	char *path;
	char *cuda_home;

	bool truncated;                 /* some bound was hit */
} gw_probe_report;

/* Run every probe. *out is set only on success; free with gw__probe_free.
 * Fails only for out-of-memory or bad options; missing files are findings. */
int gw__probe_run(gw_probe_report **out, const gw_probe_options *opts);
void gw__probe_free(gw_probe_report *r);

/* ---- pure parsers (NUL-terminated input; fuzzed) ------------------------- */

/* version.json: {"cuda": {"name": ..., "version": "12.4.1"}, ...} */
int gw__parse_cuda_version_json(const char *text, gw_ver *out);
/* version.txt: "CUDA Version 11.8.0" */
int gw__parse_cuda_version_txt(const char *text, gw_ver *out);
/* `#define NAME <integer>` anywhere at the start of a line. */
int gw__parse_c_define(const char *text, const char *name, uint64_t *out);
/* cuda.h CUDA_VERSION 12040 → "12.4" */
int gw__parse_cuda_h(const char *text, gw_ver *out);
/* cudnn_version.h / cudnn.h: CUDNN_MAJOR/MINOR/PATCHLEVEL */
int gw__parse_cudnn_h(const char *text, gw_ver *out);
/* nccl.h: NCCL_MAJOR/MINOR/PATCH */
int gw__parse_nccl_h(const char *text, gw_ver *out);
/* rocm_version.h: ROCM_VERSION_MAJOR/MINOR/PATCH */
int gw__parse_rocm_version_h(const char *text, gw_ver *out);

/* A Python value as found in a generated file. */
typedef enum gw_pyval {
	GW_PYVAL_MISSING = 0,
	GW_PYVAL_STR,
	GW_PYVAL_NONE,
	GW_PYVAL_TRUE,
	GW_PYVAL_FALSE,
	GW_PYVAL_OTHER            /* numbers, lists: raw text copied */
} gw_pyval;

/* Top-level assignment `name = value` (torch/version.py, jax/version.py,
 * old build_info.py); the last one wins. `name: type = value` too. */
gw_pyval gw__parse_py_assign(const char *text, const char *name, char *out, size_t outsz);
/* A key in a dict or tuple list: `'key': value` or `('key', value)`
 * (TensorFlow build_info.py). Falls back to the assignment form. */
gw_pyval gw__parse_py_key(const char *text, const char *key, char *out, size_t outsz);
/* RFC 822 header of METADATA / PKG-INFO: "Version", "Name". 0 or GW_ENOTFOUND. */
int gw__parse_metadata(const char *text, const char *field, char *out, size_t outsz);
/* "name-1.2.3.dist-info" → name "name" (as written), version "1.2.3". */
int gw__parse_dist_info_name(const char *dirname, char *name, size_t namesz, gw_ver *ver);
/* /proc/driver/nvidia/version first line. */
int gw__parse_nvidia_proc_version(const char *text, gw_ver *out, gw_probe_kmod_flavor *flavor);
/* os-release KEY="value" (quotes removed). 0 or GW_ENOTFOUND. */
int gw__parse_os_release(const char *text, const char *key, char *out, size_t outsz);
/* "libnvidia-ml.so.550.54.15" with base "libnvidia-ml.so" → 550.54.15.
 * GW_EPARSE unless file is base + "." + digits-and-dots. */
int gw__parse_lib_version(const char *file, const char *base, gw_ver *out);
/* A kernel-log line holding "NVRM: Xid (PCI:0000:3b:00): 79, ...". */
int gw__parse_xid_line(const char *line, unsigned *xid, char *pci, size_t pcisz);
/* /proc/modules (or any "name ..." per line list): is `module` listed? */
bool gw__parse_proc_modules(const char *text, const char *module);
/* /proc/1/cgroup or mountinfo: "docker", "kubernetes", "podman", "lxc", or NULL. */
const char *gw__parse_cgroup_container(const char *text);
/* KFD properties "key value" lines. 0 or GW_ENOTFOUND. */
int gw__parse_kfd_property(const char *text, const char *key, uint64_t *out);
/* gfx_target_version 110000 → "gfx1100", 90010 → "gfx90a". */
int gw__gfx_name(unsigned gfx_target_version, char *out, size_t outsz);
/* HSA_OVERRIDE_GFX_VERSION "10.3.0" → "gfx1030". */
int gw__gfx_from_override(const char *value, char *out, size_t outsz);
/* A torch local tag from "2.5.1+cu121" → "cu121" ("" when none). */
void gw__torch_variant(const char *version, char *out, size_t outsz);

/* torch/version.py as written by tools/generate_torch_version.py (1.x
 * plain assignments, 2.x `cuda: Optional[str] = ...`, 2.6+ `xpu`, recent
 * ROCm builds a `rocm` next to `hip`). Strings are "" when not a string. */
typedef struct gw_torch_build {
	char version[64];         /* __version__: "2.5.1+cu121", conda/Debian "2.1.2" */
	gw_pyval cuda_kind, hip_kind, rocm_kind, xpu_kind;
	char cuda[32];            /* "12.1" */
	char hip[48];             /* "6.0.32830-d62f6a171" */
	char rocm[32];            /* "6.4.1" (newer ROCm builds only) */
} gw_torch_build;
void gw__parse_torch_version_py(const char *text, gw_torch_build *out);

/* tensorflow/python/platform/build_info.py: TF 2.3+ `build_info =
 * collections.OrderedDict([...])` or a dict, TF 1.x/2.0-2.2 module
 * constants (`cuda_version_number = '10.0'`). Windows builds write
 * '64_112' for CUDA 11.2 and '64_8' for cuDNN 8: given back as "11.2"/"8". */
typedef struct gw_tf_build {
	gw_pyval is_cuda, is_rocm;
	char cuda[32];            /* "12.5.1", "" unknown */
	char cudnn[32];           /* "9" */
	bool has_archs;
	char archs[192];          /* raw list text: "'sm_60', 'compute_90'" */
} gw_tf_build;
void gw__parse_tf_build_info(const char *text, gw_tf_build *out);

/* jax/version.py or jaxlib/version.py: the release build's
 * `_release_version: str = '0.4.30'`, else `_version = "0.4.30"`, else
 * (jax <= 0.4.1) `__version__ = "0.3.8"`. "" when none is a string. */
void gw__parse_jax_version_py(const char *text, char *out, size_t outsz);

/* One `Requires-Dist:` value (PEP 508), lib/probe/requires.c:
 * "nvidia-cublas-cu12 (==12.4.5.8) ; platform_system == \"Linux\"" gives
 * name "nvidia-cublas-cu12" (normalised, PEP 503), spec "==12.4.5.8"
 * (spaces and parentheses dropped; "" = any version) and the marker as
 * written ("" = none). GW_EPARSE for no name or a marker too long to keep. */
typedef struct gw_requirement {
	char name[64];
	char spec[64];
	char marker[256];
	bool is_url;              /* "name @ https://...": no specifier */
} gw_requirement;
int gw__parse_requirement(const char *line, gw_requirement *out);
/* The next header line `field: value` of METADATA at or after *cursor
 * (the header ends at the first blank line); *cursor moves past it. 0 or
 * GW_ENOTFOUND. */
int gw__metadata_next(const char **cursor, const char *field, char *out, size_t outsz);
/* Does v satisfy a PEP 440 specifier list (">=9.1,<10.0", "==2.*", "~=2.1",
 * "" = any)? 1, 0, or -1 when it cannot tell (unknown v, "===", a clause
 * that is not a version). */
int gw__version_spec_match(const char *spec, const gw_ver *v);
/* What markers are evaluated against; NULL = doctor cannot tell. */
typedef struct gw_marker_env {
	const char *platform_system;   /* "Linux" */
	const char *sys_platform;      /* "linux" */
	const char *os_name;           /* "posix" */
	const char *platform_machine;  /* "x86_64", from the dist's WHEEL tag */
	const char *python_version;    /* "3.12", from the environment's lib/python3.12 */
	const char *extra;             /* the one extra asked for; NULL = none (extra == "") */
} gw_marker_env;
/* A PEP 508 marker: 1 true, 0 false, -1 cannot tell (a variable doctor
 * does not know, an ordering of plain strings, a syntax error). "" is true.
 * and/or follow three-valued logic: false and unknown = false. */
int gw__marker_eval(const char *marker, const gw_marker_env *env);
/* The machine of a wheel from its WHEEL file's first platform Tag
 * ("cp312-cp312-manylinux_2_17_x86_64" → "x86_64"): what the
 * platform_machine marker meant when pip installed it. 0 or GW_ENOTFOUND
 * (a pure-Python "any" wheel). */
int gw__parse_wheel_machine(const char *text, char *out, size_t outsz);
/* The extra a marker names (`extra == 'with_cuda'` → "with-cuda",
 * normalised); "" when it names none. */
void gw__marker_extra(const char *marker, char *out, size_t outsz);

/* ELF64 little-endian headers, as much as doctor needs (lib/probe/elf.c). */
typedef struct gw_elf_header {
	uint64_t shoff;           /* section header table */
	unsigned shentsize, shnum, shstrndx;
} gw_elf_header;
typedef struct gw_elf_section {
	uint32_t name, type;      /* name: offset in the section-name table */
	uint64_t offset, size;
	uint32_t link;            /* for .dynamic: the index of its string table */
} gw_elf_section;
/* The ELF header from the file's first n bytes: GW_EPARSE unless it is a
 * 64-bit little-endian ELF with a plausible section table. */
int gw__parse_elf_header(const unsigned char *b, size_t n, gw_elf_header *h);
/* Section i of a section header table of n bytes. GW_EPARSE when out of it. */
int gw__parse_elf_section(const unsigned char *table, size_t n, unsigned i, gw_elf_section *s);

/* The dynamic section (DT_NEEDED, DT_RPATH, DT_RUNPATH) of an ELF64
 * little-endian file: dyn/n the .dynamic section's bytes, str/strn its
 * string table's. Names past the table or not NUL-terminated inside it
 * are skipped; at most GW_ELF_MAX_NEEDED needed entries kept (the rest
 * counted in nneeded_all); texts that do not fit are cut. 0, or GW_EPARSE
 * when n is not a whole number of entries. */
#define GW_ELF_MAX_NEEDED 32
typedef struct gw_elf_dynamic {
	char needed[GW_ELF_MAX_NEEDED][64];
	size_t nneeded, nneeded_all;
	bool has_rpath, has_runpath;
	char rpath[GW_PROBE_PATH], runpath[GW_PROBE_PATH];
} gw_elf_dynamic;
int gw__parse_elf_dynamic(const unsigned char *dyn, size_t n, const unsigned char *str, size_t strn,
			  gw_elf_dynamic *out);
/* /etc/ld.so.cache in glibc's format ("glibc-ld.so.cache1.1", alone or
 * after the old "ld.so-1.7.0" table): calls fn with each entry's library
 * path (a NUL-terminated string inside b) until fn returns false.
 * Returns the number of entries visited, or GW_EPARSE when b is not such
 * a cache. Offsets outside b are skipped. */
int gw__parse_ld_cache(const unsigned char *b, size_t n, bool (*fn)(const char *path, void *arg), void *arg);

/* ---- between the probe files (lib/probe) ------------------------------ */

/* State of one run, shared by the probe files. */
typedef struct gw_probe_ctx {
	const gw_probe_options *opts;
	const char *root;               /* "" for the real tree */
	gw_probe_report *r;
	bool have_user;
	char user[64];
	unsigned uid, gid;
	unsigned groups[64];            /* supplementary groups (real system) */
	int ngroups;
	bool real_groups;
	char *etc_group;                /* <root>/etc/group, or NULL */
} gw_probe_ctx;

bool gw__probe_exists(const gw_probe_ctx *c, const char *path);
bool gw__probe_is_dir(const gw_probe_ctx *c, const char *path);
/* Resolve symlinks of an absolute path inside the root (absolute link
 * targets are taken relative to the root). out is root-relative. */
int gw__probe_resolve(const gw_probe_ctx *c, const char *path, char *out, size_t outsz);
/* Sorted names in a folder starting with prefix ("" = all; never . or ..;
 * at most 4096). A folder that cannot be listed is an error, not an empty
 * folder: GW_ENOTFOUND (absent), GW_EPERM, GW_EIO or GW_ENOMEM, with *names
 * NULL and *n 0 (so freeing is always safe). */
int gw__probe_list_dir(const gw_probe_ctx *c, const char *path, const char *prefix, char ***names, size_t *n);
void gw__probe_names_free(char **names, size_t n);
/* Join dir + "/" + name into out; false when it does not fit. */
bool gw__probe_join(char *out, size_t outsz, const char *dir, const char *name);
/* Fill a device node record (existence, access, owning group, membership). */
void gw__probe_node(gw_probe_ctx *c, const char *path, gw_probe_node *out);
/* Read a small text file; NULL when absent. Free with gw__free. */
char *gw__probe_read(const gw_probe_ctx *c, const char *path, size_t limit);

/* An installed distribution (a *.dist-info or *.egg-info folder). */
typedef struct gw_probe_dist {
	char norm[64];            /* PEP 503 normalised name */
	gw_ver version;
} gw_probe_dist;
/* Check the CUDA wheels each framework's METADATA requires against the
 * environment's dists (lib/probe/wheels.c). */
void gw__probe_fw_wheels(gw_probe_ctx *c, gw_probe_pyenv *e, const gw_probe_dist *dists, size_t ndists);

int gw__probe_hardware(gw_probe_ctx *c);
int gw__probe_nvidia_driver(gw_probe_ctx *c);
int gw__probe_cuda(gw_probe_ctx *c);
int gw__probe_python(gw_probe_ctx *c);
int gw__probe_amd(gw_probe_ctx *c);
int gw__probe_sysenv(gw_probe_ctx *c);
int gw__probe_xids(gw_probe_ctx *c);
int gw__probe_dist(gw_probe_ctx *c);
/* Read an ELF file's .dynstr and .rodata for the facts of gw_probe_elf
 * (bounded: .dynstr ≤ 32 MiB, .rodata's first 256 MiB). */
void gw__probe_elf(gw_probe_ctx *c, const char *path, gw_probe_elf *out);
/* The dynamic section of the ELF file at path (under the root); false
 * when it is not a readable ELF64 little-endian file with one. */
bool gw__probe_elf_dynamic(gw_probe_ctx *c, const char *path, gw_elf_dynamic *out);
/* The dynamic loader's view (lib/probe/ldso.c): which toolkit library
 * folders it finds, and which system CUDA libraries the frameworks that
 * rely on them can load. Runs after the CUDA and Python probes. */
int gw__probe_loader(gw_probe_ctx *c);
/* Scan a folder for CUDA libraries (file names) into has/version. */
void gw__probe_scan_cudalibs(gw_probe_ctx *c, const char *dir, bool has[GW_CUDALIB_COUNT],
			     gw_ver version[GW_CUDALIB_COUNT]);

#endif

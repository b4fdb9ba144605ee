/* What a doctor rule needs, and nothing of the runner or the JSON writer.
 * Each rule is a small function named after the finding it decides; it
 * reads the run's facts (probe report, live devices) from gw__doctor and
 * calls gw__doc_add() only when its condition holds. Finding construction
 * and formatting: finding.c; facts shared by several rules: facts.c. */
#ifndef GPUWISE_DOCTOR_RULE_H
#define GPUWISE_DOCTOR_RULE_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "core/error.h"
#include "gpuwise/doctor.h"
#include "gpuwise/language.h"
#include "probe/probe.h"

/* The state of one run. */
typedef struct gw__doctor {
	gw_doctor_report *rep;         /* the findings so far: only through finding.c */
	const gw_doctor_options *opts;
	gw_probe_report *p;
	gw_context *ctx;               /* NULL with GW_DOCTOR_NO_LIVE or when it failed */
	int ndev;
	gw_device_sample *sample;      /* per context device */
	bool *have_sample;
	bool fake_root;                /* GPUWISE_ROOT is set: judge files, not this host */
	unsigned uid;
	gw_ver driver;                 /* NVIDIA user-space (else kernel module) version */
	gw_ver driver_max_cuda;        /* highest CUDA the driver runs */
	int nnvidia;                   /* NVIDIA GPUs seen (PCI or NVML) */
	int namd;                      /* AMD GPUs seen (PCI or KFD) */
	bool oom;
	const volatile sig_atomic_t *cancel;  /* opts->cancel (version 2), else NULL */
} gw__doctor;

/* Marks for the data catalogue (scripts/update-po), as in cli/commands.h:
 * N_("text") a text gw__doc_add translates, _("format") a text translated
 * where it is used. */
#ifndef N_
#define N_(s) (s)
#endif
#ifndef _
#define _(s) gw_translate(s)
#endif

/* ---- finding construction and formatting (finding.c) ---------------------- */

/* Add a finding. sev < 0 takes the catalogue's default; title NULL takes
 * the catalogue's title. Evidence and fix are copied; title and fix in the
 * user's language (gw_translate): scripts/update-po extracts the literal
 * texts given to gw__doc_add, and those marked N_() (given through a
 * variable) or _() (a format, translated where it is used), into the data
 * catalogue po/data/. */
void gw__doc_add(gw__doctor *d, const char *id, const char *layer, int sev, const char *title,
		 const char *evidence, const char *fix);
/* After every rule: mark which info findings stay ✓ (gw_finding.ok). */
void gw__doc_settle(gw__doctor *d, int usable);
/* Has a finding with this id been added so far? */
bool gw__doc_fired(const gw__doctor *d, const char *id);
/* printf into a bounded buffer (truncates; never warns at compile time). */
void gw__doc_fmt(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Append printf text to a bounded buffer (keeps the NUL, truncates). */
void gw__doc_cat(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* What separates two items of an evidence ("; ", in Chinese "；"). */
const char *gw__doc_sep(void);
/* What separates two facts of one item (", ", in Chinese "，"). */
const char *gw__doc_comma(void);
/* What introduces a quoted message (": ", in Chinese "："). */
const char *gw__doc_colon(void);

/* ---- facts shared by rules (facts.c) ---------------------------------------- */

/* "cu121" → 12.1 (false when not a cuXYZ tag). */
bool gw__doc_variant_cuda(const char *variant, gw_ver *out);
/* The newest PyTorch CUDA wheel (variant, torch version) whose build runs
 * on every NVIDIA GPU here and on this driver (when known). prefer_safe:
 * first look for CUDA ≤ the driver's own maximum. False when none. */
bool gw__doc_best_torch(const gw__doctor *d, char *variant, size_t vn, char *torch, size_t tn);
/* The device's compute capability (NVML, else the PCI id table). */
bool gw__doc_cc(const gw__doctor *d, int dev_or_pci, bool is_pci, unsigned *major, unsigned *minor);
/* Can this user open the node (mode bits and groups under a fake root,
 * access() on the real system)? */
bool gw__doc_node_ok(const gw__doctor *d, const gw_probe_node *n);
/* A framework's display name: "PyTorch 2.3.0+cu121". */
void gw__doc_fw_name(const gw_probe_framework *f, char *buf, size_t n);
/* Can a CUDA or ROCm framework use context device i (an NVIDIA or AMD GPU
 * that its library reads)? And how many such GPUs are there? */
bool gw__doc_gpu_usable(const gw__doctor *d, int i);
int gw__doc_usable_gpus(const gw__doctor *d);

/* ---- rule groups, in report order ------------------------------------------ */
void gw__doctor_rules_hardware(gw__doctor *d);
void gw__doctor_rules_driver(gw__doctor *d);
void gw__doctor_rules_cuda(gw__doctor *d);
void gw__doctor_rules_python(gw__doctor *d);
void gw__doctor_rules_live(gw__doctor *d);
void gw__doctor_rules_environment(gw__doctor *d);
/* The distributed stack: NCCL, Horovod, GPU and NIC topology (rules_dist.c). */
void gw__doctor_rules_dist(gw__doctor *d);
/* After every other rule: findings that depend on what the others said. */
void gw__doctor_rules_final(gw__doctor *d);

#endif

/* Between the runner (doctor.c), the report (report.c) and --deep
 * (deep.c). Rules include doctor/rule.h only. */
#ifndef GPUWISE_DOCTOR_INT_H
#define GPUWISE_DOCTOR_INT_H

#include "doctor/rule.h"

struct gw_doctor_report {
	gw_finding *f;
	size_t n, cap;
	char verdict[256];
	bool ready; /* no error finding and a GPU usable: the verdict says "ready" */
	gw_doctor_deep *deep;
	size_t ndeep;
	/* Kept for the JSON summary. */
	gw_probe_report *probe;
	char driver_version[48];
	char cuda_driver[16];
	int ngpus, nreadable;
	char root[GW_PROBE_PATH];
};

/* The live devices (d->ctx, samples) unless GW_DOCTOR_NO_LIVE, then the
 * driver facts (d->driver, d->driver_max_cuda, GPU counts): doctor's run
 * and setup's plan (setup.c) start from the same facts. */
void gw__doctor_read_live(gw__doctor *d);
void gw__doctor_driver_facts(gw__doctor *d);

/* --deep: run each framework of each environment in a subprocess.
 * GW_EGENERIC ("interrupted") when opts->cancel was set. */
int gw__doctor_deep(gw__doctor *d);

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

#endif

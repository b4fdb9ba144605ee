/* Between the runner (doctor.c), the report (report.c) and --deep
 * (deep.c, children.c). Rules include doctor/rule.h only. */
#ifndef GPUWISE_DOCTOR_INT_H
#define GPUWISE_DOCTOR_INT_H

#include "doctor/rule.h"

struct gw_doctor_report {
	gw_finding *f;
	size_t n, cap;
	char verdict[256];
	gw_doctor_deep *deep;
	size_t ndeep;
	/* Kept for the JSON summary. */
	gw_probe_report *probe;
	char driver_version[48];
	char cuda_driver[16];
	int ngpus, nreadable;
	char root[GW_PROBE_PATH];
};

/* --deep: run each framework of each environment in a subprocess.
 * GW_EGENERIC ("interrupted") when opts->cancel was set. */
int gw__doctor_deep(gw__doctor *d);

/* One subprocess of --deep and everything it starts (children.c). */
typedef struct gw__spawn {
	pid_t pid;                     /* the interpreter, leader of its own group */
	pid_t parent;                  /* getpid() at the start */
	char token[96];                /* GPUWISE_DEEP_RUN=..., in its environment */
	bool subreaper;                /* this process adopts orphans (the CLI sets it) */
	pid_t *before;                 /* our children before the start (subreaper only) */
	size_t nbefore;
} gw__spawn;

/* fork + execve(path, argv) with stdout and stderr on out_fd, stdin
 * at end of file. 0, GW_ENOMEM or GW_EGENERIC (fork failed). */
int gw__spawn_start(gw__spawn *s, const char *path, char *const argv[], int out_fd);
/* Has the interpreter exited (not reaped yet)? */
bool gw__spawn_exited(const gw__spawn *s);
/* Kill the interpreter and every process of its run (group, descendants,
 * environment token, adopted orphans), reap what is ours; bounded (about a
 * second). Returns the interpreter's wait status, -1 when none. */
int gw__spawn_end(gw__spawn *s);
/* /proc/<pid>/stat: the parent, the process group and the state letter. */
int gw__parse_proc_stat(const char *text, int *ppid, int *pgid, char *state);

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

/* gpuwise — library internals shared by lib/ (not installed, not used by cli/).
 *
 * Semi-private names are gw__<module>_<verb>. lib/core is the only layer
 * that touches the operating system: every file read, listing, stat,
 * access check and readlink goes through the root-aware helpers below
 * (lib/core/path.c), and those, like every allocation, dlopen and dlsym,
 * through the one replaceable system-call table of lib/core/sys.c, so fault
 * injection (GPUWISE_FAULT) reaches every call.
 */
#ifndef GPUWISE_INTERNAL_H
#define GPUWISE_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "gpuwise/gpuwise.h"

#define GW_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define GW_PATH_MAX 4096

/* ---- errors (lib/core/error.c) ---------------------------------------- */

/* Set the thread-local message and return `code` (negative). */
int gw__error_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A message the library keeps for later (a backend's status message) as
 * gw__error_set keeps the last error: its format, the catalogue's msgid,
 * and each value as printed, so that it is translated where it is used
 * (doctor's evidence) and never when it is made (docs/languages.md). */
#define GW__MSG_PIECES 16
typedef struct gw__msg {
	const char *format;                 /* NULL: untranslatable, use the English text */
	const struct gw__msg *sub;          /* piece sub_piece is this message (a reason */
	int sub_piece;                      /* quoting a backend's), translated as one */
	int npieces;
	unsigned short at[GW__MSG_PIECES];  /* offsets into text */
	char text[1024];                    /* the values, each NUL-terminated */
} gw__msg;

/* Mark a text for the catalogue without translating it (xgettext's N_):
 * a reason given as a value of a kept message is translated with it. */
#ifndef N_
#define N_(s) (s)
#endif

/* Print fmt's English message into out (n bytes) and keep its pieces in m. */
void gw__msg_set(gw__msg *m, char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void gw__msg_vset(gw__msg *m, char *out, size_t n, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
/* Piece `piece` of m (the one given sub's English message) is sub. */
void gw__msg_nest(gw__msg *m, int piece, const gw__msg *sub);
/* The thread's last error, kept in m and its English message in out. */
void gw__msg_from_last(gw__msg *m, char *out, size_t n);
/* The thread's last error becomes m again (kept by gw__msg_from_last with
 * its English message english): returns code. A cached failure reported a
 * second time keeps its msgid, so it is still translated where printed. */
int gw__error_restore(int code, const gw__msg *m, const char *english);
/* english (what m was made with) in the catalogue's language, in out (n
 * bytes); english itself when there is no translation. */
const char *gw__msg_text(const gw__msg *m, const char *english, char *out, size_t n);

/* ---- system-call table with fault injection (lib/core/sys.c) ---------- */

/* GPUWISE_FAULT="KIND:N" makes the Nth call of that kind (1-based, counted
 * per process) fail once: alloc, dlopen, dlsym, read (a whole file read or
 * listing), or one system call (open, fdread, stat, opendir, readdir,
 * readlink, access, ...: core/sys.h). Read once. */
void *gw__malloc(size_t n);
void *gw__calloc(size_t n, size_t size);
void *gw__realloc(void *p, size_t n);
char *gw__strdup(const char *s);
void gw__free(void *p);
void *gw__dlopen(const char *name);       /* RTLD_NOW | RTLD_LOCAL */
void *gw__dlsym(void *handle, const char *sym);
int gw__dlclose(void *handle);
const char *gw__dlerror(void);
/* getuid(2), getegid(2), getgroups(2) through the table. */
unsigned gw__getuid(void);
unsigned gw__getegid(void);
int gw__getpid(void);
/* Supplementary groups into out (at most max): how many, or -1. */
int gw__getgroups(unsigned *out, int max);
/* The value of an environment variable that picks a library, a file or a
 * folder for gpuwise (GPUWISE_*_LIBRARY, GPUWISE_ROOT, GPUWISE_POOL_DIR,
 * GPUWISE_LOCALEDIR, GPUWISE_FAULT, VIRTUAL_ENV for a library): NULL in a
 * set-uid, set-gid or capability-raised process (secure_getenv(3), the
 * kernel's AT_SECURE), as the dynamic loader ignores LD_LIBRARY_PATH
 * there, so whoever runs such a program cannot make it load their
 * library or read their tree. Every such variable goes through here
 * (tests/lint/layering.sh checks that no getenv("GPUWISE_...") remains). */
const char *gw__env_path(const char *name);
/* Keep an already loaded library mapped for the life of the process
 * (RTLD_NOLOAD | RTLD_NODELETE): loads nothing new. */
void gw__dlopen_keep(const char *name);

/* ---- the metric table (lib/core/metrics.c) ------------------------------ */

/* Set every sampled metric of the table (include/gpuwise/metrics.h) to
 * state st with code 0: a backend's "I cannot know these" defaults, which
 * it then overwrites with what it can read. */
void gw__metrics_fail_sample(gw_device_sample *sample, gw_field_state st);

/* ---- paths and files (lib/core/path.c) -------------------------------- */

/* Write root + path into out (size outsz). path must be absolute.
 * root "/" or "" leaves it unchanged. Returns 0 or GW_EINVAL when too long. */
int gw__path_join(char *out, size_t outsz, const char *root, const char *path);

/* Read a whole file under root into a NUL-terminated malloc'd buffer of at
 * most `limit` bytes (sysfs/proc files are small; the limit bounds garbage).
 * Returns 0, GW_ENOTFOUND, GW_EPERM, GW_EIO or GW_ENOMEM. */
int gw__read_file(const char *root, const char *path, size_t limit, char **out, size_t *len);

/* Read a small file into buf (size bufsz), trailing whitespace stripped. */
int gw__read_small(const char *root, const char *path, char *buf, size_t bufsz);

/* The names in directory root+path (without "." and ".."), sorted, as a
 * malloc'd array of malloc'd strings (at most 65536); free with
 * gw__dir_list_free(). Returns 0, GW_ENOTFOUND, GW_EPERM, GW_EIO or GW_ENOMEM. */
int gw__dir_list(const char *root, const char *path, char ***out, size_t *count);
void gw__dir_list_free(char **names, size_t count);
/* The same, keeping only names that start with prefix ("" = all), at most
 * max of them. A folder that cannot be listed is an error (GW_ENOTFOUND,
 * GW_EPERM, GW_EIO), never an empty list; on error *out is NULL, *count 0. */
int gw__dir_list_match(const char *root, const char *path, const char *prefix, size_t max, char ***out,
		       size_t *count);
/* The same, keeping only the names accept() takes (NULL: all); *capped
 * (may be NULL) says whether max names were kept and more were left. */
int gw__dir_list_filter(const char *root, const char *path, const char *prefix, bool (*accept)(const char *name),
			size_t max, char ***out, size_t *count, bool *capped);

/* What stat(2) says about root+path (links followed). */
typedef struct gw_file_stat {
	bool is_dir, is_reg, is_chr;
	unsigned mode;             /* permission bits (07777) */
	unsigned uid, gid;
	uint64_t size;
} gw_file_stat;

/* 0, GW_ENOTFOUND, GW_EPERM or GW_EIO. */
int gw__path_stat(const char *root, const char *path, gw_file_stat *out);
bool gw__path_exists(const char *root, const char *path);
bool gw__path_is_dir(const char *root, const char *path);
/* access(2) on root+path (R_OK, W_OK, X_OK): 0, GW_EPERM, GW_ENOTFOUND, GW_EIO. */
int gw__path_access(const char *root, const char *path, int mode);

/* realpath(3) of a path on this host (not under a root: for the file a
 * library was loaded from). 0, or a negative code and out untouched. */
int gw__realpath(const char *path, char *out, size_t outsz);

/* Resolve the symbolic links of an absolute path inside the root: absolute
 * link targets are taken relative to the root (the kernel would follow them
 * out of a fake tree). out is root-relative. 0 or GW_EINVAL (too long, a
 * loop); absent components are kept as written. */
int gw__path_resolve(const char *root, const char *path, char *out, size_t outsz);

/* The last `limit` bytes of a regular file (a log) into a NUL-terminated
 * malloc'd buffer. Returns 1 when the start was cut, 0 when the whole file
 * was read, or GW_ENOTFOUND, GW_EPERM, GW_EINVAL (not a regular file),
 * GW_EIO, GW_ENOMEM. */
int gw__read_tail(const char *root, const char *path, size_t limit, char **out, size_t *len);

/* Up to n bytes of root+path from byte `offset` into buf (a section of a
 * large binary: doctor reads a few of an extension's ELF sections). *got
 * is how many were read (fewer at the end of the file). 0, GW_ENOTFOUND,
 * GW_EPERM, GW_EINVAL or GW_EIO. */
int gw__read_at(const char *root, const char *path, uint64_t offset, void *buf, size_t n, size_t *got);

/* The target of the symbolic link root+path, NUL-terminated, as written
 * (relative or absolute). Returns 0, GW_ENOTFOUND (absent or not a link),
 * GW_EINVAL (too long) or GW_EIO. */
int gw__readlink(const char *root, const char *path, char *buf, size_t bufsz);

/* Parse unsigned decimal or 0x-hex integer from a sysfs-style value. Returns
 * 0 or GW_EPARSE when the text is not a whole number (trailing space OK). */
int gw__parse_u64(const char *s, uint64_t *out);

/* "0x10de" / "0x030200" / "10de": a hex number (at most 8 digits, blanks
 * around allowed) no larger than max. 0 or GW_EPARSE. */
int gw__parse_hex(const char *s, uint32_t max, uint32_t *out);

/* ---- small string helpers (lib/core/util.c) --------------------------- */

/* snprintf into a fixed buffer, always NUL-terminated, truncating. */
void gw__strlcpy(char *dst, const char *src, size_t size);
/* Now on `clock` in seconds: CLOCK_MONOTONIC for intervals and deadlines,
 * CLOCK_REALTIME for timestamps people read. */
double gw__seconds(clockid_t clock);
/* For messages and other text a person reads: snprintf into out[size]; a
 * text that does not fit ends in "…" (never a character cut in two), so a
 * cut is never silent. Returns true when it fit. Paths must not use this. */
bool gw__fmt(char *out, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool gw__vfmt(char *out, size_t size, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
/* End the full buffer buf[size] with "…" (the text was cut). */
void gw__mark_cut(char *buf, size_t size);
void gw__str_set(gw_str *f, const char *s);         /* VALID with value s */
void gw__u64_set(gw_u64 *f, uint64_t v);            /* VALID */
void gw__f64_set(gw_f64 *f, double v);              /* VALID */
#define GW_FIELD_FAIL(f, st, c) do { (f).state = (st); (f).code = (c); } while (0)

/* Append the bytes s[0..n) to the string in out (size outsz, truncating
 * at a character boundary): valid UTF-8 kept, control characters (C0, DEL,
 * C1) and bytes that are not UTF-8 as '?'. */
void gw__copy_printable(char *out, size_t outsz, const char *s, size_t n);

/* Length (1-4) of the valid UTF-8 sequence at s (n bytes available), 0 when
 * invalid: overlong forms, surrogates and code points past U+10FFFF. */
size_t gw__utf8_seq_len(const unsigned char *s, size_t n);

/* Normalise a PCI bus id ("00000000:18:00.0", "0000:18:00.0", "18:00.0",
 * upper or lower case) to "0000:18:00.0". Returns 0 or GW_EPARSE. */
int gw__pci_bus_id_normalize(const char *in, char out[16]);

/* ---- devices and the context (lib/context/context.c; lib/device/device.c) --------------------- */

typedef struct gw_backend gw_backend;

typedef struct gw_device {
	gw_device_info info;
	const gw_backend *owner;   /* backend that serves samples/processes */
	void *handle;              /* owner's per-device handle (e.g. nvmlDevice_t) */
	char sysfs_path[256];      /* /sys/bus/pci/devices/<bus id> (unresolved), or "" */
	char drm_card[32];         /* AMD: "card0", or "" */
	/* MIG devices of this GPU that CUDA numbers (CUDA_VISIBLE_DEVICES=MIG-...):
	 * their UUID as CUDA gives it and the CUDA ordinal. */
	struct {
		char uuid[48];
		int ordinal;
	} cuda_mig[GW_MAX_MIG];
	int ncuda_mig;
	gw__msg reason_msg;        /* info.health_reason, kept for translation */
} gw_device;

struct gw_context {
	char root[GW_PATH_MAX];
	gw_options opts;
	gw_device *devices;
	int ndevices;
	int cap;
	gw_driver_info driver;
	gw_backend_status status[8];
	gw__msg status_msg[8];     /* each status's message, kept for translation */
	void *state[8];            /* per-backend state, parallel to gw__backends */
	int nbackends;
	/* <root>/proc/stat's btime, read by the first gw_process_host_read()
	 * (it never changes): 1 read, -1 unreadable, 0 not tried. */
	int boot_time_state;
	double boot_time;
	/* The PCI bus as gw__pci_scan_ctx() walked it once (lib/core/pci.c):
	 * the amdgpu and pci backends both need it while the context opens. */
	struct gw__pci_cache *pci;
};

/* Append a zero-initialised device (all fields UNREAD, indices -1).
 * Returns NULL and sets the error on allocation failure. */
gw_device *gw__device_add(gw_context *ctx);

/* A device that was lost while sampling (it had a handle, then its driver
 * said GPU_IS_LOST) is made healthy again so the next sample tries it: a
 * GPU that came back is read, one still lost is marked lost again by its
 * backend. False (nothing changed) for any other device. The sampler
 * (lib/context/sampler.c) calls it; one-shot commands keep "lost" as read. */
bool gw__device_retry_lost(gw_context *ctx, int index);

/* A backend's status message (st is one of ctx->status): set from a
 * format like gw__error_set's (its values may be reasons marked N_), or
 * taken from the last error; read in the user's language with
 * gw_context_backend_message(). */
void gw__status_msg(gw_context *ctx, gw_backend_status *st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void gw__status_vmsg(gw_context *ctx, gw_backend_status *st, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
void gw__status_msg_from_last(gw_context *ctx, gw_backend_status *st);

/* d->info.health_reason, set like gw__status_msg; read in the user's
 * language with gw_device_health_reason(). */
void gw__device_reason(gw_device *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same, with its last %s the message of a backend's status st (one of
 * ctx's), translated with it. */
void gw__device_reason_quoting(const gw_context *ctx, gw_device *d, const gw_backend_status *st, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Look up by normalised bus id or exact UUID; NULL when absent. */
gw_device *gw__device_by_bus_id(gw_context *ctx, const char *bus_id);
gw_device *gw__device_by_uuid(gw_context *ctx, const char *uuid);

/* ---- backends (lib/backend/) ------------------------------------------ */

/* One vendor backend. Listed once in gw__backends[] (lib/backend/backends.c)
 * in the order they run: nvml, amdgpu, pci (adds driverless GPUs the
 * others did not claim), cuda (annotates NVIDIA devices with CUDA's view).
 * Every callback may be NULL. */
/* Each backend fills it with designated initializers (in lib/backend/), so a
 * new callback edits only this struct and the backends that offer it; an
 * unset callback is NULL: the backend does not offer it. */
struct gw_backend {
	const char *name;
	gw_backend_id id;   /* the public number of this backend */
	/* Load the library / check the subsystem, enumerate and fill static
	 * info of the devices it serves (add new ones or annotate existing ones
	 * found by bus id / UUID). Fill *status. Return 0 even when the vendor
	 * is absent (status says why); negative only for ENOMEM-like failures. */
	int (*open)(gw_context *ctx, void **state, gw_backend_status *status);
	void (*close)(void *state);
	int (*sample)(void *state, gw_context *ctx, gw_device *dev, gw_device_sample *out);
	/* Fill a malloc'd array of processes (pid, type, memory, MIG ids);
	 * /proc resolution is done by the caller. */
	int (*processes)(void *state, gw_context *ctx, gw_device *dev, gw_process **out, size_t *count);
	/* Per-process utilisation, one entry per pid (malloc'd); NULL when
	 * the backend has none (gw_device_process_utilization says ENOTSUP). */
	int (*process_util)(void *state, gw_context *ctx, gw_device *dev, gw_process_util **out, size_t *count);
	/* Xid events (NVIDIA), for the sampler's event thread: they touch the
	 * backend's library and device handles only, never a gw_device, so
	 * they may run beside a pass. events_open makes an empty set;
	 * events_add registers one device's handle on it (0, GW_ENOTSUP, GW_ELOST,
	 * ...); events_wait returns 1 with the device handle and the Xid, 0
	 * when timeout_ms passed without one, negative when the wait failed
	 * (a lost GPU); events_close frees the set. */
	int (*events_open)(void *state, void **set);
	int (*events_add)(void *state, void *set, void *handle);
	int (*events_wait)(void *state, void *set, unsigned timeout_ms, void **handle, uint64_t *xid);
	void (*events_close)(void *state, void *set);
	/* Topology and peer access from a to b (both this backend's); NULL
	 * when the backend cannot tell. Fills what it reads, leaves the rest. */
	int (*peer)(void *state, gw_context *ctx, gw_device *a, gw_device *b, gw_peer_info *out);
};

extern const gw_backend *const gw__backends[];  /* NULL-terminated */

extern const gw_backend gw__backend_nvml;
extern const gw_backend gw__backend_cuda;
extern const gw_backend gw__backend_pci;
extern const gw_backend gw__backend_amdgpu;

/* ---- the PCI bus (lib/core/pci.c) ------------------------------------- */

/* The one rule of what a GPU is: a display controller (PCI base class
 * 0x03) made by NVIDIA, AMD or Intel. */
bool gw__pci_is_display_class(uint32_t pci_class);
gw_vendor gw__pci_vendor(uint32_t vendor_id);      /* GW_VENDOR_UNKNOWN for other makers */

/* One row per GPU vendor (lib/core/vendor.c): every vendor literal lives there. */
typedef struct gw__vendor_traits {
	gw_vendor vendor;
	uint32_t pci_vendor_id;          /* 0x10de; 0 for the unknown row */
	const char *id;                  /* "nvidia": gw_vendor_name(), JSON */
	const char *short_name;          /* "NVIDIA": names of GPUs no table knows */
	const char *compute_driver;      /* kernel driver frameworks use; NULL: none */
	const char *visible_devices[3];  /* variables that pick devices for a framework */
	const char *uuid_prefix;         /* "GPU-" where the vendor's UUIDs carry one */
} gw__vendor_traits;
/* Never NULL: a vendor gpuwise does not know gets the "unknown" row. */
const gw__vendor_traits *gw__vendor_traits_of(gw_vendor v);
const gw__vendor_traits *gw__vendor_traits_by_pci(uint32_t pci_vendor_id);
bool gw__pci_is_gpu(uint32_t pci_class, uint32_t vendor_id);

/* One GPU function on the bus. */
typedef struct gw_pci_fn {
	char dir[256];            /* the folder to read: /sys/bus/pci/devices/<id>, or its absolute link target */
	char bus_id[16];          /* normalised "0000:18:00.0" */
	uint32_t class_code, vendor, device, subsys_vendor, subsys_device;
	bool have_device;         /* false: device unreadable (device is 0xffff) */
	bool have_subsys;
	int revision;             /* PCI revision id; -1 when unreadable */
	char driver[64];          /* bound kernel driver ("nvidia", "amdgpu", "vfio-pci"); "" = none */
} gw_pci_fn;

/* Every GPU in <root>/sys/bus/pci/devices, in bus order, as a malloc'd
 * array (free with gw__free; NULL when none). 0, or the listing's error
 * (GW_ENOTFOUND, GW_EPERM, GW_EIO) or GW_ENOMEM. */
int gw__pci_scan(const char *root, gw_pci_fn **out, size_t *count);
/* The same for the context's root, walked once per context: the array
 * stays the context's (never freed by the caller). An error is reported
 * again, with its first text, to each caller. */
int gw__pci_scan_ctx(gw_context *ctx, const gw_pci_fn **out, size_t *count);
void gw__pci_scan_ctx_free(gw_context *ctx);

/* Read <dir>/<name> as a hex number no larger than max (sysfs vendor,
 * device, class). 0, the read's error, or GW_EPARSE. */
int gw__pci_read_hex(const char *root, const char *dir, const char *name, uint32_t max, uint32_t *out);
/* The folder to read for the entry `path`: the entry itself, or the target
 * of an absolute symbolic link, taken under the root. */
void gw__pci_device_dir(const char *root, const char *path, char *out, size_t outsz);
/* The basename of the target of <dir>/driver ("nvidia"); "" when none. */
void gw__pci_driver_name(const char *root, const char *dir, char *buf, size_t bufsz);

/* ---- child processes (lib/core/spawn.c) ------------------------------- */

/* A program gpuwise runs (doctor --deep's interpreters, the probe's python3
 * query) and everything it starts. Each of them ends when the run ends,
 * also when gpuwise is interrupted: see spawn.c for the four marks that
 * find them (process group, ancestry, an environment token, adoption). */
typedef struct gw__spawn {
	int pid;                       /* the program, leader of its own group */
	int parent;                    /* getpid() at the start */
	char token[96];                /* GPUWISE_DEEP_RUN=..., in its environment */
	bool subreaper;                /* this process adopts orphans (the CLI sets it) */
	int *before;                   /* our children before the start (subreaper only) */
	size_t nbefore;
} gw__spawn;

/* fork + execve(path, argv) with stdout on out_fd, stderr on err_fd (-1:
 * /dev/null), stdin at end of file. 0, GW_ENOMEM or GW_EGENERIC (the pipe or
 * the fork failed, message set). */
int gw__spawn_start(gw__spawn *s, const char *path, char *const argv[], int out_fd, int err_fd);
/* Has the program exited (not reaped yet)? */
bool gw__spawn_exited(const gw__spawn *s);
/* Kill the program and every process of its run (group, descendants,
 * environment token, adopted orphans), reap what is ours; bounded (about a
 * second). Returns the program's wait status, -1 when none. */
int gw__spawn_end(gw__spawn *s);

/* Run a program to its end and hand its output to a callback. It ends when
 * the program exits, not when the pipe closes: a process it left behind may
 * hold the pipe open for ever. Whatever it started ends with it
 * (gw__spawn_end), on exit, on timeout and on cancel. */
typedef struct gw__run {
	double timeout_s;                  /* > 0: kill it after that long */
	const volatile sig_atomic_t *cancel; /* non-NULL: stop when *cancel becomes nonzero */
	bool merge_stderr;                 /* stderr with stdout, else /dev/null */
	void (*output)(void *arg, const char *buf, size_t n);
	void *arg;
	/* Results. */
	int exit_status;                   /* its exit code; -1 when killed, timed out or not run */
	bool timed_out, cancelled;
	double seconds;                    /* wall time */
} gw__run;
/* 0 when it ran (whatever its status), or the error of gw__spawn_start. */
int gw__run_program(gw__run *r, const char *path, char *const argv[]);
/* /proc/<pid>/stat: the parent, the process group and the state letter. */
int gw__parse_proc_stat(const char *text, int *ppid, int *pgid, char *state);

/* ---- the GPU pool's folder and jobs (lib/core/poolfs.c) --------------- */

/* Open the pool folder (never through a symbolic link) and check that it
 * may be trusted: the caller's own or root's, and writable by others only
 * when root-owned and sticky, or group-shared (setgid or sticky); another
 * ordinary user's folder is GW_EPERM. When missing and create is set it is
 * made: mode 0700, or 01777 when root makes it. *dirfd: every pool file is
 * opened relative to it. */
int gw__pool_dir_open(const char *dir, bool create, int *dirfd);
/* The same, closing the folder again. */
int gw__pool_dir_check(const char *dir, bool create);
/* Why a folder with this owner and mode is not trusted by uid me; NULL when
 * it is. */
const char *gw__pool_dir_refusal(unsigned owner, unsigned mode, unsigned me);
enum {
	GW__POOL_CREATE = 0x1,   /* create when missing (shared mode, past the umask) */
	GW__POOL_EXCL = 0x2,     /* with CREATE: it must not exist yet (else 2, nothing opened) */
	GW__POOL_INHERIT = 0x4,  /* no O_CLOEXEC: the job inherits it (and its lock) */
	GW__POOL_WRITE = 0x8,    /* read-only is not enough */
	GW__POOL_PRIVATE = 0x10, /* with CREATE: 0644, only its owner writes it */
	GW__POOL_READ = 0x20     /* read-only (its close is no write for a watcher) */
};
/* Open <dir>/<name> without following links; a plain file with one link
 * or an error naming it. 1 when it was created, 0 when it existed, 2 when
 * it existed and GW__POOL_EXCL was given (*fd untouched). */
int gw__pool_open(int dirfd, const char *dir, const char *name, unsigned flags, int *fd);
/* flock: 0 taken, 1 someone else holds it (only when !wait), or an error. */
int gw__pool_lock(int fd, bool exclusive, bool wait);
void gw__pool_unlock(int fd);
void gw__pool_close(int fd);
/* Replace the whole content / read it (NUL-terminated; the length). */
int gw__pool_write(int fd, const char *text);
int gw__pool_read(int fd, char *buf, size_t size);
int gw__pool_remove(int dirfd, const char *name);
/* False once the open file has been removed from the folder (or replaced). */
bool gw__pool_linked(int fd);
/* Watch the pool folder for files closed or removed (inotify): the fd, or
 * an error (no inotify, or the limit on watchers reached). */
int gw__pool_watch(const char *dir);
/* Wait up to timeout_ms for an event on a file of the folder that
 * matters(name, inotify mask) accepts: 1 when one came, 0 after the
 * timeout or when a signal arrived, or an error. */
int gw__pool_watch_wait(int fd, int timeout_ms, bool (*matters)(const char *name, uint32_t mask));
/* Who holds the flock on a file of the pool folder (/proc/locks): the pid
 * that took it and, when that one has ended, a process that still has the
 * file open (a job's leftover child), with its uid and command name. 1 when
 * the file is locked, 0 when not (or it cannot be told). */
typedef struct gw__holder {
	int locker;          /* the pid /proc/locks names */
	bool locker_gone;    /* it has ended: pid is one that kept the file open */
	int pid;             /* 0: unknown */
	bool have_uid;
	unsigned uid;
	char comm[32];
} gw__holder;
int gw__pool_holder(int dirfd, const char *name, gw__holder *h);
/* Who owns an open pool file and its permission bits (mode & 07777). */
int gw__pool_owner(int fd, unsigned *uid, unsigned *mode);
/* The program a name runs (PATH search as execvp does): 0, GW_ENOTFOUND
 * or GW_EPERM (found, not executable). */
int gw__job_find(const char *name, char *out, size_t outsz);
/* Start path with envp (posix_spawn); the child keeps every fd opened with
 * GW__POOL_INHERIT, and our process group unless own_group (then it leads
 * a group of its own and takes the terminal's foreground over when we had
 * it; gw__job_terminal_back() takes it back). */
int gw__job_start(const char *path, char *const argv[], char *const envp[], bool own_group, int *pid);
void gw__job_terminal_back(void);
/* A pidfd of the (unreaped) job, readable once it ends; -1 where the
 * kernel has none (before Linux 5.3). */
int gw__job_pidfd(int pid);
/* Reap the job: 0 and its wait status once it has ended, 1 when it still
 * runs after timeout_ms (or a signal arrived), or an error. pidfd (or -1)
 * from gw__job_pidfd. */
int gw__job_wait(int pid, int pidfd, int timeout_ms, int *status);
/* Signal the job, or its whole process group. */
int gw__job_kill(int pid, bool group, int sig);

/* ---- /proc process resolution (lib/core/proc.c) ----------------------- */

/* Fill pid_resolved, uid, user and command of p from <root>/proc/<pid>
 * and <root>/etc/passwd. */
void gw__process_resolve(const char *root, gw_process *p);
/* Fill out (gw_process_host_read) from <root>/proc/<pid>/stat and status;
 * boot_time is /proc/stat's btime, or < 0 when unknown (start_time UNREAD). */
int gw__process_host_read(const char *root, uint32_t pid, double boot_time, gw_host_process *out);
/* <root>/proc/stat's btime in *out; GW_ENOTFOUND when it cannot be read. */
int gw__boot_time(const char *root, double *out);

/* ---- architecture names (lib/core/arch.c) ----------------------------- */

/* NVIDIA: from NVML's architecture number, else from compute capability. */
const char *gw__nvidia_arch_name(unsigned nvml_arch);
const char *gw__nvidia_arch_from_cc(unsigned major, unsigned minor);
/* CUDA cores per SM for a compute capability, 0 when unknown. */
unsigned gw__cores_per_sm(unsigned major, unsigned minor);

#endif

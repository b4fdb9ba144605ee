/* gpuwise — error codes and the thread-local last-error message.
 *
 * Every library function that can fail returns 0 on success or one of the
 * negative codes below, and sets a message readable with gw_error_last()
 * from the same thread. Output parameters are left untouched on failure.
 * The library never prints and never exits.
 */
#ifndef GPUWISE_ERROR_H
#define GPUWISE_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gw_error {
	GW_OK = 0,
	GW_EGENERIC = -1,       /* unclassified failure */
	GW_ENOMEM = -2,         /* out of memory */
	GW_EINVAL = -3,         /* invalid argument */
	GW_ENOTFOUND = -4,      /* no such device, file or entry */
	GW_ENOGPU = -5,         /* no GPU could be read through any backend */
	GW_ELIBRARY = -6,       /* a vendor library could not be loaded */
	GW_EDRIVER = -7,        /* the kernel driver is not loaded */
	GW_EMISMATCH = -8,      /* kernel driver and user-space library differ */
	GW_ELOST = -9,          /* the GPU has fallen off the bus */
	GW_EPERM = -10,         /* no permission (device node, cgroup) */
	GW_EIO = -11,           /* a read failed */
	GW_ENOTSUP = -12,       /* not supported by this device or driver */
	GW_EPARSE = -13,        /* malformed input */
	GW_EVENDOR = -14,       /* the vendor library returned an unexpected error */
	GW_ETIMEDOUT = -15      /* gave up waiting (gw_pool_acquire: --no-wait, --timeout) */
} gw_error;

/* The message set by the last failing call on this thread, or "" if none. */
const char *gw_error_last(void);

/* A short stable name for a code: "GW_ENOGPU" → "no-gpu" style slugs are not
 * used here; this returns e.g. "driver not loaded". Never NULL. */
const char *gw_error_str(int code);

/* Clears the thread-local message. */
void gw_error_clear(void);

#ifdef __cplusplus
}
#endif
#endif

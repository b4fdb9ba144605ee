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

/* The last message in the user's language: its format translated through
 * the catalogue (gw_translate, so the process locale chosen by the
 * application) with the same values put in; the English message when
 * there is no translation. For printing: the library itself never
 * translates a message when it fails. */
const char *gw_error_last_text(void);

/* The format (printf-style, English: the catalogue's msgid) the last
 * message was made from, "" when unknown. With gw_error_last_with(), an
 * application that reads the catalogue itself (Python's gettext) puts the
 * message into its own translation of that format. */
const char *gw_error_last_format(void);

/* The last message made again with `format`, a translation of
 * gw_error_last_format() (its conversions in the same order, or numbered
 * "%2$s"); the message itself when format is NULL or does not fit. Lives
 * until the next call on this thread. */
const char *gw_error_last_with(const char *format);

/* A short stable name for a code: "GW_ENOGPU" → "no-gpu" style slugs are not
 * used here; this returns e.g. "driver not loaded" (English; the catalogue
 * holds it: gw_translate(gw_error_str(code)) for the user's language).
 * Never NULL. */
const char *gw_error_str(int code);

/* Clears the thread-local message. */
void gw_error_clear(void);

#ifdef __cplusplus
}
#endif
#endif

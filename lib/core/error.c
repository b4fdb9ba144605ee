/* Thread-local last-error message. */
#include <stdio.h>

#include "internal.h"

static _Thread_local char last_message[1024];

int gw__error_set(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gw__vfmt(last_message, sizeof(last_message), fmt, ap);
	va_end(ap);
	return code;
}

const char *gw_error_last(void)
{
	return last_message;
}

void gw_error_clear(void)
{
	last_message[0] = '\0';
}

const char *gw_error_str(int code)
{
	switch (code) {
	case GW_OK: return "success";
	case GW_EGENERIC: return "failure";
	case GW_ENOMEM: return "out of memory";
	case GW_EINVAL: return "invalid argument";
	case GW_ENOTFOUND: return "not found";
	case GW_ENOGPU: return "no GPU found";
	case GW_ELIBRARY: return "vendor library could not be loaded";
	case GW_EDRIVER: return "driver not loaded";
	case GW_EMISMATCH: return "driver/library version mismatch";
	case GW_ELOST: return "GPU is lost";
	case GW_EPERM: return "permission denied";
	case GW_EIO: return "read failed";
	case GW_ENOTSUP: return "not supported";
	case GW_EPARSE: return "malformed input";
	case GW_EVENDOR: return "vendor library error";
	case GW_ETIMEDOUT: return "gave up waiting";
	default: return "unknown error";
	}
}

/* Kept messages in the user's language (lib/core/message.c): the
 * catalogue's translation of what lib/core/error.c kept. */
#ifndef GPUWISE_CORE_MESSAGE_H
#define GPUWISE_CORE_MESSAGE_H

#include <stddef.h>

#include "core/error.h"

/* english (what m was made with) in the catalogue's language, in out (n
 * bytes); english itself when there is no translation. */
const char *gw__msg_text(const gw__msg *m, const char *english, char *out, size_t n);

#endif

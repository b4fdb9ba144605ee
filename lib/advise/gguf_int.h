/* What the serving-engine estimates (lib/advise/serve.c) read from a GGUF
 * header beyond the public gw_gguf_* accessors. */
#ifndef GPUWISE_GGUF_INT_H
#define GPUWISE_GGUF_INT_H

#include <stdbool.h>

#include "gpuwise/advise.h"

/* Whether the metadata key ("{arch}." replaced as for gw_gguf_get_u64)
 * holds an array, whose gw_gguf_get_u64 value is its length. */
bool gw__gguf_is_array(const gw_gguf *g, const char *key);

#endif

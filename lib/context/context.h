/* What the context (lib/context/context.c) offers the sampler. */
#ifndef GPUWISE_CONTEXT_CONTEXT_H
#define GPUWISE_CONTEXT_CONTEXT_H

#include <stdbool.h>

#include "device/device.h"

/* A device that was lost while sampling (it had a handle, then its driver
 * said GPU_IS_LOST) is made healthy again so the next sample tries it: a
 * GPU that came back is read, one still lost is marked lost again by its
 * backend. False (nothing changed) for any other device. The sampler
 * (lib/context/sampler.c) calls it; one-shot commands keep "lost" as read. */
bool gw__device_retry_lost(gw_context *ctx, int index);

#endif

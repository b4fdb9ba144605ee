/* Fault-injection counters behind lib/core/sys.c. */
#ifndef GPUWISE_CORE_SYS_H
#define GPUWISE_CORE_SYS_H

#include <stdbool.h>

enum gw__fault_kind { GW__FAULT_ALLOC, GW__FAULT_DLOPEN, GW__FAULT_DLSYM, GW__FAULT_READ, GW__FAULT_KINDS };

/* True when this call of `kind` is the one GPUWISE_FAULT asked to fail. */
bool gw__fault_hit(enum gw__fault_kind kind);

#endif

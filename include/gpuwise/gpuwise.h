/* gpuwise — public C API. Include this one header.
 *
 * Names: gw_<module>_<verb>; functions return 0 or a negative gw_error and
 * set a thread-local message (gw_error_last); outputs come first and are
 * untouched on failure; gw_*_free(NULL) is a no-op. The library never prints.
 *
 * NULL: a NULL handle (context, report, explainer) or a NULL output pointer
 * makes a function that returns a code return GW_EINVAL; a getter returns
 * its "nothing" value (0, NULL, "", or a static all-UNREAD struct, as each
 * declaration says); nothing crashes (tests/unit/test_null.c calls them all).
 */
#ifndef GPUWISE_GPUWISE_H
#define GPUWISE_GPUWISE_H

#define GPUWISE_VERSION "1.0.0"

#include "gpuwise/error.h"
#include "gpuwise/device.h"
#include "gpuwise/metrics.h"
#include "gpuwise/context.h"
#include "gpuwise/process.h"
#include "gpuwise/sampler.h"
#include "gpuwise/json.h"
#include "gpuwise/explain.h"
#include "gpuwise/doctor.h"
#include "gpuwise/setup.h"
#include "gpuwise/advise.h"
#include "gpuwise/checkpoint.h"
#include "gpuwise/bench.h"
#include "gpuwise/language.h"
#include "gpuwise/pool.h"

#endif

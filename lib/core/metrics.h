/* lib-internal side of the metric table (include/gpuwise/metrics.h is the
 * public one): an id per row of core/metrics.def, and the check that keeps
 * vendor "not available" sentinels out of the device model. */
#ifndef GPUWISE_CORE_METRICS_H
#define GPUWISE_CORE_METRICS_H

#include "gpuwise/gpuwise.h"

enum gw_metric_id {
#define GW_METRIC(KEY, ...) GW_METRIC_ID_##KEY,
#include "core/metrics.def"
#undef GW_METRIC
	GW_METRIC_ID_COUNT
};

/* Every field of the table that holds a vendor sentinel (0xFFFFFFFF,
 * INT_MAX, ~0ULL, ...) or a percentage outside 0-100 becomes NOT_SUPPORTED:
 * unknown is never shown as valid. Either pointer may be NULL. */
void gw__metrics_sanitize(gw_device_info *info, gw_device_sample *sample);

/* Set every sampled metric of the table (include/gpuwise/metrics.h) to
 * state st with code 0: a backend's "I cannot know these" defaults, which
 * it then overwrites with what it can read. */
void gw__metrics_fail_sample(gw_device_sample *sample, gw_field_state st);

#endif

/* nvml backend — placeholder until implemented. */
#include "internal.h"

const gw_backend gw__backend_nvml = { "nvml", NULL, NULL, NULL, NULL };

/* amdgpu backend — placeholder until implemented. */
#include "internal.h"

const gw_backend gw__backend_amdgpu = { "amdgpu", NULL, NULL, NULL, NULL };

/* cuda backend — placeholder until implemented. */
#include "internal.h"

const gw_backend gw__backend_cuda = { "cuda", NULL, NULL, NULL, NULL };

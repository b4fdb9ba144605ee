/* pci backend — placeholder until implemented. */
#include "internal.h"

const gw_backend gw__backend_pci = { "pci", NULL, NULL, NULL, NULL };

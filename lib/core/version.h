/* Dotted version numbers (lib/core/version.c). */
#ifndef GPUWISE_CORE_VERSION_H
#define GPUWISE_CORE_VERSION_H

#include <stdbool.h>

typedef struct gw_ver {
	char text[40];       /* as found, e.g. "12.4.1", "2.5.1+cu121" */
	unsigned part[4];    /* numeric parts; missing ones are 0 */
	unsigned nparts;     /* 0 = unknown */
} gw_ver;

#define GW_VERSION_KNOWN(v) ((v).nparts > 0)

/* Parse the leading dotted number of s ("550.54.15", "12.4", "2.5.1+cu121",
 * "v13.0"). Returns 0, or GW_EPARSE and an unknown version. */
int gw__version_parse(const char *s, gw_ver *out);
/* Compare numerically (missing parts are 0): <0, 0, >0. Unknown sorts first. */
int gw__version_cmp(const gw_ver *a, const gw_ver *b);
/* a older than b comparing only the parts both give ("12.4" is not older
 * than "12.4.1": a version written shorter says nothing of the rest). */
bool gw__version_older(const gw_ver *a, const gw_ver *b);
/* Set from numbers: gw__version_set(&v, 2, 12, 4, 0) gives "12.4". */
void gw__version_set(gw_ver *v, unsigned nparts, unsigned a, unsigned b, unsigned c);

#endif

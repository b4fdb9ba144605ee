/* /proc process resolution — placeholder until implemented. */
#include "internal.h"

void gw__process_resolve(const char *root, gw_process *p)
{
	(void)root;
	p->pid_resolved = 0;
}

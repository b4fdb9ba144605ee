/* gpuwise list — placeholder. */
#include "commands.h"

const char usage_list[] = "usage: gpuwise list\n";

int cmd_list(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return EXIT_FAIL;
}

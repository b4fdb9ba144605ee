/* gpuwise info — placeholder. */
#include "commands.h"

const char usage_info[] = "usage: gpuwise info\n";

int cmd_info(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return EXIT_FAIL;
}

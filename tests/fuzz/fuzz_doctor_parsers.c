/* Fuzz target: the parsers of lib/doctor (the /proc/<pid>/stat reader that
 * finds --deep's processes) over a NUL-terminated copy of the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/spawn.h"
#include "doctor/doctor_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	int ppid, pgid;
	char st;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (gw__parse_proc_stat(text, &ppid, &pgid, &st) == 0 && (ppid < -1 || pgid < -1 || !st))
		abort();
	free(text);
	return 0;
}

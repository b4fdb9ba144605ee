/* Fuzz target: the fake libraries' machine.json reader (fake/machine.c over
 * lib/core/jsonp.c). Any input must give a machine or a "line:col: what"
 * message, never a crash, a leak or a hang; a machine that parses must be
 * safe to query. Built standalone (-DGW_JSON_STANDALONE), see the Makefile. */
#include <stdint.h>
#include <string.h>

#include "machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void query_device(const fm_machine *m, const fm_device *d)
{
	unsigned char uuid[16];

	for (int id = 0; id < FN_COUNT; id++)
		(void)fm_at(fm_field(d, (enum fm_num_id)id), fm_tick(m, d, "fuzz", id));
	for (int id = 0; id < FS_COUNT; id++)
		(void)fm_str(d, (enum fm_str_id)id);
	(void)fm_error_for(d, "nvmlDeviceGetMemoryInfo_v2", 3);
	(void)fm_device_lost(d);
	fm_uuid_bytes(fm_str(d, FS_UUID), uuid);
	for (int k = 0; k < FM_PROC_KINDS; k++)
		for (size_t i = 0; i < d->procs[k].n; i++)
			(void)fm_at(&d->procs[k].p[i].used_memory, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	fm_machine *m = fm_machine_parse((const char *)data, size, err, sizeof(err));

	if (!m) {
		/* A failure always says something. */
		if (!err[0])
			__builtin_trap();
		return 0;
	}
	for (size_t i = 0; i < m->ndevices; i++) {
		query_device(m, &m->devices[i]);
		for (size_t j = 0; j < m->devices[i].nmig; j++)
			query_device(m, &m->devices[i].mig[j]);
	}
	fm_machine_free(m);
	return 0;
}

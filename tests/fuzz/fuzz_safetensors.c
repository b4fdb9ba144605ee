/* Fuzz target: the safetensors readers of advise (lib/advise/safetensors.c)
 * on arbitrary bytes, as a whole file's start (8 length bytes, then the
 * header), as a header alone, and as a model.safetensors.index.json.
 * Checks what callers rely on: a header is accepted only within the
 * format's cap and the bytes given, an accepted checkpoint adds up (the
 * dtypes' elements are the count, the bytes cover the elements), a
 * failure leaves the checkpoint as it was, and every shard name an index
 * gives is a plain .safetensors file name. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuwise/gpuwise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_checkpoint(const gw_checkpoint *c)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < c->ndtypes; i++)
		sum += c->dtypes[i].params;
	if (c->ndtypes > GW_CHECKPOINT_DTYPES_MAX || sum != c->params || c->bytes > c->params * 8 ||
	    (c->params && !c->tensors && sum))
		abort();
}

static void header(const char *json, size_t n)
{
	gw_checkpoint c, before;

	memset(&c, 0, sizeof(c));
	c.params = 5;
	c.ndtypes = 1;
	memcpy(c.dtypes[0].name, "F32", 4);
	c.dtypes[0].params = 5;
	c.bytes = 20;
	c.tensors = 1;
	before = c;
	if (gw_checkpoint_add_safetensors(&c, json, n) < 0) {
		if (memcmp(&c, &before, sizeof(c)) || !gw_error_last()[0])
			abort();
		return;
	}
	if (c.files != 1)
		abort();
	check_checkpoint(&c);
	gw_checkpoint_sort(&c);
	for (size_t i = 1; i < c.ndtypes; i++)
		if (c.dtypes[i].params > c.dtypes[i - 1].params)
			abort();
}

static void index_file(const char *json, size_t n)
{
	char *names = NULL;
	size_t count = 0;
	uint64_t total;
	const char *p;

	if (gw_safetensors_index_files(&names, &count, &total, json, n) < 0)
		return;
	p = names;
	for (size_t i = 0; i < count; i++, p += strlen(p) + 1) {
		size_t len = strlen(p);

		if (len < 13 || strchr(p, '/') || p[0] == '.' || strcmp(p + len - 12, ".safetensors"))
			abort();
	}
	gw_checkpoint_free(names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t n;

	if (gw_safetensors_header_len(&n, data, size) == 0) {
		if (!n || n > GW_SAFETENSORS_HEADER_MAX)
			abort();
		if (size - 8 >= n)
			header((const char *)data + 8, (size_t)n);
	}
	header((const char *)data, size);
	index_file((const char *)data, size);
	return 0;
}

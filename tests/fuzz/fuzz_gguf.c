/* Fuzz target: the GGUF header reader (lib/advise/gguf.c) on arbitrary
 * bytes, and every file it accepts through the llama.cpp estimate. Checks
 * the invariants callers rely on: an accepted file's tensors have 1 to 4
 * dimensions and exact byte counts, names are printable and terminated,
 * the estimate adds up. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuwise/gpuwise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gw_llamacpp_options o = GW_LLAMACPP_OPTIONS_INIT;
	gw_llamacpp_estimate e;
	gw_gguf *g = NULL;
	uint64_t v;

	if (gw_gguf_parse(&g, data, size) < 0) {
		if (g || !gw_error_last()[0])
			abort();
		return 0;
	}
	if (gw_gguf_version(g) != 2 && gw_gguf_version(g) != 3)
		abort();
	for (size_t i = 0; i < gw_gguf_tensor_count(g); i++) {
		const gw_gguf_tensor *t = gw_gguf_tensor_at(g, i);
		if (!t || t->n_dims < 1 || t->n_dims > 4 || !memchr(t->name, 0, sizeof(t->name)) ||
		    t->bytes != gw_gguf_type_bytes(t->type, t->elements) || !t->bytes)
			abort();
	}
	if (gw_gguf_tensor_at(g, gw_gguf_tensor_count(g)))
		abort();
	(void)gw_gguf_get_u64(g, "{arch}.block_count", &v);
	o.ngl = size ? (int64_t)(data[0] % 5) - 1 : -1;
	o.cache_k = o.cache_v = size > 1 ? (gw_kv_type)(data[1] % 3) : GW_KV_F16;
	if (gw_advise_llamacpp(&e, g, &o) == 0 &&
	    e.total_gpu_bytes != e.weights_gpu_bytes + e.kv_cache_bytes + e.compute_bytes + e.cuda_context_bytes)
		abort();
	gw_gguf_free(g);
	return 0;
}

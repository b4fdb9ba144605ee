/* Fuzz target: the config.json reader of advise (lib/advise/model.c) on
 * arbitrary bytes, and every model it accepts through the memory model,
 * the micro-batch search and the plan. Checks the invariants callers rely
 * on: an accepted model has a consistent shape and count, every estimate
 * adds up, nothing overflows or crashes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuwise/gpuwise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_estimate(const gw_model *m, gw_advise_task task, uint64_t seq)
{
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_estimate e;
	gw_advise_plan p;
	uint64_t mb;

	o.task = task;
	o.seq = seq;
	if (task == GW_TASK_INFER)
		o.new_tokens = seq / 2;
	if (gw_advise_estimate_run(&e, m, &o) < 0)
		return;
	/* allocated is the sum, or less where gradients and activations are
	 * not alive together (PyTorch 2.0's zero_grad) */
	if (e.peak_allocated_bytes > e.weights_bytes + e.gradients_bytes + e.optimizer_bytes +
	    e.activations_bytes + e.kv_cache_bytes + e.workspace_bytes ||
	    e.peak_allocated_bytes < e.weights_bytes + e.optimizer_bytes + e.workspace_bytes ||
	    e.peak_reserved_bytes < e.peak_allocated_bytes ||
	    e.peak_device_bytes != e.peak_reserved_bytes + e.cuda_context_bytes)
		abort();
	if (gw_advise_max_micro_batch(&mb, m, &o, 24ull << 30) == 0 && mb) {
		o.batch = mb;
		if (gw_advise_estimate_run(&e, m, &o) < 0 || e.peak_device_bytes > (24ull << 30))
			abort();
	}
	o.batch = 1;
	if (gw_advise_plan_make(&p, m, &o, 16ull << 30, 64) == 0 && p.fits &&
	    (p.micro_batch == 0 || p.estimate.peak_device_bytes > (16ull << 30)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gw_model m;

	if (gw_model_from_config(&m, (const char *)data, size, NULL) < 0) {
		if (!gw_error_last()[0])
			abort();
		return 0;
	}
	if (!m.params || m.params_linear > m.params || !m.num_layers || !m.hidden_size || !m.num_heads ||
	    m.num_kv_heads > m.num_heads || m.num_heads % m.num_kv_heads || !memchr(m.name, 0, sizeof(m.name)))
		abort();
	check_estimate(&m, GW_TASK_TRAIN, 128);
	check_estimate(&m, GW_TASK_QLORA, 64);
	check_estimate(&m, GW_TASK_INFER, 256);
	return 0;
}

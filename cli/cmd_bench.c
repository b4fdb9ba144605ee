/* gpuwise bench — does this GPU deliver what its datasheet promises?
 * The measuring is lib/bench (gw_bench_run); this file picks the GPU and
 * the tests, shows progress, and prints the table or the JSON
 * (docs/contracts.md "Performance check: bench"). Exit 0 when every chosen test ran
 * (a LOW verdict is a result, not a failure), 1 when one failed or nothing
 * could run, 2 on a usage error. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "gpuwise/bench.h"
#include "gpuwise/metrics.h"

struct bench_opts {
	struct opt_list ids;
	struct opt_list tests;
	bool json, quick, force;
};

#define O struct bench_opts
static const struct option bench_options[] = {
	OPT_LIST('i', "id", O, ids, "SEL",
		 N_("the GPU to measure: gpuwise index, UUID or its prefix, or PCI bus id (default: CUDA device 0)")),
	OPT_LIST(0, "tests", O, tests, "LIST",
		 N_("only these tests (comma-separated, may be repeated): d2d-copy, d2d-copy-ce, h2d-pinned, d2h-pinned, "
		    "h2d-pageable, gemm-fp32, gemm-tf32, gemm-fp16, gemm-bf16, gemm-fp8, launch-latency, p2p")),
	OPT_BOOL(0, "quick", O, quick, N_("smaller buffers and fewer trials (seconds instead of a minute)")),
	OPT_BOOL(0, "force", O, force,
		 N_("measure the GPU even when other processes compute on it or it is busy (their work lowers the "
		    "figures, and bench's buffers take memory they may need)")),
	OPT_BOOL(0, "json", O, json,
		 N_("print {\"gpuwise_version\", \"device\": {...}, \"results\": [{\"test\", \"status\", \"value\", "
		    "\"unit\", \"spec\", \"percent_of_spec\", \"causes\", \"message\", \"during\": {...}}]}")),
	OPT_END()
};
#undef O

/* --tests values into a bit set; a name that is no test is a usage error. */
static unsigned parse_tests(const struct opt_list *l)
{
	unsigned mask = 0;

	for (size_t k = 0; k < l->n; k++) {
		char *copy = strdup(l->v[k]), *save = NULL, *tok;

		if (!copy) {
			error_msg("%s", _("out of memory"));
			exit(EXIT_FAIL);
		}
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			gw_bench_test t;

			if (gw_bench_test_find(tok, &t) < 0) {
				char bad[64];

				snprintf(bad, sizeof(bad), "%s", tok);
				free(copy);
				die_usage("bench", _("no test '%s' (see gpuwise bench --help)"), bad);
			}
			mask |= 1u << t;
		}
		free(copy);
	}
	return mask;
}

/* The GPU the -i values name (one: bench measures one GPU at a time; "4,6"
 * or "-i 4 -i 6" is a usage error that says so), -1 when there is no such
 * GPU (message printed). */
static int pick_selected(gw_context *ctx, const struct opt_list *ids)
{
	gw_selection *sel = NULL;
	size_t n = 0;
	char *joined = join_selectors(ids);
	int dev;

	if (gw_context_select(ctx, joined, &sel, &n) < 0) {
		error_msg("%s", gw_error_last_text());
		free(joined);
		return -1;
	}
	dev = n == 1 ? sel[0].device : -1;
	gw_selection_free(sel);
	if (n != 1) {
		char shown[128];

		snprintf(shown, sizeof(shown), "%s", joined);
		free(joined);
		die_usage("bench", _("bench measures one GPU at a time: -i %s names %zu GPUs; give one (and run bench "
				     "once per GPU)"), shown, n);
	}
	free(joined);
	return dev;
}

/* The GPU CUDA calls device 0, -1 when CUDA lists none. */
static int cuda_device0(gw_context *ctx)
{
	for (int i = 0; i < gw_device_count(ctx); i++)
		if (gw_device_get(ctx, i)->cuda_index == 0)
			return i;
	return -1;
}

/* bench measures NVIDIA GPUs through the CUDA driver: an AMD or Intel GPU,
 * or one that cannot be read (lost, no driver), is refused with list's
 * reason, before any complaint about CUDA. dev < 0: the default GPU, refused
 * only when this machine has no NVIDIA GPU at all. */
static bool refuse_device(gw_context *ctx, int dev)
{
	char name[GW_STR_MAX + 8], why[1024];
	const gw_device_info *d;

	if (dev < 0) {
		for (int i = 0; i < gw_device_count(ctx); i++)
			if (gw_device_get(ctx, i)->vendor == GW_VENDOR_NVIDIA)
				return false;
		if (!gw_device_count(ctx))
			return false;   /* cuda_usable() and the CUDA view say why */
		d = gw_device_get(ctx, 0);
		error_msg(_("bench supports NVIDIA GPUs only (it measures through the CUDA driver): this machine's "
			    "GPUs are not NVIDIA (GPU 0: %s)"), show_str(name, sizeof(name), &d->name));
		return true;
	}
	d = gw_device_get(ctx, dev);
	if (d->vendor != GW_VENDOR_NVIDIA) {
		error_msg(_("GPU %d (%s) is not an NVIDIA GPU: bench supports NVIDIA GPUs only (it measures through the "
			    "CUDA driver)"), dev, show_str(name, sizeof(name), &d->name));
		return true;
	}
	if (device_readable(d))
		return false;
	gw_device_health_reason(ctx, dev, why, sizeof(why));
	error_msg(_("GPU %d cannot be measured: it is %s%s%s"), dev, gw_health_name(d->health), why[0] ? ": " : "",
		  why);
	return true;
}

/* An NVIDIA GPU CUDA lists but cannot use as a whole (not lost, not in MIG
 * mode: those are said before): CUDA_VISIBLE_DEVICES hides it, or CUDA does
 * not list it. */
static bool refuse_no_cuda(gw_context *ctx, int dev)
{
	const gw_device_info *d = gw_device_get(ctx, dev);
	char why[512];

	if (d->cuda_index >= 0)
		return false;
	error_msg(_("CUDA cannot use GPU %d: its CUDA index is %s"), dev, cuda_index_text(ctx, d, why, sizeof(why)));
	return true;
}

/* Whether libcuda works at all; when not, says why (exit 1). */
static bool cuda_usable(const gw_context *ctx)
{
	const gw_backend_status *st = gw_context_backend_by_id(ctx, GW_BACKEND_ID_CUDA);
	char msg[2 * sizeof(st->message)];
	const char *m = gw_context_backend_message(ctx, st, msg, sizeof(msg));

	if (st && st->state == GW_BACKEND_OK)
		return true;
	if (!st || st->state == GW_BACKEND_LIBRARY_MISSING || st->state == GW_BACKEND_NOT_TRIED)
		error_msg(_("no CUDA driver: bench needs libcuda.so.1 (the NVIDIA driver)%s%s"), m[0] ? ": " : "", m);
	else
		error_msg(_("the CUDA driver cannot be used: %s"), m);
	return false;
}

/* Utilisation at or above this is someone else's work: bench would measure
 * a share of the GPU, not the GPU (an idle GPU reads 0-3 %). */
#define BUSY_UTIL_PERCENT 20

/* MIG mode: CUDA sees the GPU's instances, not the GPU, so there is no
 * whole GPU to measure (and a slice's figures have no datasheet row). */
static bool refuse_mig(gw_context *ctx, int dev)
{
	gw_device_sample s;
	char *hint;

	if (gw_device_sample_read(ctx, dev, &s) < 0 || !GW_VALID(s.mig_current) || !s.mig_current.v)
		return false;
	error_msg(_("GPU %d is in MIG mode: CUDA sees its MIG instances, not the GPU"), dev);
	hint = str_printf(_("bench measures whole GPUs against their datasheet. To measure this one, end its "
			    "processes, then disable MIG: sudo nvidia-smi -i %d -mig 0"), dev);
	print_wrapped(stderr, output_width(stderr), "", "", hint ? hint : "");
	free(hint);
	return true;
}

/* Whether `dev` is a whole NVIDIA GPU CUDA can use, not in MIG mode. */
static bool measurable(gw_context *ctx, int dev)
{
	const gw_device_info *d = gw_device_get(ctx, dev);
	gw_device_sample s;

	if (d->vendor != GW_VENDOR_NVIDIA || !device_readable(d) || d->cuda_index < 0)
		return false;
	return gw_device_sample_read(ctx, dev, &s) == 0 && !(GW_VALID(s.mig_current) && s.mig_current.v);
}

/* Other compute processes (not this one) on `dev` into *computing, and
 * whether the GPU counts as busy (those, or utilisation at or above
 * BUSY_UTIL_PERCENT into *util). procs (may be NULL): the processes, for
 * the caller to free. */
static bool gpu_busy(gw_context *ctx, int dev, size_t *computing, uint64_t *util, gw_process **procs, size_t *n)
{
	gw_device_sample s;
	gw_process *p = NULL;
	size_t np = 0;
	bool util_busy;

	util_busy = gw_device_sample_read(ctx, dev, &s) == 0 && GW_VALID(s.gpu_util) &&
		    s.gpu_util.v >= BUSY_UTIL_PERCENT;
	*util = util_busy ? s.gpu_util.v : 0;
	if (gw_device_processes(ctx, dev, &p, &np) < 0)
		np = 0;   /* unknown: utilisation alone decides */
	*computing = 0;
	for (size_t k = 0; k < np; k++)
		if ((p[k].type & GW_PROCESS_COMPUTE) && p[k].pid != (uint32_t)getpid())
			(*computing)++;
	if (procs) {
		*procs = p;
		*n = np;
	} else {
		gw_processes_free(p);
	}
	return *computing || util_busy;
}

/* The GPUs bench could measure now (whole NVIDIA GPUs CUDA lists, not
 * busy), as "1, 4, 6": list has no utilisation column to pick them from.
 * *first: the first of them. Returns how many. */
static int idle_gpus(gw_context *ctx, char *buf, size_t size, int *first)
{
	size_t len = 0, computing;
	uint64_t util;
	int n = 0;

	buf[0] = 0;
	for (int i = 0; i < gw_device_count(ctx); i++) {
		if (!measurable(ctx, i) || gpu_busy(ctx, i, &computing, &util, NULL, NULL))
			continue;
		if (!n)
			*first = i;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%d", n ? ", " : "", i);
		n++;
	}
	return n;
}

/* Other compute processes (not this one) on `dev`, or utilisation at or
 * above BUSY_UTIL_PERCENT: says who and which GPUs are idle, and returns
 * true, so that a benchmark never silently halves someone's training run
 * or reports half a GPU. Graphics-only clients (a desktop's X server) do
 * not count. */
static bool refuse_busy(gw_context *ctx, int dev)
{
	gw_process *procs = NULL;
	size_t n = 0, computing;
	uint64_t util;
	char idle[256], *hint;
	int nidle, first = -1;

	if (!gpu_busy(ctx, dev, &computing, &util, &procs, &n)) {
		gw_processes_free(procs);
		return false;
	}
	if (computing)
		error_msg(_n("GPU %d is busy: %zu other process computes on it",
				   "GPU %d is busy: %zu other processes compute on it", computing),
			  dev, computing);
	else
		error_msg(_("GPU %d is busy: %llu %% utilisation"), dev, (unsigned long long)util);
	for (size_t k = 0, shown = 0; k < n && shown < 5; k++) {
		const gw_process *p = &procs[k];

		if (!(p->type & GW_PROCESS_COMPUTE) || p->pid == (uint32_t)getpid())
			continue;
		fprintf(stderr, _("  pid %u %s%s%s\n"), p->pid, p->command[0] ? p->command : "?",
			p->user[0] ? "  " : "", p->user);
		shown++;
	}
	gw_processes_free(procs);
	nidle = idle_gpus(ctx, idle, sizeof(idle), &first);
	if (nidle)
		hint = str_printf(_n("Their work lowers every figure and bench's buffers take memory they may need. "
				     "GPU %s is idle: measure it with -i %d, or pass --force to measure GPU %d anyway.",
				     "Their work lowers every figure and bench's buffers take memory they may need. "
				     "Idle GPUs: %s (pick one, e.g. -i %d), or pass --force to measure GPU %d anyway.",
				     (unsigned long)nidle),
				  idle, first, dev);
	else
		hint = str_printf(_("Their work lowers every figure and bench's buffers take memory they may need. No "
				    "NVIDIA GPU is idle now: wait, or pass --force to measure GPU %d anyway."), dev);
	print_wrapped(stderr, output_width(stderr), "", "", hint ? hint : "");
	free(hint);
	return true;
}

static void progress(void *arg, gw_bench_test t, int step, int steps)
{
	(void)arg;
	fprintf(stderr, "\r\033[K[%d/%d] %s ...", step, steps, gw_bench_test_name(t));
	fflush(stderr);
}

/* ---- the JSON document -------------------------------------------------------- */

/* SI base units in JSON: bytes/s, FLOP/s, seconds. */
static double si_factor(gw_bench_test t)
{
	const char *u = gw_bench_test_unit(t);

	if (!strcmp(u, "GB/s"))
		return 1e9;
	if (!strcmp(u, "TFLOPS"))
		return 1e12;
	return 1e-6;   /* us */
}

static const char *si_unit(gw_bench_test t)
{
	const char *u = gw_bench_test_unit(t);

	return !strcmp(u, "GB/s") ? "B/s" : !strcmp(u, "TFLOPS") ? "FLOP/s" : "s";
}

static const char *const status_names[] = { "ok", "low", "skipped", "failed" };

static const struct {
	unsigned bit;
	const char *id;
	const char *text;
} causes[] = {
	{ GW_BENCH_CAUSE_PCIE_DOWNTRAINED, "pcie-link-downtrained",
	  N_("the PCIe link ran slower or narrower under load than the GPU and slot allow (reseat the card, check "
	     "the riser, the slot's BIOS link setting)") },
	{ GW_BENCH_CAUSE_PCIE_SLOT, "pcie-slot-limited",
	  N_("the slot or riser allows a slower or narrower link than the GPU has") },
	{ GW_BENCH_CAUSE_POWER_CAP, "power-capped", N_("power-capped: the power limit held the clocks down") },
	{ GW_BENCH_CAUSE_THERMAL, "thermal-throttle", N_("thermal throttling: the GPU slowed down to cool") },
	{ GW_BENCH_CAUSE_CLOCKS, "clocks-held-low",
	  N_("the SM clock stayed below boost without a power or thermal reason (clocks locked or application "
	     "clocks set: nvidia-smi -q -d CLOCK)") },
};

static void json_u64(gw_json *j, const char *key, const gw_u64 *f)
{
	gw_json_u64_field(j, key, f);
}

static void json_during(gw_json *j, const gw_bench_during *d)
{
	gw_json_key(j, "during");
	gw_json_object_begin(j);
	gw_json_key(j, "samples");
	gw_json_int(j, d->samples);
	json_u64(j, "sm_mhz_min", &d->sm_mhz_min);
	json_u64(j, "sm_mhz_max", &d->sm_mhz_max);
	json_u64(j, "max_sm_mhz", &d->max_sm_mhz);
	gw_json_f64_field(j, "power_w_max", &d->power_w_max, 1);
	gw_json_f64_field(j, "power_limit_w", &d->power_limit_w, 1);
	gw_json_f64_field(j, "temperature_c_max", &d->temperature_c_max, 1);
	gw_json_key(j, "throttle_reasons");
	if (GW_VALID(d->throttle_reasons)) {
		gw_json_array_begin(j);
		for (unsigned bit = 1; bit; bit <<= 1)
			if ((d->throttle_reasons.v & bit) && gw_throttle_reason_name(bit))
				gw_json_string(j, gw_throttle_reason_name(bit));
		gw_json_array_end(j);
	} else {
		gw_json_null(j);
	}
	gw_json_key(j, "pcie");
	gw_json_object_begin(j);
	json_u64(j, "gen", &d->pcie_gen);
	json_u64(j, "width", &d->pcie_width);
	json_u64(j, "max_gen", &d->pcie_max_gen);
	json_u64(j, "max_width", &d->pcie_max_width);
	gw_json_object_end(j);
	gw_json_object_end(j);
}

static void json_result(gw_json *j, const gw_bench_result *r)
{
	double f = si_factor(r->test);

	gw_json_object_begin(j);
	gw_json_key(j, "test");
	gw_json_string(j, gw_bench_test_name(r->test));
	gw_json_key(j, "status");
	gw_json_string(j, status_names[r->status]);
	gw_json_key(j, "value");
	if (GW_VALID(r->value) && r->status <= GW_BENCH_LOW)
		gw_json_double(j, r->value.v * f, f < 1 ? 9 : 0);
	else
		gw_json_null(j);
	gw_json_key(j, "unit");
	gw_json_string(j, si_unit(r->test));
	gw_json_key(j, "spec");
	if (GW_VALID(r->spec))
		gw_json_double(j, r->spec.v * f, 0);
	else
		gw_json_null(j);
	gw_json_f64_field(j, "percent_of_spec", &r->percent_of_spec, 1);
	gw_json_key(j, "bytes");
	if (r->bytes)
		gw_json_uint(j, r->bytes);
	else
		gw_json_null(j);
	gw_json_key(j, "causes");
	gw_json_array_begin(j);
	for (size_t k = 0; k < sizeof(causes) / sizeof(causes[0]); k++)
		if (r->causes & causes[k].bit)
			gw_json_string(j, causes[k].id);
	gw_json_array_end(j);
	gw_json_key(j, "message");
	gw_json_string(j, r->message[0] ? r->message : NULL);
	json_during(j, &r->during);
	gw_json_object_end(j);
}

static int bench_json(gw_context *ctx, const gw_bench_report *rep)
{
	const gw_device_info *d = gw_device_get(ctx, rep->device);
	gw_json *j = gw_json_new(2);
	char cc[16];
	int rc;

	json_document_begin(j);
	gw_json_key(j, "device");
	gw_json_object_begin(j);
	gw_json_key(j, "index");
	gw_json_int(j, rep->device);
	gw_json_key(j, "cuda_index");
	gw_json_int(j, rep->cuda_index);
	gw_json_str_field(j, "name", &d->name);
	gw_json_str_field(j, "uuid", &d->uuid);
	gw_json_str_field(j, "pci_bus_id", &d->pci_bus_id);
	gw_json_key(j, "compute_capability");
	gw_json_string(j, compute_capability_text(cc, sizeof(cc), d));
	gw_json_key(j, "cuda_driver_version");
	gw_json_string(j, cuda_version_text(cc, sizeof(cc), (uint64_t)rep->cuda_driver_version));
	gw_json_key(j, "spec_name");
	gw_json_string(j, rep->spec_name[0] ? rep->spec_name : NULL);
	gw_json_key(j, "spec_source");
	gw_json_string(j, rep->spec_source);
	gw_json_key(j, "spec_pcie");
	gw_json_object_begin(j);
	json_u64(j, "gen", &rep->spec_pcie_gen);
	json_u64(j, "width", &rep->spec_pcie_width);
	gw_json_object_end(j);
	gw_json_key(j, "host_cpus");
	gw_json_string(j, rep->host_cpus[0] ? rep->host_cpus : NULL);
	gw_json_key(j, "host_cpus_note");
	gw_json_string(j, rep->host_cpus_note[0] ? rep->host_cpus_note : NULL);
	gw_json_object_end(j);
	gw_json_key(j, "results");
	gw_json_array_begin(j);
	for (size_t i = 0; i < rep->nresults; i++)
		json_result(j, &rep->results[i]);
	gw_json_array_end(j);
	gw_json_object_end(j);
	rc = print_json(j);
	gw_json_free(j);
	return rc;
}

/* ---- the table ------------------------------------------------------------------ */

static void number_cell(char *buf, size_t n, const gw_f64 *v, gw_bench_test t)
{
	if (!GW_VALID(*v)) {
		snprintf(buf, n, "-");
		return;
	}
	snprintf(buf, n, "%.*f %s", v->v < 10 ? 2 : v->v < 1000 ? 1 : 0, v->v, gw_bench_test_unit(t));
}

static void verdict_cell(char *buf, size_t n, const gw_bench_result *r)
{
	switch (r->status) {
	case GW_BENCH_OK:
		snprintf(buf, n, "%s", r->test == GW_BENCH_H2D_PAGEABLE && GW_VALID(r->percent_of_spec)
					       ? _("ok (pageable: staged through host memory)")
					       : _("ok"));
		break;
	case GW_BENCH_LOW: snprintf(buf, n, _("LOW (under %.0f %%)"), GW_BENCH_LOW_PERCENT); break;
	case GW_BENCH_SKIPPED: snprintf(buf, n, _("skipped: %s"), r->message); break;
	default: snprintf(buf, n, _("failed: %s"), r->message); break;
	}
}

static void print_link(char *buf, size_t n, const gw_u64 *gen, const gw_u64 *width)
{
	if (GW_VALID(*gen) && GW_VALID(*width))
		snprintf(buf, n, "Gen%llu x%llu", (unsigned long long)gen->v, (unsigned long long)width->v);
	else
		snprintf(buf, n, "?");
}

/* The why of a LOW line, on stderr. */
static void warn_low(const gw_bench_report *rep, const gw_bench_result *r)
{
	char now[32], max[32];
	int width = output_width(stderr);

	warning_msg(_("%s at %.0f %% of the datasheet's %.1f %s"), gw_bench_test_name(r->test), r->percent_of_spec.v,
		    r->spec.v, gw_bench_test_unit(r->test));
	if (r->causes & (GW_BENCH_CAUSE_PCIE_DOWNTRAINED | GW_BENCH_CAUSE_PCIE_SLOT)) {
		print_link(now, sizeof(now), &r->during.pcie_gen, &r->during.pcie_width);
		print_link(max, sizeof(max), &r->during.pcie_max_gen, &r->during.pcie_max_width);
		fprintf(stderr, _("  PCIe %s under load; GPU and slot allow %s"), now, max);
		print_link(max, sizeof(max), &rep->spec_pcie_gen, &rep->spec_pcie_width);
		fprintf(stderr, _(", the GPU itself %s\n"), max);
	}
	for (size_t k = 0; k < sizeof(causes) / sizeof(causes[0]); k++)
		if (r->causes & causes[k].bit)
			print_hanging(stderr, width, "  - ", _(causes[k].text));
	if (!r->causes)
		print_hanging(stderr, width, "  - ",
			_("NVML saw no cause (clocks, power, temperature and link were normal): another process "
			  "using the GPU, or a slower memory or board variant than the spec-table row"));
}

/* Column titles stay in English: the columns are aligned in bytes. */
static const char *const headers[] = { "TEST", "RESULT", "DATASHEET", "%", "VERDICT" };

static int bench_human(gw_context *ctx, const gw_bench_report *rep)
{
	const gw_device_info *d = gw_device_get(ctx, rep->device);
	char name[GW_STR_MAX + 8], ver[16];
	int width = output_width(stdout);

	printf(_("GPU %d: %s, CUDA device %d, driver CUDA %s\n"), rep->device, show_str(name, sizeof(name), &d->name),
	       rep->cuda_index, cuda_version_text(ver, sizeof(ver), (uint64_t)rep->cuda_driver_version));
	if (rep->spec_name[0]) {
		char *line = str_printf(_("datasheet: %s (%s)"), rep->spec_name,
					rep->spec_source ? rep->spec_source : "");

		print_wrapped(stdout, width, "", "  ", line ? line : rep->spec_name);
		free(line);
	} else
		printf("%s\n", _("datasheet: this GPU is not in the spec table; figures are shown without a peak"));
	if (rep->host_cpus[0] || rep->host_cpus_note[0]) {
		char *line = rep->host_cpus[0]
				     ? str_printf(_("host buffers: on CPUs %s, the GPU's local CPUs"), rep->host_cpus)
				     : str_printf(_("host buffers: wherever the system put them (%s)"),
						  rep->host_cpus_note);

		print_wrapped(stdout, width, "", "  ", line ? line : "");
		free(line);
	}
	printf("\n%-15s %-13s %-13s %-5s %s\n", headers[0], headers[1], headers[2], headers[3], headers[4]);
	for (size_t i = 0; i < rep->nresults; i++) {
		const gw_bench_result *r = &rep->results[i];
		char val[48], spec[48], pct[16], verdict[400], first[176];

		number_cell(val, sizeof(val), r->status <= GW_BENCH_LOW ? &r->value : &(gw_f64){ 0 }, r->test);
		number_cell(spec, sizeof(spec), &r->spec, r->test);
		if (GW_VALID(r->percent_of_spec))
			snprintf(pct, sizeof(pct), "%.0f %%", r->percent_of_spec.v);
		else
			snprintf(pct, sizeof(pct), "-");
		verdict_cell(verdict, sizeof(verdict), r);
		snprintf(first, sizeof(first), "%-15s %-13s %-13s %-5s ", gw_bench_test_name(r->test), val, spec, pct);
		print_hanging(stdout, width, first, verdict);
	}
	for (size_t i = 0; i < rep->nresults; i++) {
		const gw_bench_result *r = &rep->results[i];

		if (r->status <= GW_BENCH_LOW && r->message[0]) {
			char first[32];

			snprintf(first, sizeof(first), "  %s: ", gw_bench_test_name(r->test));
			print_hanging(stdout, width, first, r->message);
		}
	}
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].status == GW_BENCH_LOW)
			warn_low(rep, &rep->results[i]);
	return 0;
}

static int cmd_bench(int argc, char **argv)
{
	struct bench_opts o = { 0 };
	gw_bench_options bo = GW_BENCH_OPTIONS_INIT;
	gw_bench_report rep;
	gw_context *ctx;
	char **args;
	int dev, rc = EXIT_OK;

	if (parse_options(&cmd_bench_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	bo.tests = parse_tests(&o.tests);
	bo.quick = o.quick;
	if (isatty(STDERR_FILENO)) {
		bo.progress = progress;
	}
	if (!(ctx = open_context()))
		return EXIT_FAIL;
	dev = o.ids.n ? pick_selected(ctx, &o.ids) : -1;
	if ((o.ids.n && dev < 0) || refuse_device(ctx, dev) || !cuda_usable(ctx)) {
		gw_context_free(ctx);
		return EXIT_FAIL;
	}
	if (!o.ids.n && (dev = cuda_device0(ctx)) < 0) {
		error_msg("%s", _("CUDA sees no GPU this machine lists"));
		gw_context_free(ctx);
		return EXIT_FAIL;
	}
	if (refuse_mig(ctx, dev) || refuse_no_cuda(ctx, dev) || (!o.force && refuse_busy(ctx, dev))) {
		gw_context_free(ctx);
		return EXIT_FAIL;
	}
	if (gw_bench_run(ctx, dev, &bo, &rep) < 0) {
		if (bo.progress)
			fputs("\r\033[K", stderr);
		error_msg("%s", gw_error_last_text());
		gw_context_free(ctx);
		return EXIT_FAIL;
	}
	if (bo.progress)
		fputs("\r\033[K", stderr);
	if ((o.json ? bench_json(ctx, &rep) : bench_human(ctx, &rep)) < 0)
		rc = EXIT_FAIL;
	for (size_t i = 0; i < rep.nresults; i++)
		if (rep.results[i].status == GW_BENCH_FAILED)
			rc = EXIT_FAIL;
	gw_context_free(ctx);
	return rc;
}

const struct cmd cmd_bench_def = {
	.name = "bench",
	.fn = cmd_bench,
	.summary = N_("measure bandwidth, GEMM throughput and launch latency against the datasheet"),
	.options = bench_options,
	.description =
		N_("Measure one GPU through the CUDA driver (libcuda.so.1; no CUDA toolkit needed) and set each figure "
		"beside the datasheet's peak from gpuwise's spec table: device-memory copy bandwidth (gpuwise's own "
		"PTX copy kernel, and the copy engine through cuMemcpyDtoDAsync; bytes read plus written, as "
		"bandwidthTest and BabelStream count), host-to-device "
		"and device-to-host copies from pinned memory, host-to-device from ordinary pageable memory "
		"(compared with the PCIe link's raw rate per direction), GEMM throughput per precision through "
		"cuBLASLt (fp32, tf32, fp16, bf16, and fp8 from compute capability 8.9; loaded from the CUDA toolkit, "
		"a pip nvidia-cublas wheel in $VIRTUAL_ENV or $CONDA_PREFIX, or $GPUWISE_CUBLASLT_LIBRARY; skipped "
		"when there is none), kernel launch latency, and copies to a second GPU when there is one. Every timing uses CUDA events; each test runs a warm-up and then "
		"several trials, and the best trial counts. Copied bytes are checked afterwards: a copy that moved "
		"the wrong bytes fails instead of reporting a speed.\n\n"
		"While each test runs gpuwise samples NVML: SM clock, power, temperature, throttle reasons and the "
		"PCIe link under load. A result below 70 percent of the datasheet gets a warning on stderr with the likely "
		"causes NVML saw: a PCIe link trained down under load or a slot that allows less than the GPU, a "
		"power cap, thermal throttling, clocks held below boost. Each GEMM is first checked against the "
		"CPU on a small product: a GEMM that computes the wrong thing fails instead of reporting a speed.\n\n"
		"A progress line goes to stderr while it runs, when stderr is a terminal. The GPU is used in its "
		"primary context. It refuses a GPU in MIG mode (CUDA sees only its instances) and, unless --force, "
		"a GPU other processes compute on or that is at least 20 percent busy: their work would lower the "
		"figures and bench's buffers could take memory they need."),
	.exit_status = N_("Exit status: 0 when every chosen test ran (a low figure is a result), 1 when a test failed or "
			  "nothing could run (no CUDA driver, no such GPU, a GPU that is not NVIDIA, cannot be read or is "
			  "hidden from CUDA, a GPU in MIG mode, a busy GPU without --force), 2 on a usage error (an unknown "
			  "test name, more than one GPU)."),
};

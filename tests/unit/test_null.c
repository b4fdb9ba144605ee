/* Every public function of include/gpuwise/ called with NULL for each of
 * its pointers: a negative gw_error (GW_EINVAL), or the documented safe
 * value (0, NULL, "", a no-op), never a crash (issue 7). A function added
 * to the API belongs here too: tests/abi/test_exports.sh lists them all. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpuwise/gpuwise.h"

static void test_context(void)
{
	gw_options opts = GW_OPTIONS_INIT;
	gw_device_sample s;
	gw_process *procs = (gw_process *)&s; /* untouched on failure */
	size_t n = 7;
	int count = 7, idx = 7;
	const gw_driver_info *drv;

	CHECK_INT(gw_context_new(NULL, &opts), GW_EINVAL);
	CHECK_INT(gw_context_new(NULL, NULL), GW_EINVAL);
	gw_context_free(NULL);
	CHECK(gw_context_root(NULL) == NULL);
	CHECK_INT(gw_device_count(NULL), 0);
	CHECK(gw_device_get(NULL, 0) == NULL);
	CHECK_INT(gw_device_find(NULL, "0", &idx), GW_EINVAL);
	CHECK_INT(idx, 7);
	CHECK_INT(gw_device_sample_read(NULL, 0, &s), GW_EINVAL);
	CHECK_INT(gw_device_processes(NULL, 0, &procs, &n), GW_EINVAL);
	CHECK(procs == (gw_process *)&s && n == 7);
	gw_processes_free(NULL);
	{
		gw_process_util *u = (gw_process_util *)&s;
		gw_host_process h;

		h.pid = 7;
		CHECK_INT(gw_device_process_utilization(NULL, 0, &u, &n), GW_EINVAL);
		CHECK(u == (gw_process_util *)&s && n == 7);
		gw_process_util_free(NULL);
		CHECK_INT(gw_process_host_read(NULL, 1, &h), GW_EINVAL);
		CHECK_INT((int)h.pid, 7);
	}
	drv = gw_context_driver(NULL);
	CHECK(drv != NULL);
	CHECK(drv && !GW_VALID(drv->driver_version) && !GW_VALID(drv->cuda_driver_version));
	CHECK(gw_context_backends(NULL, &count) == NULL);
	CHECK_INT(count, 0);
	CHECK(gw_context_backends(NULL, NULL) == NULL);
	CHECK(gw_context_backend(NULL, "nvml") == NULL);
}

/* The same with a real (empty) context and NULL for the other pointers. */
static void test_context_args(void)
{
	gw_options opts = GW_OPTIONS_INIT;
	gw_context *ctx = NULL;
	gw_process *procs = NULL;
	size_t n = 0;
	int idx = 7, count;

	opts.flags = GW_OPT_NO_NVML | GW_OPT_NO_CUDA | GW_OPT_NO_SYSFS;
	CHECK_INT(gw_context_new(&ctx, &opts), 0);
	if (!ctx)
		return;
	CHECK_INT(gw_device_find(ctx, NULL, &idx), GW_EINVAL);
	CHECK_INT(gw_device_find(ctx, "0", NULL), GW_EINVAL);
	CHECK_INT(idx, 7);
	CHECK_INT(gw_device_sample_read(ctx, 0, NULL), GW_EINVAL);
	CHECK_INT(gw_device_processes(ctx, 0, NULL, &n), GW_EINVAL);
	CHECK_INT(gw_device_processes(ctx, 0, &procs, NULL), GW_EINVAL);
	CHECK_INT(gw_device_process_utilization(ctx, 0, NULL, &n), GW_EINVAL);
	CHECK_INT(gw_device_process_utilization(ctx, 0, (gw_process_util **)&procs, NULL), GW_EINVAL);
	CHECK_INT(gw_process_host_read(ctx, 1, NULL), GW_EINVAL);
	CHECK(gw_context_backend(ctx, NULL) == NULL);
	CHECK(gw_context_backends(ctx, NULL) != NULL);
	CHECK(gw_context_backends(ctx, &count) != NULL && count > 0);
	CHECK(gw_context_root(ctx) != NULL);
	/* backends by number (names are for people) */
	CHECK(gw_context_backend_by_id(NULL, GW_BACKEND_ID_NVML) == NULL);
	CHECK(gw_context_backend_by_id(ctx, GW_BACKEND_ID_NONE) == NULL);
	CHECK(gw_context_backend_by_id(ctx, GW_BACKEND_ID_NVML) &&
	      !strcmp(gw_context_backend_by_id(ctx, GW_BACKEND_ID_NVML)->name, "nvml"));
	CHECK(gw_context_backend_by_id(ctx, GW_BACKEND_ID_CUDA) &&
	      !strcmp(gw_context_backend_by_id(ctx, GW_BACKEND_ID_CUDA)->name, "cuda"));
	CHECK(gw_context_backend_by_id(ctx, GW_BACKEND_ID_PCI) == gw_context_backend(ctx, "pci"));
	CHECK(gw_context_backend_by_id(ctx, GW_BACKEND_ID_AMDGPU) == gw_context_backend(ctx, "amdgpu"));
	{
		/* the messages in the user's language (none here: English),
		 * always into buf; "" for nothing */
		char buf[600];
		const gw_backend_status *nvml = gw_context_backend_by_id(ctx, GW_BACKEND_ID_NVML);

		CHECK(!strcmp(gw_context_backend_message(NULL, NULL, buf, sizeof(buf)), "") && buf[0] == '\0');
		CHECK(gw_context_backend_message(ctx, nvml, buf, sizeof(buf)) == buf && !strcmp(buf, nvml->message));
		CHECK(gw_context_backend_message(ctx, nvml, NULL, 0) == nvml->message);
		CHECK(!strcmp(gw_device_health_reason(NULL, 0, buf, sizeof(buf)), "") && buf[0] == '\0');
		CHECK(!strcmp(gw_device_health_reason(ctx, -1, NULL, 0), ""));
		for (int i = 0; i < gw_device_count(ctx); i++)
			CHECK(!strcmp(gw_device_health_reason(ctx, i, buf, sizeof(buf)), gw_device_get(ctx, i)->health_reason));
	}
	gw_context_free(ctx);
}

static void test_pool(void)
{
	gw_pool_request req = GW_POOL_REQUEST_INIT;
	gw_pool *pool = (gw_pool *)&req;
	gw_lease *lease = (gw_lease *)&req;
	gw_job *job = (gw_job *)&req;
	gw_selection sel;
	char **env = (char **)&req;
	int status = 7;

	CHECK_INT(gw_pool_open(NULL, NULL, NULL), GW_EINVAL);
	CHECK_INT(gw_pool_open(&pool, NULL, NULL), GW_EINVAL);
	CHECK(pool == (gw_pool *)&req);
	gw_pool_close(NULL);
	CHECK(gw_pool_dir(NULL) == NULL);
	CHECK(gw_pool_default_dir() != NULL);
	CHECK_INT(gw_pool_acquire(NULL, &req, &lease), GW_EINVAL);
	CHECK_INT(gw_pool_acquire(NULL, NULL, NULL), GW_EINVAL);
	CHECK(lease == (gw_lease *)&req);
	CHECK(gw_lease_id(NULL) == 0);
	CHECK(gw_lease_waited(NULL) == 0);
	CHECK_INT(gw_lease_count(NULL), 0);
	CHECK_INT(gw_lease_device(NULL, 0, &sel), GW_EINVAL);
	CHECK(gw_lease_uuid(NULL, 0) == NULL);
	CHECK_INT(gw_lease_environment(NULL, &env), GW_EINVAL);
	CHECK(env == (char **)&req);
	gw_lease_environment_free(NULL);
	CHECK_INT(gw_lease_start(NULL, NULL, &job), GW_EINVAL);
	CHECK(job == (gw_job *)&req);
	CHECK_INT(gw_job_pid(NULL), -1);
	CHECK_INT(gw_job_signal(NULL, 0), GW_EINVAL);
	CHECK_INT(gw_job_wait(NULL, 0, &status), GW_EINVAL);
	CHECK_INT(status, 7);
	gw_job_free(NULL);
	gw_lease_release(NULL);
	{
		gw_pool_job *jobs = (gw_pool_job *)&req;
		size_t n = 7;

		CHECK_INT(gw_pool_jobs(NULL, &jobs, &n), GW_EINVAL);
		CHECK(jobs == (gw_pool_job *)&req && n == 7);
		gw_pool_jobs_free(NULL);
	}
}

static void test_doctor(void)
{
	CHECK_INT(gw_doctor_run(NULL, NULL), GW_EINVAL);
	gw_doctor_report_free(NULL);
	CHECK_INT(gw_doctor_finding_count(NULL), 0);
	CHECK(gw_doctor_finding(NULL, 0) == NULL);
	CHECK_INT(gw_doctor_count(NULL, GW_SEVERITY_ERROR), 0);
	CHECK(gw_doctor_verdict(NULL) != NULL);
	CHECK_INT(gw_doctor_deep_count(NULL), 0);
	CHECK(gw_doctor_deep_at(NULL, 0) == NULL);
	CHECK(gw_doctor_report_json(NULL, 2) == NULL);
}

static void test_setup(void)
{
	gw_setup_options bad = GW_SETUP_OPTIONS_INIT;
	const char *unknown[] = { "caffe" };
	gw_setup_plan *plan = NULL;

	CHECK_INT(gw_setup_plan_make(NULL, NULL), GW_EINVAL);
	CHECK_INT(gw_setup_plan_make(&plan, NULL), GW_EINVAL);
	bad.frameworks = unknown;
	bad.nframeworks = 1;
	CHECK_INT(gw_setup_plan_make(&plan, &bad), GW_EINVAL);
	CHECK(plan == NULL);
	gw_setup_plan_free(NULL);
	CHECK(!gw_setup_plan_possible(NULL));
	CHECK(gw_setup_plan_problem(NULL) != NULL);
	CHECK(gw_setup_plan_machine(NULL) == NULL);
	CHECK_INT(gw_setup_framework_count(NULL), 0);
	CHECK(gw_setup_framework_at(NULL, 0) == NULL);
	CHECK_INT(gw_setup_step_count(NULL), 0);
	CHECK(gw_setup_step_at(NULL, 0) == NULL);
	CHECK_INT(gw_setup_verify_count(NULL), 0);
	CHECK(gw_setup_verify_at(NULL, 0) == NULL);
	CHECK(gw_setup_plan_json(NULL, 2) == NULL);
}

static void test_explain(void)
{
	CHECK(gw_finding_doc_get(NULL) == NULL);
	CHECK(gw_finding_doc_at((size_t)-1) == NULL);
	CHECK_INT(gw_explainer_new(NULL), GW_EINVAL);
	gw_explainer_free(NULL);
	CHECK_INT(gw_explainer_feed(NULL, "x", 1), GW_EINVAL);
	CHECK_INT(gw_explainer_finish(NULL), GW_EINVAL);
	CHECK_INT(gw_explainer_count(NULL), 0);
	CHECK(gw_explainer_match(NULL, 0) == NULL);
	CHECK_INT(gw_explainer_lines(NULL), 0);
	gw_explainer_reset(NULL);
}

static void test_json(void)
{
	gw_json *j;

	/* a NULL writer (gw_json_new out of memory) is a no-op everywhere */
	gw_json_object_begin(NULL);
	gw_json_key(NULL, "k");
	gw_json_string(NULL, "s");
	gw_json_string_n(NULL, "s", 1);
	gw_json_int(NULL, 1);
	gw_json_uint(NULL, 1);
	gw_json_double(NULL, 1.0, 1);
	gw_json_bool(NULL, 1);
	gw_json_null(NULL);
	gw_json_u64_field(NULL, "k", NULL);
	gw_json_f64_field(NULL, "k", NULL, 1);
	gw_json_str_field(NULL, "k", NULL);
	gw_json_array_begin(NULL);
	gw_json_array_end(NULL);
	gw_json_object_end(NULL);
	CHECK(gw_json_text(NULL) == NULL);
	CHECK_INT(gw_json_length(NULL), 0);
	gw_json_free(NULL);
	/* NULL values are null, a NULL key is an empty one */
	j = gw_json_new(0);
	CHECK(j != NULL);
	gw_json_object_begin(j);
	gw_json_key(j, NULL);
	gw_json_string(j, NULL);
	gw_json_key(j, "n");
	gw_json_string_n(j, NULL, 3);
	gw_json_u64_field(j, "a", NULL);
	gw_json_f64_field(j, "b", NULL, 1);
	gw_json_str_field(j, "c", NULL);
	gw_json_key(j, "d");
	gw_json_string(j, "e");
	gw_json_object_end(j);
	CHECK_STR(gw_json_text(j), "{\"\":null,\"n\":null,\"a\":null,\"b\":null,\"c\":null,\"d\":\"e\"}");
	gw_json_free(j);
}

static void test_names(void)
{
	CHECK_STR(gw_translate(NULL), "");
	CHECK_STR(gw_translate(""), "");
	CHECK_STR(gw_translate("no such text in any catalogue"), "no such text in any catalogue");
	CHECK(gw_locale_dir() != NULL && gw_locale_dir()[0]);
	CHECK(gw_error_last() != NULL);
	CHECK(gw_error_str(12345) != NULL);
	gw_error_clear();
	CHECK(gw_vendor_name((gw_vendor)99) != NULL);
	CHECK(gw_health_name((gw_health)99) != NULL);
	CHECK(gw_field_state_name((gw_field_state)99) != NULL);
	CHECK(gw_backend_state_name((gw_backend_state)99) != NULL);
	CHECK(gw_severity_name((gw_severity)99) != NULL);
	CHECK(gw_version() != NULL);
}

static void test_advise(void)
{
	gw_model m;
	gw_model_entry e;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_estimate est;
	gw_advise_plan plan;
	gw_gpu_spec spec;
	uint64_t n = 7;

	CHECK_INT(gw_model_from_catalog(NULL, "gpt2"), GW_EINVAL);
	CHECK_INT(gw_model_from_catalog(&m, NULL), GW_EINVAL);
	CHECK_INT(gw_model_catalog_at(0, NULL), GW_EINVAL);
	CHECK(gw_model_catalog_count() > 0);
	CHECK_INT(gw_model_from_config(NULL, "{}", 2, NULL), GW_EINVAL);
	CHECK_INT(gw_model_from_config(&m, NULL, 1, NULL), GW_EINVAL);
	CHECK_INT(gw_model_finish(NULL), GW_EINVAL);
	CHECK_INT(gw_advise_value(NULL, "train"), -1);
	CHECK_INT(gw_advise_value("task", NULL), -1);
	CHECK(gw_advise_name(NULL, 0) == NULL);
	CHECK(gw_advise_names(NULL) == NULL);
	CHECK_INT(gw_model_from_catalog(&m, "gpt2"), 0);
	CHECK_INT(gw_advise_estimate_run(NULL, &m, &o), GW_EINVAL);
	CHECK_INT(gw_advise_estimate_run(&est, NULL, &o), GW_EINVAL);
	CHECK_INT(gw_advise_estimate_run(&est, &m, NULL), GW_EINVAL);
	CHECK_INT(gw_advise_max_micro_batch(NULL, &m, &o, 1), GW_EINVAL);
	CHECK_INT(gw_advise_max_micro_batch(&n, NULL, &o, 1), GW_EINVAL);
	CHECK_INT(gw_advise_max_micro_batch(&n, &m, NULL, 1), GW_EINVAL);
	CHECK_INT(n, 7);
	CHECK_INT(gw_advise_plan_make(NULL, &m, &o, 1, 1), GW_EINVAL);
	CHECK_INT(gw_advise_plan_make(&plan, NULL, &o, 1, 1), GW_EINVAL);
	CHECK_INT(gw_advise_plan_make(&plan, &m, NULL, 1, 1), GW_EINVAL);
	CHECK_INT(gw_gpu_spec_find(NULL, &spec), GW_EINVAL);
	CHECK_INT(gw_gpu_spec_find("T4", NULL), GW_EINVAL);
	CHECK_INT(gw_gpu_spec_at(0, NULL), GW_EINVAL);
	CHECK(gw_gpu_spec_count() > 0);
	gw_advise_report *rep = (gw_advise_report *)&n;
	CHECK_INT(gw_advise_report_new(NULL, &m, "catalogue", &o, NULL, 0, 0), GW_EINVAL);
	CHECK_INT(gw_advise_report_new(&rep, NULL, "catalogue", &o, NULL, 0, 0), GW_EINVAL);
	CHECK_INT(gw_advise_report_new(&rep, &m, "catalogue", NULL, NULL, 0, 0), GW_EINVAL);
	CHECK_INT(gw_advise_report_new(&rep, &m, "catalogue", &o, NULL, 1, 0), GW_EINVAL);
	CHECK(rep == (gw_advise_report *)&n);
	gw_advise_report_free(NULL);
	CHECK(gw_advise_report_model(NULL) == NULL);
	CHECK(gw_advise_report_estimate(NULL) == NULL);
	CHECK_INT(gw_advise_report_count(NULL), 0);
	CHECK(gw_advise_report_result(NULL, 0) == NULL);
	CHECK(gw_advise_report_plan(NULL) == NULL);
	CHECK_INT(gw_advise_report_target_batch(NULL), 0);
	CHECK(gw_advise_report_json(NULL, 2) == NULL);
	CHECK_INT(gw_advise_report_add_hardware(NULL, &o), GW_EINVAL);
	CHECK_INT(gw_advise_report_hardware_count(NULL), 0);
	CHECK(gw_advise_report_hardware(NULL, 0) == NULL);
	gw_advise_ranks_free(NULL);
	size_t nr = 3;
	gw_advise_rank *ranks = NULL;
	CHECK_INT(gw_advise_hardware(NULL, &nr, &m, &o), GW_EINVAL);
	CHECK_INT(gw_advise_hardware(&ranks, NULL, &m, &o), GW_EINVAL);
	CHECK_INT(gw_advise_hardware(&ranks, &nr, NULL, &o), GW_EINVAL);
	CHECK_INT(gw_advise_hardware(&ranks, &nr, &m, NULL), GW_EINVAL);
	CHECK(ranks == NULL && nr == 3);
	CHECK(gw_advise_training_arguments(NULL, 5, &plan) == NULL);
	char buf[8] = "x";
	CHECK_STR(gw_advise_training_arguments(buf, sizeof(buf), NULL), "");
	(void)e;
}

/* The metric table: a bad id or a NULL pointer is UNREAD, never a crash. */
static void test_metrics(void)
{
	gw_metric_value v;
	gw_device_info info;
	char buf[8];

	memset(&info, 0, sizeof(info));
	CHECK(gw_metric_count() > 0);
	CHECK(gw_metric_info_get(-1) == NULL);
	CHECK(gw_metric_info_get(gw_metric_count()) == NULL);
	CHECK(gw_metric_find(NULL) == -1);
	CHECK(gw_metric_find("no-such-metric") == -1);
	CHECK(gw_device_metric_value(NULL, NULL, 0, &v) == GW_FIELD_UNREAD);
	CHECK(gw_device_metric_value(&info, NULL, 0, NULL) == GW_FIELD_UNREAD);
	CHECK(gw_device_metric_value(&info, NULL, -1, &v) == GW_FIELD_UNREAD);
	CHECK(gw_device_metric_value(&info, NULL, gw_metric_find("power_draw"), &v) == GW_FIELD_UNREAD);
	CHECK(gw_throttle_reason_name(1u << 31) == NULL);
	CHECK(gw_throttle_reason_title(0) == NULL);
	CHECK_STR(gw_compute_mode_name(99), "unknown");
	CHECK_STR(gw_pstate_name(0, NULL, 0), "");
	CHECK_STR(gw_pstate_name(2, buf, sizeof(buf)), "P2");
}

static void test_bench(void)
{
	gw_bench_report rep;
	gw_bench_test t = GW_BENCH_P2P;

	rep.nresults = 7;
	CHECK_INT(gw_bench_run(NULL, 0, NULL, &rep), GW_EINVAL);
	CHECK_INT(rep.nresults, 7);   /* untouched */
	CHECK_INT(gw_bench_test_find(NULL, &t), GW_EINVAL);
	CHECK_INT(gw_bench_test_find("d2d-copy", NULL), GW_EINVAL);
	CHECK_INT(gw_bench_test_find("nope", &t), GW_ENOTFOUND);
	CHECK_INT(t, GW_BENCH_P2P);
	CHECK(gw_bench_test_name(GW_BENCH_TEST_COUNT) == NULL);
	CHECK(gw_bench_test_unit((gw_bench_test)-1) == NULL);
	CHECK_STR(gw_bench_test_name(GW_BENCH_H2D_PAGEABLE), "h2d-pageable");
	CHECK_STR(gw_bench_test_unit(GW_BENCH_GEMM_FP8), "TFLOPS");
}

static void test_sampler(void)
{
	gw_sampler *s = (gw_sampler *)&s;
	gw_sample_point p;
	gw_process *procs = NULL;
	size_t n = 0;

	CHECK_INT(gw_sampler_new(NULL, NULL, NULL), GW_EINVAL);
	CHECK_INT(gw_sampler_new(&s, NULL, NULL), GW_EINVAL);
	CHECK(s == (gw_sampler *)&s); /* untouched on failure */
	gw_sampler_free(NULL);
	CHECK_INT(gw_sampler_step(NULL), GW_EINVAL);
	CHECK_INT(gw_sampler_start(NULL), GW_EINVAL);
	CHECK_INT(gw_sampler_stop(NULL), GW_EINVAL);
	CHECK_INT(gw_sampler_device_count(NULL), 0);
	CHECK_INT(gw_sampler_device_index(NULL, 0), -1);
	CHECK(gw_sampler_passes(NULL) == 0);
	CHECK_INT(gw_sampler_latest(NULL, 0, &p), GW_EINVAL);
	CHECK(gw_sampler_history(NULL, 0, &p, 1) == 0);
	CHECK_INT(gw_sampler_processes(NULL, 0, &procs, &n), GW_EINVAL);
	gw_sampler_fork_prepare(NULL);
	gw_sampler_fork_parent(NULL);
	gw_sampler_fork_child(NULL);
}

int main(void)
{
	test_sampler();
	test_advise();
	test_bench();
	test_context();
	test_context_args();
	test_metrics();
	test_pool();
	test_doctor();
	test_setup();
	test_explain();
	test_json();
	test_names();
	return CHECK_DONE();
}

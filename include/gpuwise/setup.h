/* gpuwise — setup: the ordered steps from this machine to a working GPU
 * framework, with the exact commands and why each is needed.
 *
 *   gw_setup_plan *plan;
 *   gw_setup_options opts = GW_SETUP_OPTIONS_INIT;
 *   const char *fw[] = { "torch" };
 *   opts.frameworks = fw; opts.nframeworks = 1;
 *   if (gw_setup_plan_make(&plan, &opts) < 0) { puts(gw_error_last()); ... }
 *   for (size_t i = 0; i < gw_setup_step_count(plan); i++)
 *           puts(gw_setup_step_at(plan, i)->title);
 *   gw_setup_plan_free(plan);
 *
 * The facts are doctor's (the probes and the live driver): the GPUs and
 * their architectures, the driver and the highest CUDA it runs,
 * /etc/os-release, the Python environment and the frameworks in it. The
 * versions, wheel variants, packages and driver commands come from the
 * tables in data/ (torch_releases, torch_cuda_arch, torch_rocm_arch,
 * tensorflow_cuda, setup_pip, driver_install), each row with its source.
 * Nothing is run: the caller prints the plan or runs its pip steps. Texts
 * (title, why) are in the user's language; ids and commands never are. */
#ifndef GPUWISE_SETUP_H
#define GPUWISE_SETUP_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GW_SETUP_OPTIONS_VERSION 1
typedef struct gw_setup_options {
	unsigned version;                 /* GW_SETUP_OPTIONS_VERSION */
	/* "torch", "tensorflow", "jax", "cupy", "onnxruntime", "paddle"; none:
	 * the frameworks found in the environment, else torch. */
	const char *const *frameworks;
	size_t nframeworks;
	const char *python_env;           /* the environment's prefix (--python-env); NULL: the active one */
} gw_setup_options;
#define GW_SETUP_OPTIONS_INIT { GW_SETUP_OPTIONS_VERSION, NULL, 0, NULL }

/* The frameworks setup knows, NULL-terminated. */
extern const char *const gw_setup_frameworks[];

/* One step. Strings are owned by the plan, never NULL. */
typedef struct gw_setup_step {
	const char *id;             /* stable: "nvidia-driver", "torch-uninstall", "torch", "verify", ... */
	const char *title;          /* one line */
	const char *why;            /* why it is needed, what it replaces */
	const char *const *commands;   /* complete lines a user can paste */
	size_t ncommands;
	bool needs_root;            /* a sudo step: printed, never run by `setup --run` */
	bool done;                  /* already so on this machine: nothing to do */
	bool pip;                   /* runs the environment's pip (`setup --run` runs these) */
} gw_setup_step;

typedef struct gw_setup_gpu {
	const char *name;           /* "NVIDIA GeForce RTX 3060 Laptop GPU" */
	const char *vendor;         /* "nvidia", "amd" */
	const char *arch;           /* "sm_86", "gfx942", "" unknown */
} gw_setup_gpu;

typedef struct gw_setup_machine {
	const char *os_id;          /* os-release ID ("ubuntu"), "" unknown */
	const char *os_version;     /* VERSION_ID ("22.04"), "" unknown */
	const char *os_name;        /* PRETTY_NAME, "" unknown */
	const char *driver;         /* NVIDIA driver version, "" none loaded */
	const char *driver_cuda;    /* highest CUDA the driver runs ("12.2"), "" unknown */
	const char *rocm;           /* ROCm version found, "" none */
	const gw_setup_gpu *gpus;
	size_t ngpus;
	const char *python;         /* the interpreter the pip commands use ("PREFIX/bin/python", "python3") */
	const char *python_env;     /* its prefix, "" when none was named or active */
} gw_setup_machine;

typedef struct gw_setup_plan gw_setup_plan;

/* Make the plan. *out is set on success, also when no plan is possible
 * (gw_setup_plan_possible() says so, gw_setup_plan_problem() why).
 * GW_EINVAL for an unknown framework or bad options, GW_ENOTFOUND for a
 * python_env that is not a directory, GW_ENOMEM. */
int gw_setup_plan_make(gw_setup_plan **out, const gw_setup_options *opts);
void gw_setup_plan_free(gw_setup_plan *plan);

bool gw_setup_plan_possible(const gw_setup_plan *plan);
const char *gw_setup_plan_problem(const gw_setup_plan *plan);   /* "" when possible */
const gw_setup_machine *gw_setup_plan_machine(const gw_setup_plan *plan);
size_t gw_setup_framework_count(const gw_setup_plan *plan);
const char *gw_setup_framework_at(const gw_setup_plan *plan, size_t i);
size_t gw_setup_step_count(const gw_setup_plan *plan);
const gw_setup_step *gw_setup_step_at(const gw_setup_plan *plan, size_t i);
/* The checks that prove the result ("gpuwise doctor --deep"). */
size_t gw_setup_verify_count(const gw_setup_plan *plan);
const char *gw_setup_verify_at(const gw_setup_plan *plan, size_t i);

/* {"gpuwise_version", "machine": {...}, "frameworks": [...], "steps":
 * [{"id", "title", "why", "commands", "needs_root", "done"}], "verify":
 * [...]} (plus "possible" and "problem"), malloc'd; NULL on out of memory. */
char *gw_setup_plan_json(const gw_setup_plan *plan, int indent);

#ifdef __cplusplus
}
#endif
#endif

/* The probes on this machine (root "/"): whatever toolkit /usr/local/cuda
 * is must be found with the version nvcc --version prints, and cuDNN/NCCL
 * as its headers say (read here independently, line by line). Skips what
 * the machine does not have. Also checks doctor's speed budget. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "probe/probe.h"

/* "#define NAME 9" → 9, or -1. */
static long header_define(const char *path, const char *name)
{
	FILE *f = fopen(path, "r");
	char line[512], key[128];
	long v, found = -1;

	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, " # define %127s %ld", key, &v) == 2 && !strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

int main(void)
{
	gw_probe_options o;
	gw_probe_report *r = NULL;
	const gw_probe_toolkit *t = NULL;
	char resolved[4096];
	struct timespec a, b;
	double ms;

	gw__probe_options_from_environ(&o);
	o.root = "/";
	o.real_system = false;
	o.uid = -1;
	clock_gettime(CLOCK_MONOTONIC, &a);
	CHECK_INT(gw__probe_run(&r, &o), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
	printf("probe run: %.1f ms, %zu toolkits, %zu python envs, %zu GPUs\n", ms, r ? r->ntoolkits : 0,
	       r ? r->nenvs : 0, r ? r->ngpus : 0);
	/* No limit on ms here: a wall-clock bound fails on a loaded machine
	 * (505 ms beside five other jobs). bench/doctor.sh measures the speed. */
	if (!r)
		return CHECK_DONE();
	if (!realpath("/usr/local/cuda", resolved)) {
		printf("no /usr/local/cuda here: toolkit checks skipped\n");
		gw__probe_free(r);
		return CHECK_DONE();
	}
	for (size_t i = 0; i < r->ntoolkits; i++)
		if (!strcmp(r->toolkits[i].resolved, resolved))
			t = &r->toolkits[i];
	CHECK(t != NULL);
	if (t) {
		FILE *p;
		char line[256];
		unsigned major = 0, minor = 0;
		long cudnn_major = header_define("/usr/local/cuda/include/cudnn_version.h", "CUDNN_MAJOR");
		long nccl_major = header_define("/usr/local/cuda/include/nccl.h", "NCCL_MAJOR");

		printf("toolkit %s: %s (from %s), cuDNN %s, NCCL %s\n", t->resolved, t->version.text,
		       t->version_source ? t->version_source : "?", t->cudnn.text, t->nccl.text);
		CHECK(GW_VERSION_KNOWN(t->version));
		CHECK(t->has_nvcc == (access("/usr/local/cuda/bin/nvcc", F_OK) == 0));
		if (t->has_nvcc && (p = popen("/usr/local/cuda/bin/nvcc --version 2>/dev/null", "r"))) {
			while (fgets(line, sizeof(line), p)) {
				char *rel = strstr(line, "release ");

				if (rel)
					sscanf(rel, "release %u.%u", &major, &minor);
			}
			pclose(p);
			CHECK(major > 0);
			CHECK_INT(t->version.part[0], major);
			CHECK_INT(t->version.part[1], minor);
		}
		if (cudnn_major >= 0) {
			CHECK_INT(t->cudnn.part[0], cudnn_major);
			CHECK_INT(t->cudnn.part[1], header_define("/usr/local/cuda/include/cudnn_version.h", "CUDNN_MINOR"));
			CHECK_INT(t->cudnn.part[2], header_define("/usr/local/cuda/include/cudnn_version.h", "CUDNN_PATCHLEVEL"));
		}
		if (nccl_major >= 0) {
			CHECK_INT(t->nccl.part[0], nccl_major);
			CHECK_INT(t->nccl.part[1], header_define("/usr/local/cuda/include/nccl.h", "NCCL_MINOR"));
			CHECK_INT(t->nccl.part[2], header_define("/usr/local/cuda/include/nccl.h", "NCCL_PATCH"));
		}
		/* On this project's machine: /usr/local/cuda-13.0 with no version.json. */
		if (!strcmp(resolved, "/usr/local/cuda-13.0"))
			CHECK(t->version.part[0] == 13 && t->version.part[1] == 0);
	}
	gw__probe_free(r);
	return CHECK_DONE();
}

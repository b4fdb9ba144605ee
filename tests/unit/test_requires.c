/* Requires-Dist lines, PEP 508 markers, PEP 440 specifiers and WHEEL tags
 * (lib/probe/requires.c) on the real METADATA and WHEEL files of PyPI
 * wheels in tests/fixtures/dists (see its README for where each came from).
 * Run from the repository root, like every unit test. */
#include <stdlib.h>

#include "check.h"
#include "gpuwise/gpuwise.h"
#include "probe/probe.h"

#define DISTS "tests/fixtures/dists/"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_requirement_forms(void)
{
	gw_requirement r;

	/* torch 2.5.1 x86_64 (old form, parentheses) */
	CHECK_INT(gw__parse_requirement("nvidia-cublas-cu12 (==12.4.5.8) ; platform_system == \"Linux\" and "
					"platform_machine == \"x86_64\"", &r), 0);
	CHECK_STR(r.name, "nvidia-cublas-cu12");
	CHECK_STR(r.spec, "==12.4.5.8");
	CHECK_STR(r.marker, "platform_system == \"Linux\" and platform_machine == \"x86_64\"");
	/* torch 2.5.1 aarch64 (new form) */
	CHECK_INT(gw__parse_requirement("nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\" and "
					"platform_machine == \"x86_64\"", &r), 0);
	CHECK_STR(r.name, "nvidia-cudnn-cu12");
	CHECK_STR(r.spec, "==9.1.0.70");
	/* TensorFlow 2.18.0 */
	CHECK_INT(gw__parse_requirement("nvidia-cuda-nvcc-cu12 ==12.5.82 ; extra == 'and-cuda'", &r), 0);
	CHECK_STR(r.spec, "==12.5.82");
	CHECK_STR(r.marker, "extra == 'and-cuda'");
	/* jax-cuda12-plugin 0.4.35: a range; jax 0.4.35: extras of the dependency */
	CHECK_INT(gw__parse_requirement("nvidia-cudnn-cu12 <10.0,>=9.1 ; extra == 'with_cuda'", &r), 0);
	CHECK_STR(r.spec, "<10.0,>=9.1");
	CHECK_INT(gw__parse_requirement("jax-cuda12-plugin[with_cuda]<=0.4.35,>=0.4.34; extra == \"cuda12\"", &r), 0);
	CHECK_STR(r.name, "jax-cuda12-plugin");
	CHECK_STR(r.spec, "<=0.4.35,>=0.4.34");
	CHECK_INT(gw__parse_requirement("Jax_CUDA12.PJRT ==0.4.35", &r), 0);
	CHECK_STR(r.name, "jax-cuda12-pjrt");
	CHECK_STR(r.marker, "");
	CHECK_INT(gw__parse_requirement("filelock", &r), 0);
	CHECK_STR(r.spec, "");
	CHECK_INT(gw__parse_requirement("pkg @ https://example.org/pkg.whl ; os_name == 'posix'", &r), 0);
	CHECK(r.is_url);
	CHECK_INT(gw__parse_requirement("  ; extra == 'x'", &r), GW_EPARSE);
	CHECK_INT(gw__parse_requirement("pkg[unclosed", &r), GW_EPARSE);
}

static void test_markers(void)
{
	gw_marker_env x86 = { "Linux", "linux", "posix", "x86_64", "3.12", NULL };
	gw_marker_env arm = { "Linux", "linux", "posix", "aarch64", "3.12", NULL };
	gw_marker_env unknown = { "Linux", "linux", "posix", NULL, NULL, NULL };
	const char *torch = "platform_system == \"Linux\" and platform_machine == \"x86_64\"";
	const char *triton = "platform_system == \"Linux\" and platform_machine == \"x86_64\" and python_version < \"3.13\"";

	CHECK_INT(gw__marker_eval(torch, &x86), 1);
	CHECK_INT(gw__marker_eval(torch, &arm), 0);
	CHECK_INT(gw__marker_eval(torch, &unknown), -1);   /* cannot tell the machine */
	CHECK_INT(gw__marker_eval(triton, &x86), 1);
	x86.python_version = "3.13";
	CHECK_INT(gw__marker_eval(triton, &x86), 0);
	CHECK_INT(gw__marker_eval("python_version == \"3.8\"", &x86), 0);
	x86.python_version = "3.12";
	CHECK_INT(gw__marker_eval("python_version >= \"3.9\"", &x86), 1);
	CHECK_INT(gw__marker_eval("platform_system == \"Windows\"", &x86), 0);   /* tensorflow-intel */
	CHECK_INT(gw__marker_eval("", &x86), 1);
	/* Extras: none asked means extra == "" (pip's rule); names compare normalised. */
	CHECK_INT(gw__marker_eval("extra == 'and-cuda'", &x86), 0);
	x86.extra = "and-cuda";
	CHECK_INT(gw__marker_eval("extra == 'and-cuda'", &x86), 1);
	x86.extra = "with-cuda";
	CHECK_INT(gw__marker_eval("extra == 'with_cuda'", &x86), 1);
	x86.extra = NULL;
	/* Three-valued: false and unknown = false, true or unknown = true. */
	CHECK_INT(gw__marker_eval("platform_system == \"Windows\" and python_full_version >= \"3.9.0\"", &x86), 0);
	CHECK_INT(gw__marker_eval("platform_system == \"Linux\" or python_full_version >= \"3.9.0\"", &x86), 1);
	CHECK_INT(gw__marker_eval("platform_system == \"Linux\" and python_full_version >= \"3.9.0\"", &x86), -1);
	CHECK_INT(gw__marker_eval("(os_name == 'nt' or sys_platform == 'linux') and 'x86' in platform_machine", &x86), 1);
	CHECK_INT(gw__marker_eval("\"x86_64\" == platform_machine", &x86), 1);
	CHECK_INT(gw__marker_eval("platform_machine not in 'aarch64 ppc64le'", &x86), 1);
	/* Syntax errors and nesting past the bound: cannot tell, never a crash. */
	CHECK_INT(gw__marker_eval("platform_system ==", &x86), -1);
	CHECK_INT(gw__marker_eval("bogus_var == 'x'", &x86), -1);
	CHECK_INT(gw__marker_eval("os_name == 'posix' trailing", &x86), -1);
	CHECK_INT(gw__marker_eval("((((((((((((((((((os_name == 'posix'))))))))))))))))))", &x86), -1);
	CHECK_INT(gw__marker_eval("(os_name == 'posix'", &x86), -1);
	CHECK_INT(gw__marker_eval("platform_machine < 'z'", &x86), -1);   /* string ordering: left to the tool */
}

static void test_specs(void)
{
	gw_ver v;

	gw__version_parse("12.4.5.8", &v);
	CHECK_INT(gw__version_spec_match("==12.4.5.8", &v), 1);
	CHECK_INT(gw__version_spec_match(">=12.1.3.1", &v), 1);
	CHECK_INT(gw__version_spec_match("==12.5.3.2", &v), 0);
	CHECK_INT(gw__version_spec_match("==12.*", &v), 1);
	CHECK_INT(gw__version_spec_match("!=12.4.*", &v), 0);
	CHECK_INT(gw__version_spec_match("", &v), 1);
	CHECK_INT(gw__version_spec_match("===12.4.5.8", &v), -1);
	/* A clause whose version fills the 48-byte text buffer and ends in ".*": the
	 * suffix test once formed text + n before subtracting (UBSan: index
	 * out of bounds; found by fuzz_probe_parsers). */
	CHECK_INT(gw__version_spec_match("==12.4.5.00000000000000000000000000000000000008.*", &v), 1);   /* 47 bytes */
	gw__version_parse("9.1.0.70", &v);
	CHECK_INT(gw__version_spec_match("<10.0,>=9.1", &v), 1);
	gw__version_parse("8.9.7.29", &v);
	CHECK_INT(gw__version_spec_match("<10.0,>=9.1", &v), 0);
	gw__version_parse("10.0", &v);
	CHECK_INT(gw__version_spec_match("<10.0,>=9.1", &v), 0);
	gw__version_parse("2.5", &v);
	CHECK_INT(gw__version_spec_match("~=2.1", &v), 1);
	gw__version_parse("3.0", &v);
	CHECK_INT(gw__version_spec_match("~=2.1", &v), 0);
	gw__version_parse("0.5.1", &v);
	CHECK_INT(gw__version_spec_match("!=0.5.0,!=0.5.1,!=0.5.2,>=0.2.1", &v), 0);   /* TF's gast */
	memset(&v, 0, sizeof(v));
	CHECK_INT(gw__version_spec_match("==1.0", &v), -1);
}

/* How many CUDA-wheel requirements of a real METADATA apply, unconditionally
 * and with `extra`, on the machine its own WHEEL names. */
static void count_reqs(const char *dir, const char *extra, int *base, int *with_extra, char *machine, size_t msz)
{
	char path[256], line[512];
	char *meta, *wheel;
	const char *cur;
	gw_marker_env env = { "Linux", "linux", "posix", NULL, "3.12", NULL };

	*base = *with_extra = -1;
	snprintf(path, sizeof(path), DISTS "%s/WHEEL", dir);
	wheel = slurp(path);
	snprintf(path, sizeof(path), DISTS "%s/METADATA", dir);
	meta = slurp(path);
	CHECK(wheel != NULL && meta != NULL);
	if (!wheel || !meta)
		goto out;
	machine[0] = '\0';
	if (gw__parse_wheel_machine(wheel, machine, msz) == 0)
		env.platform_machine = machine;
	*base = *with_extra = 0;
	for (cur = meta; gw__metadata_next(&cur, "Requires-Dist", line, sizeof(line)) == 0;) {
		gw_requirement r;
		char x[32];

		CHECK_INT(gw__parse_requirement(line, &r), 0);
		if (strncmp(r.name, "nvidia-", 7) && strcmp(r.name, "jax-cuda12-pjrt"))
			continue;
		env.extra = NULL;
		if (gw__marker_eval(r.marker, &env) == 1) {
			(*base)++;
			continue;
		}
		gw__marker_extra(r.marker, x, sizeof(x));
		env.extra = x;
		if (x[0] && !strcmp(x, extra) && gw__marker_eval(r.marker, &env) == 1)
			(*with_extra)++;
	}
out:
	free(wheel);
	free(meta);
}

static void test_real_metadata(void)
{
	char machine[16];
	int base, extra;

	count_reqs("torch-2.5.1-x86_64.dist-info", "", &base, &extra, machine, sizeof(machine));
	CHECK_STR(machine, "x86_64");     /* Tag: cp312-cp312-linux_x86_64 */
	CHECK_INT(base, 12);
	count_reqs("torch-2.5.1-aarch64.dist-info", "", &base, &extra, machine, sizeof(machine));
	CHECK_STR(machine, "aarch64");
	CHECK_INT(base, 0);               /* every nvidia pin is x86_64-only */
	count_reqs("tensorflow-2.18.0.dist-info", "and-cuda", &base, &extra, machine, sizeof(machine));
	CHECK_STR(machine, "x86_64");
	CHECK_INT(base, 0);
	CHECK_INT(extra, 12);
	count_reqs("jax_cuda12_plugin-0.4.35.dist-info", "with-cuda", &base, &extra, machine, sizeof(machine));
	CHECK_INT(base, 1);               /* jax-cuda12-pjrt ==0.4.35 */
	CHECK_INT(extra, 10);
	count_reqs("jax-0.4.35.dist-info", "cuda12", &base, &extra, machine, sizeof(machine));
	CHECK_STR(machine, "");           /* py3-none-any */
	CHECK_INT(base, 0);
	CHECK_INT(extra, 0);              /* jax names the plugin, not nvidia wheels */
}

static void test_metadata_header(void)
{
	const char *text = "Metadata-Version: 2.1\nName: x\nRequires-Dist: a ==1\r\nRequires-Dist: b\n\n"
			   "Requires-Dist: c (in the description)\n";
	const char *cur = text;
	char v[16], small[3], extra[16];

	CHECK_INT(gw__metadata_next(&cur, "Requires-Dist", v, sizeof(v)), 0);
	CHECK_STR(v, "a ==1");
	CHECK_INT(gw__metadata_next(&cur, "requires-dist", v, sizeof(v)), 0);
	CHECK_STR(v, "b");
	CHECK_INT(gw__metadata_next(&cur, "Requires-Dist", v, sizeof(v)), GW_ENOTFOUND);
	cur = text;
	CHECK_INT(gw__metadata_next(&cur, "Name", small, sizeof(small)), 0);
	CHECK_STR(small, "x");
	gw__marker_extra("python_version >= '3' and extra == \"With_CUDA\"", extra, sizeof(extra));
	CHECK_STR(extra, "with-cuda");
	gw__marker_extra("python_version >= '3'", extra, sizeof(extra));
	CHECK_STR(extra, "");
	CHECK_INT(gw__parse_wheel_machine("Wheel-Version: 1.0\nTag: py3-none-any\n", extra, sizeof(extra)), GW_ENOTFOUND);
	CHECK_INT(gw__parse_wheel_machine("Tag: cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64\n", extra,
					  sizeof(extra)), 0);
	CHECK_STR(extra, "x86_64");
}

int main(void)
{
	test_requirement_forms();
	test_markers();
	test_specs();
	test_real_metadata();
	test_metadata_header();
	return CHECK_DONE();
}

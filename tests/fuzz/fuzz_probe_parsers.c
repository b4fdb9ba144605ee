/* Fuzz target: every probe parser (lib/probe/parse.c) over the same input,
 * NUL-terminated copy. None may crash, read past the end or leak; the
 * outputs must stay NUL-terminated and within bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void sink(const char *s)
{
	/* Touch every byte so ASan sees an unterminated buffer. */
	volatile size_t n = strlen(s);
	(void)n;
}

static bool cache_entry(const char *path, void *arg)
{
	(void)arg;
	sink(path);
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	char out[64], small[4];
	gw_ver v;
	gw_probe_kmod_flavor fl;
	uint64_t x;
	unsigned xid;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	gw__version_parse(text, &v);
	sink(v.text);
	gw__parse_cuda_version_json(text, &v);
	gw__parse_cuda_version_txt(text, &v);
	gw__parse_cuda_h(text, &v);
	gw__parse_cudnn_h(text, &v);
	gw__parse_nccl_h(text, &v);
	gw__parse_rocm_version_h(text, &v);
	gw__parse_c_define(text, "CUDA_VERSION", &x);
	gw__parse_py_assign(text, "__version__", out, sizeof(out));
	sink(out);
	gw__parse_py_assign(text, "cuda", small, sizeof(small));
	sink(small);
	gw__parse_py_key(text, "cuda_compute_capabilities", out, sizeof(out));
	sink(out);
	gw__parse_py_key(text, "is_cuda_build", small, sizeof(small));
	gw__parse_metadata(text, "Version", out, sizeof(out));
	gw__parse_dist_info_name(text, out, sizeof(out), &v);
	sink(out);
	gw__dist_normalize(text, small, sizeof(small));
	sink(small);
	gw__parse_nvidia_proc_version(text, &v, &fl);
	gw__parse_os_release(text, "PRETTY_NAME", out, sizeof(out));
	gw__parse_lib_version(text, "libnvidia-ml.so", &v);
	gw__parse_xid_line(text, &xid, small, sizeof(small));
	sink(small);
	gw__parse_proc_modules(text, "nvidia");
	gw__parse_cgroup_container(text);
	gw__parse_kfd_property(text, "gfx_target_version", &x);
	gw__gfx_from_override(text, small, sizeof(small));
	gw__parse_group_member(text, 109, "u", 1000, small, sizeof(small));
	sink(small);
	gw__torch_variant(text, small, sizeof(small));
	sink(small);
	gw__nccl_ifname_selects(text, "eth0");
	{
		gw_elf_header eh;
		gw_elf_section es;

		if (gw__parse_elf_header(data, size, &eh) == 0)
			gw__parse_elf_section(data, size, eh.shstrndx, &es);
		gw__parse_elf_section(data, size, 1, &es);
	}
	{
		/* The dynamic section from the first half (whole entries), its
		 * string table from the rest: both read from the exact input. */
		gw_elf_dynamic dyn;
		size_t half = (size / 2) & ~(size_t)15;

		if (gw__parse_elf_dynamic(data, half, data + half, size - half, &dyn) == 0) {
			for (size_t i = 0; i < dyn.nneeded; i++)
				sink(dyn.needed[i]);
			sink(dyn.rpath);
			sink(dyn.runpath);
		}
		gw__parse_ld_cache(data, size, cache_entry, NULL);
	}
	{
		gw_torch_build tb;
		gw_tf_build tf;

		gw__parse_torch_version_py(text, &tb);
		sink(tb.version);
		sink(tb.hip);
		gw__parse_tf_build_info(text, &tf);
		sink(tf.cuda);
		sink(tf.archs);
		gw__parse_jax_version_py(text, small, sizeof(small));
		sink(small);
	}
	{
		/* Requirements, markers, specifiers, WHEEL tags (lib/probe/requires.c):
		 * the whole input as a METADATA, then each line as a requirement. */
		gw_requirement rq;
		gw_marker_env me = { "Linux", "linux", "posix", "x86_64", "3.12", "and-cuda" };
		const char *cur = text;
		char line[512];

		while (gw__metadata_next(&cur, "Requires-Dist", line, sizeof(line)) == 0)
			if (gw__parse_requirement(line, &rq) == 0) {
				sink(rq.name);
				sink(rq.spec);
				gw__marker_eval(rq.marker, &me);
				gw__version_spec_match(rq.spec, &v);
			}
		gw__parse_requirement(text, &rq);
		gw__marker_eval(text, &me);
		gw__marker_extra(text, small, sizeof(small));
		sink(small);
		gw__version_parse("12.4.5.8", &v);
		gw__version_spec_match(text, &v);
		gw__parse_wheel_machine(text, small, sizeof(small));
		sink(small);
	}
	/* The table helpers take free text as well. */
	gw__cuda_archs_run(text, text, 8, 6);
	gw__gfx_in_list(text, "gfx90a");
	gw__tbl_nvidia_gpu_by_name(text);
	gw__tbl_torch_rocm_arch(text);
	gw__tbl_jax_cuda(text);
	free(text);
	return 0;
}

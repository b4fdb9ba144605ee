/* AMD / ROCm: the amdgpu module, /dev/kfd and the render nodes (and whether
 * this user's groups open them), the ROCm install, each GPU's gfx target
 * from the KFD topology (no HIP init), and HSA_OVERRIDE_GFX_VERSION. */
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "core/os.h"
#include "core/path.h"
#include "probe/probe.h"

static void probe_agents(gw_probe_ctx *c, gw_probe_amd *a)
{
	static const char topo[] = "/sys/class/kfd/kfd/topology/nodes";
	char **names;
	size_t n;

	if (gw__probe_list_dir(c, topo, "", &names, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		char path[GW_PATH_MAX];
		char *text;
		uint64_t simd = 0, gfx = 0, v;
		gw_probe_amd_agent *ag;

		if (!gw__probe_join(path, sizeof(path), topo, names[i]) ||
		    !gw__probe_join(path, sizeof(path), path, "properties") ||
		    !(text = gw__probe_read(c, path, 64 * 1024)))
			continue;
		/* A node with SIMDs is a GPU; CPU nodes have simd_count 0. */
		if (gw__parse_kfd_property(text, "simd_count", &simd) < 0 || simd == 0 ||
		    gw__parse_kfd_property(text, "gfx_target_version", &gfx) < 0) {
			gw__free(text);
			continue;
		}
		if (a->nagents == GW_PROBE_MAX_AGENTS) {
			c->r->truncated = true;
			gw__free(text);
			break;
		}
		ag = &a->agent[a->nagents++];
		memset(ag, 0, sizeof(*ag));
		gw__parse_u64(names[i], &v);
		ag->node = (unsigned)v;
		ag->gfx_target_version = (unsigned)gfx;
		if (gw__gfx_name((unsigned)gfx, ag->gfx, sizeof(ag->gfx)) == 0)
			ag->info = gw__tbl_amd_gfx(ag->gfx);
		if (gw__parse_kfd_property(text, "vendor_id", &v) == 0)
			ag->vendor_id = (unsigned)v;
		if (gw__parse_kfd_property(text, "device_id", &v) == 0)
			ag->device_id = (unsigned)v;
		if (gw__parse_kfd_property(text, "drm_render_minor", &v) == 0)
			ag->drm_render_minor = (unsigned)v;
		gw__free(text);
		/* Tie the gfx target to the PCI GPU with the same device id. */
		for (size_t g = 0; g < c->r->ngpus; g++)
			if (c->r->gpus[g].vendor == GW_VENDOR_AMD && c->r->gpus[g].device_id == ag->device_id &&
			    !c->r->gpus[g].gfx)
				c->r->gpus[g].gfx = ag->info;
	}
	gw__probe_names_free(names, n);
}

static void probe_rocm(gw_probe_ctx *c, gw_probe_amd *a)
{
	static const char *const fixed[] = { "/opt/rocm" };
	char **names;
	size_t n;

	/* /opt/rocm first (what tools use), then /opt/rocm-X.Y.Z. */
	for (size_t i = 0; i < GW_ARRAY_SIZE(fixed) && !GW_VERSION_KNOWN(a->rocm); i++) {
		char path[GW_PATH_MAX], buf[64];
		char *text;

		if (gw__probe_join(path, sizeof(path), fixed[i], ".info/version") &&
		    gw__read_small(c->root, path, buf, sizeof(buf)) == 0 && gw__version_parse(buf, &a->rocm) == 0) {
			gw__strlcpy(a->rocm_path, fixed[i], sizeof(a->rocm_path));
			break;
		}
		if (gw__probe_join(path, sizeof(path), fixed[i], "include/rocm-core/rocm_version.h") &&
		    (text = gw__probe_read(c, path, 64 * 1024))) {
			if (gw__parse_rocm_version_h(text, &a->rocm) == 0)
				gw__strlcpy(a->rocm_path, fixed[i], sizeof(a->rocm_path));
			gw__free(text);
		}
	}
	if (GW_VERSION_KNOWN(a->rocm) || gw__probe_list_dir(c, "/opt", "rocm-", &names, &n) < 0)
		return;
	/* Highest versioned install. */
	for (size_t i = 0; i < n; i++) {
		char path[GW_PATH_MAX], buf[64], base[GW_PROBE_PATH];
		gw_ver v;

		if (!gw__probe_join(base, sizeof(base), "/opt", names[i]) ||
		    !gw__probe_join(path, sizeof(path), base, ".info/version") ||
		    gw__read_small(c->root, path, buf, sizeof(buf)) < 0 || gw__version_parse(buf, &v) < 0)
			continue;
		if (gw__version_cmp(&v, &a->rocm) > 0) {
			a->rocm = v;
			gw__strlcpy(a->rocm_path, base, sizeof(a->rocm_path));
		}
	}
	gw__probe_names_free(names, n);
}

int gw__probe_amd(gw_probe_ctx *c)
{
	gw_probe_amd *a = &c->r->amd;
	char *modules = gw__probe_read(c, "/proc/modules", 1 << 20);
	char buf[64];
	char **names;
	size_t n;

	a->amdgpu_loaded = (modules && gw__parse_proc_modules(modules, "amdgpu")) ||
			   gw__probe_exists(c, "/sys/module/amdgpu/initstate") ||
			   gw__probe_exists(c, "/sys/class/kfd/kfd/topology/nodes");
	gw__free(modules);
	if (gw__read_small(c->root, "/sys/module/amdgpu/version", buf, sizeof(buf)) == 0)
		gw__version_parse(buf, &a->amdgpu_version);

	gw__probe_node(c, "/dev/kfd", &a->kfd);
	if (gw__probe_list_dir(c, "/dev/dri", "renderD", &names, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			char path[64];

			if (a->nrender == GW_PROBE_MAX_GPUS) {
				c->r->truncated = true;
				break;
			}
			snprintf(path, sizeof(path), "/dev/dri/%.40s", names[i]);
			gw__probe_node(c, path, &a->render[a->nrender++]);
		}
		gw__probe_names_free(names, n);
	}
	/* Named-group membership, for the "add yourself to render/video" fix. */
	if (c->etc_group) {
		for (const char *line = c->etc_group; line && *line;) {
			const char *colon = strchr(line, ':');
			const char *eol = strchr(line, '\n');
			bool render = colon && colon - line == 6 && !strncmp(line, "render", 6);
			bool video = colon && colon - line == 5 && !strncmp(line, "video", 5);

			if (render || video) {
				/* name:x:gid:members */
				const char *p = colon + 1;
				uint64_t gid;
				char num[16];
				size_t k;

				p = strchr(p, ':');
				if (p) {
					p++;
					k = strcspn(p, ":\n");
					if (k < sizeof(num)) {
						char grp[32];
						bool in;

						memcpy(num, p, k);
						num[k] = '\0';
						if (gw__parse_u64(num, &gid) == 0) {
							bool real_in = false;

							in = gw__parse_group_member(c->etc_group, (unsigned)gid,
										    c->have_user ? c->user : NULL,
										    c->have_user ? c->gid : (unsigned)-1,
										    grp, sizeof(grp));
							if (c->real_groups) {
								real_in = (unsigned)gid == c->gid;
								for (int g = 0; g < c->ngroups; g++)
									real_in |= c->groups[g] == (unsigned)gid;
								in = real_in;
							}
							if (render)
								a->user_in_render = in;
							else
								a->user_in_video = in;
						}
					}
				}
			}
			line = eol ? eol + 1 : NULL;
		}
	}
	probe_agents(c, a);
	probe_rocm(c, a);
	if (c->opts->env.hsa_override_gfx_version) {
		gw__strlcpy(a->hsa_override, c->opts->env.hsa_override_gfx_version, sizeof(a->hsa_override));
		gw__gfx_from_override(a->hsa_override, a->hsa_override_gfx, sizeof(a->hsa_override_gfx));
	}
	return 0;
}

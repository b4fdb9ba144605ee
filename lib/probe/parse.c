/* Pure parsers for the files the probes read: version files, C headers,
 * Python modules written by build systems, METADATA, /proc text, kernel
 * log lines. Each takes a NUL-terminated buffer, never allocates, never
 * reads past the NUL, and tolerates garbage (tests/fuzz/fuzz_probe_parsers.c). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "probe/probe.h"

/* ---- small helpers ------------------------------------------------------- */

static bool at_line_start(const char *text, const char *p)
{
	while (p > text && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	return p == text || p[-1] == '\n';
}

static bool is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* Copy a quoted string starting at *p (which is ' or "). */
static bool copy_quoted(const char *p, char *out, size_t outsz)
{
	char q = *p++;
	size_t n = 0;

	/* Triple quotes are not used by the files we read; treat as empty. */
	while (*p && *p != q && *p != '\n') {
		if (n + 1 < outsz)
			out[n++] = *p;
		p++;
	}
	if (outsz)
		out[n < outsz ? n : outsz - 1] = '\0';
	return *p == q;
}

/* ---- C headers ------------------------------------------------------------ */

int gw__parse_c_define(const char *text, const char *name, uint64_t *out)
{
	size_t nl = strlen(name);
	const char *p = text;
	int rc = GW_ENOTFOUND;

	while ((p = strstr(p, name))) {
		const char *d = p;
		const char *q = p + nl;

		p += nl ? nl : 1;
		if (d > text && is_ident((unsigned char)d[-1]))
			continue;
		if (is_ident((unsigned char)*q))
			continue;
		/* Walk back over spaces to "define", then "#". */
		while (d > text && (d[-1] == ' ' || d[-1] == '\t'))
			d--;
		if (d - text < 6 || strncmp(d - 6, "define", 6))
			continue;
		d -= 6;
		while (d > text && (d[-1] == ' ' || d[-1] == '\t'))
			d--;
		if (d == text || d[-1] != '#' || !at_line_start(text, d - 1))
			continue;
		while (*q == ' ' || *q == '\t' || *q == '(')
			q++;
		{
			char num[24];
			size_t n = 0;
			uint64_t v;

			while ((isxdigit((unsigned char)*q) || *q == 'x' || *q == 'X') && n + 1 < sizeof(num))
				num[n++] = *q++;
			num[n] = '\0';
			while (*q == 'u' || *q == 'U' || *q == 'l' || *q == 'L')
				q++;
			if (n && gw__parse_u64(num, &v) == 0 && (is_ident((unsigned char)*q) == 0)) {
				*out = v;
				return 0; /* first definition wins, as the preprocessor would */
			}
			rc = GW_EPARSE;
		}
	}
	return rc;
}

int gw__parse_cuda_h(const char *text, gw_ver *out)
{
	uint64_t v;

	if (gw__parse_c_define(text, "CUDA_VERSION", &v) < 0 || v < 1000 || v > 999990)
		return GW_ENOTFOUND;
	gw__version_set(out, 2, (unsigned)(v / 1000), (unsigned)(v % 1000 / 10), 0);
	return 0;
}

static int parse_triple(const char *text, const char *a, const char *b, const char *c, gw_ver *out)
{
	uint64_t x, y, z;

	if (gw__parse_c_define(text, a, &x) < 0 || gw__parse_c_define(text, b, &y) < 0)
		return GW_ENOTFOUND;
	if (x > 100000 || y > 100000)
		return GW_EPARSE;
	if (gw__parse_c_define(text, c, &z) < 0 || z > 100000) {
		gw__version_set(out, 2, (unsigned)x, (unsigned)y, 0);
		return 0;
	}
	gw__version_set(out, 3, (unsigned)x, (unsigned)y, (unsigned)z);
	return 0;
}

int gw__parse_cudnn_h(const char *text, gw_ver *out)
{
	return parse_triple(text, "CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL", out);
}

int gw__parse_nccl_h(const char *text, gw_ver *out)
{
	return parse_triple(text, "NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH", out);
}

int gw__parse_rocm_version_h(const char *text, gw_ver *out)
{
	return parse_triple(text, "ROCM_VERSION_MAJOR", "ROCM_VERSION_MINOR", "ROCM_VERSION_PATCH", out);
}

/* ---- CUDA version files -------------------------------------------------- */

int gw__parse_cuda_version_json(const char *text, gw_ver *out)
{
	const char *p = strstr(text, "\"cuda\"");
	const char *end;

	if (!p)
		return GW_ENOTFOUND;
	p += 6;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != ':')
		return GW_EPARSE;
	p++;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '{')
		return GW_EPARSE;
	/* The "version" key of this object (objects inside it are not expected). */
	end = strchr(p, '}');
	p = strstr(p, "\"version\"");
	if (!p || (end && p > end))
		return GW_ENOTFOUND;
	p += 9;
	while (isspace((unsigned char)*p))
		p++;
	if (*p++ != ':')
		return GW_EPARSE;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '"')
		return GW_EPARSE;
	return gw__version_parse(p + 1, out) == 0 ? 0 : GW_EPARSE;
}

int gw__parse_cuda_version_txt(const char *text, gw_ver *out)
{
	const char *p = strstr(text, "CUDA Version");

	if (!p)
		return GW_ENOTFOUND;
	return gw__version_parse(p + 12, out) == 0 ? 0 : GW_EPARSE;
}

/* ---- Python files --------------------------------------------------------- */

static gw_pyval read_pyvalue(const char *p, char *out, size_t outsz)
{
	size_t n = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (outsz)
		out[0] = '\0';
	if (*p == '\'' || *p == '"') {
		copy_quoted(p, out, outsz);
		return GW_PYVAL_STR;
	}
	if (!strncmp(p, "None", 4) && !is_ident((unsigned char)p[4]))
		return GW_PYVAL_NONE;
	if (!strncmp(p, "True", 4) && !is_ident((unsigned char)p[4]))
		return GW_PYVAL_TRUE;
	if (!strncmp(p, "False", 5) && !is_ident((unsigned char)p[5]))
		return GW_PYVAL_FALSE;
	if (*p == '\0' || *p == '\n' || *p == '#')
		return GW_PYVAL_MISSING;
	/* Lists keep their brackets out: "['sm_60', 'sm_70']" → "'sm_60', 'sm_70'". */
	if (*p == '[' || *p == '(') {
		char close = *p == '[' ? ']' : ')';

		p++;
		while (*p && *p != close && *p != '\n') {
			if (n + 1 < outsz)
				out[n++] = *p;
			p++;
		}
	} else {
		while (*p && *p != '\n' && *p != ',' && *p != ')' && *p != '}' && *p != '#') {
			if (n + 1 < outsz)
				out[n++] = *p;
			p++;
		}
		while (n > 0 && isspace((unsigned char)out[n - 1]))
			n--;
	}
	if (outsz)
		out[n] = '\0';
	return GW_PYVAL_OTHER;
}

gw_pyval gw__parse_py_assign(const char *text, const char *name, char *out, size_t outsz)
{
	size_t nl = strlen(name);
	const char *p = text;
	const char *found = NULL;

	if (!nl)
		return GW_PYVAL_MISSING;
	while ((p = strstr(p, name))) {
		const char *q = p + nl;
		const char *start = p;

		p += nl;
		/* Top level only: the name starts its line (no indentation). */
		if (start != text && start[-1] != '\n')
			continue;
		if (is_ident((unsigned char)*q))
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == ':') {                     /* annotated: cuda: Optional[str] = '12.1' */
			while (*q && *q != '=' && *q != '\n')
				q++;
		}
		if (*q != '=' || q[1] == '=')
			continue;
		found = q + 1;
	}
	if (!found) {
		if (outsz)
			out[0] = '\0';
		return GW_PYVAL_MISSING;
	}
	return read_pyvalue(found, out, outsz);
}

gw_pyval gw__parse_py_key(const char *text, const char *key, char *out, size_t outsz)
{
	size_t kl = strlen(key);
	const char *p = text;

	if (!kl)
		return GW_PYVAL_MISSING;
	while ((p = strstr(p, key))) {
		const char *q = p + kl;
		char quote;

		if (p == text) {
			p += kl;
			continue;
		}
		quote = p[-1];
		p += kl;
		if ((quote != '\'' && quote != '"') || *q != quote)
			continue;
		q++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != ':' && *q != ',')
			continue;
		return read_pyvalue(q + 1, out, outsz);
	}
	return gw__parse_py_assign(text, key, out, outsz);
}

/* ---- METADATA, dist-info names -------------------------------------------- */

int gw__parse_metadata(const char *text, const char *field, char *out, size_t outsz)
{
	size_t fl = strlen(field);
	const char *p = text;

	while (*p && *p != '\n' && !(*p == '\r' && p[1] == '\n')) {   /* header ends at a blank line */
		const char *eol = strchr(p, '\n');

		if (!strncasecmp(p, field, fl) && p[fl] == ':') {
			const char *v = p + fl + 1;
			size_t n = 0;

			while (*v == ' ' || *v == '\t')
				v++;
			while (v[n] && v[n] != '\n' && v[n] != '\r' && n + 1 < outsz)
				n++;
			if (!outsz)
				return GW_EINVAL;
			memcpy(out, v, n);
			out[n] = '\0';
			return 0;
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	return GW_ENOTFOUND;
}

int gw__parse_dist_info_name(const char *dirname, char *name, size_t namesz, gw_ver *ver)
{
	const char *suffix = NULL;
	const char *dash;
	size_t n, len = strlen(dirname);

	if (len > 10 && !strcmp(dirname + len - 10, ".dist-info"))
		suffix = dirname + len - 10;
	else if (len > 9 && !strcmp(dirname + len - 9, ".egg-info"))
		suffix = dirname + len - 9;
	if (!suffix || !namesz)
		return GW_EPARSE;
	/* Names in dist-info folders use '_' for '-', so the first '-' splits. */
	dash = memchr(dirname, '-', (size_t)(suffix - dirname));
	n = dash ? (size_t)(dash - dirname) : (size_t)(suffix - dirname);
	if (n == 0)
		return GW_EPARSE;
	if (n >= namesz)
		n = namesz - 1;
	memcpy(name, dirname, n);
	name[n] = '\0';
	memset(ver, 0, sizeof(*ver));
	if (dash) {
		char tmp[64];
		size_t vl = (size_t)(suffix - dash - 1);

		if (vl >= sizeof(tmp))
			vl = sizeof(tmp) - 1;
		memcpy(tmp, dash + 1, vl);
		tmp[vl] = '\0';
		gw__version_parse(tmp, ver);
	}
	return 0;
}

/* ---- /proc, /etc ---------------------------------------------------------- */

int gw__parse_nvidia_proc_version(const char *text, gw_ver *out, gw_probe_kmod_flavor *flavor)
{
	const char *p = strstr(text, "NVRM version:");
	const char *eol;

	if (!p)
		return GW_ENOTFOUND;
	eol = strchr(p, '\n');
	*flavor = GW_KMOD_PROPRIETARY;
	{
		const char *open = strstr(p, "Open Kernel Module");

		if (open && (!eol || open < eol))
			*flavor = GW_KMOD_OPEN;
	}
	p = strstr(p, "Kernel Module");
	if (!p || (eol && p > eol))
		return GW_EPARSE;
	p += 13;
	/* The version is the first token that starts with a digit and has a dot
	 * ("for x86_64" has none). */
	/* Every pass consumes blanks or one token: the blanks skipped here are
	 * exactly the bytes the token loop below stops at (all of isspace but
	 * '\n'), so a '\r' or '\v' can never leave p where it was. */
	while (*p && *p != '\n') {
		while (*p != '\n' && isspace((unsigned char)*p))
			p++;
		if (isdigit((unsigned char)*p)) {
			const char *t = p;

			while (*t && !isspace((unsigned char)*t))
				t++;
			if (memchr(p, '.', (size_t)(t - p)) && gw__version_parse(p, out) == 0 && out->nparts >= 2)
				return 0;
			p = t;
			continue;
		}
		while (*p && !isspace((unsigned char)*p))
			p++;
	}
	memset(out, 0, sizeof(*out));
	return GW_EPARSE;
}

int gw__parse_os_release(const char *text, const char *key, char *out, size_t outsz)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (*p) {
		const char *eol = strchr(p, '\n');

		if (!strncmp(p, key, kl) && p[kl] == '=') {
			const char *v = p + kl + 1;
			size_t n = 0;
			char q = 0;

			if (*v == '"' || *v == '\'')
				q = *v++;
			while (v[n] && v[n] != '\n' && v[n] != q && n + 1 < outsz)
				n++;
			if (!outsz)
				return GW_EINVAL;
			memcpy(out, v, n);
			out[n] = '\0';
			return 0;
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	return GW_ENOTFOUND;
}

int gw__parse_lib_version(const char *file, const char *base, gw_ver *out)
{
	size_t bl = strlen(base);
	const char *v;

	memset(out, 0, sizeof(*out));
	if (strncmp(file, base, bl) || file[bl] != '.' || !isdigit((unsigned char)file[bl + 1]))
		return GW_EPARSE;
	v = file + bl + 1;
	for (const char *c = v; *c; c++)
		if (!isdigit((unsigned char)*c) && *c != '.')
			return GW_EPARSE;
	return gw__version_parse(v, out);
}

int gw__parse_xid_line(const char *line, unsigned *xid, char *pci, size_t pcisz)
{
	const char *p = strstr(line, "NVRM: Xid");
	size_t n = 0;
	uint64_t v = 0;

	if (!p)
		return GW_ENOTFOUND;
	p += 9;
	while (*p == ' ')
		p++;
	if (*p == '(') {
		p++;
		if (!strncmp(p, "PCI:", 4))
			p += 4;
		while (*p && *p != ')' && *p != '\n') {
			if (n + 1 < pcisz)
				pci[n++] = *p;
			p++;
		}
		if (*p != ')')
			return GW_EPARSE;
		p++;
	}
	if (pcisz)
		pci[n] = '\0';
	if (*p == ':')
		p++;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return GW_EPARSE;
	while (isdigit((unsigned char)*p) && v < 1000000)
		v = v * 10 + (unsigned)(*p++ - '0');
	*xid = (unsigned)v;
	return 0;
}

bool gw__parse_proc_modules(const char *text, const char *module)
{
	size_t ml = strlen(module);
	const char *p = text;

	if (!ml)
		return false;
	while (*p) {
		const char *eol = strchr(p, '\n');

		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, module, ml) && (p[ml] == ' ' || p[ml] == '\t' || p[ml] == '\n' || p[ml] == '\0'))
			return true;
		if (!eol)
			break;
		p = eol + 1;
	}
	return false;
}

const char *gw__parse_cgroup_container(const char *text)
{
	if (strstr(text, "kubepods"))
		return "kubernetes";
	if (strstr(text, "libpod"))
		return "podman";
	/* cgroup v1 "12:pids:/docker/<id>", v2 "0::/system.slice/docker-<id>.scope",
	 * containerd/CRI "cri-containerd-<id>.scope", GitHub Actions job
	 * containers "/actions_job/<id>", AWS ECS "/ecs/<task>/<id>". A
	 * private cgroup namespace shows only "0::/": the callers check
	 * /.dockerenv and friends first. */
	if (strstr(text, "docker") || strstr(text, "containerd") || strstr(text, "/actions_job/"))
		return "docker";
	if (strstr(text, ":/ecs/"))
		return "docker";
	if (strstr(text, "/lxc"))
		return "lxc";
	return NULL;
}

int gw__parse_kfd_property(const char *text, const char *key, uint64_t *out)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (*p) {
		const char *eol = strchr(p, '\n');

		if (!strncmp(p, key, kl) && (p[kl] == ' ' || p[kl] == '\t')) {
			char num[24];
			size_t n = 0;
			const char *v = p + kl;

			while (*v == ' ' || *v == '\t')
				v++;
			while (isdigit((unsigned char)v[n]) && n + 1 < sizeof(num)) {
				num[n] = v[n];
				n++;
			}
			num[n] = '\0';
			return n && gw__parse_u64(num, out) == 0 ? 0 : GW_EPARSE;
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	return GW_ENOTFOUND;
}

int gw__gfx_name(unsigned v, char *out, size_t outsz)
{
	unsigned major = v / 10000, minor = v / 100 % 100, step = v % 100;
	int n;

	if (v == 0 || major == 0 || minor > 15 || step > 15)
		return GW_EPARSE;
	/* Minor and stepping are one hex digit each in the target name. */
	n = snprintf(out, outsz, "gfx%u%x%x", major, minor, step);
	return n > 0 && (size_t)n < outsz ? 0 : GW_EINVAL;
}

int gw__gfx_from_override(const char *value, char *out, size_t outsz)
{
	gw_ver v;

	if (!value || gw__version_parse(value, &v) < 0 || v.nparts != 3 || v.part[0] > 99)
		return GW_EPARSE;
	return gw__gfx_name(v.part[0] * 10000 + v.part[1] * 100 + v.part[2], out, outsz);
}

void gw__torch_variant(const char *version, char *out, size_t outsz)
{
	const char *plus = strchr(version, '+');

	if (!outsz)
		return;
	out[0] = '\0';
	if (plus)
		gw__strlcpy(out, plus + 1, outsz);
}

/* ---- framework build records ---------------------------------------------- */

void gw__parse_torch_version_py(const char *text, gw_torch_build *out)
{
	memset(out, 0, sizeof(*out));
	if (gw__parse_py_assign(text, "__version__", out->version, sizeof(out->version)) != GW_PYVAL_STR)
		out->version[0] = '\0';
	out->cuda_kind = gw__parse_py_assign(text, "cuda", out->cuda, sizeof(out->cuda));
	out->hip_kind = gw__parse_py_assign(text, "hip", out->hip, sizeof(out->hip));
	out->rocm_kind = gw__parse_py_assign(text, "rocm", out->rocm, sizeof(out->rocm));
	{
		char tmp[8];

		out->xpu_kind = gw__parse_py_assign(text, "xpu", tmp, sizeof(tmp));
	}
	if (out->cuda_kind != GW_PYVAL_STR)
		out->cuda[0] = '\0';
	if (out->hip_kind != GW_PYVAL_STR)
		out->hip[0] = '\0';
	if (out->rocm_kind != GW_PYVAL_STR)
		out->rocm[0] = '\0';
}

/* Windows TF writes CUDA as "64_112" (cudart64_112.dll) and cuDNN as "64_8":
 * turn them into "11.2" and "8". Anything else is left alone. */
static void tf_windows_version(char *v, size_t vsz, bool is_cuda)
{
	size_t n;
	const char *d;

	if (strncmp(v, "64_", 3))
		return;
	d = v + 3;
	n = strspn(d, "0123456789");
	if (!n || d[n] != '\0')
		return;
	if (is_cuda && n >= 2) {
		char tmp[32];

		/* "112" → "11.2", "101" → "10.1", "90" → "9.0" */
		snprintf(tmp, sizeof(tmp), "%.*s.%s", (int)(n - 1), d, d + n - 1);
		gw__strlcpy(v, tmp, vsz);
	} else {
		memmove(v, d, n + 1);
	}
}

void gw__parse_tf_build_info(const char *text, gw_tf_build *out)
{
	char tmp[8];
	gw_pyval k;

	memset(out, 0, sizeof(*out));
	out->is_cuda = gw__parse_py_key(text, "is_cuda_build", tmp, sizeof(tmp));
	out->is_rocm = gw__parse_py_key(text, "is_rocm_build", tmp, sizeof(tmp));
	if (gw__parse_py_key(text, "cuda_version", out->cuda, sizeof(out->cuda)) != GW_PYVAL_STR &&
	    gw__parse_py_key(text, "cuda_version_number", out->cuda, sizeof(out->cuda)) != GW_PYVAL_STR)
		out->cuda[0] = '\0';
	if (gw__parse_py_key(text, "cudnn_version", out->cudnn, sizeof(out->cudnn)) != GW_PYVAL_STR &&
	    gw__parse_py_key(text, "cudnn_version_number", out->cudnn, sizeof(out->cudnn)) != GW_PYVAL_STR)
		out->cudnn[0] = '\0';
	tf_windows_version(out->cuda, sizeof(out->cuda), true);
	tf_windows_version(out->cudnn, sizeof(out->cudnn), false);
	k = gw__parse_py_key(text, "cuda_compute_capabilities", out->archs, sizeof(out->archs));
	out->has_archs = k == GW_PYVAL_OTHER || k == GW_PYVAL_STR;
	if (!out->has_archs)
		out->archs[0] = '\0';
}

void gw__parse_jax_version_py(const char *text, char *out, size_t outsz)
{
	static const char *const names[] = { "_release_version", "_version", "__version__" };

	for (size_t i = 0; i < GW_ARRAY_SIZE(names); i++)
		if (gw__parse_py_assign(text, names[i], out, outsz) == GW_PYVAL_STR && out[0])
			return;
	if (outsz)
		out[0] = '\0';
}

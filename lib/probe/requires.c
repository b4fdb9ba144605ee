/* Requirements as a dist's METADATA writes them (PEP 508 `Requires-Dist:`
 * lines with environment markers, PEP 440 version specifiers): pure
 * functions over a buffer, fuzzed with the other probe parsers.
 *
 * Only what doctor needs to tell whether the CUDA wheels a framework loads
 * at import are installed: names, specifiers, and markers evaluated with
 * three-valued logic, so a marker on something doctor cannot know from
 * files (python_full_version, platform_release) says "cannot tell" and the
 * requirement is left alone rather than guessed. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "probe/probe.h"

#define MARKER_DEPTH 16

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Copy at most n bytes of s into out, dropping spaces, tabs and parentheses
 * (the old "name (>=1.0)" form), truncating to outsz. */
static void copy_compact(char *out, size_t outsz, const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k + 1 < outsz; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '(' && s[i] != ')')
			out[k++] = s[i];
	out[k] = '\0';
}

int gw__parse_requirement(const char *line, gw_requirement *out)
{
	const char *p = skip_ws(line), *semi, *end;
	size_t n;
	char name[sizeof(out->name)];

	memset(out, 0, sizeof(*out));
	n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-");
	if (!n || n >= sizeof(name))
		return GW_EPARSE;
	memcpy(name, p, n);
	name[n] = '\0';
	gw__dist_normalize(name, out->name, sizeof(out->name));
	p = skip_ws(p + n);
	if (*p == '[') {                 /* extras of the dependency: not ours to judge */
		const char *close = strchr(p, ']');

		if (!close)
			return GW_EPARSE;
		p = skip_ws(close + 1);
	}
	end = p + strcspn(p, "\r\n");
	semi = memchr(p, ';', (size_t)(end - p));
	if (*p == '@') {                 /* a URL requirement: no version to compare */
		out->is_url = true;
	} else {
		copy_compact(out->spec, sizeof(out->spec), p, (size_t)((semi ? semi : end) - p));
	}
	if (semi) {
		const char *m = skip_ws(semi + 1);
		size_t ml = (size_t)(end - m);

		while (ml && (m[ml - 1] == ' ' || m[ml - 1] == '\t'))
			ml--;
		if (ml >= sizeof(out->marker))
			return GW_EPARSE;        /* a cut marker would be a different marker */
		memcpy(out->marker, m, ml);
		out->marker[ml] = '\0';
	}
	return 0;
}

int gw__metadata_next(const char **cursor, const char *field, char *out, size_t outsz)
{
	size_t fl = strlen(field);
	const char *p = *cursor;

	if (!outsz)
		return GW_EINVAL;
	/* The header ends at the first blank line; the description follows. */
	while (*p && *p != '\n' && !(*p == '\r' && p[1] == '\n')) {
		const char *eol = strchr(p, '\n');
		const char *next = eol ? eol + 1 : p + strlen(p);

		if (!strncasecmp(p, field, fl) && p[fl] == ':') {
			const char *v = skip_ws(p + fl + 1);
			size_t n = strcspn(v, "\r\n");

			if (n >= outsz)
				n = outsz - 1;
			memcpy(out, v, n);
			out[n] = '\0';
			*cursor = next;
			return 0;
		}
		p = next;
	}
	*cursor = p;
	return GW_ENOTFOUND;
}

/* ---- version specifiers (PEP 440, the forms METADATA uses) -------------- */

/* One clause: "==12.4.5.8", ">=9.1", "<10.0", "~=2.1", "!=0.5.0", "==2.*". */
static int clause_match(const char *c, size_t n, const gw_ver *v)
{
	char op[4] = "", text[48];
	size_t ol = strspn(c, "<>=!~"), tl;
	gw_ver want;
	bool prefix = false;
	int cmp;

	if (ol == 0 || ol > 3 || n <= ol || n - ol >= sizeof(text))
		return -1;
	memcpy(op, c, ol);
	op[ol] = '\0';
	tl = n - ol;
	memcpy(text, c + ol, tl);
	text[tl] = '\0';
	/* text + (tl - 2), never text + n - ...: text + n alone may point past
	 * the array, which is undefined even when the sum comes back in. */
	if (tl > 2 && !strcmp(text + (tl - 2), ".*")) {
		prefix = true;
		text[tl - 2] = '\0';
	}
	if (!strcmp(op, "===") || gw__version_parse(text, &want) < 0)
		return -1;
	if (prefix) {
		/* "==12.*": the parts written must be equal. */
		bool eq = true;

		for (unsigned i = 0; i < want.nparts; i++)
			eq &= v->part[i] == want.part[i];
		return !strcmp(op, "==") ? eq : !strcmp(op, "!=") ? !eq : -1;
	}
	cmp = gw__version_cmp(v, &want);
	if (!strcmp(op, "=="))
		return cmp == 0;
	if (!strcmp(op, "!="))
		return cmp != 0;
	if (!strcmp(op, ">="))
		return cmp >= 0;
	if (!strcmp(op, "<="))
		return cmp <= 0;
	if (!strcmp(op, ">"))
		return cmp > 0;
	if (!strcmp(op, "<"))
		return cmp < 0;
	if (!strcmp(op, "~=")) {
		/* ~=X.Y.Z: >= X.Y.Z and the same X.Y. */
		bool same = want.nparts >= 2;

		for (unsigned i = 0; same && i + 1 < want.nparts; i++)
			same = v->part[i] == want.part[i];
		return want.nparts >= 2 ? (cmp >= 0 && same) : -1;
	}
	return -1;
}

int gw__version_spec_match(const char *spec, const gw_ver *v)
{
	int all = 1;

	if (!GW_VERSION_KNOWN(*v))
		return -1;
	for (const char *p = spec; *p;) {
		size_t n = strcspn(p, ",");
		int r;

		if (n) {
			if ((r = clause_match(p, n, v)) == 0)
				return 0;
			if (r < 0)
				all = -1;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return all;
}

/* ---- environment markers (PEP 508), three-valued ------------------------ */

typedef struct mparse {
	const char *p;
	const gw_marker_env *env;
	int depth;
	bool bad;
} mparse;

/* Known variables: the value (NULL when doctor cannot tell), and whether
 * PEP 508 compares it as a version. */
static bool marker_var(const gw_marker_env *env, const char *name, size_t n, const char **val, bool *version)
{
	static const char *const names[] = { "platform_system", "sys_platform", "os_name", "platform_machine",
		"python_version", "extra", "python_full_version", "platform_release", "platform_version",
		"platform_python_implementation", "implementation_name", "implementation_version", "sys.platform",
		"os.name", "platform.machine", "platform.python_implementation", "platform.version", "python_implementation" };
	const char *vals[GW_ARRAY_SIZE(names)] = { env->platform_system, env->sys_platform, env->os_name,
		env->platform_machine, env->python_version, env->extra ? env->extra : "" };

	for (size_t i = 0; i < GW_ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && !strncmp(names[i], name, n)) {
			*val = vals[i];
			*version = i == 4 || i == 6 || i == 11;
			return true;
		}
	return false;
}

/* One operand: a quoted string or a variable. 1 known (val set), 0 unknown, -1 syntax. */
static int operand(mparse *m, char *buf, size_t bufsz, bool *version, bool *is_extra)
{
	const char *p = skip_ws(m->p);

	*is_extra = false;
	if (*p == '"' || *p == '\'') {
		const char *close = strchr(p + 1, *p);
		size_t n;

		if (!close)
			return -1;
		n = (size_t)(close - p - 1);
		if (n >= bufsz)
			n = bufsz - 1;
		memcpy(buf, p + 1, n);
		buf[n] = '\0';
		m->p = close + 1;
		return 1;
	} else {
		size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz_.");
		const char *val;
		bool ver;

		if (!n || !marker_var(m->env, p, n, &val, &ver))
			return -1;
		m->p = p + n;
		*version |= ver;
		*is_extra = n == 5 && !strncmp(p, "extra", 5);
		if (!val)
			return 0;
		gw__strlcpy(buf, val, bufsz);
		return 1;
	}
}

static const char *const marker_ops[] = { "===", "==", "!=", "<=", ">=", "~=", "<", ">", "not in", "in" };

static int compare(const char *op, const char *a, const char *b, bool version)
{
	gw_ver va, vb;

	if (!strcmp(op, "in"))
		return strstr(b, a) != NULL;
	if (!strcmp(op, "not in"))
		return strstr(b, a) == NULL;
	if (version && gw__version_parse(a, &va) == 0 && gw__version_parse(b, &vb) == 0 && strcmp(op, "===")) {
		char spec[64];

		snprintf(spec, sizeof(spec), "%s%s", op, b);
		return gw__version_spec_match(spec, &va);
	}
	if (!strcmp(op, "==") || !strcmp(op, "==="))
		return strcmp(a, b) == 0;
	if (!strcmp(op, "!="))
		return strcmp(a, b) != 0;
	return -1;                       /* ordering of plain strings: PEP 508 leaves it to the tool */
}

static int marker_or(mparse *m);

static int marker_expr(mparse *m)
{
	char a[64], b[64];
	const char *op = NULL;
	bool version = false, ea, eb;
	int ka, kb;

	m->p = skip_ws(m->p);
	if (*m->p == '(') {
		int r;

		if (++m->depth > MARKER_DEPTH) {
			m->bad = true;
			return -1;
		}
		m->p++;
		r = marker_or(m);
		m->p = skip_ws(m->p);
		if (*m->p != ')')
			m->bad = true;
		else
			m->p++;
		m->depth--;
		return r;
	}
	if ((ka = operand(m, a, sizeof(a), &version, &ea)) < 0) {
		m->bad = true;
		return -1;
	}
	m->p = skip_ws(m->p);
	for (size_t i = 0; i < GW_ARRAY_SIZE(marker_ops); i++) {
		size_t n = strlen(marker_ops[i]);

		if (!strncmp(m->p, marker_ops[i], n)) {
			op = marker_ops[i];
			m->p += n;
			break;
		}
	}
	if (!op || (kb = operand(m, b, sizeof(b), &version, &eb)) < 0) {
		m->bad = true;
		return -1;
	}
	if (!ka || !kb)
		return -1;
	if (ea || eb) {                  /* extras compare normalised (PEP 685) */
		char na[64], nb[64];

		gw__dist_normalize(a, na, sizeof(na));
		gw__dist_normalize(b, nb, sizeof(nb));
		return compare(op, na, nb, false);
	}
	return compare(op, a, b, version);
}

/* The word w next (and, or) as a whole word. */
static bool word(mparse *m, const char *w)
{
	const char *p = skip_ws(m->p);
	size_t n = strlen(w);

	if (strncmp(p, w, n) || (p[n] && !isspace((unsigned char)p[n]) && p[n] != '('))
		return false;
	m->p = p + n;
	return true;
}

static int marker_and(mparse *m)
{
	int r = marker_expr(m);

	while (!m->bad && word(m, "and")) {
		int s = marker_expr(m);

		r = (r == 0 || s == 0) ? 0 : (r < 0 || s < 0) ? -1 : 1;
	}
	return r;
}

static int marker_or(mparse *m)
{
	int r = marker_and(m);

	while (!m->bad && word(m, "or")) {
		int s = marker_and(m);

		r = (r == 1 || s == 1) ? 1 : (r < 0 || s < 0) ? -1 : 0;
	}
	return r;
}

int gw__marker_eval(const char *marker, const gw_marker_env *env)
{
	mparse m = { marker, env, 0, false };
	int r;

	if (!*skip_ws(marker))
		return 1;
	r = marker_or(&m);
	if (m.bad || *skip_ws(m.p))
		return -1;
	return r;
}

void gw__marker_extra(const char *marker, char *out, size_t outsz)
{
	const char *p = marker;

	if (!outsz)
		return;
	out[0] = '\0';
	while ((p = strstr(p, "extra"))) {
		const char *q = skip_ws(p + 5);

		p += 5;
		if (strncmp(q, "==", 2))
			continue;
		q = skip_ws(q + 2);
		if (*q == '"' || *q == '\'') {
			const char *close = strchr(q + 1, *q);
			char raw[64];
			size_t n;

			if (!close)
				return;
			n = (size_t)(close - q - 1);
			if (n >= sizeof(raw))
				n = sizeof(raw) - 1;
			memcpy(raw, q + 1, n);
			raw[n] = '\0';
			gw__dist_normalize(raw, out, outsz);
			return;
		}
	}
}

/* ---- WHEEL ------------------------------------------------------------- */

int gw__parse_wheel_machine(const char *text, char *out, size_t outsz)
{
	static const char *const machines[] = { "x86_64", "aarch64", "ppc64le", "s390x", "i686", "armv7l" };
	const char *cursor = text;
	char tag[160];

	if (!outsz)
		return GW_EINVAL;
	out[0] = '\0';
	/* "Tag: cp312-cp312-manylinux_2_17_x86_64": the platform is the third
	 * part; its machine is the suffix after the last '_' that names one. */
	while (gw__metadata_next(&cursor, "Tag", tag, sizeof(tag)) == 0) {
		const char *plat = strchr(tag, '-');
		size_t pl;

		if (!plat || !(plat = strchr(plat + 1, '-')))
			continue;
		plat++;
		pl = strcspn(plat, ". \t");
		for (size_t i = 0; i < GW_ARRAY_SIZE(machines); i++) {
			size_t ml = strlen(machines[i]);

			if (pl > ml && plat[pl - ml - 1] == '_' && !strncmp(plat + pl - ml, machines[i], ml)) {
				gw__strlcpy(out, machines[i], outsz);
				return 0;
			}
		}
	}
	return GW_ENOTFOUND;
}

/* The gettext catalogue behind gw_translate (include/gpuwise/language.h).
 * Bound once, on first use: the folder is found next to the code itself
 * (dladdr), so a build tree, an installed tree and a Python package each
 * find their own catalogue without configuration. */
#include <dlfcn.h>
#include <libintl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "core/sys.h"

#define TEXT_DOMAIN "gpuwise"
#ifndef GW_LOCALEDIR
#define GW_LOCALEDIR "/usr/local/share/locale"
#endif

static pthread_once_t bound = PTHREAD_ONCE_INIT;
static char locale_dir[GW_PATH_MAX];

/* The file holding this code: the library, the CLI (linked statically) or
 * the Python extension. */
static bool own_file(char *out, size_t n)
{
	Dl_info info;
	ssize_t k;

	if (dladdr((void *)own_file, &info) && info.dli_fname && strchr(info.dli_fname, '/') &&
	    gw__sys_realpath(info.dli_fname, out) && strlen(out) < n)
		return true;
	/* The main program may be named without a folder. */
	if ((k = gw__sys_readlink("/proc/self/exe", out, n - 1)) <= 0)
		return false;
	out[k] = '\0';
	return true;
}

static void find_locale_dir(void)
{
	const char *env = gw__env_path("GPUWISE_LOCALEDIR");
	char file[GW_PATH_MAX], *slash;
	struct stat st;

	if (env && env[0] && strlen(env) < sizeof(locale_dir)) {
		gw__strlcpy(locale_dir, env, sizeof(locale_dir));
		return;
	}
	/* GW_PATH_MAX may be PATH_MAX: realpath needs that much room. */
	if (own_file(file, sizeof(file)) && (slash = strrchr(file, '/')) &&
	    (size_t)(slash - file) + sizeof("/locale") <= sizeof(file)) {
		memcpy(slash, "/locale", sizeof("/locale"));
		if (gw__sys_stat(file, &st) == 0 && S_ISDIR(st.st_mode)) {
			gw__strlcpy(locale_dir, file, sizeof(locale_dir));
			return;
		}
	}
	gw__strlcpy(locale_dir, GW_LOCALEDIR, sizeof(locale_dir));
}

static void bind_catalogue(void)
{
	find_locale_dir();
	bindtextdomain(TEXT_DOMAIN, locale_dir);
	/* The texts are UTF-8 whatever the locale's charset: the CLI falls
	 * back to ASCII by itself where the terminal cannot show them. */
	bind_textdomain_codeset(TEXT_DOMAIN, "UTF-8");
}

const char *gw_locale_dir(void)
{
	pthread_once(&bound, bind_catalogue);
	return locale_dir;
}

/* ---- a language chosen by the application (gw_language_set) ------------
 * The catalogue is then read here rather than by gettext, which takes the
 * language from the process locale only: the .mo file (GNU gettext's
 * format: a header, then two tables of (length, offset) pairs, the
 * originals sorted) is kept whole in memory and never freed, since the
 * translations handed out point into it. Texts msgfmt stores as
 * system-dependent strings (<inttypes.h> macros) are not in the plain
 * tables and stay English; the Python wheel's catalogue (scripts/po2mo)
 * has them expanded. */
struct mo {
	const unsigned char *data;
	size_t size;
	uint32_t n, orig, trans;
	bool swap;
	bool one_form;        /* Plural-Forms: nplurals=1 (Chinese) */
	char path[GW_PATH_MAX];
	struct mo *next;      /* the catalogues loaded so far */
};

static const struct mo english;         /* no texts: every msgid as it is */
static _Atomic(const struct mo *) chosen; /* NULL: the process locale */
static pthread_mutex_t choosing = PTHREAD_MUTEX_INITIALIZER;
/* Every catalogue loaded, kept for the process's life (a translation
 * handed out points into one, and another thread may still use it) and
 * reachable from here, so a second choice of the same file loads nothing
 * and leak checkers see no leak. Guarded by `choosing`. */
static struct mo *loaded;

static uint32_t mo_u32(const struct mo *m, size_t at)
{
	uint32_t v;

	memcpy(&v, m->data + at, sizeof(v));
	return m->swap ? __builtin_bswap32(v) : v;
}

/* Entry i of the table at offset table: its string, NULL when it does not
 * lie inside the file (a damaged file). */
static const char *mo_string(const struct mo *m, uint32_t table, uint32_t i, uint32_t *len)
{
	size_t at = (size_t)table + (size_t)i * 8;
	uint32_t off;

	if (at + 8 > m->size)
		return NULL;
	*len = mo_u32(m, at);
	off = mo_u32(m, at + 4);
	if ((size_t)off + *len >= m->size || m->data[(size_t)off + *len] != '\0')
		return NULL;
	return (const char *)m->data + off;
}

/* The translation of msgid (all its forms, NUL-separated, *len bytes), or NULL. */
static const char *mo_find(const struct mo *m, const char *msgid, uint32_t *len)
{
	uint32_t lo = 0, hi = m->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2, olen;
		const char *o = mo_string(m, m->orig, mid, &olen);
		int c;

		if (!o)
			return NULL;
		c = strcmp(msgid, o);   /* a plural original is "msgid\0plural" */
		if (c == 0) {
			const char *t = mo_string(m, m->trans, mid, len);

			return t && t[0] ? t : NULL;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static struct mo *mo_load(const char *path)
{
	char *data = NULL;
	size_t size = 0;
	struct mo *m;
	uint32_t magic, hlen;
	const char *header;

	if (gw__read_file("/", path, 64u << 20, &data, &size) < 0)
		return NULL;
	if (size < 28 || !(m = gw__calloc(1, sizeof(*m)))) {
		gw__free(data);
		return NULL;
	}
	m->data = (const unsigned char *)data;
	m->size = size;
	memcpy(&magic, data, sizeof(magic));
	m->swap = magic == 0xde120495u;
	m->n = mo_u32(m, 8);
	m->orig = mo_u32(m, 12);
	m->trans = mo_u32(m, 16);
	if ((magic != 0x950412deu && !m->swap) || m->orig > size || m->trans > size ||
	    (size_t)m->n * 8 > size - m->orig || (size_t)m->n * 8 > size - m->trans) {
		gw__free(data);
		gw__free(m);
		return NULL;
	}
	header = mo_find(m, "", &hlen);
	m->one_form = header && strstr(header, "nplurals=1");
	gw__strlcpy(m->path, path, sizeof(m->path));
	m->next = loaded;
	loaded = m;
	return m;
}

/* The catalogue already loaded from path, or a new one. */
static struct mo *mo_load_once(const char *path)
{
	for (struct mo *m = loaded; m; m = m->next)
		if (!strcmp(m->path, path))
			return m;
	return mo_load(path);
}

/* "zh_CN.UTF-8@x" → its catalogue, trying zh_CN.UTF-8@x, zh_CN, zh as
 * gettext does; NULL when none is there. */
static struct mo *mo_for(const char *language)
{
	char lang[64], path[GW_PATH_MAX];
	struct mo *m = NULL;

	gw__strlcpy(lang, language, sizeof(lang));
	for (int step = 0; step < 3 && !m; step++) {
		char *cut = step == 1 ? strpbrk(lang, ".@") : step == 2 ? strchr(lang, '_') : NULL;

		if (step && !cut)
			continue;
		if (cut)
			*cut = '\0';
		if (snprintf(path, sizeof(path), "%s/%s/LC_MESSAGES/%s.mo", gw_locale_dir(), lang, TEXT_DOMAIN) <
		    (int)sizeof(path))
			m = mo_load_once(path);
	}
	return m;
}

int gw_language_set(const char *language)
{
	const struct mo *m;

	if (!language) {
		atomic_store(&chosen, NULL);
		return 0;
	}
	if (!language[0] || !strcmp(language, "C") || !strcmp(language, "POSIX") || !strncmp(language, "C.", 2) ||
	    !strcmp(language, "en") || !strncmp(language, "en_", 3)) {
		atomic_store(&chosen, &english);
		return 0;
	}
	pthread_mutex_lock(&choosing);
	m = mo_for(language);
	pthread_mutex_unlock(&choosing);
	if (!m)
		return gw__error_set(GW_ENOTFOUND, "no catalogue for the language '%s' in %s", language,
				     gw_locale_dir());
	atomic_store(&chosen, m);
	return 0;
}

const char *gw_translate(const char *msgid)
{
	const struct mo *m;
	const char *t;
	uint32_t len;

	if (!msgid || !msgid[0])
		return "";
	pthread_once(&bound, bind_catalogue);
	if (!(m = atomic_load(&chosen)))
		return dgettext(TEXT_DOMAIN, msgid);
	return (t = mo_find(m, msgid, &len)) ? t : msgid;
}

const char *gw_translate_n(const char *msgid, const char *plural, unsigned long n)
{
	const struct mo *m;
	const char *t;
	uint32_t len;

	if (!msgid || !plural)
		return n == 1 ? (msgid ? msgid : "") : (plural ? plural : "");
	pthread_once(&bound, bind_catalogue);
	if (!(m = atomic_load(&chosen)))
		return dngettext(TEXT_DOMAIN, msgid, plural, n);
	if (!(t = mo_find(m, msgid, &len)))
		return n == 1 ? msgid : plural;
	/* Chinese has one form; other languages: the second form for n != 1
	 * (the rule of the languages gpuwise ships besides Chinese). */
	if (!m->one_form && n != 1 && strlen(t) + 1 < len)
		return t + strlen(t) + 1;
	return t;
}

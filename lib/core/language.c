/* The gettext catalogue behind gw_translate (include/gpuwise/language.h).
 * Bound once, on first use: the folder is found next to the code itself
 * (dladdr), so a build tree, an installed tree and a Python package each
 * find their own catalogue without configuration. */
#include <dlfcn.h>
#include <libintl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
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
	const char *env = getenv("GPUWISE_LOCALEDIR");
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

const char *gw_translate(const char *msgid)
{
	if (!msgid || !msgid[0])
		return "";
	pthread_once(&bound, bind_catalogue);
	return dgettext(TEXT_DOMAIN, msgid);
}

const char *gw_translate_n(const char *msgid, const char *plural, unsigned long n)
{
	if (!msgid || !plural)
		return n == 1 ? (msgid ? msgid : "") : (plural ? plural : "");
	pthread_once(&bound, bind_catalogue);
	return dngettext(TEXT_DOMAIN, msgid, plural, n);
}

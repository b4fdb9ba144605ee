/* The replaceable system-call layer: every allocation, dlopen, dlsym and file
 * open in lib/ goes through here so tests can fail the Nth one.
 *
 * GPUWISE_FAULT="KIND:N" (KIND = alloc, dlopen, dlsym, read) makes the Nth
 * call of that kind fail once, as SQLite's test_malloc does. The variable is
 * read once; counters are atomic so threads (the Python monitor) are safe.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "core/sys.h"

enum { FAULT_NONE = -1 };

static pthread_once_t fault_once = PTHREAD_ONCE_INIT;
static int fault_kind = FAULT_NONE;
static long fault_nth;
static atomic_long fault_counter[GW__FAULT_KINDS];
static _Thread_local const char *injected_dlerror;

static void fault_read_env(void)
{
	static const char *const names[GW__FAULT_KINDS] = { "alloc", "dlopen", "dlsym", "read" };
	const char *env = getenv("GPUWISE_FAULT");
	const char *colon;

	if (!env || !(colon = strchr(env, ':')))
		return;
	for (int k = 0; k < GW__FAULT_KINDS; k++) {
		if (strlen(names[k]) == (size_t)(colon - env) && !strncmp(env, names[k], (size_t)(colon - env))) {
			fault_kind = k;
			fault_nth = strtol(colon + 1, NULL, 10);
		}
	}
}

bool gw__fault_hit(enum gw__fault_kind kind)
{
	pthread_once(&fault_once, fault_read_env);
	if (fault_kind != (int)kind || fault_nth <= 0)
		return false;
	return atomic_fetch_add(&fault_counter[kind], 1) + 1 == fault_nth;
}

void *gw__malloc(size_t n)
{
	if (gw__fault_hit(GW__FAULT_ALLOC))
		return NULL;
	return malloc(n ? n : 1);
}

void *gw__calloc(size_t n, size_t size)
{
	if (gw__fault_hit(GW__FAULT_ALLOC))
		return NULL;
	return calloc(n ? n : 1, size ? size : 1);
}

void *gw__realloc(void *p, size_t n)
{
	if (gw__fault_hit(GW__FAULT_ALLOC))
		return NULL;
	return realloc(p, n ? n : 1);
}

char *gw__strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = gw__malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

void gw__free(void *p)
{
	free(p);
}

void *gw__dlopen(const char *name)
{
	if (gw__fault_hit(GW__FAULT_DLOPEN)) {
		injected_dlerror = "injected dlopen failure";
		return NULL;
	}
	injected_dlerror = NULL;
	return dlopen(name, RTLD_NOW | RTLD_LOCAL);
}

void *gw__dlsym(void *handle, const char *sym)
{
	if (gw__fault_hit(GW__FAULT_DLSYM))
		return NULL;
	return dlsym(handle, sym);
}

int gw__dlclose(void *handle)
{
	return handle ? dlclose(handle) : 0;
}

const char *gw__dlerror(void)
{
	const char *e;

	if (injected_dlerror)
		return injected_dlerror;
	e = dlerror();
	return e ? e : "unknown dynamic-loader error";
}

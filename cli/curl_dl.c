/* libcurl through dlopen: cli/curl_dl.h. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curl_dl.h"

struct curl_api curl;

int curl_load(const char **name_out, char *err, size_t n)
{
	const char *name = secure_getenv("GPUWISE_CURL_LIBRARY");
	struct curl_api api;
	void *lib;

	if (curl.easy_init) {
		*name_out = name && *name ? name : CURL_SONAME;
		return 0;
	}
	if (!name || !*name)
		name = CURL_SONAME;
	*name_out = name;
	if (!(lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) {
		snprintf(err, n, "%s", dlerror());
		return -1;
	}
#define X(f, ret, args) \
	if (!(*(void **)&api.f = dlsym(lib, "curl_" #f))) { \
		snprintf(err, n, "%s", "curl_" #f); \
		dlclose(lib); \
		return -2; \
	}
	CURL_FUNCTIONS(X)
#undef X
	curl = api;
	return 0;
}

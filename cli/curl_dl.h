/* libcurl, loaded with dlopen when a command first needs the network
 * (cli/curl_dl.c): the Hugging Face Hub downloads of advise (cli/hub.c)
 * and the exporters that top/watch/ps/report --hosts read (cli/hosts.c).
 * gpuwise builds and runs without libcurl; only those commands say they
 * need it. The few names used are declared here (libcurl's ABI has been
 * stable since 7.x), so no curl headers are needed to build. */
#ifndef GPUWISE_CLI_CURL_DL_H
#define GPUWISE_CLI_CURL_DL_H

#include <stddef.h>

#define CURL_SONAME "libcurl.so.4"

typedef void CURL;
typedef void CURLM;
struct curl_slist;
enum {
	CURLOPT_WRITEDATA = 10001, CURLOPT_URL = 10002, CURLOPT_RANGE = 10007, CURLOPT_ERRORBUFFER = 10010,
	CURLOPT_USERAGENT = 10018, CURLOPT_HTTPHEADER = 10023, CURLOPT_HEADERDATA = 10029,
	CURLOPT_CAINFO = 10065, CURLOPT_USERNAME = 10173, CURLOPT_PASSWORD = 10174,
	CURLOPT_WRITEFUNCTION = 20011, CURLOPT_HEADERFUNCTION = 20079, CURLOPT_LOW_SPEED_LIMIT = 19,
	CURLOPT_LOW_SPEED_TIME = 20, CURLOPT_FOLLOWLOCATION = 52, CURLOPT_MAXREDIRS = 68,
	CURLOPT_CONNECTTIMEOUT = 78, CURLOPT_NOSIGNAL = 99, CURLOPT_HTTPAUTH = 107, CURLOPT_TIMEOUT_MS = 155,
	CURLOPT_CONNECTTIMEOUT_MS = 156, CURLOPT_PROTOCOLS = 181, CURLOPT_REDIR_PROTOCOLS = 182,
	CURLPROTO_HTTP = 1, CURLPROTO_HTTPS = 2, CURLAUTH_BASIC = 1,
	CURLINFO_RESPONSE_CODE = 0x200002,
	CURLE_OK = 0, CURLE_COULDNT_RESOLVE_HOST = 6, CURLE_COULDNT_CONNECT = 7, CURLE_WRITE_ERROR = 23,
	CURLE_OPERATION_TIMEDOUT = 28, CURL_ERROR_SIZE = 256,
	CURLMSG_DONE = 1
};
/* The message curl_multi_info_read returns (its layout in curl/multi.h). */
struct curl_msg {
	int msg;
	CURL *easy_handle;
	union {
		void *whatever;
		int result;
	} data;
};

#define CURL_FUNCTIONS(X) \
	X(easy_init, CURL *, (void)) X(easy_setopt, int, (CURL *, int, ...)) X(easy_perform, int, (CURL *)) \
	X(easy_getinfo, int, (CURL *, int, ...)) X(easy_cleanup, void, (CURL *)) \
	X(easy_strerror, const char *, (int)) \
	X(slist_append, struct curl_slist *, (struct curl_slist *, const char *)) \
	X(slist_free_all, void, (struct curl_slist *)) \
	X(multi_init, CURLM *, (void)) X(multi_add_handle, int, (CURLM *, CURL *)) \
	X(multi_remove_handle, int, (CURLM *, CURL *)) X(multi_perform, int, (CURLM *, int *)) \
	X(multi_wait, int, (CURLM *, void *, unsigned, int, int *)) \
	X(multi_info_read, struct curl_msg *, (CURLM *, int *)) X(multi_cleanup, int, (CURLM *))
struct curl_api {
#define X(f, ret, args) ret(*f) args;
	CURL_FUNCTIONS(X)
#undef X
};
extern struct curl_api curl;

/* Loads libcurl once ($GPUWISE_CURL_LIBRARY names another file: unusual
 * installs, and the tests point it at nothing); *name gets the file's
 * name. 0; -1 when it cannot be loaded (dlerror()'s text in err); -2 when
 * it lacks a function (its name in err). */
int curl_load(const char **name, char *err, size_t n);

#endif

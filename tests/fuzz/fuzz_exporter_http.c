/* Fuzz the exporter's own HTTP pieces (cli/exporter_http.c): the first
 * input byte selects the function, the rest is its input, NUL-terminated
 * for the string functions and an exact-size copy for the web-config YAML
 * (so reading past the end is caught). Outputs are checked for bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exporter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_auth(const char *s)
{
	char user[EXP_AUTH_MAX], password[EXP_AUTH_MAX];

	if (exp_parse_basic_auth(s, user, password) == 0) {
		if (strnlen(user, EXP_AUTH_MAX) >= EXP_AUTH_MAX || strnlen(password, EXP_AUTH_MAX) >= EXP_AUTH_MAX)
			__builtin_trap();
		if (strchr(user, ':'))
			__builtin_trap();
	}
}

static void check_listen(const char *s)
{
	char host[256], err[256];
	unsigned port = 99999;

	if (exp_parse_listen(s, host, sizeof(host), &port, err, sizeof(err)) == 0) {
		if (port > 65535 || strnlen(host, sizeof(host)) >= sizeof(host))
			__builtin_trap();
	} else if (strnlen(err, sizeof(err)) == 0 || strnlen(err, sizeof(err)) >= sizeof(err)) {
		__builtin_trap();
	}
}

static void check_web_config(const uint8_t *data, size_t size)
{
	struct exp_web_config c;
	char err[512];
	char *copy = malloc(size ? size : 1);

	if (!copy)
		return;
	memcpy(copy, data, size);
	if (exp_web_config_parse(copy, size, "/etc/gpuwise", &c, err, sizeof(err)) == 0) {
		if (!c.cert_file != !c.key_file || c.nusers < 0 || c.nusers > EXP_MAX_USERS)
			__builtin_trap();
		for (int i = 0; i < c.nusers; i++)
			if (strlen(c.users[i].hash) != 60)
				__builtin_trap();
		exp_web_config_free(&c);
	} else if (strnlen(err, sizeof(err)) == 0) {
		__builtin_trap();
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size < 1)
		return 0;
	if (data[0] % 4 == 3) {
		check_web_config(data + 1, size - 1);
		return 0;
	}
	if (!(s = malloc(size)))
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 4) {
	case 0:
		if (exp_route(s) != ROUTE_NONE && s[0] != '/')
			__builtin_trap();
		break;
	case 1:
		check_auth(s);
		break;
	case 2:
		check_listen(s);
		break;
	}
	free(s);
	return 0;
}

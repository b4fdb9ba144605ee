/* The pool folder's text records: parsed and written here, read and
 * locked in pool.c (see record.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "pool/record.h"

/* The latest time a record may give: 4999-12-31, far past any clock, far
 * below where a double stops holding whole milliseconds or a long
 * overflows. */
#define LATEST_TIME 95617497600.0

const char *gw__record_get(const char *rec, const char *key, char *out, size_t n)
{
	size_t kl = strlen(key);

	if (!n)
		return NULL;
	for (const char *p = rec; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			size_t len = strcspn(p + kl + 1, "\n");

			if (len >= n)
				len = n - 1;
			memcpy(out, p + kl + 1, len);
			out[len] = '\0';
			return out;
		}
	}
	return NULL;
}

bool gw__record_u64(const char *rec, const char *key, uint64_t *v)
{
	char buf[32];

	return gw__record_get(rec, key, buf, sizeof(buf)) && gw__parse_u64(buf, v) == 0;
}

double gw__record_time(const char *rec, const char *key)
{
	char buf[64], *end;
	double t;

	if (!gw__record_get(rec, key, buf, sizeof(buf)))
		return 0;
	t = strtod(buf, &end);
	if (end == buf || !isfinite(t) || t < 0 || t > LATEST_TIME)
		return 0;
	return t;
}

bool gw__record_ticket_name(const char *name, uint64_t *ticket)
{
	size_t pl = strlen(GW__JOB_PREFIX);

	if (strncmp(name, GW__JOB_PREFIX, pl) || strlen(name) != pl + 12 || strspn(name + pl, "0123456789") != 12)
		return false;
	return gw__parse_u64(name + pl, ticket) == 0;
}

bool gw__record_ticket_counter(const char *text, uint64_t *ticket)
{
	char buf[32];
	size_t n = strcspn(text, "\n");

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return gw__parse_u64(buf, ticket) == 0 && *ticket > 0 && *ticket < GW__TICKET_MAX;
}

/* max_util: -1 (none) or a percentage. */
static bool parse_max_util(const char *rec, int *out)
{
	char buf[32];
	uint64_t v;

	if (!gw__record_get(rec, "max_util", buf, sizeof(buf))) {
		*out = -1;
		return true;
	}
	if (!strcmp(buf, "-1")) {
		*out = -1;
		return true;
	}
	if (gw__parse_u64(buf, &v) < 0 || v > 100)
		return false;
	*out = (int)v;
	return true;
}

bool gw__record_want(const char *rec, int nunits, int (*unit_of)(const void *arg, const char *uuid, size_t len),
		     const void *arg, gw__want *w)
{
	char buf[GW__RECORD_MAX], state[16];
	uint64_t v;

	if (!gw__record_get(rec, "state", state, sizeof(state)) || strcmp(state, "waiting"))
		return false;
	if (!gw__record_u64(rec, "gpus", &v) || v == 0 || v > 1024)
		return false;
	w->gpus = (unsigned)v;
	w->min_free = gw__record_u64(rec, "min_free", &v) ? v : 0;
	if (!parse_max_util(rec, &w->max_util))
		return false;
	if (!gw__record_get(rec, "eligible", buf, sizeof(buf)))
		return false;
	w->any = !strcmp(buf, "*");
	if (!w->any)
		for (char *s = buf; *s;) {
			size_t n = strcspn(s, ",");
			int u = n ? unit_of(arg, s, n) : -1;

			if (u >= 0 && u < nunits)
				w->eligible[u] = true;
			s += n + (s[n] == ',');
		}
	return true;
}

bool gw__record_job(uint64_t id, const char *rec, gw_pool_job *j)
{
	char state[16], buf[GW__RECORD_MAX];
	uint64_t v;

	memset(j, 0, sizeof(*j));
	if (!gw__record_get(rec, "state", state, sizeof(state)))
		return false;
	if (!strcmp(state, "waiting"))
		j->state = GW_POOL_WAITING;
	else if (!strcmp(state, "running"))
		j->state = GW_POOL_RUNNING;
	else
		return false;
	j->id = id;
	j->pid = gw__record_u64(rec, "pid", &v) && v < 0x7fffffff ? (int)v : 0;
	j->job_pid = gw__record_u64(rec, "job_pid", &v) && v < 0x7fffffff ? (int)v : 0;
	j->uid = gw__record_u64(rec, "uid", &v) && v < 0xffffffffULL ? (unsigned)v : 0;
	j->gpus = gw__record_u64(rec, "gpus", &v) && v < 100000 ? (unsigned)v : 0;
	j->queued = gw__record_time(rec, "queued");
	j->since = j->state == GW_POOL_WAITING ? j->queued : gw__record_time(rec, "since");
	gw__record_get(rec, "name", j->name, sizeof(j->name));
	gw__record_get(rec, "command", j->command, sizeof(j->command));
	if (gw__record_get(rec, "leased", buf, sizeof(buf)))
		for (char *s = buf; *s && j->nleased < GW_POOL_MAX_LEASED;) {
			size_t n = strcspn(s, ",");

			if (n && n < sizeof(j->leased[0])) {
				memcpy(j->leased[j->nleased], s, n);
				j->leased[j->nleased++][n] = '\0';
			}
			s += n + (s[n] == ',');
		}
	return true;
}

/* One line's value: printable, no newline (names and command lines come
 * from users, and a newline would start a line of its own). */
static void clean(char *out, size_t n, const char *s)
{
	size_t k = 0;

	for (; s && *s && k + 1 < n; s++)
		out[k++] = (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s;
	out[k] = '\0';
}

bool gw__record_format(char *out, size_t n, const gw__record_in *r)
{
	char name[256], cmd[2048];

	clean(cmd, sizeof(cmd), r->command);
	clean(name, sizeof(name), r->name);
	if (gw__fmt(out, n,
		    "state=%s\npid=%d\njob_pid=%d\nuid=%u\nqueued=%.3f\nsince=%.3f\ngpus=%u\neligible=%s\n"
		    "min_free=%llu\nmax_util=%d\nname=%s\ncommand=%s\nleased=%s\n",
		    r->state, r->pid, r->job_pid, r->uid, r->queued, r->since, r->gpus, r->eligible,
		    (unsigned long long)r->min_free, r->max_util, name, cmd, r->leased))
		return true;
	gw__mark_cut(out, n);
	return false;
}

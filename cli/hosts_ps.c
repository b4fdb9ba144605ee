/* `gpuwise ps --hosts` and `gpuwise report --hosts`: who runs what on the
 * nodes, from each node's exporter /api/status (cli/hosts.h). A node's
 * exporter lists processes only where its status page shows them
 * (--show-processes, --per-process or Basic auth); elsewhere it gives how
 * many each GPU has, and these commands say the users are hidden there. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "hosts.h"
#include "output.h"

static void host_json(gw_json *j, const struct host *h)
{
	gw_json_object_begin(j);
	hosts_json_keys(j, h);
	gw_json_key(j, "processes_shown");
	gw_json_bool(j, h->ok && h->procs_shown);
	gw_json_object_end(j);
}

static void hosts_list_json(gw_json *j, const struct hosts *hs)
{
	gw_json_key(j, "hosts");
	gw_json_array_begin(j);
	for (int i = 0; i < hs->n; i++)
		host_json(j, &hs->h[i]);
	gw_json_array_end(j);
}

/* A line for each node that could not be read or hides its processes. */
static void host_notes(const struct hosts *hs)
{
	for (int i = 0; i < hs->n; i++) {
		const struct host *h = &hs->h[i];

		if (!h->ok)
			printf("%s: %s: %s\n", h->addr, _("unreachable"), h->err);
		else if (!h->procs_shown && h->ngpu > 0)
			printf("%s: %s\n", h->addr, _("its exporter hides users and processes (it shows them with "
						       "--show-processes or Basic auth)"));
	}
}

static int print_out(gw_json *j)
{
	fputs(gw_json_text(j) ? gw_json_text(j) : "{}", stdout);
	fputc('\n', stdout);
	gw_json_free(j);
	return EXIT_OK;
}

static int ps_json(const struct hosts *hs)
{
	gw_json *j = gw_json_new(2);

	json_document_begin(j);
	hosts_list_json(j, hs);
	gw_json_key(j, "processes");
	gw_json_array_begin(j);
	for (int i = 0; i < hs->n; i++)
		for (size_t k = 0; k < hs->h[i].nproc; k++) {
			const struct host *h = &hs->h[i];
			const struct host_proc *p = &h->proc[k];

			gw_json_object_begin(j);
			gw_json_key(j, "host");
			gw_json_string(j, h->addr);
			gw_json_key(j, "gpu");
			gw_json_int(j, h->gpu[p->gpu].info.index);
			gw_json_key(j, "uuid");
			gw_json_string(j, GW_VALID(h->gpu[p->gpu].info.uuid) ? h->gpu[p->gpu].info.uuid.s : NULL);
			gw_json_key(j, "pid");
			gw_json_int(j, p->pid);
			gw_json_key(j, "user");
			gw_json_string(j, p->user[0] ? p->user : NULL);
			gw_json_key(j, "name");
			gw_json_string(j, p->name);
			gw_json_u64_field(j, "used_memory_bytes", &p->used_memory);
			gw_json_object_end(j);
		}
	gw_json_array_end(j);
	gw_json_object_end(j);
	return print_out(j);
}

static int ps_table(const struct hosts *hs)
{
	char mem[32];
	bool any = false;

	/* Column names are identifiers, the same in every language. */
	static const char *const col[] = { "host", "gpu", "pid", "user", "memory", "name" };

	printf("%-24s %3s %8s %-12s %10s %s\n", col[0], col[1], col[2], col[3], col[4], col[5]);
	for (int i = 0; i < hs->n; i++)
		for (size_t k = 0; k < hs->h[i].nproc; k++) {
			const struct host *h = &hs->h[i];
			const struct host_proc *p = &h->proc[k];

			any = true;
			printf("%-24.24s %3d %8u %-12.12s %10s %s\n", h->addr, h->gpu[p->gpu].info.index,
			       (unsigned)p->pid, p->user[0] ? p->user : "?",
			       GW_VALID(p->used_memory) ? fmt_bytes(mem, sizeof(mem), p->used_memory.v) : "-", p->name);
		}
	if (!any)
		printf("%s\n", _("no GPU processes"));
	host_notes(hs);
	return EXIT_OK;
}

/* ---- report: the per-user picture now --------------------------------- */

struct user_sum {
	char user[64];
	int processes, gpus, hosts;
	uint64_t memory;
	/* what was counted already: the last (host, GPU) and host seen */
	int last_host, last_gpu;
};

static struct user_sum *user_of(struct user_sum *u, int *n, const char *name)
{
	for (int k = 0; k < *n; k++)
		if (!strcmp(u[k].user, name))
			return &u[k];
	memset(&u[*n], 0, sizeof(u[0]));
	snprintf(u[*n].user, sizeof(u[0].user), "%s", name);
	u[*n].last_host = u[*n].last_gpu = -1;
	return &u[(*n)++];
}

static int by_memory(const void *a, const void *b)
{
	const struct user_sum *x = a, *y = b;

	return x->memory < y->memory ? 1 : x->memory > y->memory ? -1 : strcmp(x->user, y->user);
}

/* Users by GPU memory held, each counted once per GPU and once per host
 * (processes come host by host, GPU by GPU). */
static int sum_users(const struct hosts *hs, struct user_sum **out)
{
	size_t total = 0;
	struct user_sum *u;
	int n = 0;

	for (int i = 0; i < hs->n; i++)
		total += hs->h[i].nproc;
	if (!(u = calloc(total + 1, sizeof(*u))))
		return -1;
	for (int i = 0; i < hs->n; i++)
		for (size_t k = 0; k < hs->h[i].nproc; k++) {
			const struct host_proc *p = &hs->h[i].proc[k];
			struct user_sum *s = user_of(u, &n, p->user[0] ? p->user : "?");
			bool seen_gpu = false;

			s->processes++;
			s->memory += GW_VALID(p->used_memory) ? p->used_memory.v : 0;
			for (size_t q = 0; q < k; q++) /* this user on this GPU already? */
				seen_gpu |= hs->h[i].proc[q].gpu == p->gpu && !strcmp(hs->h[i].proc[q].user, p->user);
			s->gpus += !seen_gpu;
			if (s->last_host != i)
				s->hosts++;
			s->last_host = i;
		}
	qsort(u, (size_t)n, sizeof(*u), by_memory);
	*out = u;
	return n;
}

static int report_out(const struct hosts *hs, bool json)
{
	struct user_sum *u = NULL;
	int n = sum_users(hs, &u);
	char mem[32];

	if (n < 0) {
		error_msg(_("out of memory"));
		return EXIT_FAIL;
	}
	if (json) {
		gw_json *j = gw_json_new(2);

		json_document_begin(j);
		hosts_list_json(j, hs);
		gw_json_key(j, "users");
		gw_json_array_begin(j);
		for (int k = 0; k < n; k++) {
			gw_json_object_begin(j);
			gw_json_key(j, "user");
			gw_json_string(j, strcmp(u[k].user, "?") ? u[k].user : NULL);
			gw_json_key(j, "hosts");
			gw_json_int(j, u[k].hosts);
			gw_json_key(j, "gpus");
			gw_json_int(j, u[k].gpus);
			gw_json_key(j, "processes");
			gw_json_int(j, u[k].processes);
			gw_json_key(j, "memory_used_bytes");
			gw_json_uint(j, u[k].memory);
			gw_json_object_end(j);
		}
		gw_json_array_end(j);
		gw_json_object_end(j);
		free(u);
		return print_out(j);
	}
	static const char *const col[] = { "user", "hosts", "gpus", "processes", "memory" };

	printf("%-16s %5s %5s %9s %10s\n", col[0], col[1], col[2], col[3], col[4]);
	for (int k = 0; k < n; k++)
		printf("%-16.16s %5d %5d %9d %10s\n", u[k].user, u[k].hosts, u[k].gpus, u[k].processes,
		       fmt_bytes(mem, sizeof(mem), u[k].memory));
	if (n == 0)
		printf("%s\n", _("no GPU processes"));
	host_notes(hs);
	free(u);
	return EXIT_OK;
}

int hosts_ps(const struct hosts_opts *o, bool json, bool report)
{
	struct hosts hs;
	int rc = hosts_open(&hs, o);

	if (rc == 0) {
		hosts_fetch(&hs);
		if (report)
			rc = report_out(&hs, json);
		else
			rc = json ? ps_json(&hs) : ps_table(&hs);
	}
	hosts_close(&hs);
	return rc;
}

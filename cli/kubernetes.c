/* gpuwise exporter --kubernetes: the kubelet's PodResources v1 List call
 * through gRPC's C core, its answer decoded with protobuf-c (the messages
 * generated at build time from cli/podresources_v1.proto), kept as a map
 * from device id to pod, namespace and container. cli/kubernetes.h says
 * how the exporter uses it.
 *
 * gRPC is loaded with dlopen when --kubernetes asks for it, not linked:
 * it brings some thirty libraries (Abseil, OpenSSL, RE2, c-ares) that no
 * other command needs, and a machine without them runs every other command
 * as before. The headers of libgrpc-dev give the types and the calls'
 * signatures at build time; without them (or protoc-c and protobuf-c) the
 * CLI builds without --kubernetes (GW_HAVE_K8S unset) and says so. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "kubernetes.h"

struct k8s_entry {
	char *id;
	struct k8s_owner owner;
};

struct k8s_map {
	int refs; /* references, changed atomically */
	size_t n;
	struct k8s_entry *e;
};

const struct k8s_owner *k8s_map_find(const struct k8s_map *m, const char *id)
{
	for (size_t i = 0; m && id && *id && i < m->n; i++)
		if (strcmp(m->e[i].id, id) == 0)
			return &m->e[i].owner;
	return NULL;
}

static void map_free(struct k8s_map *m)
{
	for (size_t i = 0; m && i < m->n; i++) {
		free(m->e[i].id);
		free((char *)m->e[i].owner.pod), free((char *)m->e[i].owner.namespace_);
		free((char *)m->e[i].owner.container);
	}
	if (m)
		free(m->e);
	free(m);
}

bool k8s_pid_in_pod(uint32_t pid)
{
	const char *root = secure_getenv("GPUWISE_ROOT");
	char path[4200], line[1024];
	bool in = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/%" PRIu32 "/cgroup", root && *root ? root : "", pid);
	if (!(f = fopen(path, "r")))
		return false;
	while (!in && fgets(line, sizeof(line), f))
		in = strstr(line, "kubepods") != NULL;
	fclose(f);
	return in;
}

#ifndef GW_HAVE_K8S

void k8s_map_release(struct k8s_map *m)
{
	map_free(m);
}

struct k8s_client *k8s_start(const char *socket_path, char *err, size_t err_n)
{
	(void)socket_path;
	snprintf(err, err_n, "%s",
		 _("this gpuwise was built without gRPC and protobuf-c, which --kubernetes needs (install "
		   "libgrpc-dev, libprotobuf-c-dev and protobuf-c-compiler, e.g. with scripts/setup, and rebuild)"));
	return NULL;
}

void k8s_stop(struct k8s_client *c)
{
	(void)c;
}

void k8s_refresh_soon(struct k8s_client *c)
{
	(void)c;
}

struct k8s_map *k8s_current(struct k8s_client *c, bool *stale)
{
	(void)c;
	*stale = true;
	return NULL;
}

static int cmd_kubelet_list(int argc, char **argv)
{
	char err[512];

	(void)argc, (void)argv;
	k8s_start("", err, sizeof(err));
	printf("E%s", err);
	return 3;
}

#else

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
/* grpc_security.h declares grpc_insecure_credentials_create() without
 * (void), which C's -Wstrict-prototypes rejects. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/support/time.h>
#pragma GCC diagnostic pop

#include "podresources_v1.pb-c.h"

extern char **environ;

#ifndef GW_GRPC_SONAME
#define GW_GRPC_SONAME "libgrpc.so.29"
#endif
#define K8S_ANSWER_MAX (64u << 20) /* the most bytes of an answer read */
#define K8S_EXIT_NO_GRPC 3         /* the helper's exit status when gRPC cannot be loaded */

/* ---- the helper process: one List call through gRPC ------------------- */

#define GRPC_FUNCTIONS(X) \
	X(grpc_init) X(grpc_insecure_credentials_create) X(grpc_channel_credentials_release) \
	X(grpc_channel_create) X(grpc_channel_destroy) X(grpc_channel_create_call) X(grpc_call_start_batch) \
	X(grpc_call_cancel) X(grpc_call_unref) X(grpc_completion_queue_create_for_next) \
	X(grpc_completion_queue_next) X(grpc_completion_queue_shutdown) X(grpc_completion_queue_destroy) \
	X(grpc_metadata_array_init) X(grpc_metadata_array_destroy) X(grpc_raw_byte_buffer_create) \
	X(grpc_byte_buffer_destroy) X(grpc_byte_buffer_reader_init) X(grpc_byte_buffer_reader_readall) \
	X(grpc_byte_buffer_reader_destroy) X(grpc_slice_from_static_string) X(grpc_slice_from_copied_buffer) \
	X(grpc_slice_unref) X(gpr_now) X(gpr_time_add) X(gpr_time_from_millis)
static struct {
#define X(f) __typeof__(f) *f;
	GRPC_FUNCTIONS(X)
#undef X
} g;

/* GPUWISE_GRPC_LIBRARY names the file to load instead (unusual installs;
 * the tests point it at nothing to see gpuwise without gRPC). */
static int grpc_load(char *err, size_t err_n)
{
	const char *name = secure_getenv("GPUWISE_GRPC_LIBRARY");
	void *h;

	if (!name || !*name)
		name = GW_GRPC_SONAME;
	if (!(h = dlopen(name, RTLD_NOW | RTLD_LOCAL))) {
		snprintf(err, err_n, _("--kubernetes needs gRPC's C library: %s cannot be loaded (Debian/Ubuntu: "
				       "apt install libgrpc29): %s"), name, dlerror());
		return -1;
	}
#define X(f) \
	if (!(*(void **)&g.f = dlsym(h, #f))) { \
		snprintf(err, err_n, _("--kubernetes: %s has no %s"), name, #f); \
		return -1; \
	}
	GRPC_FUNCTIONS(X)
#undef X
	g.grpc_init();
	return 0;
}

static const char *status_name(grpc_status_code s)
{
	switch (s) {
	case GRPC_STATUS_CANCELLED: return "CANCELLED";
	case GRPC_STATUS_DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
	case GRPC_STATUS_UNIMPLEMENTED: return "UNIMPLEMENTED";
	case GRPC_STATUS_UNAVAILABLE: return "UNAVAILABLE";
	case GRPC_STATUS_PERMISSION_DENIED: return "PERMISSION_DENIED";
	case GRPC_STATUS_RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
	case GRPC_STATUS_INTERNAL: return "INTERNAL";
	default: return "error";
	}
}

/* The answer's bytes, written to out. */
static int write_answer(grpc_byte_buffer *bb, FILE *out, char *err, size_t err_n)
{
	grpc_byte_buffer_reader reader;
	grpc_slice s;
	int rc;

	if (!g.grpc_byte_buffer_reader_init(&reader, bb)) {
		snprintf(err, err_n, "cannot read the answer");
		return -1;
	}
	s = g.grpc_byte_buffer_reader_readall(&reader);
	g.grpc_byte_buffer_reader_destroy(&reader);
	rc = fputc('O', out) != EOF && fwrite(GRPC_SLICE_START_PTR(s), 1, GRPC_SLICE_LENGTH(s), out) == GRPC_SLICE_LENGTH(s)
		     ? 0 : -1;
	g.grpc_slice_unref(s);
	if (rc < 0)
		snprintf(err, err_n, "cannot write the answer");
	return rc;
}

/* One List call to the kubelet at target ("unix:PATH") with its deadline;
 * 'O' and the answer's bytes written to out, or -1 and a reason in err. */
static int ask(const char *target, FILE *out, char *err, size_t err_n)
{
	V1__ListPodResourcesRequest req = V1__LIST_POD_RESOURCES_REQUEST__INIT;
	uint8_t packed[16];
	size_t plen = v1__list_pod_resources_request__pack(&req, packed);
	grpc_channel_credentials *creds = g.grpc_insecure_credentials_create();
	grpc_channel *ch = g.grpc_channel_create(target, creds, NULL);
	grpc_completion_queue *cq = g.grpc_completion_queue_create_for_next(NULL);
	gpr_timespec deadline = g.gpr_time_add(g.gpr_now(GPR_CLOCK_MONOTONIC),
					       g.gpr_time_from_millis((int64_t)(K8S_DEADLINE_S * 1000), GPR_TIMESPAN));
	grpc_slice method = g.grpc_slice_from_static_string("/v1.PodResourcesLister/List");
	grpc_slice body = g.grpc_slice_from_copied_buffer((const char *)packed, plen);
	grpc_byte_buffer *send = g.grpc_raw_byte_buffer_create(&body, 1), *recv = NULL;
	grpc_metadata_array initial, trailing;
	grpc_status_code status = GRPC_STATUS_UNKNOWN;
	grpc_slice details = g.grpc_slice_from_static_string("");
	grpc_op ops[6];
	grpc_call *call;
	grpc_event ev;
	int rc = -1;

	g.grpc_channel_credentials_release(creds);
	g.grpc_slice_unref(body);
	g.grpc_metadata_array_init(&initial);
	g.grpc_metadata_array_init(&trailing);
	memset(ops, 0, sizeof(ops));
	ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
	ops[1].op = GRPC_OP_SEND_MESSAGE;
	ops[1].data.send_message.send_message = send;
	ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
	ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
	ops[3].data.recv_initial_metadata.recv_initial_metadata = &initial;
	ops[4].op = GRPC_OP_RECV_MESSAGE;
	ops[4].data.recv_message.recv_message = &recv;
	ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
	ops[5].data.recv_status_on_client.trailing_metadata = &trailing;
	ops[5].data.recv_status_on_client.status = &status;
	ops[5].data.recv_status_on_client.status_details = &details;
	call = g.grpc_channel_create_call(ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq, method, NULL, deadline, NULL);
	if (g.grpc_call_start_batch(call, ops, 6, ops, NULL) != GRPC_CALL_OK) {
		snprintf(err, err_n, "cannot start the call");
	} else {
		/* The call ends by its deadline at the latest, so this wait does too. */
		do
			ev = g.grpc_completion_queue_next(cq, g.gpr_time_add(deadline, g.gpr_time_from_millis(1000, GPR_TIMESPAN)), NULL);
		while (ev.type == GRPC_QUEUE_TIMEOUT && (g.grpc_call_cancel(call, NULL), 1));
		if (status != GRPC_STATUS_OK) {
			snprintf(err, err_n, "%s%s%.*s", status_name(status), GRPC_SLICE_LENGTH(details) ? ": " : "",
				 (int)GRPC_SLICE_LENGTH(details), (const char *)GRPC_SLICE_START_PTR(details));
		} else if (!recv) {
			snprintf(err, err_n, "an empty answer");
		} else {
			rc = write_answer(recv, out, err, err_n);
		}
	}
	/* What gRPC holds is not freed: the helper exits right after. */
	return rc;
}

/* gpuwise __kubelet-list SOCKET: the helper process the exporter runs for
 * each question (so gRPC's libraries and threads never live in the
 * exporter). Writes 'O' and the answer's bytes, or 'E' and one sentence. */
static int cmd_kubelet_list(int argc, char **argv)
{
	char err[1024], target[4200];
	bool check = argc == 3 && strcmp(argv[1], "--check") == 0;

	if (argc != 2 && !check) {
		error_msg(_("usage: gpuwise __kubelet-list [--check] SOCKET"));
		return EXIT_USAGE;
	}
	if (grpc_load(err, sizeof(err)) < 0) {
		printf("E%s", err);
		return K8S_EXIT_NO_GRPC;
	}
	if (check) {
		putchar('O');
		fflush(stdout);
		_exit(EXIT_OK); /* gRPC is not shut down: no leak report at exit */
	}
	snprintf(target, sizeof(target), "unix:%s", argv[1]);
	if (ask(target, stdout, err, sizeof(err)) < 0) {
		printf("E%s", err);
		fflush(stdout);
		_exit(EXIT_FAIL); /* no destructors of gRPC's threads */
	}
	fflush(stdout);
	_exit(ferror(stdout) ? EXIT_FAIL : EXIT_OK);
}

/* ---- the exporter's side ----------------------------------------------- */

struct k8s_client {
	char path[4096];
	pthread_t thread;
	pthread_mutex_t lock; /* guards everything below */
	pthread_cond_t cond;  /* CLOCK_MONOTONIC */
	bool stopping, poke, asked, answered, stale, failing;
	pid_t child;          /* the helper in flight, for k8s_stop to end */
	struct k8s_map *map;
};

/* The id of a device as the exporter knows it: a shared GPU's replica ids
 * ("GPU-...::3", the device plugin's time-slicing) lose their suffix. */
static size_t id_len(const char *id)
{
	const char *sep = strstr(id, "::");

	return sep ? (size_t)(sep - id) : strlen(id);
}

/* The GPUs' and MIG devices' owners in a List answer: every device of an
 * nvidia.com/ resource (nvidia.com/gpu, nvidia.com/mig-1g.10gb, ...). */
static struct k8s_map *map_from_answer(const V1__ListPodResourcesResponse *r)
{
	struct k8s_map *m = calloc(1, sizeof(*m));
	size_t cap = 0;

	if (!m)
		return NULL;
	m->refs = 1;
	for (size_t p = 0; p < r->n_pod_resources; p++) {
		const V1__PodResources *pod = r->pod_resources[p];

		for (size_t c = 0; c < pod->n_containers; c++) {
			const V1__ContainerResources *ctr = pod->containers[c];

			for (size_t d = 0; d < ctr->n_devices; d++) {
				const V1__ContainerDevices *dev = ctr->devices[d];

				if (!dev->resource_name || strncmp(dev->resource_name, "nvidia.com/", 11) != 0)
					continue;
				for (size_t k = 0; k < dev->n_device_ids; k++) {
					struct k8s_entry *e;
					char *id = strndup(dev->device_ids[k], id_len(dev->device_ids[k]));

					if (!id || k8s_map_find(m, id)) { /* a shared GPU: its first holder */
						free(id);
						continue;
					}
					if (m->n == cap) {
						struct k8s_entry *ne = realloc(m->e, (cap ? cap * 2 : 16) * sizeof(*ne));

						if (!ne) {
							free(id);
							map_free(m);
							return NULL;
						}
						m->e = ne, cap = cap ? cap * 2 : 16;
					}
					e = &m->e[m->n++];
					e->id = id;
					e->owner.pod = strdup(pod->name ? pod->name : "");
					e->owner.namespace_ = strdup(pod->namespace_ ? pod->namespace_ : "");
					e->owner.container = strdup(ctr->name ? ctr->name : "");
					if (!e->owner.pod || !e->owner.namespace_ || !e->owner.container) {
						map_free(m);
						return NULL;
					}
				}
			}
		}
	}
	return m;
}

static void timespec_after(struct timespec *ts, double s)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += (time_t)s;
	ts->tv_nsec += (long)((s - (double)(time_t)s) * 1e9);
	if (ts->tv_nsec >= 1000000000L)
		ts->tv_sec++, ts->tv_nsec -= 1000000000L;
}

static double ms_until(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(t->tv_sec - now.tv_sec) * 1e3 + (double)(t->tv_nsec - now.tv_nsec) / 1e6;
}

/* Runs `gpuwise __kubelet-list ARGS` (this very program, /proc/self/exe)
 * with its own signal dispositions, stdin and stderr /dev/null, and reads
 * what it writes for at most limit_s seconds (then it is killed). The
 * bytes (malloc'd) in *buf; its exit status, or -1 with a reason. */
static int run_helper(struct k8s_client *c, char *const argv[], double limit_s, char **buf, size_t *len,
		      char *err, size_t err_n)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dfl;
	struct timespec until;
	size_t cap = 0;
	int fds[2], st = 0, rc = -1;
	pid_t pid;

	*buf = NULL, *len = 0;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(err, err_n, "pipe: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
	posix_spawn_file_actions_addclosefrom_np(&fa, 3); /* none of the server's sockets */
#endif
	posix_spawnattr_init(&at);
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE), sigaddset(&dfl, SIGTERM), sigaddset(&dfl, SIGINT);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	pthread_mutex_lock(&c->lock);
	st = c->stopping ? ECANCELED : posix_spawn(&pid, "/proc/self/exe", &fa, &at, argv, environ);
	if (st == 0)
		c->child = pid;
	pthread_mutex_unlock(&c->lock);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(fds[1]);
	if (st != 0) {
		snprintf(err, err_n, "cannot run %s: %s", "/proc/self/exe", strerror(st));
		close(fds[0]);
		return -1;
	}
	timespec_after(&until, limit_s);
	for (;;) {
		struct pollfd p = { .fd = fds[0], .events = POLLIN };
		double ms = ms_until(&until);
		ssize_t n;

		if (ms <= 0 || poll(&p, 1, (int)ms + 1) == 0) {
			snprintf(err, err_n, "no answer within %.0f s", limit_s);
			kill(pid, SIGKILL);
			break;
		}
		if (*len == cap) {
			char *nb = cap < K8S_ANSWER_MAX ? realloc(*buf, cap ? cap * 2 : 4096) : NULL;

			if (!nb) {
				snprintf(err, err_n, "the answer is too large");
				kill(pid, SIGKILL);
				break;
			}
			*buf = nb, cap = cap ? cap * 2 : 4096;
		}
		n = read(fds[0], *buf + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = 0;
			break;
		}
		*len += (size_t)n;
	}
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	pthread_mutex_lock(&c->lock);
	c->child = 0;
	pthread_mutex_unlock(&c->lock);
	if (rc == 0)
		rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	if (rc < 0) {
		free(*buf);
		*buf = NULL, *len = 0;
	}
	return rc;
}

/* One question through the helper: the answer as a map in *out. */
static int ask_kubelet(struct k8s_client *c, struct k8s_map **out, char *err, size_t err_n)
{
	char *argv[] = { "gpuwise", "__kubelet-list", c->path, NULL };
	V1__ListPodResourcesResponse *r;
	size_t len;
	char *buf;
	int rc = run_helper(c, argv, K8S_DEADLINE_S + 2, &buf, &len, err, err_n);

	if (rc < 0)
		return -1;
	if (len == 0 || buf[0] != 'O') {
		snprintf(err, err_n, "%.*s", len > 1 ? (int)len - 1 : 0, len > 1 ? buf + 1 : "");
		if (len <= 1)
			snprintf(err, err_n, "the helper ended with status %d", rc);
		free(buf);
		return -1;
	}
	r = v1__list_pod_resources_response__unpack(NULL, len - 1, (const uint8_t *)buf + 1);
	free(buf);
	if (!r) {
		snprintf(err, err_n, "the answer is not a ListPodResourcesResponse");
		return -1;
	}
	*out = map_from_answer(r);
	v1__list_pod_resources_response__free_unpacked(r, NULL);
	if (!*out) {
		snprintf(err, err_n, "out of memory");
		return -1;
	}
	return 0;
}

void k8s_map_release(struct k8s_map *m)
{
	/* The thread and the collector each hold a reference: the count
	 * changes atomically, and the last one out frees. */
	if (m && __atomic_sub_fetch(&m->refs, 1, __ATOMIC_ACQ_REL) == 0)
		map_free(m);
}

/* The answer (or the failure) of one question, under the lock. A failure
 * keeps the last answer, marked stale; a change either way is logged once. */
static void record(struct k8s_client *c, int rc, struct k8s_map *m, const char *err)
{
	if (rc == 0) {
		if (c->failing)
			warning_msg(_("the kubelet's pod-resources socket %s answers again"), c->path);
		k8s_map_release(c->map);
		c->map = m;
		c->answered = true, c->stale = false, c->failing = false;
	} else {
		if (!c->failing)
			warning_msg(_("cannot ask the kubelet which pods hold the GPUs (%s: %s); %s"), c->path, err,
				    c->answered ? _("the last answer is served, gpuwise_kubernetes_stale 1")
						: _("no pod labels yet, gpuwise_kubernetes_stale 1"));
		c->stale = true, c->failing = true;
	}
	c->asked = true;
	pthread_cond_broadcast(&c->cond);
}

static void *k8s_main(void *arg)
{
	struct k8s_client *c = arg;

	pthread_mutex_lock(&c->lock);
	while (!c->stopping) {
		struct k8s_map *m = NULL;
		struct timespec next, soonest;
		char err[1024] = "";
		int rc;

		pthread_mutex_unlock(&c->lock);
		rc = ask_kubelet(c, &m, err, sizeof(err));
		pthread_mutex_lock(&c->lock);
		if (c->stopping) {
			k8s_map_release(m);
			break;
		}
		record(c, rc, m, err);
		/* The next question: after K8S_REFRESH_S, or a second after
		 * this one when k8s_refresh_soon() asks for it. */
		timespec_after(&next, K8S_REFRESH_S);
		timespec_after(&soonest, 1.0);
		c->poke = false;
		while (!c->stopping && !c->poke && pthread_cond_timedwait(&c->cond, &c->lock, &next) != ETIMEDOUT)
			;
		if (c->poke)
			while (!c->stopping && pthread_cond_timedwait(&c->cond, &c->lock, &soonest) != ETIMEDOUT)
				;
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

static void client_free(struct k8s_client *c)
{
	k8s_map_release(c->map);
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

struct k8s_client *k8s_start(const char *socket_path, char *err, size_t err_n)
{
	char *argv[] = { "gpuwise", "__kubelet-list", "--check", (char *)socket_path, NULL };
	struct k8s_client *c = calloc(1, sizeof(*c));
	pthread_condattr_t ca;
	struct timespec until;
	size_t len;
	char *buf;
	int rc;

	if (!c) {
		snprintf(err, err_n, "out of memory");
		return NULL;
	}
	snprintf(c->path, sizeof(c->path), "%s", socket_path);
	c->stale = true;
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->cond, &ca);
	pthread_condattr_destroy(&ca);
	/* Can the helper load gRPC? Said now, once, rather than at every question. */
	if ((rc = run_helper(c, argv, 10, &buf, &len, err, err_n)) != 0 || len == 0 || buf[0] != 'O') {
		if (rc >= 0 && len > 1 && buf[0] == 'E')
			snprintf(err, err_n, "%.*s", (int)len - 1, buf + 1);
		else if (rc >= 0)
			snprintf(err, err_n, "gpuwise __kubelet-list ended with status %d", rc);
		free(buf);
		client_free(c);
		return NULL;
	}
	free(buf);
	if (pthread_create(&c->thread, NULL, k8s_main, c) != 0) {
		snprintf(err, err_n, "cannot start a thread");
		client_free(c);
		return NULL;
	}
	timespec_after(&until, K8S_START_WAIT_S);
	pthread_mutex_lock(&c->lock);
	while (!c->asked && pthread_cond_timedwait(&c->cond, &c->lock, &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&c->lock);
	return c;
}

void k8s_stop(struct k8s_client *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	c->stopping = true;
	if (c->child > 0)
		kill(c->child, SIGKILL);
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	client_free(c);
}

void k8s_refresh_soon(struct k8s_client *c)
{
	pthread_mutex_lock(&c->lock);
	c->poke = true;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

struct k8s_map *k8s_current(struct k8s_client *c, bool *stale)
{
	struct k8s_map *m;

	pthread_mutex_lock(&c->lock);
	m = c->map;
	if (m)
		__atomic_add_fetch(&m->refs, 1, __ATOMIC_ACQ_REL);
	*stale = c->stale;
	pthread_mutex_unlock(&c->lock);
	return m;
}

#endif

static const struct option no_options[] = { OPT_END() };

const struct cmd cmd_kubelet_list_def = {
	.name = "__kubelet-list",
	.fn = cmd_kubelet_list,
	.summary = N_("ask the kubelet's PodResources API once (the helper of exporter --kubernetes)"),
	.options = no_options,
	.args = "[--check] SOCKET",
	.max_args = 2,
	.description = N_("Call List of the kubelet's PodResources v1 API on SOCKET through gRPC and write 'O' "
		       "and the answer's bytes, or 'E' and why not, to standard output; --check only loads gRPC. "
		       "`gpuwise exporter --kubernetes` runs it for each question, so that gRPC's libraries and "
		       "threads never live in the exporter."),
	.flags = CMD_HIDDEN,
};

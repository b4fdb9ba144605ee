/* gpuwise exporter --kubernetes: which pod, namespace and container holds
 * each GPU (and MIG device), from the kubelet's PodResources v1 API (List,
 * gRPC over its unix socket). A thread of its own asks the kubelet every
 * K8S_REFRESH_S seconds and soon after k8s_refresh_soon(), each call with a
 * deadline of K8S_DEADLINE_S; the exporter's collector only takes the last
 * answer (k8s_current), so a slow or absent kubelet never delays a scrape.
 * gRPC's C core is loaded with dlopen when the exporter starts with
 * --kubernetes (cli/kubernetes.c); protobuf-c is linked into the CLI. */
#ifndef GPUWISE_CLI_KUBERNETES_H
#define GPUWISE_CLI_KUBERNETES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define K8S_DEFAULT_SOCKET "/var/lib/kubelet/pod-resources/kubelet.sock"
#define K8S_REFRESH_S 10.0  /* seconds between two questions to the kubelet */
#define K8S_DEADLINE_S 3.0  /* the most one question may take */
#define K8S_START_WAIT_S 1.0 /* the most the exporter's start waits for the first answer */

/* Who holds a device. */
struct k8s_owner {
	const char *pod, *namespace_, *container;
};

/* One answer of the kubelet: device id → owner. Immutable once made; a
 * reference is counted, so the collector can keep it while a newer one
 * arrives. */
struct k8s_map;

/* The owner of device id (a GPU UUID "GPU-...", a MIG device UUID
 * "MIG-..."), or NULL. A shared device's ids ("GPU-...::1", time-slicing)
 * are its own id. */
const struct k8s_owner *k8s_map_find(const struct k8s_map *m, const char *id);
void k8s_map_release(struct k8s_map *m);

/* True when process pid runs in a Kubernetes pod: its /proc/PID/cgroup
 * (under $GPUWISE_ROOT) names a kubepods cgroup. Such a process on a
 * device is the pod's that holds the device. */
bool k8s_pid_in_pod(uint32_t pid);

struct k8s_client;

/* Loads gRPC and starts the thread asking the kubelet at socket_path; waits
 * for its first answer up to K8S_START_WAIT_S (so the first scrape has the
 * labels when the kubelet is well). NULL and one sentence in err when gRPC cannot be loaded or this
 * gpuwise was built without it. */
struct k8s_client *k8s_start(const char *socket_path, char *err, size_t err_n);
void k8s_stop(struct k8s_client *c);
/* Ask again now (a GPU's processes changed), at most once a second. */
void k8s_refresh_soon(struct k8s_client *c);
/* A reference to the newest answer (NULL before the first; release it
 * with k8s_map_release) and whether it is stale: the last question failed
 * or took longer than its deadline, or none was answered yet. */
struct k8s_map *k8s_current(struct k8s_client *c, bool *stale);

#endif

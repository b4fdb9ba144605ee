/* gpuwise labels — this node's GPUs as Kubernetes node labels with NVIDIA
 * GPU Feature Discovery's names (nvidia.com/gpu.product, gpu.count,
 * gpu.memory, cuda.driver.major, ...), or as a Node Feature Discovery
 * local feature file (--nfd), so a cluster without GFD still schedules by
 * GPU model, memory and driver (docs/contracts.md "Sharing GPUs"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "output.h"

struct labels_opts {
	bool nfd, json;
};

static const struct option labels_options[] = {
	OPT_BOOL(0, "nfd", struct labels_opts, nfd,
		 N_("write Node Feature Discovery's local feature file (its features.d folder): the same "
		    "name=value lines after a header and an expiry directive")),
	OPT_BOOL(0, "json", struct labels_opts, json, N_("print {\"gpuwise_version\", \"labels\": {name: value}}")),
	OPT_END()
};

#define MAX_LABELS 16

struct label {
	const char *name;
	char value[64];
};

/* A label value: at most 63 characters of [A-Za-z0-9-_.], starting and
 * ending with a letter or digit (Kubernetes' rule); others become '-'. */
static void label_value(char *out, size_t n, const char *in)
{
	size_t k = 0, start;

	for (; *in && k + 1 < n && k < 63; in++) {
		char c = *in;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
			  c == '_' || c == '.';

		out[k++] = ok ? c : '-';
	}
	out[k] = '\0';
	while (k && !((out[k - 1] >= 'a' && out[k - 1] <= 'z') || (out[k - 1] >= 'A' && out[k - 1] <= 'Z') ||
		      (out[k - 1] >= '0' && out[k - 1] <= '9')))
		out[--k] = '\0';
	for (start = 0; out[start] && !((out[start] >= 'a' && out[start] <= 'z') ||
					 (out[start] >= 'A' && out[start] <= 'Z') || (out[start] >= '0' && out[start] <= '9'));
	     start++)
		;
	memmove(out, out + start, strlen(out + start) + 1);
}

static void add(struct label *l, int *n, const char *name, unsigned long long v)
{
	if (*n >= MAX_LABELS)
		return;
	l[*n].name = name;
	snprintf(l[*n].value, sizeof(l[*n].value), "%llu", v);
	(*n)++;
}

static void add_str(struct label *l, int *n, const char *name, const char *s)
{
	if (*n >= MAX_LABELS)
		return;
	l[*n].name = name;
	label_value(l[*n].value, sizeof(l[*n].value), s);
	if (l[*n].value[0])
		(*n)++;
}

static void family(char *out, size_t n, const char *arch)
{
	size_t k = 0;

	for (; *arch && k + 1 < n; arch++)
		out[k++] = (*arch >= 'A' && *arch <= 'Z') ? (char)(*arch - 'A' + 'a') : *arch;
	out[k] = '\0';
}

/* GFD's labels (strategy "none": whole GPUs), from the first NVIDIA GPU
 * that can be read and the count of them all. 0 when there is none. */
static int make_labels(gw_context *ctx, struct label *l)
{
	const gw_driver_info *drv = gw_context_driver(ctx);
	const gw_device_info *first = NULL;
	unsigned count = 0, maj, min, rev;
	int n = 0;

	for (int i = 0; i < gw_device_count(ctx); i++) {
		const gw_device_info *d = gw_device_get(ctx, i);

		if (d->vendor == GW_VENDOR_NVIDIA && d->health == GW_HEALTH_OK) {
			count++;
			if (!first)
				first = d;
		}
	}
	if (!first)
		return 0;
	if (GW_VALID(drv->driver_version) && sscanf(drv->driver_version.s, "%u.%u.%u", &maj, &min, &rev) >= 2) {
		add(l, &n, "nvidia.com/cuda.driver.major", maj);
		add(l, &n, "nvidia.com/cuda.driver.minor", min);
		if (sscanf(drv->driver_version.s, "%u.%u.%u", &maj, &min, &rev) == 3)
			add(l, &n, "nvidia.com/cuda.driver.rev", rev);
	}
	if (GW_VALID(drv->cuda_driver_version)) {
		add(l, &n, "nvidia.com/cuda.runtime.major", drv->cuda_driver_version.v / 1000);
		add(l, &n, "nvidia.com/cuda.runtime.minor", drv->cuda_driver_version.v % 1000 / 10);
	}
	if (GW_VALID(first->cc_major) && GW_VALID(first->cc_minor)) {
		add(l, &n, "nvidia.com/gpu.compute.major", first->cc_major.v);
		add(l, &n, "nvidia.com/gpu.compute.minor", first->cc_minor.v);
	}
	add(l, &n, "nvidia.com/gpu.count", count);
	/* What the GPU Operator's NFD rule sets, and what the exporter's
	 * DaemonSet selects nodes by (deploy/kubernetes/). */
	add_str(l, &n, "nvidia.com/gpu.present", "true");
	if (GW_VALID(first->architecture)) {
		char fam[GW_STR_MAX];

		family(fam, sizeof(fam), first->architecture.s);
		add_str(l, &n, "nvidia.com/gpu.family", fam);
	}
	/* MiB, as GFD writes it. */
	if (GW_VALID(first->memory_total))
		add(l, &n, "nvidia.com/gpu.memory", first->memory_total.v / (1024 * 1024));
	if (GW_VALID(first->name))
		add_str(l, &n, "nvidia.com/gpu.product", first->name.s);
	if (GW_VALID(first->mig_capable))
		add_str(l, &n, "nvidia.com/mig.capable", first->mig_capable.v ? "true" : "false");
	return n;
}

static int print_json_doc(const struct label *l, int n)
{
	gw_json *j = gw_json_new(2);
	int rc;

	if (!j)
		return -1;
	json_document_begin(j);
	gw_json_key(j, "labels");
	gw_json_object_begin(j);
	for (int i = 0; i < n; i++) {
		gw_json_key(j, l[i].name);
		gw_json_string(j, l[i].value);
	}
	gw_json_object_end(j);
	gw_json_object_end(j);
	rc = print_json(j);
	gw_json_free(j);
	return rc;
}

static int cmd_labels(int argc, char **argv)
{
	struct labels_opts o = { false, false };
	struct label l[MAX_LABELS];
	gw_context *ctx;
	char **args;
	int n, rc = 0;

	if (parse_options(&cmd_labels_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	if (!(ctx = open_context()))
		return EXIT_FAIL;
	n = make_labels(ctx, l);
	gw_context_free(ctx);
	if (o.json)
		return print_json_doc(l, n) < 0 ? EXIT_FAIL : n ? EXIT_OK : EXIT_FAIL;
	if (!n) {
		error_msg(_("no NVIDIA GPU that can be read: no labels"));
		return EXIT_FAIL;
	}
	if (o.nfd) {
		/* NFD drops the file's labels an hour after it was written
		 * unless it is written again (the DaemonSet does, every minute). */
		time_t t = time(NULL) + 3600;
		struct tm tm;
		char when[32];

		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
		/* a comment for people; the directive below is NFD's */
		printf("%s\n", _("# Node Feature Discovery local features (gpuwise labels --nfd)"));
		printf("# +expiry-time=%s\n", when);
	}
	for (int i = 0; i < n; i++)
		printf("%s=%s\n", l[i].name, l[i].value);
	return rc;
}

const struct cmd cmd_labels_def = {
	.name = "labels",
	.fn = cmd_labels,
	.summary = N_("node labels for Kubernetes with GPU Feature Discovery's names, or an NFD feature file"),
	.options = labels_options,
	.description =
		N_("Print this node's GPUs as Kubernetes node labels, one name=value per line, with the names NVIDIA's "
		"GPU Feature Discovery uses (MIG strategy none): nvidia.com/cuda.driver.major, .minor and .rev (the "
		"driver version), nvidia.com/cuda.runtime.major and .minor (the highest CUDA the driver supports), "
		"nvidia.com/gpu.compute.major and .minor, nvidia.com/gpu.count, nvidia.com/gpu.present, nvidia.com/gpu.family (the "
		"architecture in lower case), nvidia.com/gpu.memory (MiB), nvidia.com/gpu.product (the name, spaces "
		"as dashes) and nvidia.com/mig.capable, from the first NVIDIA GPU and the count of them all. Values "
		"follow Kubernetes' label syntax. --nfd writes Node Feature Discovery's local feature file (header "
		"and an expiry an hour ahead), for the hook in deploy/kubernetes/."),
	.exit_status = N_("Exit status: 0; 1 when there is no NVIDIA GPU to label; 2 on a usage error."),
};

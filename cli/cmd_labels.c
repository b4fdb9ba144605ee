/* gpuwise labels — this node's GPUs as Kubernetes node labels with NVIDIA
 * GPU Feature Discovery's names and values (nvidia.com/gpu.product,
 * gpu.count, gpu.memory, cuda.driver-version.*, ...), or as a Node Feature
 * Discovery local feature file (--nfd), so a cluster without GFD still
 * schedules by GPU model, memory and driver (docs/contracts.md "Sharing
 * GPUs").
 *
 * Names, value formats and defaults follow GFD as of NVIDIA/k8s-device-plugin
 * commit 1b826acc6af3079d8923bac395c3124b8861a9a6 (2026-08-19):
 * internal/lm/nvml.go (newVersionLabeler: the driver version split on '.',
 * each part kept as printed, so 535.104.05 gives revision "05"; the
 * deprecated cuda.driver.* and cuda.runtime.* beside the new names;
 * mps.capable "false" without MPS sharing), internal/lm/resource.go
 * (product, count, replicas, sharing-strategy, memory, family from the
 * compute capability, sanitise()), internal/lm/machine-type.go
 * (gpu.machine from /sys/class/dmi/id/product_name, "unknown" when it cannot
 * be read), internal/lm/strategy.go (no mig.strategy label under the
 * default strategy "none") and internal/lm/timestamp.go (gfd.timestamp
 * unless --no-timestamp). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "output.h"

struct labels_opts {
	bool nfd, json, no_timestamp;
};

static const struct option labels_options[] = {
	OPT_BOOL(0, "nfd", struct labels_opts, nfd,
		 N_("write Node Feature Discovery's local feature file (its features.d folder): the same "
		    "name=value lines after a header and an expiry directive")),
	OPT_BOOL(0, "no-timestamp", struct labels_opts, no_timestamp,
		 N_("leave out nvidia.com/gfd.timestamp (as GFD's --no-timestamp)")),
	OPT_BOOL(0, "json", struct labels_opts, json, N_("print {\"gpuwise_version\", \"labels\": {name: value}}")),
	OPT_END()
};

#define MAX_LABELS 32

struct label {
	const char *name;
	char value[64];
};

static bool alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* GFD's sanitise(): characters other than [A-Za-z0-9-_. ] are dropped and
 * each run of spaces between words becomes one '-' ("NVIDIA H100 (PCIe)" ->
 * "NVIDIA-H100-PCIe"). Then Kubernetes' rule: at most 63 characters,
 * beginning and ending with a letter or digit (GFD does not cut; the API
 * server would refuse the label). */
static void label_value(char *out, size_t n, const char *in)
{
	size_t k = 0, start = 0, max = n - 1 < 63 ? n - 1 : 63;
	bool gap = false;

	for (; *in && k < max; in++) {
		char c = *in;

		if (c == ' ') {
			gap = k > 0;
		} else if (alnum(c) || c == '-' || c == '_' || c == '.') {
			if (gap && k + 1 < max)
				out[k++] = '-';
			gap = false;
			out[k++] = c;
		}
	}
	out[k] = '\0';
	while (k && !alnum(out[k - 1]))
		out[--k] = '\0';
	while (out[start] && !alnum(out[start]))
		start++;
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

/* A string label; an empty value is written too (GFD writes
 * cuda.driver.rev= for a driver version without a revision). */
static void add_str(struct label *l, int *n, const char *name, const char *s)
{
	if (*n >= MAX_LABELS)
		return;
	l[*n].name = name;
	label_value(l[*n].value, sizeof(l[*n].value), s);
	(*n)++;
}

/* GFD's getArchFamily(): the family from the compute capability. */
static const char *family(unsigned major, unsigned minor)
{
	switch (major) {
	case 1: return "tesla";
	case 2: return "fermi";
	case 3: return "kepler";
	case 5: return "maxwell";
	case 6: return "pascal";
	case 7: return minor < 5 ? "volta" : "turing";
	case 8: return minor < 9 ? "ampere" : "ada-lovelace";
	case 9: return "hopper";
	case 10:
	case 12: return "blackwell";
	case 13: return "rubin";
	default: return "undefined";
	}
}

/* The machine type as GFD reads it: the DMI product name under the
 * context's root, spaces trimmed; "unknown" when it cannot be read. */
static void machine_type(gw_context *ctx, char *out, size_t n)
{
	const char *root = gw_context_root(ctx);
	char path[4096];
	FILE *f;
	size_t k;

	if (!root || !strcmp(root, "/"))
		root = "";
	snprintf(path, sizeof(path), "%s/sys/class/dmi/id/product_name", root);
	if (!(f = fopen(path, "r"))) {
		snprintf(out, n, "unknown");
		return;
	}
	k = fread(out, 1, n - 1, f);
	out[k] = '\0';
	if (ferror(f))
		snprintf(out, n, "unknown");
	fclose(f);
	/* label_value() drops the newline and other white space but spaces,
	 * as GFD's TrimSpace() and sanitise() do */
}

/* The driver version split as GFD splits it: two or three parts on '.',
 * each kept as printed ("05" stays "05"); false for anything else. */
static bool split_driver(const char *v, char parts[3][24])
{
	int k = 0;
	size_t len = 0;

	memset(parts, 0, 3 * sizeof(parts[0]));
	for (; *v; v++) {
		if (*v == '.') {
			if (++k > 2)
				return false;
			len = 0;
		} else if (len + 1 < sizeof(parts[0])) {
			parts[k][len++] = *v;
		}
	}
	return k >= 1;
}

static bool mig_enabled(gw_context *ctx, int index)
{
	gw_device_sample s;

	return gw_device_sample_read(ctx, index, &s) == 0 && GW_VALID(s.mig_current) && s.mig_current.v == 1;
}

/* GFD's labels under MIG strategy "none" (whole GPUs) and the device
 * plugin's default sharing (none), from the first NVIDIA GPU that can be
 * read, as GFD labels one model per node. 0 when there is none. */
static int make_labels(gw_context *ctx, struct label *l, bool timestamp)
{
	const gw_driver_info *drv = gw_context_driver(ctx);
	const gw_device_info *first = NULL;
	unsigned count = 0, full = 0;
	bool mig_capable = false, mig_known = false;
	char parts[3][24], buf[GW_STR_MAX];
	int n = 0;

	for (int i = 0; i < gw_device_count(ctx); i++) {
		const gw_device_info *d = gw_device_get(ctx, i);

		if (d->vendor != GW_VENDOR_NVIDIA || d->health != GW_HEALTH_OK)
			continue;
		if (!first)
			first = d;
		if (GW_VALID(d->mig_capable)) {
			mig_known = true;
			mig_capable = mig_capable || d->mig_capable.v;
		}
		/* gpu.count is the count of the labelled model */
		if (GW_VALID(d->name) && GW_VALID(first->name) && strcmp(d->name.s, first->name.s))
			continue;
		count++;
		if (!mig_enabled(ctx, i))
			full++;
	}
	if (!first)
		return 0;
	if (GW_VALID(drv->driver_version) && split_driver(drv->driver_version.s, parts)) {
		add_str(l, &n, "nvidia.com/cuda.driver-version.full", drv->driver_version.s);
		add_str(l, &n, "nvidia.com/cuda.driver-version.major", parts[0]);
		add_str(l, &n, "nvidia.com/cuda.driver-version.minor", parts[1]);
		add_str(l, &n, "nvidia.com/cuda.driver-version.revision", parts[2]);
		/* deprecated by GFD, still written by it */
		add_str(l, &n, "nvidia.com/cuda.driver.major", parts[0]);
		add_str(l, &n, "nvidia.com/cuda.driver.minor", parts[1]);
		add_str(l, &n, "nvidia.com/cuda.driver.rev", parts[2]);
	}
	if (GW_VALID(drv->cuda_driver_version)) {
		unsigned major = (unsigned)(drv->cuda_driver_version.v / 1000);
		unsigned minor = (unsigned)(drv->cuda_driver_version.v % 1000 / 10);

		snprintf(buf, sizeof(buf), "%u.%u", major, minor);
		add_str(l, &n, "nvidia.com/cuda.runtime-version.full", buf);
		add(l, &n, "nvidia.com/cuda.runtime-version.major", major);
		add(l, &n, "nvidia.com/cuda.runtime-version.minor", minor);
		add(l, &n, "nvidia.com/cuda.runtime.major", major);
		add(l, &n, "nvidia.com/cuda.runtime.minor", minor);
	}
	if (timestamp)
		add(l, &n, "nvidia.com/gfd.timestamp", (unsigned long long)time(NULL));
	/* GFD leaves these out when the compute capability is unknown (0) */
	if (GW_VALID(first->cc_major) && GW_VALID(first->cc_minor) && first->cc_major.v) {
		add(l, &n, "nvidia.com/gpu.compute.major", first->cc_major.v);
		add(l, &n, "nvidia.com/gpu.compute.minor", first->cc_minor.v);
	}
	add(l, &n, "nvidia.com/gpu.count", count);
	if (GW_VALID(first->cc_major) && GW_VALID(first->cc_minor) && first->cc_major.v)
		add_str(l, &n, "nvidia.com/gpu.family",
			family((unsigned)first->cc_major.v, (unsigned)first->cc_minor.v));
	machine_type(ctx, buf, sizeof(buf));
	add_str(l, &n, "nvidia.com/gpu.machine", buf);
	/* MiB, as GFD writes it; left out when 0 or unknown */
	if (GW_VALID(first->memory_total) && first->memory_total.v / (1024 * 1024))
		add(l, &n, "nvidia.com/gpu.memory", first->memory_total.v / (1024 * 1024));
	/* What the GPU Operator's NFD rule sets, and what the exporter's
	 * DaemonSet selects nodes by (deploy/kubernetes/); not GFD's. */
	add_str(l, &n, "nvidia.com/gpu.present", "true");
	if (GW_VALID(first->name))
		add_str(l, &n, "nvidia.com/gpu.product", first->name.s);
	/* No sharing: 1 replica per GPU; 0 when every GPU of the model has MIG
	 * on (GFD labels MIG-enabled GPUs "without sharing" under "none"). */
	add(l, &n, "nvidia.com/gpu.replicas", full ? 1 : 0);
	add_str(l, &n, "nvidia.com/gpu.sharing-strategy", "none");
	/* true when any GPU can do MIG */
	if (mig_known)
		add_str(l, &n, "nvidia.com/mig.capable", mig_capable ? "true" : "false");
	add_str(l, &n, "nvidia.com/mps.capable", "false");
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
	struct labels_opts o = { false, false, false };
	struct label l[MAX_LABELS];
	gw_context *ctx;
	char **args;
	int n, rc = 0;

	if (parse_options(&cmd_labels_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	if (!(ctx = open_context()))
		return EXIT_FAIL;
	n = make_labels(ctx, l, !o.no_timestamp);
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
		N_("Print this node's GPUs as Kubernetes node labels, one name=value per line, with the names and "
		"values NVIDIA's GPU Feature Discovery (GFD) writes with its defaults (MIG strategy none, no "
		"sharing): nvidia.com/cuda.driver-version.full, .major, .minor and .revision (the driver version, each "
		"part as the driver prints it: 535.104.05 gives revision 05), nvidia.com/cuda.runtime-version.full, "
		".major and .minor (the highest CUDA the driver supports), the deprecated nvidia.com/cuda.driver.* and "
		"nvidia.com/cuda.runtime.* that GFD still writes, nvidia.com/gfd.timestamp (seconds since 1970; "
		"--no-timestamp leaves it out), nvidia.com/gpu.compute.major and .minor, nvidia.com/gpu.count (GPUs of "
		"the labelled model), nvidia.com/gpu.family (from the compute capability), nvidia.com/gpu.machine "
		"(/sys/class/dmi/id/product_name, or unknown), nvidia.com/gpu.memory (MiB), nvidia.com/gpu.present, "
		"nvidia.com/gpu.product (the name, spaces as dashes), nvidia.com/gpu.replicas (1; 0 when every GPU of "
		"the model has MIG on), nvidia.com/gpu.sharing-strategy (none), nvidia.com/mig.capable and "
		"nvidia.com/mps.capable (false), from the first NVIDIA GPU. Values follow Kubernetes' label syntax. "
		"--nfd writes Node Feature Discovery's local feature file (header and an expiry an hour ahead), for "
		"the hook in deploy/kubernetes/."),
	.exit_status = N_("Exit status: 0; 1 when there is no NVIDIA GPU to label; 2 on a usage error."),
};

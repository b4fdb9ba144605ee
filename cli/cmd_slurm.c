/* gpuwise slurm gres — this node's GPUs for Slurm: the gres.conf lines and
 * the NodeName ... Gres= fragment of slurm.conf (docs/contracts.md "Sharing GPUs").
 * Type names are what Slurm's own NVML autodetection calls the GPU (the
 * NVML name, lower case, spaces as underscores); a GPU in MIG mode is
 * listed as its MIG devices, each with MultipleFiles= (the GPU's device
 * file and the MIG instance's two nvidia-caps files). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "slurm.h"

struct slurm_opts {
	bool node, json;
	const char *node_name;
};

/* A NodeName for slurm.conf: one host name. slurm.conf(5), NodeName:
 * "typically ... the string that /bin/hostname -s returns", or the fully
 * qualified name, or any name the host has in /etc/hosts or DNS
 * (https://slurm.schedmd.com/slurm.conf.html#OPT_NodeName); such names are
 * letters, digits, '-' and '.' (RFC 1123 section 2.1, labels not starting
 * with '-'), and Slurm also takes '_'. Anything else breaks the line:
 * blanks end the value, '#' starts a comment, ',' and "[...]" make a
 * hostlist of several nodes, '=' another key; "DEFAULT" is slurm.conf's
 * own word for the defaults of the lines below it. */
static const char *parse_node_name(void *field, const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 253 || s[0] == '-' || s[0] == '.' || strspn(s, "abcdefghijklmnopqrstuvwxyz"
								"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._") != n)
		return N_("needs a Slurm node name: a host name of letters, digits, '-', '.' and '_' (not starting "
			  "with '-' or '.')");
	if (!strcasecmp(s, "DEFAULT"))
		return N_("needs a Slurm node name: DEFAULT is slurm.conf's word for the defaults of all nodes");
	*(const char **)field = s;
	return NULL;
}

static const struct option slurm_options[] = {
	OPT_BOOL(0, "node", struct slurm_opts, node, N_("print only the slurm.conf fragment (NodeName=... Gres=...)")),
	OPT_CALLBACK(0, "node-name", struct slurm_opts, node_name, "NAME",
		     N_("the NodeName to write, a host name of letters, digits, '-', '.' and '_' (default: this "
			"machine's short host name)"), parse_node_name),
	OPT_BOOL(0, "json", struct slurm_opts, json,
		 N_("print {\"gpuwise_version\", \"node_name\", \"gres\": [{\"name\", \"type\", \"files\", \"index\", "
		    "\"mig\", \"uuid\"}], \"node_line\", \"gres_conf\"}")),
	OPT_END()
};

/* Slurm's gpu_common_underscorify_tolower on the NVML name. */
static void slurm_type(char *out, size_t n, const char *name)
{
	size_t k = 0;

	for (; *name && k + 1 < n; name++) {
		char c = *name;

		out[k++] = c == ' ' ? '_' : (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
	}
	out[k] = '\0';
}

/* The nvidia-caps minors of MIG instance (gi, ci) of GPU minor g, by the
 * driver's fixed layout (as /proc/driver/nvidia-caps/mig-minors lists it:
 * 3 + 135 per GPU, 9 per GPU instance, its compute instances after it). */
static unsigned gi_minor(unsigned g, unsigned gi)
{
	return 3 + g * 135 + gi * 9;
}

static unsigned ci_minor(unsigned g, unsigned gi, unsigned ci)
{
	return gi_minor(g, gi) + 1 + ci;
}

size_t slurm_collect(gw_context *ctx, struct gres *out, size_t max, int *skipped)
{
	size_t n = 0;

	*skipped = 0;
	for (int i = 0; i < gw_device_count(ctx) && n < max; i++) {
		const gw_device_info *d = gw_device_get(ctx, i);
		gw_device_sample s;
		char type[GW_STR_MAX + 8];

		if (d->vendor != GW_VENDOR_NVIDIA || d->health != GW_HEALTH_OK || !GW_VALID(d->minor_number) ||
		    !GW_VALID(d->name)) {
			(*skipped)++;
			continue;
		}
		slurm_type(type, sizeof(type), d->name.s);
		if (gw_device_sample_read(ctx, i, &s) == 0 && s.mig_count > 0) {
			for (int m = 0; m < s.mig_count && n < max; m++) {
				const gw_mig_device *g = &s.mig[m];
				const char *profile = GW_VALID(g->name) ? strstr(g->name.s, "MIG ") : NULL;
				unsigned minor = (unsigned)d->minor_number.v;

				if (!GW_VALID(g->gpu_instance_id) || !GW_VALID(g->compute_instance_id))
					continue;
				snprintf(out[n].type, sizeof(out[n].type), "%s_%s", type, profile ? profile + 4 : "mig");
				snprintf(out[n].files, sizeof(out[n].files),
					 "/dev/nvidia%u,/dev/nvidia-caps/nvidia-cap%u,/dev/nvidia-caps/nvidia-cap%u", minor,
					 gi_minor(minor, (unsigned)g->gpu_instance_id.v),
					 ci_minor(minor, (unsigned)g->gpu_instance_id.v, (unsigned)g->compute_instance_id.v));
				out[n].index = i;
				out[n].mig = m;
				snprintf(out[n].uuid, sizeof(out[n].uuid), "%s", GW_VALID(g->uuid) ? g->uuid.s : "");
				n++;
			}
			continue;
		}
		snprintf(out[n].type, sizeof(out[n].type), "%s", type);
		snprintf(out[n].files, sizeof(out[n].files), "/dev/nvidia%llu", (unsigned long long)d->minor_number.v);
		out[n].index = i;
		out[n].mig = -1;
		snprintf(out[n].uuid, sizeof(out[n].uuid), "%s", GW_VALID(d->uuid) ? d->uuid.s : "");
		n++;
	}
	return n;
}

/* "gpu:type_a:2,gpu:type_b:1" in the order the types first appear. */
static void gres_field(char *buf, size_t size, const struct gres *g, size_t n)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int count = 0;
		bool seen = false;

		for (size_t j = 0; j < i; j++)
			seen |= !strcmp(g[j].type, g[i].type);
		if (seen)
			continue;
		for (size_t j = i; j < n; j++)
			count += !strcmp(g[j].type, g[i].type);
		if (k < size)
			k += (size_t)snprintf(buf + k, size - k, "%sgpu:%s:%d", k ? "," : "", g[i].type, count);
	}
}

static void gres_line(char *buf, size_t size, const struct gres *g)
{
	snprintf(buf, size, "Name=gpu Type=%.*s %s=%.*s", (int)sizeof(g->type), g->type,
		 g->mig >= 0 ? "MultipleFiles" : "File", (int)sizeof(g->files), g->files);
}

static void node_name(char *buf, size_t n, const char *given)
{
	if (given) {
		snprintf(buf, n, "%s", given);
		return;
	}
	if (gethostname(buf, n) != 0)
		snprintf(buf, n, "localhost");
	buf[n - 1] = '\0';
	buf[strcspn(buf, ".")] = '\0';
}

static int print_json_doc(const char *node, const struct gres *g, size_t n, const char *field)
{
	gw_json *j = gw_json_new(2);
	char line[1024], *node_line = NULL;
	int rc;

	if (!j)
		return -1;
	json_document_begin(j);
	gw_json_key(j, "node_name");
	gw_json_string(j, node);
	gw_json_key(j, "gres");
	gw_json_array_begin(j);
	for (size_t i = 0; i < n; i++) {
		gw_json_object_begin(j);
		gw_json_key(j, "name");
		gw_json_string(j, "gpu");
		gw_json_key(j, "type");
		gw_json_string(j, g[i].type);
		gw_json_key(j, "files");
		gw_json_string(j, g[i].files);
		json_index_field(j, "index", g[i].index);
		json_index_field(j, "mig", g[i].mig);
		gw_json_key(j, "uuid");
		gw_json_string(j, g[i].uuid);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	gw_json_key(j, "node_line");
	if (n && asprintf(&node_line, "NodeName=%s Gres=%s", node, field) < 0)
		node_line = NULL;
	gw_json_string(j, node_line);
	free(node_line);
	gw_json_key(j, "gres_conf");
	gw_json_array_begin(j);
	for (size_t i = 0; i < n; i++) {
		gres_line(line, sizeof(line), &g[i]);
		gw_json_string(j, line);
	}
	gw_json_array_end(j);
	gw_json_object_end(j);
	rc = print_json(j);
	gw_json_free(j);
	return rc;
}

static void print_conf(const char *node, const struct gres *g, size_t n, const char *field, int skipped)
{
	char line[1024];

	char *head = str_printf(_n("# gres.conf for node %s (gpuwise slurm gres): %zu GPU\n",
				   "# gres.conf for node %s (gpuwise slurm gres): %zu GPUs\n", n), node, n);
	int width = output_width(stdout);

	/* The comments are for people (in their language), wrapped into
	 * more comment lines; the lines for Slurm stay as Slurm reads them. */
	if (head) {
		head[strcspn(head, "\n")] = '\0';
		print_wrapped(stdout, width, "", "# ", head);
		free(head);
	}
	print_wrapped(stdout, width, "", "# ",
		      _("# Types as Slurm's NVML autodetection names them; AutoDetect=off, so these lines are the "
			"truth."));
	if (skipped)
		printf(_n("# %d GPU left out: not an NVIDIA GPU that can be read.\n",
			  "# %d GPUs left out: not an NVIDIA GPU that can be read.\n", skipped), skipped);
	printf("AutoDetect=off\n");
	for (size_t i = 0; i < n; i++) {
		gres_line(line, sizeof(line), &g[i]);
		printf("%s\n", line);
	}
	printf("\n%s\n", _("# slurm.conf (GresTypes=gpu and the node's own line):"));
	printf("# GresTypes=gpu\n");
	printf("# NodeName=%s Gres=%s\n", node, field);
}

/* Names what was typed, and the subcommand meant when it is a typo. */
static void unknown_subcommand(const char *typed)
{
	static const char *const subs[] = { "gres", "prolog", "epilog" };
	const char *best = NULL;
	size_t d = 0;

	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		suggest_closer(typed, strlen(typed), subs[i], &best, &d);
	if (best)
		die_usage("slurm", _("unknown subcommand '%s'; did you mean '%s'? (gres, prolog or epilog)"), typed,
			  best);
	die_usage("slurm", _("unknown subcommand '%s': the subcommands are gres, prolog and epilog (gpuwise slurm "
			     "gres)"), typed);
}

static int cmd_slurm(int argc, char **argv)
{
	struct slurm_opts o = { false, false, NULL };
	struct gres g[512];
	gw_context *ctx;
	char **args, node[256], field[4096];
	int nargs, skipped, rc = 0;
	size_t n;

	nargs = parse_options(&cmd_slurm_def, argc, argv, &o, &args);
	if (nargs == PARSE_HELP)
		return EXIT_OK;
	/* gres is also the default. */
	if (nargs == 1 && !strcmp(args[0], "prolog"))
		return slurm_task_prolog();
	if (nargs == 1 && !strcmp(args[0], "epilog"))
		return slurm_task_epilog();
	if (nargs == 1 && strcmp(args[0], "gres"))
		unknown_subcommand(args[0]);
	if (!(ctx = open_context()))
		return EXIT_FAIL;
	n = slurm_collect(ctx, g, sizeof(g) / sizeof(g[0]), &skipped);
	node_name(node, sizeof(node), o.node_name);
	gres_field(field, sizeof(field), g, n);
	if (!n)
		error_msg(_("no NVIDIA GPU to list for Slurm"));
	else if (o.json)
		rc = print_json_doc(node, g, n, field);
	else if (o.node)
		printf("NodeName=%s Gres=%s\n", node, field);
	else
		print_conf(node, g, n, field, skipped);
	gw_context_free(ctx);
	return !n || rc < 0 ? EXIT_FAIL : EXIT_OK;
}

const struct cmd cmd_slurm_def = {
	.name = "slurm",
	.fn = cmd_slurm,
	.summary = N_("this node's GPUs for Slurm: gres.conf lines and the NodeName Gres= fragment"),
	.options = slurm_options,
	.args = "[gres | prolog | epilog]",
	.max_args = 1,
	.description =
		N_("'gpuwise slurm gres' prints the gres.conf of this node: one 'Name=gpu Type=... File=/dev/nvidiaN' "
		"line per NVIDIA GPU, the type named as Slurm's NVML autodetection names it (the NVML name in lower "
		"case with spaces as underscores, e.g. nvidia_h100_80gb_hbm3), and for a GPU in MIG mode one line per "
		"MIG device with the type <gpu type>_<profile> and MultipleFiles= the GPU's device file and the MIG "
		"instance's two /dev/nvidia-caps files; then, commented, the slurm.conf lines GresTypes=gpu and "
		"'NodeName=<host> Gres=gpu:<type>:<count>,...'. The whole output is a valid gres.conf. --node prints "
		"the NodeName fragment alone, uncommented. Cores= is not written: Slurm numbers cores its own way "
		"(see docs/commands/slurm.md).\n\n"
		"'gpuwise slurm prolog' and 'gpuwise slurm epilog' are slurm.conf's TaskProlog and TaskEpilog (through "
		"the scripts in deploy/slurm/): the prolog starts a sampler of the task's GPUs (SLURM_STEP_GPUS, "
		"SLURM_JOB_GPUS or CUDA_VISIBLE_DEVICES) in the background, the epilog stops it, and the sampler "
		"writes the same row as 'gpuwise run' (GPU-seconds, idle GPU-seconds, mean utilisation, peak memory, "
		"energy) into the accounting log of the pool folder, where 'gpuwise report' counts it."),
	.exit_status = N_("Exit status: 0; 1 when there is no NVIDIA GPU to list (gres), or not in a Slurm task "
		       "(prolog, epilog); 2 on a usage error."),
};

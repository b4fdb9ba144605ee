/* gpuwise explain — find known GPU errors in a message or a whole log and
 * say what causes them and how to fix them; or print the long explanation
 * of a finding id. Input is streamed in chunks, so a 100 MB log costs the
 * same memory as one line. Exit 0 when something matched (or the id is
 * known), 1 when nothing did, 2 on a usage error. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "gpuwise/explain.h"
#include "gpuwise/setup.h"

enum { READ_CHUNK = 1 << 20 };

struct explain_opts {
	bool json;
	bool list;
	bool report;
	int nargs;
	char **args;
};

static const struct option explain_options[] = {
	OPT_BOOL(0, "json", struct explain_opts, json,
		 N_("print {\"gpuwise_version\", \"matches\": [{\"id\", \"title\", \"line\", \"excerpt\", \"cause\", "
		 "\"fix\", \"count\", \"framework\", \"code\", \"library\", \"arch\"}], \"unrecognised\": [{\"line\", \"excerpt\"}], \"lines\"}; for an ID, {\"gpuwise_version\", \"id\", "
		 "\"title\", \"severity\", \"layer\", \"kind\", \"cause\", \"fix\", \"explanation\", \"source\"}")),
	OPT_BOOL(0, "list", struct explain_opts, list, N_("list every finding id with its title")),
	OPT_BOOL(0, "report", struct explain_opts, report,
		 N_("print a text to file as an issue: gpuwise's version, a machine summary, what was recognised "
		 "and the lines not recognised, with home folders, user and host names replaced")),
	OPT_END()
};

/* ---- text output ------------------------------------------------------ */

/* Print text wrapped to the terminal (at most 78 columns: prose reads
 * badly wider), each line starting with indent, the first with indent
 * and `first`. */
static void print_wrapped_at(const char *indent, const char *first, const char *text)
{
	char prefix[64];
	int width = output_width(stdout);

	snprintf(prefix, sizeof(prefix), "%s%s", indent, first);
	print_wrapped(stdout, width > 78 ? 78 : width, prefix, indent, text);
}

static void print_doc(const gw_finding_doc *d)
{
	bool color = use_color(stdout);

	char *head = str_printf("%s%s%s: ", color ? "\033[1m" : "", d->id, color ? "\033[0m" : "");

	print_hanging(stdout, output_width(stdout), head ? head : "", gw_translate(d->title));
	free(head);
	/* severity and layer are identifiers (the JSON's values): not translated */
	printf(_("severity: %s   layer: %s   reported by: %s"), d->severity, d->layer,
	       !strcmp(d->kind, "doctor") ? _("gpuwise doctor and explain") : "gpuwise explain");
	fputs("\n\n", stdout);
	print_wrapped_at("", "", gw_translate(d->explanation));
	putchar('\n');
	print_wrapped_at("  ", _("Cause: "), gw_translate(d->cause));
	print_wrapped_at("  ", _("Fix:   "), gw_translate(d->fix));
	print_wrapped_at("  ", _("Source: "), d->source);
}

static void json_doc_fields(gw_json *j, const gw_finding_doc *d)
{
	gw_json_key(j, "id"); gw_json_string(j, d->id);
	gw_json_key(j, "title"); gw_json_string(j, gw_translate(d->title));
	gw_json_key(j, "severity"); gw_json_string(j, d->severity);
	gw_json_key(j, "layer"); gw_json_string(j, d->layer);
	gw_json_key(j, "kind"); gw_json_string(j, d->kind);
	gw_json_key(j, "cause"); gw_json_string(j, gw_translate(d->cause));
	gw_json_key(j, "fix"); gw_json_string(j, gw_translate(d->fix));
	gw_json_key(j, "explanation"); gw_json_string(j, gw_translate(d->explanation));
	gw_json_key(j, "source"); gw_json_string(j, d->source);
}

static void json_doc(gw_json *j, const gw_finding_doc *d)
{
	gw_json_object_begin(j);
	json_doc_fields(j, d);
	gw_json_object_end(j);
}

static int finish_json(gw_json *j)
{
	int rc = print_json(j);

	gw_json_free(j);
	return rc;
}

static int explain_id(const gw_finding_doc *d, bool json)
{
	gw_json *j;

	if (!json) {
		print_doc(d);
		return EXIT_OK;
	}
	if (!(j = gw_json_new(2))) {
		error_msg(_("out of memory"));
		return EXIT_FAIL;
	}
	json_document_begin(j);
	json_doc_fields(j, d);
	gw_json_object_end(j);
	return finish_json(j) ? EXIT_FAIL : EXIT_OK;
}

/* One row of --list: id, severity, then the title wrapped under itself. */
static void list_row(const gw_finding_doc *d)
{
	char *first = str_printf("%-36s %-8s ", d->id, d->severity);

	print_hanging(stdout, output_width(stdout), first ? first : "", gw_translate(d->title));
	free(first);
}

static int list_ids(bool json)
{
	gw_json *j = NULL;

	if (json) {
		if (!(j = gw_json_new(2))) {
			error_msg(_("out of memory"));
			return EXIT_FAIL;
		}
		json_document_begin(j);
		gw_json_key(j, "findings");
		gw_json_array_begin(j);
	}
	for (size_t i = 0; i < gw_finding_doc_count(); i++) {
		const gw_finding_doc *d = gw_finding_doc_at(i);

		if (j)
			json_doc(j, d);
		else
			list_row(d);
	}
	if (!j)
		return EXIT_OK;
	gw_json_array_end(j);
	gw_json_object_end(j);
	return finish_json(j) ? EXIT_FAIL : EXIT_OK;
}

/* ---- tailoring: who holds GPU memory right now ------------------------ */

static void print_device_memory(gw_context *ctx, int i)
{
	const gw_device_info *d = gw_device_get(ctx, i);
	gw_device_sample s;
	gw_process *procs = NULL;
	size_t n = 0;
	char name[128], used[32], total[32], mem[32];

	if (!device_readable(d) || !GW_VALID(d->memory_total))
		return;            /* e.g. an integrated GPU no backend samples */
	show_str(name, sizeof(name), &d->name);
	show_bytes(total, sizeof(total), &d->memory_total);
	if (gw_device_sample_read(ctx, i, &s) == 0)
		show_bytes(used, sizeof(used), &s.memory_used);
	else
		snprintf(used, sizeof(used), "N/A");
	fputs("    ", stdout);
	printf(_("GPU %d %s: %s of %s used"), d->index, name, used, total);
	putchar('\n');
	if (gw_device_processes(ctx, i, &procs, &n) < 0) {
		char *first = str_printf("      %s", _("processes: cannot be read: "));

		print_hanging(stdout, output_width(stdout), first ? first : "      ", gw_error_last_text());
		free(first);
		return;
	}
	if (!n)
		printf("      %s\n", _("no processes"));
	for (size_t k = 0; k < n; k++) {
		const gw_process *p = &procs[k];
		char *first = str_printf("      pid %-8u %-12s %10s  ", p->pid, p->user[0] ? p->user : "?",
					 show_bytes(mem, sizeof(mem), &p->used_memory));

		print_hanging(stdout, output_width(stdout), first ? first : "      ",
			      p->command[0] ? p->command : _("(not visible here)"));
		free(first);
	}
	gw_processes_free(procs);
}

/* The library only explains the message; what holds memory right now is
 * machine state, so the CLI adds it when a GPU can be read. */
static void print_memory_holders(void)
{
	gw_context *ctx = NULL;
	gw_options opts = GW_OPTIONS_INIT;

	if (gw_context_new(&ctx, &opts) < 0 || !ctx)
		return;
	if (readable_count(ctx) > 0) {
		printf("  %s\n", _("GPU memory on this machine now:"));
		for (int i = 0; i < gw_device_count(ctx); i++)
			print_device_memory(ctx, i);
	}
	gw_context_free(ctx);
}

/* ---- matches ---------------------------------------------------------- */

/* The status code that named the error: its name, number and library,
 * and the text the library prints for it. */
static void print_code(const gw_status_code *c)
{
	char *text = strcmp(c->description, "-")
		? str_printf("%s = %ld (%s): %s", c->name, c->number, c->library, c->description)
		: str_printf("%s = %ld (%s)", c->name, c->number, c->library);

	print_wrapped_at("    ", _("Code:  "), text ? text : c->name);
	free(text);
}

static void json_code(gw_json *j, const gw_status_code *c)
{
	gw_json_key(j, "code");
	gw_json_object_begin(j);
	gw_json_key(j, "library"); gw_json_string(j, c->library);
	gw_json_key(j, "name"); gw_json_string(j, c->name);
	gw_json_key(j, "number"); gw_json_int(j, c->number);
	gw_json_key(j, "description"); gw_json_string(j, c->description);
	gw_json_object_end(j);
}

/* "pip X; apt Y": the tool's name (a command, never translated) and what
 * it installs, appended to buf when the table names a package. */
static void add_provider(char *buf, size_t size, const char *tool, const char *package)
{
	size_t len = strlen(buf);

	if (!strcmp(package, "-") || len >= size)
		return;
	snprintf(buf + len, size - len, "%s%s %s", len ? "; " : "", tool, package);
}

/* What the missing-library rule found: the library, its component and
 * version, and the packages that provide it. */
static void print_library(const gw_explain_library *l)
{
	char *text = strcmp(l->implies, "-") ? str_printf("%s: %s, %s", l->name, l->component, l->implies)
					     : str_printf("%s: %s", l->name, l->component);
	char from[512] = "";

	add_provider(from, sizeof(from), "pip", l->pip);
	add_provider(from, sizeof(from), "apt", l->deb);
	add_provider(from, sizeof(from), "conda", l->conda);
	print_wrapped_at("    ", _("Library: "), text ? text : l->name);
	if (*from)
		print_wrapped_at("    ", _("From:  "), from);
	free(text);
}

static const char *verdict_text(int verdict)
{
	switch (verdict) {
	case GW_ARCH_GPU_NEWER: return _("the GPU is newer than every target of the build: install a build that has it");
	case GW_ARCH_GPU_OLDER: return _("the GPU is older than every target of the build: the library no longer supports it; use an older release that has it, or a newer GPU");
	case GW_ARCH_NOT_IN_BUILD: return _("the build has no code for the GPU's target");
	case GW_ARCH_IN_BUILD: return _("the build has code for this target");
	default: return NULL;
	}
}

static const char *verdict_key(int verdict)
{
	static const char *const keys[] = { "unknown", "gpu-newer", "gpu-older", "not-in-build", "in-build" };

	return verdict >= 0 && verdict <= GW_ARCH_IN_BUILD ? keys[verdict] : "unknown";
}

/* The GPUs of this machine against the build's targets, when explain runs
 * where it can read them. */
static void machine_targets(const gw_explain_arch *a, gw_json *j)
{
	gw_context *ctx = NULL;
	gw_options opts = GW_OPTIONS_INIT;

	if (j) {
		gw_json_key(j, "this_machine");
		gw_json_array_begin(j);
	}
	if (gw_context_new(&ctx, &opts) == 0 && ctx) {
		for (int i = 0; i < gw_device_count(ctx); i++) {
			const gw_device_info *d = gw_device_get(ctx, i);
			char target[sizeof(d->gfx_target.s) + 8], name[128];
			int runs;

			if (!device_readable(d))
				continue;
			show_str(name, sizeof(name), &d->name);
			if (GW_VALID(d->gfx_target) && d->gfx_target.s[0])
				snprintf(target, sizeof(target), "%s", d->gfx_target.s);
			else if (GW_VALID(d->cc_major) && GW_VALID(d->cc_minor) && d->cc_major.v)
				snprintf(target, sizeof(target), "sm_%llu%llu", (unsigned long long)d->cc_major.v,
					 (unsigned long long)d->cc_minor.v);
			else
				continue;
			runs = gw_explain_arch_runs(a, target);
			if (j) {
				gw_json_object_begin(j);
				gw_json_key(j, "index"); gw_json_int(j, d->index);
				gw_json_key(j, "name"); gw_json_string(j, name);
				gw_json_key(j, "target"); gw_json_string(j, target);
				gw_json_key(j, "in_build");
				if (runs < 0)
					gw_json_null(j);
				else
					gw_json_bool(j, runs == 1);
				gw_json_object_end(j);
				continue;
			}
			char *text = str_printf(runs < 0 ? _("GPU %d %s: %s") : runs ? _("GPU %d %s: %s, in the build")
										      : _("GPU %d %s: %s, not in the build"),
						d->index, name, target);
			print_wrapped_at("    ", _("Here:  "), text ? text : target);
			free(text);
		}
		gw_context_free(ctx);
	}
	if (j)
		gw_json_array_end(j);
}

/* What the architecture rule read: the GPU's target against the build's. */
/* The target a compiler refused, and which CUDA releases know it
 * (data/cuda_toolkit_arch.tsv): newer than the toolkit, or dropped by it. */
static void print_target(const gw_explain_arch *a)
{
	bool first = a->target_first[0] && strcmp(a->target_first, "-");
	bool dropped = a->target_dropped[0] && strcmp(a->target_dropped, "-");
	char *text;

	if (first && dropped)
		text = str_printf(_("%s: known from CUDA %s, dropped in CUDA %s"), a->target, a->target_first,
				  a->target_dropped);
	else if (first)
		text = str_printf(_("%s needs CUDA %s or newer: the toolkit (or Triton's ptxas) is older than the target"),
				  a->target, a->target_first);
	else if (dropped)
		text = str_printf(_("%s was dropped in CUDA %s: the toolkit is newer than the target"), a->target,
				  a->target_dropped);
	else
		text = str_printf("%s", a->target);
	print_wrapped_at("    ", _("Target: "), text ? text : a->target);
	free(text);
}

static void print_arch(const gw_explain_arch *a)
{
	const char *verdict = verdict_text(a->verdict);

	if (a->target[0])
		print_target(a);
	if (!a->gpu[0] && !a->build[0])
		return;
	if (a->gpu[0]) {
		char *text = verdict ? str_printf("%s (%s)", a->gpu, verdict) : str_printf("%s", a->gpu);

		print_wrapped_at("    ", _("GPU:   "), text ? text : a->gpu);
		free(text);
	}
	if (a->build[0])
		print_wrapped_at("    ", _("Build: "), a->build);
	if (a->torch_builds[0] && a->verdict != GW_ARCH_IN_BUILD) {
		char *text = str_printf(_("PyTorch wheels with code for %s: %s"), a->gpu, a->torch_builds);

		print_wrapped_at("    ", _("Has it: "), text ? text : a->torch_builds);
		free(text);
	}
	machine_targets(a, NULL);
}

static void json_library(gw_json *j, const gw_explain_library *l)
{
	gw_json_key(j, "library");
	gw_json_object_begin(j);
	gw_json_key(j, "name"); gw_json_string(j, l->name);
	gw_json_key(j, "component"); gw_json_string(j, l->component);
	gw_json_key(j, "implies"); gw_json_string(j, l->implies);
	gw_json_key(j, "pip"); gw_json_string(j, l->pip);
	gw_json_key(j, "deb"); gw_json_string(j, l->deb);
	gw_json_key(j, "conda"); gw_json_string(j, l->conda);
	gw_json_key(j, "source"); gw_json_string(j, l->source);
	gw_json_object_end(j);
}

static void json_arch(gw_json *j, const gw_explain_arch *a)
{
	if (!a->gpu[0] && !a->build[0] && !a->target[0])
		return;
	gw_json_key(j, "arch");
	gw_json_object_begin(j);
	gw_json_key(j, "target"); gw_json_string(j, a->target);
	gw_json_key(j, "target_first_cuda"); gw_json_string(j, a->target_first);
	gw_json_key(j, "target_dropped_in_cuda"); gw_json_string(j, a->target_dropped);
	gw_json_key(j, "gpu"); gw_json_string(j, a->gpu);
	gw_json_key(j, "build"); gw_json_string(j, a->build);
	gw_json_key(j, "verdict"); gw_json_string(j, verdict_key(a->verdict));
	gw_json_key(j, "torch_builds"); gw_json_string(j, a->torch_builds);
	machine_targets(a, j);
	gw_json_object_end(j);
}

static void print_matches(const gw_explainer *ex)
{
	bool color = use_color(stdout);
	size_t n = gw_explainer_count(ex);

	for (size_t i = 0; i < n; i++) {
		const gw_explain_match *m = gw_explainer_match(ex, i);
		char more[48] = "";

		if (m->count > 1)
			snprintf(more, sizeof(more), _n(", %llu line", ", %llu lines", m->count),
				 (unsigned long long)m->count);
		char *head = str_printf("%s%s%s: ", color ? "\033[1;31m" : "", m->doc->id, color ? "\033[0m" : "");
		char *title = str_printf(_("%s (line %llu%s)"), gw_translate(m->doc->title), (unsigned long long)m->line, more);

		print_hanging(stdout, output_width(stdout), head ? head : "", title ? title : gw_translate(m->doc->title));
		free(head);
		free(title);
		/* The log's own line, wrapped under the quote mark. */
		print_hanging(stdout, output_width(stdout), "  > ", m->excerpt);
		if (m->code)
			print_code(m->code);
		if (m->library)
			print_library(m->library);
		if (m->arch)
			print_arch(m->arch);
		print_wrapped_at("    ", _("Cause: "), gw_translate(m->doc->cause));
		print_wrapped_at("    ", _("Fix:   "), gw_translate(m->doc->fix));
		printf("    %sgpuwise explain %s\n", _("More:  "), m->doc->id);
		/* Both are "not enough GPU memory": who holds it decides the fix. */
		if (!strcmp(m->doc->id, "cuda-out-of-memory") || !strcmp(m->doc->id, "kv-cache-no-memory"))
			print_memory_holders();
		if (i + 1 < n)
			putchar('\n');
	}
}

static int json_matches(const gw_explainer *ex)
{
	gw_json *j = gw_json_new(2);

	if (!j) {
		error_msg(_("out of memory"));
		return EXIT_FAIL;
	}
	json_document_begin(j);
	gw_json_key(j, "matches");
	gw_json_array_begin(j);
	for (size_t i = 0; i < gw_explainer_count(ex); i++) {
		const gw_explain_match *m = gw_explainer_match(ex, i);
		gw_json_object_begin(j);
		gw_json_key(j, "id"); gw_json_string(j, m->doc->id);
		gw_json_key(j, "title"); gw_json_string(j, gw_translate(m->doc->title));
		gw_json_key(j, "line"); gw_json_uint(j, m->line);
		gw_json_key(j, "excerpt"); gw_json_string(j, m->excerpt);
		gw_json_key(j, "cause"); gw_json_string(j, gw_translate(m->doc->cause));
		gw_json_key(j, "fix"); gw_json_string(j, gw_translate(m->doc->fix));
		gw_json_key(j, "count"); gw_json_uint(j, m->count);
		gw_json_key(j, "framework"); gw_json_string(j, m->framework);
		gw_json_key(j, "severity"); gw_json_string(j, m->doc->severity);
		if (m->code)
			json_code(j, m->code);
		if (m->library)
			json_library(j, m->library);
		if (m->arch)
			json_arch(j, m->arch);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	gw_json_key(j, "unrecognised");
	gw_json_array_begin(j);
	for (size_t i = 0; i < gw_explainer_unrecognised_count(ex); i++) {
		const gw_explain_unrecognised *u = gw_explainer_unrecognised(ex, i);
		gw_json_object_begin(j);
		gw_json_key(j, "line"); gw_json_uint(j, u->line);
		gw_json_key(j, "excerpt"); gw_json_string(j, u->excerpt);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
	gw_json_key(j, "lines"); gw_json_uint(j, gw_explainer_lines(ex));
	gw_json_object_end(j);
	return finish_json(j) ? EXIT_FAIL : EXIT_OK;
}

/* Lines that look like GPU errors but that nothing recognised: shown so
 * the user knows explain looked, and can report them. */
static void print_unrecognised(const gw_explainer *ex)
{
	size_t n = gw_explainer_unrecognised_count(ex);

	if (!n)
		return;
	printf("%s\n", _("not recognised: these lines look like GPU errors, but gpuwise knows none of them:"));
	for (size_t i = 0; i < n; i++) {
		const gw_explain_unrecognised *u = gw_explainer_unrecognised(ex, i);
		char *first = str_printf(_("  line %llu: "), (unsigned long long)u->line);

		print_hanging(stdout, output_width(stdout), first ? first : "  ", u->excerpt);
		free(first);
	}
}


/* ---- --report: a text to file as an issue ----------------------------- */

/* What a report must not show: this user's home folder, login names and
 * host name. Log lines from other machines are scrubbed by shape too:
 * /home/NAME, /Users/NAME, C:\Users\NAME and user@host. */
struct scrub {
	char home[512];
	char users[2][64];
	char hosts[2][256];    /* the host name and its first label */
};

static void scrub_init(struct scrub *sc)
{
	const char *home = getenv("HOME"), *user = getenv("USER");
	struct passwd *pw = getpwuid(getuid());
	char *dot;

	memset(sc, 0, sizeof(*sc));
	if (home && strlen(home) > 1 && strlen(home) < sizeof(sc->home))
		snprintf(sc->home, sizeof(sc->home), "%s", home);
	/* "root" and very short names are common words of logs, not secrets. */
	if (user && strlen(user) >= 3 && strcmp(user, "root"))
		snprintf(sc->users[0], sizeof(sc->users[0]), "%s", user);
	if (pw && pw->pw_name && strlen(pw->pw_name) >= 3 && strcmp(pw->pw_name, "root"))
		snprintf(sc->users[1], sizeof(sc->users[1]), "%s", pw->pw_name);
	/* A host name is replaced however short it is ("gw", "n1"): unlike
	 * a login name it identifies the machine. Only whole names are. */
	if (gethostname(sc->hosts[0], sizeof(sc->hosts[0]) - 1) != 0 || !strcmp(sc->hosts[0], "localhost"))
		sc->hosts[0][0] = '\0';
	snprintf(sc->hosts[1], sizeof(sc->hosts[1]), "%s", sc->hosts[0]);
	if ((dot = strchr(sc->hosts[1], '.')))
		*dot = '\0';
	if (!strcmp(sc->hosts[1], sc->hosts[0]))
		sc->hosts[1][0] = '\0';
}

static bool name_byte(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* The length of a user@host at s (user starting with a letter, a host
 * with a letter in it: not "cuda@12.1"), else 0. */
static size_t user_at_host(const char *s)
{
	size_t i = 0, at, j;
	bool letter = false;

	if (!isalpha((unsigned char)s[0]))
		return 0;
	while (name_byte(s[i]))
		i++;
	if (s[i] != '@')
		return 0;
	at = i++;
	for (j = i; name_byte(s[j]); j++)
		letter = letter || isalpha((unsigned char)s[j]);
	return at && j > i && letter ? j : 0;
}

/* Does word (a whole name: no name byte on either side) start at s? */
static bool word_at(const char *line, const char *s, const char *word)
{
	size_t n = strlen(word);

	return n && !strncmp(s, word, n) && !(s > line && name_byte(s[-1])) && !name_byte(s[n]);
}

/* Copy in to out (cap bytes) with the private parts replaced. */
static void scrub_line(const struct scrub *sc, const char *in, char *out, size_t cap)
{
	static const char *const homes[] = { "/home/", "/Users/", "\\Users\\", "\\\\Users\\\\" };
	size_t o = 0, hl = strlen(sc->home);

#define PUT(str) do { const char *p_ = (str); while (*p_ && o + 1 < cap) out[o++] = *p_++; } while (0)
	for (const char *s = in; *s && o + 1 < cap;) {
		size_t k, n;
		bool done = false;

		if (hl && !strncmp(s, sc->home, hl) && !name_byte(s[hl])) {
			PUT("~");
			s += hl;
			continue;
		}
		for (k = 0; k < sizeof(homes) / sizeof(homes[0]) && !done; k++) {
			n = strlen(homes[k]);
			if (strncasecmp(s, homes[k], n) || !name_byte(s[n]))
				continue;
			PUT(homes[k]);
			PUT("USER");
			s += n;
			if (k >= 2) {      /* a Windows name may hold spaces: up to the next '\' */
				const char *e = s;

				while (name_byte(*e) || *e == ' ' || *e == '%')
					e++;
				if (*e == '\\')
					s = e;
			}
			while (name_byte(*s))
				s++;
			done = true;
		}
		if (done)
			continue;
		if ((s == in || !name_byte(s[-1])) && (n = user_at_host(s))) {
			PUT("USER@HOST");
			s += n;
			continue;
		}
		for (k = 0; k < 2 && !done; k++)
			if (word_at(in, s, sc->users[k])) {
				PUT("USER");
				s += strlen(sc->users[k]);
				done = true;
			} else if (word_at(in, s, sc->hosts[k])) {
				PUT("HOST");
				s += strlen(sc->hosts[k]);
				done = true;
			}
		if (!done)
			out[o++] = *s++;
	}
#undef PUT
	out[o] = '\0';
}

/* The machine in a few lines: no user, path or host name. */
static void report_machine(void)
{
	gw_setup_options opts = GW_SETUP_OPTIONS_INIT;
	gw_setup_plan *plan = NULL;
	const gw_setup_machine *m;
	struct utsname u;

	if (uname(&u) == 0)
		printf(_("System:  %s %s %s"), u.sysname, u.release, u.machine);
	else
		printf(_("System:  %s"), "?");
	putchar('\n');
	if (gw_setup_plan_make(&plan, &opts) < 0 || !(m = gw_setup_plan_machine(plan))) {
		printf(_("Machine: cannot be read: %s"), gw_error_last_text());
		putchar('\n');
		gw_setup_plan_free(plan);
		return;
	}
	if (m->os_name[0])
		printf(_("OS:      %s\n"), m->os_name);
	if (m->driver[0])
		printf(_("Driver:  NVIDIA %s (CUDA %s)\n"), m->driver, m->driver_cuda[0] ? m->driver_cuda : "?");
	else
		printf(_("Driver:  no NVIDIA driver loaded\n"));
	if (m->rocm[0])
		printf(_("ROCm:    %s\n"), m->rocm);
	if (!m->ngpus)
		printf(_("GPUs:    none found\n"));
	for (size_t i = 0; i < m->ngpus; i++)
		printf(_("GPU %zu:   %s (%s)\n"), i, m->gpus[i].name, m->gpus[i].arch[0] ? m->gpus[i].arch : "?");
	gw_setup_plan_free(plan);
}

/* A text to paste into an issue: what explain made of the input and
 * where it ran, with home folders, user and host names replaced. */
static void print_report(const gw_explainer *ex)
{
	struct scrub sc;
	char line[GW_EXPLAIN_EXCERPT_MAX * 2];
	size_t n = gw_explainer_count(ex), nu = gw_explainer_unrecognised_count(ex);

	scrub_init(&sc);
	printf("%s\n\n", _("## gpuwise explain report"));
	printf(_("gpuwise: %s"), gw_version());
	putchar('\n');
	report_machine();
	printf(_("Lines read: %llu"), (unsigned long long)gw_explainer_lines(ex));
	fputs("\n\n", stdout);
	printf(_("Recognised: %zu"), n);
	putchar('\n');
	for (size_t i = 0; i < n; i++) {
		const gw_explain_match *m = gw_explainer_match(ex, i);

		scrub_line(&sc, m->excerpt, line, sizeof(line));
		printf("  %s, ", m->doc->id);
		printf(_("line %llu: %s"), (unsigned long long)m->line, line);
		putchar('\n');
	}
	printf(_("Not recognised: %zu (lines that look like GPU errors but match no id)"), nu);
	putchar('\n');
	for (size_t i = 0; i < nu; i++) {
		const gw_explain_unrecognised *u = gw_explainer_unrecognised(ex, i);

		scrub_line(&sc, u->excerpt, line, sizeof(line));
		fputs("  ", stdout);
		printf(_("line %llu: %s"), (unsigned long long)u->line, line);
		putchar('\n');
	}
	printf("\n%s\n", _("Home folders, user and host names were replaced (~, USER, HOST); check the text before "
			 "you file it."));
}

static int report(const gw_explainer *ex, bool json, bool as_report)
{
	int rc = EXIT_OK;

	if (as_report) {
		print_report(ex);
		return gw_explainer_count(ex) ? EXIT_OK : EXIT_FAIL;
	}
	if (json)
		rc = json_matches(ex);
	else if (gw_explainer_count(ex))
		print_matches(ex);
	else
		print_unrecognised(ex);
	if (rc == EXIT_OK && !gw_explainer_count(ex)) {
		error_msg(_("no known GPU error found"));
		rc = EXIT_FAIL;
	}
	return rc;
}

/* ---- input ------------------------------------------------------------ */

static int scan_fd(gw_explainer *ex, int fd, const char *name)
{
	char *buf = malloc(READ_CHUNK);
	ssize_t n;

	if (!buf) {
		error_msg(_("out of memory"));
		return -1;
	}
	for (;;) {
		n = read(fd, buf, READ_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		gw_explainer_feed(ex, buf, (size_t)n);
	}
	free(buf);
	if (n < 0) {
		error_msg(_("cannot read '%s': %s"), name, strerror(errno));
		return -1;
	}
	gw_explainer_finish(ex);
	return 0;
}

static int scan_file(gw_explainer *ex, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int rc;

	if (fd < 0) {
		error_msg(_("cannot read '%s': %s"), path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		error_msg(_("'%s' is a directory"), path);
		close(fd);
		return -1;
	}
	rc = scan_fd(ex, fd, path);
	close(fd);
	return rc;
}

static int scan_words(gw_explainer *ex, int n, char **words)
{
	for (int i = 0; i < n; i++) {
		if (i)
			gw_explainer_feed(ex, " ", 1);
		gw_explainer_feed(ex, words[i], strlen(words[i]));
	}
	gw_explainer_finish(ex);
	return 0;
}

/* Something is at this path, even if it cannot be read: a dangling
 * symlink or a symlink loop is a file the user meant, not text. */
static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static bool is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcasecmp(s + n - k, suffix);
}

/* One word that names a file rather than an error message: it has a '/' or
 * a log's extension. Read as text it would silently match nothing. */
static bool looks_like_path(const char *arg)
{
	if (!*arg || strpbrk(arg, " \t\r\n"))
		return false;
	return strchr(arg, '/') || ends_with(arg, ".log") || ends_with(arg, ".txt") ||
	       ends_with(arg, ".out") || ends_with(arg, ".err");
}

static int cmd_explain(int argc, char **argv)
{
	struct explain_opts o;
	gw_explainer *ex = NULL;
	const gw_finding_doc *doc;
	int rc;

	memset(&o, 0, sizeof(o));
	if ((o.nargs = parse_options(&cmd_explain_def, argc, argv, &o, &o.args)) == PARSE_HELP)
		return EXIT_OK;
	if (o.list) {
		if (o.nargs || o.report)
			die_usage("explain", _("--list takes no input"));
		return list_ids(o.json);
	}
	if (o.report && o.json)
		die_usage("explain", _("--report and --json cannot be combined"));
	if (!o.nargs && isatty(STDIN_FILENO))
		die_usage("explain", _("give an error message, a log FILE, '-' for standard input, or a finding ID"));
	if (o.nargs == 1 && !o.report && strcmp(o.args[0], "-") && !exists(o.args[0]) &&
	    (doc = gw_finding_doc_get(o.args[0])))
		return explain_id(doc, o.json);
	/* A FILE that cannot be read is an error, never text that matched
	 * nothing: the user must see that the log was not read. */
	if (o.nargs == 1 && strcmp(o.args[0], "-") && !exists(o.args[0]) && looks_like_path(o.args[0])) {
		error_msg(_("cannot read '%s': %s"), o.args[0], strerror(ENOENT));
		return EXIT_FAIL;
	}
	for (int i = 0; o.nargs > 1 && i < o.nargs; i++)
		if (is_regular_file(o.args[i]))
			die_usage("explain", _("'%s' is a file: explain reads one FILE (several: cat FILE... | gpuwise explain -)"),
				  o.args[i]);
	if (gw_explainer_new(&ex) < 0) {
		error_msg("%s", gw_error_last_text());
		return EXIT_FAIL;
	}
	if (!o.nargs || (o.nargs == 1 && !strcmp(o.args[0], "-")))
		rc = scan_fd(ex, STDIN_FILENO, "standard input");
	else if (o.nargs == 1 && exists(o.args[0]))
		rc = scan_file(ex, o.args[0]);
	else
		rc = scan_words(ex, o.nargs, o.args);
	rc = rc < 0 ? EXIT_FAIL : report(ex, o.json, o.report);
	gw_explainer_free(ex);
	return rc;
}

const struct cmd cmd_explain_def = {
	.name = "explain",
	.fn = cmd_explain,
	.summary = N_("find known GPU errors in a message or log; cause and fix"),
	.options = explain_options,
	.args = "[TEXT... | - | FILE | ID]",
	.max_args = -1,
	.flags = CMD_TEXT_ARGS,
	.description =
		N_("Find every known GPU error in an error message or a whole log and print, for each, what it "
		"means, its likely cause and the fix. Matching uses the stable parts of each message, so it "
		"works across framework versions: PyTorch, TensorFlow, JAX/XLA, CuPy, CUDA, NCCL, cuDNN, "
		"cuBLAS, ROCm, the NVIDIA driver and kernel log (Xid). Each error is reported once, at its "
		"first line, with the number of lines where it occurs.\n"
		"\n"
		"  gpuwise explain 'RuntimeError: CUDA error: device-side assert triggered'\n"
		"  gpuwise explain train.log\n"
		"  python train.py 2>&1 | gpuwise explain -\n"
		"  gpuwise explain cuda-out-of-memory      long explanation of a finding id\n"
		"\n"
		"An argument is read as a FILE when such a file exists, else as a finding ID (any id of "
		"gpuwise doctor or explain) when it is one, else as TEXT; several words are joined into one "
		"text. A FILE that cannot be read, or one word with a '/' or ending in .log, .txt, .out or "
		".err that names no file, is an error (exit 1), never text. "
		"'-' (or no argument with stdin not a terminal) reads standard input. For an "
		"out-of-memory error, when a GPU can be read, the memory each process holds on each GPU is "
		"shown.\n"
		"\n"
		"With --report it prints, instead, a text to file as an issue: gpuwise's version, this machine "
		"(kernel, OS, driver, GPUs), what was recognised and the lines that look like GPU errors but "
		"match no id, with the home folder, /home/NAME and similar paths, user names, user@host and "
		"this machine's host name replaced by ~, USER and HOST:\n"
		"\n"
		"  gpuwise explain --report train.log > report.txt"),
	.exit_status = N_("Exit status: 0 when a known error was found (or the ID exists), 1 when none was (with "
		       "--report too, after the report), 2 on a usage error."),
};

/* Option tables: parsing and help from one description. See options.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands.h"
#include "options.h"
#include "output.h"

static const struct option help_option = { OPT_T_BOOL, 'h', "help", 0, NULL, N_("show this help"), 0, NULL };

/* "'-i'" or "'--id'" as the user wrote it, for messages. */
static const char *spelled(char *buf, size_t n, const struct option *o, bool as_long)
{
	if (as_long || !o->short_name)
		snprintf(buf, n, "--%s", o->long_name);
	else
		snprintf(buf, n, "-%c", o->short_name);
	return buf;
}

static const struct option *find_long(const struct option *opts, const char *name, size_t len)
{
	if (len == 4 && !strncmp(name, "help", 4))
		return &help_option;
	for (const struct option *o = opts; o && o->type != OPT_T_END; o++)
		if (o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
			return o;
	return NULL;
}

/* "unknown option '--jsn'", with the option meant when it looks like a
 * typo of one of the command's. */
static void unknown_long(const struct cmd *cmd, const char *a, size_t len)
{
	const char *best = NULL;
	size_t d = 0;

	for (const struct option *o = cmd->options; o && o->type != OPT_T_END; o++)
		suggest_closer(a + 2, len, o->long_name, &best, &d);
	suggest_closer(a + 2, len, "help", &best, &d);
	if (best)
		die_usage(cmd->name, _("unknown option '%.*s'; did you mean '--%s'?"), (int)(len + 2), a, best);
	die_usage(cmd->name, _("unknown option '%.*s'"), (int)(len + 2), a);
}

static const struct option *find_short(const struct option *opts, char c)
{
	if (c == 'h')
		return &help_option;
	for (const struct option *o = opts; o && o->type != OPT_T_END; o++)
		if (o->short_name && o->short_name == c)
			return o;
	return NULL;
}

enum { MAX_OPTIONS = 64 };

/* One parse: where values go, and the value each single-valued option got. */
struct parse_state {
	const struct cmd *cmd;
	void *opts;
	const char *given[MAX_OPTIONS];
};

/* Store one value (arg is NULL for a flag). Usage errors exit. */
static void store(struct parse_state *st, const struct option *o, bool as_long, const char *arg)
{
	const struct cmd *cmd = st->cmd;
	char *field = (char *)st->opts + o->offset;
	ptrdiff_t slot = o - cmd->options;
	char name[64];
	const char *why;

	spelled(name, sizeof(name), o, as_long);
	if (o->argh && (!arg || !*arg))
		die_usage(cmd->name, _("option '%s' needs a value (%s %s)"), name, name, o->argh);
	if (o->argh && o->type != OPT_T_LIST && slot >= 0 && slot < MAX_OPTIONS) {
		if (st->given[slot])
			die_usage(cmd->name, _("option '%s' given twice ('%s', then '%s'); it takes one value"), name,
				  st->given[slot], arg);
		st->given[slot] = arg;
	}
	switch (o->type) {
	case OPT_T_BOOL:
		*(bool *)field = true;
		break;
	case OPT_T_STRING:
		*(const char **)(void *)field = arg;
		break;
	case OPT_T_LIST: {
		struct opt_list *l = (struct opt_list *)(void *)field;

		if (l->n == OPT_LIST_MAX)
			die_usage(cmd->name, _("option '%s' given more than %d times"), name, OPT_LIST_MAX);
		l->v[l->n++] = arg;
		break;
	}
	case OPT_T_CALLBACK:
		if ((why = o->cb(field, arg)))
			die_usage(cmd->name, _("option '%s' %s"), name, _(why));
		break;
	case OPT_T_END:
		break;
	}
}

/* One argument that starts with '-' (and is not "-" or "--"): a long
 * option, or a bundle of short ones. Returns true when it was -h/--help.
 * *i advances past a value taken from the next argument. */
static bool parse_one(struct parse_state *st, int argc, char **argv, int *i)
{
	const struct cmd *cmd = st->cmd;
	const char *a = argv[*i];

	if (a[1] == '-') {
		const char *name = a + 2, *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		const struct option *o = find_long(cmd->options, name, len);

		if (!o)
			unknown_long(cmd, a, len);
		if (o == &help_option)
			return true;
		if (!o->argh && eq)
			die_usage(cmd->name, _("option '--%s' takes no value"), o->long_name);
		if (o->argh && !eq) {
			if (*i + 1 >= argc)
				die_usage(cmd->name, _("option '--%s' needs a value (--%s %s)"), o->long_name,
					  o->long_name, o->argh);
			store(st, o, true, argv[++*i]);
		} else {
			store(st, o, true, eq ? eq + 1 : NULL);
		}
		return false;
	}
	for (const char *p = a + 1; *p; p++) {
		const struct option *o = find_short(cmd->options, *p);

		if (!o) {
			if (p == a + 1)
				die_usage(cmd->name, _("unknown option '%s'"), a);
			die_usage(cmd->name, _("unknown option '-%c' in '%s'"), *p, a);
		}
		if (o == &help_option)
			return true;
		if (!o->argh) {
			store(st, o, false, NULL);
			continue;
		}
		/* -i0 (like nvidia-smi) or -i 0: the value ends the bundle */
		if (p[1]) {
			store(st, o, false, p + 1);
		} else {
			if (*i + 1 >= argc)
				die_usage(cmd->name, _("option '-%c' needs a value (-%c %s)"), *p, *p, o->argh);
			store(st, o, false, argv[++*i]);
		}
		break;
	}
	return false;
}

static bool is_option(const char *a)
{
	return a[0] == '-' && a[1] && strcmp(a, "--");
}

/* A flag of the table spelled exactly (explain's trailing --json). */
static bool is_trailing_flag(const struct cmd *cmd, const char *a)
{
	const struct option *o;

	if (!strcmp(a, "-h") || !strcmp(a, "--help"))
		return true;
	if (a[0] != '-')
		return false;
	o = a[1] == '-' ? find_long(cmd->options, a + 2, strlen(a + 2))
			: (a[1] && !a[2] ? find_short(cmd->options, a[1]) : NULL);
	return o && !o->argh;
}

int parse_options(const struct cmd *cmd, int argc, char **argv, void *opts, char ***args)
{
	struct parse_state st = { .cmd = cmd, .opts = opts };
	int nargs = 0, i, end = argc;
	bool help = false;

	if (cmd->flags & CMD_TEXT_ARGS)
		/* free text: flags may close the line, the words before are text */
		while (end > 1 && is_trailing_flag(cmd, argv[end - 1]))
			end--;
	for (i = 1; i < argc; i++) {
		char *a = argv[i];

		if (i >= end) {
			int one = i; /* a trailing flag of a CMD_TEXT_ARGS command */

			help |= parse_one(&st, argc, argv, &one);
			continue;
		}
		if (nargs && (cmd->flags & CMD_COMMAND_ARGS)) {
			argv[1 + nargs++] = a; /* the command's own words, "--" included */
			continue;
		}
		if (!strcmp(a, "--")) {
			for (i++; i < end; i++)
				argv[1 + nargs++] = argv[i];
			i = end - 1;
			continue;
		}
		if (is_option(a) && !(nargs && (cmd->flags & CMD_TEXT_ARGS))) {
			help |= parse_one(&st, argc, argv, &i);
			continue;
		}
		argv[1 + nargs++] = a; /* keeps order: 1 + nargs <= i */
	}
	if (help) {
		print_command_help(stdout, cmd, output_width(stdout));
		return PARSE_HELP;
	}
	if (cmd->max_args >= 0 && nargs > cmd->max_args)
		die_usage(cmd->name, _("unexpected argument '%s'"), argv[1 + cmd->max_args]);
	*args = argv + 1;
	return nargs;
}

/* ---- help ---------------------------------------------------------------- */

/* "[-i SEL]", "[--json]", "[--python-env PREFIX]..." */
static void synopsis_part(char *buf, size_t n, const struct option *o)
{
	char name[64];

	spelled(name, sizeof(name), o, false);
	snprintf(buf, n, "[%s%s%s]%s", name, o->argh ? " " : "", o->argh ? o->argh : "",
		 o->type == OPT_T_LIST ? "..." : "");
}

const char *command_synopsis(char *buf, size_t n, const struct cmd *cmd)
{
	size_t len;

	snprintf(buf, n, "gpuwise %s", cmd->name);
	for (const struct option *o = cmd->options; o && o->type != OPT_T_END; o++) {
		char part[96];

		if (o->flags & OPT_HIDDEN)
			continue;
		synopsis_part(part, sizeof(part), o);
		len = strlen(buf);
		snprintf(buf + len, n - len, " %s", part);
	}
	if (cmd->args) {
		len = strlen(buf);
		snprintf(buf + len, n - len, " %s", cmd->args);
	}
	return buf;
}

/* The synopsis wrapped between its parts, never inside "[--timeout SECONDS]". */
static void print_synopsis(FILE *out, const struct cmd *cmd, int width)
{
	char head[64], part[96], first[128];
	int indent, col;

	/* The indent in display cells: "用法：" is 6 cells, 9 bytes. */
	snprintf(first, sizeof(first), _("usage: gpuwise %s"), cmd->name);
	fputs(first, out);
	col = indent = text_columns(first, strlen(first));
	snprintf(head, sizeof(head), "%*s", indent < 60 ? indent : 60, "");
	for (const struct option *o = cmd->options;; o++) {
		const char *text = part;

		if (o && o->type != OPT_T_END) {
			if (o->flags & OPT_HIDDEN)
				continue;
			synopsis_part(part, sizeof(part), o);
		} else if (cmd->args) {
			text = cmd->args;
		} else {
			break;
		}
		/* A part too long to follow the indent starts a line of its own,
		 * 4 cells in ("[--pod-resources-kubelet-socket PATH]"). */
		bool long_part = indent + 1 + (int)strlen(text) > width;

		if (col > (long_part ? 4 : indent) && col + 1 + (int)strlen(text) > width)
			col = fprintf(out, "\n%s", long_part ? "    " : head) - 1;
		col += fprintf(out, " %s", text);
		if (!o || o->type == OPT_T_END)
			break;
	}
	fputc('\n', out);
}

/* "  -i, --id SEL", "  --json" */
static int option_label(char *buf, size_t n, const struct option *o)
{
	int len = snprintf(buf, n, "  ");

	if (o->short_name)
		len += snprintf(buf + len, n - (size_t)len, "-%c%s", o->short_name, o->long_name ? ", " : "");
	if (o->long_name)
		len += snprintf(buf + len, n - (size_t)len, "--%s", o->long_name);
	if (o->argh)
		len += snprintf(buf + len, n - (size_t)len, " %s", o->argh);
	return len;
}

enum { HELP_COLUMN_MAX = 24 };

void print_command_help(FILE *out, const struct cmd *cmd, int width)
{
	char label[96], pad[HELP_COLUMN_MAX + 1];
	int col = 0;

	print_synopsis(out, cmd, width);
	if (cmd->description) {
		fputc('\n', out);
		print_wrapped(out, width, "", "", _(cmd->description));
	}
	/* the help texts start two columns after the longest label that fits */
	for (const struct option *o = cmd->options; o && o->type != OPT_T_END; o++) {
		int len = option_label(label, sizeof(label), o) + 2;

		if (!(o->flags & OPT_HIDDEN) && len > col && len <= HELP_COLUMN_MAX)
			col = len;
	}
	if (col < 14)
		col = 14;
	snprintf(pad, sizeof(pad), "%*s", col, "");
	fprintf(out, "\n%s\n", _("Options:"));
	for (const struct option *o = cmd->options;; o++) {
		const struct option *opt = o && o->type != OPT_T_END ? o : &help_option;
		int len;

		if (opt->flags & OPT_HIDDEN)
			continue;
		len = option_label(label, sizeof(label), opt);
		if (len + 2 > col) { /* too long: the help goes on the next line */
			fprintf(out, "%s\n", label);
			print_wrapped(out, width, pad, pad, _(opt->help));
		} else {
			snprintf(label + len, sizeof(label) - (size_t)len, "%*s", col - len, "");
			print_wrapped(out, width, label, pad, _(opt->help));
		}
		if (opt == &help_option)
			break;
	}
	if (cmd->exit_status) {
		fputc('\n', out);
		print_wrapped(out, width, "", "", _(cmd->exit_status));
	}
}

/* Memory: a number with a unit: B, K KB M MB G GB T TB (powers of 1000),
 * KiB MiB GiB TiB (powers of 1024); `advise --memory` and `run --min-free`
 * take it. A bare number is refused: "--memory 24" meant 24 GiB to whoever
 * typed it, never 24 bytes (bytes are "24B"). */
const char *opt_parse_size(void *field, const char *s)
{
	static const struct { const char *unit; double mult; } units[] = {
		{ "B", 1 }, { "K", 1e3 }, { "KB", 1e3 }, { "M", 1e6 }, { "MB", 1e6 }, { "G", 1e9 },
		{ "GB", 1e9 }, { "T", 1e12 }, { "TB", 1e12 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 },
		{ "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 },
	};
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !(v > 0))
		return N_("needs a size such as 8GiB, 16GB or 500MiB");
	while (*end == ' ')
		end++;
	if (!*end)
		return N_("needs a unit: 24GiB, 16GB, 500MiB, or 24B for bytes (units: B, KB, MB, GB, TB, KiB, MiB, "
			  "GiB, TiB)");
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].unit))
			continue;
		v *= units[i].mult;
		if (v < 1 || v > 1125899906842624.0)
			return N_("needs a size from 1 byte to 1 PiB");
		*(uint64_t *)field = (uint64_t)v;
		return NULL;
	}
	return N_("needs a size such as 8GiB, 16GB or 500MiB (units: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)");
}

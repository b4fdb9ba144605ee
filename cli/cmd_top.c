/* gpuwise top — a full-screen monitor of every GPU and the processes on
 * them, with htop's habits (docs/contracts.md "Live monitoring"); --once prints one
 * plain frame for scripts. The loop redraws on every key at once and
 * reads the machine every -d seconds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "text.h"
#include "hosts.h"
#include "top.h"

struct top_opts {
	double interval;
	bool once;
	struct hosts_opts hosts;
};

static const char *parse_delay(void *field, const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= 0.05 && v <= 3600))
		return _("needs a number of seconds from 0.05 to 3600");
	*(double *)field = v;
	return NULL;
}

static int print_once(struct top_data *d, struct top_ui *ui)
{
	struct top_out o = { stdout, output_width(stdout), -1, 0, 0, text_ascii() };

	top_draw_frame(&o, d, ui);
	return text_flush() ? EXIT_OK : EXIT_FAIL;
}

static void draw(struct top_data *d, struct top_ui *ui)
{
	struct top_out o = { NULL, 80, 24, 0, 0, text_ascii() };

	term_size(&o.height, &o.width);
	term_begin_frame();
	if (ui->help)
		top_draw_help(&o, ui);
	else
		top_draw_frame(&o, d, ui);
	term_end_frame();
}

/* Until q or a signal: a refresh every interval, a redraw after each key. */
static int loop(struct top_data *d, struct top_ui *ui)
{
	double next = clock_seconds(CLOCK_MONOTONIC) + ui->interval;

	draw(d, ui);
	while (!term_stop_signal()) {
		double left = next - clock_seconds(CLOCK_MONOTONIC);
		int key;

		if (left <= 0) {
			top_data_refresh(d);
			next = clock_seconds(CLOCK_MONOTONIC) + ui->interval;
			draw(d, ui);
			continue;
		}
		key = term_key((int)ceil(left * 1000));
		if (term_stop_signal())
			break;
		if (key == TK_NONE)
			continue;
		if (!top_key(ui, d, key))
			break;
		draw(d, ui);
	}
	return term_stop_signal();
}

static const struct option top_options[] = {
	OPT_CALLBACK('d', "delay", struct top_opts, interval, "SECONDS",
		     N_("refresh every SECONDS (default 1, from 0.05)"), parse_delay),
	OPT_BOOL(0, "once", struct top_opts, once,
		 N_("print one plain frame (no curses, no colour) at the terminal's width ($COLUMNS, or 80 when not a "
		 "terminal) and exit; the CPU column is then the average over each process's life, as ps shows it")),
	HOSTS_OPTIONS(struct top_opts),
	OPT_END()
};

/* Opens d on this machine, or on the nodes of --hosts (hs); an exit
 * status when neither can be read. */
static int open_data(struct top_data *d, struct top_opts *o, struct hosts *hs)
{
	int rc;

	if (!o->hosts.list)
		return top_data_open(d) < 0 ? EXIT_FAIL : EXIT_OK;
	if ((rc = hosts_open(hs, &o->hosts)) != 0) {
		hosts_close(hs);
		return rc;
	}
	return top_data_open_hosts(d, hs);
}

/* --once: exit 1 when no GPU could be read, saying why. */
static int once_status(struct top_data *d)
{
	char problem[1024];

	if (d->hosts) {
		if (hosts_gpu_count(d->hosts) > 0)
			return EXIT_OK;
		error_msg("%s", _("no node of --hosts answered with a GPU"));
		return EXIT_FAIL;
	}
	if (readable_count(d->ctx) > 0)
		return EXIT_OK;
	error_msg("%s", no_gpu_sentence(d->ctx, problem, sizeof(problem)));
	return EXIT_FAIL;
}

static int cmd_top(int argc, char **argv)
{
	struct top_opts o = { 1.0, false, { NULL, 2.0, NULL, NULL } };
	struct hosts hs;
	struct top_ui ui;
	struct top_data d;
	char **args, why[256];
	bool fallback = false;
	int sig, rc;

	if (parse_options(&cmd_top_def, argc, argv, &o, &args) == PARSE_HELP)
		return EXIT_OK;
	memset(&ui, 0, sizeof(ui));
	ui.interval = o.interval;
	if ((rc = open_data(&d, &o, &hs)) != EXIT_OK)
		return rc;
	top_data_refresh(&d);
	/* Both ends are terminals but TERM cannot drive one: say what is
	 * wrong and show what --once shows, not a blank screen. */
	if (!o.once && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && term_problem(why, sizeof(why)))
		o.once = fallback = true;
	if (o.once) {
		/* As list: the frame, and exit 1 with the reason when no GPU
		 * could be read. The warning after the frame, which would
		 * scroll it away. */
		rc = print_once(&d, &ui);
		if (fallback)
			warning_msg(_("%s: top showed one plain frame as --once does (set TERM to your terminal's type, "
				      "such as xterm-256color, for the live view)"), why);
		if (rc == EXIT_OK)
			rc = once_status(&d);
		top_data_close(&d);
		if (o.hosts.list)
			hosts_close(&hs);
		return rc;
	}
	if (!term_start()) {
		top_data_close(&d);
		if (o.hosts.list)
			hosts_close(&hs);
#ifdef GW_HAVE_CURSES
		error_msg("%s", _("top needs a terminal on stdin and stdout (use --once for one plain frame)"));
#else
		error_msg("%s", _("this gpuwise was built without ncursesw: only 'gpuwise top --once' works"));
#endif
		return EXIT_FAIL;
	}
	sig = loop(&d, &ui);
	term_stop();
	top_data_close(&d);
	if (o.hosts.list)
		hosts_close(&hs);
	return sig ? 128 + sig : EXIT_OK;
}

const struct cmd cmd_top_def = {
	.name = "top",
	.fn = cmd_top,
	.summary = N_("full-screen monitor of GPUs and their processes (like htop)"),
	.options = top_options,
	.description =
		N_("A live view of every GPU (NVIDIA through NVML, AMD through sysfs): per GPU a meter block "
		"(utilisation, memory, temperature, power draw and limit, SM and memory clocks, PCIe receive and "
		"transmit, fan, performance state, throttle reasons) with its MIG instances under it, history "
		"charts of the selected process's GPU when the terminal has room, and a table of the GPU "
		"processes: GPU (G:M for a MIG instance), pid, user, type (C compute, G graphics), GPU memory, "
		"SM % (the process's share of the SMs, NVIDIA), host CPU % (of one core, since the last refresh), "
		"host resident memory, run time and command.\n\n"
		"Keys: q or F10 quit; h, ? or F1 help; Up/Down, PgUp/PgDn, Home/End select a process; s (S) sorts "
		"by the next (previous) column: GPU MEM, SM%, CPU%, RSS, TIME, PID, GPU; / filters by a part of the "
		"command or user, or a pid (Enter applies, Esc cancels; Esc clears the filter); k sends SIGTERM to "
		"the selected process after a y/n question.\n\n"
		"Fits 80x24 (one line a GPU when the blocks do not fit) and follows resizes. Colour unless NO_COLOR "
		"is set. When TERM is unset, unknown or names a terminal that cannot move the cursor (dumb), top says "
		"so and prints one plain frame as --once does. The terminal is given back on q, SIGINT, SIGTERM, SIGHUP and a crash. "
		"--once prints one plain frame without curses, for scripts."),
	.exit_status = N_("Exit status: 0 after q or --once, 1 when the terminal or the library cannot be used (and for "
		       "--once when no GPU could be read), 2 on a usage error, 128+N after signal N (130 for SIGINT, 143 "
		       "for SIGTERM)."),
};

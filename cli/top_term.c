/* gpuwise top — the terminal. Curses (ncursesw) on the alternate screen,
 * and the promise that the terminal comes back intact however top ends:
 *   q                  the loop ends, endwin()
 *   SIGINT/TERM/HUP    a flag; the loop ends within one key wait, endwin();
 *                      a second one (the loop is stuck) restores at once
 *   a crash (SEGV, BUS, FPE, ILL, ABRT, QUIT)
 *                      the handler writes the terminal's own "leave the
 *                      alternate screen, show the cursor, plain text" bytes
 *                      and the saved termios back (write(2) and tcsetattr(3)
 *                      are async-signal-safe; endwin() is not), then dies
 *                      of the same signal so the exit status stays honest.
 * Without ncursesw at build time only --once exists (GW_HAVE_CURSES). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "commands.h"
#include "text.h"
#include "top.h"

#ifdef GW_HAVE_CURSES
#include <curses.h>
#include <term.h>

static struct termios saved_tio;
static bool have_tio;
static char restore_seq[256];
static size_t restore_len;
static volatile sig_atomic_t active;
static volatile sig_atomic_t stop_sig;
static attr_t attrs[TA_COUNT];
static FILE *term_out;

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT };

/* Async-signal-safe: write(2) and tcsetattr(3) only. */
static void restore_now(void)
{
	if (!active)
		return;
	active = 0;
	if (restore_len && write(STDOUT_FILENO, restore_seq, restore_len) < 0) {
		/* Nothing more can be done from a signal handler. */
	}
	if (have_tio)
		tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_tio);
}

static void on_fatal(int sig)
{
	struct sigaction sa;

	restore_now();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	raise(sig);
}

static void on_stop(int sig)
{
	if (stop_sig) {
		restore_now();
		_exit(128 + sig);
	}
	stop_sig = sig;
}

static void handle(const int *sigs, size_t n, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: the key wait returns and the loop sees the flag. */
	for (size_t i = 0; i < n; i++)
		sigaction(sigs[i], &sa, NULL);
}

/* The terminal's own bytes for leaving curses, read from terminfo now,
 * while it is safe to. */
static void add_cap(const char *name)
{
	char *s = tigetstr(name);
	size_t n;

	if (!s || s == (char *)-1)
		return;
	n = strlen(s);
	if (restore_len + n < sizeof(restore_seq)) {
		memcpy(restore_seq + restore_len, s, n);
		restore_len += n;
	}
}

static void setup_attrs(void)
{
	static const struct {
		enum top_attr role;
		short fg, bg;
		attr_t extra, plain;   /* with colours / without */
	} roles[] = {
		{ TA_TITLE, COLOR_CYAN, -1, A_BOLD, A_BOLD },
		{ TA_HEADER, COLOR_BLACK, COLOR_GREEN, 0, A_REVERSE },
		{ TA_LOW, COLOR_GREEN, -1, 0, 0 },
		{ TA_MID, COLOR_YELLOW, -1, 0, A_BOLD },
		{ TA_HIGH, COLOR_RED, -1, A_BOLD, A_BOLD },
		{ TA_DIM, COLOR_BLUE, -1, A_BOLD, A_DIM },
		{ TA_SELECTED, COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE | A_BOLD },
		{ TA_LABEL, COLOR_CYAN, -1, 0, 0 },
		{ TA_WARN, COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	};
	bool colour = has_colors() && use_color(stdout);

	if (colour) {
		start_color();
		use_default_colors();
	}
	for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++) {
		short pair = (short)(i + 1);

		if (colour && init_pair(pair, roles[i].fg, roles[i].bg) == OK)
			attrs[roles[i].role] = COLOR_PAIR(pair) | roles[i].extra;
		else
			attrs[roles[i].role] = roles[i].plain;
	}
}

const char *term_problem(char *buf, size_t n)
{
	const char *term = getenv("TERM");
	char *cup;
	int err = 0;

	if (!term || !*term) {
		snprintf(buf, n, "%s", _("TERM is not set, so the terminal's type is unknown"));
		return buf;
	}
	/* setupterm with an error pointer reports instead of exiting. */
	if (setupterm(term, STDOUT_FILENO, &err) != OK) {
		snprintf(buf, n, _("TERM=%s is not a terminal type this system's terminfo knows"), term);
		return buf;
	}
	cup = tigetstr("cup");
	del_curterm(cur_term);
	if (!cup || cup == (char *)-1) {
		snprintf(buf, n, _("TERM=%s names a terminal that cannot move the cursor"), term);
		return buf;
	}
	return NULL;
}

bool term_start(void)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return false;
	have_tio = tcgetattr(STDIN_FILENO, &saved_tio) == 0;
	/* Ours before initscr: ncurses installs its own SIGINT/SIGTERM
	 * handlers only where none is set. */
	handle(stop_signals, sizeof(stop_signals) / sizeof(stop_signals[0]), on_stop);
	handle(fatal_signals, sizeof(fatal_signals) / sizeof(fatal_signals[0]), on_fatal);
	/* newterm, not initscr: initscr exits the program on a terminal it
	 * cannot use. */
	/* Curses writes to the terminal itself: stdout may be text.c's ASCII
	 * filter (a locale without UTF-8), which has no file descriptor. */
	if (!(term_out = fdopen(dup(STDOUT_FILENO), "w")))
		return false;
	if (!newterm(NULL, term_out, stdin)) {
		fclose(term_out);
		term_out = NULL;
		return false;
	}
	restore_len = 0;
	add_cap("sgr0");
	add_cap("cnorm");
	add_cap("rmkx");
	add_cap("rmcup");
	active = 1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	setup_attrs();
	return true;
}

void term_stop(void)
{
	if (!active)
		return;
	active = 0;
	endwin();
	if (have_tio)
		tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_tio);
	if (term_out) {
		fclose(term_out);
		term_out = NULL;
	}
}

int term_stop_signal(void)
{
	return stop_sig;
}

int term_key(int ms)
{
	int c;

	timeout(ms);
	c = getch();
	switch (c) {
	case ERR: return TK_NONE;
	case KEY_RESIZE: return TK_RESIZE;
	case KEY_UP: return TK_UP;
	case KEY_DOWN: return TK_DOWN;
	case KEY_PPAGE: return TK_PGUP;
	case KEY_NPAGE: return TK_PGDN;
	case KEY_HOME: return TK_HOME;
	case KEY_END: return TK_END;
	case KEY_F(1): return TK_F1;
	case KEY_F(10): return TK_F10;
	case KEY_ENTER: case '\n': case '\r': return TK_ENTER;
	case KEY_BACKSPACE: case 127: case 8: return TK_BACKSPACE;
	case 27: return TK_ESC;
	default: return c >= 0 && c < 256 ? c : TK_NONE;
	}
}

void term_size(int *rows, int *cols)
{
	getmaxyx(stdscr, *rows, *cols);
}

void term_put(int row, int col, enum top_attr a, const char *s, size_t len)
{
	attr_t at = attrs[a];

	attron(at);
	if (text_ascii()) {
		/* A locale without UTF-8: each character as its ASCII stand-in. */
		move(row, col);
		for (size_t i = 0; i < len;) {
			uint32_t cp;
			size_t k = text_utf8_char(s + i, len - i, &cp);
			char buf[16];

			if (k == 0 || cp < 0x80) {
				addch((chtype)(unsigned char)(k ? s[i] : '?'));
				i += k ? k : 1;
				continue;
			}
			addstr(text_ascii_for(cp, buf, sizeof(buf)));
			i += k;
		}
	} else {
		mvaddnstr(row, col, s, (int)len);
	}
	attroff(at);
}

void term_clear_to_eol(int row, int col, enum top_attr a)
{
	attron(attrs[a]);
	move(row, col);
	clrtoeol();
	attroff(attrs[a]);
}

void term_begin_frame(void)
{
	erase();
}

void term_end_frame(void)
{
	refresh();
}

#else /* !GW_HAVE_CURSES: --once only */

const char *term_problem(char *buf, size_t n)
{
	(void)buf;
	(void)n;
	return NULL;
}

bool term_start(void)
{
	return false;
}

void term_stop(void)
{
}

int term_stop_signal(void)
{
	return 0;
}

int term_key(int ms)
{
	(void)ms;
	return -1;
}

void term_size(int *rows, int *cols)
{
	*rows = 24;
	*cols = 80;
}

void term_put(int row, int col, enum top_attr a, const char *s, size_t len)
{
	(void)row;
	(void)col;
	(void)a;
	(void)s;
	(void)len;
}

void term_clear_to_eol(int row, int col, enum top_attr a)
{
	(void)row;
	(void)col;
	(void)a;
}

void term_begin_frame(void)
{
}

void term_end_frame(void)
{
}
#endif

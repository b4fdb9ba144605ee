/* gpuwise top — keys, with htop's habits: arrows and pages move the
 * selection, s sorts by the next column, / filters, k asks y/n and then
 * sends SIGTERM, h ? F1 show the help, q F10 quit. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "commands.h"
#include "top.h"

static const struct top_proc *find_proc(const struct top_data *d, uint32_t pid)
{
	for (size_t i = 0; i < d->nprocs; i++)
		if (d->procs[i].pid == pid)
			return &d->procs[i];
	return NULL;
}

static void ask_kill(struct top_ui *ui, const struct top_data *d)
{
	const struct top_proc *t = ui->selected_pid ? find_proc(d, ui->selected_pid) : NULL;

	if (!t) {
		snprintf(ui->prompt, sizeof(ui->prompt), "%s", _("no process selected"));
		return;
	}
	ui->asking = true;
	ui->pending_pid = t->pid;
	snprintf(ui->prompt, sizeof(ui->prompt), _("send SIGTERM to %u (%.60s)? [y/n]"), (unsigned)t->pid,
		 t->command[0] ? t->command : "?");
}

static void answer_kill(struct top_ui *ui, int key)
{
	ui->asking = false;
	if (key != 'y' && key != 'Y') {
		snprintf(ui->prompt, sizeof(ui->prompt), "%s", _("not sent"));
		return;
	}
	if (kill((pid_t)ui->pending_pid, SIGTERM) == 0)
		snprintf(ui->prompt, sizeof(ui->prompt), _("sent SIGTERM to %u"), (unsigned)ui->pending_pid);
	else
		snprintf(ui->prompt, sizeof(ui->prompt), _("cannot signal %u: %s"), (unsigned)ui->pending_pid,
			 strerror(errno));
}

static void edit_filter(struct top_ui *ui, int key)
{
	size_t n = strlen(ui->edit);

	if (key == TK_ENTER) {
		snprintf(ui->filter, sizeof(ui->filter), "%s", ui->edit);
		ui->editing = false;
		ui->selected = ui->scroll = 0;
	} else if (key == TK_ESC) {
		ui->editing = false;
	} else if (key == TK_BACKSPACE) {
		/* Drop a whole UTF-8 character. */
		while (n > 0 && ((unsigned char)ui->edit[n - 1] & 0xc0) == 0x80)
			ui->edit[--n] = '\0';
		if (n > 0)
			ui->edit[--n] = '\0';
	} else if (key >= 0x20 && key < 0x100 && key != 0x7f && n + 1 < sizeof(ui->edit)) {
		ui->edit[n] = (char)key;
		ui->edit[n + 1] = '\0';
	}
}

static void move_selection(struct top_ui *ui, long delta)
{
	long s = (long)ui->selected + delta;

	/* The frame clamps it to the view's end. */
	ui->selected = s < 0 ? 0 : (size_t)s;
}

bool top_key(struct top_ui *ui, const struct top_data *d, int key)
{
	if (key == TK_NONE || key == TK_RESIZE)
		return true;
	if (ui->editing) {
		edit_filter(ui, key);
		return true;
	}
	if (ui->asking) {
		answer_kill(ui, key);
		return true;
	}
	if (ui->help) {
		ui->help = key == 'q' ? ui->help : false;
		return key != 'q';
	}
	ui->prompt[0] = '\0';
	switch (key) {
	case 'q': case 'Q': case TK_F10:
		return false;
	case 'h': case '?': case TK_F1:
		ui->help = true;
		break;
	case TK_UP: move_selection(ui, -1); break;
	case TK_DOWN: move_selection(ui, 1); break;
	case TK_PGUP: move_selection(ui, -ui->page_rows); break;
	case TK_PGDN: move_selection(ui, ui->page_rows); break;
	case TK_HOME: ui->selected = 0; break;
	case TK_END: ui->selected = (size_t)-1 / 2; break;
	case 's':
		ui->sort = (enum top_sort)((ui->sort + 1) % TOP_SORT_COUNT);
		break;
	case 'S':
		ui->sort = (enum top_sort)((ui->sort + TOP_SORT_COUNT - 1) % TOP_SORT_COUNT);
		break;
	case '/':
		ui->editing = true;
		snprintf(ui->edit, sizeof(ui->edit), "%s", ui->filter);
		break;
	case 'k':
		if (d->hosts) /* a pid of another node: not ours to signal */
			snprintf(ui->prompt, sizeof(ui->prompt), "%s",
				 _("k is for this machine's processes (not with --hosts)"));
		else
			ask_kill(ui, d);
		break;
	case TK_ESC:
		ui->filter[0] = '\0';
		break;
	default:
		break;
	}
	return true;
}

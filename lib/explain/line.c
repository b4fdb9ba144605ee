/* gpuwise explain: one line read. Wrapped table cells are joined,
 * logger prefixes stripped, and end_piece runs every rule on the line. */
#include "explain/explain_int.h"

/* ---- wrapped table cells ---------------------------------------------- */

/* Text tables cut a long cell into pieces of the column's width and go on
 * with it on the table's next lines, the other cells blank: Triton's
 * TablePrinter (the model and backend tables every tritonserver start
 * prints, whose status column holds the error that stopped a model) cuts
 * at every `width` characters, mid-word ("operation no" / "t supported").
 * A line that continues the record before it (same width, a bar at each
 * of its column bars, first cell blank) is kept with it, and each column
 * a later line continues is read as one line, its pieces joined. */

/* The length of the line without its trailing blanks and CR. */
size_t gw__explain_trimmed_len(const char *line, size_t len)
{
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
		len--;
	return len;
}

/* Is there a column bar at i: a '|' with a blank (or the line's end) on
 * each side? */
static bool bar_at(const char *line, size_t len, size_t i)
{
	return i < len && line[i] == '|' && (i == 0 || line[i - 1] == ' ') && (i + 1 == len || line[i + 1] == ' ');
}

static bool continues_record(const gw_explainer *ex, const char *line, size_t len)
{
	if (!ex->table.nlines || len != ex->table.width ||
	    (ex->table.nlines + 1) * len > sizeof(ex->table.text))
		return false;
	for (unsigned b = 0; b < ex->table.nbars; b++)
		if (!bar_at(line, len, ex->table.bars[b]))
			return false;
	for (size_t i = 1; i < ex->table.bars[1]; i++)
		if (line[i] != ' ')
			return false;
	return true;
}

/* Read each column of the kept record that a later line continues as one
 * line, at the record's first line: a piece fills its column's width, so
 * the pieces join with nothing between them. */
void gw__explain_read_cells(gw_explainer *ex)
{
	for (unsigned c = 0; ex->table.nlines > 1 && c + 1 < ex->table.nbars; c++) {
		size_t from = ex->table.bars[c] + 2, to = ex->table.bars[c + 1] - 1, n = 0;
		bool continued = false;

		if (to <= from)
			continue;
		for (unsigned k = 0; k < ex->table.nlines; k++) {
			const char *piece = ex->table.text + k * ex->table.width + from;

			memcpy(ex->cell + n, piece, to - from);
			n += to - from;
			for (size_t i = 0; k > 0 && i < to - from; i++)
				continued = continued || piece[i] != ' ';
		}
		if (!continued)
			continue;
		n = gw__explain_trimmed_len(ex->cell, n);
		ex->cell_line = ex->table.first_line;
		gw__explain_scan_bytes(ex, ex->cell, n);
		gw__explain_end_piece(ex, false);
		ex->cell_line = 0;
		ex->pending = false;
	}
	ex->table.nlines = 0;
}

/* The length of the line when it is a row of a text table ('|' first and
 * last) that fits a record, kept in ex->row; else 0. */
static size_t keep_row(gw_explainer *ex)
{
	size_t len = gw__explain_trimmed_len(ex->line, ex->line_len), lead = 0;

	while (lead < len && (ex->line[lead] == ' ' || ex->line[lead] == '\t'))
		lead++;                   /* an indented table (Jupyter's output) */
	len -= lead;
	if (len < 3 || len > sizeof(ex->row) || ex->line[lead] != '|' || ex->line[lead + len - 1] != '|')
		return 0;
	memcpy(ex->row, ex->line + lead, len);
	return len;
}

/* After line number ex->lines, kept by keep_row (len 0: no table row):
 * add it to the record it continues, or read the record that it ends and
 * start one with it. */
static void table_line(gw_explainer *ex, size_t len)
{
	const char *line = ex->row;

	if (len && continues_record(ex, line, len)) {
		memcpy(ex->table.text + ex->table.nlines++ * len, line, len);
		return;
	}
	gw__explain_read_cells(ex);
	ex->table.nbars = 0;
	for (size_t i = 0; i < len && ex->table.nbars <= GW_EXPLAIN_TABLE_COLUMNS; i++)
		if (bar_at(line, len, i))
			ex->table.bars[ex->table.nbars++] = i;
	if (ex->table.nbars < 2 || ex->table.nbars > GW_EXPLAIN_TABLE_COLUMNS)
		return;
	ex->table.width = len;
	ex->table.first_line = ex->lines;
	ex->table.nlines = 1;
	memcpy(ex->table.text, line, len);
}

/* ---- line prefixes ------------------------------------------------------ */

/* Loggers, collectors and pastes put a prefix before every line that is no
 * part of the message (tests/explain/README-presentation.md): a rule or a
 * pattern anchored at the line's start ("^ *no devices were found *$", a
 * compiler's quote "  434 |  case X:" of a source line, a table's '|')
 * must see the line after it. A known, bounded set is left out, repeated
 * (up to PREFIX_MAX of them, "TIME stderr F [rank0]: E   ..."):
 *  - an ISO 8601 / RFC 3339 time "2024-03-11T10:02:33.551Z " (Python
 *    logging's "2024-03-11 10:02:33,551 ", Go, kubectl logs --timestamps),
 *    then, from a Kubernetes CRI log file (/var/log/pods, the kubelet's
 *    format), "stdout F " or "stderr P ", or from syslog in RFC 3339 form
 *    a host and a tag with its pid "node01 python3[4242]: ";
 *  - a BSD syslog / journalctl time "Mar 11 10:02:33 " with its host and
 *    tag "node01 python3[4242]: " or "node01 kernel: ";
 *  - torchrun's "[rank0]: " (PyTorch >= 2.2, every rank's stderr) and
 *    "[default0]:" (--tee / --redirects), "[rank 3]:";
 *  - pytest's "E   " before an exception's lines (_pytest/_code/code.py,
 *    get_exconly: fail marker "E" padded to the indent of 4);
 *  - a Markdown or e-mail quote "> " (not ">>", a prompt or a shell's
 *    redirection);
 *  - tqdm's last bar that a "\r" redraw leaves before the next output
 *    ("desc: 100%|#####| 10/10 [00:01<00:00, 9.1it/s]", tqdm's
 *    format_meter: l_bar "{desc}: {percentage:3.0f}%|", r_bar
 *    "| {n}/{total} [{elapsed}<{remaining}, {rate}{postfix}]").
 * Only lines whose first byte can start one are looked at. */
#define PREFIX_MAX 4

static bool digits_at(const char *s, size_t n, size_t i, size_t k)
{
	if (i + k > n)
		return false;
	for (size_t j = 0; j < k; j++)
		if (s[i + j] < '0' || s[i + j] > '9')
			return false;
	return true;
}

/* A syslog tag "name[pid]: " or "name: " at i (with_pid: the pid is
 * required); the offset after it, or 0. */
static size_t syslog_tag(const char *s, size_t n, size_t i, bool with_pid)
{
	size_t j = i;
	bool pid = false;

	while (j < n && j - i < 64 && (is_alnum_byte(s[j]) || strchr("_.@/-", s[j])))
		j++;
	if (j == i)
		return 0;
	if (j < n && s[j] == '[') {
		size_t k = j + 1;

		while (k < n && s[k] >= '0' && s[k] <= '9' && k - j < 12)
			k++;
		if (k == j + 1 || k >= n || s[k] != ']')
			return 0;
		j = k + 1;
		pid = true;
	}
	if (with_pid && !pid)
		return 0;
	if (j + 1 >= n || s[j] != ':' || s[j + 1] != ' ')
		return 0;
	return j + 2;
}

/* "host tag[pid]: " at i; the offset after it, or 0. */
static size_t syslog_host_tag(const char *s, size_t n, size_t i, bool with_pid)
{
	size_t j = i;

	while (j < n && j - i < 64 && (is_alnum_byte(s[j]) || strchr("_.-", s[j])))
		j++;
	if (j == i || j >= n || s[j] != ' ')
		return 0;
	return syslog_tag(s, n, j + 1, with_pid);
}

/* An ISO 8601 time at 0 and what follows it; the offset after, or 0. */
size_t gw__explain_iso_prefix(const char *s, size_t n)
{
	size_t i = 10, t;

	if (!digits_at(s, n, 0, 4) || s[4] != '-' || !digits_at(s, n, 5, 2) || s[7] != '-' ||
	    !digits_at(s, n, 8, 2) || i >= n || (s[i] != 'T' && s[i] != ' ') ||
	    !digits_at(s, n, 11, 2) || s[13] != ':' || !digits_at(s, n, 14, 2))
		return 0;
	i = 16;
	if (i < n && s[i] == ':' && digits_at(s, n, 17, 2)) {
		i = 19;
		if (i + 1 < n && (s[i] == '.' || s[i] == ',') && digits_at(s, n, i + 1, 1))
			for (i++; i < n && s[i] >= '0' && s[i] <= '9' && i < 32; i++)
				;
	}
	if (i < n && s[i] == 'Z')
		i++;
	else if (i < n && (s[i] == '+' || s[i] == '-') && digits_at(s, n, i + 1, 2)) {
		i += 3;
		if (i < n && s[i] == ':')
			i++;
		if (digits_at(s, n, i, 2))
			i += 2;
	}
	if (i >= n || (s[i] != ' ' && s[i] != '\t'))
		return 0;
	i++;
	/* CRI: "stdout F " / "stderr P " */
	if (i + 9 <= n && (!memcmp(s + i, "stdout ", 7) || !memcmp(s + i, "stderr ", 7)) &&
	    (s[i + 7] == 'F' || s[i + 7] == 'P') && s[i + 8] == ' ')
		return i + 9;
	if ((t = syslog_host_tag(s, n, i, true)))
		return t;
	return i;
}

static size_t syslog_prefix(const char *s, size_t n)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	size_t i = 4;
	bool month = false;

	for (size_t m = 0; n > 3 && m < 36 && !month; m += 3)
		month = !memcmp(s, months + m, 3);
	if (!month || s[3] != ' ')
		return 0;
	if (i < n && s[i] == ' ')
		i++;
	if (!digits_at(s, n, i, 1))
		return 0;
	i += digits_at(s, n, i, 2) ? 2 : 1;
	if (i >= n || s[i] != ' ' || !digits_at(s, n, i + 1, 2) || i + 9 > n || s[i + 3] != ':' ||
	    !digits_at(s, n, i + 4, 2) || s[i + 6] != ':' || !digits_at(s, n, i + 7, 2))
		return 0;
	i += 9;
	if (i < n && s[i] == '.')                      /* journalctl -o short-precise */
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
	if (i >= n || s[i] != ' ')
		return 0;
	return syslog_host_tag(s, n, i + 1, false);
}

static size_t rank_prefix(const char *s, size_t n)
{
	size_t i;

	if (n > 6 && !memcmp(s, "[rank", 5))
		i = 5;
	else if (n > 9 && !memcmp(s, "[default", 8))
		i = 8;
	else
		return 0;
	if (s[i] == ' ')
		i++;
	if (!digits_at(s, n, i, 1))
		return 0;
	while (i < n && s[i] >= '0' && s[i] <= '9' && i < 20)
		i++;
	if (i + 1 >= n || s[i] != ']' || s[i + 1] != ':')
		return 0;
	i += 2;
	if (i < n && s[i] == ' ')
		i++;
	return i;
}

/* tqdm's bar left before the text: "[desc: ]NNN%|...| n/total [...]". */
static size_t tqdm_prefix(const char *s, size_t n)
{
	const char *pc = n > 4 ? memmem(s, n < 80 ? n : 80, "%|", 2) : NULL;
	size_t i;

	if (!pc || pc == s || pc[-1] < '0' || pc[-1] > '9')
		return 0;
	i = (size_t)(pc - s) + 2;
	const char *bar = memchr(s + i, '|', n - i < 256 ? n - i : 256);

	if (!bar)
		return 0;
	i = (size_t)(bar - s) + 1;
	if (i >= n || s[i] != ' ' || !digits_at(s, n, i + 1, 1))
		return 0;
	const char *open = memchr(s + i, '[', n - i < 40 ? n - i : 40);
	const char *close = open ? memchr(open, ']', (size_t)(s + n - open) < 120 ? (size_t)(s + n - open) : 120) : NULL;

	if (!close || !memchr(open, '<', (size_t)(close - open)))
		return 0;
	return (size_t)(close - s) + 1;
}

/* The length of the known prefix at the line's start (0: none); *bar:
 * the line is nothing but a tqdm bar. */
size_t gw__explain_line_prefix(const char *s, size_t n, bool *bar)
{
	size_t b = 0;

	for (int k = 0; k < PREFIX_MAX && b < n; k++) {
		const char *t = s + b;
		size_t m = n - b, p = 0;

		switch (*t) {
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
			p = gw__explain_iso_prefix(t, m);
			break;
		case 'J': case 'F': case 'M': case 'A': case 'S': case 'O': case 'N': case 'D':
			p = syslog_prefix(t, m);
			break;
		case '[':
			p = rank_prefix(t, m);
			break;
		case 'E':
			p = m >= 4 && t[1] == ' ' && t[2] == ' ' && t[3] == ' ' ? 4 : 0;
			break;
		case '>':
			p = m == 1 ? 1 : t[1] == ' ' ? 2 : 0;
			break;
		}
		if (!p && k == 0 && memchr(t, '%', m < 80 ? m : 80))
			*bar = (p = tqdm_prefix(t, m)) == m;
		if (!p)
			break;
		b += p;
	}
	return b;
}

/* Leave the line's known prefix out (line_prefix), at a line's first
 * piece: the hits move with the text, one that began in it is dropped.
 * True when the line was only a tqdm bar. */
static bool strip_prefix(gw_explainer *ex)
{
	bool bar = false;
	size_t b = gw__explain_line_prefix(ex->line, ex->line_len, &bar);
	unsigned k = 0;

	if (!b)
		return false;
	memmove(ex->line, ex->line + b, ex->line_len - b);
	ex->line_len -= b;
	ex->stripped = b;
	for (unsigned i = 0; i < ex->nhits; i++)
		if (ex->hits[i].start >= b) {
			ex->hits[k] = ex->hits[i];
			ex->hits[k++].start -= b;
		}
	if (ex->nhits && !k)
		gw__explain_next_generation(ex);
	ex->nhits = k;
	return bar;
}

/* Chinese and Japanese input methods, and programs written for those
 * locales, put the full-width forms of ASCII's punctuation and letters
 * (U+FF01 to U+FF5E: "RuntimeError\xef\xbc\x9aCUDA error\xef\xbc\x9a out of memory",
 * "could not insert\xef\xbc\x88nvidia\xef\xbc\x89"), the ideographic space (U+3000), the
 * ideographic full stop (U+3002) and curly quotes (U+2018, U+2019, U+201C,
 * U+201D) where a program's message has ASCII, around the message or in a
 * retyped one. The rows' literals and regexes are ASCII: each such form
 * becomes its ASCII character (U+FF01 + k is '!' + k) before the line is
 * read, so every row reads the message in either form; a wide colon,
 * comma, semicolon, "!", "?" or full stop, which carries its own space,
 * gets ASCII's blank after it ("NVML\xef\xbc\x9aUnknown Error" reads as "NVML: Unknown
 * Error"). The line only shrinks (three bytes become one or two); a
 * sequence cut at the piece's end is left as it is. */
/* Does the text at i start a word, a letter or a character of another
 * script, before which a wide separator's own space is kept? Not a digit
 * ("0000\xef\xbc\x9a03\xef\xbc\x9a00.0", a PCI address), not a blank, not another
 * colon ("torchvision\xef\xbc\x9a\xef\xbc\x9anms" is C++'s scope "::"). */
static bool wide_space_before(const uint8_t *u, size_t n, size_t i)
{
	if (i >= n)
		return false;
	if (u[i] < 0x80)
		return (u[i] >= 'a' && u[i] <= 'z') || (u[i] >= 'A' && u[i] <= 'Z');
	return !(i + 2 < n && u[i] == 0xef && u[i + 1] == 0xbc && u[i + 2] == 0x9a);
}

static void fold_wide_forms(gw_explainer *ex)
{
	uint8_t *u = (uint8_t *)ex->line;
	size_t n = ex->line_len, i = 0, k = 0;

	if (!memchr(u, 0xef, n) && !memchr(u, 0xe3, n) && !memchr(u, 0xe2, n))
		return;
	while (i < n) {
		uint8_t c = u[i];
		int to = -1;

		if (i + 2 < n && c == 0xef && (u[i + 1] == 0xbc || u[i + 1] == 0xbd)) {
			unsigned cp = 0xff00u | (unsigned)(u[i + 1] & 0x3) << 6 | (u[i + 2] & 0x3fu);

			if (cp >= 0xff01 && cp <= 0xff5e)
				to = (int)(cp - 0xff01 + '!');
		} else if (i + 2 < n && c == 0xe3 && u[i + 1] == 0x80) {
			to = u[i + 2] == 0x80 ? ' ' : u[i + 2] == 0x82 ? '.' : -1;
		} else if (i + 2 < n && c == 0xe2 && u[i + 1] == 0x80) {
			to = (u[i + 2] == 0x98 || u[i + 2] == 0x99) ? '\'' : (u[i + 2] == 0x9c || u[i + 2] == 0x9d) ? '"' : -1;
		}
		if (to >= 0) {
			u[k++] = (uint8_t)to;
			i += 3;
			/* a wide colon, comma, semicolon, "!", "?" or full stop
			 * holds its own space; ASCII's is followed by one */
			if ((to == ':' || to == ',' || to == ';' || to == '!' || to == '?' || to == '.') && c != 0xe2 &&
			    wide_space_before(u, n, i) && !(to == ':' && k >= 2 && u[k - 2] == ':'))
				u[k++] = ' ';
		} else {
			u[k++] = c;
			i++;
		}
	}
	ex->line_len = k;
}

/* The line (or a piece of an over-long one) is complete: check the
 * candidate patterns in order of position and start afresh. */

void gw__explain_end_piece(gw_explainer *ex, bool newline)
{
	bool bar;

	if (!newline && !ex->piece_cont && !ex->cell_line) {   /* an over-long line's first piece */
		int stream = 0;
		bool partial = false;

		ex->pr.cri_first = gw__explain_cri_record(ex->line, ex->line_len, &stream, &partial) && partial ? stream : 0;
	}
	if (!ex->nhits)
		fold_wide_forms(ex);
	gw__explain_scan_line(ex);
	bar = !ex->piece_cont && !ex->cell_line && ex->line_len && strip_prefix(ex);

	ex->piece_cont = !newline && !ex->cell_line;
	/* A line that is only tqdm's bar (redrawn with "\r", or left by it)
	 * stands between no two lines: what waits for the next line waits on. */
	if (bar && newline) {
		ex->line_len = 0;
		ex->lines++;
		ex->pending = false;
		if (ex->nheld)
			ex->held_line++;
		if (ex->call_line)
			ex->call_line++;
		return;
	}
	/* The fallback table's "unless" and "host" words alone (a line that
	 * says "cpu") ask nothing of a line: no row to check. */
	if (ex->nhits && gw__explain_only_fallback_words(ex)) {
		ex->nhits = 0;
		gw__explain_next_generation(ex);
	}
	if (ex->nhits) {
		/* regexec stops at NUL; binary junk must not hide the rest. */
		bool had_nul = memchr(ex->line, '\0', ex->line_len) != NULL;

		if (had_nul) {
			memset(ex->nul_at, 0, (ex->line_len + 7) / 8);
			for (size_t i = 0; i < ex->line_len; i++)
				if (ex->line[i] == '\0') {
					ex->line[i] = ' ';
					ex->nul_at[i / 8] |= (uint8_t)(1u << (i % 8));
				}
		}
		ex->line[ex->line_len] = '\0';
		for (unsigned i = 1; i < ex->nhits; i++) {    /* insertion sort, few hits */
			struct hit h = ex->hits[i];
			unsigned j = i;
			for (; j > 0 && ex->hits[j - 1].start > h.start; j--)
				ex->hits[j] = ex->hits[j - 1];
			ex->hits[j] = h;
		}
		/* Names, descriptions and messages first; a number only
		 * when nothing else on the line said what went wrong. */
		bool gpu_word = false, context = false, info = gw__explain_attempt_line(ex);
		size_t arch_at = SIZE_MAX, loader_at = SIZE_MAX;
		int fb = gw__explain_fallback_line(ex);

		if (fb & FB_VETO) {
			info = true;
			if (fb & FB_TAIL)
				gw__explain_take_back(ex);
			ex->fx_last.n = 0;
		}
		ex->host_line = fb & FB_HOST;

		ex->line_matched = false;
		ex->line_library = false;
		for (unsigned i = 0; i < ex->nhits; i++) {
			unsigned how = gw__explain_patterns[ex->hits[i].pat].how;

			gpu_word = gpu_word || how == GW__HOW_GPU_WORD;
			if (how == GW__HOW_CONTEXT)
				context = gw__explain_note_context(ex, ex->hits[i].pat) || context;
			else if (how == GW__HOW_LEGACY)
				gw__explain_legacy_cuda_seen(ex, ex->hits[i].pat);
			else if (info)
				continue;  /* see attempt_line */
			else if (how == GW__HOW_LOADER)
				loader_at = loader_at < ex->hits[i].start ? loader_at : ex->hits[i].start;
			else if (how == GW__HOW_ARCH)
				arch_at = arch_at < ex->hits[i].start ? arch_at : ex->hits[i].start;
			else if (how != GW__HOW_NUMBER && how != GW__HOW_GPU_WORD && how != GW__HOW_FALLBACK)
				gw__explain_record_hit(ex, &ex->hits[i], had_nul);
		}
		/* The general rules after the rows: a row that names the
		 * line's cause (the container toolkit's "load library failed:
		 * libnvidia-ml.so.1: cannot open ...") is more specific. */
		if (loader_at != SIZE_MAX)
			gw__explain_library_rule(ex, loader_at, had_nul);
		if (!info)
			gw__explain_library_found_after_all(ex);
		if (arch_at != SIZE_MAX)
			gw__explain_arch_rule(ex, arch_at, had_nul);
		for (unsigned i = 0; i < ex->nhits && !ex->line_matched && !info; i++)
			if (gw__explain_patterns[ex->hits[i].pat].how == GW__HOW_NUMBER)
				gw__explain_record_hit(ex, &ex->hits[i], had_nul);
		if (ex->line_matched && !info)
			gw__explain_unknown_error_numbered(ex);
		/* A refinement's context line (a warning that names the
		 * fix) is understood, not an unknown error. */
		if (gpu_word && !ex->line_matched && !context && !info)
			gw__explain_note_unrecognised(ex, had_nul);
		ex->host_line = false;
		ex->nhits = 0;
		gw__explain_next_generation(ex);
	}
	if (!ex->model_gpu[0]) {
		ex->line[ex->line_len] = '\0';
		gw__explain_read_model(ex);
	}
	/* Triton's and XLA's own words and paths ("triton/backends/nvidia/bin/ptxas",
	 * "xla/service/gpu", "XlaRuntimeError"): a JIT compiler generated the code. */
	if (!ex->jit_compiler)
		ex->jit_compiler = line_word(ex, W_TRITON) || line_word(ex, W_XLA);
	bool table = newline && !ex->cell_line;
	size_t row = table ? keep_row(ex) : 0;

	if (!newline && !ex->cell_line)
		ex->table.nlines = 0;      /* an over-long line: no table */
	if (newline && ex->nheld && ex->held_line != ex->lines)
		gw__explain_held_call_line(ex);
	if (newline) {
		ex->call_line = line_word(ex, W_IN_FILE) && gw__explain_cuda_check_statement(ex->line, ex->line_len) ? ex->lines + 1 : 0;
		/* the needle pass saw the words (anywhere, even in a prefix);
		 * the word-start test only on the few lines that hold them */
		ex->thrust_line = ex->word_at[W_THRUST] != SIZE_MAX &&
			gw__explain_names_library(ex->line, ex->line_len, "thrust::system::", true) ? ex->lines + 1 : 0;
	}
	ex->line_len = 0;
	if (newline) {
		if (ex->fx.n && ex->fx.line == ex->lines + 1) {
			ex->fx_last = ex->fx;   /* the nearest line that named ids */
			ex->fx.n = 0;
		}
		ex->lines++;
		ex->pending = false;
	}
	if (table)
		table_line(ex, row);
}

/* Append bytes (no newline among them) to the current line; end_piece
 * finds the needles in it. */
void gw__explain_scan_bytes(gw_explainer *ex, const char *p, size_t n)
{
	while (n) {
		size_t room = GW_EXPLAIN_LINE_MAX - ex->line_len;
		size_t take;

		if (!room) {
			gw__explain_end_piece(ex, false);
			continue;
		}
		take = n < room ? n : room;
		memcpy(ex->line + ex->line_len, p, take);
		ex->line_len += take;
		ex->pending = true;
		p += take;
		n -= take;
	}
}


/* gpuwise explain: lines joined before they are read: Kubernetes CRI
 * partial records, hard-wrapped terminal copies and word-wrapped prose. */
#include "explain/explain_int.h"

/* ---- Kubernetes CRI partial records ---------------------------------- */

/* The kubelet's log format (CRI, /var/log/pods/.../N.log, written by
 * containerd and CRI-O) is "TIME STREAM TAG TEXT"; a line longer than the
 * runtime's buffer (containerd's max_container_log_line_size, 16384 by
 * default; CRI-O's conmon reads 8 KiB at a time) is written as records
 * tagged "P" (partial), each continued by the next record of the same
 * stream, up to one tagged "F" (full): the kubelet's reader
 * (pkg/kubelet/kuberuntime/logs/logs.go, parseCRILog: a partial record's
 * text loses its line end) joins them so. Here too: a line
 * end after a partial record is read as none when the next record is of
 * the same stream, and that record's prefix is left out. Full records of
 * the other stream between them (its output goes on meanwhile) are set
 * aside, up to 4 KiB, and read after the joined line; a partial one, more
 * than that, or a line that is no record ends the line as it was. */

/* The CRI prefix at s ("2024-01-01T00:00:00.123456789Z stderr P "): its
 * length, the stream and whether the record is partial; 0 when none. */
size_t gw__explain_cri_record(const char *s, size_t n, int *stream, bool *partial)
{
	size_t b = n >= 20 && s[0] >= '0' && s[0] <= '9' ? gw__explain_iso_prefix(s, n) : 0;

	if (b < 25 || s[b - 10] != ' ' || s[b - 1] != ' ' || (s[b - 2] != 'P' && s[b - 2] != 'F') ||
	    (memcmp(s + b - 9, "stdout ", 7) && memcmp(s + b - 9, "stderr ", 7)))
		return 0;
	*stream = s[b - 6] == 'o' ? 1 : 2;   /* std(o)ut, std(e)rr */
	*partial = s[b - 2] == 'P';
	return b;
}

/* The stream of the partial record that the current line starts with,
 * or 0. */
static int cri_partial_start(const gw_explainer *ex)
{
	int stream;
	bool partial;

	const char *t = ex->line, *end = ex->line + (ex->line_len < 56 ? ex->line_len : 56);

	while ((t = memchr(t, 'P', (size_t)(end - t))) && !(t > ex->line && t[-1] == ' ' && t + 1 < end && t[1] == ' '))
		t++;
	if (!t)                            /* no " P " where a CRI tag stands */
		return 0;
	return gw__explain_cri_record(ex->line, ex->line_len, &stream, &partial) && partial ? stream : 0;
}

static uint64_t line_shape(const char *s, size_t n);

/* The line's first 8 bytes, kept for their shape (see wrap_decide). */
static void wrap_start_add(gw_explainer *ex)
{
	unsigned k = ex->pr.nwshapes++ % WRAP_SHAPES;
	char *w = ex->pr.wstarts[k];

	ex->pr.wshaped &= ~(1u << k);
	if (ex->line_len >= 8)
		memcpy(w, ex->line, 8);
	else {
		memset(w, 0, 8);
		memcpy(w, ex->line, ex->line_len);
	}
}
#define WRAP_MIN 60
#define WRAP_MAX 250

/* A line is complete. */
static void line_end(gw_explainer *ex)
{
	if (ex->pr.wmax <= WRAP_MAX && !ex->piece_cont)
		wrap_start_add(ex);
	ex->pr.raw_len = 0;
	ex->pr.wchain = false;
	ex->pr.sjoined = false;
	ex->pending = true;
	gw__explain_end_piece(ex, true);
	/* A line read from several (a rich box's, CRI records): what
	 * waits for the next line waits for the one after them. */
	if (ex->pr.joined && ex->call_line == ex->lines)
		ex->call_line += ex->pr.joined;
	if (ex->pr.joined && ex->nheld && ex->held_line + 1 + ex->held_skip == ex->lines)
		ex->held_line += ex->pr.joined;
	ex->lines += ex->pr.joined;
	ex->pr.joined = 0;
	ex->pr.cri_joined = false;
	ex->pr.cri_stream = 0;
	if (ex->pr.ncri_side && !ex->pr.cri_stashing) {   /* the records set aside */
		char side[sizeof(ex->pr.cri_side)];
		size_t n = ex->pr.ncri_side;

		memcpy(side, ex->pr.cri_side, n);
		ex->pr.ncri_side = 0;
		gw__explain_line_bytes(ex, side, n);
	}
}

/* The start of the record after a partial one is held: go on with the
 * line when it is the same stream's, else end the line and read it. */
static void cri_decide(gw_explainer *ex)
{
	char held[sizeof(ex->pr.cri)];
	size_t n = ex->pr.ncri, b;
	int stream = 0;
	bool partial = false;

	ex->pr.cri_hold = false;
	ex->pr.ncri = 0;
	b = gw__explain_cri_record(ex->pr.cri, n, &stream, &partial);
	if (b && stream == ex->pr.cri_stream) {
		ex->pr.joined++;
		ex->pr.cri_joined = true;
		ex->pr.cri_stream = partial ? stream : 0;
		gw__explain_scan_bytes(ex, ex->pr.cri + b, n - b);
		ex->pr.raw_len += n - b;
		return;
	}
	if (b && !partial && ex->pr.ncri_side + n < sizeof(ex->pr.cri_side)) {
		memcpy(ex->pr.cri_side + ex->pr.ncri_side, ex->pr.cri, n);
		ex->pr.ncri_side += n;
		ex->pr.cri_stashing = true;    /* the rest of the record, then the next */
		return;
	}
	memcpy(held, ex->pr.cri, n);
	line_end(ex);
	gw__explain_line_bytes(ex, held, n);
}

/* ---- hard-wrapped lines ------------------------------------------------ */

/* A terminal's copy (tmux, screen, an xterm selection) of a line longer
 * than the terminal is wide cuts it every W columns, mid-word, and nothing
 * marks the cut: a line of exactly W columns may as well have been that
 * long. The cut is told by the log around it
 * (tests/explain/README-presentation.md measures each part):
 *  - W is the width of the widest line so far, between WRAP_MIN and
 *    WRAP_MAX columns, and at least two lines (the next one counted) are
 *    exactly that wide: a terminal's copy has none wider;
 *  - the line is no row of a text table ('|' or '+' first and last, after
 *    a known line prefix): nvidia-smi's and Triton's tables are of one
 *    width;
 *  - the next line, read whole, is not empty, does not start as a new
 *    line does (a capital, a digit, a blank or an indent, a bracket, a
 *    quote marker, a prompt '$', a table's or a box's border), and more
 *    of the lines W wide so far went on so than not (a natural line
 *    that happens to be W wide is mostly followed by a new one); both
 *    unless the line was itself joined from a cut (a long line cut many
 *    times goes on whatever its pieces start with); it does not start
 *    with the shape (digits, letters, the rest as they are) of the first
 *    8 bytes of the line or of one of the WRAP_SHAPES lines before it:
 *    lines of one logger's format are no cut.
 * Then the two are read as one line, with nothing between them. Columns
 * are code points, a tab to the next multiple of 8; a line is measured
 * only when it has at least as many bytes as the widest has columns. */

static uint64_t line_shape(const char *s, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < 8; i++) {
		uint8_t c = i < n ? (uint8_t)s[i] : 0;

		if (c >= '0' && c <= '9')
			c = '9';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
			c = 'a';
		v = v << 8 | c;
	}
	return v;
}

static bool wrap_shape_seen(gw_explainer *ex, uint64_t v)
{
	for (unsigned i = 0; i < ex->pr.nwshapes && i < WRAP_SHAPES; i++) {
		if (!(ex->pr.wshaped & 1u << i)) {
			ex->pr.wshapes[i] = line_shape(ex->pr.wstarts[i], 8);
			ex->pr.wshaped |= 1u << i;
		}
		if (ex->pr.wshapes[i] == v)
			return true;
	}
	return false;
}

static void wrap_count(gw_explainer *ex, size_t cols)
{
	if (cols > ex->pr.wmax) {
		ex->pr.wmax = cols;
		ex->pr.wcnt = 1;
		ex->pr.wcont = ex->pr.wnew = 0;
	} else if (cols == ex->pr.wmax)
		ex->pr.wcnt++;
}

/* A row or a rule of a text table, after the line's known prefix? */
static bool table_row(const char *s, size_t n)
{
	bool bar = false;
	size_t b = gw__explain_line_prefix(s, n, &bar);

	while (b < n && (s[b] == ' ' || s[b] == '\t'))
		b++;
	n = gw__explain_trimmed_len(s, n);
	return n > b + 1 && (s[b] == '|' || s[b] == '+') && (s[n - 1] == '|' || s[n - 1] == '+');
}

/* Does the line start as a new line does? */
static bool starts_new_line(const char *s, size_t n)
{
	uint8_t c = n ? (uint8_t)s[0] : 0;

	if (!n || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return true;
	if (c && strchr(" \t[(<{|+#*=>-$", c))
		return true;
	/* U+2500..U+257F: box drawing (rich's and tables' borders) */
	return n >= 2 && c == 0xe2 && (s[1] == '\x94' || s[1] == '\x95');
}

/* Does a line that starts with s go on from a line W wide that ended in
 * `last`? A digit after a letter or digit is a number or a name cut in
 * two ("sm7" then "5 or higher"), not a new line's count or time. */
static bool goes_on_from(const char *s, size_t n, char last)
{
	if (n && s[0] >= '0' && s[0] <= '9' && is_word_byte(last))
		return true;
	return !starts_new_line(s, n);
}

/* A line (its raw bytes the last pr.raw_len of ex->line) ended: measure
 * it; true when it is W wide and may have been cut (the next line will
 * tell). */
static bool wrap_candidate(gw_explainer *ex)
{
	size_t w = 0, n = ex->pr.raw_len;
	bool measured = false;

	if (ex->pr.wcounted) {
		w = ex->pr.wnext;
		ex->pr.wcounted = false;
		measured = true;
	} else if (ex->pr.wmax > WRAP_MAX || n < ex->pr.wmax)
		;                          /* narrower than the widest */
	else if (n > 4 * WRAP_MAX || n > ex->line_len)
		ex->pr.wmax = SIZE_MAX;    /* wider than any terminal cut: off */
	else {
		w = gw__explain_text_columns(ex->line + ex->line_len - n, n);
		wrap_count(ex, w);
		measured = true;
	}
	/* The line after one of the width that was not held (wrap_hold):
	 * whether it goes on counts as when it is held. */
	if (ex->pr.wpeek) {
		ex->pr.wpeek = false;
		if (ex->pr.wmax == ex->pr.wpeek_w) {
			bool goes_on = n <= ex->line_len &&
				       goes_on_from(ex->line + ex->line_len - n, n, ex->pr.wpeek_last);

			ex->pr.wcont += goes_on;
			ex->pr.wnew += !goes_on;
		}
	}
	if (!measured || w != ex->pr.wmax || w < WRAP_MIN || w > WRAP_MAX || n > ex->line_len)
		return false;
	return !table_row(ex->line + ex->line_len - n, n);
}

/* Hold the next line? Not when no join can come of it: a line that was
 * not joined from a cut needs more of the lines of the width to have gone
 * on than not, and this pair adds one at most (the bench's fixed-width
 * lines, each followed by a new one). Then only its start is looked at,
 * when it ends (wrap_candidate). */
static bool wrap_hold(gw_explainer *ex)
{
	if (ex->pr.wchain || ex->pr.wcont >= ex->pr.wnew)
		return true;
	ex->pr.wpeek = true;
	ex->pr.wpeek_w = ex->pr.wmax;
	ex->pr.wpeek_last = ex->line_len ? ex->line[ex->line_len - 1] : '\0';
	return false;
}

/* ---- word-wrapped lines ------------------------------------------------ */

/* A message wrapped by hand or by a program at a word, at no fixed width:
 * R's cli bullets at the console's width, with the next line indented by
 * two blanks ("... AssertionError: Torch" / "  not compiled with CUDA
 * enabled"), a kubelet event copied from a narrow window ("cuda error: no
 * cuda-capable device is" / "detected"), a Windows dialog's text ("has
 * requested more GPU memory than is" / "available in the system."). The
 * terminal's cut above needs lines of one width; this needs none, so it
 * asks more of the two lines themselves:
 *  - the line is 40 to 1000 bytes long (blanks at its end left out), is
 *    no Python frame line ("..., line 258, in cuda"), was
 *    not itself joined so (a terminal's cut may have joined it), is no
 *    table row and ends in a plain word of two or
 *    more letters after a blank: no punctuation that ends a sentence or a
 *    record (". ) ] : >"), no path, number or identifier;
 *  - the next line starts, after its known prefix (line_prefix: each
 *    line of a wrapped message gets the logger's) and at most two blanks (a traceback's code
 *    line is indented four, under a frame line indented two), with a word
 *    of two or more lower-case letters that is followed by a blank and a
 *    second lower-case word, or by punctuation other than '(', '.', '=',
 *    '[', ':', '/', '-', '|' (a call, code, a path, a host name, a
 *    logger's "note:", a column), and
 *    that is not "in", "at" or "from" (a location's line) nor the first of
 *    a few words before ': ' (a label's line: ggml's "current device: 0,
 *    in function ...").
 * Then the two are read as one line, one blank between them. */
static bool soft_candidate(const gw_explainer *ex)
{
	const char *s = ex->line;
	size_t n = gw__explain_trimmed_len(ex->line, ex->line_len), k = 0;

	if (ex->piece_cont || ex->pr.sjoined || n < 40 || n > 1000 || table_row(s, n))
		return false;
	while (k < n && ((s[n - 1 - k] >= 'a' && s[n - 1 - k] <= 'z') || (s[n - 1 - k] >= 'A' && s[n - 1 - k] <= 'Z')))
		k++;
	/* Python's frame line ("File ..., line 258, in cuda") is followed by
	 * its code line, never by the rest of a sentence. */
	if (k + 5 <= n && literal_at(s + n - k - 5, ", in ", 5))
		return false;
	return k >= 2 && k < n && s[n - 1 - k] == ' ';
}

static bool soft_continues(const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && s[k] >= 'a' && s[k] <= 'z')
		k++;
	/* A location's line ("in external/.../cuda_asm_compiler.cc(69)",
	 * "at ...", "from ...") is a line of its own: held_call_line reads it. */
	if ((k == 2 && (literal_at(s, "in", 2) || literal_at(s, "at", 2))) || (k == 4 && literal_at(s, "from", 4)))
		return false;
	if (k < 2)
		return false;
	/* Prose goes on: a second lower-case word after one blank, or
	 * punctuation; not a host name ("host-2:", "rdma-test-gpu-worker-0"),
	 * a count ("process 27541"), a column ("ollama  | ...") or code. */
	if (k < n && (s[k] == ' ' ? !(k + 1 < n && s[k + 1] >= 'a' && s[k + 1] <= 'z')
			       : is_word_byte(s[k]) || strchr("(.=[:/-|", s[k])))
		return false;
	/* A label's line, words and ':' ("current device: 0, in function
	 * cublas_handle at ...": ggml's location after its error line). */
	while (k < n && k < 40 && (s[k] == ' ' || (s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z')))
		k++;
	return !(k < n && s[k] == ':' && (k + 1 == n || s[k + 1] == ' '));
}

/* The held line (pr.wbuf, n bytes, w columns, already counted) goes on
 * the soft candidate before it: read the two as one line. */
static bool soft_join(gw_explainer *ex, size_t n, size_t w)
{
	bool bar = false;
	size_t b = gw__explain_line_prefix(ex->pr.wbuf, n, &bar), indent = 0;

	/* A logger's or collector's prefix (a timestamp, "[rank0]: ", "> ")
	 * is put before every line the program wrote, its wrapped message's
	 * too, and a tqdm bar is glued before whatever line comes next: the
	 * next line goes on after its prefix. */
	if (bar)
		return false;
	while (b < n && indent < 2 && ex->pr.wbuf[b] == ' ')
		b++, indent++;
	if (!soft_continues(ex->pr.wbuf + b, n - b))
		return false;
	ex->pr.joined++;
	ex->pr.sjoined = true;
	ex->line_len = gw__explain_trimmed_len(ex->line, ex->line_len);   /* one blank between */
	gw__explain_scan_bytes(ex, " ", 1);
	gw__explain_scan_bytes(ex, ex->pr.wbuf + b, n - b);
	ex->pr.raw_len = n - b;
	ex->pr.wcounted = true;
	ex->pr.wnext = w;
	return true;
}

/* The held next line (pr.wbuf) is taken: its width is counted (wrap_count),
 * or the width rule is off when it filled the buffer. */
static size_t take_held(gw_explainer *ex, size_t *w, bool *full)
{
	size_t n = ex->pr.nwbuf;

	*full = n == sizeof(ex->pr.wbuf);
	*w = 0;
	ex->pr.nwbuf = 0;
	if (*full)
		ex->pr.wmax = SIZE_MAX;
	else {
		*w = gw__explain_text_columns(ex->pr.wbuf, n);
		wrap_count(ex, *w);
	}
	return n;
}

/* No join: end the line before and read the held one as a line of its
 * own, its width already counted. */
static void read_held_alone(gw_explainer *ex, size_t n, size_t w, bool full)
{
	char held[sizeof(ex->pr.wbuf)];

	memcpy(held, ex->pr.wbuf, n);
	line_end(ex);
	if (!full) {
		ex->pr.wcounted = true;
		ex->pr.wnext = w;
	}
	gw__explain_line_bytes(ex, held, n);
}

/* The line after a soft candidate is held whole: join the two, or end
 * the line and read it (its width counted as wrap_decide counts it). */
static void soft_decide(gw_explainer *ex)
{
	size_t w, n;
	bool full;

	ex->pr.whold = ex->pr.shold = false;
	n = take_held(ex, &w, &full);
	if (!full && soft_join(ex, n, w))
		return;
	read_held_alone(ex, n, w, full);
}

/* The line after a line W wide is held whole (or as much as fits, then
 * it is wider than any W): join the two, or end the line and read it. */
void gw__explain_wrap_decide(gw_explainer *ex)
{
	size_t w, n, pw = ex->pr.wmax;
	bool full, join, goes_on;
	char last = ex->line_len ? ex->line[ex->line_len - 1] : '\0';

	if (ex->pr.shold) {
		soft_decide(ex);
		return;
	}
	ex->pr.whold = false;
	n = take_held(ex, &w, &full);
	goes_on = goes_on_from(ex->pr.wbuf, n, last);
	if (!full && ex->pr.wmax == pw) {
		ex->pr.wcont += goes_on;
		ex->pr.wnew += !goes_on;
	}
	join = !full && n && ex->pr.wmax == pw && ex->pr.wcnt >= 2 &&
	       (ex->pr.wchain || (goes_on && ex->pr.wcont > ex->pr.wnew));
	if (join) {
		uint64_t v = line_shape(ex->pr.wbuf, n);

		join = !wrap_shape_seen(ex, v) && (ex->piece_cont || v != line_shape(ex->line, ex->line_len));
	}
	if (join) {
		ex->pr.joined++;
		ex->pr.wchain = true;
		gw__explain_scan_bytes(ex, ex->pr.wbuf, n);
		ex->pr.raw_len = n;
		ex->pr.wcounted = true;
		ex->pr.wnext = w;
		return;
	}
	/* No terminal's cut: a word's wrap, perhaps (soft_candidate). */
	if (!full && soft_candidate(ex) && soft_join(ex, n, w))
		return;
	read_held_alone(ex, n, w, full);
}

void gw__explain_line_bytes(gw_explainer *ex, const char *buf, size_t len)
{
	while (len) {
		if (ex->pr.whold) {
			const char *nl = memchr(buf, '\n', len);
			size_t k = nl ? (size_t)(nl - buf) : len, room = sizeof(ex->pr.wbuf) - ex->pr.nwbuf;

			k = k < room ? k : room;
			memcpy(ex->pr.wbuf + ex->pr.nwbuf, buf, k);
			ex->pr.nwbuf += k;
			buf += k;
			len -= k;
			if (!len && ex->pr.nwbuf < sizeof(ex->pr.wbuf))
				break;             /* more to come */
			gw__explain_wrap_decide(ex);
			continue;
		}
		if (ex->pr.cri_stashing) {         /* the other stream's record */
			const char *nl = memchr(buf, '\n', len);
			size_t k = nl ? (size_t)(nl - buf) + 1 : len;

			if (ex->pr.ncri_side + k > sizeof(ex->pr.cri_side)) {
				ex->pr.cri_stashing = false;
				line_end(ex);      /* too long: read as it came */
				continue;
			}
			memcpy(ex->pr.cri_side + ex->pr.ncri_side, buf, k);
			ex->pr.ncri_side += k;
			buf += k;
			len -= k;
			if (nl) {
				ex->pr.cri_stashing = false;
				ex->pr.cri_hold = true;
			}
			continue;
		}
		if (ex->pr.cri_hold) {
			size_t k = 0;

			while (k < len && buf[k] != '\n' && ex->pr.ncri < sizeof(ex->pr.cri))
				ex->pr.cri[ex->pr.ncri++] = buf[k++];
			buf += k;
			len -= k;
			if (!len && ex->pr.ncri < sizeof(ex->pr.cri))
				break;             /* more to come */
			cri_decide(ex);
			continue;
		}
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;

		gw__explain_scan_bytes(ex, buf, n);
		ex->pr.raw_len += n;
		if (!nl)
			break;
		buf += n + 1;
		len -= n + 1;
		int stream = ex->pr.cri_joined ? ex->pr.cri_stream :
			     ex->piece_cont ? ex->pr.cri_first :
			     ex->line[0] >= '0' && ex->line[0] <= '9' ? cri_partial_start(ex) : 0;

		if (stream) {              /* a partial record: the next goes on */
			ex->pr.cri_stream = stream;
			ex->pr.cri_hold = true;
			continue;
		}
		if (!ex->pr.in_box && wrap_candidate(ex) && wrap_hold(ex)) {
			ex->pr.whold = true;   /* the next line tells */
			continue;
		}
		if (!ex->pr.in_box && soft_candidate(ex)) {
			ex->pr.whold = ex->pr.shold = true;
			continue;
		}
		line_end(ex);
	}
}

/* The stream ended while the record after a partial one, or the line
 * after one W wide, was held. */
void gw__explain_held_finish(gw_explainer *ex)
{
	if (ex->pr.cri_hold)
		cri_decide(ex);
	if (ex->pr.cri_stashing || ex->pr.ncri_side) {
		ex->pr.cri_stashing = false;
		line_end(ex);
	}
	if (ex->pr.whold)
		gw__explain_wrap_decide(ex);
}


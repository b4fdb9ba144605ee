/* gpuwise explain: the bytes around the text. UTF-16 and byte order
 * marks, box-drawn panels, JSON log lines, terminal escapes and HTML
 * entities are taken off before a line is read. */
#include "explain/explain_int.h"

/* ---- UTF-16 input ----------------------------------------------------- */

/* A log written as UTF-16 (Windows PowerShell 5's `>` and Out-File write
 * UTF-16LE with a byte order mark; so do .NET's and Python's "utf-16"
 * writers) has a NUL beside every ASCII character, so that no message
 * matches as bytes. A stream that starts with a byte order mark (FF FE,
 * FE FF) is read as UTF-16 of that order and scanned as UTF-8. */

/* Append code point c as UTF-8 to out; returns the bytes written. */
static size_t put_utf8(char *out, uint32_t c)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3f));
	out[2] = (char)(0x80 | (c >> 6 & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* One UTF-16 code unit; a lone surrogate becomes U+FFFD. */
static size_t put_unit(gw_explainer *ex, char *out, uint32_t u)
{
	size_t n = 0;

	if (ex->high && (u < 0xdc00 || u > 0xdfff)) {
		n = put_utf8(out, 0xfffd);
		ex->high = 0;
	}
	if (u >= 0xd800 && u <= 0xdbff) {
		ex->high = u;
		return n;
	}
	if (u >= 0xdc00 && u <= 0xdfff) {
		if (!ex->high)
			return n + put_utf8(out + n, 0xfffd);
		u = 0x10000 + ((ex->high - 0xd800) << 10) + (u - 0xdc00);
		ex->high = 0;
	}
	return n + put_utf8(out + n, u);
}

void gw__explain_feed_utf16(gw_explainer *ex, const uint8_t *p, size_t len)
{
	char out[4096];
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		if (ex->odd < 0) {
			ex->odd = p[i];
			continue;
		}
		uint32_t u = ex->utf16 == UTF16_LE ? (uint32_t)ex->odd | (uint32_t)p[i] << 8
						   : (uint32_t)ex->odd << 8 | p[i];

		ex->odd = -1;
		if (o + 8 > sizeof(out)) {
			gw__explain_feed_bytes(ex, out, o);
			o = 0;
		}
		o += put_unit(ex, out + o, u);
	}
	gw__explain_feed_bytes(ex, out, o);
}

/* Decide, from the stream's first two bytes, whether it is UTF-16; the
 * bytes held until then are fed as they are when it is not. */
void gw__explain_decide_encoding(gw_explainer *ex)
{
	ex->decided = true;
	if (ex->nhead == 2 && ex->head[0] == 0xff && ex->head[1] == 0xfe)
		ex->utf16 = UTF16_LE;
	else if (ex->nhead == 2 && ex->head[0] == 0xfe && ex->head[1] == 0xff)
		ex->utf16 = UTF16_BE;
	else
		gw__explain_feed_bytes(ex, (const char *)ex->head, ex->nhead);
}

/* ---- wrapped lines ------------------------------------------------------ */

/* A message longer than the terminal is wide reaches the log cut in pieces:
 *  - rich (Panel, Traceback, a box of Console.print) frames each line as
 *    "│ " + text padded to the box + " │" and wraps the text greedily at
 *    word bounds, so a line was wrapped when the next line's first word
 *    would have fitted on it: then the two are read as one line, joined
 *    by a space (frames and padding are left out either way);
 *  - a terminal's copy (tmux, screen, an xterm selection) cuts a long line
 *    at the terminal's width, mid-word, with nothing in the line to tell
 *    the cut from a line that was that long: joined only where the log
 *    around it says so (see wrap_decide, "hard-wrapped lines").
 * Columns are code points, a tab to the next multiple of 8. */
#define BOX_BAR "\xe2\x94\x82"         /* U+2502 BOX DRAWINGS LIGHT VERTICAL */

size_t gw__explain_text_columns(const char *p, size_t n)
{
	size_t col = 0;

	if (!memchr(p, '\t', n)) {        /* code points: bytes that start one */
		size_t i = 0;

		for (uint64_t v; i + 8 <= n; i += 8, col += 8) {   /* ASCII, 8 at a time */
			memcpy(&v, p + i, 8);
			if (v & 0x8080808080808080ull)
				break;
		}
		for (; i < n; i++)
			col += ((uint8_t)p[i] & 0xc0) != 0x80;
		return col;
	}

	for (size_t i = 0; i < n; i++)
		if (p[i] == '\t')
			col = (col / 8 + 1) * 8;
		else if (((uint8_t)p[i] & 0xc0) != 0x80)
			col++;
	return col;
}

/* A boxed line's text or line end: no terminal's cut (see wrap_decide);
 * a line held for one is ended first. */
static void box_bytes(gw_explainer *ex, const char *p, size_t n)
{
	if (ex->pr.whold)
		gw__explain_wrap_decide(ex);
	ex->pr.wpeek = false;
	ex->pr.in_box = true;
	gw__explain_line_bytes(ex, p, n);
	ex->pr.in_box = false;
}

/* The newline held after a boxed line, given now. */
static void box_release(gw_explainer *ex)
{
	if (ex->pr.box_held) {
		ex->pr.box_held = false;
		box_bytes(ex, "\n", 1);
	}
}

/* A boxed line is complete in pr.bline (without its newline). */
static void box_line_end(gw_explainer *ex)
{
	const char *b = ex->pr.bline;
	size_t n = ex->pr.nb;

	while (n > 3 && b[n - 1] == ' ')
		n--;
	if (n < 6 || memcmp(b + n - 3, BOX_BAR, 3)) {   /* no right frame: no box */
		box_release(ex);
		gw__explain_line_bytes(ex, ex->pr.bline, ex->pr.nb);
		gw__explain_line_bytes(ex, "\n", 1);
		return;
	}
	size_t inner = gw__explain_text_columns(b + 3, n - 6);
	const char *t = b + 3;
	size_t len = n - 6;

	if (len && *t == ' ') {
		t++;
		len--;
		inner--;
	}
	if (inner)
		inner--;           /* the blank before the right frame */
	while (len && t[len - 1] == ' ')
		len--;
	size_t cols = gw__explain_text_columns(t, len), word = 0;

	while (word < len && t[word] != ' ')
		word++;
	if (ex->pr.box_held) {
		bool wrapped = len && ex->pr.box_width == inner &&
			       ex->pr.box_cols + 1 + gw__explain_text_columns(t, word) > inner;

		/* A word longer than the box is folded at its width: a held
		 * line that fills the box and is one word (after its indent)
		 * goes on with no blank between. */
		bool folded = len && *t != ' ' && ex->pr.box_token && ex->pr.box_width == inner &&
			      ex->pr.box_cols == inner;

		ex->pr.box_held = false;
		if (wrapped || folded)
			ex->pr.joined++;
		if (!folded)
			box_bytes(ex, wrapped ? " " : "\n", 1);
	}
	box_bytes(ex, t, len);
	size_t lead = 0;

	while (lead < len && t[lead] == ' ')
		lead++;
	ex->pr.box_held = true;
	ex->pr.box_token = lead < len && !memchr(t + lead, ' ', len - lead);
	ex->pr.box_cols = cols;
	ex->pr.box_width = inner;
}

/* Clean text, on to the line splitter, boxed lines unframed and joined. */
static void text_bytes(gw_explainer *ex, const char *p, size_t n)
{
	while (n) {
		if (ex->pr.bstate == 2) {          /* lines that are no box's */
			const char *q = memmem(p, n, "\n" BOX_BAR, 4);
			size_t m = q ? (size_t)(q - p) + 1 : n;

			if (!q) {                  /* the last line's start may be one */
				const char *nl = memrchr(p, '\n', n);

				if (nl && (size_t)(p + n - nl) <= 3 && !memcmp(nl + 1, BOX_BAR, (size_t)(p + n - nl) - 1))
					m = (size_t)(nl - p) + 1;
			}
			gw__explain_line_bytes(ex, p, m);
			if (p[m - 1] == '\n')
				ex->pr.bstate = 0;
			p += m;
			n -= m;
			continue;
		}
		if (ex->pr.bstate == 0) {          /* a line's start: a bar? */
			if (ex->pr.nb < 3 && *p == BOX_BAR[ex->pr.nb]) {
				ex->pr.bline[ex->pr.nb++] = *p++;
				n--;
				if (ex->pr.nb == 3)
					ex->pr.bstate = 1;
				continue;
			}
			box_release(ex);
			gw__explain_line_bytes(ex, ex->pr.bline, ex->pr.nb);
			ex->pr.nb = 0;
			ex->pr.bstate = 2;
			continue;
		}
		const char *nl = memchr(p, '\n', n);   /* a boxed line: kept whole */
		size_t m = nl ? (size_t)(nl - p) : n;

		if (ex->pr.nb + m > sizeof(ex->pr.bline)) {
			box_release(ex);
			gw__explain_line_bytes(ex, ex->pr.bline, ex->pr.nb);
			ex->pr.nb = 0;
			ex->pr.bstate = 2;
			continue;
		}
		memcpy(ex->pr.bline + ex->pr.nb, p, m);
		ex->pr.nb += m;
		p += m;
		n -= m;
		if (nl) {
			p++;
			n--;
			box_line_end(ex);
			ex->pr.nb = 0;
			ex->pr.bstate = 0;
		}
	}
}

/* The stream ended: a line held whole is read, the newline held given. */
static void box_finish(gw_explainer *ex)
{
	if (ex->pr.bstate == 1)
		box_line_end(ex);
	else if (ex->pr.nb) {
		box_release(ex);
		gw__explain_line_bytes(ex, ex->pr.bline, ex->pr.nb);
	}
	ex->pr.nb = 0;
	ex->pr.bstate = 0;
	box_release(ex);
}

/* ---- presentation ------------------------------------------------------ */

/* Pasted logs come wrapped in things that are no part of any message
 * (tests/explain/README-presentation.md measures each). Before the text is
 * split into lines the reader takes away:
 *  - a UTF-8 byte order mark at the stream's start (Notepad; PowerShell 7's
 *    Out-File -Encoding utf8BOM);
 *  - terminal escape sequences (ECMA-48): CSI, ESC '[' up to a final byte
 *    in 0x40..0x7e (SGR colour of pytest --color=yes, loguru, rich, tqdm's
 *    and pip's erase-line), OSC, ESC ']' up to BEL or ESC '\' (rich's and
 *    ls's hyperlinks), and the other two-byte ones (tput sgr0's ESC '(' 'B');
 *  - SGR colour whose ESC was lost in pasting, "[1;31m" as text (see
 *    sgr_params for what is one);
 *  - CR: CR LF is one line end, and a lone CR (tqdm's, pip's and curl's
 *    redraws) ends a line, as a terminal shows what follows it over the
 *    line before;
 *  - HTML's character references (&quot; &#39; &lt; &gt; &amp; &apos;
 *    &nbsp; &#N; &#xH;) of a page copied as source;
 *  - JSON: a line that is a JSON object ('{' then '"': Docker's json-file
 *    driver, fluent-bit, JSON loggers, a whole log in one string value) is
 *    read as its string values, escapes decoded ("\n" a line end, "\uXXXX"
 *    as UTF-8); a string of under 64 bytes without a blank (a key, "stderr",
 *    a timestamp) is left out, so the log's own lines follow each other as
 *    they were printed, and each value ends a line. */

static size_t put_utf8(char *out, uint32_t c);

/* An HTML character reference's text (between '&' and ';') as UTF-8 in
 * out; its length, 0 when it is none. */
static size_t html_reference(const char *e, size_t n, char *out)
{
	static const struct { const char *name, *text; } named[] = {
		{"quot", "\""}, {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"apos", "'"}, {"nbsp", " "},
	};
	uint32_t c = 0;
	size_t i = 1;
	unsigned base = 10;

	if (n && e[0] == '#') {
		if (i < n && (e[i] == 'x' || e[i] == 'X')) {
			base = 16;
			i++;
		}
		if (i == n)
			return 0;
		for (; i < n; i++) {
			char d = e[i];
			unsigned v = d >= '0' && d <= '9' ? (unsigned)(d - '0') :
				     d >= 'a' && d <= 'f' ? (unsigned)(d - 'a' + 10) :
				     d >= 'A' && d <= 'F' ? (unsigned)(d - 'A' + 10) : 99;
			if (v >= base || (c = c * base + v) > 0x10ffff)
				return 0;
		}
		if (!c || (c >= 0xd800 && c <= 0xdfff))
			return 0;
		return put_utf8(out, c);
	}
	for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
		if (strlen(named[k].name) == n && !memcmp(named[k].name, e, n)) {
			strcpy(out, named[k].text);
			return strlen(out);
		}
	return 0;
}

/* Are the parameters between '[' and 'm' those of an SGR sequence whose
 * ESC was lost (ECMA-48 8.3.117; xterm's ctlseqs): numbers of at most
 * three digits up to 255 split by ';', at least one digit, the first a
 * defined rendition (0-9 attributes, 21-29 their resets, 30-39 and 40-49
 * colours with 38/48 ";5;N" and ";2;R;G;B", 51-55, 58-65, 73-75, 90-97
 * and 100-107 bright colours)? A text's "[5m" or "[70m" is rarer than
 * "[31m"; "[m" alone (a reset too) is left, as "[main]" starts so. */
static bool sgr_params(const char *s, size_t n)
{
	unsigned v = 0, first = 0, digits = 0, params = 0;
	bool any = false;

	for (size_t i = 0; i <= n; i++) {
		if (i == n || s[i] == ';') {
			if (!params++)
				first = v;
			v = digits = 0;
			continue;
		}
		any = true;
		v = v * 10 + (unsigned)(s[i] - '0');
		if (++digits > 3 || v > 255)
			return false;
	}
	return any && (first <= 9 || (first >= 21 && first <= 55 && first != 50) || (first >= 58 && first <= 65) ||
		       (first >= 73 && first <= 75) || (first >= 90 && first <= 97) || (first >= 100 && first <= 107));
}

/* One number from 1 to 29 (no ';'): before ']' it reads as minutes. */
static bool sgr_duration(const char *s, size_t n)
{
	unsigned v = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == ';')
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	return v >= 1 && v <= 29;
}

/* One byte that starts or continues an escape sequence, a reference or a
 * line end; false: the byte was not taken (the state was reset) and is to
 * be read again as an ordinary one. */
static bool presentation_step(gw_explainer *ex, uint8_t c)
{
	if (ex->pr.cr) {
		int cr = ex->pr.cr;

		ex->pr.cr = 0;
		if (cr == 1)
			return c == '\n';  /* CR LF: the line end was given */
		if (c == '\n')             /* CR LF after a line end: an empty line */
			return false;
	}
	switch (ex->pr.esc) {
	case 1:
		ex->pr.esc = c == '[' ? 2 : c == ']' ? 3 : c == '(' || c == ')' || c == '#' || c == '%' ? 5 : 0;
		return ex->pr.esc || (c >= 0x30 && c <= 0x7e);
	case 2:                            /* CSI: parameters, intermediates, final */
		if (c >= 0x20 && c <= 0x3f)
			return true;
		ex->pr.esc = 0;
		return c >= 0x40 && c <= 0x7e;
	case 3:                            /* OSC: up to BEL or ST (ESC '\') */
		if (c == 0x07 || c == 0x1b) {
			ex->pr.esc = c == 0x1b ? 4 : 0;
			return true;
		}
		if (c == '\n' || c == '\r') {
			ex->pr.esc = 0;
			return false;
		}
		return true;
	case 4:
		ex->pr.esc = c == '\\' ? 0 : 1;
		return c == '\\';
	case 5:
		ex->pr.esc = 0;
		return c != '\n' && c != '\r' && c != 0x1b;
	}
	if (ex->pr.nent) {
		if (c == ';') {
			char out[8];
			size_t k = html_reference(ex->pr.ent + 1, ex->pr.nent - 1, out);

			if (k)
				text_bytes(ex, out, k);
			else {
				text_bytes(ex, ex->pr.ent, ex->pr.nent);
				text_bytes(ex, ";", 1);
			}
			ex->pr.nent = 0;
			return true;
		}
		if (ex->pr.nent < sizeof(ex->pr.ent) &&
		    ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		     (c == '#' && ex->pr.nent == 1))) {
			ex->pr.ent[ex->pr.nent++] = (char)c;
			return true;
		}
		text_bytes(ex, ex->pr.ent, ex->pr.nent);
		ex->pr.nent = 0;
		return false;
	}
	if (ex->pr.nsgr) {
		if (ex->pr.sgr[ex->pr.nsgr - 1] == 'm') {
			/* "[5m]", "[15m]" are durations (a PromQL range, a
			 * timeout), no colour: a lone attribute before ']' is
			 * text; a colour or a reset ("[31m]", "[0m]") is not. */
			if (c == ']' && sgr_duration(ex->pr.sgr + 1, ex->pr.nsgr - 2))
				text_bytes(ex, ex->pr.sgr, ex->pr.nsgr);
			ex->pr.nsgr = 0;
			return false;
		}
		if (((c >= '0' && c <= '9') || c == ';') && ex->pr.nsgr + 1 < sizeof(ex->pr.sgr)) {
			ex->pr.sgr[ex->pr.nsgr++] = (char)c;
			return true;
		}
		if (c == 'm' && sgr_params(ex->pr.sgr + 1, ex->pr.nsgr - 1)) {
			ex->pr.sgr[ex->pr.nsgr++] = 'm';
			return true;
		}
		text_bytes(ex, ex->pr.sgr, ex->pr.nsgr);
		ex->pr.nsgr = 0;
		return false;
	}
	if (c == 0x1b) {
		ex->pr.esc = 1;
		return true;
	}
	if (c == '[') {
		ex->pr.sgr[0] = '[';
		ex->pr.nsgr = 1;
		return true;
	}
	if (c == '\r') {
		/* A CR just after a line end (tqdm redraws its bar with "\r"
		 * first) ends no line: only a CR LF there is an empty line. */
		if (ex->pr.bstate == 0 && ex->pr.nb == 0) {
			ex->pr.cr = 2;
			return true;
		}
		text_bytes(ex, "\n", 1);
		ex->pr.cr = 1;
		return true;
	}
	if (c == '&') {
		ex->pr.ent[0] = '&';
		ex->pr.nent = 1;
		return true;
	}
	return false;
}

/* May an ESC-less SGR sequence start at the '[' at q (n bytes left)? A
 * digit must follow, and where the sequence ends within the n bytes it
 * must end in 'm' ("[0]", "[12:01<" are read as text at once). */
static bool sgr_may_start(const char *q, size_t n)
{
	size_t i = 1;

	if (n > 1 && (q[1] < '0' || q[1] > '9'))
		return false;
	while (i < n && i < 24 && ((q[i] >= '0' && q[i] <= '9') || q[i] == ';'))
		i++;
	return i == n || q[i] == 'm';
}

/* Text with escape sequences, CRs and references taken away, on to the
 * line splitter; runs of ordinary bytes go as they are. */
static void clean_bytes(gw_explainer *ex, const char *p, size_t n)
{
	/* The next ESC, CR, '&' and '[' before a digit (n: none), each found
	 * by memchr once. */
	size_t i = 0, next[4] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
	static const char which[4] = {'\x1b', '\r', '&', '['};

	while (i < n) {
		if (!ex->pr.esc && !ex->pr.nent && !ex->pr.cr && !ex->pr.nsgr) {
			size_t j = n;

			for (int k = 0; k < 4; k++) {
				if (next[k] == SIZE_MAX || next[k] < i) {
					const char *q = memchr(p + i, which[k], n - i);

					while (k == 3 && q && !sgr_may_start(q, (size_t)(p + n - q)))
						q = memchr(q + 1, '[', (size_t)(p + n - q - 1));
					next[k] = q ? (size_t)(q - p) : n;
				}
				j = next[k] < j ? next[k] : j;
			}
			if (j > i)
				text_bytes(ex, p + i, j - i);
			if ((i = j) == n)
				break;
		}
		if (presentation_step(ex, (uint8_t)p[i]))
			i++;
	}
}

/* A decoded byte of a JSON string: held while the string may be a key or
 * a field ("stderr", a timestamp), streamed once it is text. */
static void json_text(gw_explainer *ex, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = p[i];

		if (!ex->pr.str_kind) {
			if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && ex->pr.nstr < sizeof(ex->pr.str)) {
				ex->pr.str[ex->pr.nstr++] = c;
				continue;
			}
			ex->pr.str_kind = 1;
			clean_bytes(ex, ex->pr.str, ex->pr.nstr);
		}
		clean_bytes(ex, &c, 1);
		ex->pr.str_nl = c == '\n';
	}
}

/* The code point of a \uXXXX escape, pairing surrogates. */
static void json_code(gw_explainer *ex, uint32_t u)
{
	char out[8];

	if (ex->pr.uhigh && (u < 0xdc00 || u > 0xdfff)) {
		json_text(ex, out, put_utf8(out, 0xfffd));
		ex->pr.uhigh = 0;
	}
	if (u >= 0xd800 && u <= 0xdbff) {
		ex->pr.uhigh = u;
		return;
	}
	if (u >= 0xdc00 && u <= 0xdfff) {
		if (!ex->pr.uhigh) {
			json_text(ex, out, put_utf8(out, 0xfffd));
			return;
		}
		u = 0x10000 + ((ex->pr.uhigh - 0xd800) << 10) + (u - 0xdc00);
		ex->pr.uhigh = 0;
	}
	json_text(ex, out, put_utf8(out, u));
}

/* The end of a JSON string, or of the line in one. */
static void json_string_end(gw_explainer *ex)
{
	if (ex->pr.str_kind && !ex->pr.str_nl) {
		clean_bytes(ex, "\n", 1);
		ex->pr.str_nl = true;
	}
	ex->pr.in_str = false;
	ex->pr.jesc = 0;
	ex->pr.uhigh = 0;
}

/* One raw byte of a JSON line. */
static void json_byte(gw_explainer *ex, uint8_t c)
{
	if (c == '\n') {                   /* the raw line ends the JSON */
		json_string_end(ex);
		ex->pr.json = false;
		ex->pr.line_start = 1;
		return;
	}
	if (!ex->pr.in_str) {
		if (c == '"') {
			ex->pr.in_str = true;
			ex->pr.nstr = 0;
			ex->pr.str_kind = 0;
			ex->pr.str_nl = false;
		}
		return;                    /* structure, numbers, true/false/null */
	}
	if (ex->pr.jesc >= 2) {
		unsigned v = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
			     c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) :
			     c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 99;
		if (v > 15) {              /* a broken \u: read the byte as text */
			ex->pr.jesc = 0;
			json_byte(ex, c);
			return;
		}
		ex->pr.ucode = ex->pr.ucode << 4 | v;
		if (++ex->pr.jesc == 6) {
			ex->pr.jesc = 0;
			json_code(ex, ex->pr.ucode);
		}
		return;
	}
	if (ex->pr.jesc == 1) {
		static const char from[] = "ntrbf", to[] = "\n\t\r  ";
		const char *k = c ? strchr(from, c) : NULL;
		char d = k ? to[k - from] : (char)c;

		if (c == 'u') {
			ex->pr.jesc = 2;
			ex->pr.ucode = 0;
			return;
		}
		ex->pr.jesc = 0;
		json_text(ex, &d, 1);
		return;
	}
	if (c == '\\') {
		ex->pr.jesc = 1;
		return;
	}
	if (c == '"') {
		json_string_end(ex);
		return;
	}
	json_text(ex, (const char *)&c, 1);
}

/* Raw text: a line that starts with '{' then '"' (blanks between them
 * allowed) is JSON, read by json_byte(); the rest goes to clean_bytes().
 * Only a '{' is looked at, found by memchr. */
static void raw_bytes(gw_explainer *ex, const char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		uint8_t c = (uint8_t)p[i];

		if (ex->pr.json) {
			json_byte(ex, c);
			i++;
			continue;
		}
		if (ex->pr.line_start == 2) {      /* after a line's '{' */
			if ((c == ' ' || c == '\t') && ex->pr.nlead < sizeof(ex->pr.lead)) {
				ex->pr.lead[ex->pr.nlead++] = (char)c;
				i++;
				continue;
			}
			ex->pr.line_start = 0;
			if (c == '"') {
				ex->pr.json = true;
				ex->pr.nlead = 0;
				continue;          /* json_byte() reads the '"' */
			}
			clean_bytes(ex, ex->pr.lead, ex->pr.nlead);
			ex->pr.nlead = 0;
		}
		if (ex->pr.line_start == 1 && c == '{') {
			ex->pr.lead[0] = '{';
			ex->pr.nlead = 1;
			ex->pr.line_start = 2;
			i++;
			continue;
		}
		/* Up to the next '{' that starts a line, or the end. */
		size_t j = i;
		const char *q;

		while ((q = memchr(p + j, '{', n - j)) && q > p + i && q[-1] != '\n')
			j = (size_t)(q - p) + 1;
		size_t end = q ? (size_t)(q - p) : n;

		if (end == i) {                    /* '{' where no line starts */
			end = i + 1;
		}
		clean_bytes(ex, p + i, end - i);
		ex->pr.line_start = p[end - 1] == '\n';
		i = end;
	}
}

/* Text to read, from the stream or the UTF-16 decoder: a UTF-8 byte order
 * mark at the stream's start is left out. */
void gw__explain_feed_bytes(gw_explainer *ex, const char *buf, size_t len)
{
	static const char bom[] = "\xef\xbb\xbf";

	while (ex->pr.bom < 3 && len) {
		if (*buf == bom[ex->pr.bom]) {
			ex->pr.bom++;
			buf++;
			len--;
			continue;
		}
		raw_bytes(ex, bom, ex->pr.bom);
		ex->pr.bom = 3;
	}
	raw_bytes(ex, buf, len);
}

/* The stream ended: what was held is text after all. */
void gw__explain_presentation_finish(gw_explainer *ex)
{
	if (ex->pr.bom < 3) {
		raw_bytes(ex, "\xef\xbb\xbf", ex->pr.bom);
		ex->pr.bom = 3;
	}
	if (ex->pr.json)
		json_string_end(ex);
	if (ex->pr.nlead)
		clean_bytes(ex, ex->pr.lead, ex->pr.nlead);
	if (ex->pr.nent)
		text_bytes(ex, ex->pr.ent, ex->pr.nent);
	if (ex->pr.nsgr && ex->pr.sgr[ex->pr.nsgr - 1] != 'm')
		text_bytes(ex, ex->pr.sgr, ex->pr.nsgr);
	ex->pr.nlead = ex->pr.nent = ex->pr.nsgr = 0;
	ex->pr.json = false;
	ex->pr.esc = 0;
	box_finish(ex);
	gw__explain_held_finish(ex);
}


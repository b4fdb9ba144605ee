/* Formatting shared by list and info. See output.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "text.h"

/* Text for a field that is not VALID; NULL when it is. */
static const char *not_valid(char *buf, size_t n, gw_field_state st, int code)
{
	switch (st) {
	case GW_FIELD_VALID:
		return NULL;
	case GW_FIELD_ERROR:
		snprintf(buf, n, "error (code %d)", code);
		return buf;
	default: /* not supported, or no backend could read it */
		snprintf(buf, n, "N/A");
		return buf;
	}
}

const char *show_u64(char *buf, size_t n, const gw_u64 *f, const char *unit)
{
	if (not_valid(buf, n, f->state, f->code))
		return buf;
	snprintf(buf, n, "%" PRIu64 "%s%s", f->v, unit && *unit ? " " : "", unit ? unit : "");
	return buf;
}

const char *show_bytes(char *buf, size_t n, const gw_u64 *f)
{
	if (not_valid(buf, n, f->state, f->code))
		return buf;
	return fmt_bytes(buf, n, (unsigned long long)f->v);
}

const char *show_f64(char *buf, size_t n, const gw_f64 *f, int decimals, const char *unit)
{
	if (not_valid(buf, n, f->state, f->code))
		return buf;
	snprintf(buf, n, "%.*f%s%s", decimals, f->v, unit && *unit ? " " : "", unit ? unit : "");
	return buf;
}

const char *show_str(char *buf, size_t n, const gw_str *f)
{
	if (not_valid(buf, n, f->state, f->code))
		return buf;
	snprintf(buf, n, "%s", f->s[0] ? f->s : "(empty)");
	return buf;
}

const char *cuda_version_text(char *buf, size_t n, uint64_t v)
{
	snprintf(buf, n, "%" PRIu64 ".%" PRIu64, v / 1000, (v % 1000) / 10);
	return buf;
}

const char *compute_capability_text(char *buf, size_t n, const gw_device_info *d)
{
	if (!GW_VALID(d->cc_major) || !GW_VALID(d->cc_minor))
		return NULL;
	snprintf(buf, n, "%" PRIu64 ".%" PRIu64, d->cc_major.v, d->cc_minor.v);
	return buf;
}

const char *short_uuid(char *buf, size_t n, const gw_device_info *d)
{
	return short_uuid_str(buf, n, &d->uuid);
}

const char *short_uuid_str(char *buf, size_t n, const gw_str *uuid)
{
	const char *u;
	size_t k = 0;

	if (!GW_VALID(*uuid) || !uuid->s[0]) {
		snprintf(buf, n, "-");
		return buf;
	}
	u = uuid->s;
	if (!strncmp(u, "GPU-", 4) || !strncmp(u, "MIG-", 4))
		u += 4;
	/* Eight hex digits, skipping dashes, so "GPU-8a5f0c1e-..." → "8a5f0c1e". */
	for (; *u && k < 8 && k + 1 < n; u++)
		if (*u != '-')
			buf[k++] = *u;
	buf[k] = '\0';
	return buf;
}

const char *cuda_index_text(const gw_context *ctx, const gw_device_info *d, char *buf, size_t n)
{
	const gw_backend_status *cuda = gw_context_backend_by_id(ctx, GW_BACKEND_ID_CUDA);
	const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
	char msg[2 * sizeof(cuda->message)];
	int w;

	if (d->cuda_index >= 0)
		w = snprintf(buf, n, "%d", d->cuda_index);
	else if (d->vendor != GW_VENDOR_NVIDIA)
		w = snprintf(buf, n, "N/A");
	else if (d->health == GW_HEALTH_LOST)
		w = snprintf(buf, n, "%s", _("none (the GPU is lost: CUDA cannot use it)"));
	else if (d->health == GW_HEALTH_NO_DRIVER)
		w = snprintf(buf, n, "%s", _("none (no driver serves the GPU: CUDA cannot use it)"));
	else if (d->health != GW_HEALTH_OK)
		w = snprintf(buf, n, "%s", _("none (the driver refused the GPU: CUDA cannot use it)"));
	else if (!cuda || cuda->state == GW_BACKEND_NOT_TRIED)
		w = snprintf(buf, n, "%s", _("none (CUDA was not asked)"));
	else if (cuda->state != GW_BACKEND_OK && cuda->message[0])
		w = snprintf(buf, n, _("none (%s)"), gw_context_backend_message(ctx, cuda, msg, sizeof(msg)));
	else if (cvd)
		w = snprintf(buf, n, _("none (hidden by CUDA_VISIBLE_DEVICES=\"%s\")"), cvd);
	else
		w = snprintf(buf, n, "%s", _("none (CUDA does not list this GPU)"));
	if (w > 0 && (size_t)w >= n)
		mark_cut(buf, n);
	return buf;
}

char *str_printf(const char *fmt, ...)
{
	va_list ap;
	char *buf;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(buf = malloc((size_t)n + 1)))
		return NULL;
	va_start(ap, fmt);
	vsnprintf(buf, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return buf;
}

/* The key column: "    GPU UUID" and its 40-character value fit in 80. */
#define KEY_WIDTH 36

void report_line(int level, const char *key, const char *fmt, ...)
{
	static int width;
	va_list ap;
	int pad = KEY_WIDTH - 4 * level, n;
	char *first, *value;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	/* The key padded in display cells: "驱动版本" is 8 cells, 12 bytes. */
	pad -= text_columns(key, strlen(key));
	first = str_printf("%*s%s%*s : ", 4 * level, "", key, pad > 0 ? pad : 0, "");
	value = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (value) {
		va_start(ap, fmt);
		vsnprintf(value, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	if (!width)
		width = output_width(stdout);
	/* A long value (a reason, a command line) wraps under itself. */
	print_hanging(stdout, width, first ? first : "", value ? value : "");
	free(first);
	free(value);
}

void report_section(int level, const char *title)
{
	printf("%*s%s\n", 4 * level, "", title);
}

int output_width(FILE *stream)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;

	if (env && *env) {
		char *end;
		long v = strtol(env, &end, 10);

		if (!*end && v > 0)
			return v < 20 ? 20 : v > 1000 ? 1000 : (int)v;
	}
	if (stream && isatty(text_fd(stream)) && ioctl(text_fd(stream), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col < 20 ? 20 : ws.ws_col;
	return 80;
}

/* Bytes of the ANSI sequence ESC [ params letter at s, 0 when s is none. */
static size_t ansi_len(const char *s, size_t n)
{
	size_t i = 2;

	if (n < 2 || s[0] != '\033' || s[1] != '[')
		return 0;
	while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';'))
		i++;
	return i < n ? i + 1 : n;
}

int text_columns(const char *s, size_t n)
{
	int cols = 0;

	for (size_t i = 0; i < n && s[i];) {
		size_t esc = ansi_len(s + i, n - i), k;
		uint32_t cp;

		if (esc) {
			i += esc;
			continue;
		}
		/* Cells, not bytes: "GPU 名称" is 8 wide; a byte that is not
		 * UTF-8 shows as one "?". */
		k = text_utf8_char(s + i, n - i, &cp);
		cols += k ? text_char_cells(cp) : 1;
		i += k ? k : 1;
	}
	return cols;
}

/* Chinese punctuation that may not start a line (，。、：；！？ and closing
 * brackets) or end one (opening brackets): kept with its neighbour. */
static bool cjk_no_break_before(uint32_t cp)
{
	static const uint32_t cps[] = { 0x3001, 0x3002, 0xff0c, 0xff0e, 0xff1a, 0xff1b, 0xff01, 0xff1f, 0xff09,
					0x300d, 0x300f, 0x3011, 0x3009, 0x300b, 0x201d, 0x2019, 0x2026 };

	for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]); i++)
		if (cps[i] == cp)
			return true;
	return false;
}

static bool cjk_no_break_after(uint32_t cp)
{
	return cp == 0xff08 || cp == 0x300c || cp == 0x300e || cp == 0x3010 || cp == 0x3008 || cp == 0x300a ||
	       cp == 0x201c || cp == 0x2018;
}

static const char *word_end(const char *p);

/* The end of a one-character CJK word that ends at p (its character cp):
 * the punctuation that may not start a line stays with it, and an opening
 * bracket with what follows. */
static const char *cjk_word_end(const char *p, uint32_t cp)
{
	uint32_t next;
	size_t k;

	while ((k = text_utf8_char(p, strnlen(p, 4), &next)) > 1 &&
	       (cjk_no_break_before(next) || cjk_no_break_after(cp))) {
		p += k;
		cp = next;
	}
	/* an opening bracket before a Latin word keeps it too:
	 * "（CUDA_ERROR_NO_DEVICE）" never breaks after "（" */
	if (cjk_no_break_after(cp) && k == 1 && *p != ' ' && *p != '\n')
		return word_end(p);
	return p;
}

/* The end of the word at p: the next space or newline, except inside
 * `backquotes`, where a command is kept on one line: a command broken over
 * two lines is two commands once copied into a shell. A wide (CJK)
 * character is a word of its own: Chinese has no spaces to break at. */
static const char *word_end(const char *p)
{
	const char *start = p;

	while (*p && *p != ' ' && *p != '\n') {
		const char *close;
		uint32_t cp;
		size_t k = text_utf8_char(p, strnlen(p, 4), &cp);

		if (k > 1 && text_char_wide(cp)) {
			if (p == start)
				return cjk_word_end(p + k, cp);
			if (!cjk_no_break_before(cp))
				break;
			return cjk_word_end(p + k, cp); /* "sysfs）" stays whole */
		}
		if (*p == '`' && (close = strchr(p + 1, '`')) && !memchr(p + 1, '\n', (size_t)(close - p - 1)))
			p = close;
		p += k ? k : 1;
	}
	return p;
}

size_t wrap_line(const char *text, int width, const char **next)
{
	const char *p = text, *end = text;
	int cols = 0;
	bool have_word = false;

	while (*p && *p != '\n') {
		const char *gap = p, *w;
		int wcols;

		while (*p == ' ')
			p++;
		if (!*p || *p == '\n')
			break; /* trailing spaces */
		w = p;
		p = word_end(p);
		wcols = text_columns(w, (size_t)(p - w)) + (int)(w - gap);
		if (have_word && cols + wcols > width) {
			p = w; /* this word starts the next line */
			break;
		}
		cols += wcols;
		end = p;
		have_word = true;
	}
	if (*p == '\n')
		p++;
	*next = *p ? p : NULL;
	return (size_t)(end - text);
}

void print_wrapped(FILE *out, int width, const char *first, const char *indent, const char *text)
{
	const char *p = text, *prefix = first;

	do {
		const char *line = p;
		int room = width - text_columns(prefix, strlen(prefix));
		size_t len = wrap_line(line, room < 20 ? 20 : room, &p), plen = strlen(prefix);

		/* A word too wide for what a label leaves ("fix: `cmd ...`",
		 * "Source: URL") goes on a line of its own, under the label. */
		while (plen && prefix[plen - 1] == ' ')
			plen--;
		if (plen && prefix != indent && text_columns(line, len) > (room < 20 ? 20 : room)) {
			fprintf(out, "%.*s\n", (int)plen, prefix);
			prefix = indent;
			room = width - text_columns(prefix, strlen(prefix));
			len = wrap_line(line, room < 20 ? 20 : room, &p);
		}
		fprintf(out, "%s%.*s\n", prefix, (int)len, line);
		prefix = indent;
	} while (p);
}

void print_hanging(FILE *out, int width, const char *first, const char *text)
{
	int cols = text_columns(first, strlen(first));
	char indent[64];

	snprintf(indent, sizeof(indent), "%*s", cols < (int)sizeof(indent) - 1 ? cols : (int)sizeof(indent) - 1, "");
	print_wrapped(out, width, first, indent, text);
}

const char *color_health(bool on, gw_health h)
{
	if (!on)
		return "";
	switch (h) {
	case GW_HEALTH_OK: return "\033[32m";
	case GW_HEALTH_NO_DRIVER:
	case GW_HEALTH_UNSUPPORTED: return "\033[33m";
	default: return "\033[31m";
	}
}

const char *color_reset(bool on)
{
	return on ? "\033[0m" : "";
}

bool device_readable(const gw_device_info *d)
{
	return d && d->health == GW_HEALTH_OK;
}

int readable_count(const gw_context *ctx)
{
	int n = 0;

	for (int i = 0; i < gw_device_count(ctx); i++)
		if (device_readable(gw_device_get(ctx, i)))
			n++;
	return n;
}

const char *pad_cells(char *buf, size_t n, const char *s, int width, bool right)
{
	int fill = width - text_columns(s, strlen(s));

	if (fill < 0)
		fill = 0;
	snprintf(buf, n, right ? "%*s%s" : "%*s%s%*s", right ? fill : 0, "", s, fill, "");
	return buf;
}

void table_header_cells(const struct table_col *cols, size_t n, int *w)
{
	char cell[64];

	for (size_t i = 0; i < n; i++) {
		const char *t = _(cols[i].title);
		int cells = text_columns(t, strlen(t));

		w[i] = cells > cols[i].width ? cells : cols[i].width;
		printf("%s%s", i ? " " : "", pad_cells(cell, sizeof(cell), t, w[i], cols[i].right));
	}
}

/* Bytes of s (len bytes) that fit in max cells; their cells in *cells. */
size_t fit_cells(const char *s, size_t len, int max, int *cells)
{
	size_t i = 0;
	int used = 0;

	while (i < len) {
		uint32_t cp = '?';
		size_t k = text_utf8_char(s + i, len - i, &cp);
		int w;

		if (k == 0)
			k = 1;
		w = cp < 0x80 ? 1 : text_char_cells(cp);
		if (used + w > max)
			break;
		used += w;
		i += k;
	}
	*cells = used;
	return i;
}

/* End the full buffer buf[n] with "…": the text was cut (never silently). */
void mark_cut(char *buf, size_t n)
{
	size_t at;

	if (n < 4)
		return;
	at = n - 4;
	while (at > 0 && ((unsigned char)buf[at] & 0xC0) == 0x80)
		at--;
	memcpy(buf + at, "\xe2\x80\xa6", 4);
}

/* Append "; " separated parts to buf; a part that does not fit is cut
 * with "…" and nothing follows it. */
static void append_part(char *buf, size_t n, int *parts, const char *text)
{
	size_t len = strlen(buf);
	int w;

	if (!text || !*text || len + 1 >= n || (len >= 3 && !strcmp(buf + len - 3, "\xe2\x80\xa6")))
		return;
	w = snprintf(buf + len, n - len, "%s%s", *parts ? "; " : "", text);
	if (w > 0 && (size_t)w >= n - len)
		mark_cut(buf, n);
	(*parts)++;
}

/* The user-space driver version: NVML's own, else the "12.550.90.07"
 * NVML version without its CUDA major. NULL when neither is known. */
static const char *library_version(const gw_driver_info *drv)
{
	const char *dot;

	if (GW_VALID(drv->driver_version))
		return drv->driver_version.s;
	if (GW_VALID(drv->nvml_version) && (dot = strchr(drv->nvml_version.s, '.')) && dot[1])
		return dot + 1;
	return NULL;
}

/* "driver/library version mismatch: kernel module A, library B — ...",
 * the two numbers being what the user needs to see; NULL when unknown. */
static const char *mismatch_reason(const gw_driver_info *drv, char *buf, size_t n)
{
	const char *lib = library_version(drv);

	if (!GW_VALID(drv->kernel_module_version) || !lib)
		return NULL;
	snprintf(buf, n, _("driver/library version mismatch: kernel module %s, library %s \u2014 "
			   "reboot or reload the nvidia kernel modules"), drv->kernel_module_version.s, lib);
	return buf;
}

/* What a backend's status says is missing, or NULL when it has nothing to
 * say (it worked, was not tried, or only annotates other devices). */
static const char *backend_reason(const gw_context *ctx, const gw_backend_status *s, const gw_driver_info *drv,
				  bool have_devices, char *buf, size_t n)
{
	char msg[2 * sizeof(s->message)];
	const char *m = gw_context_backend_message(ctx, s, msg, sizeof(msg));

	if (!s->name || s->id == GW_BACKEND_ID_CUDA || s->id == GW_BACKEND_ID_PCI)
		return NULL; /* cuda annotates NVML's devices; pci devices carry their own reason */
	switch (s->state) {
	case GW_BACKEND_LIBRARY_MISSING:
	case GW_BACKEND_INIT_FAILED:
		if (!strcmp(s->vendor_code_name, "LIB_RM_VERSION_MISMATCH") && mismatch_reason(drv, buf, n))
			return buf;
		if (m[0])
			snprintf(buf, n, "%s", m);
		else if (s->vendor_code_name[0])
			snprintf(buf, n, "%s failed (%s)", s->name, s->vendor_code_name);
		else
			snprintf(buf, n, "%s failed", s->name);
		return buf;
	case GW_BACKEND_NOTHING_FOUND:
		if (have_devices)
			return NULL;
		if (m[0])
			snprintf(buf, n, "%s", m);
		else if (s->id == GW_BACKEND_ID_AMDGPU)
			snprintf(buf, n, "%s", _("no AMD GPU in /sys"));
		else if (s->id == GW_BACKEND_ID_NVML)
			snprintf(buf, n, "%s", _("the NVIDIA driver reports no GPU"));
		else
			snprintf(buf, n, "%s found nothing", s->name);
		return buf;
	default:
		return NULL;
	}
}

const char *no_gpu_sentence(const gw_context *ctx, char *buf, size_t n)
{
	const gw_backend_status *st;
	int nb = 0, parts = 0, ndev = gw_device_count(ctx);
	char part[1024];

	/* A sentence for people, in their language (list/info --json "error" too). */
	snprintf(buf, n, "%s", ndev ? _("no GPU could be read: ") : _("no GPU found: "));
	st = gw_context_backends(ctx, &nb);
	/* An empty bus explains everything else: say it first. */
	for (int i = 0; i < nb && !ndev; i++)
		if (st[i].id == GW_BACKEND_ID_PCI && st[i].state == GW_BACKEND_NOTHING_FOUND)
			append_part(buf, n, &parts, _("no NVIDIA, AMD or Intel GPU on the PCI bus"));
	for (int i = 0; i < nb; i++)
		append_part(buf, n, &parts, backend_reason(ctx, &st[i], gw_context_driver(ctx), ndev > 0, part, sizeof(part)));
	/* A failed backend usually explains every device; name devices only
	 * when it does not (a lost GPU while NVML itself is fine). No backend
	 * failure explains a GPU gpuwise cannot read at all (Intel). */
	for (int i = 0, explained = parts; i < ndev; i++) {
		const gw_device_info *d = gw_device_get(ctx, i);

		if (device_readable(d) || (explained && d->health != GW_HEALTH_UNSUPPORTED))
			continue;
		char why[1024];

		snprintf(part, sizeof(part), _("GPU %d (%s) is %s%s%s"), i,
			 GW_VALID(d->pci_bus_id) ? d->pci_bus_id.s : "?", gw_health_name(d->health),
			 d->health_reason[0] ? ": " : "", gw_device_health_reason(ctx, i, why, sizeof(why)));
		append_part(buf, n, &parts, part);
	}
	if (!parts)
		append_part(buf, n, &parts, "no backend reported a GPU");
	return buf;
}

gw_context *open_context(void)
{
	return open_context_flags(0);
}

gw_context *open_context_flags(unsigned flags)
{
	gw_context *ctx = NULL;
	gw_options opts = GW_OPTIONS_INIT;

	opts.flags = flags;
	if (gw_context_new(&ctx, &opts) < 0) {
		error_msg("%s", gw_error_last_text());
		return NULL;
	}
	return ctx;
}

void json_document_begin(gw_json *j)
{
	gw_json_object_begin(j);
	gw_json_key(j, "gpuwise_version");
	gw_json_string(j, gw_version());
}

int json_finish(gw_json *j, const char *problem)
{
	int rc;

	gw_json_key(j, "error");
	gw_json_string(j, problem);
	gw_json_object_end(j);
	rc = print_json(j);
	gw_json_free(j);
	return rc;
}

void print_json_text(const char *text)
{
	FILE *out = text_raw_stdout();

	fputs(text, out);
	fputc('\n', out);
}

int print_json(gw_json *j)
{
	const char *text = gw_json_text(j);

	if (!text) {
		error_msg(_("out of memory writing JSON"));
		return -1;
	}
	print_json_text(text);
	return 0;
}

void json_backends(gw_json *j, const gw_context *ctx)
{
	const gw_backend_status *st;
	char msg[2 * sizeof(st->message)];
	int nb = 0;

	st = gw_context_backends(ctx, &nb);
	gw_json_key(j, "backends");
	gw_json_array_begin(j);
	for (int i = 0; i < nb; i++) {
		gw_json_object_begin(j);
		gw_json_key(j, "name");
		gw_json_string(j, st[i].name);
		gw_json_key(j, "state");
		gw_json_string(j, gw_backend_state_name(st[i].state));
		/* a human text: in the user's language, as "error" is */
		gw_json_key(j, "message");
		gw_json_string(j, st[i].message[0] ? gw_context_backend_message(ctx, &st[i], msg, sizeof(msg)) : NULL);
		gw_json_key(j, "library");
		gw_json_string(j, st[i].library[0] ? st[i].library : NULL);
		gw_json_key(j, "vendor_code");
		if (st[i].vendor_code_name[0])
			gw_json_string(j, st[i].vendor_code_name);
		else
			gw_json_null(j);
		gw_json_object_end(j);
	}
	gw_json_array_end(j);
}

void json_index_field(gw_json *j, const char *key, int index)
{
	gw_json_key(j, key);
	if (index >= 0)
		gw_json_int(j, index);
	else
		gw_json_null(j);
}

void json_health(gw_json *j, const gw_device_info *d, const char *reason)
{
	gw_json_key(j, "health");
	gw_json_string(j, gw_health_name(d->health));
	gw_json_key(j, "health_reason");
	gw_json_string(j, d->health != GW_HEALTH_OK && reason[0] ? reason : NULL);
}

/* How many bytes the valid UTF-8 sequence at s takes, 0 when it is not one
 * or it encodes a C1 control character. */
static size_t utf8_ok(const unsigned char *s)
{
	size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;

	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return 0;   /* U+0080..U+009F: C1 controls (CSI ...) */
	return n;
}

const char *term_safe(char *out, size_t n, const char *s)
{
	size_t k = 0;

	if (!n)
		return out;
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p && k + 5 < n;) {
		size_t len = *p >= 0x80 ? utf8_ok(p) : 1;

		if (*p < 0x20 || *p == 0x7f || !len) {
			k += (size_t)snprintf(out + k, n - k, "\\x%02x", *p);
			p++;
		} else if (*p == '\\') {
			out[k++] = '\\';
			out[k++] = '\\';
			p++;
		} else {
			if (k + len + 1 > n)
				break;
			for (size_t i = 0; i < len; i++)
				out[k++] = (char)*p++;
		}
	}
	out[k] = '\0';
	return out;
}

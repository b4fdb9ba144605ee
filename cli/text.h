/* Human text in the user's locale: UTF-8 where the locale is UTF-8, plain
 * ASCII where it is not (LC_ALL=C on a serial console, an old terminal),
 * and widths in display cells either way. */
#ifndef GPUWISE_CLI_TEXT_H
#define GPUWISE_CLI_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Called once in main(), after setup_language() chose the locale. Sets
 * LC_NUMERIC back to C: numbers (JSON above all) keep their '.'. When the
 * locale's character set is not UTF-8, stdout and stderr are replaced by
 * filters that turn every non-ASCII character into ASCII ("✓" → "[ok]",
 * "—" → "-", "…" → "...", anything else → "\u00e9"; bytes that are not
 * UTF-8 → "?"). An environment that names no locale at all counts as UTF-8
 * (as systemd decides it): only an explicit non-UTF-8 locale asks for ASCII. */
void text_init(void);

/* True when human output is being turned into ASCII. */
bool text_ascii(void);

/* The file descriptor under a stream, also for the filtered stdout and
 * stderr (fileno() of a filter is -1); -1 when there is none. */
int text_fd(FILE *stream);

/* The unfiltered stdout, for JSON (its strings stay exact UTF-8 whatever
 * the locale: they are data, not text for a terminal). Flushes the
 * filtered stdout first so the order of output is kept. */
FILE *text_raw_stdout(void);

/* Flushes the filters and the streams under them; false when a write
 * failed (errno says why), as fflush() + ferror() say for a plain stream. */
bool text_flush(void);

/* One UTF-8 character at s (n bytes available): its length (1-4) and code
 * point in *cp, or 0 when s does not start a valid character. */
size_t text_utf8_char(const char *s, size_t n, uint32_t *cp);

/* Display cells of a code point: 2 for East Asian wide and fullwidth
 * characters, 0 for combining marks and zero-width characters, else 1.
 * In ASCII mode: the length of the ASCII that replaces it. */
int text_char_cells(uint32_t cp);

/* Is cp a wide (CJK) character? Text in those languages has no spaces: a
 * line may break before and after each one. */
bool text_char_wide(uint32_t cp);

/* The ASCII text printed for code point cp (≥ 0x80) in ASCII mode, in buf
 * (at least 16 bytes). */
const char *text_ascii_for(uint32_t cp, char *buf, size_t n);

#endif

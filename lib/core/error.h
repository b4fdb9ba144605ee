/* The thread's last error and the messages the library keeps to be
 * translated where they are printed (lib/core/error.c). Semi-private names
 * are gw__<module>_<verb>, declared in their module's header. */
#ifndef GPUWISE_CORE_ERROR_H
#define GPUWISE_CORE_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#include "gpuwise/gpuwise.h"

/* Set the thread-local message and return `code` (negative). */
int gw__error_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A message the library keeps for later (a backend's status message) as
 * gw__error_set keeps the last error: its format, the catalogue's msgid,
 * and each value as printed, so that it is translated where it is used
 * (doctor's evidence) and never when it is made (docs/languages.md). */
#define GW__MSG_PIECES 16
typedef struct gw__msg {
	const char *format;                 /* NULL: untranslatable, use the English text */
	const struct gw__msg *sub;          /* piece sub_piece is this message (a reason */
	int sub_piece;                      /* quoting a backend's), translated as one */
	int npieces;
	unsigned short at[GW__MSG_PIECES];  /* offsets into text */
	char text[1024];                    /* the values, each NUL-terminated */
} gw__msg;

/* Mark a text for the catalogue without translating it (xgettext's N_):
 * a reason given as a value of a kept message is translated with it. */
#ifndef N_
#define N_(s) (s)
#endif

/* Print fmt's English message into out (n bytes) and keep its pieces in m. */
void gw__msg_set(gw__msg *m, char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void gw__msg_vset(gw__msg *m, char *out, size_t n, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
/* Piece `piece` of m (the one given sub's English message) is sub. */
void gw__msg_nest(gw__msg *m, int piece, const gw__msg *sub);
/* The thread's last error, kept in m and its English message in out. */
void gw__msg_from_last(gw__msg *m, char *out, size_t n);
/* The thread's last error becomes m again (kept by gw__msg_from_last with
 * its English message english): returns code. A cached failure reported a
 * second time keeps its msgid, so it is still translated where printed. */
int gw__error_restore(int code, const gw__msg *m, const char *english);
/* english (what m was made with) put into format, a translation of m's
 * format, with m's pieces (into out, n bytes); english itself when format
 * is not one. With piece_of (may be NULL), each string piece `arg` of m
 * (its text value) is piece_of's answer, which may use buf (size n). No
 * catalogue is read here: lib/core/message.c passes the translations. */
typedef const char *gw__msg_piece_fn(const gw__msg *m, int arg, const char *value, char *buf, size_t n);
const char *gw__msg_with(const gw__msg *m, const char *english, const char *format, gw__msg_piece_fn *piece_of,
			 char *out, size_t n);

#endif

/* Messages in the user's language: the last error (gw_error_last_text)
 * and the messages the library keeps (a backend's status, a device's
 * health reason), put together from the catalogue's translation of their
 * format and their pieces. It sits above lib/core/error.c, which keeps
 * the pieces and knows no catalogue, and lib/core/language.c, which reads
 * the catalogue and reports its own errors through error.c. */
#include <stddef.h>

#include "core/error.h"
#include "core/message.h"
#include "gpuwise/language.h"

/* A string piece of a translated message: the message it quotes (a
 * backend's status in a device's reason) in the same language, or a
 * catalogue text (a reason marked N_) translated. */
static const char *piece_text(const gw__msg *m, int arg, const char *value, char *buf, size_t n)
{
	if (m->sub && arg == m->sub_piece)
		return gw__msg_text(m->sub, value, buf, n);
	return value[0] ? gw_translate(value) : value;
}

const char *gw__msg_text(const gw__msg *m, const char *english, char *out, size_t n)
{
	if (!m->format)
		return english;
	return gw__msg_with(m, english, gw_translate(m->format), piece_text, out, n);
}

const char *gw_error_last_text(void)
{
	const char *format = gw_error_last_format();

	return format[0] ? gw_error_last_with(gw_translate(format)) : gw_error_last();
}

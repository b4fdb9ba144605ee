/* The CLI's wrapping helpers (cli/output.c): one width rule and one line
 * breaker for every long human text. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "output.h"

/* Wrap text into lines "a|b|c" (joined by '|') for easy comparison. */
static const char *lines(const char *text, int width)
{
	static char out[1024];
	const char *p = text;
	size_t o = 0;

	out[0] = '\0';
	do {
		const char *line = p;
		size_t len = wrap_line(line, width, &p);

		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%.*s", o ? "|" : "", (int)len, line);
	} while (p && o < sizeof(out));
	return out;
}

static void test_wrap_line(void)
{
	CHECK_STR(lines("one two three four", 9), "one two|three|four");
	CHECK_STR(lines("one two three four", 80), "one two three four");
	CHECK_STR(lines("", 10), "");
	/* a word wider than the width is kept whole, on a line of its own */
	CHECK_STR(lines("see /usr/local/cuda-12.4/targets/x86_64-linux/lib now", 10),
		  "see|/usr/local/cuda-12.4/targets/x86_64-linux/lib|now");
	/* newlines end lines; blank lines stay; spaces around breaks go */
	CHECK_STR(lines("a b\n\nc   d", 3), "a b||c|d");
	CHECK_STR(lines("ab   \ncd", 10), "ab|cd");
	CHECK_STR(lines("text\n", 10), "text");
	/* leading spaces of a line (an indented example) are kept */
	CHECK_STR(lines("intro\n  gpuwise explain x", 40), "intro|  gpuwise explain x");
	/* exactly the width fits */
	CHECK_STR(lines("abcd efgh", 9), "abcd efgh");
	CHECK_STR(lines("abcd efgh", 8), "abcd|efgh");
	/* UTF-8 characters and colour codes count as what they show */
	CHECK_STR(lines("\xe2\x9c\x93 ok \xe2\x9c\x97 no", 7), "\xe2\x9c\x93 ok \xe2\x9c\x97|no");
	CHECK_INT(text_columns("\xe2\x9c\x93 \033[31mred\033[0m", 100), 5);
	CHECK_INT(text_columns("abc", 2), 2);
	/* Display cells, not characters: CJK is 2 wide, a combining accent 0,
	 * a byte that is not UTF-8 shows as one '?'. */
	CHECK_INT(text_columns("\xe6\x95\xb0\xe6\x8d\xae", 6), 4);
	CHECK_INT(text_columns("e\xcc\x81", 3), 1);
	CHECK_INT(text_columns("\xff", 1), 1);
	/* Chinese has no spaces: a line breaks between wide characters. */
	CHECK_STR(lines("\xe6\x95\xb0\xe6\x8d\xae\xe9\x9b\x86 ab", 5),
		  "\xe6\x95\xb0\xe6\x8d\xae|\xe9\x9b\x86 ab");
	/* ... but not before "，" or "）", nor after "（". */
	CHECK_STR(lines("\xe6\x95\xb0\xe6\x8d\xae\xef\xbc\x8c\xe9\x9b\x86", 4),
		  "\xe6\x95\xb0|\xe6\x8d\xae\xef\xbc\x8c|\xe9\x9b\x86");
	CHECK_STR(lines("ab sysfs\xef\xbc\x89\xe6\x95\xb0", 8), "ab|sysfs\xef\xbc\x89|\xe6\x95\xb0");
	CHECK_STR(lines("abcdef\xef\xbc\x88\xe6\x95\xb0", 7), "abcdef|\xef\xbc\x88\xe6\x95\xb0");
	/* nor after "（" before a Latin word: "数（NO_DEVICE）" */
	CHECK_STR(lines("\xe6\x95\xb0\xef\xbc\x88NO_DEVICE\xef\xbc\x89", 6),
		  "\xe6\x95\xb0|\xef\xbc\x88NO_DEVICE\xef\xbc\x89");
	/* A `command` is one word: pasted from two lines it would be two. */
	CHECK_STR(lines("run `sudo modprobe nvidia` now", 10), "run|`sudo modprobe nvidia`|now");
	CHECK_STR(lines("an `unclosed quote here", 10), "an|`unclosed|quote here");
}

static void test_print_wrapped(void)
{
	char buf[512];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	print_wrapped(f, 30, "  Fix:   ", "         ", "run sudo modprobe nvidia and try again");
	fclose(f);
	CHECK_STR(buf, "  Fix:   run sudo modprobe\n         nvidia and try again\n");
	for (const char *l = buf; *l;) {
		const char *e = strchr(l, '\n');

		CHECK(text_columns(l, (size_t)(e - l)) <= 30);
		l = e + 1;
	}
	/* an indent wider than the width still leaves 20 columns of text */
	f = fmemopen(buf, sizeof(buf), "w");
	print_wrapped(f, 10, "0123456789: ", "            ", "aaaa bbbb cccc dddd eeee");
	fclose(f);
	CHECK_STR(buf, "0123456789: aaaa bbbb cccc dddd\n            eeee\n");
}

static void test_output_width(void)
{
	setenv("COLUMNS", "100", 1);
	CHECK_INT(output_width(stdout), 100);
	setenv("COLUMNS", "5", 1);
	CHECK_INT(output_width(stdout), 20);
	setenv("COLUMNS", "wide", 1);
	unsetenv("COLUMNS");
	/* not a terminal: 80 */
	{
		FILE *f = tmpfile();

		CHECK_INT(output_width(f), 80);
		setenv("COLUMNS", "wide", 1);
		CHECK_INT(output_width(f), 80);
		fclose(f);
	}
	unsetenv("COLUMNS");
}

int main(void)
{
	test_wrap_line();
	test_print_wrapped();
	test_output_width();
	return CHECK_DONE();
}

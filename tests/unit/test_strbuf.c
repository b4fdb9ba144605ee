/* lib/core/strbuf.c: the growable string buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/strbuf.h"

static void test_empty_is_a_string(void)
{
	gw_strbuf sb = GW_STRBUF_INIT;

	CHECK_STR(gw__sb_str(&sb), "");
	CHECK_INT(sb.len, 0);
	gw__sb_release(&sb);
	CHECK(sb.buf == NULL);
}

static void test_appends_grow_and_keep_the_nul(void)
{
	gw_strbuf sb = GW_STRBUF_INIT;
	char want[20001];
	size_t len;
	char *text;

	for (int i = 0; i < 10000; i++) {
		gw__sb_adds(&sb, i % 2 ? "b" : "a");
		want[i] = i % 2 ? 'b' : 'a';
	}
	want[10000] = '\0';
	CHECK_INT(sb.len, 10000);
	CHECK_STR(gw__sb_str(&sb), want);
	gw__sb_addf(&sb, "%05d|%s", 42, "x");
	CHECK_INT(sb.len, 10007);
	CHECK(memcmp(gw__sb_str(&sb) + 10000, "00042|x", 8) == 0);
	gw__sb_addc(&sb, '!');
	gw__sb_add(&sb, "yz\0q", 4);   /* bytes, NUL included, counted */
	CHECK_INT(sb.len, 10012);
	gw__sb_setlen(&sb, 3);
	CHECK_STR(gw__sb_str(&sb), "aba");
	gw__sb_setlen(&sb, 99);          /* longer than the text: ignored */
	CHECK_INT(sb.len, 3);
	text = gw__sb_detach(&sb, &len);
	CHECK_STR(text, "aba");
	CHECK_INT(len, 3);
	CHECK(sb.buf == NULL && sb.len == 0 && !sb.oom);
	free(text);
}

static void test_long_formatted_text_is_whole(void)
{
	gw_strbuf sb = GW_STRBUF_INIT;
	char big[5000];

	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	gw__sb_addf(&sb, "<%s>", big);
	CHECK_INT(sb.len, sizeof(big) + 1);
	CHECK(gw__sb_str(&sb)[0] == '<' && gw__sb_str(&sb)[sb.len - 1] == '>');
	gw__sb_release(&sb);
}

static void test_failed_allocation_is_sticky(void)
{
	gw_strbuf sb = GW_STRBUF_INIT;

	gw__sb_adds(&sb, "kept");
	CHECK(!gw__sb_grow(&sb, SIZE_MAX - 2));   /* cannot exist: oom */
	CHECK(sb.oom);
	gw__sb_adds(&sb, "dropped");
	CHECK_STR(gw__sb_str(&sb), "kept");        /* still a whole string */
	CHECK(gw__sb_detach(&sb, NULL) == NULL);   /* incomplete: never handed on */
	CHECK(sb.buf == NULL && !sb.oom);
}

int main(void)
{
	test_empty_is_a_string();
	test_appends_grow_and_keep_the_nul();
	test_long_formatted_text_is_whole();
	test_failed_allocation_is_sticky();
	return CHECK_DONE();
}

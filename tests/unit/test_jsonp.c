/* The JSON reader: valid documents, every class of error with its position,
 * limits, numbers at the edges and unicode escapes. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "core/jsonp.h"

static gw_jv *parse(const char *s, gw_jsonp_error *err)
{
	return gw_jsonp_parse(s, strlen(s), NULL, err);
}

/* Expect failure at line:col with msg containing `what`. */
static void check_fails(const char *s, int line, int col, const char *what)
{
	gw_jsonp_error err;
	gw_jv *v = parse(s, &err);

	CHECK(v == NULL);
	gw_jsonp_free(v);
	CHECK_INT(err.line, line);
	CHECK_INT(err.col, col);
	if (!strstr(err.msg, what))
		fprintf(stderr, "  message was: %s (input %s)\n", err.msg, s);
	CHECK(strstr(err.msg, what) != NULL);
}

static void test_valid(void)
{
	gw_jsonp_error err;
	gw_jv *v = parse(" {\"a\": [1, -2, 3.5, true, false, null, \"x\\ty\"],\n \"b\": {\"c\": \"d\"}, \"a2\": {}} ", &err);
	const gw_jv *a;
	int64_t i;

	CHECK(v != NULL);
	if (!v)
		return;
	CHECK_INT(v->type, GW_JV_OBJECT);
	a = gw_jv_get(v, "a");
	CHECK_INT(gw_jv_len(a), 7);
	CHECK(gw_jv_int64(gw_jv_at(a, 0), &i) == 0 && i == 1);
	CHECK(gw_jv_int64(gw_jv_at(a, 1), &i) == 0 && i == -2);
	CHECK(gw_jv_int64(gw_jv_at(a, 2), &i) == -1);
	CHECK(gw_jv_at(a, 2)->u.num.d == 3.5);
	CHECK(gw_jv_is(gw_jv_at(a, 3), GW_JV_BOOL) && gw_jv_at(a, 3)->u.boolean == 1);
	CHECK(gw_jv_is(gw_jv_at(a, 5), GW_JV_NULL));
	CHECK_STR(gw_jv_str(gw_jv_at(a, 6)), "x\ty");
	CHECK(gw_jv_at(a, 7) == NULL);
	CHECK_STR(gw_jv_str(gw_jv_get(gw_jv_get(v, "b"), "c")), "d");
	CHECK_INT(gw_jv_get(v, "b")->line, 2);
	CHECK_INT(gw_jv_get(v, "b")->col, 7);
	CHECK_INT(gw_jv_len(gw_jv_get(v, "a2")), 0);
	CHECK(gw_jv_get(v, "missing") == NULL);
	CHECK(gw_jv_get(a, "x") == NULL);          /* wrong type answers NULL */
	CHECK(gw_jv_str(NULL) == NULL);
	gw_jsonp_free(v);

	/* Scalars at the top; duplicate keys: the last wins. */
	v = parse("42", &err);
	CHECK(v && v->type == GW_JV_NUMBER && v->u.num.i == 42);
	gw_jsonp_free(v);
	v = parse("{\"k\": 1, \"k\": 2}", &err);
	CHECK(v && gw_jv_get(v, "k")->u.num.i == 2);
	gw_jsonp_free(v);
	gw_jsonp_free(NULL);
}

static void test_invalid(void)
{
	check_fails("", 1, 1, "unexpected end");
	check_fails("   ", 1, 4, "unexpected end");
	check_fails("{\"a\": 1,}", 1, 9, "string key");
	check_fails("[1, 2,]", 1, 7, "expected a value");
	check_fails("{\"a\" 1}", 1, 6, "':'");
	check_fails("{\"a\": 1\n  \"b\": 2}", 2, 3, "',' or '}'");
	check_fails("[1 2]", 1, 4, "',' or ']'");
	check_fails("tru", 1, 1, "true");
	check_fails("nul", 1, 1, "null");
	check_fails("01", 1, 1, "leading zeros");
	check_fails("-", 1, 1, "invalid number");
	check_fails("1.", 1, 3, "decimal point");
	check_fails("1e+", 1, 4, "exponent");
	check_fails("{} x", 1, 4, "after the value");
	check_fails("'a'", 1, 1, "expected a value");
	check_fails("{\"a\": // comment\n1}", 1, 7, "expected a value");
	check_fails("\"a\tb\"", 1, 3, "control character");
	check_fails("\"\\x\"", 1, 2, "invalid escape");
	check_fails("\"\xff\"", 1, 2, "UTF-8");
	check_fails("\"\xc0\xaf\"", 1, 2, "UTF-8");        /* overlong */
	check_fails("\"\xed\xa0\x80\"", 1, 2, "UTF-8");    /* encoded surrogate */
	check_fails("[1, 2", 1, 6, "',' or ']'");
}

static void test_truncated(void)
{
	const char *doc = "{\"nvml\": {\"devices\": [{\"name\": \"A\\u00e9\", \"n\": [1, 2.5e3, -7]}]}}";
	size_t n = strlen(doc);

	/* Every proper prefix is an error, never a crash or a success. */
	for (size_t i = 0; i < n; i++) {
		gw_jsonp_error err;
		gw_jv *v = gw_jsonp_parse(doc, i, NULL, &err);

		CHECK(v == NULL);
		CHECK(err.msg[0] != '\0');
		gw_jsonp_free(v);
	}
	{
		gw_jv *v = gw_jsonp_parse(doc, n, NULL, NULL);

		CHECK(v != NULL);
		gw_jsonp_free(v);
	}
	check_fails("\"abc", 1, 1, "unterminated string");
	check_fails("\"\\u12", 1, 4, "truncated");
}

static void test_depth_and_size(void)
{
	char deep[300];
	gw_jsonp_limits lim = { .max_depth = 10 };
	gw_jsonp_error err;
	gw_jv *v;

	memset(deep, '[', 200);
	deep[200] = '\0';
	v = parse(deep, &err);                  /* default limit 64 */
	CHECK(v == NULL);
	CHECK(strstr(err.msg, "nesting deeper") != NULL);
	CHECK_INT(err.col, 65);

	v = gw_jsonp_parse("[[[[[[[[[[[]]]]]]]]]]]", 22, &lim, &err);   /* 11 levels */
	CHECK(v == NULL);
	v = gw_jsonp_parse("[[[[[[[[[[]]]]]]]]]]", 20, &lim, &err);     /* 10 levels */
	CHECK(v != NULL);
	gw_jsonp_free(v);

	lim.max_depth = 0;
	lim.max_size = 4;
	v = gw_jsonp_parse("[1,2]", 5, &lim, &err);
	CHECK(v == NULL);
	CHECK(strstr(err.msg, "exceeds the limit") != NULL);

	/* Not NUL-terminated: the length rules. */
	v = gw_jsonp_parse("[1]garbage", 3, NULL, &err);
	CHECK(v != NULL);
	gw_jsonp_free(v);
}

static void test_numbers(void)
{
	gw_jsonp_error err;
	gw_jv *v = parse("[9223372036854775807, -9223372036854775808, 9223372036854775808,"
			 " 123456789012345678901234567890, 1e400, -1e400, 1e-400, 0.1, 1.5e3,"
			 " 85520809984, -0, 0e0]", &err);
	int64_t i;

	CHECK(v != NULL);
	if (!v)
		return;
	CHECK(gw_jv_int64(gw_jv_at(v, 0), &i) == 0 && i == INT64_MAX);
	CHECK(gw_jv_int64(gw_jv_at(v, 1), &i) == 0 && i == INT64_MIN);
	CHECK(gw_jv_int64(gw_jv_at(v, 2), &i) == -1);        /* too big for int64 */
	CHECK(gw_jv_at(v, 2)->u.num.d == 9223372036854775808.0);
	CHECK(gw_jv_int64(gw_jv_at(v, 3), &i) == -1);
	CHECK(fabs(gw_jv_at(v, 3)->u.num.d / 1.2345678901234568e29 - 1) < 1e-12);
	CHECK(isinf(gw_jv_at(v, 4)->u.num.d) && gw_jv_at(v, 4)->u.num.d > 0);
	CHECK(isinf(gw_jv_at(v, 5)->u.num.d) && gw_jv_at(v, 5)->u.num.d < 0);
	CHECK(gw_jv_at(v, 6)->u.num.d == 0);
	CHECK(gw_jv_at(v, 7)->u.num.d == 0.1);
	CHECK(gw_jv_at(v, 8)->u.num.d == 1500 && !gw_jv_at(v, 8)->u.num.is_int);
	CHECK(gw_jv_int64(gw_jv_at(v, 9), &i) == 0 && i == 85520809984LL);
	CHECK(gw_jv_int64(gw_jv_at(v, 10), &i) == 0 && i == 0);
	CHECK(gw_jv_at(v, 11)->u.num.d == 0);
	gw_jsonp_free(v);
}

static void test_unicode(void)
{
	gw_jsonp_error err;
	gw_jv *v = parse("[\"\\u00e9\\u20AC\\ud83d\\ude00\", \"caf\xc3\xa9 \xe2\x82\xac\", \"\\/\\\"\\\\\\b\\f\\n\\r\"]", &err);

	CHECK(v != NULL);
	if (v) {
		CHECK_STR(gw_jv_str(gw_jv_at(v, 0)), "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
		CHECK_INT(gw_jv_at(v, 0)->u.str.len, 9);
		CHECK_STR(gw_jv_str(gw_jv_at(v, 1)), "caf\xc3\xa9 \xe2\x82\xac");
		CHECK_STR(gw_jv_str(gw_jv_at(v, 2)), "/\"\\\b\f\n\r");
	}
	gw_jsonp_free(v);
	check_fails("\"\\ud83d\"", 1, 2, "high surrogate");
	check_fails("\"\\ud83d\\u0041\"", 1, 2, "high surrogate");
	check_fails("\"\\ude00\"", 1, 2, "lone low surrogate");
	check_fails("\"a\\u0000b\"", 1, 3, "\\u0000");
	check_fails("\"\\uZZZZ\"", 1, 4, "hex digit");
}

int main(void)
{
	test_valid();
	test_invalid();
	test_truncated();
	test_depth_and_size();
	test_numbers();
	test_unicode();
	return CHECK_DONE();
}

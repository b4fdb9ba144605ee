/* Unit tests of lib/core: paths, parsing, bus ids, the JSON writer, errors,
 * fault injection counters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core/util.h"
#include "core/error.h"
#include "core/path.h"
#include "core/pci.h"

static void test_path_join(void)
{
	char out[64];

	CHECK_INT(gw__path_join(out, sizeof(out), "/", "/proc/x"), 0);
	CHECK_STR(out, "/proc/x");
	CHECK_INT(gw__path_join(out, sizeof(out), "/tmp/root/", "/proc/x"), 0);
	CHECK_STR(out, "/tmp/root/proc/x");
	CHECK_INT(gw__path_join(out, sizeof(out), NULL, "/a"), 0);
	CHECK_STR(out, "/a");
	CHECK_INT(gw__path_join(out, sizeof(out), "/", "relative"), GW_EINVAL);
	CHECK_INT(gw__path_join(out, 8, "/tmp/root", "/proc/x"), GW_EINVAL);
}

static void test_parse_u64(void)
{
	uint64_t v = 0;

	CHECK_INT(gw__parse_u64("42\n", &v), 0);
	CHECK_INT(v, 42);
	CHECK_INT(gw__parse_u64("0x10de", &v), 0);
	CHECK_INT(v, 0x10de);
	CHECK_INT(gw__parse_u64("", &v), GW_EPARSE);
	CHECK_INT(gw__parse_u64("12abc", &v), GW_EPARSE);
	CHECK_INT(gw__parse_u64("-1", &v), GW_EPARSE);
	CHECK_INT(gw__parse_u64("99999999999999999999999", &v), GW_EPARSE);
	CHECK_INT(v, 0x10de); /* untouched on failure */
}

static void test_bus_id(void)
{
	char out[16];

	CHECK_INT(gw__pci_bus_id_normalize("00000000:18:00.0", out), 0);
	CHECK_STR(out, "0000:18:00.0");
	CHECK_INT(gw__pci_bus_id_normalize("0000:DB:00.0", out), 0);
	CHECK_STR(out, "0000:db:00.0");
	CHECK_INT(gw__pci_bus_id_normalize("3b:00.0", out), 0);
	CHECK_STR(out, "0000:3b:00.0");
	CHECK_INT(gw__pci_bus_id_normalize("garbage", out), GW_EPARSE);
	CHECK_INT(gw__pci_bus_id_normalize("0000:100:00.0", out), GW_EPARSE);
	CHECK_INT(gw__pci_bus_id_normalize("", out), GW_EPARSE);
}

static void test_json_writer(void)
{
	gw_json *j = gw_json_new(0);
	gw_u64 f = { 0 };

	gw_json_object_begin(j);
	gw_json_key(j, "a");
	gw_json_int(j, -3);
	gw_json_key(j, "s");
	gw_json_string(j, "q\"\\\n\x01\xff");
	gw_json_key(j, "arr");
	gw_json_array_begin(j);
	gw_json_double(j, 69.5, 3);
	gw_json_double(j, 1.0 / 0.0, 3);
	gw_json_bool(j, 1);
	gw_json_array_end(j);
	gw_json_u64_field(j, "unread", &f);
	gw_json_key(j, "empty");
	gw_json_object_begin(j);
	gw_json_object_end(j);
	gw_json_object_end(j);
	CHECK_STR(gw_json_text(j), "{\"a\":-3,\"s\":\"q\\\"\\\\\\n\\u0001\\ufffd\",\"arr\":[69.5,null,true],\"unread\":null,\"empty\":{}}");
	gw_json_free(j);
	gw_json_free(NULL);
}

static void test_read_file(void)
{
	char dir[] = "/tmp/gw-core-XXXXXX";
	char path[128], buf[8], *data = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/x", dir);
	f = fopen(path, "w");
	fputs("hello world\n", f);
	fclose(f);
	CHECK_INT(gw__read_file(dir, "/x", 1024, &data, &len), 0);
	CHECK_INT(len, 12);
	free(data);
	CHECK_INT(gw__read_file(dir, "/x", 5, &data, &len), 0); /* bounded */
	CHECK_INT(len, 5);
	free(data);
	CHECK_INT(gw__read_small(dir, "/x", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "hello w");
	CHECK_INT(gw__read_file(dir, "/missing", 10, &data, &len), GW_ENOTFOUND);
	CHECK(strstr(gw_error_last(), "/missing") != NULL);
	unlink(path);
	rmdir(dir);
}

static void test_context_empty_root(void)
{
	char dir[] = "/tmp/gw-empty-XXXXXX";
	gw_options o = GW_OPTIONS_INIT;
	gw_context *ctx = NULL;
	int n;

	CHECK(mkdtemp(dir) != NULL);
	o.root = dir;
	o.nvml_library = "/nonexistent/libnvidia-ml.so.1";
	o.cuda_library = "/nonexistent/libcuda.so.1";
	CHECK_INT(gw_context_new(&ctx, &o), 0);
	CHECK_INT(gw_device_count(ctx), 0);
	CHECK(gw_device_get(ctx, 0) == NULL);
	CHECK(gw_context_backends(ctx, &n) != NULL);
	CHECK(n >= 4);
	CHECK_STR(gw_context_root(ctx), dir);
	gw_context_free(ctx);
	gw_context_free(NULL);
	o.version = 99;
	ctx = NULL;
	CHECK_INT(gw_context_new(&ctx, &o), GW_EINVAL);
	CHECK(ctx == NULL);
	rmdir(dir);
}

/* A message that does not fit ends in "…", never cut mid-character silently. */
static void test_fmt_marks_cut(void)
{
	char buf[12];

	CHECK(gw__fmt(buf, sizeof(buf), "%s", "short"));
	CHECK_STR(buf, "short");
	CHECK(!gw__fmt(buf, sizeof(buf), "%s", "a sentence too long"));
	CHECK_STR(buf, "a senten\xe2\x80\xa6");
	/* "é" (2 bytes) would be split at byte 8: the cut moves before it. */
	CHECK(!gw__fmt(buf, sizeof(buf), "%s", "abcdefg\xc3\xa9hijkl"));
	CHECK_STR(buf, "abcdefg\xe2\x80\xa6");
	CHECK(gw__fmt(buf, sizeof(buf), "%s", "exactly 11c"));
	CHECK_STR(buf, "exactly 11c");
	gw__error_set(GW_EINVAL, "%0900d and the end", 0);
	CHECK(strstr(gw_error_last(), " and the end") != NULL);
}

/* gw__strlcpy cuts under the same rule as gw__fmt and says so. */
static void test_strlcpy_marks_cut(void)
{
	char buf[12];

	CHECK(gw__strlcpy(buf, "exactly 11c", sizeof(buf)));
	CHECK_STR(buf, "exactly 11c");
	CHECK(!gw__strlcpy(buf, "a sentence too long", sizeof(buf)));
	CHECK_STR(buf, "a senten\xe2\x80\xa6");
	CHECK(!gw__strlcpy(buf, "abcdefg\xc3\xa9hijkl", sizeof(buf)));
	CHECK_STR(buf, "abcdefg\xe2\x80\xa6");
	CHECK(!gw__strlcpy(buf, "x", 0));
}

/* The last message made again from a translation of its format: the values
 * as printed in English, reordered by "%2$s", an English plural ending
 * dropped by "%.0s"; the English message when the translation does not fit
 * or there is none (issue 9: the library never translates by itself). */
static void test_error_translated(void)
{
	gw__error_set(GW_ELOST, "GPU %d (%s) is lost: %s", 3, "H100", "fell off the bus");
	CHECK_STR(gw_error_last(), "GPU 3 (H100) is lost: fell off the bus");
	CHECK_STR(gw_error_last_format(), "GPU %d (%s) is lost: %s");
	CHECK_STR(gw_error_last_with("GPU %d\xef\xbc\x88%s\xef\xbc\x89 lost: %s"),
		  "GPU 3\xef\xbc\x88H100\xef\xbc\x89 lost: fell off the bus");
	CHECK_STR(gw_error_last_with("%3$s / %1$d / %2$s 100%%"), "fell off the bus / 3 / H100 100%");
	/* a format that is not a translation of this one: the message */
	CHECK_STR(gw_error_last_with("%d %d %d %d"), "GPU 3 (H100) is lost: fell off the bus");
	CHECK_STR(gw_error_last_with("%*d"), "GPU 3 (H100) is lost: fell off the bus");
	CHECK_STR(gw_error_last_with(NULL), "GPU 3 (H100) is lost: fell off the bus");
	/* no catalogue in a unit test: English */
	CHECK_STR(gw_error_last_text(), "GPU 3 (H100) is lost: fell off the bus");

	gw__error_set(GW_ETIMEDOUT, "gave up waiting for %u GPU%s after %.1f s", 2u, "s", 1.5);
	CHECK_STR(gw_error_last_with("waited %u GPU%.0s, %.1f s"), "waited 2 GPU, 1.5 s");
	gw__error_set(GW_EINVAL, "%zu %llu %ld %c %x %5s|", (size_t)7, 1ULL << 40, -5L, 'z', 255u, "ab");
	CHECK_STR(gw_error_last_with("%6$s|%5$x %4$c %3$ld %2$llu %1$zu"), "   ab|ff z -5 1099511627776 7");

	/* wrapping the last message in a new one reads it before writing */
	gw__error_set(GW_EINVAL, "no \"%s\" key", "hidden_size");
	gw__error_set(GW_EPARSE, "config.json: %s", gw_error_last());
	CHECK_STR(gw_error_last(), "config.json: no \"hidden_size\" key");
	CHECK_STR(gw_error_last_with("%s（配置）"), "no \"hidden_size\" key（配置）");

	gw_error_clear();
	CHECK_STR(gw_error_last(), "");
	CHECK_STR(gw_error_last_format(), "");
	CHECK_STR(gw_error_last_with("x"), "");
	CHECK_STR(gw_error_str(GW_ELOST), "GPU is lost");
}

/* gw_language_set: a catalogue read without gettext (GNU .mo layout: the
 * originals sorted, a plural original "one\0many"), whatever the locale;
 * "C" English, NULL the locale again (none here: English), an unknown
 * language GW_ENOTFOUND. Runs first: the catalogue folder is bound once. */
static void test_language_set(void)
{
	static const char *const orig[] = { "", "%d GPU\0%d GPUs", "hello" };
	static const size_t olen[] = { 0, 14, 5 };
	static const char *const tr[] = { "Plural-Forms: nplurals=1; plural=0;\n", "%d \xe5\x9d\x97 GPU", "\xe4\xbd\xa0\xe5\xa5\xbd" };
	char dir[] = "/tmp/gw-lang-XXXXXX", path[256];
	unsigned int head[7] = { 0x950412deu, 0, 3, 28, 28 + 24, 0, 0 };
	unsigned int at = 28 + 48;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/zh_CN", dir);
	CHECK(mkdir(path, 0755) == 0);
	snprintf(path, sizeof(path), "%s/zh_CN/LC_MESSAGES", dir);
	CHECK(mkdir(path, 0755) == 0);
	snprintf(path, sizeof(path), "%s/zh_CN/LC_MESSAGES/gpuwise.mo", dir);
	CHECK((f = fopen(path, "wb")) != NULL);
	fwrite(head, sizeof(head), 1, f);
	for (int i = 0; i < 3; i++) {   /* the originals' (length, offset) */
		unsigned int e[2] = { (unsigned int)olen[i], at };

		fwrite(e, sizeof(e), 1, f);
		at += (unsigned int)olen[i] + 1;
	}
	for (int i = 0; i < 3; i++) {
		unsigned int e[2] = { (unsigned int)strlen(tr[i]), at };

		fwrite(e, sizeof(e), 1, f);
		at += (unsigned int)strlen(tr[i]) + 1;
	}
	for (int i = 0; i < 3; i++)
		fwrite(orig[i], olen[i] + 1, 1, f);
	for (int i = 0; i < 3; i++)
		fwrite(tr[i], strlen(tr[i]) + 1, 1, f);
	fclose(f);
	setenv("GPUWISE_LOCALEDIR", dir, 1);

	CHECK_STR(gw_translate("hello"), "hello");                /* the C locale */
	CHECK_INT(gw_language_set("zh_CN.UTF-8"), 0);             /* found as zh_CN */
	CHECK_STR(gw_translate("hello"), "\xe4\xbd\xa0\xe5\xa5\xbd");
	CHECK_STR(gw_translate("hello!"), "hello!");
	CHECK_STR(gw_translate_n("%d GPU", "%d GPUs", 5), "%d \xe5\x9d\x97 GPU");
	CHECK_STR(gw_translate_n("%d GPU", "%d GPUs", 1), "%d \xe5\x9d\x97 GPU");
	CHECK_INT(gw_language_set("fr"), GW_ENOTFOUND);           /* nothing changed */
	CHECK_STR(gw_translate("hello"), "\xe4\xbd\xa0\xe5\xa5\xbd");
	CHECK_INT(gw_language_set("C"), 0);
	CHECK_STR(gw_translate("hello"), "hello");
	CHECK_STR(gw_translate_n("%d GPU", "%d GPUs", 5), "%d GPUs");
	CHECK_INT(gw_language_set(NULL), 0);
	CHECK_STR(gw_translate("hello"), "hello");
	unlink(path);
	unsetenv("GPUWISE_LOCALEDIR");
}

int main(void)
{
	test_language_set();
	test_error_translated();
	test_fmt_marks_cut();
	test_strlcpy_marks_cut();
	test_path_join();
	test_parse_u64();
	test_bus_id();
	test_json_writer();
	test_read_file();
	test_context_empty_root();
	return CHECK_DONE();
}

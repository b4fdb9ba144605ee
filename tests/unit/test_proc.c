/* /proc process resolution (gw__process_resolve) against fake trees, and
 * its parsers. */
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fake_tree.h"
#include "core/proc.h"
#include "backend/sysfs_parse.h"
#include "core/proc_parse.h"

static const char passwd[] =
	"root:x:0:0:root:/root:/bin/bash\n"
	"# a comment\n"
	"+nisuser::::::\n"
	"broken line without colons\n"
	"daemon:x:1:1::/:/usr/sbin/nologin\n"
	"alice:x:1000:1000:Alice:/home/alice:/bin/bash\n"
	"alice2:x:1000:1000:second alice:/home/alice2:/bin/bash\n"
	"j\xc3\xbcrgen:x:1003:1003::/home/j:/bin/sh\n"   /* UTF-8: kept */
	"bad\xff\x1b[2J:x:1004:1004::/:/bin/sh\n"       /* not UTF-8, an escape: '?' */
	"bob:x:1001:1001::/home/bob:/bin/sh";  /* no final newline */

static gw_process resolve(uint32_t pid)
{
	gw_process p;

	memset(&p, 0, sizeof(p));
	p.pid = pid;
	/* Stale values must be cleared when resolution fails. */
	strcpy(p.user, "stale");
	strcpy(p.command, "stale");
	gw__process_resolve(tree_root, &p);
	return p;
}

static void test_parsers(void)
{
	char out[64];
	uint32_t uid = 7;
	const char *st = "Name:\tpython3\nUmask:\t0022\nState:\tS (sleeping)\nUid:\t1000\t1001\t1002\t1003\nGid:\t100\n";

	CHECK_INT(gw__proc_parse_uid(st, strlen(st), &uid), 0);
	CHECK_INT(uid, 1000);
	CHECK_INT(gw__proc_parse_uid("Name: x\n", 8, &uid), GW_EPARSE);
	CHECK_INT(gw__proc_parse_uid("Uid:\t99999999999\n", 17, &uid), GW_EPARSE);
	CHECK_INT(gw__proc_parse_uid("Uid:\tabc\n", 9, &uid), GW_EPARSE);
	CHECK_INT(gw__proc_parse_uid("XUid:\t5\n", 8, &uid), GW_EPARSE);

	CHECK_INT(gw__proc_passwd_lookup(passwd, strlen(passwd), 1000, out, sizeof(out)), 0);
	CHECK_STR(out, "alice");
	CHECK_INT(gw__proc_passwd_lookup(passwd, strlen(passwd), 1001, out, sizeof(out)), 0);
	CHECK_STR(out, "bob");
	CHECK_INT(gw__proc_passwd_lookup(passwd, strlen(passwd), 0, out, sizeof(out)), 0);
	CHECK_STR(out, "root");
	CHECK_INT(gw__proc_passwd_lookup(passwd, strlen(passwd), 4242, out, sizeof(out)), GW_ENOTFOUND);
	/* Issue 8 #19: a UTF-8 name is kept, not "???"; garbage is not. */
	CHECK_INT(gw__proc_passwd_lookup(passwd, strlen(passwd), 1003, out, sizeof(out)), 0);
	CHECK_STR(out, "j\xc3\xbcrgen");
	CHECK_INT(gw__proc_passwd_lookup(passwd, strlen(passwd), 1004, out, sizeof(out)), 0);
	CHECK_STR(out, "bad??[2J");

	{
		static const char cmd[] = "python3\0train.py\0--lr\0" "0.1\0";

		gw__proc_cmdline_text(cmd, sizeof(cmd) - 1, out, sizeof(out));
		CHECK_STR(out, "python3 train.py --lr 0.1");
	}
	{
		static const char cmd[] = "evil\x1b[2J\0arg\ttab\0\x7f";

		gw__proc_cmdline_text(cmd, sizeof(cmd) - 1, out, sizeof(out));
		CHECK_STR(out, "evil?[2J arg?tab ?");
	}
	{
		/* Valid UTF-8 is kept; a stray continuation byte and a truncated
		 * sequence are not. */
		static const char cmd[] = "caf\xc3\xa9\0\x80x\0\xe2\x82";
		char small[8];

		gw__proc_cmdline_text(cmd, sizeof(cmd) - 1, out, sizeof(out));
		CHECK_STR(out, "caf\xc3\xa9 ?x ??");
		/* Truncation never splits a character and says so: "caf" + 2-byte
		 * é needs 6; in 5 there is room for "c…". */
		gw__proc_cmdline_text("caf\xc3\xa9", 5, small, 5);
		CHECK_STR(small, "c\xe2\x80\xa6");
		gw__proc_cmdline_text("caf\xc3\xa9", 5, small, 6);
		CHECK_STR(small, "caf\xc3\xa9");
		/* "…" after é: é's two bytes stay whole. */
		gw__proc_cmdline_text("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 8, small, 8);
		CHECK_STR(small, "\xc3\xa9\xc3\xa9\xe2\x80\xa6");
		/* A C1 control (U+009B, CSI) is a control: '?'. */
		gw__proc_cmdline_text("a\xc2\x9b" "b", 4, out, sizeof(out));
		CHECK_STR(out, "a??b");
	}
	gw__proc_cmdline_text("", 0, out, sizeof(out));
	CHECK_STR(out, "");
	gw__proc_cmdline_text("\0\0\0", 3, out, sizeof(out));
	CHECK_STR(out, "");
}

static void test_resolve(void)
{
	gw_process p;
	char big[600];

	tree_new();
	tree_put("etc/passwd", passwd);

	/* A normal process. */
	tree_put("proc/4242/status", "Name:\tpython3\nUid:\t1000\t1000\t1000\t1000\n");
	tree_putn("proc/4242/cmdline", "python3\0-m\0torch.distributed.run\0", 34);
	tree_put("proc/4242/comm", "python3\n");
	p = resolve(4242);
	CHECK_INT(p.pid_resolved, 1);
	CHECK_INT(p.uid, 1000);
	CHECK_STR(p.user, "alice");
	CHECK_STR(p.command, "python3 -m torch.distributed.run");

	/* A kernel thread-like process: empty cmdline, comm in brackets. */
	tree_put("proc/77/status", "Name:\tkworker\nUid:\t0\t0\t0\t0\n");
	tree_put("proc/77/cmdline", "");
	tree_put("proc/77/comm", "kworker/0:1\n");
	p = resolve(77);
	CHECK_INT(p.pid_resolved, 1);
	CHECK_STR(p.user, "root");
	CHECK_STR(p.command, "[kworker/0:1]");

	/* A uid missing from /etc/passwd (LDAP): the number; no cmdline nor comm. */
	tree_put("proc/500/status", "Uid:\t123456\t0\t0\t0\n");
	p = resolve(500);
	CHECK_INT(p.pid_resolved, 1);
	CHECK_STR(p.user, "123456");
	CHECK_STR(p.command, "");

	/* A very long command line is truncated to fit. */
	memset(big, 'a', sizeof(big));
	tree_put("proc/501/status", "Uid:\t1001\t0\t0\t0\n");
	tree_putn("proc/501/cmdline", big, sizeof(big));
	p = resolve(501);
	CHECK_INT(strlen(p.command), sizeof(p.command) - 1);
	CHECK(!strcmp(p.command + strlen(p.command) - 3, "\xe2\x80\xa6")); /* cut: says so */
	CHECK_STR(p.user, "bob");

	/* A host pid not in this pid namespace. */
	p = resolve(999999);
	CHECK_INT(p.pid_resolved, 0);
	CHECK_STR(p.user, "");
	CHECK_STR(p.command, "");

	/* /proc/<pid> exists but status is unreadable (a folder) or garbage. */
	tree_mkdir("proc/600/status");
	p = resolve(600);
	CHECK_INT(p.pid_resolved, 0);
	CHECK_STR(p.command, "");
	tree_put("proc/601/status", "\x01\x02\x03 binary\n");
	tree_put("proc/601/cmdline", "x");
	p = resolve(601);
	CHECK_INT(p.pid_resolved, 0);

	/* No /etc/passwd at all. */
	tree_new();
	tree_put("proc/4242/status", "Uid:\t0\t0\t0\t0\n");
	tree_putn("proc/4242/cmdline", "sleep\0" "100\0", 10);
	p = resolve(4242);
	CHECK_INT(p.pid_resolved, 1);
	CHECK_STR(p.user, "0");
	CHECK_STR(p.command, "sleep 100");
}

/* A string literal and its length. */
#define TEXT(s) s, sizeof(s) - 1

/* What `gpuwise top` reads of a process's host side: /proc/<pid>/stat
 * (CPU ticks, start), status (VmRSS) and /proc/stat (btime). */
static void test_host_parsers(void)
{
	struct gw_proc_stat st = { 1, 2, 3 };
	uint64_t v = 7;
	/* comm with spaces and ')' : the fields count from the last ')'. */
	static const char stat[] = "4242 (py thon) x)) S 1 4242 4242 0 -1 4194560 100 0 0 0 "
				   "1500 250 0 0 20 0 12 0 987654 123456789 4096 18446744073709551615\n";

	CHECK_INT(gw__proc_parse_times(stat, strlen(stat), &st), 0);
	CHECK(st.utime == 1500 && st.stime == 250 && st.starttime == 987654);
	CHECK_INT(gw__proc_parse_times(TEXT("4242 (x) S 1 2 3"), &st), GW_EPARSE);   /* too short */
	CHECK_INT(gw__proc_parse_times(TEXT("no parenthesis at all"), &st), GW_EPARSE);
	CHECK_INT(gw__proc_parse_times(TEXT("1 (x) S 1 1 1 0 -1 0 0 0 0 0 1x 2 0 0 20 0 1 0 5"), &st), GW_EPARSE);
	CHECK(st.utime == 1500);   /* untouched on failure */

	CHECK_INT(gw__proc_parse_rss(TEXT("Name:\tx\nVmRSS:\t   2048 kB\nThreads:\t1\n"), &v), 0);
	CHECK(v == 2048 * 1024);
	CHECK_INT(gw__proc_parse_rss(TEXT("Name:\tkthreadd\n"), &v), GW_ENOTFOUND);
	CHECK_INT(gw__proc_parse_rss(TEXT("VmRSS:\t kB\n"), &v), GW_EPARSE);
	CHECK_INT(gw__proc_parse_rss(TEXT("VmRSSX:\t5 kB\n"), &v), GW_ENOTFOUND);
	CHECK(v == 2048 * 1024);
	CHECK_INT(gw__proc_parse_btime(TEXT("cpu  1 2 3\nbtime 1700000000\nprocesses 5\n"), &v), 0);
	CHECK(v == 1700000000);
	CHECK_INT(gw__proc_parse_btime(TEXT("cpu 1\n"), &v), GW_ENOTFOUND);
}

static void test_host_read(void)
{
	gw_host_process h;
	double boot = -1;
	long hz = sysconf(_SC_CLK_TCK);

	tree_new();
	tree_put("proc/stat", "cpu  1 2 3 4\nbtime 1700000000\n");
	tree_put("proc/4242/stat", "4242 (python3) S 1 4242 4242 0 -1 0 0 0 0 0 "
		 "3000 1000 0 0 20 0 12 0 50000 0 4096 0\n");
	tree_put("proc/4242/status", "Name:\tpython3\nVmRSS:\t  1048576 kB\n");
	CHECK_INT(gw__boot_time(tree_root, &boot), 0);
	CHECK(boot == 1700000000.0);
	CHECK_INT(gw__process_host_read(tree_root, 4242, boot, &h), 0);
	CHECK_INT((int)h.pid, 4242);
	CHECK(GW_VALID(h.cpu_time) && h.cpu_time.v == 4000.0 / (double)hz);
	CHECK(GW_VALID(h.rss) && h.rss.v == 1024ull * 1024 * 1024);
	CHECK(GW_VALID(h.start_time) && h.start_time.v == 1700000000.0 + 50000.0 / (double)hz);
	/* Without btime: no start time, the rest still read. */
	CHECK_INT(gw__process_host_read(tree_root, 4242, -1, &h), 0);
	CHECK(!GW_VALID(h.start_time) && GW_VALID(h.cpu_time));
	/* A kernel thread: no VmRSS. A pid that is not here: ENOTFOUND. */
	tree_put("proc/2/stat", "2 (kthreadd) S 0 0 0 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 3 0 0 0\n");
	tree_put("proc/2/status", "Name:\tkthreadd\n");
	CHECK_INT(gw__process_host_read(tree_root, 2, boot, &h), 0);
	CHECK(!GW_VALID(h.rss) && GW_VALID(h.cpu_time));
	CHECK_INT(gw__process_host_read(tree_root, 999999, boot, &h), GW_ENOTFOUND);
	tree_new();
	CHECK_INT(gw__boot_time(tree_root, &boot), GW_ENOTFOUND);
}

/* The real /proc of this test process, with the real root. */
static void test_self(void)
{
	gw_process p;

	memset(&p, 0, sizeof(p));
	p.pid = (uint32_t)getpid();
	gw__process_resolve("/", &p);
	CHECK_INT(p.pid_resolved, 1);
	CHECK_INT(p.uid, getuid());
	CHECK(strstr(p.command, "test_proc") != NULL);
	CHECK(p.user[0] != '\0');
	{
		gw_host_process h;
		double boot;

		CHECK_INT(gw__boot_time("/", &boot), 0);
		CHECK_INT(gw__process_host_read("/", (uint32_t)getpid(), boot, &h), 0);
		CHECK(GW_VALID(h.rss) && h.rss.v > 0);
		CHECK(GW_VALID(h.start_time) && h.start_time.v > boot && h.start_time.v <= (double)time(NULL) + 1);
	}
}

int main(void)
{
	test_parsers();
	test_resolve();
	test_host_parsers();
	test_host_read();
	test_self();
	tree_remove();
	return CHECK_DONE();
}

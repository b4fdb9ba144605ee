/* Unit tests of the system-call table (lib/core/sys.c): replacing an entry
 * makes that call fail and the failure surfaces as a clean error from the
 * root-aware helpers; GPUWISE_FAULT kinds fail the Nth call; a folder that
 * cannot be listed is an error, never an empty folder. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fake_tree.h"
#include "core/util.h"
#include "core/os.h"
#include "core/path.h"
#include "pool/poolfs.h"
#include "core/sys.h"
#include "probe/probe.h"

static int fail_errno = EIO;

static DIR *failing_opendir(const char *path)
{
	(void)path;
	errno = fail_errno;
	return NULL;
}

static struct dirent *failing_readdir(DIR *d)
{
	(void)d;
	errno = EIO;
	return NULL;
}

static ssize_t failing_read(int fd, void *buf, size_t n)
{
	(void)fd;
	(void)buf;
	(void)n;
	errno = EIO;
	return -1;
}

static int failing_stat(const char *path, struct stat *st)
{
	(void)path;
	(void)st;
	errno = EACCES;
	return -1;
}

static int opens;
static int counting_open(const char *path, int flags, mode_t mode)
{
	opens++;
	return open(path, flags, mode);
}

static void test_table_names(void)
{
	int n = 0;
	const char *want[] = { "open", "read", "close", "fstat", "stat", "lstat", "access", "opendir", "readdir",
			       "closedir", "readlink", "getuid", "getgroups", "malloc", "dlopen", "dlsym",
			       "pipe2", "fork", "execv", "waitpid", "kill", "poll", "execve", "waitid", "prctl",
			       "getpid" };

	for (const char *name = gw__syscall_next(NULL); name; name = gw__syscall_next(name)) {
		CHECK(gw__syscall_get(name) != NULL);
		n++;
	}
	CHECK(n >= (int)GW_ARRAY_SIZE(want));
	for (size_t i = 0; i < GW_ARRAY_SIZE(want); i++)
		CHECK(gw__syscall_get(want[i]) != NULL);
	CHECK(gw__syscall_get("no-such-call") == NULL);
	CHECK_INT(gw__syscall_set("no-such-call", NULL), GW_ENOTFOUND);
}

static void test_override_and_reset(void)
{
	char **names;
	size_t n;
	char *text;
	size_t len;
	gw__syscall_ptr dflt = gw__syscall_get("open");

	tree_new();
	tree_put("etc/a", "alpha\n");
	tree_put("etc/b", "beta\n");

	/* An entry replaced is the one every helper calls. */
	opens = 0;
	CHECK_INT(gw__syscall_set("open", (gw__syscall_ptr)counting_open), 0);
	CHECK(gw__syscall_get("open") == (gw__syscall_ptr)counting_open);
	CHECK_INT(gw__read_file(tree_root, "/etc/a", 64, &text, &len), 0);
	CHECK_STR(text, "alpha\n");
	gw__free(text);
	CHECK_INT(opens, 1);
	CHECK_INT(gw__syscall_set("open", NULL), 0);    /* back to the default */
	CHECK(gw__syscall_get("open") == dflt);

	/* read(2) failing: a clean GW_EIO with a message naming the file. */
	CHECK_INT(gw__syscall_set("read", (gw__syscall_ptr)failing_read), 0);
	CHECK_INT(gw__read_file(tree_root, "/etc/a", 64, &text, &len), GW_EIO);
	CHECK(strstr(gw_error_last(), "/etc/a") != NULL);
	{
		char small[16] = "untouched";

		CHECK_INT(gw__read_small(tree_root, "/etc/a", small, sizeof(small)), GW_EIO);
		CHECK_STR(small, "untouched");
	}

	/* stat(2) failing: the file is not there for the helpers. */
	CHECK_INT(gw__syscall_set("stat", (gw__syscall_ptr)failing_stat), 0);
	{
		gw_file_stat st;

		CHECK_INT(gw__path_stat(tree_root, "/etc/a", &st), GW_EPERM);
		CHECK(!gw__path_exists(tree_root, "/etc/a"));
	}

	/* Reset every entry: everything works again. */
	CHECK_INT(gw__syscall_set(NULL, NULL), 0);
	CHECK(gw__path_exists(tree_root, "/etc/a"));
	CHECK(gw__path_is_dir(tree_root, "/etc"));
	CHECK(!gw__path_is_dir(tree_root, "/etc/a"));
	CHECK_INT(gw__dir_list(tree_root, "/etc", &names, &n), 0);
	CHECK_INT(n, 2);
	gw__dir_list_free(names, n);
	tree_remove();
}

/* A listing that fails is an error, not an empty folder (it was 0 entries
 * for the probes' listing helper before). */
static void test_listing_failure_is_not_empty(void)
{
	gw_probe_options o;
	gw_probe_ctx c;
	char **names = (char **)&names;
	size_t n = 99;

	tree_new();
	tree_mkdir("empty");
	tree_put("full/python3.12/x", "");
	tree_put("full/python3.11/x", "");
	tree_put("full/other", "");
	memset(&o, 0, sizeof(o));
	memset(&c, 0, sizeof(c));
	c.opts = &o;
	c.root = tree_root;

	CHECK_INT(gw__probe_list_dir(&c, "/empty", "", &names, &n), 0);
	CHECK_INT(n, 0);
	CHECK_INT(gw__probe_list_dir(&c, "/full", "python3", &names, &n), 0);
	CHECK_INT(n, 2);
	if (n == 2) {
		CHECK_STR(names[0], "python3.11");
		CHECK_STR(names[1], "python3.12");
	}
	gw__probe_names_free(names, n);

	/* Absent. */
	CHECK_INT(gw__probe_list_dir(&c, "/absent", "", &names, &n), GW_ENOTFOUND);
	CHECK(names == NULL);
	CHECK_INT(n, 0);

	/* Permission denied (root can read any folder: the table says so). */
	fail_errno = EACCES;
	CHECK_INT(gw__syscall_set("opendir", (gw__syscall_ptr)failing_opendir), 0);
	CHECK_INT(gw__probe_list_dir(&c, "/full", "", &names, &n), GW_EPERM);
	CHECK_INT(n, 0);
	CHECK(strstr(gw_error_last(), "/full") != NULL);
	fail_errno = EIO;
	CHECK_INT(gw__probe_list_dir(&c, "/full", "", &names, &n), GW_EIO);
	CHECK_INT(gw__dir_list(tree_root, "/full", &names, &n), GW_EIO);
	CHECK_INT(gw__syscall_set("opendir", NULL), 0);

	/* readdir failing half-way: EIO, not the names read so far. */
	CHECK_INT(gw__syscall_set("readdir", (gw__syscall_ptr)failing_readdir), 0);
	CHECK_INT(gw__probe_list_dir(&c, "/full", "", &names, &n), GW_EIO);
	CHECK(names == NULL);
	CHECK_INT(n, 0);
	CHECK_INT(gw__syscall_set(NULL, NULL), 0);
	CHECK_INT(gw__probe_list_dir(&c, "/full", "", &names, &n), 0);
	CHECK_INT(n, 3);
	gw__probe_names_free(names, n);
	tree_remove();
}

/* GPUWISE_FAULT's kinds: each fails the Nth call of its kind once. */
static void test_fault_kinds(void)
{
	static const char *const kinds[] = { "alloc", "dlopen", "dlsym", "read", "open", "fdread", "fstat", "lseek",
					     "stat", "lstat", "access", "opendir", "readdir", "readlink", "realpath",
					     "getgroups", "pipe2", "fork", "execv", "posix_spawn", "dup2", "setpgid",
					     "poll", "kill", "waitpid", "execve", "waitid", "prctl", "flock", "write",
					     "unlink", "mkdir", "fchmod", "ftruncate", "inotify_init1",
					     "inotify_add_watch", "pidfd_open" };
	char **names;
	size_t n;
	char *text;
	char target[64];
	gw_file_stat st;

	CHECK_INT(GW_ARRAY_SIZE(kinds), GW__FAULT_KINDS);
	for (int k = 0; k < GW__FAULT_KINDS; k++)
		CHECK_STR(gw__fault_kind_name((enum gw__fault_kind)k), kinds[k]);
	CHECK(gw__fault_kind_name(GW__FAULT_KINDS) == NULL);
	CHECK_INT(gw__fault_config("bogus:1"), GW_EINVAL);
	CHECK_INT(gw__fault_config("opendir"), GW_EINVAL);

	tree_new();
	tree_put("etc/a", "alpha\n");
	tree_link("etc/link", "a");

	CHECK_INT(gw__fault_config("opendir:2"), 0);
	CHECK_INT(gw__dir_list(tree_root, "/etc", &names, &n), 0);   /* the first succeeds */
	gw__dir_list_free(names, n);
	CHECK_INT(gw__dir_list(tree_root, "/etc", &names, &n), GW_EIO);
	CHECK_INT(gw__dir_list(tree_root, "/etc", &names, &n), 0);   /* once only */
	gw__dir_list_free(names, n);

	CHECK_INT(gw__fault_config("readdir:1"), 0);
	CHECK_INT(gw__dir_list(tree_root, "/etc", &names, &n), GW_EIO);

	CHECK_INT(gw__fault_config("open:1"), 0);
	CHECK_INT(gw__read_file(tree_root, "/etc/a", 64, &text, NULL), GW_EIO);
	CHECK_INT(gw__fault_config("fdread:1"), 0);
	CHECK_INT(gw__read_file(tree_root, "/etc/a", 64, &text, NULL), GW_EIO);
	CHECK_INT(gw__fault_config("read:1"), 0);
	CHECK_INT(gw__read_file(tree_root, "/etc/a", 64, &text, NULL), GW_EIO);
	CHECK_INT(gw__fault_config("fstat:1"), 0);
	CHECK_INT(gw__read_tail(tree_root, "/etc/a", 64, &text, NULL), GW_EIO);
	CHECK_INT(gw__fault_config("stat:1"), 0);
	CHECK_INT(gw__path_stat(tree_root, "/etc/a", &st), GW_EIO);
	CHECK_INT(gw__fault_config("access:1"), 0);
	CHECK_INT(gw__path_access(tree_root, "/etc/a", R_OK), GW_EIO);
	CHECK_INT(gw__fault_config("readlink:1"), 0);
	CHECK_INT(gw__readlink(tree_root, "/etc/link", target, sizeof(target)), GW_EIO);
	CHECK_INT(gw__fault_config("alloc:1"), 0);
	CHECK(gw__malloc(8) == NULL);
	CHECK_INT(gw__fault_config("getgroups:1"), 0);
	{
		unsigned g[8];

		CHECK_INT(gw__getgroups(g, 8), -1);
	}

	/* No fault: everything reads. */
	CHECK_INT(gw__fault_config(NULL), 0);
	CHECK_INT(gw__read_tail(tree_root, "/etc/a", 64, &text, NULL), 0);
	CHECK_STR(text, "alpha\n");
	gw__free(text);
	CHECK_INT(gw__read_tail(tree_root, "/etc/a", 3, &text, NULL), 1);   /* the start was cut */
	CHECK_STR(text, "ha\n");
	gw__free(text);
	CHECK_INT(gw__readlink(tree_root, "/etc/link", target, sizeof(target)), 0);
	CHECK_STR(target, "a");
	tree_remove();
}

/* ftruncate's lengths, seen through the table. */
static off_t truncated[8];
static int ntruncated;

static int recording_ftruncate(int fd, off_t len)
{
	if (ntruncated < 8)
		truncated[ntruncated++] = len;
	return ftruncate(fd, len);
}

/* A pool file is rewritten over its old text and cut to the new length,
 * never cut to zero first (on ext4 that makes the next close push the file
 * to disk and a later rewrite wait for it). */
static void test_pool_rewrite(void)
{
	char buf[64];
	int fd, dirfd;

	tree_new();
	CHECK_INT(gw__pool_dir_open(tree_root, false, &dirfd), 0);
	CHECK_INT(gw__pool_open(dirfd, tree_root, "job-x", GW__POOL_CREATE, &fd), 1);
	CHECK_INT(gw__syscall_set("ftruncate", (gw__syscall_ptr)recording_ftruncate), 0);
	ntruncated = 0;
	CHECK_INT(gw__pool_write(fd, "state=waiting\npid=12345\n"), 0);
	CHECK_INT(gw__pool_write(fd, "state=run\n"), 0);
	CHECK_INT(gw__pool_read(fd, buf, sizeof(buf)), 10);
	CHECK_STR(buf, "state=run\n");
	CHECK_INT(ntruncated, 2);
	CHECK(truncated[0] == 24 && truncated[1] == 10);
	gw__syscall_set(NULL, NULL);
	gw__pool_close(fd);
	gw__pool_close(dirfd);
	tree_remove();
}

/* Which pool folders a user trusts: their own or root's; others may write
 * it only when root's and sticky, or a group's with setgid or sticky. */
static void test_pool_dir_refusal(void)
{
	CHECK(gw__pool_dir_refusal(1000, 040700, 1000) == NULL);
	CHECK(gw__pool_dir_refusal(0, 040755, 1000) == NULL);
	CHECK(gw__pool_dir_refusal(0, 041777, 1000) == NULL);
	CHECK(gw__pool_dir_refusal(0, 042770, 1000) == NULL);
	CHECK(gw__pool_dir_refusal(1000, 042770, 1000) == NULL);
	CHECK(gw__pool_dir_refusal(1001, 040700, 1000) != NULL);    /* another user's */
	CHECK(gw__pool_dir_refusal(1001, 041777, 1000) != NULL);    /* first come, sticky: still theirs */
	CHECK(gw__pool_dir_refusal(1000, 041777, 1000) != NULL);    /* ours, but anyone may write it */
	CHECK(gw__pool_dir_refusal(0, 040777, 1000) != NULL);       /* no sticky bit */
	CHECK(gw__pool_dir_refusal(0, 040770, 1000) != NULL);       /* group, no setgid */
	CHECK(gw__pool_dir_refusal(0, 041777, 0) == NULL);
}

int main(void)
{
	test_table_names();
	test_pool_rewrite();
	test_pool_dir_refusal();
	test_override_and_reset();
	test_listing_failure_is_not_empty();
	test_fault_kinds();
	return CHECK_DONE();
}

/* The one place where gpuwise turns an absolute path into a file it reads,
 * lists or checks: every path is prefixed with the context's root
 * ($GPUWISE_ROOT), so every probe and backend can run against a fake tree.
 * The system calls themselves go through the table of core/sys.c. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "core/os.h"
#include "core/error.h"
#include "core/path.h"
#include "core/sys.h"

int gw__path_join(char *out, size_t outsz, const char *root, const char *path)
{
	size_t rl;
	int n;

	if (!path || path[0] != '/')
		return gw__error_set(GW_EINVAL, "path '%s' is not absolute", path ? path : "(null)");
	if (!root || !root[0] || (root[0] == '/' && !root[1]))
		root = "";
	rl = strlen(root);
	while (rl > 0 && root[rl - 1] == '/')
		rl--;
	n = snprintf(out, outsz, "%.*s%s", (int)rl, root, path);
	if (n < 0 || (size_t)n >= outsz)
		return gw__error_set(GW_EINVAL, "path '%s' is too long", path);
	return 0;
}

static int errno_to_gw(int e)
{
	switch (e) {
	case ENOENT:
	case ENOTDIR:
		return GW_ENOTFOUND;
	case EACCES:
	case EPERM:
		return GW_EPERM;
	case ENOMEM:
		return GW_ENOMEM;
	default:
		return GW_EIO;
	}
}

/* Open root+path for reading, as every whole-file read does: the read fault
 * kind fails here, and a failure becomes a gw error naming the path.
 * Returns the descriptor or a negative gw_error. */
static int open_for_read(const char *root, const char *path)
{
	char full[GW_PATH_MAX];
	int fd, rc;

	if ((rc = gw__path_join(full, sizeof(full), root, path)) < 0)
		return rc;
	if (gw__fault_hit(GW__FAULT_READ))
		return gw__error_set(GW_EIO, "cannot read '%s': injected read failure", path);
	if ((fd = gw__sys_open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0)) < 0) {
		int e = errno;
		return gw__error_set(errno_to_gw(e), "cannot open '%s': %s", path, strerror(e));
	}
	return fd;
}

/* Reads until n bytes or end of file, retrying EINTR (a short read is not
 * an end: pipes and some sysfs files return less than asked). On a read
 * error the error is set, naming path; the caller still owns fd. */
static int read_fully(int fd, void *buf, size_t n, size_t *got, const char *path)
{
	size_t used = 0;

	while (used < n) {
		ssize_t r = gw__sys_read(fd, (char *)buf + used, n - used);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			*got = used;
			return gw__error_set(errno_to_gw(e), "cannot read '%s': %s", path, strerror(e));
		}
		if (r == 0)
			break;
		used += (size_t)r;
	}
	*got = used;
	return 0;
}

int gw__read_file(const char *root, const char *path, size_t limit, char **out, size_t *len)
{
	char *buf;
	size_t used = 0, cap = 4096;
	int fd;

	if ((fd = open_for_read(root, path)) < 0)
		return fd;
	if (cap > limit + 1)
		cap = limit + 1;
	if (!(buf = gw__malloc(cap))) {
		gw__sys_close(fd);
		return gw__error_set(GW_ENOMEM, "out of memory reading '%s'", path);
	}
	for (;;) {
		size_t want, got;
		int rc;

		if (used + 1 >= cap) {
			size_t ncap;
			char *nb;

			if (cap >= limit + 1)
				break; /* bounded: the rest of the file is ignored */
			ncap = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
			if (!(nb = gw__realloc(buf, ncap))) {
				gw__free(buf);
				gw__sys_close(fd);
				return gw__error_set(GW_ENOMEM, "out of memory reading '%s'", path);
			}
			buf = nb;
			cap = ncap;
		}
		want = cap - 1 - used;
		if ((rc = read_fully(fd, buf + used, want, &got, path)) < 0) {
			gw__free(buf);
			gw__sys_close(fd);
			return rc;
		}
		used += got;
		if (got < want)
			break; /* end of file */
	}
	gw__sys_close(fd);
	buf[used] = '\0';
	*out = buf;
	if (len)
		*len = used;
	return 0;
}

int gw__read_small(const char *root, const char *path, char *buf, size_t bufsz)
{
	char *data;
	size_t len;
	int rc;

	if ((rc = gw__read_file(root, path, bufsz > 1 ? bufsz - 1 : 0, &data, &len)) < 0)
		return rc;
	while (len > 0 && (data[len - 1] == '\n' || data[len - 1] == ' ' || data[len - 1] == '\r' || data[len - 1] == '\t'))
		data[--len] = '\0';
	/* Embedded NULs (garbage in sysfs) end the string there. */
	gw__strlcpy(buf, data, bufsz);
	gw__free(data);
	return 0;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void gw__dir_list_free(char **names, size_t count)
{
	if (!names)
		return;
	for (size_t i = 0; i < count; i++)
		gw__free(names[i]);
	gw__free(names);
}

int gw__dir_list_match(const char *root, const char *path, const char *prefix, size_t max, char ***out,
		       size_t *count)
{
	return gw__dir_list_filter(root, path, prefix, NULL, max, out, count, NULL);
}

int gw__dir_list_filter(const char *root, const char *path, const char *prefix, bool (*accept)(const char *name),
			size_t max, char ***out, size_t *count, bool *capped)
{
	char full[GW_PATH_MAX];
	char **names = NULL;
	size_t n = 0, cap = 0, pl = prefix ? strlen(prefix) : 0;
	struct dirent *e;
	DIR *d;
	int rc;

	*out = NULL;
	*count = 0;
	if (capped)
		*capped = false;
	if ((rc = gw__path_join(full, sizeof(full), root, path)) < 0)
		return rc;
	if (gw__fault_hit(GW__FAULT_READ))
		return gw__error_set(GW_EIO, "cannot list '%s': injected read failure", path);
	if (!(d = gw__sys_opendir(full))) {
		int e2 = errno;
		return gw__error_set(errno_to_gw(e2), "cannot list '%s': %s", path, strerror(e2));
	}
	for (;;) {
		/* readdir says "end" and "failed" both with NULL: errno tells. */
		errno = 0;
		if (!(e = gw__sys_readdir(d))) {
			int e2 = errno;

			if (!e2)
				break;
			gw__sys_closedir(d);
			gw__dir_list_free(names, n);
			return gw__error_set(errno_to_gw(e2) == GW_ENOMEM ? GW_ENOMEM : GW_EIO, "cannot list '%s': %s",
					     path, strerror(e2));
		}
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (pl && strncmp(e->d_name, prefix, pl))
			continue;
		if (accept && !accept(e->d_name))
			continue;
		if (n == max) {
			if (capped)
				*capped = true;
			break; /* bounded: no folder gpuwise reads has more */
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			char **nn = gw__realloc(names, ncap * sizeof(*nn));

			if (!nn)
				goto oom;
			names = nn;
			cap = ncap;
		}
		if (!(names[n] = gw__strdup(e->d_name)))
			goto oom;
		n++;
	}
	gw__sys_closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), compare_names);
	*out = names;
	*count = n;
	return 0;
oom:
	gw__sys_closedir(d);
	gw__dir_list_free(names, n);
	return gw__error_set(GW_ENOMEM, "out of memory listing '%s'", path);
}

int gw__dir_list(const char *root, const char *path, char ***out, size_t *count)
{
	return gw__dir_list_match(root, path, "", 65536, out, count);
}

int gw__path_stat(const char *root, const char *path, gw_file_stat *out)
{
	char full[GW_PATH_MAX];
	struct stat st;
	int rc;

	if ((rc = gw__path_join(full, sizeof(full), root, path)) < 0)
		return rc;
	if (gw__sys_stat(full, &st) != 0) {
		int e = errno;
		return gw__error_set(errno_to_gw(e), "cannot stat '%s': %s", path, strerror(e));
	}
	memset(out, 0, sizeof(*out));
	out->is_dir = S_ISDIR(st.st_mode);
	out->is_reg = S_ISREG(st.st_mode);
	out->is_chr = S_ISCHR(st.st_mode);
	out->mode = (unsigned)st.st_mode & 07777;
	out->uid = (unsigned)st.st_uid;
	out->gid = (unsigned)st.st_gid;
	out->size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
	return 0;
}

bool gw__path_exists(const char *root, const char *path)
{
	gw_file_stat st;

	return gw__path_stat(root, path, &st) == 0;
}

bool gw__path_is_dir(const char *root, const char *path)
{
	gw_file_stat st;

	return gw__path_stat(root, path, &st) == 0 && st.is_dir;
}

int gw__path_access(const char *root, const char *path, int mode)
{
	char full[GW_PATH_MAX];
	int rc;

	if ((rc = gw__path_join(full, sizeof(full), root, path)) < 0)
		return rc;
	if (gw__sys_access(full, mode) != 0) {
		int e = errno;
		return gw__error_set(errno_to_gw(e), "no access to '%s': %s", path, strerror(e));
	}
	return 0;
}

/* a + sep + b into out; false when it does not fit. */
static bool concat(char *out, size_t outsz, const char *a, const char *sep, const char *b)
{
	size_t al = strlen(a), sl = strlen(sep), bl = strlen(b);

	if (al + sl + bl + 1 > outsz)
		return false;
	memmove(out + al + sl, b, bl + 1);
	memmove(out, a, al);
	memcpy(out + al, sep, sl);
	return true;
}

/* Component by component, so that an absolute link target stays inside the
 * root (a fake tree's /usr/local/cuda -> /usr/local/cuda-12.4). */
int gw__path_resolve(const char *root, const char *path, char *out, size_t outsz)
{
	char pending[GW_PATH_MAX];    /* what is left to walk */
	char done[GW_PATH_MAX] = "";  /* resolved prefix, root-relative */
	int links = 0;

	if (!path || path[0] != '/' || strlen(path) >= sizeof(pending))
		return GW_EINVAL;
	gw__strlcpy(pending, path, sizeof(pending));
	while (pending[0]) {
		char comp[NAME_MAX + 1];
		char *p = pending;
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n > NAME_MAX)
			return GW_EINVAL;
		memcpy(comp, p, n);
		comp[n] = '\0';
		memmove(pending, p + n, strlen(p + n) + 1);
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			char *slash = strrchr(done, '/');

			if (slash)
				*slash = '\0';
			continue;
		}
		{
			char cand[GW_PATH_MAX], full[GW_PATH_MAX], target[GW_PATH_MAX];
			ssize_t tl;

			if (!concat(cand, sizeof(cand), done, "/", comp))
				return GW_EINVAL;
			if (gw__path_join(full, sizeof(full), root, cand) < 0)
				return GW_EINVAL;
			tl = gw__sys_readlink(full, target, sizeof(target) - 1);
			if (tl < 0) {
				gw__strlcpy(done, cand, sizeof(done));
				continue;     /* not a link, or absent: keep it as written */
			}
			target[tl] = '\0';
			if (++links > 40)
				return GW_EINVAL;
			if (strlen(target) + strlen(pending) + 2 >= sizeof(pending))
				return GW_EINVAL;
			{
				char rest[GW_PATH_MAX];

				gw__strlcpy(rest, pending, sizeof(rest));
				if (!concat(pending, sizeof(pending), target, "/", rest))
					return GW_EINVAL;
			}
			if (target[0] == '/')
				done[0] = '\0';
		}
	}
	if (!done[0])
		gw__strlcpy(done, "/", sizeof(done));
	if (strlen(done) >= outsz)
		return GW_EINVAL;
	gw__strlcpy(out, done, outsz);
	return 0;
}

int gw__read_tail(const char *root, const char *path, size_t limit, char **out, size_t *len)
{
	struct stat st;
	char *buf;
	off_t start = 0;
	size_t used = 0;
	int fd, e;

	if ((fd = open_for_read(root, path)) < 0)
		return fd;
	if (gw__sys_fstat(fd, &st) != 0) {
		e = errno;
		gw__sys_close(fd);
		return gw__error_set(errno_to_gw(e), "cannot stat '%s': %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		gw__sys_close(fd);
		return gw__error_set(GW_EINVAL, "'%s' is not a regular file", path);
	}
	if (!(buf = gw__malloc(limit + 1))) {
		gw__sys_close(fd);
		return gw__error_set(GW_ENOMEM, "out of memory reading '%s'", path);
	}
	if (st.st_size > (off_t)limit)
		start = st.st_size - (off_t)limit;
	if (start > 0 && gw__sys_lseek(fd, start, SEEK_SET) < 0) {
		e = errno;
		gw__sys_close(fd);
		gw__free(buf);
		return gw__error_set(errno_to_gw(e), "cannot seek in '%s': %s", path, strerror(e));
	}
	if ((e = read_fully(fd, buf, limit, &used, path)) < 0) {
		gw__sys_close(fd);
		gw__free(buf);
		return e;
	}
	gw__sys_close(fd);
	buf[used] = '\0';
	*out = buf;
	if (len)
		*len = used;
	return start > 0;
}

int gw__read_at(const char *root, const char *path, uint64_t offset, void *buf, size_t n, size_t *got)
{
	size_t used = 0;
	int fd, e;

	*got = 0;
	if (offset > (uint64_t)INT64_MAX)
		return gw__error_set(GW_EINVAL, "offset %llu in '%s' is too large", (unsigned long long)offset, path);
	if ((fd = open_for_read(root, path)) < 0)
		return fd;
	if (gw__sys_lseek(fd, (off_t)offset, SEEK_SET) < 0) {
		e = errno;
		gw__sys_close(fd);
		return gw__error_set(errno_to_gw(e), "cannot seek in '%s': %s", path, strerror(e));
	}
	e = read_fully(fd, buf, n, &used, path);
	gw__sys_close(fd);
	*got = used;
	return e < 0 ? e : 0;
}

int gw__readlink(const char *root, const char *path, char *buf, size_t bufsz)
{
	char full[GW_PATH_MAX];
	ssize_t r;
	int rc;

	if ((rc = gw__path_join(full, sizeof(full), root, path)) < 0)
		return rc;
	if (bufsz == 0)
		return gw__error_set(GW_EINVAL, "no room for the target of '%s'", path);
	r = gw__sys_readlink(full, buf, bufsz);
	if (r < 0) {
		int e = errno;

		if (e == EINVAL)
			return gw__error_set(GW_ENOTFOUND, "'%s' is not a symbolic link", path);
		return gw__error_set(errno_to_gw(e), "cannot read link '%s': %s", path, strerror(e));
	}
	if ((size_t)r >= bufsz)
		return gw__error_set(GW_EINVAL, "the target of '%s' is too long", path);
	buf[r] = '\0';
	return 0;
}

int gw__realpath(const char *path, char *out, size_t outsz)
{
	char real[PATH_MAX];

	if (!gw__sys_realpath(path, real)) {
		int e = errno;
		return gw__error_set(errno_to_gw(e), "cannot resolve '%s': %s", path, strerror(e));
	}
	if (strlen(real) >= outsz)
		return gw__error_set(GW_EINVAL, "the real path of '%s' is too long", path);
	gw__strlcpy(out, real, outsz);
	return 0;
}

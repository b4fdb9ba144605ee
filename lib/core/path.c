/* The one place where gpuwise turns an absolute path into a file it reads:
 * every path is prefixed with the context's root ($GPUWISE_ROOT), so every
 * probe can run against a fake tree. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
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

int gw__read_file(const char *root, const char *path, size_t limit, char **out, size_t *len)
{
	char full[GW_PATH_MAX];
	char *buf;
	size_t used = 0, cap = 4096;
	int fd, rc;

	if ((rc = gw__path_join(full, sizeof(full), root, path)) < 0)
		return rc;
	if (gw__fault_hit(GW__FAULT_READ))
		return gw__error_set(GW_EIO, "cannot read '%s': injected read failure", path);
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		return gw__error_set(errno_to_gw(e), "cannot open '%s': %s", path, strerror(e));
	}
	if (cap > limit + 1)
		cap = limit + 1;
	if (!(buf = gw__malloc(cap))) {
		close(fd);
		return gw__error_set(GW_ENOMEM, "out of memory reading '%s'", path);
	}
	for (;;) {
		ssize_t r;

		if (used + 1 >= cap) {
			size_t ncap;
			char *nb;

			if (cap >= limit + 1)
				break; /* bounded: the rest of the file is ignored */
			ncap = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
			if (!(nb = gw__realloc(buf, ncap))) {
				gw__free(buf);
				close(fd);
				return gw__error_set(GW_ENOMEM, "out of memory reading '%s'", path);
			}
			buf = nb;
			cap = ncap;
		}
		r = read(fd, buf + used, cap - 1 - used);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			gw__free(buf);
			close(fd);
			return gw__error_set(errno_to_gw(e), "cannot read '%s': %s", path, strerror(e));
		}
		if (r == 0)
			break;
		used += (size_t)r;
	}
	close(fd);
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

int gw__dir_list(const char *root, const char *path, char ***out, size_t *count)
{
	char full[GW_PATH_MAX];
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	DIR *d;
	int rc;

	if ((rc = gw__path_join(full, sizeof(full), root, path)) < 0)
		return rc;
	if (gw__fault_hit(GW__FAULT_READ))
		return gw__error_set(GW_EIO, "cannot list '%s': injected read failure", path);
	if (!(d = opendir(full))) {
		int e2 = errno;
		return gw__error_set(errno_to_gw(e2), "cannot list '%s': %s", path, strerror(e2));
	}
	while ((e = readdir(d)) && n < 65536) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
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
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), compare_names);
	*out = names;
	*count = n;
	return 0;
oom:
	closedir(d);
	gw__dir_list_free(names, n);
	return gw__error_set(GW_ENOMEM, "out of memory listing '%s'", path);
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
	r = readlink(full, buf, bufsz);
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

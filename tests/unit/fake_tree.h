/* Building fake /sys and /proc trees in a temporary folder for unit tests.
 * Every helper takes a path relative to the tree's root ("sys/bus/...").
 * Test binaries are one program each, so the helpers are static. */
#ifndef GPUWISE_TEST_FAKE_TREE_H
#define GPUWISE_TEST_FAKE_TREE_H
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tree_root[256];

static inline void tree_path(char *out, size_t outsz, const char *rel)
{
	if (snprintf(out, outsz, "%s/%s", tree_root, rel) >= (int)outsz) {
		fprintf(stderr, "path too long: %s\n", rel);
		exit(2);
	}
}

/* mkdir -p of root/rel. */
static inline void tree_mkdir(const char *rel)
{
	char p[1024];

	tree_path(p, sizeof(p), rel);
	for (char *s = p + strlen(tree_root) + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	}
	mkdir(p, 0755);
}

static inline void tree_parent(const char *rel)
{
	char d[1024];
	char *slash;

	snprintf(d, sizeof(d), "%s", rel);
	if ((slash = strrchr(d, '/'))) {
		*slash = '\0';
		tree_mkdir(d);
	}
}

static inline void tree_putn(const char *rel, const void *data, size_t n)
{
	char p[1024];
	FILE *f;

	tree_parent(rel);
	tree_path(p, sizeof(p), rel);
	if (!(f = fopen(p, "wb"))) {
		fprintf(stderr, "cannot write %s: %s\n", p, strerror(errno));
		exit(2);
	}
	fwrite(data, 1, n, f);
	fclose(f);
}

static inline void tree_put(const char *rel, const char *text)
{
	tree_putn(rel, text, strlen(text));
}

static inline void tree_link(const char *rel, const char *target)
{
	char p[1024];

	tree_parent(rel);
	tree_path(p, sizeof(p), rel);
	unlink(p);
	if (symlink(target, p) != 0) {
		fprintf(stderr, "cannot link %s: %s\n", p, strerror(errno));
		exit(2);
	}
}

static inline int tree_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline void tree_remove(void)
{
	if (tree_root[0])
		nftw(tree_root, tree_rm_one, 16, FTW_DEPTH | FTW_PHYS);
	tree_root[0] = '\0';
}

/* A fresh empty tree, made the root of every context created after. */
static inline void tree_new(void)
{
	tree_remove();
	snprintf(tree_root, sizeof(tree_root), "/tmp/gw-tree-XXXXXX");
	if (!mkdtemp(tree_root)) {
		fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
		exit(2);
	}
	setenv("GPUWISE_ROOT", tree_root, 1);
	/* Only the sysfs backends may find anything. */
	setenv("GPUWISE_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
	setenv("GPUWISE_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
}

#endif

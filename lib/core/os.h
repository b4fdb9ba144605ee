/* What lib/ asks of the operating system besides files: allocation,
 * dynamic loading, the process's ids, through the one replaceable
 * system-call table of lib/core/sys.c (its entries are core/sys.h, for
 * lib/core alone), and the variables that pick a library or a path
 * (gw__env_path, lib/core/util.c). */
#ifndef GPUWISE_CORE_OS_H
#define GPUWISE_CORE_OS_H

#include <stddef.h>

/* GPUWISE_FAULT="KIND:N" makes the Nth call of that kind (1-based, counted
 * per process) fail once: alloc, dlopen, dlsym, read (a whole file read or
 * listing), or one system call (open, fdread, stat, opendir, readdir,
 * readlink, access, ...: core/sys.h). Read once. */
void *gw__malloc(size_t n);
void *gw__calloc(size_t n, size_t size);
void *gw__realloc(void *p, size_t n);
char *gw__strdup(const char *s);
void gw__free(void *p);
void *gw__dlopen(const char *name);       /* RTLD_NOW | RTLD_LOCAL */
void *gw__dlsym(void *handle, const char *sym);
int gw__dlclose(void *handle);
const char *gw__dlerror(void);
/* getuid(2), getegid(2), getgroups(2) through the table. */
unsigned gw__getuid(void);
unsigned gw__getegid(void);
int gw__getpid(void);
/* Supplementary groups into out (at most max): how many, or -1. */
int gw__getgroups(unsigned *out, int max);
/* The value of an environment variable that picks a library, a file or a
 * folder for gpuwise (GPUWISE_*_LIBRARY, GPUWISE_ROOT, GPUWISE_POOL_DIR,
 * GPUWISE_LOCALEDIR, GPUWISE_FAULT, VIRTUAL_ENV for a library): NULL in a
 * set-uid, set-gid or capability-raised process (secure_getenv(3), the
 * kernel's AT_SECURE), as the dynamic loader ignores LD_LIBRARY_PATH
 * there, so whoever runs such a program cannot make it load their
 * library or read their tree. Every such variable goes through here
 * (tests/lint/layering.sh checks that no getenv("GPUWISE_...") remains). */
const char *gw__env_path(const char *name);
/* Keep an already loaded library mapped for the life of the process
 * (RTLD_NOLOAD | RTLD_NODELETE): loads nothing new. */
void gw__dlopen_keep(const char *name);

#endif

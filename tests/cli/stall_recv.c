/* Preloaded into the exporter by tests/cli/test_exporter.sh: a recv()
 * that returns data holding the header "X-Stall-After-Read: 1" sleeps
 * GW_TEST_STALL_MS (default 3000) ms before returning it, so the server
 * thread that read a request head is held where a preempted thread would
 * be: the head out of the kernel, MHD's access handler not yet called.
 * Peeks (the guard's) are passed through. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

ssize_t recv(int fd, void *buf, size_t n, int flags);

ssize_t recv(int fd, void *buf, size_t n, int flags)
{
	static const char mark[] = "\r\nX-Stall-After-Read: 1\r\n";
	static ssize_t (*real)(int, void *, size_t, int);
	ssize_t r;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "recv");
	r = real(fd, buf, n, flags);
	if (r > 0 && !(flags & MSG_PEEK) && memmem(buf, (size_t)r, mark, sizeof(mark) - 1)) {
		const char *ms = getenv("GW_TEST_STALL_MS");

		usleep((useconds_t)(ms ? atoi(ms) : 3000) * 1000);
	}
	return r;
}

/* Minimal unit-test helpers: each test file is its own program. */
#ifndef GPUWISE_TEST_CHECK_H
#define GPUWISE_TEST_CHECK_H
#include <stdio.h>
#include <string.h>

static int check_failures, check_count;

#define CHECK(cond) do { check_count++; if (!(cond)) { check_failures++; \
	fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); check_count++; \
	if (!a_ || !b_ || strcmp(a_, b_)) { check_failures++; \
	fprintf(stderr, "%s:%d: CHECK_STR failed: '%s' != '%s'\n", __FILE__, __LINE__, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } } while (0)
#define CHECK_INT(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); check_count++; \
	if (a_ != b_) { check_failures++; \
	fprintf(stderr, "%s:%d: CHECK_INT failed: %s == %lld, want %lld\n", __FILE__, __LINE__, #a, a_, b_); } } while (0)
#define CHECK_DONE() (printf("%s: %d checks, %d failed\n", __FILE__, check_count, check_failures), check_failures ? 1 : 0)
#endif

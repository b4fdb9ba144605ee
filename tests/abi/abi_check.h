/* Compile-time ABI comparisons: the test passes when it compiles. */
#ifndef GPUWISE_ABI_CHECK_H
#define GPUWISE_ABI_CHECK_H
#include <stddef.h>

#define ABI_SIZE(ours, theirs) \
	_Static_assert(sizeof(ours) == sizeof(theirs), "sizeof " #ours " != sizeof " #theirs)
#define ABI_FIELD(ours, theirs, f) \
	_Static_assert(offsetof(ours, f) == offsetof(theirs, f) && \
		       sizeof(((ours *)0)->f) == sizeof(((theirs *)0)->f), #ours "." #f " vs " #theirs)
#define ABI_VALUE(ours, theirs) \
	_Static_assert((long long)(ours) == (long long)(theirs), #ours " != " #theirs)
#endif

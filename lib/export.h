/* Forced into every lib/ object by the Makefile (-include lib/export.h).
 * lib/ is compiled with -fvisibility=hidden: nothing leaves libgpuwise.so
 * unless it is declared here first, and here is only the public API of
 * include/gpuwise/ (libgit2's GIT_EXTERN, done once instead of on each
 * declaration). lib/libgpuwise.map then keeps only gw_* names (not gw__*)
 * in the dynamic symbol table, and tests/abi/test_exports.sh compares that
 * table with the committed tests/abi/libgpuwise.symbols. The Python
 * extension and the static library see every symbol as before. */
#pragma GCC visibility push(default)
#include "gpuwise/gpuwise.h"
#pragma GCC visibility pop

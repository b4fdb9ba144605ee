/* gpuwise's own kernels, as PTX text the driver JIT-compiles for the GPU it
 * runs on (cuModuleLoadDataEx): no nvcc at build time, no cubin per
 * architecture. PTX ISA 6.0 (CUDA 9.0) and target sm_50 keep the text
 * acceptable to every driver bench supports (CUDA 11.3+) on every GPU from
 * Maxwell on; the JIT compiles it for the actual architecture.
 * tests/unit/test_bench_ptx.sh assembles it with ptxas for sm_80 and sm_90
 * (and sm_70 where the toolkit still knows it).
 *
 * gw_copy copies 16-byte words in a grid-stride loop (one 128-bit load and
 * store per word per thread: full-width transactions, as STREAM-style copy
 * kernels do); gw_empty returns at once (launch latency). */
#include "bench/cudrv.h"

const char gw__bench_ptx[] =
	"//\n"
	"// gpuwise bench kernels\n"
	"//\n"
	".version 6.0\n"
	".target sm_50\n"
	".address_size 64\n"
	"\n"
	".visible .entry gw_empty()\n"
	"{\n"
	"\tret;\n"
	"}\n"
	"\n"
	".visible .entry gw_copy(\n"
	"\t.param .u64 gw_copy_dst,\n"
	"\t.param .u64 gw_copy_src,\n"
	"\t.param .u64 gw_copy_words\n"
	")\n"
	"{\n"
	"\t.reg .pred %p<2>;\n"
	"\t.reg .b32 %r<9>;\n"
	"\t.reg .b64 %rd<12>;\n"
	"\n"
	"\tld.param.u64 %rd1, [gw_copy_dst];\n"
	"\tld.param.u64 %rd2, [gw_copy_src];\n"
	"\tld.param.u64 %rd3, [gw_copy_words];\n"
	"\tcvta.to.global.u64 %rd1, %rd1;\n"
	"\tcvta.to.global.u64 %rd2, %rd2;\n"
	"\tmov.u32 %r1, %ntid.x;\n"
	"\tmov.u32 %r2, %ctaid.x;\n"
	"\tmov.u32 %r3, %tid.x;\n"
	"\tmov.u32 %r4, %nctaid.x;\n"
	"\tmul.wide.u32 %rd4, %r1, %r2;\n"
	"\tcvt.u64.u32 %rd5, %r3;\n"
	"\tadd.u64 %rd4, %rd4, %rd5;\n"
	"\tmul.wide.u32 %rd6, %r1, %r4;\n"
	"GW_LOOP:\n"
	"\tsetp.ge.u64 %p1, %rd4, %rd3;\n"
	"\t@%p1 bra GW_DONE;\n"
	"\tshl.b64 %rd7, %rd4, 4;\n"
	"\tadd.u64 %rd8, %rd2, %rd7;\n"
	"\tld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd8];\n"
	"\tadd.u64 %rd9, %rd1, %rd7;\n"
	"\tst.global.v4.u32 [%rd9], {%r5, %r6, %r7, %r8};\n"
	"\tadd.u64 %rd4, %rd4, %rd6;\n"
	"\tbra.uni GW_LOOP;\n"
	"GW_DONE:\n"
	"\tret;\n"
	"}\n";

const char *const gw__bench_ptx_entries[] = { "gw_empty", "gw_copy", NULL };

/* gpuwise — the finding catalogue and the error-message scanner.
 *
 * The catalogue: every finding id (doctor's and explain's) with its title,
 * default severity, layer, cause, fix, long explanation and source. It is
 * compiled in from data/findings/<id>.txt and never changes at run time.
 *
 *   const gw_finding_doc *d = gw_finding_doc_get("driver-library-mismatch");
 *   for (size_t i = 0; i < gw_finding_doc_count(); i++)
 *       puts(gw_finding_doc_at(i)->id);
 *
 * The scanner: feed it text (an error message, a whole log, a stream in
 * chunks of any size) and it finds every known GPU error, one match per id
 * in order of first appearance, with the line and an excerpt:
 *
 *   gw_explainer *ex;
 *   gw_explainer_new(&ex);
 *   while ((n = read(fd, buf, sizeof(buf))) > 0)
 *       gw_explainer_feed(ex, buf, n);
 *   gw_explainer_finish(ex);
 *   for (size_t i = 0; i < gw_explainer_count(ex); i++) {
 *       const gw_explain_match *m = gw_explainer_match(ex, i);
 *       printf("%s line %llu: %s\n", m->doc->id, m->line, m->excerpt);
 *   }
 *   gw_explainer_free(ex);
 *
 * Memory stays bounded whatever the input: lines longer than
 * GW_EXPLAIN_LINE_MAX bytes are split, and there is at most one match per
 * catalogue id. Matching is line by line, on stable fragments of each
 * message (data/explain/patterns), case-insensitively; input need not be
 * UTF-8 or text at all; a stream that starts with a UTF-16 byte order
 * mark (FF FE or FE FF) is read as UTF-16 text. Presentation is read
 * past: terminal escape sequences, CR LF and lone CRs, a UTF-8 byte order
 * mark, HTML character references, lines that are JSON objects (their
 * string values, decoded), rich's "│ ... │" boxes (unframed, wrapped
 * lines joined), SGR colour codes whose ESC was lost ("[31m"), Kubernetes
 * CRI partial records (joined), lines a terminal's copy cut at its width
 * (joined where the log shows the width) and known line prefixes (ISO and
 * syslog times, Kubernetes CRI's stream tag, torchrun's "[rank0]:",
 * pytest's "E   ", a quote "> ", tqdm's bar); see
 * tests/explain/README-presentation.md.
 */
#ifndef GPUWISE_EXPLAIN_H
#define GPUWISE_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One catalogue entry. All strings are static, UTF-8, never NULL. */
typedef struct gw_finding_doc {
	const char *id;          /* stable kebab-case slug, "cuda-out-of-memory" */
	const char *title;       /* one line, sentence case, no full stop */
	const char *severity;    /* default severity: "error", "warning" or "info" */
	const char *layer;       /* "hardware", "driver", "permissions", "environment",
				    "framework", "libraries", "container", "memory",
				    "process", "kernel", "distributed" */
	const char *kind;        /* "doctor" (doctor can detect it) or "explain"
				    (only seen in error messages) */
	const char *cause;       /* one or two sentences: why it happens */
	const char *fix;         /* one or two sentences: what to do */
	const char *explanation; /* the long explanation, one paragraph */
	const char *source;      /* URL of the source of these facts */
} gw_finding_doc;

/* The entry for `id`, or NULL when there is none. */
const gw_finding_doc *gw_finding_doc_get(const char *id);

/* All entries, sorted by id: i in 0..count-1 (NULL past the end). */
size_t gw_finding_doc_count(void);
const gw_finding_doc *gw_finding_doc_at(size_t i);

/* A status code of the GPU stack: CUDA runtime and driver, cuBLAS, cuDNN,
 * cuFFT, cuRAND, cuSOLVER, cuSPARSE, NCCL, NVRTC, NVML and HIP. Compiled in
 * from data/explain/status_codes.tsv (generated from the headers that
 * define the codes). All strings static. */
typedef struct gw_status_code {
	const char *library;     /* "cuda-runtime", "cuda-driver", "cublas", ... "hip";
				    "cuda-runtime-legacy": cudaError_t before CUDA 10.1 */
	const char *name;        /* "cudaErrorIllegalAddress" */
	long number;             /* 700 */
	const char *description; /* what the library prints, "-" when unknown */
	const char *id;          /* the finding it maps to, NULL: not an error */
} gw_status_code;

/* All status codes, in the table's order: i in 0..count-1 (NULL past it). */
size_t gw_status_code_count(void);
const gw_status_code *gw_status_code_at(size_t i);
/* The code of `library` named `name` (exact case), or NULL. */
const gw_status_code *gw_status_code_find(const char *library, const char *name);

/* Longest line the scanner looks at as one piece; longer lines are split. */
#define GW_EXPLAIN_LINE_MAX 65536
/* Longest excerpt, including the NUL. */
#define GW_EXPLAIN_EXCERPT_MAX 256

/* What the missing-library rule read from a line: the library a loader
 * could not load ("libcudnn_ops_infer.so.8", "cublas64_12.dll") and what
 * data/sonames.tsv says of it. Strings static except name; "-": none. */
typedef struct gw_explain_library {
	char name[64];               /* as the log spells it */
	const char *component;       /* "cuDNN", "CUDA runtime", "NCCL", "HIP runtime (ROCm)" */
	const char *implies;         /* the version the name implies: "cuDNN 8", "CUDA 12" */
	const char *pip;             /* pip package(s) that provide it */
	const char *deb;             /* Debian/Ubuntu package (or the vendor's repository) */
	const char *conda;           /* conda package */
	const char *source;          /* where the row was checked */
} gw_explain_library;

/* What the architecture rule read from the log: the GPU's target and the
 * targets the build has, from messages that name them ("CUDA capability
 * sm_120 is not compatible ...", "supports CUDA capabilities sm_50 ...",
 * "gfx1103 is not supported by ... [gfx1030 gfx1100]"). */
enum {
	GW_ARCH_UNKNOWN = 0,         /* not both known */
	GW_ARCH_GPU_NEWER,           /* the GPU is newer than every target of the build */
	GW_ARCH_GPU_OLDER,           /* the GPU is older than every target of the build */
	GW_ARCH_NOT_IN_BUILD,        /* between them, or a gfx target the list lacks */
	GW_ARCH_IN_BUILD,            /* the build has code that runs on it */
};
typedef struct gw_explain_arch {
	char gpu[16];                /* "sm_120", "gfx1103"; "" unknown */
	char build[192];             /* "sm_50 sm_60 sm_70", "gfx1030 gfx1100"; "" unknown */
	int verdict;                 /* GW_ARCH_* */
	/* PyTorch wheels whose targets run the GPU (data/torch_cuda_arch.tsv,
	 * torch_rocm_arch.tsv): "cu128 cu129 cu130"; "" unknown or none. */
	char torch_builds[96];
	/* The target a compiler refused (compiler-gpu-target-unknown: "sm_30",
	 * "compute_86", "gfx1200"; "" none) and what data/cuda_toolkit_arch.tsv
	 * says of it: the first CUDA release that knows it ("-": 7.0 or
	 * earlier) and the release that dropped it ("-": none); "" unknown. */
	char target[16];
	char target_first[8];
	char target_dropped[8];
} gw_explain_arch;

/* Does a build with the arch's targets run on a GPU of this target ("sm_86",
 * "gfx1100")? 1 yes, 0 no, -1 unknown (no build list, or a bad target). */
int gw_explain_arch_runs(const gw_explain_arch *arch, const char *target);

/* One known error found in the text. */
typedef struct gw_explain_match {
	const gw_finding_doc *doc;   /* id, title, cause, fix, explanation */
	const char *framework;       /* who printed the first occurrence ("pytorch") */
	uint64_t line;               /* 1-based line of the first occurrence */
	uint64_t count;              /* number of lines where it occurred */
	/* The first occurrence's line, trimmed, at most EXCERPT_MAX-1 bytes,
	 * valid UTF-8: control characters and invalid bytes become '?'. */
	char excerpt[GW_EXPLAIN_EXCERPT_MAX];
	/* The status code that named the first occurrence (by its name, its
	 * description or its number), or NULL when a message pattern did. */
	const gw_status_code *code;
	/* The library the missing-library rule named (NULL: another row
	 * matched), and the targets the architecture rule read (NULL: none;
	 * set for the architecture ids, filled from every line of the log,
	 * complete after gw_explainer_finish). */
	const gw_explain_library *library;
	const gw_explain_arch *arch;
} gw_explain_match;

/* A line that looks like a GPU error (it names CUDA, HIP, NCCL, cuDNN or
 * another GPU library as a word, next to an error word such as "error" or
 * "failed") but that no catalogue row recognised. */
typedef struct gw_explain_unrecognised {
	uint64_t line;               /* 1-based */
	char excerpt[GW_EXPLAIN_EXCERPT_MAX];
} gw_explain_unrecognised;

/* At most this many unrecognised lines are kept (the first ones). */
#define GW_EXPLAIN_UNRECOGNISED_MAX 8

typedef struct gw_explainer gw_explainer;

/* A new scanner. Returns 0, GW_ENOMEM, or GW_EGENERIC when a compiled-in
 * pattern does not compile (a build error caught by the tests). */
int gw_explainer_new(gw_explainer **out);
void gw_explainer_free(gw_explainer *ex);

/* Scan len more bytes; a line may continue into the next call. Returns 0
 * or GW_EINVAL (NULL scanner, or buf NULL with len > 0). */
int gw_explainer_feed(gw_explainer *ex, const char *buf, size_t len);

/* End of input: scans the last line when it has no newline. Returns 0.
 * Feeding after finish starts a new line. */
int gw_explainer_finish(gw_explainer *ex);

/* Matches so far, in order of first appearance (ties on one line by
 * position in the line). */
size_t gw_explainer_count(const gw_explainer *ex);
const gw_explain_match *gw_explainer_match(const gw_explainer *ex, size_t i);

/* Lines that look like GPU errors but that nothing recognised, in order,
 * at most GW_EXPLAIN_UNRECOGNISED_MAX. Reported only when nothing at all
 * was recognised (count 0): next to a known error they are mostly its own
 * context ("CUDA kernel errors might be asynchronously reported ..."). */
size_t gw_explainer_unrecognised_count(const gw_explainer *ex);
const gw_explain_unrecognised *gw_explainer_unrecognised(const gw_explainer *ex, size_t i);

/* Lines seen so far (a last line without newline counts after finish). */
uint64_t gw_explainer_lines(const gw_explainer *ex);

/* Forget all matches and lines; the patterns stay compiled. */
void gw_explainer_reset(gw_explainer *ex);

#ifdef __cplusplus
}
#endif
#endif

/* gpuwise — what a model's checkpoint holds, from its safetensors headers:
 * the exact parameter count and the dtype of every tensor, without reading
 * the weights (docs/advise.md, "Hugging Face ids").
 *
 * A .safetensors file starts with 8 bytes, the little-endian length N of
 * a JSON header, then the N bytes of the header: {"NAME": {"dtype": "BF16",
 * "shape": [4096, 4096], "data_offsets": [BEGIN, END]}, ..., optionally
 * "__metadata__": {...}}. A sharded checkpoint has a
 * model.safetensors.index.json whose "weight_map" names the shard of each
 * tensor.
 *
 *   gw_checkpoint c = {0};
 *   uint64_t n;
 *   if (gw_safetensors_header_len(&n, first8, 8) == 0 && read n bytes ...)
 *       gw_checkpoint_add_safetensors(&c, header, n);   (once per shard)
 *
 * Pure parsing: no file or network is touched; the caller reads the bytes.
 */
#ifndef GPUWISE_CHECKPOINT_H
#define GPUWISE_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The format caps the header at 100 MB (safetensors' MAX_HEADER_SIZE). */
#define GW_SAFETENSORS_HEADER_MAX 100000000ull
#define GW_CHECKPOINT_DTYPES_MAX 8

typedef struct gw_checkpoint {
	uint64_t params;    /* elements of every tensor, summed over the shards added */
	uint64_t bytes;     /* bytes the tensors take in the files */
	uint64_t tensors;
	uint64_t files;     /* headers added */
	size_t ndtypes;     /* distinct dtypes, most elements first after gw_checkpoint_sort */
	struct {
		char name[8];       /* as the header writes it: "BF16", "F32", "I8", "U8", "F8_E4M3" */
		uint64_t params;
	} dtypes[GW_CHECKPOINT_DTYPES_MAX];
} gw_checkpoint;

/* The header length from a file's first bytes (n >= 8). 0, or GW_EPARSE
 * when n < 8 or the length is 0 or above GW_SAFETENSORS_HEADER_MAX. */
int gw_safetensors_header_len(uint64_t *out, const unsigned char *first, size_t n);

/* Add one file's header (len bytes of JSON, without the 8 length bytes) to
 * *acc. Every tensor must have a known dtype, a shape of non-negative
 * integers and data_offsets whose span is exactly its size; the spans must
 * not overlap. 0, GW_EPARSE (the message names the tensor), GW_ENOMEM,
 * GW_EINVAL; *acc is untouched on failure. */
int gw_checkpoint_add_safetensors(gw_checkpoint *acc, const char *json, size_t len);

/* Order the dtypes by elements, most first (ties: the order they came). */
void gw_checkpoint_sort(gw_checkpoint *c);

/* The shard files a model.safetensors.index.json names in its
 * "weight_map", each once, in the order they first appear: *out is one
 * allocation holding *count NUL-terminated names back to back (free it
 * with gw_checkpoint_free). Every name must be a plain file name ending in
 * ".safetensors" (no '/', no leading '.'); *total_size gets
 * metadata.total_size (0 when absent). 0, GW_EPARSE, GW_ENOMEM, GW_EINVAL. */
int gw_safetensors_index_files(char **out, size_t *count, uint64_t *total_size, const char *json, size_t len);
void gw_checkpoint_free(void *p);

#ifdef __cplusplus
}
#endif

#endif

/* PyTorch's CUDA caching allocator, replayed over a list of allocations
 * and frees, for the reserved peak of `advise` (docs/advise.md §8).
 *
 * What it follows, from c10/cuda/CUDACachingAllocator.cpp (PyTorch 2.x;
 * the constants are those of 1.x too), with its default settings (no
 * max_split_size, no expandable segments, no power-of-two rounding):
 * - every request is rounded up to 512 bytes (kMinBlockSize, round_size);
 * - requests up to 1 MiB (kSmallSize) come from the small pool, larger
 *   ones from the large pool; a pool's free blocks never serve the other;
 * - the smallest free block that fits is taken (best fit, the lower
 *   address first between equal sizes: get_free_block);
 * - when none fits, a new segment is reserved (get_allocation_size): 2 MiB
 *   (kSmallBuffer) for a small request, 20 MiB (kLargeBuffer) for one
 *   under 10 MiB (kMinLargeAlloc), else the request rounded up to 2 MiB
 *   (kRoundLarge);
 * - the block is split when what is left is at least 512 bytes (small
 *   pool) or more than 1 MiB (large pool; should_split); the rest stays
 *   free in the segment;
 * - a freed block merges with free neighbours of its segment
 *   (try_merge_blocks); segments are never given back during a run.
 * Peaks are of the rounded sizes, as torch.cuda.max_memory_allocated() and
 * max_memory_reserved() count them. One stream, no events. */
#include <stdlib.h>
#include <string.h>

#include "advise/advise_int.h"

#define MIN_BLOCK 512ull
#define SMALL_SIZE (1ull << 20)
#define SMALL_BUFFER (2ull << 20)
#define LARGE_BUFFER (20ull << 20)
#define MIN_LARGE_ALLOC (10ull << 20)
#define ROUND_LARGE (2ull << 20)
#define LIMIT (1ull << 62)   /* larger sizes are absurd: the replay fails */

struct gw__sim_block {
	uint64_t addr, size;
	int prev, next;     /* neighbours in the segment, -1 at its ends */
	bool small, free, dead;
};

void gw__alloc_sim_init(gw__alloc_sim *s)
{
	memset(s, 0, sizeof(*s));
}

void gw__alloc_sim_free(gw__alloc_sim *s)
{
	free(s->blocks);
	free(s->free_list);
	memset(s, 0, sizeof(*s));
}

static uint64_t round_size(uint64_t n)
{
	return n < MIN_BLOCK ? MIN_BLOCK : (n + MIN_BLOCK - 1) / MIN_BLOCK * MIN_BLOCK;
}

static uint64_t segment_size(uint64_t n)
{
	if (n <= SMALL_SIZE)
		return SMALL_BUFFER;
	if (n < MIN_LARGE_ALLOC)
		return LARGE_BUFFER;
	return (n + ROUND_LARGE - 1) / ROUND_LARGE * ROUND_LARGE;
}

/* A slot for a block: a dead one again, else a new one. */
static int new_block(gw__alloc_sim *s)
{
	for (; s->reuse < s->nblocks; s->reuse++)
		if (s->blocks[s->reuse].dead)
			return s->reuse++;
	if (s->nblocks == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct gw__sim_block *b = realloc(s->blocks, cap * sizeof(*b));
		int *f = realloc(s->free_list, cap * sizeof(*f));
		if (b)
			s->blocks = b;
		if (f)
			s->free_list = f;
		if (!b || !f)
			return -1;
		s->cap = cap;
	}
	return (int)s->nblocks++;
}

static void free_list_add(gw__alloc_sim *s, int i)
{
	s->free_list[s->nfree++] = i;
}

static void free_list_remove(gw__alloc_sim *s, int i)
{
	for (size_t k = 0; k < s->nfree; k++)
		if (s->free_list[k] == i) {
			s->free_list[k] = s->free_list[--s->nfree];
			return;
		}
}

static void retire(gw__alloc_sim *s, int i)
{
	s->blocks[i].dead = true;
	if ((size_t)i < s->reuse)
		s->reuse = (size_t)i;
}

int gw__alloc_sim_malloc(gw__alloc_sim *s, double bytes)
{
	uint64_t n;
	bool small;
	int best = -1;
	struct gw__sim_block *b;

	if (s->failed || !(bytes < (double)LIMIT))
		return s->failed = true, -1;
	n = round_size(bytes > 0 ? (uint64_t)bytes : 0);
	small = n <= SMALL_SIZE;
	for (size_t k = 0; k < s->nfree; k++) {
		struct gw__sim_block *c = &s->blocks[s->free_list[k]];
		if (c->small != small || c->size < n)
			continue;
		if (best < 0 || c->size < s->blocks[best].size ||
		    (c->size == s->blocks[best].size && c->addr < s->blocks[best].addr))
			best = s->free_list[k];
	}
	if (best >= 0) {
		free_list_remove(s, best);
	} else {
		uint64_t seg = segment_size(n);
		if (seg > LIMIT - s->reserved || (best = new_block(s)) < 0)
			return s->failed = true, -1;
		s->blocks[best] = (struct gw__sim_block){ s->next_addr, seg, -1, -1, small, true, false };
		/* segments far apart: a block never merges across them */
		s->next_addr += seg + (1ull << 40);
		s->reserved += seg;
		if (s->reserved > s->peak_reserved)
			s->peak_reserved = s->reserved;
	}
	if (s->blocks[best].size - n >= (small ? MIN_BLOCK : SMALL_SIZE + 1)) {
		int r = new_block(s);
		if (r < 0)
			return s->failed = true, -1;
		b = &s->blocks[best];
		s->blocks[r] = (struct gw__sim_block){ b->addr + n, b->size - n, best, b->next, small, true, false };
		if (b->next >= 0)
			s->blocks[b->next].prev = r;
		b->next = r;
		b->size = n;
		free_list_add(s, r);
	}
	b = &s->blocks[best];
	b->free = false;
	s->allocated += b->size;
	if (s->allocated > s->peak_allocated)
		s->peak_allocated = s->allocated;
	return best;
}

void gw__alloc_sim_release(gw__alloc_sim *s, int h)
{
	struct gw__sim_block *b;

	if (h < 0 || s->failed)
		return;
	b = &s->blocks[h];
	b->free = true;
	s->allocated -= b->size;
	if (b->prev >= 0 && s->blocks[b->prev].free) {
		int p = b->prev;
		struct gw__sim_block *q = &s->blocks[p];
		free_list_remove(s, p);
		b->addr = q->addr;
		b->size += q->size;
		b->prev = q->prev;
		if (q->prev >= 0)
			s->blocks[q->prev].next = h;
		retire(s, p);
	}
	if (b->next >= 0 && s->blocks[b->next].free) {
		int nx = b->next;
		struct gw__sim_block *q = &s->blocks[nx];
		free_list_remove(s, nx);
		b->size += q->size;
		b->next = q->next;
		if (q->next >= 0)
			s->blocks[q->next].prev = h;
		retire(s, nx);
	}
	free_list_add(s, h);
}

void gw__alloc_sim_reset_peaks(gw__alloc_sim *s)
{
	s->peak_allocated = s->allocated;
	s->peak_reserved = s->reserved;
}

#define MIB (1024.0 * 1024.0)

/* The reserved peak. ResNet inference is replayed tensor by tensor
 * (vision.c), BERT's and RoBERTa's below: the allocator's reserve beyond
 * the allocated peak. Elsewhere
 * there is no list of tensors, so a slack measured on an H200
 * (tests/device/advise_peaks.py, the tuned rows of rounds 7 and 9, the
 * model's build left nothing cached): blocks rounded up and freed blocks
 * that a larger request cannot reuse, which grows with what is allocated
 * and freed every step. reserved − allocated was 3-27 % of activations +
 * KV cache + gradients in training, 30-60 % in inference (median about
 * 40 %), whose activations come and go in many sizes layer by layer and
 * whose generate() cache grows by concatenation; optimum-benchmark's BGE at
 * batch 1024-2048 went 20 % high at 40 %, so inference takes 25 %, the
 * best of 20-40 % on the tuned sets, training 10 % + 2 MiB. */
double gw__advise_reserved(const gw_model *m, const gw_advise_options *r, double alloc, double ac, double kv,
			   double gr)
{
	double peak, slack;

	if (m->vision == GW_VISION_RESNET && r->task == GW_TASK_INFER && gw__advise_resnet_infer_replay(m, r, &peak, &slack))
		return alloc + slack;
	if (m->kind == GW_MODEL_ENCODER && r->task == GW_TASK_INFER && !m->lm_head &&
	    gw__advise_encoder_infer_replay(m, r, gw__advise_workspace(m, r), &slack))
		return alloc + slack;
	return alloc + (r->task == GW_TASK_INFER ? 0.25 : 0.10) * (ac + kv + gr) + 2 * MIB;
}

/* ---- encoder inference (BERT, RoBERTa) -------------------------------------- */

struct enc_replay {
	gw__alloc_sim s;
	double bsh, bsi;   /* bytes of a hidden-wide and an intermediate-wide activation */
};

static void enc_free(struct enc_replay *p, int h)
{
	gw__alloc_sim_release(&p->s, h);
}

static int enc_new(struct enc_replay *p, double bytes)
{
	return gw__alloc_sim_malloc(&p->s, bytes);
}

/* The parameters in the order the modules create them (BertEmbeddings,
 * then each BertLayer's query, key, value, attention output, its
 * LayerNorm, intermediate, output and its LayerNorm, then the pooler);
 * the position and token-type id buffers (int64). */
static void enc_weights(struct enc_replay *p, const gw_model *m, double we)
{
	double h = (double)m->hidden_size, i = (double)m->intermediate_size;
	double pos = m->max_positions ? (double)m->max_positions : 512;

	enc_new(p, (double)m->vocab_size * h * we);
	enc_new(p, pos * h * we);
	enc_new(p, 2 * h * we);
	enc_new(p, h * we);
	enc_new(p, h * we);
	for (uint64_t l = 0; l < m->num_layers; l++) {
		for (int j = 0; j < 4; j++) {
			enc_new(p, h * h * we);
			enc_new(p, h * we);
		}
		enc_new(p, h * we);
		enc_new(p, h * we);
		enc_new(p, i * h * we);
		enc_new(p, i * we);
		enc_new(p, h * i * we);
		enc_new(p, h * we);
		enc_new(p, h * we);
		enc_new(p, h * we);
	}
	enc_new(p, h * h * we);
	enc_new(p, h * we);
	enc_new(p, pos * 8);
	enc_new(p, pos * 8);
}

/* One BertLayer under inference_mode, x its input (kept by the caller):
 * q, k and v; attention's output and its contiguous copy (q, k, v and the
 * output freed when the self-attention returns); the output dense, the
 * residual sum and its LayerNorm (the first two freed on return); the
 * intermediate dense and its GELU (the dense freed on return); the output
 * dense, the sum and the LayerNorm; the locals of the feed-forward freed.
 * Eager attention adds the scores and their softmax (BERT's softmax
 * keeps the scores' type) beside q, k and v. Returns the output. */
static int enc_layer(struct enc_replay *p, double scores)
{
	int q = enc_new(p, p->bsh), k = enc_new(p, p->bsh), v = enc_new(p, p->bsh), o, c, d, s, a, i1, i2, y;

	if (scores > 0) {
		int sc = enc_new(p, scores), pr = enc_new(p, scores);
		o = enc_new(p, p->bsh);
		enc_free(p, sc);
		enc_free(p, pr);
	} else {
		o = enc_new(p, p->bsh);
	}
	c = enc_new(p, p->bsh);
	enc_free(p, q);
	enc_free(p, k);
	enc_free(p, v);
	enc_free(p, o);
	d = enc_new(p, p->bsh);
	s = enc_new(p, p->bsh);
	a = enc_new(p, p->bsh);
	enc_free(p, d);
	enc_free(p, s);
	enc_free(p, c);
	i1 = enc_new(p, p->bsi);
	i2 = enc_new(p, p->bsi);
	enc_free(p, i1);
	d = enc_new(p, p->bsh);
	s = enc_new(p, p->bsh);
	y = enc_new(p, p->bsh);
	enc_free(p, d);
	enc_free(p, s);
	enc_free(p, i2);
	enc_free(p, a);
	return y;
}

bool gw__advise_encoder_infer_replay(const gw_model *m, const gw_advise_options *r, double ws, double *slack)
{
	struct enc_replay p;
	double b = (double)r->batch, s = (double)r->seq, h = (double)m->hidden_size, e = gw__advise_act_bytes(r);
	double scores = r->attention == GW_ATTENTION_EAGER ? (double)m->num_heads * s * s * b * e : 0;
	int emb, x, t, u, w, pe;
	bool ok;

	memset(&p, 0, sizeof(p));
	gw__alloc_sim_init(&p.s);
	p.bsh = b * s * h * e;
	p.bsi = b * s * (double)m->intermediate_size * e;
	enc_weights(&p, m, gw__advise_weight_bytes(r->weights));
	enc_new(&p, b * s * 8);   /* the input ids and the attention mask */
	enc_new(&p, b * s * 8);
	gw__alloc_sim_reset_peaks(&p.s);
	/* BertEmbeddings: the word and token-type lookups, their sum, the
	 * positions' (1 × s), the LayerNorm; the rest freed on return. The
	 * embedding output is held by BertModel.forward to its end. */
	w = enc_new(&p, p.bsh);
	t = enc_new(&p, p.bsh);
	u = enc_new(&p, p.bsh);
	pe = enc_new(&p, s * h * e);
	emb = enc_new(&p, p.bsh);
	enc_free(&p, w);
	enc_free(&p, t);
	enc_free(&p, u);
	enc_free(&p, pe);
	enc_new(&p, ws);   /* cuBLAS's workspaces, from the first matmul on */
	x = emb;
	for (uint64_t l = 0; l < m->num_layers; l++) {
		int y = enc_layer(&p, scores);
		if (x != emb)
			enc_free(&p, x);
		x = y;
	}
	ok = !p.s.failed;
	*slack = (double)(p.s.peak_reserved - p.s.peak_allocated);
	gw__alloc_sim_free(&p.s);
	return ok;
}

/* Vision models for `advise`: what ViT/DeiT, Swin and ResNet keep for the
 * backward pass at a given image size and batch, the inference peak, and
 * the forward FLOPs of one image. docs/advise.md §5b gives every term;
 * tests/unit/test_advise.c checks them against hand calculations.
 *
 * ViT and Swin layers are transformer layers (memory.c's per-layer
 * formula, Korthikanti et al. 2022), with the tokens set by the image:
 * (image/patch)² patches plus the class (and DeiT's distillation) token;
 * Swin attends inside w×w windows, so its s² term becomes s·w², and each
 * stage halves the side and doubles the width. ResNet is walked
 * convolution by convolution. */
#include <math.h>

#include "core/error.h"
#include "gpuwise/advise.h"
#include "advise/advise_int.h"

#define MAX_IMAGE 32768ull

static bool quantized(gw_weights w)
{
	return w >= GW_WEIGHTS_INT8;
}

/* Patches per side at stage i (Swin pads a side that is not a multiple:
 * SwinPatchEmbeddings.maybe_pad and SwinPatchMerging.maybe_pad). */
static double side_at(const gw_model *m, const gw_advise_options *r, size_t i)
{
	double side = ceil((double)r->image / (double)m->patch_size);

	while (i--)
		side = ceil(side / 2);
	return side;
}

/* The image decides the tokens (--seq is not used): ViT (image/patch)²
 * patches (the convolution drops a remainder) plus the extra tokens;
 * Swin and ResNet report their first stage's positions. */
int gw__advise_vision_resolve(gw_advise_options *r, const gw_model *m)
{
	uint64_t side;

	if (!r->image)
		r->image = m->image_size;
	if (r->image < m->patch_size || r->image > MAX_IMAGE)
		return gw__error_set(GW_EINVAL, "--image must be from %llu to %llu pixels (got %llu)",
				     (unsigned long long)m->patch_size, MAX_IMAGE, (unsigned long long)r->image);
	if (m->vision == GW_VISION_RESNET && (r->task == GW_TASK_LORA || r->task == GW_TASK_QLORA))
		return gw__error_set(GW_EINVAL, "LoRA adapts attention projections; %s has none (use --task train)",
				     m->model_type);
	if (m->vision == GW_VISION_RESNET && quantized(r->weights))
		return gw__error_set(GW_EINVAL, "8- and 4-bit loaders quantise linear layers; %s is convolutions "
				     "(use --weights fp32, fp16 or bf16)", m->model_type);
	side = m->vision == GW_VISION_VIT ? r->image / m->patch_size : (uint64_t)side_at(m, r, 0);
	r->seq = side * side + (m->vision == GW_VISION_VIT ? m->extra_tokens : 0);
	r->new_tokens = 0;
	return 0;
}

/* The image as the first convolution keeps it: fp32 pixel values, or
 * their half-precision cast under autocast / in half precision. */
static double image_bytes(const gw_model *m, const gw_advise_options *r)
{
	double px = (double)r->image * (double)r->image;

	return gw__advise_act_bytes(r) * (double)r->batch * (double)m->num_channels * px;
}

/* Tokens each Swin token attends to at stage i: the window, or the whole
 * (smaller) stage when it is no larger than one window (SwinLayer
 * set_shift_and_window_size). The padded tokens are attended too. */
static double swin_span(const gw_model *m, const gw_advise_options *r, size_t i, double *padded)
{
	double side = side_at(m, r, i), w = (double)m->window_size;

	if (side <= w)
		w = side;
	*padded = pow(ceil(side / w) * w, 2);
	return w * w;
}

/* Elements of the weights autocast casts to half precision beyond the
 * layers' linear maps (params_linear): every convolution's weight
 * (conv2d is on autocast's lower-precision list) and the classifier's
 * (linear). BatchNorm and LayerNorm weights are not cast: batch_norm is
 * on neither of autocast's lists and layer_norm runs in fp32. */
double gw__advise_vision_cast_weights(const gw_model *m)
{
	double C = (double)m->num_channels, p2 = (double)m->patch_size * (double)m->patch_size;
	double cin = (double)m->embed_dim, n;

	if (m->vision == GW_VISION_VIT)
		return (double)m->hidden_size * (C * p2 + (double)m->num_labels);
	if (m->vision == GW_VISION_SWIN)
		return cin * C * p2 + (double)m->hidden_size * (double)m->num_labels;
	n = cin * C * 49;   /* the 7×7 stem */
	for (size_t s = 0; s < m->num_stages; s++) {
		double w = (double)m->stage_widths[s];
		for (uint64_t j = 0; j < m->stage_depths[s]; j++) {
			if (m->bottleneck)
				n += cin * w / 4 + w / 4 * w / 4 * 9 + w / 4 * w;
			else
				n += cin * w * 9 + w * w * 9;
			if (cin != w || (j == 0 && s > 0))
				n += cin * w;   /* the shortcut */
			cin = w;
		}
	}
	return n + cin * (double)m->num_labels;
}

/* ---- training ------------------------------------------------------------ */

/* ViT/DeiT: every layer at s tokens (memory.c), the image the patch
 * convolution keeps, the embedding output (and its dropout mask), the
 * final LayerNorm's input and the classifier's input. With checkpointing,
 * each layer's input plus one layer recomputed. */
static double vit_train(const gw_model *m, const gw_advise_options *r)
{
	double s = (double)r->seq, b = (double)r->batch, e = gw__advise_act_bytes(r), h = (double)m->hidden_size;
	double layer = gw__advise_layer_activations_span(m, r, s, s), L = (double)m->num_layers;
	double outer = image_bytes(m, r) + e * s * b * h + (m->dropout ? s * b * h : 0) +
		       gw__advise_norm_bytes(m, r) * s * b * h + e * b * h;

	return (r->checkpointing ? e * s * b * h * L + layer : layer * L) + outer;
}

/* Swin: per stage depth × the block at s_i tokens of the padded grid with
 * the window span; the patch merging after each stage but the last keeps
 * its concatenated input for the LayerNorm and the normed copy for the
 * reduction (norm + e bytes × s_i·b·width); the patch embedding's
 * LayerNorm input, the final LayerNorm's input, the classifier's input. */
static double swin_train(const gw_model *m, const gw_advise_options *r)
{
	double b = (double)r->batch, e = gw__advise_act_bytes(r), nb = gw__advise_norm_bytes(m, r);
	double a = image_bytes(m, r), biggest = 0, E = (double)m->embed_dim;
	double s0 = pow(side_at(m, r, 0), 2), last = 0;

	a += nb * s0 * b * E;
	for (size_t i = 0; i < m->num_stages; i++) {
		gw_model t = gw__advise_swin_stage(m, i);
		double padded, span = swin_span(m, r, i, &padded), dim = (double)t.hidden_size;
		double s = pow(side_at(m, r, i), 2), blk = gw__advise_layer_activations_span(&t, r, padded, span);
		double depth = (double)m->stage_depths[i];

		a += r->checkpointing ? e * s * b * dim * depth : blk * depth;
		if (blk > biggest)
			biggest = blk;
		if (i + 1 < m->num_stages)
			a += (nb + e) * s * b * dim;
		last = s * b * dim;
	}
	return a + (r->checkpointing ? biggest : 0) + nb * last + e * b * (double)m->hidden_size;
}

/* The walk over ResNet's convolutions. Each convolution + BatchNorm (+
 * ReLU) keeps the BatchNorm's input (the convolution's output) and the
 * ReLU's output, which is the next convolution's input (ReLU saves its
 * result; BatchNorm's backward needs its input): 2 tensors of the output
 * per unit, the block's last one included (its ReLU follows the residual
 * addition); a shortcut keeps its BatchNorm's input. The stem's max pool
 * keeps int64 indices. MACs = output elements × input channels × k². */
struct walk {
	double saved;       /* elements kept for backward, whole model */
	double block_max;   /* elements of the largest block (checkpointing recomputes one) */
	double inputs;      /* elements of every block's input (what checkpointing keeps) */
	double live_max;    /* inference: largest (block input + one convolution's input, its output and the BatchNorm's) */
	double macs;
	double stem_pool;   /* max-pool output elements (its int64 indices) */
	double stem;        /* elements the stem keeps (outside every block, so kept with checkpointing too) */
};

static void unit(struct walk *w, double *blk, double in_ch, double out_ch, double k, double side_out, double in_el,
		 double block_in)
{
	double out = out_ch * side_out * side_out;

	*blk += 2 * out;
	w->macs += out * in_ch * k * k;
	/* In inference the BatchNorm runs while its input, the convolution's
	 * output, is still referenced (HF's ResNetConvLayer reassigns
	 * hidden_state only when it returns; torchvision's x = bn(x) alike):
	 * in, conv out and BN out together, beside the block's input when the
	 * unit is not the block's first (then in is that input). */
	if (block_in + in_el + 2 * out > w->live_max)
		w->live_max = block_in + in_el + 2 * out;
}

static struct walk resnet_walk(const gw_model *m, const gw_advise_options *r)
{
	struct walk w = { 0 };
	double side = ceil((double)r->image / 2), cin = (double)m->embed_dim, stem = 0;
	double C = (double)m->num_channels;

	unit(&w, &stem, C, cin, 7, side, 0, 0);   /* its input, the image, is image_bytes() */
	w.saved += stem;
	w.stem = stem;
	side = ceil(side / 2);
	w.stem_pool = cin * side * side;
	for (size_t s = 0; s < m->num_stages; s++) {
		double width = (double)m->stage_widths[s];
		for (uint64_t j = 0; j < m->stage_depths[s]; j++) {
			bool stride = j == 0 && s > 0;
			double out_side = stride ? ceil(side / 2) : side, in_el = cin * side * side, blk = 0;
			if (m->bottleneck) {
				double q = width / 4;
				unit(&w, &blk, cin, q, 1, side, in_el, 0);
				unit(&w, &blk, q, q, 3, out_side, q * side * side, in_el);
				unit(&w, &blk, q, width, 1, out_side, q * out_side * out_side, in_el);
			} else {
				unit(&w, &blk, cin, width, 3, out_side, in_el, 0);
				unit(&w, &blk, width, width, 3, out_side, width * out_side * out_side, in_el);
			}
			if (cin != width || stride) {
				double out = width * out_side * out_side;
				blk += out;   /* the shortcut's BatchNorm input */
				w.macs += out * cin;
				/* inference: the block's input and main output beside the shortcut's conv and BN outputs */
				if (in_el + 3 * out > w.live_max)
					w.live_max = in_el + 3 * out;
			}
			w.saved += blk;
			w.inputs += in_el;
			if (blk > w.block_max)
				w.block_max = blk;
			cin = width;
			side = out_side;
		}
	}
	w.macs += cin * (double)m->num_labels;
	return w;
}

static double resnet_train(const gw_model *m, const gw_advise_options *r)
{
	struct walk w = resnet_walk(m, r);
	double b = (double)r->batch, e = gw__advise_act_bytes(r);
	double kept = r->checkpointing ? w.stem + w.inputs + w.block_max : w.saved;

	return image_bytes(m, r) + e * b * kept + 8 * b * w.stem_pool + e * b * (double)m->hidden_size;
}

double gw__advise_vision_train(const gw_model *m, const gw_advise_options *r)
{
	switch (m->vision) {
	case GW_VISION_SWIN: return swin_train(m, r);
	case GW_VISION_RESNET: return resnet_train(m, r);
	default: return vit_train(m, r);
	}
}

/* ---- inference ----------------------------------------------------------- */

/* The peak inside one layer of the forward pass, nothing kept for
 * backward: `stream` tensors of the layer's width, plus the larger of
 * attention (q, k, v; eager: the fp32 scores and their cast, span per
 * token) and the MLP's input and activations; for ResNet the block's input
 * alive beside one convolution's input, its output and the BatchNorm's.
 * Plus the image. The width-h tensors are what the layer's forward still
 * references while its MLP runs (Python locals live until it returns):
 * ViTLayer 4 (the caller's input, the attention output, the residual sum,
 * the normed copy), SwinLayer 7 (also the normed input, the window
 * partition, the attention output and its reverse/roll): traced tensor by
 * tensor in transformers 5 (the GELU is the peak), and measured on an H200
 * Swin-T at batch 256 was 30 % above 2 such tensors. */
static double layer_infer(const gw_model *t, const gw_advise_options *r, double s, double span, double stream)
{
	double b = (double)r->batch, e = gw__advise_act_bytes(r), h = (double)t->hidden_size;
	double att = e * s * b * 3 * h, mlp = e * s * b * (double)t->intermediate_size * 2;

	if (r->attention == GW_ATTENTION_EAGER)
		att += (double)t->num_heads * s * span * b * (4 + e);
	return stream * e * s * b * h + (att > mlp ? att : mlp);
}

/* ---- ResNet inference through the caching allocator ------------------------ */

/* transformers' ResNetForImageClassification under torch.inference_mode(),
 * tensor by tensor, replayed through PyTorch's caching allocator
 * (allocator.c), as measured on an H200 with PyTorch 2.11 (docs/advise.md
 * §8). The weights come first, one block per parameter and buffer in the
 * order the modules build them (a convolution's weight; a BatchNorm's
 * weight, bias, running mean and variance and its int64 step count), then
 * the image; the peaks are reset there, as the harness does. */
struct replay {
	gw__alloc_sim s;
	double b, e, half;   /* batch, bytes per activation, 1 when convolutions run in 16 bits */
};

static void conv_weights(struct replay *p, double we, double in_ch, double out_ch, double k)
{
	gw__alloc_sim_malloc(&p->s, in_ch * out_ch * k * k * we);
	for (int i = 0; i < 4; i++)
		gw__alloc_sim_malloc(&p->s, out_ch * we);
	gw__alloc_sim_malloc(&p->s, 8);
}

/* ResNetConvLayer: the convolution's output, the BatchNorm's beside it,
 * the convolution's output freed, then the ReLU's output (not in place)
 * and the BatchNorm's freed. In 16 bits, cuDNN's kernel for a 1×1
 * convolution (NCHW) takes a workspace of its input and output channels at
 * the output's positions while it runs: the allocated peak of ResNet-50,
 * -101 and -152 in fp16/bf16 is that much above the tensors alone (to
 * 0.2 %), fp32's and the basic blocks' none. */
static int conv_unit(struct replay *p, double in_ch, double out_ch, double k, double side_out, bool act)
{
	double out = p->b * out_ch * side_out * side_out * p->e;
	int c = gw__alloc_sim_malloc(&p->s, out), n;

	if (p->half && k == 1)
		gw__alloc_sim_release(&p->s, gw__alloc_sim_malloc(&p->s, (in_ch + out_ch) * p->b * side_out * side_out * p->e));
	n = gw__alloc_sim_malloc(&p->s, out);
	gw__alloc_sim_release(&p->s, c);
	if (!act)
		return n;
	c = gw__alloc_sim_malloc(&p->s, out);
	gw__alloc_sim_release(&p->s, n);
	return c;
}

static void replay_weights(struct replay *p, const gw_model *m, double we)
{
	double cin = (double)m->embed_dim;

	conv_weights(p, we, (double)m->num_channels, cin, 7);
	for (size_t s = 0; s < m->num_stages; s++) {
		double w = (double)m->stage_widths[s];
		for (uint64_t j = 0; j < m->stage_depths[s]; j++) {
			if (cin != w || (j == 0 && s > 0))
				conv_weights(p, we, cin, w, 1);   /* the shortcut is built first */
			if (m->bottleneck) {
				conv_weights(p, we, cin, w / 4, 1);
				conv_weights(p, we, w / 4, w / 4, 3);
				conv_weights(p, we, w / 4, w, 1);
			} else {
				conv_weights(p, we, cin, w, 3);
				conv_weights(p, we, w, w, 3);
			}
			cin = w;
		}
	}
	gw__alloc_sim_malloc(&p->s, cin * (double)m->num_labels * we);
	gw__alloc_sim_malloc(&p->s, (double)m->num_labels * we);
}

/* One block (ResNetBottleNeckLayer / ResNetBasicLayer): the units in
 * turn, each input freed when the next unit returns (nn.Sequential); the
 * shortcut's convolution and BatchNorm after the main path; the residual
 * added in place; the ReLU's output; then the block's tensors freed. Its
 * input x stays with the caller. */
static int replay_block(struct replay *p, const gw_model *m, double cin, double w, double side, double side_out)
{
	int h, prev, sc = -1, out;

	if (m->bottleneck) {
		prev = conv_unit(p, cin, w / 4, 1, side, true);
		h = conv_unit(p, w / 4, w / 4, 3, side_out, true);
		gw__alloc_sim_release(&p->s, prev);
		prev = h;
		h = conv_unit(p, w / 4, w, 1, side_out, false);
	} else {
		prev = conv_unit(p, cin, w, 3, side_out, true);
		h = conv_unit(p, w, w, 3, side_out, false);
	}
	gw__alloc_sim_release(&p->s, prev);
	if (cin != w || side != side_out)
		sc = conv_unit(p, cin, w, 1, side_out, false);
	out = gw__alloc_sim_malloc(&p->s, p->b * w * side_out * side_out * p->e);
	gw__alloc_sim_release(&p->s, h);
	gw__alloc_sim_release(&p->s, sc);
	return out;
}

bool gw__advise_resnet_infer_replay(const gw_model *m, const gw_advise_options *r, double *peak, double *slack)
{
	struct replay p = { .b = (double)r->batch, .e = gw__advise_act_bytes(r) };
	double side = ceil((double)r->image / 2), cin = (double)m->embed_dim, ws = gw__advise_workspace(m, r);
	uint64_t weights;
	int x, emb, stage_in;
	bool ok;

	p.half = p.e == 2;
	gw__alloc_sim_init(&p.s);
	replay_weights(&p, m, gw__advise_weight_bytes(r->weights));
	weights = p.s.allocated;
	gw__alloc_sim_malloc(&p.s, image_bytes(m, r));
	gw__alloc_sim_reset_peaks(&p.s);
	/* The stem; the max pool's int64 indices are taken before its output
	 * (the order that gives the H200's reserved peaks of ResNet-18 and -34,
	 * to 0.1 %), both while the ReLU's output is held. */
	x = conv_unit(&p, (double)m->num_channels, cin, 7, side, true);
	side = ceil(side / 2);
	{
		int idx = gw__alloc_sim_malloc(&p.s, 8 * p.b * cin * side * side);
		emb = gw__alloc_sim_malloc(&p.s, p.b * cin * side * side * p.e);
		gw__alloc_sim_release(&p.s, idx);
		gw__alloc_sim_release(&p.s, x);
	}
	/* The embedding output is held by ResNetModel.forward to its end, each
	 * stage's input by ResNetEncoder.forward until the stage returns, each
	 * block's input by ResNetStage.forward until the block returns. */
	x = emb;
	for (size_t s = 0; s < m->num_stages; s++) {
		double w = (double)m->stage_widths[s];
		stage_in = x;
		for (uint64_t j = 0; j < m->stage_depths[s]; j++) {
			double side_out = j == 0 && s > 0 ? ceil(side / 2) : side;
			int out = replay_block(&p, m, cin, w, side, side_out);
			if (x != stage_in)
				gw__alloc_sim_release(&p.s, x);
			x = out;
			cin = w;
			side = side_out;
		}
		if (stage_in != emb)
			gw__alloc_sim_release(&p.s, stage_in);
	}
	/* The pooled features; the classifier's matmul takes cuBLAS's
	 * workspaces (§7, kept from the first call on), then the logits. The
	 * estimate adds the workspaces to its allocated peak itself, so the
	 * activations are the peak less them. */
	gw__alloc_sim_malloc(&p.s, p.b * cin * p.e);
	gw__alloc_sim_release(&p.s, x);
	gw__alloc_sim_malloc(&p.s, ws);
	gw__alloc_sim_malloc(&p.s, p.b * (double)m->num_labels * p.e);
	ok = !p.s.failed;
	*peak = (double)(p.s.peak_allocated - weights) - ws;
	*slack = (double)(p.s.peak_reserved - p.s.peak_allocated);
	gw__alloc_sim_free(&p.s);
	return ok;
}

double gw__advise_vision_infer(const gw_model *m, const gw_advise_options *r)
{
	double peak = 0;

	if (m->vision == GW_VISION_VIT) {
		peak = layer_infer(m, r, (double)r->seq, (double)r->seq, 4);
	} else if (m->vision == GW_VISION_SWIN) {
		for (size_t i = 0; i < m->num_stages; i++) {
			gw_model t = gw__advise_swin_stage(m, i);
			double padded, span = swin_span(m, r, i, &padded), p = layer_infer(&t, r, padded, span, 7);
			if (p > peak)
				peak = p;
		}
	} else {
		double slack;
		if (gw__advise_resnet_infer_replay(m, r, &peak, &slack))
			return peak;   /* the image included */
		peak = gw__advise_act_bytes(r) * (double)r->batch * resnet_walk(m, r).live_max;
	}
	return peak + image_bytes(m, r);
}

/* ---- FLOPs ----------------------------------------------------------------- */

/* Forward FLOPs of one image: 2 per multiply-add. ViT: 2·P per token
 * (every weight once per token) plus attention's two s×s products
 * (4·s²·h a layer); Swin: the same per stage with s·w² in place of s²;
 * ResNet: the walk's convolutions and the classifier. */
double gw__advise_vision_forward_flops(const gw_model *m, const gw_advise_options *r)
{
	double f = 0;

	if (m->vision == GW_VISION_VIT) {
		double s = (double)r->seq;
		return 2 * (double)m->params * s + 4 * s * s * (double)m->hidden_size * (double)m->num_layers;
	}
	if (m->vision == GW_VISION_RESNET)
		return 2 * resnet_walk(m, r).macs;
	for (size_t i = 0; i < m->num_stages; i++) {
		gw_model t = gw__advise_swin_stage(m, i);
		double padded, span = swin_span(m, r, i, &padded), dim = (double)t.hidden_size;
		double per_token = 2 * (4 * dim * dim + 2 * dim * (double)t.intermediate_size);
		f += (double)m->stage_depths[i] * padded * (per_token + 4 * span * dim);
	}
	return f;
}

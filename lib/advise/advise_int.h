/* The terms of the memory model (lib/advise/memory.c), exposed to the unit
 * tests, which check each against a hand calculation. Options must be
 * resolved (no AUTO left): gw_advise_estimate_run() does that. */
#ifndef GPUWISE_ADVISE_INT_H
#define GPUWISE_ADVISE_INT_H

#include <stdbool.h>

#include "gpuwise/advise.h"

double gw__advise_weight_bytes(gw_weights w);
double gw__advise_weights(const gw_model *m, const gw_advise_options *r);
double gw__advise_gradients(const gw_model *m, const gw_advise_options *r);
double gw__advise_fsdp_gradients(const gw_model *m, const gw_advise_options *r, double full);
double gw__advise_optimizer(const gw_model *m, const gw_advise_options *r);
double gw__advise_optimizer_step(const gw_model *m, const gw_advise_options *r);
double gw__advise_layer_activations(const gw_model *m, const gw_advise_options *r, double seq);
double gw__advise_layer_activations_span(const gw_model *m, const gw_advise_options *r, double seq, double span);
double gw__advise_decoder_layer_activations(const gw_model *m, const gw_advise_options *r, double t, double s);
double gw__advise_saved_kv_width(const gw_model *m, const gw_advise_options *r);
double gw__advise_lora_input(const gw_advise_options *r);
bool gw__advise_fsdp(const gw_advise_options *r);
int gw__advise_zero_stage(const gw_advise_options *r);
double gw__advise_lora_features(const gw_model *m, const gw_advise_options *r);
double gw__advise_lora_attention_extra(const gw_model *m, const gw_advise_options *r);
double gw__advise_lora_mlp_extra(const gw_model *m, const gw_advise_options *r);
double gw__advise_act_bytes(const gw_advise_options *r);
double gw__advise_norm_bytes(const gw_model *m, const gw_advise_options *r);
/* Vision models (lib/advise/vision.c). */
/* Swin stage i as a transformer layer: width E·2^i, that stage's heads,
 * MLP mlp_ratio × width, no gated MLP (model.c counts, vision.c sizes). */
gw_model gw__advise_swin_stage(const gw_model *m, size_t i);
int gw__advise_vision_resolve(gw_advise_options *r, const gw_model *m);
double gw__advise_vision_train(const gw_model *m, const gw_advise_options *r);
double gw__advise_vision_infer(const gw_model *m, const gw_advise_options *r);
double gw__advise_vision_forward_flops(const gw_model *m, const gw_advise_options *r);
double gw__advise_kv_cache(const gw_model *m, const gw_advise_options *r);
double gw__advise_workspace(const gw_model *m, const gw_advise_options *r);
/* Cloud ranking over given rows (NULL: data/cloud_instances.tsv), so the
 * tests can rank a priced row (lib/advise/cloud.c, report.c). */
int gw__advise_cloud_from(gw_advise_cloud_rank **out, size_t *count, const gw_cloud_instance *insts, size_t ninsts,
			  const gw_advise_rank *ranks, size_t nranks, uint64_t gpus);
int gw__advise_report_add_hardware_from(gw_advise_report *r, const gw_advise_options *o,
					const gw_cloud_instance *insts, size_t ninsts);

#endif

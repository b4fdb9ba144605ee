/* advise: the model catalogue and its exact parameter counts, the
 * config.json reader and its errors, every memory term against a hand
 * calculation, monotonicity, the plan ladder and the GPU spec table. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/util.h"
#include "advise/advise_int.h"

#define GW_GEN_TABLE_ROWS
#include "gpu_specs.h"   /* the raw cells, to check each row's three sourced numbers */
#include "nvidia_gpus.h" /* every NVIDIA GPU gpuwise names, for the spec table's coverage */

#define MIB (1024ull * 1024)
#define GIB (1024 * MIB)

static gw_model model(const char *name)
{
	gw_model m;

	memset(&m, 0, sizeof(m));
	if (gw_model_from_catalog(&m, name) < 0)
		fprintf(stderr, "catalogue: %s\n", gw_error_last());
	return m;
}

static gw_model config(const char *json)
{
	gw_model m;

	memset(&m, 0, sizeof(m));
	if (gw_model_from_config(&m, json, strlen(json), NULL) < 0)
		fprintf(stderr, "config: %s\n", gw_error_last());
	return m;
}

/* Every catalogue row reproduces its published count exactly. */
static void test_catalogue_counts(void)
{
	size_t n = gw_model_catalog_count();

	CHECK(n >= 20);
	for (size_t i = 0; i < n; i++) {
		gw_model_entry e;
		gw_model m;

		CHECK_INT(gw_model_catalog_at(i, &e), 0);
		CHECK(e.params_published > 0);
		CHECK(strstr(e.source, "http") != NULL);
		CHECK_INT(gw_model_from_catalog(&m, e.name), 0);
		if (m.params != e.params_published)
			fprintf(stderr, "%s: counted %llu, published %llu\n", e.name, (unsigned long long)m.params,
				(unsigned long long)e.params_published);
		CHECK_INT(m.params, e.params_published);
		CHECK_INT(m.params_published, e.params_published);
	}
	CHECK_INT(gw_model_catalog_at(n, &(gw_model_entry){ 0 }), GW_ENOTFOUND);
	/* The numbers the issue names, written out so a table edit cannot move them. */
	CHECK_INT(model("llama-2-7b").params, 6738415616ull);
	CHECK_INT(model("bert-base-uncased").params, 109482240ull);
	CHECK_INT(model("gpt2").params, 124439808ull);
	CHECK_INT(model("t5-small").params, 60506624ull);
	CHECK_INT(model("LLAMA-2-7B").params, 6738415616ull);        /* names ignore case */
	CHECK_INT(model("meta-llama/Llama-2-7b-hf").params, 6738415616ull);  /* and Hub ids work */
	gw_model m;
	CHECK_INT(gw_model_from_catalog(&m, "llama-9000"), GW_ENOTFOUND);
	CHECK(strstr(gw_error_last(), "llama-9000") != NULL);
}

/* The parts of a count: linear weights (what 8/4-bit stores), LoRA's
 * targets, GQA's smaller k/v. */
static void test_count_parts(void)
{
	gw_model l = model("llama-2-7b"), l3 = model("llama-3-8b"), g = model("gpt2");

	/* 32 × (4·4096² + 3·4096·11008) */
	CHECK_INT(l.params_linear, 6476005376ull);
	/* PEFT prints "trainable params: 4,194,304" for r=8 on q_proj, v_proj */
	CHECK_INT(8 * l.lora_features, 4194304ull);
	CHECK_INT(l.max_matrix, 4096ull * 11008);
	/* --lora-targets, against PEFT's printed "trainable params" at r=8:
	 * q, k, v, o 8,388,608; all-linear 19,988,480 (the QLoRA recipes'
	 * choice); all adds the LM head, 8·(4096 + 32000). GPT-2's fused
	 * c_attn: 294,912, and c_proj beside it. */
	gw_advise_options t = GW_ADVISE_OPTIONS_INIT;
	CHECK(8 * gw__advise_lora_features(&l, &t) == 4194304.0);
	t.lora_targets = GW_LORA_ATTENTION;
	CHECK(8 * gw__advise_lora_features(&l, &t) == 8388608.0);
	t.lora_targets = GW_LORA_ALL_LINEAR;
	CHECK(8 * gw__advise_lora_features(&l, &t) == 19988480.0);
	t.lora_targets = GW_LORA_ALL;
	CHECK(8 * gw__advise_lora_features(&l, &t) == 19988480.0 + 8 * (4096 + 32000));
	t.lora_targets = GW_LORA_QV;
	CHECK(8 * gw__advise_lora_features(&g, &t) == 294912.0);
	t.lora_targets = GW_LORA_ATTENTION;
	CHECK(8 * gw__advise_lora_features(&g, &t) == 294912.0 + 8.0 * 12 * (768 + 768));
	CHECK_INT(l3.num_kv_heads, 8);
	CHECK_INT(l3.head_dim, 128);
	CHECK(!l.tied_embeddings && g.tied_embeddings);
	CHECK(l.gated_mlp && !g.gated_mlp);
	CHECK(g.dropout && !l.dropout);
	CHECK_INT(g.intermediate_size, 3072);    /* n_inner null → 4 × n_embd */
	CHECK_INT(model("flan-t5-small").gated_mlp, 1);
	CHECK_INT(model("t5-small").gated_mlp, 0);
	CHECK_INT(model("t5-small").kind, GW_MODEL_ENCODER_DECODER);
	CHECK_INT(model("bert-base-uncased").kind, GW_MODEL_ENCODER);

	/* The masked-LM head: BertForMaskedLM has no pooler (h² + h) but the
	 * head's dense of the same size, its LayerNorm (2h) and the decoder's
	 * bias (V), the decoder's weight tied: 109,482,240 + 2·768 + 30,522 =
	 * 109,514,298; RobertaForMaskedLM (roberta-base's config, vocabulary
	 * 50,265): 124,645,632 + 1,536 + 50,265 = 124,697,433. */
	gw_model b = model("bert-base-uncased");
	CHECK(!b.lm_head);
	CHECK_INT(gw_model_use_lm_head(&b), 0);
	CHECK(b.lm_head && b.params_published == 0);
	CHECK_INT(b.params, 109514298ull);
	CHECK_INT(gw_model_use_lm_head(&b), 0);   /* once only */
	CHECK_INT(b.params, 109514298ull);
	gw_model rb = config("{\"model_type\": \"roberta\", \"vocab_size\": 50265, \"hidden_size\": 768, "
			     "\"num_hidden_layers\": 12, \"num_attention_heads\": 12, \"intermediate_size\": 3072, "
			     "\"max_position_embeddings\": 514, \"type_vocab_size\": 1}");
	CHECK_INT(rb.params, 124645632ull);
	CHECK_INT(gw_model_use_lm_head(&rb), 0);
	CHECK_INT(rb.params, 124697433ull);
	/* Decoders and T5 have theirs; ViT is not a text encoder. */
	CHECK_INT(gw_model_use_lm_head(&g), GW_EINVAL);
	gw_model t5 = model("t5-small"), vit = model("vit-base-patch16-224");
	CHECK_INT(gw_model_use_lm_head(&t5), GW_EINVAL);
	CHECK_INT(gw_model_use_lm_head(&vit), GW_EINVAL);
	CHECK_INT(gw_model_use_lm_head(NULL), GW_EINVAL);
	CHECK(!g.lm_head && !t5.lm_head);
	/* In what was padding after dropout: the fields after it keep their offsets. */
	CHECK_INT(offsetof(gw_model, lm_head), offsetof(gw_model, dropout) + 1);
	/* In the padding at the end, after bottleneck (an ABI that aligns
	 * uint64_t members to 4, as i386 does, still leaves three bytes): the
	 * struct's size is what it was. */
	CHECK_INT(offsetof(gw_model, parallel_block), offsetof(gw_model, bottleneck) + 1);
	CHECK_INT(offsetof(gw_model, alibi), offsetof(gw_model, bottleneck) + 2);
	CHECK_INT(offsetof(gw_model, no_attention_dropout), offsetof(gw_model, bottleneck) + 3);
	CHECK(offsetof(gw_model, bottleneck) + 4 <= sizeof(gw_model));
	CHECK(sizeof(gw_model) % 4 == 0 && offsetof(gw_model, bottleneck) % 4 == 0);
	CHECK_INT(offsetof(gw_model, params), (offsetof(gw_model, dropout) + 1 + _Alignof(uint64_t) - 1) /
						      _Alignof(uint64_t) * _Alignof(uint64_t));
}

static void test_config_reader(void)
{
	gw_model m;
	/* A user's config.json with keys the catalogue does not use. */
	const char *qwen = "{\"architectures\": [\"Qwen2ForCausalLM\"], \"model_type\": \"qwen2\", "
			   "\"vocab_size\": 151936, \"hidden_size\": 896, \"intermediate_size\": 4864, "
			   "\"num_hidden_layers\": 24, \"num_attention_heads\": 14, \"num_key_value_heads\": 2, "
			   "\"tie_word_embeddings\": true, \"rope_theta\": 1000000.0, \"torch_dtype\": \"bfloat16\"}";

	CHECK_INT(gw_model_from_config(&m, qwen, strlen(qwen), "my-qwen"), 0);
	CHECK_INT(m.params, 494032768ull);
	CHECK_STR(m.name, "my-qwen");
	CHECK_STR(m.model_type, "qwen2");
	m = config("{\"model_type\":\"roberta\",\"vocab_size\":50265,\"hidden_size\":768,\"num_hidden_layers\":12,"
		   "\"num_attention_heads\":12,\"intermediate_size\":3072,\"max_position_embeddings\":514,"
		   "\"type_vocab_size\":1}");
	/* RobertaModel (with pooler): 124,645,632 */
	CHECK_INT(m.params, 124645632ull);
	CHECK_STR(m.name, "roberta");
}

static int config_error(const char *json)
{
	gw_model m;
	int rc;

	memset(&m, 0x5a, sizeof(m));
	rc = gw_model_from_config(&m, json, strlen(json), NULL);
	CHECK(rc < 0);
	CHECK(((unsigned char *)&m)[0] == 0x5a);   /* untouched on failure */
	CHECK(gw_error_last()[0] != '\0');
	return rc;
}

static void test_config_errors(void)
{
	const char *base = "\"vocab_size\":100,\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
			   "\"intermediate_size\":128";
	char buf[512];

	CHECK_INT(config_error("{\"model_type\":\"mamba\"}"), GW_ENOTSUP);
	CHECK(strstr(gw_error_last(), "mamba") && strstr(gw_error_last(), "llama"));
	CHECK(strstr(gw_error_last(), ", resnet)") != NULL);   /* the whole list: a 256-byte buffer cut it */
	CHECK_INT(config_error("{\"model_type\":\"falcon\"}"), GW_EPARSE);   /* counted now: vocab_size is missing */
	CHECK(strstr(gw_error_last(), "vocab_size") != NULL);
	/* Configs users still have that name a neighbour of a counted type:
	 * the error says which and what to do. */
	CHECK_INT(config_error("{\"model_type\":\"RefinedWebModel\",\"n_head\":71}"), GW_ENOTSUP);
	CHECK(strstr(gw_error_last(), "\"falcon\"") != NULL);
	CHECK_INT(config_error("{\"model_type\":\"phi3small\"}"), GW_ENOTSUP);
	CHECK(strstr(gw_error_last(), "Phi-3-small") && strstr(gw_error_last(), "--params"));
	CHECK_INT(config_error("{\"model_type\":\"phi-msft\"}"), GW_ENOTSUP);
	CHECK(strstr(gw_error_last(), "\"phi\"") != NULL);
	CHECK_INT(config_error("{\"model_type\":\"vit\"}"), GW_EPARSE);   /* counted now: hidden_size is missing */
	CHECK(strstr(gw_error_last(), "hidden_size") != NULL);
	CHECK_INT(config_error("{\"model_type\":\"llama\""), GW_EPARSE);
	CHECK_INT(config_error(""), GW_EPARSE);
	CHECK_INT(config_error("[1,2]"), GW_EPARSE);
	CHECK_INT(config_error("{\"hidden_size\":1}"), GW_EPARSE);
	CHECK_INT(config_error("{\"model_type\":7}"), GW_EPARSE);
	CHECK_INT(config_error("{\"model_type\":\"llama\",\"vocab_size\":100}"), GW_EPARSE);
	CHECK(strstr(gw_error_last(), "hidden_size") != NULL);
	snprintf(buf, sizeof(buf), "{\"model_type\":\"llama\",%s,\"hidden_size\":-64}", base);
	CHECK_INT(config_error(buf), GW_EPARSE);
	CHECK(strstr(gw_error_last(), "hidden_size") != NULL);
	snprintf(buf, sizeof(buf), "{\"model_type\":\"llama\",%s,\"hidden_size\":\"64\"}", base);
	CHECK_INT(config_error(buf), GW_EPARSE);
	snprintf(buf, sizeof(buf), "{\"model_type\":\"llama\",%s,\"hidden_size\":64.5}", base);
	CHECK_INT(config_error(buf), GW_EPARSE);
	snprintf(buf, sizeof(buf), "{\"model_type\":\"llama\",%s,\"num_hidden_layers\":1e300}", base);
	CHECK_INT(config_error(buf), GW_EPARSE);
	snprintf(buf, sizeof(buf), "{\"model_type\":\"llama\",%s,\"num_hidden_layers\":99999999999999999999}", base);
	CHECK_INT(config_error(buf), GW_EPARSE);
	snprintf(buf, sizeof(buf), "{\"model_type\":\"llama\",%s,\"num_attention_heads\":5}", base);
	CHECK_INT(config_error(buf), GW_EPARSE);          /* 64 is not a multiple of 5 heads */
	snprintf(buf, sizeof(buf), "{\"model_type\":\"llama\",%s,\"num_key_value_heads\":3}", base);
	CHECK_INT(config_error(buf), GW_EPARSE);          /* 4 heads, 3 kv heads */
	snprintf(buf, sizeof(buf), "{\"model_type\":\"llama\",%s,\"num_key_value_heads\":8}", base);
	CHECK_INT(config_error(buf), GW_EPARSE);          /* more kv heads than heads */
	snprintf(buf, sizeof(buf), "{\"model_type\":\"llama\",%s,\"tie_word_embeddings\":\"yes\"}", base);
	CHECK_INT(config_error(buf), GW_EPARSE);
	snprintf(buf, sizeof(buf), "{\"model_type\":\"gpt2\",%s,\"attn_pdrop\":7}", base);
	CHECK_INT(config_error(buf), GW_EPARSE);
	snprintf(buf, sizeof(buf), "{\"model_type\":\"llama\",%s,\"vocab_size\":100000000000}", base);
	CHECK_INT(config_error(buf), GW_EPARSE);
	/* A hostile model_type is quoted printable, never raw. */
	CHECK_INT(config_error("{\"model_type\":\"\\u001b[31mevil\"}"), GW_ENOTSUP);
	CHECK(strchr(gw_error_last(), 0x1b) == NULL);
	/* Deep nesting is refused by the reader's limit, not the stack. */
	{
		char *deep = malloc(200001);
		memset(deep, '[', 200000);
		deep[200000] = '\0';
		CHECK_INT(config_error(deep), GW_EPARSE);
		free(deep);
	}
	gw_model m;
	CHECK_INT(gw_model_from_config(NULL, "{}", 2, NULL), GW_EINVAL);
	CHECK_INT(gw_model_from_config(&m, NULL, 5, NULL), GW_EINVAL);
}

/* Real config.json files of the decoders beyond Llama and GPT-2, held to
 * their published counts (tests/fixtures/advise-configs/README.md gives
 * each config's and each count's source; the CLI test reads the files
 * themselves). Only the keys that decide the count are repeated here. */
static void test_decoder_counts(void)
{
	static const struct {
		const char *json;
		uint64_t params, kv_heads, lora;   /* lora: PEFT's r=8 trainable count, 0 = not checked */
	} cases[] = {
		/* Falcon-7B: multi-query (1 kv head), one LayerNorm a layer, no
		 * biases, head tied. The Hub's safetensors total (7,217,189,760)
		 * stores the tied head a second time: less 65024 × 4544. */
		{ "{\"model_type\":\"falcon\",\"hidden_size\":4544,\"num_attention_heads\":71,\"multi_query\":true,"
		  "\"num_hidden_layers\":32,\"vocab_size\":65024,\"parallel_attn\":true}", 6921720704ull, 1, 2359296 },
		/* Falcon-40B: new_decoder_architecture, 8 kv heads, ln_attn and
		 * ln_mlp; the Hub's 41,835,970,560 less the stored tied head. */
		{ "{\"model_type\":\"falcon\",\"bias\":false,\"hidden_size\":8192,\"num_attention_heads\":128,"
		  "\"num_kv_heads\":8,\"num_hidden_layers\":60,\"new_decoder_architecture\":true,\"parallel_attn\":true,"
		  "\"vocab_size\":65024}", 41303293952ull, 8, 0 },
		/* OPT-125m, OPT-1.3B; OPT-350m: word_embed_proj_dim 512 with
		 * project_in/out, no final LayerNorm (do_layer_norm_before false). */
		{ "{\"model_type\":\"opt\",\"hidden_size\":768,\"num_hidden_layers\":12,\"num_attention_heads\":12,"
		  "\"ffn_dim\":3072,\"max_position_embeddings\":2048,\"vocab_size\":50272,\"word_embed_proj_dim\":768,"
		  "\"do_layer_norm_before\":true}", 125239296ull, 12, 294912 },
		{ "{\"model_type\":\"opt\",\"hidden_size\":1024,\"num_hidden_layers\":24,\"num_attention_heads\":16,"
		  "\"ffn_dim\":4096,\"max_position_embeddings\":2048,\"vocab_size\":50272,\"word_embed_proj_dim\":512,"
		  "\"do_layer_norm_before\":false}", 331196416ull, 16, 786432 },
		{ "{\"model_type\":\"opt\",\"hidden_size\":2048,\"num_hidden_layers\":24,\"num_attention_heads\":32,"
		  "\"ffn_dim\":8192,\"max_position_embeddings\":2048,\"vocab_size\":50272,\"word_embed_proj_dim\":2048,"
		  "\"do_layer_norm_before\":true}", 1315758080ull, 32, 0 },
		/* Phi-2: biased q, k, v, dense, fc1, fc2 and LM head, untied. */
		{ "{\"model_type\":\"phi\",\"hidden_size\":2560,\"intermediate_size\":10240,\"num_attention_heads\":32,"
		  "\"num_hidden_layers\":32,\"num_key_value_heads\":32,\"partial_rotary_factor\":0.4,"
		  "\"qk_layernorm\":false,\"tie_word_embeddings\":false,\"vocab_size\":51200}", 2779683840ull, 32, 2621440 },
		/* Phi-3-mini: Llama's parameters in fused qkv_proj / gate_up_proj. */
		{ "{\"model_type\":\"phi3\",\"hidden_size\":3072,\"num_hidden_layers\":32,\"num_attention_heads\":32,"
		  "\"num_key_value_heads\":32,\"intermediate_size\":8192,\"vocab_size\":32064}", 3821079552ull, 32, 3145728 },
		/* GPT-J-6B: no attention biases, biased MLP and LM head, untied. */
		{ "{\"model_type\":\"gptj\",\"n_embd\":4096,\"n_head\":16,\"n_inner\":null,\"n_layer\":28,"
		  "\"n_positions\":2048,\"rotary_dim\":64,\"tie_word_embeddings\":false,\"vocab_size\":50400}",
		  6050882784ull, 16, 3670016 },
		/* Pythia-70M, GPT-NeoX-20B: fused query_key_value, untied embed_out. */
		{ "{\"model_type\":\"gpt_neox\",\"vocab_size\":50304,\"num_hidden_layers\":6,\"hidden_size\":512,"
		  "\"intermediate_size\":2048,\"num_attention_heads\":8,\"max_position_embeddings\":2048,"
		  "\"rotary_pct\":0.25,\"use_parallel_residual\":true,\"tie_word_embeddings\":false}", 70426624ull, 8, 98304 },
		{ "{\"model_type\":\"gpt_neox\",\"hidden_size\":6144,\"intermediate_size\":24576,\"num_attention_heads\":64,"
		  "\"num_hidden_layers\":44,\"max_position_embeddings\":2048,\"rotary_pct\":0.25,"
		  "\"tie_word_embeddings\":false,\"vocab_size\":50432}", 20554567680ull, 64, 0 },
		/* BLOOM-560m and BLOOM (176B, spelled n_embed / n_layer). */
		{ "{\"model_type\":\"bloom\",\"vocab_size\":250880,\"hidden_size\":1024,\"n_layer\":24,\"n_head\":16}",
		  559214592ull, 16, 786432 },
		{ "{\"model_type\":\"bloom\",\"vocab_size\":250880,\"n_embed\":14336,\"n_layer\":70,"
		  "\"num_attention_heads\":112}", 176247271424ull, 112, 0 },
		/* StarCoder: multi-query c_attn (h + 2 × 128), learned positions. */
		{ "{\"model_type\":\"gpt_bigcode\",\"multi_query\":true,\"n_inner\":24576,\"n_embd\":6144,\"n_head\":48,"
		  "\"n_layer\":40,\"vocab_size\":49152,\"n_positions\":8192}", 15517456384ull, 1, 4014080 },
		/* T5-11B: d_kv × heads (16384) is not d_model (1024). */
		{ "{\"model_type\":\"t5\",\"vocab_size\":32128,\"d_model\":1024,\"d_kv\":128,\"d_ff\":65536,"
		  "\"num_layers\":24,\"num_decoder_layers\":24,\"num_heads\":128,\"feed_forward_proj\":\"relu\"}",
		  11307321344ull, 128, 0 },
		/* The 2024–2025 decoders, small: each count is transformers 5.25's
		 * own (the model built on the meta device, sum of p.numel()).
		 * OLMo: LayerNorms without weight or bias (OlmoLayerNorm), untied. */
		{ "{\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
		  "\"num_key_value_heads\":2,\"intermediate_size\":96,\"pad_token_id\":0,\"model_type\":\"olmo\","
		  "\"clip_qkv\":8.0}", 189440ull, 2, 0 },
		/* OLMo 2: RMSNorm over all q heads and all k heads, norms after
		 * attention and the MLP only; attention_bias on q, k, v, o. */
		{ "{\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
		  "\"num_key_value_heads\":2,\"intermediate_size\":96,\"pad_token_id\":0,\"model_type\":\"olmo2\","
		  "\"attention_bias\":true}", 190336ull, 2, 0 },
		/* Granite: Llama's attention_bias and mlp_bias, tied. */
		{ "{\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
		  "\"num_key_value_heads\":2,\"intermediate_size\":96,\"pad_token_id\":0,\"model_type\":\"granite\","
		  "\"attention_bias\":true,\"mlp_bias\":true,\"tie_word_embeddings\":true}", 126656ull, 2, 0 },
		/* GLM: q, k, v biased by default (o never), head_dim 128 by default. */
		{ "{\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
		  "\"num_key_value_heads\":2,\"intermediate_size\":96,\"pad_token_id\":0,\"model_type\":\"glm\"}", 363840ull, 2, 0 },
		/* GLM-4: four norms a layer. */
		{ "{\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
		  "\"num_key_value_heads\":2,\"intermediate_size\":96,\"pad_token_id\":0,\"model_type\":\"glm4\","
		  "\"attention_bias\":false,\"head_dim\":32}", 214592ull, 2, 0 },
		/* Cohere: one LayerNorm (weight only) a layer, use_qk_norm: a weight
		 * per head and feature on q and k; tied. */
		{ "{\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
		  "\"num_key_value_heads\":2,\"intermediate_size\":96,\"pad_token_id\":0,\"model_type\":\"cohere\","
		  "\"use_qk_norm\":true}", 125824ull, 2, 0 },
		/* Cohere 2: head_dim from the config when given. */
		{ "{\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
		  "\"num_key_value_heads\":2,\"intermediate_size\":96,\"pad_token_id\":0,\"model_type\":\"cohere2\","
		  "\"head_dim\":32}", 150208ull, 2, 0 },
		/* SmolLM3: mlp_bias, untied here. */
		{ "{\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
		  "\"num_key_value_heads\":2,\"intermediate_size\":96,\"pad_token_id\":0,\"model_type\":\"smollm3\","
		  "\"mlp_bias\":true,\"tie_word_embeddings\":false}", 190272ull, 2, 0 },
		/* ERNIE 4.5: use_bias on all seven maps; tied. */
		{ "{\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
		  "\"num_key_value_heads\":2,\"intermediate_size\":96,\"pad_token_id\":0,"
		  "\"model_type\":\"ernie4_5\",\"use_bias\":true}", 300480ull, 2, 0 },
		/* EXAONE 4: RMSNorm(head_dim) on q and k, norms after each block. */
		{ "{\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
		  "\"num_key_value_heads\":2,\"intermediate_size\":96,\"pad_token_id\":0,\"model_type\":\"exaone4\","
		  "\"head_dim\":32,\"tie_word_embeddings\":true}", 150464ull, 2, 0 },
		/* Helium: attention_bias on q, k, v (not o). */
		{ "{\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":2,"
		  "\"num_key_value_heads\":1,\"intermediate_size\":96,\"pad_token_id\":0,\"model_type\":\"helium\","
		  "\"attention_bias\":true,\"head_dim\":32}", 190016ull, 1, 0 },
		/* StarCoder2: LayerNorms, biased q, k, v, o, c_fc, c_proj; tied. */
		{ "{\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
		  "\"num_key_value_heads\":2,\"intermediate_size\":96,\"pad_token_id\":0,"
		  "\"model_type\":\"starcoder2\"}", 114496ull, 2, 0 },
		/* InternLM2 (remote code): bias (true by default) on wqkv and wo, not
		 * the MLP: 128 + 64 a layer more than Llama's 30848. */
		{ "{\"model_type\":\"internlm2\",\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,"
		  "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"intermediate_size\":96}", 190144ull, 2, 3072 },
		/* MiniCPM (remote code): Llama's attention_bias, tied by default. */
		{ "{\"model_type\":\"minicpm\",\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":2,"
		  "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"intermediate_size\":96,\"attention_bias\":true}",
		  126144ull, 2, 0 },
		/* Llama 4 (transformers' count): experts in every other layer with a
		 * shared expert, the dense layers intermediate_size_mlp wide. */
		{ "{\"model_type\":\"llama4_text\",\"vocab_size\":1000,\"hidden_size\":64,\"num_hidden_layers\":4,"
		  "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,\"intermediate_size\":48,"
		  "\"intermediate_size_mlp\":96,\"num_local_experts\":4,\"num_experts_per_tok\":1,"
		  "\"pad_token_id\":0,\"interleave_moe_layer_step\":2,\"attention_bias\":true,"
		  "\"tie_word_embeddings\":true}", 244032ull, 2, 0 },
		/* ... and as a VLM with its vision tower and pixel-shuffle MLP. */
		{ "{\"model_type\":\"llama4\",\"text_config\":{\"vocab_size\":1000,\"hidden_size\":64,"
		  "\"num_hidden_layers\":4,\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,"
		  "\"intermediate_size\":48,\"intermediate_size_mlp\":96,\"num_local_experts\":4,"
		  "\"num_experts_per_tok\":1,\"pad_token_id\":0,\"interleave_moe_layer_step\":2,"
		  "\"attention_bias\":true,\"tie_word_embeddings\":true},\"vision_config\":{\"hidden_size\":32,"
		  "\"intermediate_size\":80,\"num_hidden_layers\":2,\"num_attention_heads\":4,\"image_size\":56,"
		  "\"patch_size\":14,\"vision_output_dim\":48,\"projector_input_dim\":40,"
		  "\"projector_output_dim\":40,\"pixel_shuffle_ratio\":0.5},\"tie_word_embeddings\":false}", 290592ull, 2, 0 },
	};
	gw_advise_options o;

	memset(&o, 0, sizeof(o));
	o.lora_targets = GW_LORA_QV;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		gw_model m = config(cases[i].json);
		if (m.params != cases[i].params)
			fprintf(stderr, "case %zu (%s): counted %llu, published %llu\n", i, m.model_type,
				(unsigned long long)m.params, (unsigned long long)cases[i].params);
		CHECK_INT(m.params, cases[i].params);
		CHECK_INT(m.num_kv_heads, cases[i].kv_heads);
		CHECK(m.layer_params > 0 && m.layer_params < m.params);
		CHECK(m.params_linear > 0 && m.params_linear < m.params);
		if (cases[i].lora)
			CHECK(8 * gw__advise_lora_features(&m, &o) == (double)cases[i].lora);
	}

	/* The variants the table does not cover, by hand from the modeling files. */
	/* Falcon-RW-1B's shape (ALiBi, not parallel: 2 LayerNorms, biased, 32
	 * kv heads) against Keras Hub's falcon_refinedweb_1b_en 1,311,625,216. */
	CHECK_INT(config("{\"model_type\":\"falcon\",\"alibi\":true,\"bias\":true,\"hidden_size\":2048,"
			 "\"multi_query\":false,\"new_decoder_architecture\":false,\"num_attention_heads\":32,"
			 "\"num_hidden_layers\":24,\"parallel_attn\":false,\"vocab_size\":50304}").params, 1311625216ull);
	/* Falcon-11B style: new architecture with num_ln_in_parallel_attn 1
	 * drops ln_mlp: 2h less per layer than with the default of 2. */
#define F11(x) "{\"model_type\":\"falcon\",\"hidden_size\":64,\"num_attention_heads\":4,\"num_kv_heads\":2," \
		    "\"num_hidden_layers\":3,\"new_decoder_architecture\":true,\"vocab_size\":100" x "}"
	uint64_t two = config(F11("")).params;
	CHECK_INT(two - config(F11(",\"num_ln_in_parallel_attn\":1")).params, 3 * 2 * 64);
	/* 100·64 + 3·(2·128 + 64·(64 + 2·32) + 64·64 + 2·64·256) + 128 = 142,464 */
	CHECK_INT(two, 142464ull);
	/* OPT without affine LayerNorms and biases; _remove_final_layer_norm. */
#define OPT(x) "{\"model_type\":\"opt\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4," \
		    "\"ffn_dim\":256,\"max_position_embeddings\":30,\"vocab_size\":100" x "}"
	uint64_t full = config(OPT("")).params;
	/* 100·64 + 32·64 + 2·(4·(64·64 + 64) + 2·64·256 + 256 + 64 + 4·64) + 2·64 = 108,544 */
	CHECK_INT(full, 108544ull);
	CHECK_INT(full - config(OPT(",\"enable_bias\":false,\"layer_norm_elementwise_affine\":false")).params,
		  2 * (4 * 64 + 256 + 64 + 4 * 64) + 2 * 64);
	CHECK_INT(full - config(OPT(",\"_remove_final_layer_norm\":true")).params, 2 * 64);
	/* Phi's qk_layernorm: LayerNorm(head_dim) on q and on k, per layer. */
#define PHI(x) "{\"model_type\":\"phi\",\"hidden_size\":64,\"intermediate_size\":256,\"num_attention_heads\":4," \
		    "\"num_hidden_layers\":2,\"vocab_size\":100" x "}"
	CHECK_INT(config(PHI(",\"qk_layernorm\":true")).params - config(PHI("")).params, 2 * 4 * 16);
	/* GPT-NeoX attention_bias false; GPTBigCode without multi_query. */
#define NEOX(x) "{\"model_type\":\"gpt_neox\",\"hidden_size\":64,\"intermediate_size\":256," \
		     "\"num_attention_heads\":4,\"num_hidden_layers\":2,\"vocab_size\":100" x "}"
	CHECK_INT(config(NEOX("")).params - config(NEOX(",\"attention_bias\":false")).params, 2 * (3 * 64 + 64));
	gw_model mha = config("{\"model_type\":\"gpt_bigcode\",\"multi_query\":false,\"n_embd\":64,\"n_head\":4,"
			      "\"n_layer\":2,\"vocab_size\":100,\"n_positions\":32}");
	CHECK_INT(mha.num_kv_heads, 4);
	/* = GPT-2 of the same shape: fused 3h c_attn, learned positions, tied. */
	CHECK_INT(mha.params, config("{\"model_type\":\"gpt2\",\"n_embd\":64,\"n_head\":4,\"n_layer\":2,"
				     "\"vocab_size\":100,\"n_positions\":32}").params);
	/* Llama's attention_bias (q, k, v, o) and mlp_bias (gate, up, down);
	 * Mistral builds no biases whatever the key says. */
#define LL(t, x) "{\"model_type\":\"" t "\",\"hidden_size\":64,\"intermediate_size\":128,\"num_attention_heads\":4," \
		      "\"num_key_value_heads\":2,\"num_hidden_layers\":2,\"vocab_size\":100" x "}"
	uint64_t nob = config(LL("llama", "")).params;
	CHECK_INT(config(LL("llama", ",\"attention_bias\":true,\"mlp_bias\":true")).params - nob,
		  2 * ((64 + 2 * 32 + 64) + (2 * 128 + 64)));
	CHECK_INT(config(LL("mistral", ",\"attention_bias\":true,\"mlp_bias\":true")).params, nob);
	/* Phi-3 with grouped kv heads: PEFT's qkv_proj is h in, q + 2·kv out. */
	gw_model p3 = config(LL("phi3", ""));
	CHECK_INT(p3.params, nob);
	CHECK(gw__advise_lora_features(&p3, &o) == 2.0 * (64 + 64 + 2 * 32));
	/* Wider targets on fused q+k+v: only the output projection joins the
	 * attention (o_proj, h in and out); Phi-3's MLP is gate_up_proj (h in,
	 * 2I out) and down_proj. */
	o.lora_targets = GW_LORA_ATTENTION;
	CHECK(gw__advise_lora_features(&p3, &o) == 2.0 * ((64 + 64 + 2 * 32) + (64 + 64)));
	o.lora_targets = GW_LORA_ALL_LINEAR;
	CHECK(gw__advise_lora_features(&p3, &o) ==
	      2.0 * ((64 + 64 + 2 * 32) + (64 + 64) + (64 + 2 * 128) + (128 + 64)));
	/* Falcon-7B (multi-query, fused query_key_value): attention adds dense
	 * (4544 in, 4544 out) per layer, not k and o. */
	gw_model f7 = config("{\"model_type\":\"falcon\",\"hidden_size\":4544,\"num_attention_heads\":71,"
			     "\"multi_query\":true,\"num_hidden_layers\":32,\"vocab_size\":65024,\"parallel_attn\":true}");
	o.lora_targets = GW_LORA_ATTENTION;
	CHECK(gw__advise_lora_features(&f7, &o) == 32.0 * ((4544 + 4544 + 2 * 64) + (4544 + 4544)));
	o.lora_targets = GW_LORA_QV;
#undef F11
#undef OPT
#undef PHI
#undef NEOX
#undef LL
}


/* --params with a shape: defaults, counting, keeping the given count. */
static void test_custom_shape(void)
{
	gw_model m;

	memset(&m, 0, sizeof(m));
	m.kind = GW_MODEL_DECODER;
	m.vocab_size = 50257;
	m.hidden_size = 768;
	m.num_layers = 12;
	m.num_heads = 12;
	m.max_positions = 1024;
	m.tied_embeddings = true;
	CHECK_INT(gw_model_finish(&m), 0);
	CHECK_INT(m.params, 124439808ull);     /* counted as GPT-2 */
	CHECK_STR(m.model_type, "custom");
	m.params = 125000000;
	CHECK_INT(gw_model_finish(&m), 0);
	CHECK_INT(m.params, 125000000);        /* the user's count is kept */
	m.hidden_size = 770;                   /* not a multiple of 12 heads */
	m.head_dim = 0;
	CHECK_INT(gw_model_finish(&m), GW_EINVAL);
	memset(&m, 0, sizeof(m));
	CHECK_INT(gw_model_finish(&m), GW_EINVAL);
	CHECK_INT(gw_model_finish(NULL), GW_EINVAL);
}

/* The family traits (model.c's table): a few rows as memory.c used to
 * list them, and none for a shape with no known model_type. */
static void test_traits(void)
{
	gw_model m;

	memset(&m, 0, sizeof(m));
	CHECK_INT(gw__advise_traits(&m), 0);
	gw__strlcpy(m.model_type, "custom", sizeof(m.model_type));
	CHECK_INT(gw__advise_traits(&m), 0);
	gw__strlcpy(m.model_type, "Phi3", sizeof(m.model_type));   /* exact names only */
	CHECK_INT(gw__advise_traits(&m), 0);
	gw__strlcpy(m.model_type, "phi3", sizeof(m.model_type));
	CHECK_INT(gw__advise_traits(&m), GW__TRAIT_FUSED_QKV | GW__TRAIT_FUSED_GATE_UP | GW__TRAIT_FUSED_ROTARY |
					 GW__TRAIT_SDPA_GQA | GW__TRAIT_LOGITS_FLOAT | GW__TRAIT_SOFTMAX_FP32);
	gw__strlcpy(m.model_type, "llama", sizeof(m.model_type));
	CHECK_INT(gw__advise_traits(&m), GW__TRAIT_RMS_UPCAST | GW__TRAIT_LOGITS_FLOAT | GW__TRAIT_SOFTMAX_FP32 |
					 GW__TRAIT_AWQ_LLAMA_BLOCK);
	/* AutoAWQ 0.2.7 fuses these into LlamaLikeBlock, not Mixtral or Falcon */
	static const char *const awq_llama[] = { "llama", "mistral", "qwen2", "gemma", "starcoder2", "llava" };
	for (size_t i = 0; i < GW_ARRAY_SIZE(awq_llama); i++) {
		gw__strlcpy(m.model_type, awq_llama[i], sizeof(m.model_type));
		CHECK(gw__advise_has(&m, GW__TRAIT_AWQ_LLAMA_BLOCK));
	}
	gw__strlcpy(m.model_type, "mixtral", sizeof(m.model_type));
	CHECK(!gw__advise_has(&m, GW__TRAIT_AWQ_LLAMA_BLOCK));
	gw__strlcpy(m.model_type, "falcon", sizeof(m.model_type));
	CHECK(!gw__advise_has(&m, GW__TRAIT_AWQ_LLAMA_BLOCK));
	gw__strlcpy(m.model_type, "llama", sizeof(m.model_type));
	/* eager softmax in fp32 whatever the activation type: not GPT-2's,
	 * BERT's, T5's or gpt-oss's (its sink softmax keeps the logits' type) */
	static const char *const sm32[] = {
		"gpt_neox", "opt", "falcon", "gptj", "phi", "gpt_bigcode", "vit", "swin", "olmo", "olmo2", "granite", "glm",
		"glm4", "cohere", "cohere2", "smollm3", "starcoder2", "ernie4_5", "exaone4", "helium", "internlm2",
		"minicpm",
	};
	static const char *const native[] = { "gpt2", "bert", "t5", "gpt_oss" };
	for (size_t i = 0; i < GW_ARRAY_SIZE(sm32); i++) {
		gw__strlcpy(m.model_type, sm32[i], sizeof(m.model_type));
		CHECK(gw__advise_has(&m, GW__TRAIT_SOFTMAX_FP32));
	}
	for (size_t i = 0; i < GW_ARRAY_SIZE(native); i++) {
		gw__strlcpy(m.model_type, native[i], sizeof(m.model_type));
		CHECK(!gw__advise_has(&m, GW__TRAIT_SOFTMAX_FP32));
	}
	gw__strlcpy(m.model_type, "bloom", sizeof(m.model_type));
	CHECK(gw__advise_has(&m, GW__TRAIT_NO_SDPA) && gw__advise_has(&m, GW__TRAIT_FUSED_QKV));
	CHECK(!gw__advise_has(&m, GW__TRAIT_FUSED_ROTARY));
	gw__strlcpy(m.model_type, "mt5", sizeof(m.model_type));
	CHECK_INT(gw__advise_traits(&m), GW__TRAIT_GELU_NEW_GATED | GW__TRAIT_RMS_HALF_INPUT | GW__TRAIT_MLP_DROPOUT);
	gw__strlcpy(m.model_type, "roberta", sizeof(m.model_type));
	CHECK_INT(gw__advise_traits(&m), GW__TRAIT_MLM_HEAD);
	gw__strlcpy(m.model_type, "resnet", sizeof(m.model_type));
	CHECK_INT(gw__advise_traits(&m), 0);
}

static gw_advise_estimate run(const gw_model *m, gw_advise_options o)
{
	gw_advise_estimate e;

	memset(&e, 0, sizeof(e));
	if (gw_advise_estimate_run(&e, m, &o) < 0)
		fprintf(stderr, "estimate: %s\n", gw_error_last());
	return e;
}

static gw_advise_options opts(gw_advise_task task, gw_precision p)
{
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;

	o.task = task;
	o.precision = p;
	o.cc_major = 8;
	o.gpu_memory_bytes = 80 * GIB;
	return o;
}

/* Each term against a hand calculation (docs/advise.md). */
/* One layer's activations of the decoder families whose blocks differ from
 * Llama's and GPT-2's, as traced on the CPU (tests/device/trace_activations.py,
 * the fixtures' widths at 2 and 4 layers, fp32, SDPA, seq 256, batch 1). */
static void test_decoder_family_layers(void)
{
	gw_advise_options o = opts(GW_TASK_TRAIN, GW_PRECISION_FP32);
	/* Phi-2 (h 2560, I 10240, 32 heads, resid_pdrop 0.1): attention and MLP
	 * read one LayerNorm: its input 4h and output 4h once; q, attention's
	 * output, k and v 4h each, a dropout mask h and the log-sum-exp 4·32;
	 * in the MLP fc1's output and gelu_new's output 2·4I, gelu_new's three
	 * more I-wide tensors 3·4I and the second mask h: 26h + 20I + 128 a
	 * token. */
	gw_model phi = config("{\"model_type\":\"phi\",\"hidden_size\":2560,\"intermediate_size\":10240,"
			      "\"num_attention_heads\":32,\"num_hidden_layers\":32,\"resid_pdrop\":0.1,"
			      "\"hidden_act\":\"gelu_new\",\"vocab_size\":51200}");
	/* GPT-J-6B (h 4096, I 16384, 16 heads, no dropout): 24h + 20I + 64. */
	gw_model gptj = config("{\"model_type\":\"gptj\",\"n_embd\":4096,\"n_head\":16,\"n_layer\":28,"
			       "\"rotary_dim\":64,\"vocab_size\":50400}");

	o.attention = GW_ATTENTION_SDPA;
	o.seq = 256;
	CHECK(gw__advise_layer_activations(&phi, &o, 256) == 256.0 * (26 * 2560 + 20 * 10240 + 128));
	CHECK(gw__advise_layer_activations(&gptj, &o, 256) == 256.0 * (24 * 4096 + 20 * 16384 + 64));
	/* OPT-350m (h 1024, ffn_dim 4096, 16 heads, dropout 0.1, post-LN):
	 * two LayerNorms' inputs and outputs 4·4h, q, k, v and attention's
	 * output 4·4h, ReLU's output (fc2's input) 4I, two masks 2h and the
	 * log-sum-exp 4·16: 34h + 4I + 64 a token. */
	gw_model opt = config("{\"model_type\":\"opt\",\"hidden_size\":1024,\"num_hidden_layers\":24,"
			      "\"num_attention_heads\":16,\"ffn_dim\":4096,\"max_position_embeddings\":2048,"
			      "\"vocab_size\":50272,\"word_embed_proj_dim\":512,\"do_layer_norm_before\":false,"
			      "\"dropout\":0.1}");
	CHECK(gw__advise_layer_activations(&opt, &o, 256) == 256.0 * (34 * 1024 + 4 * 4096 + 64));
	/* Eager: its attention_dropout is 0 beside dropout 0.1, so the scores
	 * keep the softmax output only, 4 bytes an element (not e + 1 + e). */
	CHECK(opt.dropout && opt.no_attention_dropout);
	o.attention = GW_ATTENTION_EAGER;
	CHECK(gw__advise_layer_activations(&opt, &o, 256) == 256.0 * (34 * 1024 + 4 * 4096 + 16 * 256 * 4));
	/* Before transformers 4.47 OPT's eager path clamps the masked scores
	 * with torch.max, whose backward keeps them: 4 bytes a score more in
	 * fp32 (2 in fp16: the PR #33298 rows' 2 + 4 + 2). No other family. */
	o.transformers_version = 446;
	CHECK(gw__advise_layer_activations(&opt, &o, 256) == 256.0 * (34 * 1024 + 4 * 4096 + 16 * 256 * 8));
	o.precision = GW_PRECISION_FP16;
	{
		double clamp = gw__advise_layer_activations(&opt, &o, 256);
		o.transformers_version = 447;
		CHECK(clamp - gw__advise_layer_activations(&opt, &o, 256) == 2.0 * 16 * 256 * 256);
		double gptj_new = gw__advise_layer_activations(&gptj, &o, 256);
		o.transformers_version = 446;
		CHECK(gw__advise_layer_activations(&gptj, &o, 256) == gptj_new);
	}
	o.precision = GW_PRECISION_FP32;
	o.transformers_version = 0;
	o.attention = GW_ATTENTION_SDPA;
	/* Pythia-70M (h 512, I 2048, 8 heads): the fused query_key_value's
	 * output stays beside the rotated q and k (v is a view of it): 4·(h + h)
	 * more than q, k, v alone; two LayerNorms of one input
	 * (use_parallel_residual), their input once; GELU: 36h + 8I + 32. */
	gw_model neox = config("{\"model_type\":\"gpt_neox\",\"vocab_size\":50304,\"num_hidden_layers\":6,"
			       "\"hidden_size\":512,\"intermediate_size\":2048,\"num_attention_heads\":8,"
			       "\"max_position_embeddings\":2048,\"rotary_pct\":0.25,\"use_parallel_residual\":true,"
			       "\"tie_word_embeddings\":false}");
	CHECK_INT(neox.parallel_block, 2);
	CHECK(gw__advise_layer_activations(&neox, &o, 256) == 256.0 * (36 * 512 + 8 * 2048 + 32));
	/* Falcon-7B (h 4544, I 18176, 71 heads, one key/value head of 64,
	 * parallel_attn with one LayerNorm): the norm's input and output once,
	 * q, the fused output's q and k parts, the rotated k, the ungrouped k
	 * and v, attention's output: 20h + 4·(64 + 64 + 64) + 4·71; MLP 8I. */
	gw_model falcon = config("{\"model_type\":\"falcon\",\"hidden_size\":4544,\"num_attention_heads\":71,"
				 "\"multi_query\":true,\"num_hidden_layers\":32,\"vocab_size\":65024,"
				 "\"parallel_attn\":true}");
	CHECK_INT(falcon.parallel_block, 1);
	CHECK(!falcon.alibi);
	CHECK(gw__advise_layer_activations(&falcon, &o, 256) == 256.0 * (20 * 4544 + 768 + 284 + 8 * 18176));
	/* Falcon's new architecture: ln_attn and ln_mlp over one input; a
	 * sequential (parallel_attn false) ALiBi Falcon keeps no fused output. */
	gw_model f40 = config("{\"model_type\":\"falcon\",\"hidden_size\":8192,\"num_attention_heads\":128,"
			      "\"num_kv_heads\":8,\"num_hidden_layers\":60,\"new_decoder_architecture\":true,"
			      "\"vocab_size\":65024}");
	gw_model frw = config("{\"model_type\":\"falcon\",\"hidden_size\":2048,\"num_attention_heads\":32,"
			      "\"multi_query\":false,\"num_hidden_layers\":24,\"vocab_size\":50304,"
			      "\"parallel_attn\":false,\"alibi\":true,\"bias\":true}");
	CHECK_INT(f40.parallel_block, 2);
	CHECK_INT(frw.parallel_block, 0);
	CHECK(frw.alibi);
	CHECK(gw__advise_layer_activations(&frw, &o, 256) == 256.0 * (32 * 2048 + 8 * 8192 + 4 * 32));
	CHECK_INT(phi.parallel_block, 1);
	CHECK(phi.dropout && phi.no_attention_dropout);
	CHECK_INT(gptj.parallel_block, 1);
	/* StarCoder (h 6144, I 24576, 48 heads, one key/value head of 128):
	 * SDPA keeps the key and value head as it is (enable_gqa), 4·2·128;
	 * q, k and v are views of c_attn's output, nothing more:
	 * 24h + 8I + 1024 + 4·48. */
	gw_model sc = config("{\"model_type\":\"gpt_bigcode\",\"multi_query\":true,\"n_inner\":24576,"
			     "\"n_embd\":6144,\"n_head\":48,\"n_layer\":40,\"vocab_size\":49152,\"n_positions\":8192}");
	CHECK(gw__advise_saved_kv_width(&sc, &o) == 128);
	/* GPTBigCode's attn_pdrop defaults to 0.1 (sc names none); given as 0, off. */
	CHECK(!sc.no_attention_dropout);
	gw_model sc0 = config("{\"model_type\":\"gpt_bigcode\",\"n_embd\":768,\"n_head\":12,\"n_layer\":2,"
			      "\"vocab_size\":49152,\"n_positions\":1024,\"attn_pdrop\":0.0}");
	CHECK(sc0.no_attention_dropout);
	CHECK(gw__advise_layer_activations(&sc, &o, 256) == 256.0 * (24 * 6144 + 8 * 24576 + 1024 + 192));
	/* Eager: repeat_kv of the one head is a view, kept as it is too. */
	o.attention = GW_ATTENTION_EAGER;
	CHECK(gw__advise_saved_kv_width(&sc, &o) == 128);
	o.attention = GW_ATTENTION_SDPA;
	/* The Llama family keeps the repeated width under SDPA (measured so). */
	gw_model l3 = model("llama-3-8b");
	CHECK(gw__advise_saved_kv_width(&l3, &o) == 4096);
	/* LoRA on q and v: the frozen fc1 and fc2 keep no inputs (fc1's output,
	 * gelu_new's input, stays: 4I) and the shared norm's input is still
	 * counted once; the adapters' dropout mask adds h: 25h + 16I + 64. */
	o.task = GW_TASK_LORA;
	CHECK(gw__advise_layer_activations(&gptj, &o, 256) == 256.0 * (25 * 4096 + 16 * 16384 + 64));
}

/* The Adam step's temporary of a run with options o. */
static double step_of(const gw_model *m, gw_advise_options o)
{
	gw_advise_estimate e = run(m, o);

	return gw__advise_optimizer_step(m, &e.resolved);
}

static void test_terms(void)
{
	gw_model l = model("llama-2-7b"), g = model("gpt2");
	const uint64_t P = 6738415616ull, LIN = 6476005376ull;
	gw_advise_estimate e;
	gw_advise_options o;

	/* QLoRA's NF4 with double quantisation: 4 + 8/64 + 32/(64·256) bits. */
	CHECK(gw__advise_weight_bytes(GW_WEIGHTS_NF4_DQ) == 0.5 + 0.015625 + 0.000244140625);
	CHECK(gw__advise_weight_bytes(GW_WEIGHTS_NF4) == 0.5625);
	CHECK(gw__advise_weight_bytes(GW_WEIGHTS_INT8) == 1);

	/* Inference in bf16: 2 bytes per parameter. */
	e = run(&l, opts(GW_TASK_INFER, GW_PRECISION_BF16));
	CHECK_INT(e.weights_bytes, 2 * P);
	CHECK_INT(e.gradients_bytes, 0);
	CHECK_INT(e.optimizer_bytes, 0);
	/* KV cache: 2 (k, v) × 32 layers × 4096 × 2 bytes × 2048 tokens = 1 GiB. */
	CHECK_INT(e.kv_cache_bytes, 1 * GIB);
	o = opts(GW_TASK_INFER, GW_PRECISION_BF16);
	o.seq = 8192;
	gw_model l3 = model("llama-3-8b");
	/* GQA: 8 kv heads × 128: 2 × 32 × 1024 × 2 × 8192 = 1 GiB for Llama-3-8B at 8k. */
	CHECK_INT(run(&l3, o).kv_cache_bytes, 1 * GIB);
	/* BERT-base inference, fp32, eager, batch 32 × 256: the residual and
	 * its normed copy (2·4·pbh), then attention's q, k, v, its output and
	 * the output's contiguous copy (4·pb·5h) with the fp32 scores and
	 * softmax (8·n·p²·b), larger than the MLP (2·4·pb·4h); no LM head. */
	{
		gw_model bb = model("bert-base-uncased");
		double pb = 256.0 * 32, h = 768, n = 12;
		o = opts(GW_TASK_INFER, GW_PRECISION_FP32);
		o.attention = GW_ATTENTION_EAGER;
		o.batch = 32;
		o.seq = 256;
		CHECK_INT(run(&bb, o).activations_bytes, (uint64_t)(8 * pb * h + 4 * pb * 5 * h + 8 * n * 256 * pb));
	}

	/* ViT-B/16 inference, fp32, SDPA, batch 8: the four width-h tensors
	 * ViTLayer still references while its MLP runs (4·4·sbh), the MLP's
	 * output and GELU (4·sb·2I, larger than q, k, v), and the image. */
	{
		gw_model vb = model("vit-base-patch16-224");
		double sb = 197.0 * 8, h = 768, i = 3072;
		o = opts(GW_TASK_INFER, GW_PRECISION_FP32);
		o.batch = 8;
		o.image = 224;
		CHECK_INT(run(&vb, o).activations_bytes, (uint64_t)(4 * 4 * sb * h + 4 * sb * 2 * i + 4 * 8 * 3 * 224.0 * 224));
	}

	/* Full training with autocast: fp32 weights + the half copies of the
	 * linears, fp32 gradients, AdamW m and v in fp32 (fused AdamW: its step
	 * adds nothing, see below). */
	o = opts(GW_TASK_TRAIN, GW_PRECISION_AMP_BF16);
	o.optimizer = GW_OPTIMIZER_ADAMW_FUSED;
	e = run(&l, o);
	CHECK_INT(e.weights_bytes, 4 * P + 2 * LIN);
	CHECK_INT(e.gradients_bytes, 4 * P);
	CHECK_INT(e.optimizer_bytes, 8 * P);
	CHECK_INT(e.trainable_params, P);
	/* Pure bf16: 2 + 2 + 4 bytes. */
	o = opts(GW_TASK_TRAIN, GW_PRECISION_BF16);
	o.optimizer = GW_OPTIMIZER_ADAMW_FUSED;
	e = run(&l, o);
	CHECK_INT(e.weights_bytes, 2 * P);
	CHECK_INT(e.gradients_bytes, 2 * P);
	CHECK_INT(e.optimizer_bytes, 4 * P);
	/* ZeRO paper: pure half with DeepSpeed keeps 12 bytes (fp32 master, m, v), over N GPUs. */
	o = opts(GW_TASK_TRAIN, GW_PRECISION_BF16);
	o.gpus = 4;
	o.strategy = GW_STRATEGY_ZERO1;
	e = run(&l, o);
	CHECK_INT(e.optimizer_bytes, 12 * P / 4);
	CHECK_INT(e.gradients_bytes, 2 * P);
	o.strategy = GW_STRATEGY_ZERO2;
	CHECK_INT(run(&l, o).gradients_bytes, 2 * P / 4);
	o.strategy = GW_STRATEGY_ZERO3;
	CHECK_INT(run(&l, o).weights_bytes, 2 * P / 4);
	o.strategy = GW_STRATEGY_DDP;          /* DDP's buckets: a second copy */
	CHECK_INT(run(&l, o).gradients_bytes, 2 * 2 * P);
	o.offload = GW_OFFLOAD_OPTIMIZER;
	CHECK_INT(run(&l, o).optimizer_bytes, 0);

	/* Optimizers on fp32 parameters. */
	o = opts(GW_TASK_TRAIN, GW_PRECISION_FP32);
	o.optimizer = GW_OPTIMIZER_SGD;
	CHECK_INT(run(&g, o).optimizer_bytes, 0);
	o.optimizer = GW_OPTIMIZER_SGD_MOMENTUM;
	CHECK_INT(run(&g, o).optimizer_bytes, 4 * 124439808ull);
	o.optimizer = GW_OPTIMIZER_ADAMW_8BIT;
	CHECK_INT(run(&g, o).optimizer_bytes, 124439808ull * 2 + 124439808ull * 8 / 2048);
	o.optimizer = GW_OPTIMIZER_ADAFACTOR;
	CHECK_INT(run(&g, o).optimizer_bytes, 4 * g.params_factored);
	CHECK(g.params_factored < g.params / 100);

	/* LoRA r=8 on q, v: fp32 adapters, their gradients and AdamW states. */
	o = opts(GW_TASK_LORA, GW_PRECISION_AMP_BF16);
	e = run(&l, o);
	CHECK_INT(e.trainable_params, 4194304);
	CHECK_INT(e.weights_bytes, 2 * P + 4 * 4194304ull);
	CHECK_INT(e.gradients_bytes, 4 * 4194304ull);
	CHECK_INT(e.optimizer_bytes, 8 * 4194304ull);
	/* LoRA under FSDP on 2 GPUs with the adapters in units of their own
	 * (PEFT's wrapping): only the adapters have gradients, 1/N each, plus
	 * one layer's adapters unsharded before their reduce-scatter. */
	o.strategy = GW_STRATEGY_FSDP;
	o.gpus = 2;
	e = run(&l, o);
	CHECK_INT(e.gradients_bytes, 4 * 4194304ull / 2 + 4 * 4194304ull / 32);
	/* fsdp-mixed (LitGPT): a block holds frozen and trainable parameters in
	 * one unit, so the gradients are as if nothing were frozen, 1/N each,
	 * plus one block's unsharded gradient before its reduce-scatter. A
	 * Llama-2-7B block: 4 × 4096² (q, k, v, o) + 3 × 4096 × 11008 (MLP)
	 * + 2 × 4096 (norms) = 202,383,360 parameters, 2 bytes each. */
	o.strategy = GW_STRATEGY_FSDP_MIXED;
	e = run(&l, o);
	CHECK_INT(l.layer_params, 202383360ull);
	CHECK_INT(e.gradients_bytes, 2 * P / 2 + 2 * 202383360ull);
	/* Accumulating over micro-batches, the loop skips the sync (no_sync):
	 * FSDP keeps the whole unsharded gradient, 2 bytes × P. */
	o.grad_accum = 4;
	e = run(&l, o);
	CHECK_INT(e.gradients_bytes, 2 * P);
	CHECK(gw__advise_fsdp_gradients(&l, &e.resolved, 1000.0) == 1000.0);
	/* Full training under FSDP on 8 GPUs in bf16: 1/8 plus one block. */
	o = opts(GW_TASK_TRAIN, GW_PRECISION_BF16);
	o.strategy = GW_STRATEGY_FSDP;
	o.gpus = 8;
	CHECK_INT(run(&l, o).gradients_bytes, 2 * P / 8 + 2 * 202383360ull);
	o.grad_accum = 2;
	CHECK_INT(run(&l, o).gradients_bytes, 2 * P);
	/* Adam's step: PyTorch's foreach AdamW builds a state-sized list
	 * (bf16 here: 2 × P); fused none; transformers' AdamW one parameter at
	 * a time (the largest, the 32000 × 4096 embedding); FSDP steps on 1/N;
	 * ZeRO with FusedAdam none. It raises the peak only past the
	 * activations, which backward has freed by then. */
	o = opts(GW_TASK_TRAIN, GW_PRECISION_BF16);
	e = run(&l, o);
	CHECK(gw__advise_optimizer_step(&l, &e.resolved) == 2.0 * (double)P);
	o.optimizer = GW_OPTIMIZER_ADAMW_FUSED;
	CHECK(step_of(&l, o) == 0);
	o.optimizer = GW_OPTIMIZER_ADAMW_HF;
	CHECK(step_of(&l, o) == 2.0 * 32000 * 4096);
	o.optimizer = GW_OPTIMIZER_SGD_MOMENTUM;
	CHECK(step_of(&l, o) == 0);
	o.optimizer = GW_OPTIMIZER_ADAMW;
	o.strategy = GW_STRATEGY_FSDP;
	o.gpus = 8;
	CHECK(step_of(&l, o) == 2.0 * (double)P / 8);
	o.strategy = GW_STRATEGY_ZERO2;
	CHECK(step_of(&l, o) == 0);
	/* ZeRO-3's step (DeepSpeed stage3.py, _prepare_fp32_grad_for_sub_group):
	 * the flattened half gradient partition and its fp32 cast, 2 + 4 bytes
	 * an element of this rank's partition, at most one 1e9-element
	 * sub-group; on one GPU too. */
	o.strategy = GW_STRATEGY_ZERO3;
	CHECK(step_of(&l, o) == 6.0 * (double)P / 8);
	o.gpus = 1;
	CHECK(step_of(&l, o) == 6.0 * 1e9);
	/* ZeRO-3's contiguous gradient bucket: reduce_bucket_size (5e8) in
	 * the parameters' type for the whole run, beside the other workspaces. */
	o = opts(GW_TASK_TRAIN, GW_PRECISION_FP16);
	o.cc_major = 9;
	o.strategy = GW_STRATEGY_ZERO3;
	CHECK(gw__advise_workspace(&l, &o) == 64.0 * MIB + 2 * 5e8);
	o.strategy = GW_STRATEGY_ZERO2;   /* ZeRO-1/2: one per backward(), the same size */
	CHECK(gw__advise_workspace(&l, &o) == 64.0 * MIB + 2 * 5e8);
	o.strategy = GW_STRATEGY_DDP;
	CHECK(gw__advise_workspace(&l, &o) == 64.0 * MIB);
	o.task = GW_TASK_INFER;
	o.strategy = GW_STRATEGY_ZERO3;
	CHECK(gw__advise_workspace(&l, &o) == 64.0 * MIB);
	/* Checkpointing, 128 tokens: the activations are far below 2 × P, so
	 * the step sets the peak: optimizer_bytes = states + (step − activations). */
	o = opts(GW_TASK_TRAIN, GW_PRECISION_BF16);
	o.checkpointing = true;
	o.seq = 128;
	e = run(&l, o);
	CHECK_INT(e.optimizer_bytes, (uint64_t)(4.0 * (double)P + 2.0 * (double)P - (double)e.activations_bytes + 0.5));
	o.optimizer = GW_OPTIMIZER_ADAMW_FUSED;
	CHECK_INT(run(&l, o).optimizer_bytes, 4 * P);
	/* QLoRA: linears in NF4-DQ; under autocast prepared for k-bit training
	 * the rest (embeddings, norms, head) in fp32 and the head's bf16 copy
	 * autocast keeps for backward; pure bf16, the rest in 16 bits. */
	o = opts(GW_TASK_QLORA, GW_PRECISION_AMP_BF16);
	e = run(&l, o);
	CHECK_INT(e.resolved.weights, GW_WEIGHTS_NF4_DQ);
	CHECK_INT(e.weights_bytes, (uint64_t)((double)LIN * (0.5 + 1.0 / 64 + 4.0 / 16384) + 4.0 * (double)(P - LIN) +
					      2.0 * 32000 * 4096 + 4.0 * 4194304 + 0.999));
	o = opts(GW_TASK_QLORA, GW_PRECISION_BF16);
	e = run(&l, o);
	CHECK_INT(e.weights_bytes, (uint64_t)((double)LIN * (0.5 + 1.0 / 64 + 4.0 / 16384) + 2.0 * (double)(P - LIN) +
					      4.0 * 4194304 + 0.999));
	/* What checkpointing keeps of each layer: its fp32 input once k-bit
	 * preparation made the residual stream fp32 (4·s·b·h a layer), 16-bit
	 * otherwise; FSDP's sharded QLoRA is not prepared. */
	o = opts(GW_TASK_QLORA, GW_PRECISION_AMP_BF16);
	o.checkpointing = true;
	o.seq = 1024;
	{
		double amp_in = run(&l, o).activations_bytes;
		o.precision = GW_PRECISION_BF16;
		double bf16_in = run(&l, o).activations_bytes;
		o.precision = GW_PRECISION_AMP_BF16;
		o.strategy = GW_STRATEGY_FSDP;
		o.gpus = 2;
		double sharded = run(&l, o).activations_bytes;
		CHECK(amp_in - sharded == 2.0 * 1024 * 4096 * 32);
		CHECK(amp_in > bf16_in);
	}

	/* Korthikanti et al. eq. 1: sbh(34 + 5as/h) for a GPT-2 layer in pure 16
	 * bits, eager attention, plus what GPT-2's gelu_new (the tanh GELU as
	 * tensor operations) keeps beyond one GELU kernel: tanh's output, 1 + tanh
	 * and 0.5·x, each 2·4h bytes a token = 24·h. */
	o = opts(GW_TASK_TRAIN, GW_PRECISION_BF16);
	o.attention = GW_ATTENTION_EAGER;
	o.seq = 1024;
	CHECK(gw__advise_layer_activations(&g, &o, 1024) == 1024.0 * 768 * (34 + 24 + 5.0 * 12 * 1024 / 768));
	/* Under autocast the two LayerNorms keep fp32 inputs (+2·2·sbh) and the
	 * s² part is the fp32 softmax output, the dropout mask and the matmul's
	 * half-precision copy: 4 + 1 + 2 = 7 bytes an element; gelu_new's tanh
	 * branch is fp32 (torch.pow autocasts to fp32): (4 + 4 + 2)·4h = 40·h. */
	o.precision = GW_PRECISION_AMP_BF16;
	CHECK(gw__advise_layer_activations(&g, &o, 1024) == 1024.0 * 768 * (38 + 40 + 7.0 * 12 * 1024 / 768));
	/* SDPA, no dropout, SwiGLU, Llama-2-7B, s=2048, b=1, autocast:
	 * attention 4·s·h (fp32 norm input) + 2·s·(h+2q+2kv) + 4·n·s,
	 * MLP 4·s·h + 2·s·h + 2·s·4·I; and autocast casts the fp32 normed
	 * input anew for each projection that reads it (only weights are
	 * cached): q, k and v three copies, gate and up two, 2·s·3·h more;
	 * the RMSNorms' `weight * normed` keeps the fp32 normed tensor for
	 * the weight's gradient, which the casts do not share: 4·s·h each. */
	o.attention = GW_ATTENTION_SDPA;
	o.weights = GW_WEIGHTS_FP32;
	CHECK(gw__advise_layer_activations(&l, &o, 2048) ==
	      4.0 * 2048 * 4096 + 2.0 * 2048 * 5 * 4096 + 4.0 * 32 * 2048 + 4.0 * 2048 * 4096 + 2.0 * 2048 * 4096 +
		      2.0 * 2048 * 4 * 11008 + 2.0 * 2048 * 3 * 4096 + 2 * 4.0 * 2048 * 4096);
	/* Those copies need fp32 weights (a 16-bit RMSNorm weight makes the
	 * normed input half already) and trainable projections (LoRA's frozen
	 * ones keep no input). */
	o.weights = GW_WEIGHTS_BF16;
	CHECK(gw__advise_layer_activations(&l, &o, 2048) ==
	      4.0 * 2048 * 4096 + 2.0 * 2048 * 5 * 4096 + 4.0 * 32 * 2048 + 4.0 * 2048 * 4096 + 2.0 * 2048 * 4096 +
		      2.0 * 2048 * 4 * 11008);
	o.task = GW_TASK_LORA;
	o.weights = GW_WEIGHTS_FP32;
	{
		double lora = gw__advise_layer_activations(&l, &o, 2048);
		o.weights = GW_WEIGHTS_BF16;
		CHECK(gw__advise_layer_activations(&l, &o, 2048) == lora);
	}
	o.task = GW_TASK_TRAIN;
	o.weights = GW_WEIGHTS_AUTO;
	/* Pure bf16: the Llama RMSNorm still keeps its fp32 upcast, the same bytes. */
	o.precision = GW_PRECISION_BF16;
	CHECK(gw__advise_layer_activations(&l, &o, 2048) ==
	      4.0 * 2048 * 4096 + 2.0 * 2048 * 5 * 4096 + 4.0 * 32 * 2048 + 4.0 * 2048 * 4096 + 2.0 * 2048 * 4096 +
		      2.0 * 2048 * 4 * 11008);
	/* Eager attention in pure bf16: the Llama family's softmax runs in fp32
	 * (softmax(..., dtype=torch.float32).to(query.dtype)), so a score keeps
	 * the fp32 probabilities and their bf16 cast, 4 + 2 bytes (no dropout),
	 * where SDPA keeps a 4-byte log-sum-exp per head and token; GPT-2's
	 * softmax keeps the scores' type (Korthikanti's count above). */
	{
		double sdpa = gw__advise_layer_activations(&l, &o, 2048);
		o.attention = GW_ATTENTION_EAGER;
		CHECK(gw__advise_layer_activations(&l, &o, 2048) - sdpa == 32.0 * 2048 * 2048 * 6 - 4.0 * 32 * 2048);
		o.precision = GW_PRECISION_FP16;
		CHECK(gw__advise_layer_activations(&l, &o, 2048) - sdpa == 32.0 * 2048 * 2048 * 6 - 4.0 * 32 * 2048);
		o.precision = GW_PRECISION_BF16;
		o.attention = GW_ATTENTION_SDPA;
	}

	/* LoRA: the frozen MLP projections' inputs are not kept: 4·s·h + 2·s·3·I;
	 * the adapters' dropout keeps its mask beside the dropped copy of the
	 * attention input (which replaces the input itself): + 1·s·h. */
	o.task = GW_TASK_LORA;
	CHECK(gw__advise_lora_input(&o) == 1);
	CHECK(gw__advise_layer_activations(&l, &o, 2048) ==
	      4.0 * 2048 * 4096 + 2.0 * 2048 * 5 * 4096 + 4.0 * 32 * 2048 + 1.0 * 2048 * 4096 + 4.0 * 2048 * 4096 +
		      2.0 * 2048 * 3 * 11008);
	/* QLoRA with a current bitsandbytes (0.43.2 on): its 4-bit matmul keeps
	 * nothing of its input either, the same bytes as LoRA. */
	o.task = GW_TASK_QLORA;
	o.weights = GW_WEIGHTS_NF4;
	CHECK(gw__advise_lora_input(&o) == 1);
	CHECK(gw__advise_layer_activations(&l, &o, 2048) ==
	      4.0 * 2048 * 4096 + 2.0 * 2048 * 5 * 4096 + 4.0 * 32 * 2048 + 1.0 * 2048 * 4096 + 4.0 * 2048 * 4096 +
		      2.0 * 2048 * 3 * 11008);
	o.bitsandbytes_version = 4302;
	CHECK(gw__advise_lora_input(&o) == 1);
	/* Before 0.43.2 it saved its input anyway (ctx.tensors = (A, B)): as
	 * full training, plus the adapters' dropped copy and mask: (2 + 1)·s·h. */
	o.bitsandbytes_version = 4301;
	CHECK(gw__advise_lora_input(&o) == 3);
	CHECK(gw__advise_layer_activations(&l, &o, 2048) ==
	      4.0 * 2048 * 4096 + 2.0 * 2048 * 5 * 4096 + 4.0 * 32 * 2048 + 3.0 * 2048 * 4096 + 4.0 * 2048 * 4096 +
		      2.0 * 2048 * 4096 + 2.0 * 2048 * 4 * 11008);
	/* 8-bit layers (MatMul8bitLt) keep it whatever the release. */
	o.bitsandbytes_version = 0;
	o.weights = GW_WEIGHTS_INT8;
	CHECK(gw__advise_lora_input(&o) == 3);
	o.weights = GW_WEIGHTS_NF4;
	/* All linear layers adapted (LoRA, bf16): the output projection's input
	 * (q wide) and, in the MLP, gate's and up's dropped copies of the MLP
	 * input and down's of the product, each with its mask: 3 bytes an
	 * element beyond the q/v case; QLoRA keeps bitsandbytes' inputs too. */
	o.task = GW_TASK_LORA;
	o.weights = GW_WEIGHTS_BF16;
	o.lora_targets = GW_LORA_ALL_LINEAR;
	CHECK(gw__advise_lora_attention_extra(&l, &o) == 3.0 * 4096);
	CHECK(gw__advise_lora_mlp_extra(&l, &o) == 3.0 * (2 * 4096 + 11008));
	CHECK(gw__advise_layer_activations(&l, &o, 2048) ==
	      4.0 * 2048 * 4096 + 2.0 * 2048 * 5 * 4096 + 4.0 * 32 * 2048 + 1.0 * 2048 * 4096 + 4.0 * 2048 * 4096 +
		      2.0 * 2048 * 3 * 11008 + 3.0 * 2048 * 4096 + 3.0 * 2048 * (2 * 4096 + 11008));
	o.lora_targets = GW_LORA_ATTENTION;
	CHECK(gw__advise_lora_mlp_extra(&l, &o) == 0);
	CHECK(gw__advise_lora_attention_extra(&l, &o) == 3.0 * 4096);
	o.lora_targets = GW_LORA_QV;
	CHECK(gw__advise_lora_attention_extra(&l, &o) == 0);
	o.task = GW_TASK_TRAIN;
	o.lora_targets = GW_LORA_ALL;
	CHECK(gw__advise_lora_attention_extra(&l, &o) == 0 && gw__advise_lora_mlp_extra(&l, &o) == 0);
	o.lora_targets = GW_LORA_QV;
	o.task = GW_TASK_QLORA;
	o.weights = GW_WEIGHTS_NF4;
	/* fp32 QLoRA compute (bitsandbytes 0.41): the dropped copy is 4 bytes. */
	o.precision = GW_PRECISION_FP32;
	o.bitsandbytes_version = 4101;
	CHECK(gw__advise_lora_input(&o) == 5);
	o.bitsandbytes_version = 0;
	o.precision = GW_PRECISION_BF16;
	o.task = GW_TASK_TRAIN;
	o.weights = GW_WEIGHTS_BF16;
	CHECK(gw__advise_lora_input(&o) == 0);

	/* Grouped-query attention (Llama-3-8B: 32 heads, 8 kv heads of 128):
	 * SDPA and eager keep keys and values repeated to the 32 query heads
	 * (repeat_kv), FlashAttention-2 at the 8 kv heads. Layer in bf16, SDPA:
	 * 4·s·h (RMSNorm fp32) + 2·s·(h + q + 2·4096 + q) + 4·n·s, MLP
	 * 4·s·h + 2·s·h + 2·s·4·I (I = 14336). */
	gw_model g3 = model("llama-3-8b");
	o.attention = GW_ATTENTION_SDPA;
	CHECK(gw__advise_saved_kv_width(&g3, &o) == 4096);
	CHECK(gw__advise_layer_activations(&g3, &o, 2048) ==
	      4.0 * 2048 * 4096 + 2.0 * 2048 * (4096 + 4096 + 2 * 4096 + 4096) + 4.0 * 32 * 2048 +
		      4.0 * 2048 * 4096 + 2.0 * 2048 * 4096 + 2.0 * 2048 * 4 * 14336);
	o.attention = GW_ATTENTION_FLASH;
	CHECK(gw__advise_saved_kv_width(&g3, &o) == 1024);
	CHECK(gw__advise_layer_activations(&g3, &o, 2048) ==
	      4.0 * 2048 * 4096 + 2.0 * 2048 * (4096 + 4096 + 2 * 1024 + 4096) + 4.0 * 32 * 2048 +
		      4.0 * 2048 * 4096 + 2.0 * 2048 * 4096 + 2.0 * 2048 * 4 * 14336);

	/* An encoder-decoder decoder layer over t = 128 target tokens reading
	 * s = 512 source tokens (t5-small: h = q = kv = 512, 8 heads, d_ff
	 * 2048 with ReLU, dropout on), fp32, eager, batch 1: self-attention
	 * over t (scores t × t), cross-attention with queries over t and keys
	 * and values over s (scores t × s), the MLP over t. Norm inputs and
	 * activations 4 bytes; s² parts e + d + d·e = 9 bytes an element; the
	 * MLP's dropout between ReLU and wo keeps an I-wide mask. */
	gw_model t5 = model("t5-small");
	o = opts(GW_TASK_TRAIN, GW_PRECISION_FP32);
	o.attention = GW_ATTENTION_EAGER;
	{
		double t = 128, s = 512, h = 512, n = 8, i = 2048;
		double self = 4 * t * h + 4 * t * (h + 2 * h) + 4 * t * 2 * h + t * h + n * t * t * 9;
		double cross = 4 * t * h + 4 * t * (h + 2 * h) + 4 * s * 2 * h + t * h + n * s * t * 9;
		double mlp = 4 * t * h + 4 * t * h + 4 * t * 2 * i + t * h + t * i;
		CHECK(t5.dropout && !t5.gated_mlp && t5.hidden_size == 512 && t5.intermediate_size == 2048);
		CHECK(gw__advise_decoder_layer_activations(&t5, &o, t, s) == self + cross + mlp);
		/* Under autocast with fp32 weights, beside what 16-bit weights
		 * keep: self-attention's k and v keep their own casts of the fp32
		 * normed input (2·2·t·h), cross-attention's k and v each a cast of
		 * the fp32 encoder output (2·2·s·h), and each of the three
		 * T5LayerNorms' weight product its fp32 normed tensor (3·4·t·h). */
		o.precision = GW_PRECISION_AMP_BF16;
		o.weights = GW_WEIGHTS_BF16;
		double half = gw__advise_decoder_layer_activations(&t5, &o, t, s);
		o.weights = GW_WEIGHTS_FP32;
		CHECK(gw__advise_decoder_layer_activations(&t5, &o, t, s) - half == 2 * 2 * t * h + 2 * 2 * s * h + 3 * 4 * t * h);
		/* In pure bf16 T5LayerNorm keeps the fp32 copy it squares and
		 * the bf16 input it multiplies: 4 + 2 bytes, three times. */
		o.precision = GW_PRECISION_BF16;
		o.weights = GW_WEIGHTS_BF16;
		CHECK(gw__advise_norm_bytes(&t5, &o) == 6 && gw__advise_norm_bytes(&g, &o) == 2);
		CHECK(gw__advise_norm_bytes(&l, &o) == 4);
		o.precision = GW_PRECISION_FP32;
		o.weights = GW_WEIGHTS_AUTO;
		/* LoRA's v adapter reads the encoder output: its mask over s too. */
		o.task = GW_TASK_LORA;
		mlp = 4 * t * h + 4 * t * i + t * h + t * i;
		CHECK(gw__advise_decoder_layer_activations(&t5, &o, t, s) ==
		      self + t * h + cross + t * h + s * h + mlp);
	}
	/* BERT's masked-LM head over 8 × 512 tokens: the dense's, GELU's,
	 * LayerNorm's and decoder's inputs (3e + norm bytes)·sbh, the logits
	 * and the loss's copies: pure fp16 2 + 2 bytes a logit (BERT keeps its
	 * logits' type), autocast 2 + 4 + 4 (CrossEntropyLoss in fp32). */
	{
		gw_model bm = model("bert-base-uncased"), bl = bm;
		double sb = 8.0 * 512, h = 768, V = 30522;
		CHECK_INT(gw_model_use_lm_head(&bl), 0);
		o = opts(GW_TASK_TRAIN, GW_PRECISION_FP16);
		o.batch = 8;
		o.seq = 512;
		o.attention = GW_ATTENTION_EAGER;
		CHECK_INT(run(&bl, o).activations_bytes - run(&bm, o).activations_bytes,
			  (uint64_t)(8 * sb * h + 4 * sb * V));
		o.precision = GW_PRECISION_AMP_FP16;
		CHECK_INT(run(&bl, o).activations_bytes - run(&bm, o).activations_bytes,
			  (uint64_t)(10 * sb * h + 10 * sb * V));
		/* fill-mask inference: every token's logits, in fp16 */
		o = opts(GW_TASK_INFER, GW_PRECISION_FP16);
		o.batch = 8;
		o.seq = 512;
		CHECK_INT(run(&bl, o).activations_bytes - run(&bm, o).activations_bytes, (uint64_t)(2 * sb * V));
	}
	/* --decoder-seq: the default is --seq; a shorter target needs less;
	 * only encoder-decoder training takes it. */
	o = opts(GW_TASK_TRAIN, GW_PRECISION_AMP_BF16);
	o.seq = 512;
	e = run(&t5, o);
	CHECK_INT(e.resolved.decoder_seq, 512);
	o.decoder_seq = 512;
	CHECK_INT(run(&t5, o).peak_allocated_bytes, e.peak_allocated_bytes);
	o.decoder_seq = 128;
	CHECK(run(&t5, o).activations_bytes < e.activations_bytes);
	o.checkpointing = true;
	CHECK(run(&t5, o).activations_bytes < run(&t5, (o.decoder_seq = 512, o)).activations_bytes);
	o.checkpointing = false;
	o.decoder_seq = UINT16_MAX;
	CHECK_INT(gw_advise_estimate_run(&e, &t5, &o), 0);
	/* A source longer than 16 bits: the target defaults to it, whole. */
	o.decoder_seq = 0;
	o.seq = 70000;
	e = run(&t5, o);
	CHECK_INT(e.resolved.decoder_seq, 0);
	o.decoder_seq = UINT16_MAX;
	CHECK(e.activations_bytes > run(&t5, o).activations_bytes);
	o.seq = 512;
	o.decoder_seq = 128;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	CHECK(strstr(gw_error_last(), "--decoder-seq") != NULL);
	o.task = GW_TASK_INFER;
	CHECK_INT(gw_advise_estimate_run(&e, &t5, &o), GW_EINVAL);
	o.decoder_seq = 0;
	CHECK_INT(gw_advise_estimate_run(&e, &t5, &o), 0);
	CHECK_INT(e.resolved.decoder_seq, 0);
	e = run(&l, opts(GW_TASK_TRAIN, GW_PRECISION_AMP_BF16));
	CHECK_INT(e.resolved.decoder_seq, 0);

	/* Workspaces by architecture: cuBLAS + cuBLASLt. */
	o = opts(GW_TASK_INFER, GW_PRECISION_BF16);
	o.cc_major = 9;
	CHECK(gw__advise_workspace(&l, &o) == 64.0 * MIB);
	o.cc_major = 7;
	CHECK(gw__advise_workspace(&l, &o) == 8.0 * MIB + 128 * 1024 + 1 * MIB);
	o.cc_major = 8;
	o.gpu_memory_bytes = 16 * GIB;
	CHECK(gw__advise_workspace(&l, &o) == 8.0 * MIB + 128 * 1024 + 1 * MIB);

	/* The peaks: allocated = the sum, reserved ≥ allocated, device adds the context. */
	e = run(&l, opts(GW_TASK_LORA, GW_PRECISION_AMP_BF16));
	CHECK_INT(e.peak_allocated_bytes, e.weights_bytes + e.gradients_bytes + e.optimizer_bytes +
			  e.activations_bytes + e.kv_cache_bytes + e.workspace_bytes);
	CHECK(e.peak_reserved_bytes > e.peak_allocated_bytes);
	CHECK_INT(e.peak_device_bytes, e.peak_reserved_bytes + e.cuda_context_bytes);
	CHECK_INT(e.cuda_context_bytes, 426 * MIB);
}

static void test_auto(void)
{
	gw_model l = model("llama-2-7b"), t5 = model("t5-small");
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_estimate e;

	e = run(&l, o);
	CHECK_INT(e.resolved.precision, GW_PRECISION_AMP_BF16);     /* unknown GPU: a current one */
	CHECK_INT(e.resolved.weights, GW_WEIGHTS_FP32);
	CHECK_INT(e.resolved.seq, 2048);
	CHECK_INT(e.resolved.attention, GW_ATTENTION_SDPA);
	o.cc_major = 7;
	CHECK_INT(run(&l, o).resolved.precision, GW_PRECISION_AMP_FP16);
	o.cc_major = 6;
	CHECK_INT(run(&l, o).resolved.precision, GW_PRECISION_FP32);
	o.cc_major = 8;
	o.task = GW_TASK_INFER;
	CHECK_INT(run(&l, o).resolved.weights, GW_WEIGHTS_BF16);
	CHECK_INT(run(&t5, o).resolved.attention, GW_ATTENTION_EAGER);
	CHECK_INT(run(&t5, o).resolved.seq, 512);
	/* BLOOM has no SDPA in transformers (no _supports_sdpa): eager. */
	gw_model bloom = config("{\"model_type\":\"bloom\",\"vocab_size\":250880,\"hidden_size\":1024,"
				"\"n_layer\":24,\"n_head\":16}");
	CHECK_INT(run(&bloom, o).resolved.attention, GW_ATTENTION_EAGER);
	o.attention = GW_ATTENTION_SDPA;
	CHECK_INT(run(&bloom, o).resolved.attention, GW_ATTENTION_SDPA);   /* what the user asked */
}

static uint64_t peak(const gw_model *m, gw_advise_options o)
{
	return run(m, o).peak_device_bytes;
}

/* More batch or sequence → more; checkpointing, lower precision, ZeRO
 * stages, smaller weights → less. */
static void test_monotonic(void)
{
	const char *names[] = { "llama-2-7b", "gpt2", "bert-base-uncased", "t5-small", "qwen2.5-0.5b", "gemma-2b" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		gw_model m = model(names[i]);
		for (int task = GW_TASK_TRAIN; task <= GW_TASK_INFER; task++) {
			gw_advise_options o = opts((gw_advise_task)task, GW_PRECISION_AMP_BF16), p;
			if (task == GW_TASK_INFER)
				o.precision = GW_PRECISION_BF16;
			o.seq = 256;
			for (uint64_t b = 1; b < 64; b *= 2) {
				p = o;
				p.batch = b;
				uint64_t a = peak(&m, p);
				p.batch = b + 1;
				CHECK(peak(&m, p) > a);
			}
			p = o;
			p.seq = 512;
			CHECK(peak(&m, p) > peak(&m, o));
			if (task != GW_TASK_INFER) {
				p = o;
				p.checkpointing = true;
				p.batch = 8;
				gw_advise_options q = p;
				q.checkpointing = false;
				CHECK(peak(&m, p) < peak(&m, q));
				/* FSDP: more GPUs never need more; accumulating
				 * (no_sync, unsharded gradients) never less. */
				p = o;
				p.strategy = GW_STRATEGY_FSDP;
				p.gpus = 2;
				q = p;
				q.gpus = 8;
				CHECK(peak(&m, q) < peak(&m, p));
				q = p;
				q.grad_accum = 4;
				CHECK(peak(&m, q) > peak(&m, p));
				/* Flash keeps GQA's kv heads, SDPA the repeated ones. */
				p = o;
				p.attention = GW_ATTENTION_FLASH;
				q = o;
				q.attention = GW_ATTENTION_SDPA;
				CHECK(peak(&m, p) <= peak(&m, q));
			}
		}
		/* Each wider choice of LoRA targets adds adapters and their
		 * inputs; the LM head only where there is one (not BERT). */
		for (int task = GW_TASK_LORA; task <= GW_TASK_QLORA; task++) {
			gw_advise_options lo = opts((gw_advise_task)task, GW_PRECISION_BF16), wider;
			lo.seq = 256;
			if (task == GW_TASK_QLORA)
				lo.weights = GW_WEIGHTS_NF4;
			for (int t = GW_LORA_QV; t < GW_LORA_ALL; t++) {
				lo.lora_targets = (uint8_t)t;
				wider = lo;
				wider.lora_targets = (uint8_t)(t + 1);
				if (wider.lora_targets == GW_LORA_ALL && m.kind == GW_MODEL_ENCODER)
					CHECK(peak(&m, wider) == peak(&m, lo));
				else
					CHECK(peak(&m, wider) > peak(&m, lo));
			}
		}
		gw_advise_options f = opts(GW_TASK_TRAIN, GW_PRECISION_FP32), h = f;
		h.precision = GW_PRECISION_BF16;
		CHECK(peak(&m, h) < peak(&m, f));
		f = opts(GW_TASK_INFER, GW_PRECISION_FP32);
		h = f;
		h.precision = GW_PRECISION_BF16;
		CHECK(peak(&m, h) < peak(&m, f));
		gw_advise_options w = h;
		w.weights = GW_WEIGHTS_INT8;
		CHECK(peak(&m, w) < peak(&m, h));
		gw_advise_options w4 = h;
		w4.weights = GW_WEIGHTS_NF4;
		CHECK(peak(&m, w4) < peak(&m, w));
		uint64_t last = UINT64_MAX;
		for (int s = GW_STRATEGY_DDP; s <= GW_STRATEGY_ZERO3; s++) {
			gw_advise_options z = opts(GW_TASK_TRAIN, GW_PRECISION_BF16);
			if (s == GW_STRATEGY_FSDP)
				continue;
			z.gpus = 8;
			z.strategy = (gw_strategy)s;
			/* DeepSpeed's gradient bucket (5e8 bf16 elements, any
			 * model's size) aside, and ZeRO-3's reduce-scatter copy
			 * of it in its own stream's pool (min(5e8, trainable)
			 * elements, reserved), each stage needs less. */
			uint64_t bucket = s >= GW_STRATEGY_ZERO1 ? 1000000000ull : 0;
			if (s == GW_STRATEGY_ZERO3)
				bucket += 2 * (m.params < 500000000ull ? m.params : 500000000ull);
			CHECK(peak(&m, z) - bucket < last);
			last = peak(&m, z) - bucket;
		}
	}
}

static void test_bad_options(void)
{
	gw_model l = model("llama-2-7b");
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_estimate e;

	memset(&e, 0x5a, sizeof(e));
	o.batch = 0;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	CHECK(strstr(gw_error_last(), "--batch") != NULL);
	CHECK(((unsigned char *)&e)[0] == 0x5a);
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.seq = 1ull << 40;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.task = GW_TASK_INFER;
	o.seq = 100;
	o.new_tokens = 100;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.weights = GW_WEIGHTS_NF4;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	CHECK(strstr(gw_error_last(), "qlora") != NULL);
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.task = GW_TASK_QLORA;
	o.weights = GW_WEIGHTS_BF16;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.offload = GW_OFFLOAD_PARAMS;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.version = 99;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.precision = (gw_precision)77;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	/* libgpuwise.so.1 reads version 5 on (docs/abi.md: 1.0.0 grew the
	 * struct); a caller's reserved fields must be 0, so that a later
	 * version can give them a meaning. */
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.version = 4;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	CHECK(strstr(gw_error_last(), "version 4") != NULL);
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.reserved[2] = 1;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.bitsandbytes_version = 3600;   /* not a release gpuwise models */
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.torch_version = 20;   /* not major·100 + minor */
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	/* The reserved room ends the struct: a field taken from it later moves
	 * nothing before it, nor the structs that embed this one. */
	CHECK_INT(offsetof(gw_advise_options, reserved) + sizeof(o.reserved), sizeof(gw_advise_options));
	CHECK(offsetof(gw_advise_options, torch_version) > offsetof(gw_advise_options, image));
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.task = GW_TASK_LORA;
	o.lora_targets = 9;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	/* Wider targets are modelled for text models only. */
	gw_model vit = model("vit-base-patch16-224");
	o.lora_targets = GW_LORA_ALL_LINEAR;
	CHECK_INT(gw_advise_estimate_run(&e, &vit, &o), GW_EINVAL);
	CHECK(strstr(gw_error_last(), "all-linear") != NULL);
	o.lora_targets = GW_LORA_QV;
	CHECK_INT(gw_advise_estimate_run(&e, &vit, &o), 0);
	CHECK_INT(gw_advise_estimate_run(NULL, &l, &o), GW_EINVAL);
	CHECK_INT(gw_advise_estimate_run(&e, NULL, &o), GW_EINVAL);

	/* The largest shape the reader accepts at the largest batch and
	 * sequence: an error, never an overflow. */
	gw_model big;
	memset(&big, 0, sizeof(big));
	big.kind = GW_MODEL_ENCODER_DECODER;
	big.vocab_size = 1ull << 24;
	big.hidden_size = 1ull << 20;
	big.num_layers = 4096;
	big.num_heads = 1ull << 16;
	big.intermediate_size = 1ull << 24;
	CHECK_INT(gw_model_finish(&big), 0);
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.batch = 1ull << 20;
	o.seq = 1ull << 24;
	CHECK_INT(gw_advise_estimate_run(&e, &big, &o), GW_EINVAL);
	CHECK(strstr(gw_error_last(), "absurd") != NULL);
	uint64_t mb = 99;
	CHECK_INT(gw_advise_max_micro_batch(&mb, &big, &(gw_advise_options)GW_ADVISE_OPTIONS_INIT, 80 * GIB), GW_EINVAL);
	CHECK_INT(mb, 99);
}

static void test_max_micro_batch(void)
{
	gw_model g = model("gpt2");
	gw_advise_options o = opts(GW_TASK_TRAIN, GW_PRECISION_AMP_BF16);
	uint64_t mb = 0;

	o.seq = 1024;
	CHECK_INT(gw_advise_max_micro_batch(&mb, &g, &o, 16 * GIB), 0);
	CHECK(mb >= 1);
	o.batch = mb;
	CHECK(peak(&g, o) <= 16 * GIB);
	o.batch = mb + 1;
	CHECK(peak(&g, o) > 16 * GIB);
	o.batch = 1;
	CHECK_INT(gw_advise_max_micro_batch(&mb, &g, &o, 100 * MIB), 0);
	CHECK_INT(mb, 0);
}

static void test_plan(void)
{
	gw_model g = model("gpt2"), l = model("llama-2-7b");
	gw_advise_options o = opts(GW_TASK_TRAIN, GW_PRECISION_AMP_BF16);
	gw_advise_plan p;
	uint64_t mb;

	/* Fits as given: micro-batch × accumulation reaches the target. */
	o.seq = 1024;
	CHECK_INT(gw_advise_max_micro_batch(&mb, &g, &o, 16 * GIB), 0);
	CHECK_INT(gw_advise_plan_make(&p, &g, &o, 16 * GIB, 256), 0);
	CHECK(p.fits);
	CHECK_INT(p.nsteps, 0);
	CHECK(p.micro_batch <= mb && p.micro_batch * p.grad_accum >= 256);
	CHECK_INT(p.grad_accum, (256 + mb - 1) / mb);   /* the fewest steps that fit */
	/* and the smallest micro-batch for them: it overshoots by less than
	 * one sample a step */
	CHECK(p.micro_batch * p.grad_accum - 256 < p.grad_accum);
	/* BERT-large, 512 tokens, in 16 GiB on a V100: about 20 fit, target 32 →
	 * 16 × 2 (not 20 × 2 = 40 a step). */
	{
		gw_model bl = model("bert-large-uncased");
		gw_advise_options v = opts(GW_TASK_TRAIN, GW_PRECISION_AMP_FP16);
		uint64_t vb;
		v.cc_major = 7;
		v.gpu_memory_bytes = 16 * GIB;
		v.seq = 512;
		v.attention = GW_ATTENTION_SDPA;
		CHECK_INT(gw_advise_max_micro_batch(&vb, &bl, &v, 16 * GIB), 0);
		CHECK(vb >= 17 && vb < 32);
		CHECK_INT(gw_advise_plan_make(&p, &bl, &v, 16 * GIB, 32), 0);
		CHECK_INT(p.grad_accum, 2);
		CHECK_INT(p.micro_batch, 16);
	}
	CHECK(p.estimate.peak_device_bytes <= 16 * GIB);
	/* GPT-2 at seq 1024 does not fit 3 GiB as given; checkpointing makes it fit. */
	CHECK_INT(gw_advise_max_micro_batch(&mb, &g, &o, 3 * GIB), 0);
	CHECK_INT(mb, 0);
	CHECK_INT(gw_advise_plan_make(&p, &g, &o, 3 * GIB, 32), 0);
	CHECK(p.fits);
	CHECK(p.nsteps >= 1);
	CHECK_STR(p.steps[0], "checkpointing");
	CHECK(p.options.checkpointing);
	CHECK(p.estimate.peak_device_bytes <= 3 * GIB);
	/* Full training of a 7B model on one 24 GiB GPU: no rung is enough. */
	CHECK_INT(gw_advise_plan_make(&p, &l, &o, 24 * GIB, 8), 0);
	CHECK(!p.fits);
	/* On 8 GPUs ZeRO-3 makes it fit. */
	o.gpus = 8;
	o.seq = 512;
	CHECK_INT(gw_advise_plan_make(&p, &l, &o, 24 * GIB, 64), 0);
	CHECK(p.fits);
	CHECK_INT(p.options.strategy, GW_STRATEGY_ZERO3);
	CHECK(p.micro_batch * p.grad_accum * 8 >= 64);
	/* LoRA under FSDP on 2 GPUs of 40 GiB with a target that needs
	 * accumulation: the micro-batch is sized for the unsharded gradients
	 * that accumulation keeps, and the planned run fits. */
	o = opts(GW_TASK_LORA, GW_PRECISION_BF16);
	o.seq = 1024;
	o.strategy = GW_STRATEGY_FSDP_MIXED;
	o.gpus = 2;
	o.checkpointing = true;
	CHECK_INT(gw_advise_plan_make(&p, &l, &o, 40 * GIB, 512), 0);
	CHECK(p.fits);
	CHECK(p.grad_accum > 1);
	CHECK(p.micro_batch * p.grad_accum * 2 >= 512);
	CHECK(p.estimate.peak_device_bytes <= 40 * GIB);
	CHECK(p.estimate.gradients_bytes == 2 * l.params);
	/* Inference of a 7B model: 8-bit weights on 8 GiB, 4-bit on 6 GiB. */
	o = opts(GW_TASK_INFER, GW_PRECISION_BF16);
	o.seq = 1024;
	CHECK_INT(gw_advise_plan_make(&p, &l, &o, 8 * GIB, 1), 0);
	CHECK(p.fits);
	CHECK_INT(p.options.weights, GW_WEIGHTS_INT8);
	CHECK_INT(gw_advise_plan_make(&p, &l, &o, 6 * GIB, 1), 0);
	CHECK(p.fits);
	CHECK_INT(p.options.weights, GW_WEIGHTS_NF4);
	CHECK_INT(p.nsteps, 2);
}

static void test_vocab_and_specs(void)
{
	gw_gpu_spec s;

	CHECK_INT(gw_advise_value("task", "qlora"), GW_TASK_QLORA);
	CHECK_INT(gw_advise_value("precision", "amp-bf16"), GW_PRECISION_AMP_BF16);
	CHECK_INT(gw_advise_value("optimizer", "paged-adamw-8bit"), GW_OPTIMIZER_PAGED_ADAMW_8BIT);
	CHECK_INT(gw_advise_value("weights", "nf4-dq"), GW_WEIGHTS_NF4_DQ);
	CHECK_INT(gw_advise_value("task", "fly"), -1);
	CHECK_INT(gw_advise_value("nope", "train"), -1);
	CHECK_STR(gw_advise_name("strategy", GW_STRATEGY_ZERO3), "zero3");
	CHECK(gw_advise_name("strategy", 99) == NULL);
	CHECK_STR(gw_advise_names("offload"), "none optimizer params");
	for (const char *k = "task"; k; k = NULL) {
		const char *all = gw_advise_names(k);
		CHECK(all && strstr(all, gw_advise_name(k, 0)));
	}

	CHECK(gw_gpu_spec_count() >= 10);
	CHECK_INT(gw_gpu_spec_find("RTX 4090", &s), 0);
	CHECK_STR(s.name, "RTX 4090");
	CHECK_INT(s.memory_bytes, 24 * GIB);
	CHECK_INT(s.cc_major, 8);
	CHECK_INT(s.cc_minor, 9);
	CHECK_INT(gw_gpu_spec_find("rtx4090", &s), 0);
	CHECK_INT(gw_gpu_spec_find("a100", &s), 0);
	CHECK_STR(s.name, "A100-SXM4-40GB");
	CHECK_INT(gw_gpu_spec_find("V100-SXM2-16GB", &s), 0);
	CHECK_INT(s.cc_major, 7);
	/* The names nvidia-smi prints, brand words and all. */
	CHECK_INT(gw_gpu_spec_find("Tesla P100-PCIE-16GB", &s), 0);
	CHECK_STR(s.name, "P100-PCIE-16GB");
	CHECK_INT(gw_gpu_spec_find("NVIDIA GeForce RTX 4090", &s), 0);
	CHECK_STR(s.name, "RTX 4090");
	CHECK_INT(gw_gpu_spec_find("nvidia tesla v100-sxm2-16gb", &s), 0);
	CHECK_STR(s.name, "V100-SXM2-16GB");
	CHECK_INT(gw_gpu_spec_find("NVIDIA TITAN RTX", &s), 0);
	CHECK_INT(s.cc_major * 10 + s.cc_minor, 75);
	CHECK_INT(gw_gpu_spec_find("NVIDIA ", &s), GW_ENOTFOUND);
	CHECK_INT(gw_gpu_spec_find("Voodoo 2", &s), GW_ENOTFOUND);
	CHECK_INT(gw_gpu_spec_find("", &s), GW_ENOTFOUND);
	for (size_t i = 0; i < gw_gpu_spec_count(); i++) {
		CHECK_INT(gw_gpu_spec_at(i, &s), 0);
		/* AMD rows have no compute capability (0.0) */
		CHECK(s.memory_bytes >= 4 * GIB && (s.cc_major >= 5 || s.cc_major == 0) && strstr(s.source, "https://"));
		CHECK(s.fp32_flops > 0 && s.bandwidth_bytes_per_s > 0);
		CHECK(gw_gpu_spec_fp64_flops(&s) > 0 && gw_gpu_spec_fp64_flops(&s) <= s.fp32_flops);
	}
	/* The GPUs the guides name, by the names NVML, rocm-smi and people use. */
	static const char *const named[][2] = {
		{ "NVIDIA GeForce GTX 1660", "GTX 1660" },       { "NVIDIA GeForce RTX 3060", "RTX 3060 12GB" },
		{ "NVIDIA TITAN X (Pascal)", "TITAN X Pascal" }, { "TITAN X", "TITAN X Pascal" },
		{ "NVIDIA GeForce GTX TITAN X", "GTX TITAN X" }, { "NVIDIA TITAN Xp", "TITAN Xp" },
		{ "RX 5700", "RX 5700" },                         { "AMD Radeon RX 7900 XTX", "RX 7900 XTX" },
		{ "AMD Instinct MI300X", "MI300X" },              { "mi250x", "MI250X" },
		{ "NVIDIA A100 80GB PCIe", "A100-PCIE-80GB" },    { "NVIDIA H100 PCIe", "H100-PCIE-80GB" },
		{ "NVIDIA GH200 480GB", "GH200-96GB" },           { "Tesla P100-SXM2-16GB", "P100-SXM2-16GB" },
	};
	for (size_t i = 0; i < GW_ARRAY_SIZE(named); i++) {
		CHECK_INT(gw_gpu_spec_find(named[i][0], &s), 0);
		CHECK_STR(s.name, named[i][1]);
	}
	CHECK_INT(gw_gpu_spec_find("MI300X", &s), 0);
	CHECK(fabs(gw_gpu_spec_fp64_flops(&s) - 81.7e12) < 1e9);
	CHECK_INT(s.cc_major, 0);
	CHECK(gw_gpu_spec_fp64_flops(NULL) == 0);
	/* Every NVIDIA GPU of compute capability 5.0 or later that
	 * data/nvidia_gpus.tsv names is in the spec table, but for these (the
	 * D parts' tensor rates are capped below their siblings' and not
	 * published; the smaller RTX 50 cards' datasheets were not read). */
	static const char *const missing[] = { "GeForce MX150", "B200", "GeForce RTX 5080", "GeForce RTX 4090 D",
					       "GeForce RTX 5090 D", "GeForce RTX 5090 D v2", "GeForce RTX 5070 Ti",
					       "GeForce RTX 5070", "GeForce RTX 5060 Ti", "GeForce RTX 5060",
					       "GeForce RTX 5050" };
	for (size_t i = 0; i < GW_ROWS_NVIDIA_GPUS_COUNT; i++) {
		const gw_row_nvidia_gpus *r = &gw_rows_nvidia_gpus[i];
		bool skip = strtoul(r->cc, NULL, 10) < 5;

		for (size_t k = 0; k < GW_ARRAY_SIZE(missing); k++)
			skip = skip || !strcmp(r->name, missing[k]);
		if (!skip && gw_gpu_spec_find(r->name, &s) != 0)
			CHECK_STR(r->name, "in data/gpu_specs.tsv");
	}
}

/* What a run can use of a spec-table GPU: the CUDA-visible total deviceQuery
 * printed (thamada/gls, R550-R565 drivers), less than the datasheet; the
 * datasheet size where no source gives it. */
static void test_usable_specs(void)
{
	static const struct {
		const char *name;
		uint64_t cuda_bytes, reserved_mib;
	} sourced[] = {
		{ "V100-SXM2-16GB", 16928342016ull, 240 },  { "A10", 23595909120ull, 526 },
		{ "A100-SXM4-80GB", 85100068864ull, 763 },  { "RTX 3090", 25327697920ull, 422 },
		{ "RTX A6000", 47834660864ull, 450 },       { "L4", 23570219008ull, 556 },
		{ "L40S", 47803596800ull, 479 },            { "RTX 4090", 25386352640ull, 354 },
		{ "H100-SXM5-80GB", 85045477376ull, 454 },  { "H100-NVL-94GB", 99861594112ull, 594 },
		{ "H200-SXM-141GB", 150021734400ull, 700 },
		{ "GTX 1050 Ti", 4234805248ull, 57 },       { "RTX 3070", 8351318016ull, 227 },
		{ "RTX 3080", 10485956608ull, 239 },        { "GH200-96GB", 101468602368ull, 1103 },
		{ "RTX 5090", 33680457728ull, 487 },        { "T4", 15828320256ull, 265 },
	};
	gw_gpu_spec s;
	size_t with = 0;

	for (size_t i = 0; i < GW_ARRAY_SIZE(sourced); i++) {
		CHECK_INT(gw_gpu_spec_find(sourced[i].name, &s), 0);
		CHECK_INT(gw_gpu_spec_usable_bytes(&s), sourced[i].cuda_bytes);
		CHECK_INT(gw_gpu_spec_reserved_bytes(&s), sourced[i].reserved_mib * MIB);
		CHECK(gw_gpu_spec_usable_bytes(&s) < s.memory_bytes);
	}
	/* Every other row keeps its datasheet size: nothing inferred from a sister model. */
	for (size_t i = 0; i < gw_gpu_spec_count(); i++) {
		CHECK_INT(gw_gpu_spec_at(i, &s), 0);
		if (gw_gpu_spec_usable_bytes(&s) != s.memory_bytes)
			with++;
		else
			CHECK_INT(gw_gpu_spec_reserved_bytes(&s), 0);
	}
	CHECK_INT(with, GW_ARRAY_SIZE(sourced));
	CHECK_INT(gw_gpu_spec_find("A100-SXM4-40GB", &s), 0);
	CHECK_INT(gw_gpu_spec_usable_bytes(&s), 40 * GIB);
	CHECK_INT(gw_gpu_spec_reserved_bytes(&s), 0);
	/* The row is found by name, whoever filled the struct; an unknown name keeps its size. */
	char name[32];
	CHECK_INT(gw_gpu_spec_find("RTX 4090", &s), 0);
	snprintf(name, sizeof(name), "%s", s.name);
	s.name = name;
	CHECK_INT(gw_gpu_spec_usable_bytes(&s), 25386352640ull);
	s.name = "Voodoo 2";
	CHECK_INT(gw_gpu_spec_usable_bytes(&s), 24 * GIB);
	CHECK_INT(gw_gpu_spec_reserved_bytes(&s), 0);
	s.name = NULL;
	CHECK_INT(gw_gpu_spec_usable_bytes(&s), 24 * GIB);
	CHECK_INT(gw_gpu_spec_usable_bytes(NULL), 0);
	CHECK_INT(gw_gpu_spec_reserved_bytes(NULL), 0);
	/* The raw rows: all three numbers and their source, or none; and on an
	 * R510+ driver CUDA's total is NVML's total less the reserved part
	 * (within 1 MiB: nvidia-smi rounds to whole MiB). */
	for (size_t i = 0; i < GW_ROWS_GPU_SPECS_COUNT; i++) {
		const gw_row_gpu_specs *r = &gw_rows_gpu_specs[i];
		bool none = !strcmp(r->cuda_total_bytes, "-");

		if (none) {
			CHECK_STR(r->reserved_mib, "-");
			CHECK_STR(r->nvml_total_mib, "-");
			CHECK_STR(r->usable_source, "-");
			continue;
		}
		double cuda = strtod(r->cuda_total_bytes, NULL) / (double)MIB;
		double nvml = strtod(r->nvml_total_mib, NULL), reserved = strtod(r->reserved_mib, NULL);
		CHECK(strspn(r->cuda_total_bytes, "0123456789") == strlen(r->cuda_total_bytes));
		CHECK(strspn(r->reserved_mib, "0123456789") == strlen(r->reserved_mib) && reserved > 0);
		CHECK(strspn(r->nvml_total_mib, "0123456789") == strlen(r->nvml_total_mib));
		CHECK(fabs(nvml - reserved - cuda) <= 1.0);
		CHECK(!strncmp(r->usable_source, "https://", 8) && strstr(r->usable_source, "driver "));
	}
}

/* The report: targets, the plan for the first, the JSON both the CLI and
 * Python print. */
static void test_report(void)
{
	gw_model l = model("llama-2-7b");
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_target t[2];
	gw_advise_report *r = NULL;
	char buf[64];

	memset(t, 0, sizeof(t));
	snprintf(t[0].name, sizeof(t[0].name), "RTX 4090");
	snprintf(t[0].source, sizeof(t[0].source), "spec");
	t[0].memory_bytes = 24 * GIB;
	t[0].cc_major = 8;
	t[0].cc_minor = 9;
	snprintf(t[1].name, sizeof(t[1].name), "big");
	snprintf(t[1].source, sizeof(t[1].source), "memory");
	t[1].memory_bytes = 80 * GIB;
	o.task = GW_TASK_LORA;
	o.batch = 4;
	o.seq = 1024;
	CHECK_INT(gw_advise_report_new(&r, &l, "catalogue", &o, t, 2, 0), 0);
	CHECK_INT(gw_advise_report_count(r), 2);
	CHECK(!gw_advise_report_result(r, 0)->fits);
	CHECK(gw_advise_report_result(r, 1)->fits);
	CHECK(gw_advise_report_result(r, 2) == NULL);
	CHECK_INT(gw_advise_report_target_batch(r), 4);
	CHECK(gw_advise_report_plan(r) && gw_advise_report_plan(r)->fits);
	CHECK_INT(gw_advise_report_estimate(r)->peak_device_bytes,
		  gw_advise_report_result(r, 0)->estimate.peak_device_bytes);
	char *json = gw_advise_report_json(r, 0);
	CHECK(json && !strncmp(json, "{\"gpuwise_version\":", 19));
	CHECK(json && strstr(json, "\"peak_allocated_bytes\":") && strstr(json, "\"targets\":[{\"gpu\":\"RTX 4090\""));
	CHECK(json && strstr(json, "\"training_arguments\":\"TrainingArguments(per_device_train_batch_size="));
	free(json);
	gw_advise_report_free(r);
	/* No target: the unknown GPU, no plan. */
	CHECK_INT(gw_advise_report_new(&r, &l, NULL, &o, NULL, 0, 0), 0);
	CHECK(gw_advise_report_plan(r) == NULL);
	json = gw_advise_report_json(r, 2);
	CHECK(json && strstr(json, "\"plan\": null") && strstr(json, "\"from\": \"shape\""));
	free(json);
	gw_advise_report_free(r);
	/* Bad options fail once, with the message. */
	o.batch = 0;
	r = NULL;
	CHECK_INT(gw_advise_report_new(&r, &l, "catalogue", &o, t, 2, 0), GW_EINVAL);
	CHECK(r == NULL);
	/* A cut snippet says so. */
	gw_advise_plan p;
	o.batch = 1;
	CHECK_INT(gw_advise_plan_make(&p, &l, &o, 24 * GIB, 1), 0);
	gw_advise_training_arguments(buf, sizeof(buf), &p);
	CHECK(strlen(buf) < sizeof(buf) && strstr(buf, "\xe2\x80\xa6"));
}

/* --hardware: every spec-table GPU, fitting first and fastest first, the
 * times from the stated formulas. */
static void test_hardware(void)
{
	gw_model g = model("gpt2"), l = model("llama-2-7b");
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_rank *k = NULL;
	size_t n = 0;
	gw_gpu_spec a100, h100;

	o.batch = 8;
	o.seq = 1024;
	CHECK_INT(gw_advise_hardware(&k, &n, &g, &o), 0);
	CHECK_INT(n, gw_gpu_spec_count());
	for (size_t i = 1; i < n; i++) {
		CHECK(k[i - 1].fits >= k[i].fits);
		if (k[i - 1].fits && k[i].fits)
			CHECK(k[i - 1].step_seconds <= k[i].step_seconds);
	}
	gw_advise_ranks_free(k);
	/* Each GPU is checked against what CUDA lets a run allocate: LoRA of
	 * llama-2-7b at --seq 2150 needs more than the RTX 4090's usable
	 * 24210.31 MiB, less than its datasheet 24 GiB, and does not fit. */
	o.task = GW_TASK_LORA;
	o.batch = 1;
	o.seq = 2150;
	CHECK_INT(gw_advise_hardware(&k, &n, &l, &o), 0);
	for (size_t i = 0; i < n; i++) {
		CHECK_INT(k[i].fits, k[i].estimate.peak_device_bytes <= gw_gpu_spec_usable_bytes(&k[i].gpu));
		if (strcmp(k[i].gpu.name, "RTX 4090"))
			continue;
		CHECK(k[i].estimate.peak_device_bytes > 25386352640ull && k[i].estimate.peak_device_bytes <= 24 * GIB);
		CHECK(!k[i].fits);
	}
	gw_advise_ranks_free(k);
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.batch = 8;
	o.seq = 1024;
	CHECK_INT(gw_advise_hardware(&k, &n, &g, &o), 0);
	CHECK_INT(gw_gpu_spec_find("A100-SXM4-40GB", &a100), 0);
	CHECK(a100.bf16_flops == 312e12 && a100.fp32_flops == 19.5e12 && a100.bandwidth_bytes_per_s == 1555000000000ull);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(k[i].gpu.name, "A100-SXM4-40GB"))
			continue;
		/* 6 · P · b · s FLOPs at 40 % of 312 TFLOPS (amp-bf16 on 8.0). */
		double want = 6.0 * 124439808 * 8 * 1024 / (GW_ADVISE_MFU * 312e12);
		CHECK(k[i].step_seconds > want * 0.999999 && k[i].step_seconds < want * 1.000001);
		CHECK(k[i].fits);
	}
	gw_advise_ranks_free(k);
	/* T5 training: the encoder reads the 512-token source, the decoder the
	 * 128-token target: 6 · P · b · (512 + 128) / 2. */
	gw_model t5 = model("t5-base");
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.batch = 8;
	o.seq = 512;
	o.decoder_seq = 128;
	CHECK_INT(gw_advise_hardware(&k, &n, &t5, &o), 0);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(k[i].gpu.name, "A100-SXM4-40GB"))
			continue;
		double want = 6.0 * 222903552 * 8 * (512 + 128) / 2 / (GW_ADVISE_MFU * 312e12);
		CHECK(k[i].step_seconds > want * 0.999999 && k[i].step_seconds < want * 1.000001);
	}
	gw_advise_ranks_free(k);
	/* Decoding a 7B model is bandwidth-bound: one token per read of the weights and KV cache. */
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.task = GW_TASK_INFER;
	o.seq = 2048;
	o.new_tokens = 256;
	CHECK_INT(gw_advise_hardware(&k, &n, &l, &o), 0);
	CHECK_INT(gw_gpu_spec_find("H100", &h100), 0);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(k[i].gpu.name, h100.name))
			continue;
		double t = (double)(k[i].estimate.weights_bytes + k[i].estimate.kv_cache_bytes) /
			   (GW_ADVISE_MBU * 3.35e12);
		CHECK(k[i].tokens_per_second > 0.999999 / t && k[i].tokens_per_second < 1.000001 / t);
	}
	/* The V100 has no bf16: on it the run is resolved to fp16 and timed at the fp16 rate. */
	for (size_t i = 0; i < n; i++)
		if (!strcmp(k[i].gpu.name, "V100-SXM2-16GB"))
			CHECK_INT(k[i].estimate.resolved.precision, GW_PRECISION_FP16);
	gw_advise_ranks_free(k);
	CHECK_INT(gw_advise_hardware(NULL, &n, &l, &o), GW_EINVAL);
	o.batch = 0;
	CHECK_INT(gw_advise_hardware(&k, &n, &l, &o), GW_EINVAL);
}

/* Vision models: exact counts (the published ones, the DeiT heads, a tiny
 * ResNet and Swin by hand), activations against hand calculations, the
 * image size as input, and the errors. */
static gw_advise_estimate vision_run(const gw_model *m, gw_advise_task task, uint64_t batch, uint64_t image,
				     bool ckpt)
{
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_estimate e;

	o.task = task;
	o.batch = batch;
	o.image = image;
	o.checkpointing = ckpt;
	o.precision = GW_PRECISION_FP32;
	memset(&e, 0, sizeof(e));
	if (gw_advise_estimate_run(&e, m, &o) < 0)
		fprintf(stderr, "vision: %s\n", gw_error_last());
	return e;
}

static const char TINY_RESNET[] = "{\"model_type\":\"resnet\",\"embedding_size\":8,\"hidden_sizes\":[8],"
				  "\"depths\":[1],\"layer_type\":\"basic\",\"image_size\":32,\"num_labels\":10}";
static const char TINY_SWIN[] = "{\"model_type\":\"swin\",\"embed_dim\":4,\"depths\":[1],\"num_heads\":[1],"
				"\"window_size\":2,\"patch_size\":2,\"image_size\":4,\"mlp_ratio\":2.0,\"num_labels\":1}";

static void test_vision_counts(void)
{
	gw_model v = model("vit-base-patch16-224"), r = model("resnet-50"), sw = model("swin-tiny-patch4-window7-224");
	gw_model d, d2, nb, tr, ts;
	const char *deit = "{\"model_type\":\"deit\",\"hidden_size\":768,\"num_hidden_layers\":12,"
			   "\"num_attention_heads\":12,\"intermediate_size\":3072,\"num_labels\":1000,"
			   "\"architectures\":[\"DeiTForImageClassificationWithTeacher\"]}";
	const char *deit1 = "{\"model_type\":\"deit\",\"hidden_size\":768,\"num_hidden_layers\":12,"
			    "\"num_attention_heads\":12,\"intermediate_size\":3072,\"num_labels\":1000}";
	const char *nobias = "{\"model_type\":\"vit\",\"hidden_size\":768,\"num_hidden_layers\":12,"
			     "\"num_attention_heads\":12,\"intermediate_size\":3072,\"num_labels\":1000,"
			     "\"qkv_bias\":false}";

	/* The issue's numbers (torchvision's num_params for these shapes). */
	CHECK_INT(v.params, 86567656ull);
	CHECK_INT(r.params, 25557032ull);
	CHECK_INT(sw.params, 28288354ull);
	CHECK_INT(v.kind, GW_MODEL_VISION);
	CHECK_INT(v.vision, GW_VISION_VIT);
	CHECK_INT(sw.vision, GW_VISION_SWIN);
	CHECK_INT(r.vision, GW_VISION_RESNET);
	CHECK_INT(v.extra_tokens, 1);
	/* DeiT: + distillation token and its position (2 × 768), + the
	 * distillation head (768 × 1000 + 1000) with the teacher. */
	d = config(deit);
	d2 = config(deit1);
	CHECK_INT(d.params, 86567656ull + 2 * 768 + 769000);
	CHECK_INT(d2.params, 86567656ull + 2 * 768);
	CHECK_INT(d.extra_tokens, 2);
	/* qkv_bias false: 12 layers × 3 × 768 biases fewer. */
	nb = config(nobias);
	CHECK_INT(nb.params, 86567656ull - 12 * 3 * 768);
	/* A tiny ResNet: stem 8×3×7×7 + BN 16; block 2 × (8×8×3×3 + 16);
	 * classifier 8×10 + 10. */
	tr = config(TINY_RESNET);
	CHECK_INT(tr.params, 1176 + 16 + 2 * (576 + 16) + 90);
	/* A tiny Swin: patch conv 4×3×2×2 + bias 4 + LayerNorm 8; block:
	 * LayerNorm 8, q/k/v/o 4 × (16 + 4), bias table 3² × 1 head, LayerNorm
	 * 8, MLP 4×8 + 8 + 8×4 + 4; final LayerNorm 8; classifier 4 + 1. */
	ts = config(TINY_SWIN);
	CHECK_INT(ts.params, 48 + 4 + 8 + (8 + 80 + 9 + 8 + 76) + 8 + 5);
	/* id2label decides the classifier when num_labels is absent. */
	CHECK_INT(config("{\"model_type\":\"resnet\",\"hidden_sizes\":[64],\"depths\":[1],\"layer_type\":\"basic\","
			 "\"id2label\":{\"0\":\"a\",\"1\":\"b\",\"2\":\"c\"}}").num_labels, 3);
}

static void test_vision_terms(void)
{
	gw_model v = model("vit-base-patch16-224"), tr = config(TINY_RESNET), ts = config(TINY_SWIN);
	gw_model r50 = model("resnet-50"), sw = model("swin-tiny-patch4-window7-224");
	gw_advise_estimate e;

	/* ViT-B/16, batch 2, 224 px, fp32, SDPA, no dropout: s = 197, sb = 394.
	 * Layer: attention 4·394·768 (norm in) + 4·394·5·768 (q-in, q, k, v,
	 * out) + 4·12·394 (log-sum-exp) = 7,281,120; MLP 4·394·768 (norm in) +
	 * 4·394·768 (fc1 in) + 4·394·3072·2 (fc2 in, GELU in) = 12,103,680;
	 * × 12 layers = 232,617,600. Outside: image 4·2·3·224² = 1,204,224,
	 * embeddings 4·394·768 = 1,210,368, final norm input 1,210,368,
	 * classifier input 4·2·768 = 6,144. */
	e = vision_run(&v, GW_TASK_TRAIN, 2, 0, false);
	CHECK_INT(e.resolved.seq, 197);
	CHECK_INT(e.resolved.attention, GW_ATTENTION_SDPA);
	CHECK_INT(e.activations_bytes, 232617600ull + 1204224 + 1210368 + 1210368 + 6144);
	CHECK_INT(e.kv_cache_bytes, 0);
	/* The image decides the tokens: 384 px = 24² patches + the class token. */
	CHECK_INT(vision_run(&v, GW_TASK_TRAIN, 1, 384, false).resolved.seq, 577);
	/* Tiny ResNet, batch 1, 32 px, fp32: stem output 8×16² kept twice (BN
	 * input, ReLU output) = 4096 elements; the block's two units 2 × 2 ×
	 * 8×8² = 2048; pool indices 8×8² int64; image 4·3·32²; classifier
	 * input 4·8. */
	e = vision_run(&tr, GW_TASK_TRAIN, 1, 0, false);
	CHECK_INT(e.activations_bytes, 4 * (4096 + 2048) + 8 * 512 + 4 * 3 * 1024 + 4 * 8);
	/* With checkpointing: the block's input (8×8²) + one block recomputed. */
	e = vision_run(&tr, GW_TASK_TRAIN, 1, 0, true);
	CHECK_INT(e.activations_bytes, 4 * (4096 + 512 + 2048) + 8 * 512 + 4 * 3 * 1024 + 4 * 8);
	/* Tiny Swin, batch 1, 4 px, fp32, eager (Swin has no SDPA): 2×2 patches,
	 * one 2×2 window. Block: attention 4·4·4 + 4·4·20 + scores 1·4·4·4 =
	 * 448; MLP 4·4·4 + 4·4·4 + 4·4·8·2 = 384. Plus image 4·3·16, patch
	 * norm input 4·4·4, final norm input 4·4·4, classifier input 4·4. */
	e = vision_run(&ts, GW_TASK_TRAIN, 1, 0, false);
	CHECK_INT(e.resolved.attention, GW_ATTENTION_EAGER);
	CHECK_INT(e.activations_bytes, 448 + 384 + 192 + 64 + 64 + 16);
	/* Monotonic: batch, image; checkpointing saves; inference keeps less. */
	for (size_t i = 0; i < 3; i++) {
		const gw_model *m = i == 0 ? &v : i == 1 ? &r50 : &sw;
		uint64_t b8 = vision_run(m, GW_TASK_TRAIN, 8, 0, false).peak_allocated_bytes;
		CHECK(vision_run(m, GW_TASK_TRAIN, 16, 0, false).peak_allocated_bytes > b8);
		CHECK(vision_run(m, GW_TASK_TRAIN, 8, 384, false).peak_allocated_bytes > b8);
		CHECK(vision_run(m, GW_TASK_TRAIN, 8, 0, true).peak_allocated_bytes < b8);
		CHECK(vision_run(m, GW_TASK_INFER, 8, 0, false).peak_allocated_bytes < b8);
		gw_advise_estimate one = vision_run(m, GW_TASK_TRAIN, 1, 0, false);
		CHECK(gw__advise_vision_forward_flops(m, &one.resolved) > 0);
	}
	/* ResNet-50 forward at 224 px: 4.09 G multiply-adds (torchvision's
	 * GFLOPS 4.09 for ResNet50_Weights.IMAGENET1K_V1 counts multiply-adds). */
	e = vision_run(&r50, GW_TASK_TRAIN, 1, 0, false);
	double f = gw__advise_vision_forward_flops(&r50, &e.resolved);
	CHECK(f > 2 * 4.0e9 && f < 2 * 4.2e9);
	/* --hardware times an image by its FLOPs: batch × forward × 3 (forward
	 * and backward) at 40 % of the A100's bf16 peak; images/s = batch/step. */
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_rank *k = NULL;
	size_t n = 0;
	o.batch = 32;
	CHECK_INT(gw_advise_hardware(&k, &n, &r50, &o), 0);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(k[i].gpu.name, "A100-SXM4-40GB"))
			continue;
		double want = 32 * gw__advise_vision_forward_flops(&r50, &k[i].estimate.resolved) * 3 / (GW_ADVISE_MFU * 312e12);
		CHECK(k[i].step_seconds > want * 0.999999 && k[i].step_seconds < want * 1.000001);
		CHECK(k[i].samples_per_second > 0.999999 * 32 / want && k[i].samples_per_second < 1.000001 * 32 / want);
	}
	gw_advise_ranks_free(k);
}

/* Autocast's cached half copies of fp32 weights (aten/src/ATen/
 * autocast_mode.cpp, cached_cast): conv2d and linear are on its
 * lower-precision list, batch_norm on neither, so every ResNet weight but
 * BatchNorm's is copied; ResNet has no other linear map. */
static void test_vision_autocast_copies(void)
{
	gw_model tr = config(TINY_RESNET), r50 = model("resnet-50"), v = model("vit-base-patch16-224");
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_estimate e;

	o.task = GW_TASK_TRAIN;
	o.batch = 1;
	o.precision = GW_PRECISION_AMP_BF16;
	/* Tiny ResNet: stem 8×3×7×7 = 1176, block 2 × 8×8×3×3 = 1152,
	 * classifier 8×10 = 80. */
	CHECK_INT(gw__advise_vision_cast_weights(&tr), 1176 + 1152 + 80);
	CHECK_INT(gw_advise_estimate_run(&e, &tr, &o), 0);
	CHECK_INT(e.weights_bytes, 4 * tr.params + 2 * (1176 + 1152 + 80));
	/* ResNet-50: all 25,557,032 parameters less BatchNorm's 2 × 26,560
	 * channels and the classifier's 1,000 biases. */
	CHECK_INT(gw__advise_vision_cast_weights(&r50), 25557032ull - 53120 - 1000);
	CHECK_INT(gw_advise_estimate_run(&e, &r50, &o), 0);
	CHECK_INT(e.weights_bytes, 4 * 25557032ull + 2 * (25557032ull - 53120 - 1000));
	/* ViT-B/16: its linears, the 16×16 patch convolution and the classifier. */
	CHECK_INT(gw__advise_vision_cast_weights(&v), 768 * (3 * 256 + 1000));
	CHECK_INT(gw_advise_estimate_run(&e, &v, &o), 0);
	CHECK_INT(e.weights_bytes, 4 * v.params + 2 * (v.params_linear + 768 * (3 * 256 + 1000)));
	/* fp32 and inference keep none. */
	o.precision = GW_PRECISION_FP32;
	CHECK_INT(gw_advise_estimate_run(&e, &r50, &o), 0);
	CHECK_INT(e.weights_bytes, 4 * 25557032ull);
	o.precision = GW_PRECISION_AMP_BF16;
	o.weights = GW_WEIGHTS_FP32;
	o.task = GW_TASK_INFER;
	CHECK_INT(gw_advise_estimate_run(&e, &r50, &o), 0);
	CHECK_INT(e.weights_bytes, 4 * 25557032ull);
}

/* The caching allocator's rules (c10/cuda/CUDACachingAllocator.cpp), each
 * by hand: 512-byte rounding, 2 MiB small and 20 MiB / 2 MiB-rounded
 * large segments, best fit, the split threshold, merging on free. */
static void test_alloc_sim(void)
{
	const uint64_t M = 1ull << 20;
	gw__alloc_sim s;
	int a, b, c, d;

	gw__alloc_sim_init(&s);
	a = gw__alloc_sim_malloc(&s, 100);                 /* 512 B of a 2 MiB small segment */
	CHECK_INT(s.allocated, 512);
	CHECK_INT(s.reserved, 2 * M);
	b = gw__alloc_sim_malloc(&s, 1.5 * (double)M);     /* a 20 MiB segment, split */
	c = gw__alloc_sim_malloc(&s, 3.0 * (double)M);     /* the rest of it */
	CHECK_INT(s.reserved, 22 * M);
	CHECK_INT(s.allocated, 512 + 4.5 * (double)M);
	/* 15.5 MiB are left in the 20 MiB segment: 16 MiB takes a new one */
	d = gw__alloc_sim_malloc(&s, 16.0 * (double)M);
	CHECK_INT(s.reserved, 38 * M);
	CHECK_INT(s.allocated, 512 + 4.5 * (double)M + 16 * M);
	/* freed neighbours merge: the 20 MiB segment is whole again; 19 MiB
	 * leaves 1 MiB, not more than 1 MiB, so the block is not split */
	gw__alloc_sim_release(&s, b);
	gw__alloc_sim_release(&s, c);
	b = gw__alloc_sim_malloc(&s, 19.0 * (double)M);
	CHECK_INT(s.reserved, 38 * M);
	CHECK_INT(s.allocated, 512 + 20 * M + 16 * M);
	/* 15 MiB takes the freed 16 MiB block whole (1 MiB left), not a new
	 * segment */
	gw__alloc_sim_release(&s, d);
	d = gw__alloc_sim_malloc(&s, 15.0 * (double)M);
	CHECK_INT(s.reserved, 38 * M);
	CHECK_INT(s.allocated, 512 + 36 * M);
	CHECK_INT(s.peak_allocated, 512 + 36 * M);
	gw__alloc_sim_reset_peaks(&s);
	gw__alloc_sim_release(&s, a);
	gw__alloc_sim_release(&s, b);
	CHECK_INT(s.peak_allocated, 512 + 36 * M);
	CHECK_INT(s.peak_reserved, 38 * M);
	/* 12 MiB in the freed 20 MiB block: 8 MiB left, split off */
	b = gw__alloc_sim_malloc(&s, 12.0 * (double)M);
	CHECK_INT(s.allocated, 12 * M + 16 * M);
	CHECK_INT(s.reserved, 38 * M);
	CHECK(!s.failed);
	/* beyond 2^62 bytes the replay gives up, and says so */
	CHECK_INT(gw__alloc_sim_malloc(&s, 1e19), -1);
	CHECK(s.failed);
	gw__alloc_sim_free(&s);
}

/* ResNet inference through the allocator, against the H200's peaks
 * (bench/data/advise_device_peaks.jsonl, PyTorch 2.11). ResNet-18 at
 * batch 1024 in fp16 peaks in the stem: the image 1024·3·224²·2, the
 * ReLU's output 1024·64·112²·2, the max pool's int64 indices and its
 * output (1024·64·56² elements) = 4,007,657,472 bytes beside the weights
 * (measured 4,032,030,720 with them), and reserves hardly more (measured
 * 4,037,017,600). ResNet-50 at batch 256 in fp16 reserves half as much
 * again as it allocates (measured 2,501,902,336 of 1,671,057,408). */
static void test_resnet_infer_reserved(void)
{
	gw_model r18 = model("resnet-18"), r50 = model("resnet-50");
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_estimate e;
	double act;

	o.task = GW_TASK_INFER;
	o.precision = GW_PRECISION_FP16;
	o.batch = 1024;
	CHECK_INT(gw_advise_estimate_run(&e, &r18, &o), 0);
	act = (double)(e.peak_allocated_bytes - e.weights_bytes);
	CHECK(fabs(act - 4007657472.0) < 65536);
	CHECK(e.peak_reserved_bytes - e.peak_allocated_bytes < e.peak_allocated_bytes / 100);
	o.batch = 256;
	CHECK_INT(gw_advise_estimate_run(&e, &r50, &o), 0);
	CHECK(e.peak_reserved_bytes > 1.4 * (double)e.peak_allocated_bytes);
	CHECK(e.peak_reserved_bytes < 1.7 * (double)e.peak_allocated_bytes);
}

static void test_vision_errors(void)
{
	gw_model r = model("resnet-50"), v = model("vit-base-patch16-224"), m;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_estimate e;
	static const char *const bad[] = {
		"{\"model_type\":\"swin\",\"depths\":[2,2],\"num_heads\":[3]}",                 /* stage lists differ */
		"{\"model_type\":\"swin\",\"depths\":[1,1,1,1,1,1,1,1,1],\"num_heads\":[1,1,1,1,1,1,1,1,1]}",
		"{\"model_type\":\"swin\",\"embed_dim\":96,\"depths\":[2],\"num_heads\":[5]}",  /* 96 % 5 */
		"{\"model_type\":\"swin\",\"depths\":\"2,2\",\"num_heads\":[3,6]}",
		"{\"model_type\":\"resnet\",\"hidden_sizes\":[64],\"depths\":[1],\"layer_type\":\"dense\"}",
		"{\"model_type\":\"resnet\",\"hidden_sizes\":[66],\"depths\":[1]}",            /* bottleneck: 66 % 4 */
		"{\"model_type\":\"resnet\",\"hidden_sizes\":[64],\"depths\":[0]}",
		"{\"model_type\":\"vit\",\"hidden_size\":768,\"num_hidden_layers\":12,\"num_attention_heads\":12,"
		"\"image_size\":8,\"patch_size\":16}",                                            /* patch > image */
		"{\"model_type\":\"vit\",\"hidden_size\":768,\"num_hidden_layers\":12,\"num_attention_heads\":12,"
		"\"id2label\":[1,2]}",
		"{\"model_type\":\"swin\",\"depths\":[2],\"num_heads\":[3],\"mlp_ratio\":-1}",
		"{\"model_type\":\"resnet\",\"hidden_sizes\":[64],\"depths\":[1],\"downsample_in_first_stage\":true}",
	};

	for (size_t i = 0; i < GW_ARRAY_SIZE(bad); i++) {
		int rc = gw_model_from_config(&m, bad[i], strlen(bad[i]), NULL);
		if (rc == 0)
			fprintf(stderr, "accepted: %s\n", bad[i]);
		CHECK(rc < 0);
	}
	o.task = GW_TASK_LORA;
	CHECK_INT(gw_advise_estimate_run(&e, &r, &o), GW_EINVAL);
	CHECK(strstr(gw_error_last(), "LoRA") != NULL);
	o.task = GW_TASK_INFER;
	o.weights = GW_WEIGHTS_NF4;
	CHECK_INT(gw_advise_estimate_run(&e, &r, &o), GW_EINVAL);
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.image = 8;   /* smaller than a 16-pixel patch */
	CHECK_INT(gw_advise_estimate_run(&e, &v, &o), GW_EINVAL);
	CHECK(strstr(gw_error_last(), "--image") != NULL);
	o.image = 1u << 20;
	CHECK_INT(gw_advise_estimate_run(&e, &v, &o), GW_EINVAL);
	/* LoRA on ViT adapts query and value (PEFT's targets): 12 × 2 × (768 + 768) × r. */
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.task = GW_TASK_LORA;
	CHECK_INT(gw_advise_estimate_run(&e, &v, &o), 0);
	CHECK_INT(e.trainable_params, 8ull * 12 * 2 * 1536);
}

/* The cloud table: every row names a spec-table GPU and a source; the
 * ranking keeps the instances with enough GPUs, fitting first, and scales
 * the GPU's rate by the GPUs the run uses. */
static void test_cloud(void)
{
	gw_model g = model("gpt2"), l = model("llama-2-70b");
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_rank *k = NULL;
	gw_advise_cloud_rank *c = NULL;
	size_t n = 0, nc = 0, total = gw_cloud_instance_count(), want;
	gw_cloud_instance inst;
	gw_gpu_spec spec;

	CHECK(total >= 30);
	for (size_t i = 0; i < total; i++) {
		CHECK_INT(gw_cloud_instance_at(i, &inst), 0);
		CHECK_INT(gw_gpu_spec_find(inst.gpu, &spec), 0);
		CHECK(!strcmp(spec.name, inst.gpu));   /* the exact spec-table name, not a loose match */
		CHECK(inst.gpus >= 1 && inst.gpus <= 16);
		CHECK(strstr(inst.source, "https://") != NULL);
		CHECK(strlen(inst.written) == 10 && inst.written[4] == '-');
		CHECK(inst.price_usd_per_hour >= 0);
		CHECK(!strcmp(inst.provider, "aws") || !strcmp(inst.provider, "gcp") || !strcmp(inst.provider, "azure"));
	}
	CHECK_INT(gw_cloud_instance_at(total, &inst), GW_ENOTFOUND);
	/* The issue's families are there. */
	static const char *const must[] = { "p4d.24xlarge", "p5.48xlarge", "g5.xlarge", "g6.xlarge", "a2-highgpu-8g",
					    "a3-highgpu-8g", "g2-standard-4", "Standard_ND96asr_v4",
					    "Standard_ND96isr_H100_v5" };
	size_t seen = 0;
	for (size_t i = 0; i < total; i++) {
		gw_cloud_instance_at(i, &inst);
		for (size_t j = 0; j < GW_ARRAY_SIZE(must); j++)
			seen += !strcmp(inst.instance, must[j]);
	}
	CHECK_INT(seen, GW_ARRAY_SIZE(must));

	o.batch = 8;
	o.seq = 1024;
	CHECK_INT(gw_advise_hardware(&k, &n, &g, &o), 0);
	CHECK_INT(gw_advise_cloud(&c, &nc, k, n, 1), 0);
	CHECK_INT(nc, total);   /* one GPU: every instance can run it */
	for (size_t i = 0; i < nc; i++) {
		const gw_advise_rank *r = NULL;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(k[j].gpu.name, c[i].instance.gpu))
				r = &k[j];
		CHECK(r != NULL);
		CHECK(r && c[i].rank.fits == r->fits && c[i].rank.step_seconds == r->step_seconds);
		CHECK(r && c[i].samples_per_second == r->samples_per_second);
		/* A cost exactly where the row has a price (test_cloud_prices checks the sum). */
		CHECK((c[i].usd_per_million_samples > 0) == (c[i].instance.price_usd_per_hour > 0));
		if (i) {
			bool same = c[i - 1].rank.fits == c[i].rank.fits &&
				    c[i - 1].usd_per_million_samples == c[i].usd_per_million_samples;
			CHECK(c[i - 1].rank.fits >= c[i].rank.fits);
			if (c[i - 1].rank.fits == c[i].rank.fits)   /* priced rows first */
				CHECK((c[i - 1].usd_per_million_samples > 0) >= (c[i].usd_per_million_samples > 0));
			if (same)
				CHECK(c[i - 1].rank.step_seconds <= c[i].rank.step_seconds);
			if (same && c[i - 1].rank.step_seconds == c[i].rank.step_seconds)
				CHECK(c[i - 1].instance.gpus <= c[i].instance.gpus);   /* the smaller instance first */
		}
	}
	gw_advise_cloud_free(c);
	/* 16 GPUs: only the 16-GPU instances, at 16 × the GPU's rate. */
	want = 0;
	for (size_t i = 0; i < total; i++)
		want += gw_cloud_instance_at(i, &inst) == 0 && inst.gpus >= 16;
	CHECK_INT(gw_advise_cloud(&c, &nc, k, n, 16), 0);
	CHECK_INT(nc, want);
	CHECK(nc >= 1 && !strcmp(c[0].instance.instance, "a2-megagpu-16g"));
	CHECK(nc >= 1 && c[0].gpus_used == 16 && c[0].samples_per_second == 16 * c[0].rank.samples_per_second);
	gw_advise_cloud_free(c);
	gw_advise_ranks_free(k);
	/* 70B inference in bf16 fits no single GPU but the H200's 141 GB: the H200 instances lead. */
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.task = GW_TASK_INFER;
	o.seq = 512;
	o.new_tokens = 64;
	CHECK_INT(gw_advise_hardware(&k, &n, &l, &o), 0);
	CHECK_INT(gw_advise_cloud(&c, &nc, k, n, 1), 0);
	CHECK(nc > 0 && c[0].rank.fits && !strcmp(c[0].instance.gpu, "H200-SXM-141GB"));
	CHECK(nc > 0 && !c[nc - 1].rank.fits);
	gw_advise_cloud_free(c);
	gw_advise_ranks_free(k);
	CHECK_INT(gw_advise_cloud(NULL, &nc, NULL, 0, 1), GW_EINVAL);
	CHECK_INT(gw_advise_cloud(&c, &nc, NULL, 0, 0), GW_EINVAL);
}

/* A priced row (the unit test's own; the table may have none): its cost per
 * million samples is price / 3600 / samples/s × 1e6, the cheaper per sample
 * ranks first whatever the names, an unpriced row has no cost, and the
 * report's JSON carries the price and null for the unpriced row. */
static void test_cloud_prices(void)
{
	gw_model g = model("gpt2");
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_rank *k = NULL;
	gw_advise_cloud_rank *c = NULL;
	gw_advise_report *r = NULL;
	size_t n = 0, nc = 0;
	/* "a-dear" sorts first by name: only the price puts "z-cheap" ahead. */
	const gw_cloud_instance rows[] = {
		{ "aws", "a-dear", "A10", 1, 2.5, "2026-12-03", NULL, "https://example.invalid/dear" },
		{ "aws", "z-cheap", "A10", 1, 1.25, "2026-12-03", NULL, "https://example.invalid/cheap" },
		{ "aws", "unpriced", "A10", 1, 0, "2026-12-03", NULL, "https://example.invalid/none" },
	};

	o.batch = 8;
	o.seq = 1024;
	CHECK_INT(gw_advise_hardware(&k, &n, &g, &o), 0);
	CHECK_INT(gw__advise_cloud_from(&c, &nc, rows, GW_ARRAY_SIZE(rows), k, n, 1), 0);
	CHECK_INT(nc, 3);
	if (nc == 3) {
		CHECK(!strcmp(c[0].instance.instance, "z-cheap"));
		CHECK(!strcmp(c[1].instance.instance, "a-dear"));
		CHECK(c[0].samples_per_second > 0);
		CHECK(fabs(c[0].usd_per_million_samples - 1.25 / 3600.0 / c[0].samples_per_second * 1e6) <
		      1e-9 * c[0].usd_per_million_samples);
		CHECK(fabs(c[1].usd_per_million_samples - 2 * c[0].usd_per_million_samples) <
		      1e-9 * c[1].usd_per_million_samples);
		CHECK(c[0].instance.price_usd_per_hour == 1.25);
		for (size_t i = 0; i < nc; i++)
			if (!strcmp(c[i].instance.instance, "unpriced"))
				CHECK(c[i].usd_per_million_samples == 0 && c[i].instance.price_usd_per_hour == 0);
	}
	gw_advise_cloud_free(c);
	gw_advise_ranks_free(k);

	CHECK_INT(gw_advise_report_new(&r, &g, "catalogue", &o, NULL, 0, 0), 0);
	CHECK_INT(gw__advise_report_add_hardware_from(r, &o, rows, GW_ARRAY_SIZE(rows)), 0);
	CHECK_INT(gw_advise_report_cloud_count(r), 3);
	char *json = gw_advise_report_json(r, 0);
	CHECK(json && strstr(json, "\"instance\":\"z-cheap\""));
	CHECK(json && strstr(json, "\"price_usd_per_hour\":1.25,"));
	CHECK(json && strstr(json, "\"price_usd_per_hour\":2.5,"));
	const char *u = json ? strstr(json, "\"instance\":\"unpriced\"") : NULL;
	CHECK(u && strstr(u, "\"price_usd_per_hour\":null,\"usd_per_million_samples\":null"));
	free(json);
	gw_advise_report_free(r);
}

/* The table's price rule: a price only as the provider itself publishes it,
 * on its own price page or from its own price-list API, which the row's note
 * names with the region and "on-demand"; an API response a public repository
 * stored is named with that repository and the commit
 * (data/cloud_instances.tsv, docs/advise.md §10). */
static bool price_note_ok(const char *provider, const char *note)
{
	static const struct {
		const char *provider, *page, *api;
	} own[] = {
		{ "aws", "https://aws.amazon.com/", "https://pricing.us-east-1.amazonaws.com/offers/" },
		{ "gcp", "https://cloud.google.com/", "https://cloudbilling.googleapis.com/" },
		{ "azure", "https://azure.microsoft.com/", "https://prices.azure.com/api/retail/prices" },
	};
	size_t p = 0;

	while (p < GW_ARRAY_SIZE(own) && strcmp(own[p].provider, provider))
		p++;
	if (p == GW_ARRAY_SIZE(own) || !note)
		return false;
	bool page = strstr(note, own[p].page), api = strstr(note, own[p].api);
	if (!page && !api)
		return false;
	if (!page && !(strstr(note, "github.com/") && strstr(note, "commit ")))
		return false;   /* a stored response: where it is stored */
	return strstr(note, "region ") && strstr(note, "on-demand");
}

static void test_cloud_price_rule(void)
{
	/* A third party's page, a page without its region, a stored API
	 * response without where it is stored, another provider's page: no. */
	static const char *const bad[] = {
		"price: https://instances.vantage.sh/aws/ec2/p5.48xlarge, region us-east-1, Linux, on-demand",
		"price: https://aws.amazon.com/ec2/pricing/on-demand/, Linux, on-demand",
		"price: https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.json, "
		"region us-east-1, Linux, on-demand",
		"price: https://azure.microsoft.com/pricing/details/virtual-machines/linux/, region eastus, on-demand",
	};
	gw_cloud_instance inst;
	size_t priced = 0;

	for (size_t i = 0; i < GW_ARRAY_SIZE(bad); i++)
		CHECK(!price_note_ok("aws", bad[i]));
	CHECK(price_note_ok("aws", "price: https://aws.amazon.com/ec2/instance-types/p5/, region us-east-1, Linux, on-demand"));
	CHECK(price_note_ok("azure", "price: https://prices.azure.com/api/retail/prices, region eastus, Linux, on-demand; "
				     "as stored in github.com/o/r f at commit 0123456789ab"));
	CHECK(!price_note_ok("oracle", "price: https://aws.amazon.com/x, region y, on-demand"));

	for (size_t i = 0; i < gw_cloud_instance_count(); i++) {
		CHECK_INT(gw_cloud_instance_at(i, &inst), 0);
		if (inst.price_usd_per_hour <= 0)
			continue;
		priced++;
		CHECK(price_note_ok(inst.provider, inst.note));
	}
	CHECK(priced >= 1);   /* the table has prices (as of 2026-12-06: five rows) */
}

/* --torch: what older PyTorch releases keep, by hand. */
/* A plain loop (`logits = model(x)`) keeps the last step's logits and
 * graph through the next forward. Only what the graph holds outside its
 * saved variables outlives backward: bitsandbytes' 4-bit inputs before
 * 0.43.2 (ctx.tensors). The peak then moves to the end of the forward
 * pass where they outweigh the loss's fp32 copy and log-softmax. */
static void test_training_loop(void)
{
	gw_advise_estimate trainer, plain;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model llama = model("llama-2-7b");
	double tokens = 2 * 512, e = 2, V = 32000, L = 32, h = 4096, I = 11008;

	CHECK_INT(gw_advise_value("loop", "plain"), GW_LOOP_PLAIN);
	CHECK_INT(gw_advise_value("loop", "trainer"), GW_LOOP_TRAINER);
	CHECK(strcmp(gw_advise_names("loop"), "trainer plain") == 0);
	o.task = GW_TASK_QLORA;
	o.weights = GW_WEIGHTS_NF4;
	o.precision = GW_PRECISION_AMP_BF16;
	o.batch = 2;
	o.seq = 512;
	o.bitsandbytes_version = 4200;
	CHECK_INT(gw_advise_estimate_run(&trainer, &llama, &o), 0);
	o.loop = GW_LOOP_PLAIN;
	CHECK_INT(gw_advise_estimate_run(&plain, &llama, &o), 0);
	/* held: the previous logits (e each) and, a layer, the attention's and
	 * the MLP's input, o_proj's (q = h wide) and down_proj's (I); the loss
	 * adds 4 + 4 bytes a logit after the forward. */
	CHECK_INT(plain.activations_bytes - trainer.activations_bytes,
		  (uint64_t)(e * tokens * V + e * tokens * (3 * h + I) * L - 8 * tokens * V));
	/* With checkpointing the layer backward recomputes comes after them too. */
	o.checkpointing = true;
	o.loop = GW_LOOP_TRAINER;
	CHECK_INT(gw_advise_estimate_run(&trainer, &llama, &o), 0);
	o.loop = GW_LOOP_PLAIN;
	CHECK_INT(gw_advise_estimate_run(&plain, &llama, &o), 0);
	CHECK(plain.activations_bytes > trainer.activations_bytes);
	CHECK(plain.activations_bytes - trainer.activations_bytes <
	      (uint64_t)(e * tokens * V + e * tokens * (3 * h + I) * L - 8 * tokens * V));
	o.checkpointing = false;
	/* A current bitsandbytes, LoRA and full training: what the graph holds
	 * is the logits alone, less than the loss adds: the same peak at the
	 * start of backward; but full training peaks at its end (every
	 * gradient and Adam's step), where the plain loop's logits are still
	 * bound (kept_logits): e a logit more. */
	o.bitsandbytes_version = 0;
	gw_advise_task tasks[] = { GW_TASK_QLORA, GW_TASK_LORA, GW_TASK_TRAIN };
	for (size_t i = 0; i < GW_ARRAY_SIZE(tasks); i++) {
		o.task = tasks[i];
		o.weights = tasks[i] == GW_TASK_QLORA ? GW_WEIGHTS_NF4 : GW_WEIGHTS_AUTO;
		o.loop = GW_LOOP_TRAINER;
		CHECK_INT(gw_advise_estimate_run(&trainer, &llama, &o), 0);
		o.loop = GW_LOOP_PLAIN;
		CHECK_INT(gw_advise_estimate_run(&plain, &llama, &o), 0);
		CHECK_INT(plain.peak_allocated_bytes,
			  trainer.peak_allocated_bytes + (tasks[i] == GW_TASK_TRAIN ? (uint64_t)(e * tokens * V) : 0));
	}
	o.loop = 2;
	CHECK_INT(gw_advise_estimate_run(&plain, &llama, &o), GW_EINVAL);
}

/* Since PyTorch 2.0 zero_grad() sets the gradients to None, so a
 * single-GPU full training step never holds all its gradients beside all
 * its activations: allocated is weights + states + workspaces + the larger
 * of (activations + the LM head's gradient) and (gradients + the step's
 * copies). Reserved keeps the sum. Before 2.0, while accumulating, on two
 * GPUs and under LoRA the sum stands. */
static void test_gradients_after_activations(void)
{
	gw_advise_estimate now, old;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model p = model("gpt2");
	double V = 50257, h = 768, sum;

	o.task = GW_TASK_TRAIN;
	o.precision = GW_PRECISION_FP16;
	o.optimizer = GW_OPTIMIZER_SGD;
	o.attention = GW_ATTENTION_EAGER;   /* the same before 2.0 */
	o.batch = 8;
	o.seq = 1024;
	o.cc_major = 8;
	o.gpu_memory_bytes = 80 * GIB;
	CHECK_INT(gw_advise_estimate_run(&now, &p, &o), 0);
	sum = (double)(now.weights_bytes + now.gradients_bytes + now.optimizer_bytes + now.activations_bytes +
		       now.kv_cache_bytes + now.workspace_bytes);
	CHECK(now.activations_bytes > now.gradients_bytes);   /* the peak is where backward starts */
	CHECK_INT(now.peak_allocated_bytes, (uint64_t)(sum - (double)now.gradients_bytes + V * h * 2));
	o.torch_version = 113;
	CHECK_INT(gw_advise_estimate_run(&old, &p, &o), 0);
	CHECK_INT(old.peak_allocated_bytes, (uint64_t)sum);
	CHECK_INT(old.peak_reserved_bytes, now.peak_reserved_bytes);
	o.torch_version = 200;
	CHECK_INT(gw_advise_estimate_run(&old, &p, &o), 0);
	CHECK_INT(old.peak_allocated_bytes, now.peak_allocated_bytes);
	/* Small activations: the end of backward, every gradient and the tied
	 * embedding's second one, whose excess over the activations counts as
	 * gradients (test_tied_embedding_grad). */
	o.batch = 1;
	o.seq = 16;
	CHECK_INT(gw_advise_estimate_run(&now, &p, &o), 0);
	CHECK(now.gradients_bytes > now.activations_bytes);
	CHECK_INT(now.peak_allocated_bytes, now.weights_bytes + now.gradients_bytes + now.optimizer_bytes +
					    now.activations_bytes + now.workspace_bytes);
	/* Adam: its foreach step copies a state's worth beside the gradients,
	 * more than these activations: the step is the peak, as in the sum
	 * (which counts the step's excess over the activations as optimizer). */
	o.optimizer = GW_OPTIMIZER_ADAMW;
	CHECK_INT(gw_advise_estimate_run(&now, &p, &o), 0);
	CHECK_INT(now.peak_allocated_bytes, now.weights_bytes + now.gradients_bytes + now.optimizer_bytes +
					    now.activations_bytes + now.workspace_bytes);
	o.optimizer = GW_OPTIMIZER_SGD;
	o.batch = 8;
	o.seq = 1024;
	o.grad_accum = 2;
	CHECK_INT(gw_advise_estimate_run(&old, &p, &o), 0);
	CHECK_INT(old.peak_allocated_bytes, old.weights_bytes + old.gradients_bytes + old.optimizer_bytes +
					    old.activations_bytes + old.workspace_bytes);
	o.grad_accum = 1;
	o.gpus = 2;
	CHECK_INT(gw_advise_estimate_run(&old, &p, &o), 0);
	CHECK_INT(old.peak_allocated_bytes, old.weights_bytes + old.gradients_bytes + old.optimizer_bytes +
					    old.activations_bytes + old.workspace_bytes);
	/* FSDP frees its sharded gradients too (FlatParamHandle.
	 * _clear_grads_if_needed, or the flat parameters' own .grad): the
	 * overlap holds on several GPUs; ZeRO-3's flat partitions and FSDP's
	 * no_sync accumulation keep the sum. */
	o.strategy = GW_STRATEGY_FSDP;
	CHECK_INT(gw_advise_estimate_run(&now, &p, &o), 0);
	sum = (double)(now.weights_bytes + now.gradients_bytes + now.optimizer_bytes + now.activations_bytes +
		       now.kv_cache_bytes + now.workspace_bytes);
	CHECK(now.activations_bytes > now.gradients_bytes && now.gradients_bytes > V * h * 2);
	CHECK_INT(now.peak_allocated_bytes, (uint64_t)(sum - (double)now.gradients_bytes + V * h * 2));
	o.strategy = GW_STRATEGY_FSDP_MIXED;
	CHECK_INT(gw_advise_estimate_run(&old, &p, &o), 0);
	CHECK_INT(old.peak_allocated_bytes, now.peak_allocated_bytes);
	o.grad_accum = 2;
	CHECK_INT(gw_advise_estimate_run(&old, &p, &o), 0);
	CHECK_INT(old.peak_allocated_bytes, old.weights_bytes + old.gradients_bytes + old.optimizer_bytes +
					    old.activations_bytes + old.workspace_bytes);
	o.grad_accum = 1;
	o.strategy = GW_STRATEGY_ZERO3;
	CHECK_INT(gw_advise_estimate_run(&old, &p, &o), 0);
	CHECK_INT(old.peak_allocated_bytes, old.weights_bytes + old.gradients_bytes + old.optimizer_bytes +
					    old.activations_bytes + old.workspace_bytes);
	o.strategy = GW_STRATEGY_DDP;
	o.gpus = 1;
	o.task = GW_TASK_LORA;
	CHECK_INT(gw_advise_estimate_run(&old, &p, &o), 0);
	CHECK_INT(old.peak_allocated_bytes, old.weights_bytes + old.gradients_bytes + old.optimizer_bytes +
					    old.activations_bytes + old.workspace_bytes);
	/* Under autocast the weights hold the half copies of the linear
	 * weights (2·P_lin); they are alive at the start of backward and gone
	 * at its end: the end's peak leaves them out, the start's keeps them. */
	o.task = GW_TASK_TRAIN;
	o.precision = GW_PRECISION_AMP_BF16;
	o.batch = 1;
	o.seq = 16;
	CHECK_INT(gw_advise_estimate_run(&now, &p, &o), 0);
	CHECK(now.gradients_bytes > now.activations_bytes + 2 * (double)p.params_linear);
	CHECK_INT(now.peak_allocated_bytes, now.weights_bytes - 2 * p.params_linear + now.gradients_bytes +
					    now.optimizer_bytes + now.activations_bytes + now.workspace_bytes);
	o.batch = 8;
	o.seq = 1024;
	CHECK_INT(gw_advise_estimate_run(&now, &p, &o), 0);
	sum = (double)(now.weights_bytes + now.gradients_bytes + now.optimizer_bytes + now.activations_bytes +
		       now.kv_cache_bytes + now.workspace_bytes);
	CHECK_INT(now.peak_allocated_bytes, (uint64_t)(sum - (double)now.gradients_bytes + V * h * 4));
}

/* A tied embedding (GPT-2's wte, the LM head's weight) gets two gradients
 * in backward: the head's waits in the leaf's input buffer while the
 * embedding's backward makes a dense vocab × h one, so the end of backward
 * holds every gradient plus V·h. Untied, frozen (LoRA) or with large
 * activations (the start of backward is the peak): nothing more. */
static void test_tied_embedding_grad(void)
{
	gw_advise_estimate tied, untied;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model p = model("gpt2");
	double E = 50257.0 * 768 * 2, d;

	o.task = GW_TASK_TRAIN;
	o.precision = GW_PRECISION_FP16;
	o.optimizer = GW_OPTIMIZER_SGD;
	o.attention = GW_ATTENTION_EAGER;
	o.batch = 1;
	o.seq = 16;
	o.cc_major = 8;
	o.gpu_memory_bytes = 80 * GIB;
	CHECK(p.tied_embeddings);
	CHECK_INT(gw_advise_estimate_run(&tied, &p, &o), 0);
	p.tied_embeddings = false;
	CHECK_INT(gw_advise_estimate_run(&untied, &p, &o), 0);
	CHECK(untied.activations_bytes < E);
	CHECK_INT(untied.peak_allocated_bytes, untied.weights_bytes + untied.gradients_bytes +
					       untied.optimizer_bytes + untied.workspace_bytes);
	d = (double)tied.peak_allocated_bytes - (double)untied.peak_allocated_bytes - E;
	CHECK(d > -4 && d < 4);
	/* Adam's foreach step outgrows it after backward: the step is the peak. */
	o.optimizer = GW_OPTIMIZER_ADAMW;
	CHECK_INT(gw_advise_estimate_run(&untied, &p, &o), 0);
	p.tied_embeddings = true;
	CHECK_INT(gw_advise_estimate_run(&tied, &p, &o), 0);
	CHECK_INT(tied.peak_allocated_bytes, untied.peak_allocated_bytes);
	/* Large activations: the start of backward. */
	o.optimizer = GW_OPTIMIZER_SGD;
	o.batch = 8;
	o.seq = 1024;
	CHECK_INT(gw_advise_estimate_run(&tied, &p, &o), 0);
	p.tied_embeddings = false;
	CHECK_INT(gw_advise_estimate_run(&untied, &p, &o), 0);
	CHECK_INT(tied.peak_allocated_bytes, untied.peak_allocated_bytes);
	/* LoRA: the embedding is frozen. */
	o.task = GW_TASK_LORA;
	o.batch = 1;
	o.seq = 16;
	CHECK_INT(gw_advise_estimate_run(&untied, &p, &o), 0);
	p.tied_embeddings = true;
	CHECK_INT(gw_advise_estimate_run(&tied, &p, &o), 0);
	CHECK_INT(tied.peak_allocated_bytes, untied.peak_allocated_bytes);
}

/* bitsandbytes' paged optimizers keep their states in managed memory
 * (cudaMallocManaged through F.get_paged), outside PyTorch's caching
 * allocator: allocated and reserved leave them out, the device counts
 * them. */
static void test_paged_states(void)
{
	gw_advise_estimate plain, paged;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model p = model("gpt2");
	double n = (double)p.params, d;

	o.task = GW_TASK_TRAIN;
	o.precision = GW_PRECISION_FP32;
	o.optimizer = GW_OPTIMIZER_ADAMW_8BIT;
	o.batch = 2;
	o.seq = 128;
	o.cc_major = 8;
	o.gpu_memory_bytes = 80 * GIB;
	CHECK_INT(gw_advise_estimate_run(&plain, &p, &o), 0);
	o.optimizer = GW_OPTIMIZER_PAGED_ADAMW_8BIT;
	CHECK_INT(gw_advise_estimate_run(&paged, &p, &o), 0);
	CHECK_INT(plain.paged_bytes, 0);
	CHECK_INT(paged.paged_bytes, (uint64_t)(2 * n));
	d = (double)plain.optimizer_bytes - (double)paged.optimizer_bytes - 2 * n;
	CHECK(d > -2 && d < 2);
	d = (double)plain.peak_allocated_bytes - (double)paged.peak_allocated_bytes - 2 * n;
	CHECK(d > -4 && d < 4);
	CHECK(paged.peak_reserved_bytes < plain.peak_reserved_bytes);
	CHECK_INT(paged.peak_device_bytes, paged.peak_reserved_bytes + paged.cuda_context_bytes + paged.paged_bytes);
	/* Inference has no states. */
	o.task = GW_TASK_INFER;
	CHECK_INT(gw_advise_estimate_run(&paged, &p, &o), 0);
	CHECK_INT(paged.paged_bytes, 0);
}

/* Adam's step by PyTorch release: from 2.1 foreach Adam keeps one
 * state-sized list (exp_avg_sq_sqrt, denom in place); 2.0's foreach step
 * kept denom = _foreach_add(exp_avg_sq_sqrt, eps) beside it, two
 * (pytorch/pytorch#97712); before 2.0 the default was the for-loop, two of
 * the largest parameter's size at once. Small activations: the step is
 * the peak, and what it adds beyond the activations is optimizer bytes. */
static void test_adam_step_by_torch(void)
{
	gw_advise_estimate now, v20, v113;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model p = model("gpt2");
	double t = (double)p.params * 2, big = 50257.0 * 768 * 2;

	o.task = GW_TASK_TRAIN;
	o.precision = GW_PRECISION_FP16;
	o.attention = GW_ATTENTION_EAGER;
	o.batch = 1;
	o.seq = 16;
	o.cc_major = 8;
	o.gpu_memory_bytes = 80 * GIB;
	CHECK_INT(gw_advise_estimate_run(&now, &p, &o), 0);
	CHECK((double)now.activations_bytes < big);
	o.torch_version = 200;
	CHECK_INT(gw_advise_estimate_run(&v20, &p, &o), 0);
	CHECK(llabs((long long)(v20.optimizer_bytes - now.optimizer_bytes) - (long long)t) < 2);
	CHECK_INT(v20.peak_allocated_bytes - now.peak_allocated_bytes, v20.optimizer_bytes - now.optimizer_bytes);
	o.torch_version = 113;
	CHECK_INT(gw_advise_estimate_run(&v113, &p, &o), 0);
	CHECK(llabs((long long)(now.optimizer_bytes - v113.optimizer_bytes) - (long long)(t - 2 * big)) < 2);
	o.torch_version = 201;
	CHECK_INT(gw_advise_estimate_run(&v20, &p, &o), 0);
	CHECK_INT(v20.optimizer_bytes, now.optimizer_bytes);
	/* fused Adam steps in place whatever the release */
	o.optimizer = GW_OPTIMIZER_ADAMW_FUSED;
	o.torch_version = 0;
	CHECK_INT(gw_advise_estimate_run(&now, &p, &o), 0);
	o.torch_version = 200;
	CHECK_INT(gw_advise_estimate_run(&v20, &p, &o), 0);
	CHECK_INT(v20.optimizer_bytes, now.optimizer_bytes);
}

/* AutoAWQ's from_quantized(fuse_layers=True): the cache is allocated at
 * load for --new-tokens positions (not the run's tokens), the fused
 * attention's softmax runs over an fp32 copy of the half scores (4 bytes
 * a score more), and while it fuses q, k and v every layer's original
 * q, k and v stay beside the fused copy: the load's peak, where it is
 * above the run's, adds its excess to the weights. */
static void test_autoawq_fused(void)
{
	gw_advise_estimate plain, fused;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model l = model("llama-2-7b");
	double L = 32, h = 4096, kv_tok = 2 * h * 2, qkv = h * 3 * h * (0.5 + 2.5 / 128), scores;

	o.task = GW_TASK_INFER;
	o.precision = GW_PRECISION_FP16;
	o.weights = GW_WEIGHTS_GPTQ4;
	o.attention = GW_ATTENTION_EAGER;
	o.seq = 128;
	o.new_tokens = 64;
	o.cc_major = 8;
	o.gpu_memory_bytes = 24 * GIB;
	CHECK_INT(gw_advise_estimate_run(&plain, &l, &o), 0);
	o.autoawq_fused = 1;
	CHECK_INT(gw_advise_estimate_run(&fused, &l, &o), 0);
	CHECK_INT(plain.kv_cache_bytes, (uint64_t)ceil(L * 128 * kv_tok));
	CHECK_INT(fused.kv_cache_bytes, (uint64_t)ceil(L * 64 * kv_tok));
	/* short run: the load's peak, weights + a copy of q, k, v per layer
	 * (and one layer's zero buffers) + the caches but for the last one */
	CHECK(fused.peak_allocated_bytes > plain.peak_allocated_bytes + 512 * MIB);
	CHECK(llabs((long long)fused.peak_allocated_bytes - (long long)(plain.weights_bytes + (L + 1) * qkv +
			fused.kv_cache_bytes * (L - 1) / L)) < 2);
	CHECK_INT(fused.peak_allocated_bytes, fused.weights_bytes + fused.activations_bytes + fused.kv_cache_bytes +
					      fused.workspace_bytes);
	/* long prefill: the run's peak; the scores 4 bytes more each */
	o.seq = 4096;
	o.new_tokens = 2048;
	o.autoawq_fused = 0;
	CHECK_INT(gw_advise_estimate_run(&plain, &l, &o), 0);
	o.autoawq_fused = 1;
	CHECK_INT(gw_advise_estimate_run(&fused, &l, &o), 0);
	scores = 32.0 * 2048 * 2048 * 4;
	CHECK_INT(fused.weights_bytes, plain.weights_bytes);
	CHECK_INT(fused.activations_bytes, plain.activations_bytes + (uint64_t)scores);
	CHECK_INT(fused.kv_cache_bytes, plain.kv_cache_bytes / 2);
	/* Falcon's query_key_value is already one map: no copy */
	gw_model f = config("{\"model_type\":\"falcon\",\"hidden_size\":4544,\"num_attention_heads\":71,"
			    "\"multi_query\":true,\"num_hidden_layers\":32,\"vocab_size\":65024,\"parallel_attn\":true}");
	o.seq = 128;
	o.new_tokens = 64;
	o.autoawq_fused = 0;
	CHECK_INT(gw_advise_estimate_run(&plain, &f, &o), 0);
	o.autoawq_fused = 1;
	CHECK_INT(gw_advise_estimate_run(&fused, &f, &o), 0);
	CHECK_INT(fused.weights_bytes, plain.weights_bytes);
	/* refused: not infer, not 4-bit AWQ, SDPA, a non-0/1 value */
	o.seq = 128;
	o.new_tokens = 64;
	o.weights = GW_WEIGHTS_FP16;
	CHECK_INT(gw_advise_estimate_run(&fused, &l, &o), GW_EINVAL);
	o.weights = GW_WEIGHTS_GPTQ4;
	o.attention = GW_ATTENTION_SDPA;
	CHECK_INT(gw_advise_estimate_run(&fused, &l, &o), GW_EINVAL);
	o.attention = GW_ATTENTION_AUTO;
	CHECK_INT(gw_advise_estimate_run(&fused, &l, &o), 0);
	CHECK_INT(fused.resolved.attention, GW_ATTENTION_EAGER);
	o.gpus = 2;
	CHECK_INT(gw_advise_estimate_run(&fused, &l, &o), GW_EINVAL);
	o.gpus = 1;
	o.autoawq_fused = 2;
	CHECK_INT(gw_advise_estimate_run(&fused, &l, &o), GW_EINVAL);
	o.autoawq_fused = 1;
	o.task = GW_TASK_QLORA;
	o.new_tokens = 0;
	CHECK_INT(gw_advise_estimate_run(&fused, &l, &o), GW_EINVAL);
}

/* AutoAWQ 0.2.7's Llama-shaped fused blocks call SDPA (LlamaLikeBlock's
 * use_sdpa=True): no scores; the keys and values repeated to every query
 * head and the fused model's p × p causal mask in their place. Other
 * fused blocks (Falcon's) and earlier releases keep the eager scores. */
static void test_autoawq_sdpa(void)
{
	gw_advise_estimate old, sdpa;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	/* a narrow MLP, so that attention is the layer's peak */
	gw_model g = config("{\"model_type\":\"llama\",\"hidden_size\":256,\"num_attention_heads\":4,"
			    "\"num_key_value_heads\":2,\"intermediate_size\":64,\"num_hidden_layers\":2,"
			    "\"vocab_size\":1000}");
	double p = 1024, e = 2, h = 256, kv = 128, logits = 1000 * (e + 4);
	uint32_t v;

	o.task = GW_TASK_INFER;
	o.precision = GW_PRECISION_FP16;
	o.weights = GW_WEIGHTS_GPTQ4;
	o.seq = 2048;
	o.new_tokens = 1024;
	o.cc_major = 8;
	o.gpu_memory_bytes = 24 * GIB;
	o.autoawq_fused = 1;
	CHECK_INT(gw_advise_estimate_run(&old, &g, &o), 0);
	CHECK_INT(old.resolved.attention, GW_ATTENTION_EAGER);
	o.autoawq_version = 207;
	CHECK_INT(gw_advise_estimate_run(&sdpa, &g, &o), 0);
	CHECK_INT(sdpa.resolved.attention, GW_ATTENTION_SDPA);
	CHECK_INT(sdpa.activations_bytes, (uint64_t)(2 * e * p * h + e * p * (3 * h + 2 * kv) + 2 * e * p * h +
						     e * p * p + logits));
	CHECK(sdpa.activations_bytes + 4 * p * p * 4 < old.activations_bytes);
	CHECK_INT(sdpa.kv_cache_bytes, old.kv_cache_bytes);
	/* 0.2.6 is before the change */
	o.autoawq_version = 206;
	CHECK_INT(gw_advise_estimate_run(&sdpa, &g, &o), 0);
	CHECK_INT(sdpa.activations_bytes, old.activations_bytes);
	/* Falcon's fused block computes its scores itself in 0.2.7 too */
	gw_model f = config("{\"model_type\":\"falcon\",\"hidden_size\":256,\"num_attention_heads\":4,"
			    "\"multi_query\":true,\"num_hidden_layers\":2,\"vocab_size\":1000,\"parallel_attn\":true}");
	o.autoawq_version = 0;
	CHECK_INT(gw_advise_estimate_run(&old, &f, &o), 0);
	o.autoawq_version = 207;
	CHECK_INT(gw_advise_estimate_run(&sdpa, &f, &o), 0);
	CHECK_INT(sdpa.activations_bytes, old.activations_bytes);
	CHECK_INT(sdpa.resolved.attention, GW_ATTENTION_EAGER);
	/* a release without --autoawq-fused, or out of range, is refused */
	o.autoawq_fused = 0;
	CHECK_INT(gw_advise_estimate_run(&sdpa, &g, &o), GW_EINVAL);
	o.autoawq_fused = 1;
	o.autoawq_version = 99;
	CHECK_INT(gw_advise_estimate_run(&sdpa, &g, &o), GW_EINVAL);
	/* the parser */
	CHECK_INT(gw_advise_autoawq_version("0.2.7", &v), 0);
	CHECK_INT(v, 207);
	CHECK_INT(gw_advise_autoawq_version("0.2.7.post3", &v), 0);
	CHECK_INT(v, 207);
	CHECK_INT(gw_advise_autoawq_version("0.1.6", &v), 0);
	CHECK_INT(v, 106);
	CHECK_INT(gw_advise_autoawq_version("0.0.9", &v), GW_EINVAL);
	CHECK_INT(gw_advise_autoawq_version("two", &v), GW_EINVAL);
}

/* A model built on the GPU (init_on_gpu: optimum-benchmark's no_weights
 * models) allocates its tied LM head's own weight before tie_weights()
 * frees it: that 2 MiB-rounded segment stays reserved, the allocated
 * peak is the run's. Untied heads, vision models and models loaded onto
 * the GPU keep their reserve. */
static void test_init_on_gpu(void)
{
	gw_advise_estimate loaded, built;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model g = model("gpt2");
	double head = ceil(50257.0 * 768 * 4 / 2097152) * 2097152;

	o.task = GW_TASK_INFER;
	o.precision = GW_PRECISION_FP32;
	o.attention = GW_ATTENTION_EAGER;
	o.seq = 3;
	o.new_tokens = 1;
	o.cc_major = 8;
	o.gpu_memory_bytes = 80 * GIB;
	CHECK_INT(gw_advise_estimate_run(&loaded, &g, &o), 0);
	o.init_on_gpu = 1;
	CHECK_INT(gw_advise_estimate_run(&built, &g, &o), 0);
	CHECK_INT(built.peak_allocated_bytes, loaded.peak_allocated_bytes);
	CHECK(llabs((long long)built.peak_reserved_bytes - (long long)(loaded.peak_reserved_bytes -
	      (loaded.peak_allocated_bytes - loaded.weights_bytes) + head)) < 2);
	/* a long run whose own reserve beyond the weights is larger: unchanged */
	o.seq = 4096;
	o.new_tokens = 1;
	o.batch = 8;
	o.init_on_gpu = 0;
	CHECK_INT(gw_advise_estimate_run(&loaded, &g, &o), 0);
	o.init_on_gpu = 1;
	CHECK_INT(gw_advise_estimate_run(&built, &g, &o), 0);
	CHECK_INT(built.peak_reserved_bytes, loaded.peak_reserved_bytes);
	/* BERT: only with its masked-LM head (tied to the word embeddings) */
	gw_model b = model("bert-base-uncased");
	o.seq = 2;
	o.new_tokens = 0;
	o.batch = 1;
	o.init_on_gpu = 0;
	CHECK_INT(gw_advise_estimate_run(&loaded, &b, &o), 0);
	o.init_on_gpu = 1;
	CHECK_INT(gw_advise_estimate_run(&built, &b, &o), 0);
	CHECK_INT(built.peak_reserved_bytes, loaded.peak_reserved_bytes);
	CHECK_INT(gw_model_use_lm_head(&b), 0);
	o.init_on_gpu = 0;
	CHECK_INT(gw_advise_estimate_run(&loaded, &b, &o), 0);
	o.init_on_gpu = 1;
	CHECK_INT(gw_advise_estimate_run(&built, &b, &o), 0);
	head = ceil(30522.0 * 768 * 4 / 2097152) * 2097152;
	CHECK(llabs((long long)built.peak_reserved_bytes - (long long)(loaded.peak_reserved_bytes -
	      (loaded.peak_allocated_bytes - loaded.weights_bytes) + head)) < 2);
	CHECK_INT(built.peak_allocated_bytes, loaded.peak_allocated_bytes);
	o.init_on_gpu = 2;
	CHECK_INT(gw_advise_estimate_run(&built, &b, &o), GW_EINVAL);
}

/* A script that calls model(ids) on the prompt itself (GW_LOOP_PLAIN in
 * inference: AutoAWQ's examples/benchmark.py) computes every prompt
 * position's logits, whatever the transformers release; the Llama family
 * casts them to fp32 before 4.46. generate() keeps the last position's
 * from 4.45. */
static void test_infer_plain_loop_logits(void)
{
	gw_advise_estimate gen, plain;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model l = model("llama-3-8b");
	double p = 4096, e = 2, h = 4096, V = 128256;

	o.task = GW_TASK_INFER;
	o.precision = GW_PRECISION_FP16;
	o.attention = GW_ATTENTION_SDPA;
	o.seq = 8192;
	o.new_tokens = 4096;
	o.cc_major = 8;
	o.gpu_memory_bytes = 80 * GIB;
	CHECK_INT(gw_advise_estimate_run(&gen, &l, &o), 0);
	o.loop = GW_LOOP_PLAIN;
	CHECK_INT(gw_advise_estimate_run(&plain, &l, &o), 0);
	CHECK(gen.activations_bytes < p * V * e);
	CHECK_INT(plain.activations_bytes, (uint64_t)(2 * e * p * h + p * V * e));
	o.transformers_version = 445;
	CHECK_INT(gw_advise_estimate_run(&plain, &l, &o), 0);
	CHECK_INT(plain.activations_bytes, (uint64_t)(2 * e * p * h + p * V * (e + 4)));
	o.transformers_version = 446;
	CHECK_INT(gw_advise_estimate_run(&plain, &l, &o), 0);
	CHECK_INT(plain.activations_bytes, (uint64_t)(2 * e * p * h + p * V * e));
	/* generate() with 4.45 keeps the last position only */
	o.loop = GW_LOOP_TRAINER;
	o.transformers_version = 445;
	CHECK_INT(gw_advise_estimate_run(&gen, &l, &o), 0);
	CHECK(gen.activations_bytes < p * V * e);
}

/* BERT inference's reserve is replayed through the caching allocator
 * (the parameters in module order, the embeddings, each layer's q, k, v,
 * attention's output and its copy, the sums and LayerNorms, the
 * intermediate and its GELU), not the 25 % slack of the other inference
 * runs: reserved is allocated plus the replay's reserve beyond its peak. */
static void test_encoder_infer_replay(void)
{
	gw_advise_estimate e;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model b = model("bert-base-uncased");
	double slack = -1;

	o.task = GW_TASK_INFER;
	o.precision = GW_PRECISION_FP16;
	o.attention = GW_ATTENTION_SDPA;
	o.batch = 64;
	o.seq = 512;
	o.cc_major = 9;
	o.gpu_memory_bytes = 141 * GIB;
	CHECK_INT(gw_advise_estimate_run(&e, &b, &o), 0);
	CHECK(gw__advise_encoder_infer_replay(&b, &e.resolved, (double)e.workspace_bytes, &slack));
	CHECK(slack > 0.25 * (double)e.activations_bytes + 2 * 1048576.0);   /* the flat slack was 20 % low here */
	CHECK(fabs((double)e.peak_reserved_bytes - (double)e.peak_allocated_bytes - slack) < 2);
	/* Growing the batch grows the reserve: each layer's 16-bit tensors of
	 * 64 × 512 × 768 and × 3072 no longer fit the blocks the weights'
	 * segments leave. */
	o.batch = 128;
	{
		double bigger;
		CHECK_INT(gw_advise_estimate_run(&e, &b, &o), 0);
		CHECK(gw__advise_encoder_infer_replay(&b, &e.resolved, (double)e.workspace_bytes, &bigger));
		CHECK(bigger >= slack);
	}
}

/* --transformers: before 4.45 generate()'s first forward computes the
 * logits of every prompt position (no num_logits_to_keep,
 * huggingface/transformers#31292) and the Llama family casts them to
 * fp32; the peak is then the LM head's, by hand. */
static void test_transformers_version(void)
{
	gw_advise_estimate now, old;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model llama = model("llama-2-7b"), gpt2 = model("gpt2");
	double p = 2048, b = 2, V = 32000, h = 4096;

	o.task = GW_TASK_INFER;
	o.precision = GW_PRECISION_FP16;
	o.batch = 2;
	o.seq = 4096;
	o.new_tokens = 2048;
	CHECK_INT(gw_advise_estimate_run(&now, &llama, &o), 0);
	o.transformers_version = 445;
	CHECK_INT(gw_advise_estimate_run(&old, &llama, &o), 0);
	CHECK_INT(old.activations_bytes, now.activations_bytes);
	/* 4.44: half logits and their fp32 copy, beside the last hidden
	 * state and its normed copy */
	o.transformers_version = 444;
	CHECK_INT(gw_advise_estimate_run(&old, &llama, &o), 0);
	CHECK_INT(old.activations_bytes, (uint64_t)(2 * 2 * p * b * h + p * b * V * (2 + 4)));
	CHECK(old.activations_bytes > 2 * now.activations_bytes);
	CHECK_INT(old.peak_allocated_bytes - now.peak_allocated_bytes, old.activations_bytes - now.activations_bytes);
	CHECK_INT(old.kv_cache_bytes, now.kv_cache_bytes);
	/* GPT-2's forward does not upcast: the half logits only */
	o.seq = 1024;
	o.new_tokens = 512;
	o.transformers_version = 444;
	CHECK_INT(gw_advise_estimate_run(&old, &gpt2, &o), 0);
	CHECK_INT(old.activations_bytes, (uint64_t)(2 * 2 * 512 * b * 768 + 512 * b * 50257 * 2.0));
	/* training already computes every position's logits; but before
	 * 4.46 the Llama family's loss rebinds `logits = logits.float()` (the
	 * half logits freed) and copies the shifted fp32 logits
	 * (`.contiguous()`) before the log-softmax: 4 + 4 + 4 bytes a logit
	 * where 4.46 and later count 2 + 4 + 4 (4.40's LlamaForCausalLM). */
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	CHECK_INT(gw_advise_estimate_run(&now, &llama, &o), 0);
	o.transformers_version = 430;
	CHECK_INT(gw_advise_estimate_run(&old, &llama, &o), 0);
	CHECK_INT(old.activations_bytes - now.activations_bytes, 2048ull * 32000 * 2);
	o.transformers_version = 440;
	o.precision = GW_PRECISION_FP32;   /* fp32 logits: the copy, 4 bytes more */
	CHECK_INT(gw_advise_estimate_run(&old, &llama, &o), 0);
	o.transformers_version = 446;
	CHECK_INT(gw_advise_estimate_run(&now, &llama, &o), 0);
	CHECK_INT(old.activations_bytes - now.activations_bytes, 2048ull * 32000 * 4);
	o.precision = GW_PRECISION_AUTO;
	CHECK_INT(gw_advise_estimate_run(&old, &llama, &o), 0);
	o.transformers_version = 0;
	CHECK_INT(gw_advise_estimate_run(&now, &llama, &o), 0);
	CHECK_INT(old.peak_allocated_bytes, now.peak_allocated_bytes);
	/* GPT-2's forward does not upcast: unchanged */
	o.transformers_version = 430;
	CHECK_INT(gw_advise_estimate_run(&old, &gpt2, &o), 0);
	o.transformers_version = 0;
	CHECK_INT(gw_advise_estimate_run(&now, &gpt2, &o), 0);
	CHECK_INT(old.peak_allocated_bytes, now.peak_allocated_bytes);
	o.transformers_version = 430;
	o.loss_chunks = 8;   /* torchtune's loss, not transformers' */
	CHECK_INT(gw_advise_estimate_run(&old, &llama, &o), 0);
	o.transformers_version = 0;
	CHECK_INT(gw_advise_estimate_run(&now, &llama, &o), 0);
	CHECK_INT(old.peak_allocated_bytes, now.peak_allocated_bytes);
	o.loss_chunks = 0;
	/* not major·100 + minor; a version-5 caller still reads */
	o.transformers_version = 44;
	CHECK_INT(gw_advise_estimate_run(&old, &llama, &o), GW_EINVAL);
	o.transformers_version = 0;
	o.version = 5;
	CHECK_INT(gw_advise_estimate_run(&old, &llama, &o), 0);
}

/* --loss-chunks: torchtune's CEWithChunkedOutputLoss casts one chunk of
 * the logits to fp32 at a time; each chunk's fp32 log-softmax is kept. */
static void test_loss_chunks(void)
{
	gw_advise_estimate whole, chunked;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model llama = model("llama-2-7b");
	double t = 2048, b = 4, V = 32000;

	o.task = GW_TASK_LORA;
	o.batch = 4;
	o.seq = 2048;
	CHECK_INT(gw_advise_estimate_run(&whole, &llama, &o), 0);
	o.loss_chunks = 1;
	CHECK_INT(gw_advise_estimate_run(&chunked, &llama, &o), 0);
	CHECK_INT(chunked.activations_bytes, whole.activations_bytes);
	o.loss_chunks = 8;
	CHECK_INT(gw_advise_estimate_run(&chunked, &llama, &o), 0);
	CHECK_INT(whole.activations_bytes - chunked.activations_bytes, (uint64_t)(t * b * V * (4 - 4 / 8.0)));
	CHECK_INT(chunked.resolved.loss_chunks, 8);
	/* fp32 training has no cast to chunk */
	o.precision = GW_PRECISION_FP32;
	o.loss_chunks = 0;
	CHECK_INT(gw_advise_estimate_run(&whole, &llama, &o), 0);
	o.loss_chunks = 8;
	CHECK_INT(gw_advise_estimate_run(&chunked, &llama, &o), 0);
	CHECK_INT(chunked.activations_bytes, whole.activations_bytes);
	o.loss_chunks = 70000;
	CHECK_INT(gw_advise_estimate_run(&chunked, &llama, &o), GW_EINVAL);
}

/* --loss sum: `loss = out.logits.sum()` (transformers PR #31031's and
 * #33298's SDPA training benchmarks) runs no cross-entropy: no fp32 copy,
 * no log-softmax; the logits (e bytes) and the gradient the LM head's
 * backward materialises from sum's expand (e bytes) instead. */
static void test_loss_sum(void)
{
	gw_advise_estimate ce, sum;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model gpt2 = model("gpt2"), llama = model("llama-2-7b");
	double t = 512, b = 2, V = 50257;

	o.precision = GW_PRECISION_FP16;
	o.optimizer = GW_OPTIMIZER_SGD;
	o.batch = 2;
	o.seq = 512;
	CHECK_INT(gw_advise_estimate_run(&ce, &gpt2, &o), 0);
	CHECK_INT(ce.resolved.loss, GW_LOSS_CROSS_ENTROPY);
	o.loss = GW_LOSS_SUM;
	CHECK_INT(gw_advise_estimate_run(&sum, &gpt2, &o), 0);
	CHECK_INT(sum.resolved.loss, GW_LOSS_SUM);
	/* 2 + 4 + 4 bytes a logit become 2 + 2 */
	CHECK_INT(ce.activations_bytes - sum.activations_bytes, (uint64_t)(t * b * V * (10 - 4)));
	/* transformers 4.40's Llama loss (12 bytes a logit) is not run either */
	o.transformers_version = 440;
	o.loss = GW_LOSS_CROSS_ENTROPY;
	CHECK_INT(gw_advise_estimate_run(&ce, &llama, &o), 0);
	o.loss = GW_LOSS_SUM;
	CHECK_INT(gw_advise_estimate_run(&sum, &llama, &o), 0);
	CHECK_INT(ce.activations_bytes - sum.activations_bytes, (uint64_t)(t * b * 32000 * (12 - 4)));
	/* fp32: the copy was never made; the logits and their gradient, 4 + 4 */
	o.transformers_version = 0;
	o.precision = GW_PRECISION_FP32;
	o.loss = GW_LOSS_CROSS_ENTROPY;
	CHECK_INT(gw_advise_estimate_run(&ce, &gpt2, &o), 0);
	o.loss = GW_LOSS_SUM;
	CHECK_INT(gw_advise_estimate_run(&sum, &gpt2, &o), 0);
	CHECK_INT(sum.activations_bytes, ce.activations_bytes);
	/* nothing to chunk; an unknown loss */
	o.loss_chunks = 8;
	CHECK_INT(gw_advise_estimate_run(&sum, &gpt2, &o), GW_EINVAL);
	o.loss_chunks = 0;
	o.loss = 2;
	CHECK_INT(gw_advise_estimate_run(&sum, &gpt2, &o), GW_EINVAL);
	CHECK_STR(gw_advise_name("loss", GW_LOSS_SUM), "sum");
	CHECK_INT(gw_advise_value("loss", "cross-entropy"), GW_LOSS_CROSS_ENTROPY);
}

/* --offload activations (torchtune's OffloadActivations with checkpointing):
 * of the L checkpointed layer inputs (e·b·s·h each) two stay on the GPU,
 * the one being recomputed and the one before it; inputs under 1,024
 * bytes are not offloaded; the rest of the estimate does not move. */
static void test_offload_activations(void)
{
	gw_advise_estimate kept, off;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model llama = model("llama-2-7b"), tiny, bert = model("bert-base-uncased");
	double b = 4, s = 2048, h = 4096, e = 2, L = 32;

	o.task = GW_TASK_LORA;
	o.batch = 4;
	o.seq = 2048;
	o.checkpointing = true;
	CHECK_INT(gw_advise_estimate_run(&kept, &llama, &o), 0);
	o.offload_activations = 1;
	CHECK_INT(gw_advise_estimate_run(&off, &llama, &o), 0);
	CHECK_INT(kept.activations_bytes - off.activations_bytes, (uint64_t)((L - 2) * e * b * s * h));
	CHECK_INT(kept.weights_bytes, off.weights_bytes);
	CHECK_INT(kept.gradients_bytes, off.gradients_bytes);
	CHECK_INT(off.resolved.offload_activations, 1);
	CHECK_INT(off.resolved.offload, GW_OFFLOAD_NONE);
	/* with the optimizer offloaded too: the same activations */
	o.offload = GW_OFFLOAD_OPTIMIZER;
	CHECK_INT(gw_advise_estimate_run(&kept, &llama, &o), 0);
	CHECK_INT(kept.activations_bytes, off.activations_bytes);
	o.offload = GW_OFFLOAD_NONE;
	/* a layer input of 2·1·4·64 = 512 bytes stays on the GPU */
	memset(&tiny, 0, sizeof(tiny));
	tiny.kind = GW_MODEL_DECODER;
	tiny.vocab_size = 100;
	tiny.hidden_size = 64;
	tiny.num_layers = 8;
	tiny.num_heads = 4;
	CHECK_INT(gw_model_finish(&tiny), 0);
	o.batch = 1;
	o.seq = 4;
	o.offload_activations = 0;
	CHECK_INT(gw_advise_estimate_run(&kept, &tiny, &o), 0);
	o.offload_activations = 1;
	CHECK_INT(gw_advise_estimate_run(&off, &tiny, &o), 0);
	CHECK_INT(kept.activations_bytes, off.activations_bytes);
	/* torchtune's recipes: checkpointing beside it, training, decoders */
	o.batch = 4;
	o.seq = 2048;
	o.checkpointing = false;
	CHECK_INT(gw_advise_estimate_run(&off, &llama, &o), GW_EINVAL);
	CHECK(strstr(gw_error_last(), "--checkpointing") != NULL);
	o.checkpointing = true;
	o.offload_activations = 2;
	CHECK_INT(gw_advise_estimate_run(&off, &llama, &o), GW_EINVAL);
	o.offload_activations = 1;
	o.seq = 512;
	CHECK_INT(gw_advise_estimate_run(&off, &bert, &o), GW_EINVAL);
	o.task = GW_TASK_INFER;
	o.checkpointing = false;
	CHECK_INT(gw_advise_estimate_run(&off, &llama, &o), GW_EINVAL);
}

static void test_torch_version(void)
{
	uint32_t v = 0;
	gw_advise_estimate now, old;
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_model bert = model("bert-base-uncased"), llama = model("llama-2-7b");
	double b = 4, s = 512, heads = 12, layers = 12;

	/* torch.__version__ as PyTorch prints it → major·100 + minor; 0: refused */
	static const struct { const char *text; uint32_t want; } versions[] = {
		{ "1.13.1", 113 }, { "2.4.0+cu121", 204 }, { "2.6.0a0+git1234", 206 }, { "1.7", 107 },
		{ "2.10rc1", 210 }, { "", 0 }, { "2", 0 }, { "1.x", 0 }, { "0.4.1", 0 }, { "10.0", 0 },
		{ "1.100", 0 }, { "1.7-", 0 }, { "99999999999999999999.1", 0 },
	};
	for (size_t i = 0; i < GW_ARRAY_SIZE(versions); i++) {
		v = 0;
		CHECK_INT(gw_advise_torch_version(versions[i].text, &v), versions[i].want ? 0 : GW_EINVAL);
		CHECK_INT(v, versions[i].want);
	}
	CHECK_INT(gw_advise_torch_version(NULL, &v), GW_EINVAL);
	/* bitsandbytes.__version__ → major·10000 + minor·100 + patch */
	static const struct { const char *text; uint32_t want; } bnb[] = {
		{ "0.43.1", 4301 }, { "0.43.2", 4302 }, { "0.45.0.dev0", 4500 }, { "0.42", 4200 }, { "1.2.3", 10203 },
		{ "0.36.0", 0 }, { "0.x", 0 }, { "43", 0 }, { "0.43.100", 0 }, { "", 0 },
	};
	for (size_t i = 0; i < GW_ARRAY_SIZE(bnb); i++) {
		v = 0;
		CHECK_INT(gw_advise_bitsandbytes_version(bnb[i].text, &v), bnb[i].want ? 0 : GW_EINVAL);
		CHECK_INT(v, bnb[i].want);
	}

	/* Before 1.11 eager attention keeps the scores beside the
	 * probabilities: 4 bytes a score in fp32 and under autocast (the fp32
	 * cast softmax runs on), 2 in pure half precision. */
	o.batch = 4;
	o.seq = 512;
	o.attention = GW_ATTENTION_EAGER;
	gw_precision precs[] = { GW_PRECISION_FP32, GW_PRECISION_AMP_FP16, GW_PRECISION_BF16 };
	double bytes[] = { 4, 4, 2 };
	for (size_t i = 0; i < GW_ARRAY_SIZE(precs); i++) {
		o.precision = precs[i];
		o.torch_version = 0;
		CHECK_INT(gw_advise_estimate_run(&now, &bert, &o), 0);
		o.torch_version = 110;
		CHECK_INT(gw_advise_estimate_run(&old, &bert, &o), 0);
		CHECK_INT(old.activations_bytes - now.activations_bytes,
			  (uint64_t)(layers * b * heads * s * s * bytes[i]));
		o.torch_version = 111;
		CHECK_INT(gw_advise_estimate_run(&old, &bert, &o), 0);
		CHECK_INT(old.activations_bytes, now.activations_bytes);
	}
	/* Inference keeps nothing for backward; SDPA has no scores. */
	o.precision = GW_PRECISION_FP32;
	o.task = GW_TASK_INFER;
	o.torch_version = 0;
	CHECK_INT(gw_advise_estimate_run(&now, &bert, &o), 0);
	o.torch_version = 107;
	CHECK_INT(gw_advise_estimate_run(&old, &bert, &o), 0);
	CHECK_INT(old.activations_bytes, now.activations_bytes);

	/* Before 1.13 no lazy module loading: the context of
	 * pytorch/pytorch#86509 without it, unless lazy loading's is larger
	 * (Hopper's, measured after a step). */
	o.cc_major = 7;
	o.cc_minor = 5;
	o.torch_version = 113;
	CHECK_INT(gw_advise_estimate_run(&now, &bert, &o), 0);
	CHECK_INT(now.cuda_context_bytes, 287047680);
	o.torch_version = 112;
	CHECK_INT(gw_advise_estimate_run(&old, &bert, &o), 0);
	CHECK_INT(old.cuda_context_bytes, 666632192);
	CHECK_INT(old.peak_device_bytes - now.peak_device_bytes, 666632192 - 287047680);
	o.cc_major = 9;
	o.cc_minor = 0;
	CHECK_INT(gw_advise_estimate_run(&old, &bert, &o), 0);
	CHECK_INT(old.cuda_context_bytes, 690 * MIB);

	/* No SDPA before 2.0; transformers picks it from 2.1.1 on. */
	o = (gw_advise_options)GW_ADVISE_OPTIONS_INIT;
	o.torch_version = 200;
	CHECK_INT(gw_advise_estimate_run(&old, &llama, &o), 0);
	CHECK_INT(old.resolved.attention, GW_ATTENTION_EAGER);
	o.torch_version = 201;
	CHECK_INT(gw_advise_estimate_run(&now, &llama, &o), 0);
	CHECK_INT(now.resolved.attention, GW_ATTENTION_SDPA);
	o.torch_version = 200;
	o.attention = GW_ATTENTION_SDPA;
	CHECK_INT(gw_advise_estimate_run(&now, &llama, &o), 0);
	o.torch_version = 113;
	CHECK_INT(gw_advise_estimate_run(&now, &llama, &o), GW_EINVAL);
	CHECK(strstr(gw_error_last(), "PyTorch 2.0") != NULL);
}

/* Inference over several GPUs splits a decoder instead of copying it:
 * tensor parallel where the heads divide (vLLM), else whole layers per
 * GPU (accelerate's device_map="auto"); training keeps its strategies. */
static void test_split_inference(void)
{
	gw_model l = model("llama-2-70b");
	gw_advise_options o = opts(GW_TASK_INFER, GW_PRECISION_BF16);
	gw_advise_estimate one, two, three;
	double table = 2.0 * (double)l.vocab_size * (double)l.hidden_size;

	o.seq = 4096;
	o.new_tokens = 512;
	CHECK_INT(gw_advise_estimate_run(&one, &l, &o), 0);
	o.gpus = 2;
	CHECK_INT(gw_advise_estimate_run(&two, &l, &o), 0);
	CHECK_INT(two.resolved.strategy, GW_STRATEGY_TP);
	CHECK(two.weights_bytes == (one.weights_bytes + 1) / 2 || two.weights_bytes == one.weights_bytes / 2);
	CHECK(two.kv_cache_bytes == one.kv_cache_bytes / 2);   /* 8 key/value heads: 4 each */
	CHECK(two.peak_device_bytes < one.peak_device_bytes * 6 / 10);
	/* 64 heads do not divide by 3: 27 of the 80 layers and one table */
	o.gpus = 3;
	CHECK_INT(gw_advise_estimate_run(&three, &l, &o), 0);
	CHECK_INT(three.resolved.strategy, GW_STRATEGY_PP);
	CHECK(fabs((double)three.weights_bytes -
		   (((double)one.weights_bytes - 2 * table) * 27 / 80 + table)) < 2);
	CHECK(fabs((double)three.kv_cache_bytes - (double)one.kv_cache_bytes * 27 / 80) < 2);
	/* 16 GPUs: 2 × the 8 key/value heads, each GPU keeps one */
	o.gpus = 16;
	CHECK_INT(gw_advise_estimate_run(&three, &l, &o), 0);
	CHECK_INT(three.resolved.strategy, GW_STRATEGY_TP);
	CHECK(three.kv_cache_bytes == one.kv_cache_bytes / 8);
	o.gpus = 3;
	o.strategy = GW_STRATEGY_TP;
	CHECK_INT(gw_advise_estimate_run(&three, &l, &o), GW_EINVAL);
	CHECK(strstr(gw_error_last_text(), "--strategy pp") != NULL);
	o.strategy = GW_STRATEGY_PP;
	o.gpus = 81;
	CHECK_INT(gw_advise_estimate_run(&three, &l, &o), GW_EINVAL);
	o = opts(GW_TASK_TRAIN, GW_PRECISION_BF16);
	o.strategy = GW_STRATEGY_TP;
	o.gpus = 2;
	CHECK_INT(gw_advise_estimate_run(&three, &l, &o), GW_EINVAL);
	CHECK_STR(gw_advise_name("strategy", GW_STRATEGY_PP), "pp");
	CHECK_INT(gw_advise_value("strategy", "tp"), GW_STRATEGY_TP);
	/* the plan on 2 × 80 GiB: a 70B model in bf16 fits split, no int8 */
	gw_advise_plan p;
	o = opts(GW_TASK_INFER, GW_PRECISION_BF16);
	o.seq = 4096;
	o.new_tokens = 512;
	o.gpus = 2;
	CHECK_INT(gw_advise_plan_make(&p, &l, &o, 80 * GIB, 1), 0);
	CHECK(p.fits);
	CHECK_INT(p.nsteps, 0);
	CHECK_INT(p.estimate.resolved.strategy, GW_STRATEGY_TP);
}

/* The ladder tries fp16 on Pascal before it quantises, and its offload
 * is DeepSpeed's (a ZeRO stage, its CPU AdamW, never bitsandbytes). */
static void test_plan_precision_offload(void)
{
	gw_model l = model("llama-2-7b"), g = model("gpt2-xl");
	gw_advise_options o = opts(GW_TASK_INFER, GW_PRECISION_FP32);
	gw_advise_estimate e;
	gw_advise_plan p;
	char args[512];

	o.cc_major = 6;
	o.cc_minor = 0;
	o.gpu_memory_bytes = 16 * GIB;
	o.seq = 2048;
	o.new_tokens = 512;
	CHECK_INT(gw_advise_plan_make(&p, &l, &o, 16 * GIB, 1), 0);
	CHECK(p.fits);
	CHECK_INT(p.nsteps, 1);
	CHECK_STR(p.steps[0], "precision");
	CHECK_INT(p.estimate.resolved.precision, GW_PRECISION_FP16);
	o.cc_major = 5;   /* Maxwell before 5.3: no half arithmetic */
	o.cc_minor = 2;
	CHECK_INT(gw_advise_plan_make(&p, &l, &o, 16 * GIB, 1), 0);
	CHECK_STR(p.steps[0], "int8-weights");
	o = opts(GW_TASK_TRAIN, GW_PRECISION_AUTO);
	o.cc_minor = 9;
	o.batch = 4;
	o.seq = 1024;
	/* 19 GiB: ZeRO's gradient bucket (5e8 fp32 elements under autocast)
	 * is part of every ZeRO rung. */
	CHECK_INT(gw_advise_plan_make(&p, &g, &o, 19 * GIB, 4), 0);
	CHECK(p.fits);
	CHECK_INT(p.options.offload, GW_OFFLOAD_OPTIMIZER);
	CHECK_INT(p.options.strategy, GW_STRATEGY_ZERO2);
	CHECK_INT(p.options.optimizer, GW_OPTIMIZER_ADAMW);
	for (size_t i = 0; i < p.nsteps; i++)
		CHECK(strcmp(p.steps[i], "8bit-optimizer") != 0);
	gw_advise_training_arguments(args, sizeof(args), &p);
	CHECK(strstr(args, "\"offload_optimizer\": {\"device\": \"cpu\"}") != NULL);
	CHECK(strstr(args, "\"train_micro_batch_size_per_gpu\": \"auto\"") != NULL);
	CHECK(strstr(args, "bnb") == NULL);
	o.offload = GW_OFFLOAD_OPTIMIZER;
	o.strategy = GW_STRATEGY_ZERO2;
	o.optimizer = GW_OPTIMIZER_PAGED_ADAMW_8BIT;
	CHECK_INT(gw_advise_estimate_run(&e, &g, &o), GW_EINVAL);
	/* ZeRO-3 offloading the weights too */
	o = opts(GW_TASK_TRAIN, GW_PRECISION_AMP_BF16);
	o.gpus = 2;
	o.strategy = GW_STRATEGY_ZERO3;
	o.offload = GW_OFFLOAD_PARAMS;
	CHECK_INT(gw_advise_plan_make(&p, &g, &o, 80 * GIB, 2), 0);
	gw_advise_training_arguments(args, sizeof(args), &p);
	CHECK(strstr(args, "\"offload_param\": {\"device\": \"cpu\"}") != NULL);
	CHECK(strstr(args, "\"stage\": 3") != NULL);
}

/* ZeRO-3 with the model built outside zero.Init (--no-zero-init,
 * DeepSpeed v0.14.2): each
 * linear map's gathered half weight stays allocated from its forward to
 * its backward, held by F.linear's saved weight.t(), so at the end of
 * forward every linear weight and the LM head (vocab × h) are alive on
 * top of the partitions; the workspace counts them and the step, which
 * comes after backward has freed them, rises above them only by its
 * excess. Checkpointed layers save nothing in forward: the head only.
 * None on one GPU (the gathered parameter is a view of the partition), in
 * inference, and no layer for GPT-2 (Conv1D: addmm on the parameter).
 * Built under zero.Init (the default), DeepSpeed's own linear keeps none. */
static void test_zero3_saved_weights(void)
{
	gw_model l = model("llama-2-7b"), g = model("gpt2");
	const double LIN = 6476005376.0, HEAD = 32000.0 * 4096;
	gw_advise_options o = opts(GW_TASK_TRAIN, GW_PRECISION_FP16);
	gw_advise_estimate e, z;
	double step, rest;

	o.strategy = GW_STRATEGY_ZERO3;
	o.gpus = 8;
	o.seq = 16;
	z = run(&l, o);
	CHECK(gw__advise_zero3_saved_weights(&l, &o) == 0);
	o.no_zero_init = 1;
	CHECK(gw__advise_zero3_saved_weights(&l, &o) == 2 * (LIN + HEAD));
	e = run(&l, o);
	step = gw__advise_optimizer_step(&l, &e.resolved);
	CHECK(step < 2 * (LIN + HEAD));
	CHECK_INT(e.workspace_bytes, (uint64_t)ceil(gw__advise_workspace(&l, &e.resolved)));
	CHECK_INT(e.optimizer_bytes, (uint64_t)ceil(gw__advise_optimizer(&l, &e.resolved)));
	CHECK(e.workspace_bytes > z.workspace_bytes + 2 * (LIN + HEAD) - 1);
	CHECK(e.peak_allocated_bytes > z.peak_allocated_bytes);
	CHECK(e.resolved.no_zero_init == 1);
	o.checkpointing = true;
	CHECK(gw__advise_zero3_saved_weights(&l, &o) == 2 * HEAD);
	/* The head alone is below the step: the step's excess is counted. */
	e = run(&l, o);
	rest = (double)e.activations_bytes + 2 * HEAD;
	CHECK(step > rest);
	CHECK_INT(e.optimizer_bytes, (uint64_t)ceil(gw__advise_optimizer(&l, &e.resolved) + step - rest));
	o.checkpointing = false;
	o.weights = GW_WEIGHTS_FP32;
	o.precision = GW_PRECISION_FP32;
	CHECK(gw__advise_zero3_saved_weights(&l, &o) == 4 * (LIN + HEAD));
	o.precision = GW_PRECISION_AMP_BF16;   /* autocast saves its half casts */
	CHECK(gw__advise_zero3_saved_weights(&l, &o) == 2 * (LIN + HEAD));
	o = opts(GW_TASK_TRAIN, GW_PRECISION_FP16);
	o.strategy = GW_STRATEGY_ZERO3;
	o.gpus = 8;
	o.no_zero_init = 1;
	CHECK(gw__advise_zero3_saved_weights(&g, &o) == 2 * 50257.0 * 768);
	o.gpus = 1;
	CHECK(gw__advise_zero3_saved_weights(&l, &o) == 0);
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), 0);
	o.gpus = 8;
	o.strategy = GW_STRATEGY_ZERO3;
	o.task = GW_TASK_INFER;
	CHECK(gw__advise_zero3_saved_weights(&l, &o) == 0);
	/* It describes ZeRO-3 training: refused elsewhere, and 0 or 1. */
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	o.task = GW_TASK_TRAIN;
	o.strategy = GW_STRATEGY_ZERO2;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	o.strategy = GW_STRATEGY_FSDP;   /* FSDP frees the storage itself */
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
	o.strategy = GW_STRATEGY_ZERO3;
	o.no_zero_init = 2;
	CHECK_INT(gw_advise_estimate_run(&e, &l, &o), GW_EINVAL);
}

/* Today's models: the text half of gw_model shares the vision stages'
 * bytes (the struct's size and offsets stay: docs/abi.md), MoE and MLA
 * counts by hand, the KV cache of MLA and sliding windows, vLLM's blocks
 * and the ggml block sizes. */
static void test_text_arch(void)
{
	/* 2 layers, h 64, 4 experts of 32 (2 per token), one dense layer first. */
	gw_model ds = config("{\"model_type\":\"deepseek_v3\",\"vocab_size\":100,\"hidden_size\":64,"
			     "\"num_hidden_layers\":2,\"num_attention_heads\":4,\"num_key_value_heads\":4,"
			     "\"intermediate_size\":96,\"moe_intermediate_size\":32,\"n_routed_experts\":4,"
			     "\"n_shared_experts\":1,\"num_experts_per_tok\":2,\"first_k_dense_replace\":1,"
			     "\"kv_lora_rank\":16,\"q_lora_rank\":null,\"qk_nope_head_dim\":8,\"qk_rope_head_dim\":4,"
			     "\"v_head_dim\":8,\"tie_word_embeddings\":false}");
	uint64_t attn = 4 * 12 * 64 + (16 + 4) * 64 + 16 + 4 * (8 + 8) * 16 + 64 * 4 * 8;
	uint64_t expert = 3 * 32 * 64, dense = 3 * 96 * 64, norms = 2 * 64;
	uint64_t moe = 4 * 64 + 4 * expert + expert;   /* router, 4 routed, 1 shared of 32 */
	gw_advise_options o = GW_ADVISE_OPTIONS_INIT;
	gw_advise_estimate e;
	gw_vllm_estimate v;

	CHECK_INT(offsetof(gw_model, experts), offsetof(gw_model, stage_depths));
	CHECK(offsetof(gw_model, text_reserved) + sizeof(ds.text_reserved) ==
	      offsetof(gw_model, stage_widths) + sizeof(ds.stage_widths));
	CHECK_INT(ds.params, 2 * 100 * 64 + 64 + 2 * (attn + norms) + dense + moe);
	CHECK_INT(ds.params_active, ds.params - 2 * expert);
	CHECK_INT(ds.moe_layers, 1);
	CHECK_INT(ds.head_dim, 12);
	o.task = GW_TASK_INFER;
	o.seq = 100;
	o.precision = GW_PRECISION_BF16;
	CHECK_INT(gw_advise_estimate_run(&e, &ds, &o), 0);
	CHECK_INT(e.kv_cache_bytes, 2 * 100 * (4 * 12 + 4 * 8) * 2);   /* transformers: expanded k and v */
	CHECK_INT(gw_advise_vllm(&v, &ds, &o, 1ull << 30, 0.5, 16, 100), 0);
	CHECK_INT(v.kv_bytes_per_token, (16 + 4) * 2 * 2);              /* vLLM: the latent */
	CHECK_INT(v.blocks, (v.budget_bytes - v.weights_bytes - v.activation_bytes - v.non_torch_bytes) /
			    (16 * v.kv_bytes_per_token));
	CHECK_INT(v.max_sequences, v.blocks / 7);
	CHECK_INT(gw_advise_vllm(&v, &ds, &o, 1ull << 30, 1.5, 16, 100), GW_EINVAL);
	{   /* vLLM's profiling forward: 8192 tokens unless given; more tokens, more activation */
		gw_vllm_estimate v0, v1;
		CHECK_INT(gw_advise_vllm_tokens(&v0, &ds, &o, 1ull << 30, 0.5, 16, 100, 8192), 0);
		CHECK_INT(gw_advise_vllm_tokens(&v1, &ds, &o, 1ull << 30, 0.5, 16, 100, 0), 0);
		CHECK_INT(v0.activation_bytes, v1.activation_bytes);
		CHECK_INT(gw_advise_vllm(&v1, &ds, &o, 1ull << 30, 0.5, 16, 100), 0);
		CHECK_INT(v0.activation_bytes, v1.activation_bytes);
		CHECK_INT(gw_advise_vllm_tokens(&v1, &ds, &o, 1ull << 30, 0.5, 16, 100, 32768), 0);
		CHECK(v1.activation_bytes > v0.activation_bytes);
		CHECK(v1.blocks <= v0.blocks);
	}
	/* Mistral's sliding window: every layer keeps the last 64 tokens. */
	gw_model mi = config("{\"model_type\":\"mistral\",\"vocab_size\":100,\"hidden_size\":64,\"num_hidden_layers\":3,"
			     "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"intermediate_size\":96,"
			     "\"sliding_window\":64}");
	CHECK_INT(mi.sliding_layers, 3);
	CHECK_INT(gw_advise_estimate_run(&e, &mi, &o), 0);
	CHECK_INT(e.kv_cache_bytes, 2 * 2 * 16 * 2 * 3 * 64);
	CHECK_INT(mi.params_active, 0);
	/* ggml's blocks: Q4_K 144 bytes a 256, Q8_0 34 a 32; a partial block is no size. */
	CHECK_INT(gw_gguf_type_bytes(12, 512), 288);
	CHECK_INT(gw_gguf_type_bytes(8, 64), 68);
	CHECK_INT(gw_gguf_type_bytes(8, 33), 0);
	CHECK_INT(gw_gguf_type_bytes(4, 32), 0);
	CHECK(!strcmp(gw_gguf_type_name(39), "MXFP4") && !gw_gguf_type_name(5));
}

int main(void)
{
	test_text_arch();
	test_usable_specs();
	test_hardware();
	test_vision_counts();
	test_vision_terms();
	test_alloc_sim();
	test_resnet_infer_reserved();
	test_vision_autocast_copies();
	test_vision_errors();
	test_cloud();
	test_cloud_prices();
	test_cloud_price_rule();
	test_report();
	test_catalogue_counts();
	test_count_parts();
	test_config_reader();
	test_config_errors();
	test_decoder_counts();
	test_decoder_family_layers();
	test_custom_shape();
	test_traits();
	test_terms();
	test_auto();
	test_monotonic();
	test_bad_options();
	test_torch_version();
	test_transformers_version();
	test_loss_chunks();
	test_loss_sum();
	test_offload_activations();
	test_training_loop();
	test_gradients_after_activations();
	test_autoawq_fused();
	test_autoawq_sdpa();
	test_init_on_gpu();
	test_infer_plain_loop_logits();
	test_adam_step_by_torch();
	test_encoder_infer_replay();
	test_max_micro_batch();
	test_plan();
	test_vocab_and_specs();
	test_split_inference();
	test_plan_precision_offload();
	test_zero3_saved_weights();
	test_tied_embedding_grad();
	test_paged_states();
	return CHECK_DONE();
}

/* gpuwise explain: an explainer's life (new, reset, free) and the public
 * API that feeds it bytes and reads its matches. The stages it runs are
 * listed in explain_int.h. */
#include "explain/explain_int.h"

void gw_explainer_free(gw_explainer *ex)
{
	gw__free(ex);
}

void gw_explainer_reset(gw_explainer *ex)
{
	if (!ex)
		return;
	ex->line_len = 0;
	ex->lines = 0;
	ex->pending = false;
	ex->piece_cont = false;
	ex->gen = 1;
	memset(ex->pat_gen, 0, sizeof(ex->pat_gen));
	memset(ex->doc_gen, 0, sizeof(ex->doc_gen));
	ex->squeezed_gen = 0;
	ex->nhits = 0;
	for (unsigned d = 0; d < NDOC; d++)
		ex->match_of_doc[d] = ex->refined[d] = -1;
	ex->nmatches = 0;
	ex->nunrecognised = 0;
	memset(&ex->arch, 0, sizeof(ex->arch));
	ex->model_gpu[0] = '\0';
	ex->jit_compiler = ex->compiler_evidence = false;
	ex->invalid_ptx = false;
	ex->hit_library = NULL;
	ex->legacy_cuda = false;
	ex->table.nlines = 0;
	ex->cell_line = 0;
	ex->nhead = 0;
	ex->decided = false;
	ex->utf16 = 0;
	ex->odd = -1;
	ex->high = 0;
	ex->nheld = 0;
	ex->held_skip = 0;
	ex->call_line = 0;
	ex->thrust_line = 0;
	ex->fx.n = ex->fx_last.n = 0;
	ex->host_line = false;
	memset(&ex->pr, 0, sizeof(ex->pr));
	ex->pr.line_start = 1;
}

int gw_explainer_new(gw_explainer **out)
{
	gw_explainer *ex;
	const struct catalogue *cat;
	int rc;

	if (!out)
		return gw__error_set(GW_EINVAL, "gw_explainer_new: out is NULL");
	if ((rc = gw__explain_catalogue_get(&cat)) < 0)
		return rc;
	if (!(ex = gw__calloc(1, sizeof(*ex))))
		return gw__error_set(GW_ENOMEM, "out of memory creating the explainer");
	ex->cat = cat;
	gw_explainer_reset(ex);
	*out = ex;
	return 0;
}

int gw_explainer_feed(gw_explainer *ex, const char *buf, size_t len)
{
	if (!ex || (!buf && len))
		return gw__error_set(GW_EINVAL, "gw_explainer_feed: invalid argument");
	while (!ex->decided && len) {
		ex->head[ex->nhead++] = (uint8_t)*buf++;
		len--;
		if (ex->nhead == 2)
			gw__explain_decide_encoding(ex);
	}
	if (ex->utf16)
		gw__explain_feed_utf16(ex, (const uint8_t *)buf, len);
	else if (len)
		gw__explain_feed_bytes(ex, buf, len);
	return 0;
}

int gw_explainer_finish(gw_explainer *ex)
{
	if (!ex)
		return gw__error_set(GW_EINVAL, "gw_explainer_finish: explainer is NULL");
	if (!ex->decided)
		gw__explain_decide_encoding(ex);
	gw__explain_presentation_finish(ex);
	if (ex->pending) {
		gw__explain_end_piece(ex, true);
		ex->lines += ex->pr.joined;   /* the last line was joined from several */
		ex->pr.joined = 0;
	}
	gw__explain_read_cells(ex);
	if (!ex->arch.gpu[0])
		gw__fmt(ex->arch.gpu, sizeof(ex->arch.gpu), "%s", ex->model_gpu);
	gw__explain_invalid_ptx_on_new_gpu(ex);
	gw__explain_invalid_call_after_arch(ex);
	gw__explain_fold_into_cause(ex);
	gw__explain_arch_conclude(&ex->arch);
	/* A JIT compiler's ptxas refused the target: its fix is a newer
	 * Triton or jaxlib (or ptxas), not another PyTorch wheel. */
	if (ex->jit_compiler && ex->compiler_evidence)
		ex->arch.torch_builds[0] = '\0';
	return 0;
}

size_t gw_explainer_count(const gw_explainer *ex)
{
	return ex ? ex->nmatches : 0;
}

const gw_explain_match *gw_explainer_match(const gw_explainer *ex, size_t i)
{
	return ex && i < ex->nmatches ? &ex->matches[i] : NULL;
}

size_t gw_explainer_unrecognised_count(const gw_explainer *ex)
{
	return ex && !ex->nmatches ? ex->nunrecognised : 0;
}

const gw_explain_unrecognised *gw_explainer_unrecognised(const gw_explainer *ex, size_t i)
{
	return i < gw_explainer_unrecognised_count(ex) ? &ex->unrecognised[i] : NULL;
}

uint64_t gw_explainer_lines(const gw_explainer *ex)
{
	return ex ? ex->lines : 0;
}

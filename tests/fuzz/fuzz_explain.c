/* Fuzz target: the explain scanner on arbitrary bytes, fed in chunks whose
 * size comes from the first byte, so line joins across feed() calls are
 * exercised. Checks the invariants callers rely on. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuwise/gpuwise.h"
#include "gpuwise/explain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gw_explainer *ex = NULL;
	size_t chunk = size ? (size_t)data[0] % 97 + 1 : 1;
	char *id;

	if (gw_explainer_new(&ex) < 0)
		return 0;
	for (size_t off = 0; off < size; off += chunk) {
		size_t n = size - off < chunk ? size - off : chunk;
		gw_explainer_feed(ex, (const char *)data + off, n);
	}
	gw_explainer_finish(ex);
	for (size_t i = 0; i < gw_explainer_count(ex); i++) {
		const gw_explain_match *m = gw_explainer_match(ex, i);
		if (!m || !m->doc || strlen(m->excerpt) >= GW_EXPLAIN_EXCERPT_MAX ||
		    m->line == 0 || m->line > gw_explainer_lines(ex) || m->count == 0)
			abort();
		for (const unsigned char *p = (const unsigned char *)m->excerpt; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				abort();   /* control characters must have been replaced */
	}
	gw_explainer_free(ex);
	/* The id lookup takes any string. */
	if ((id = malloc(size + 1))) {
		memcpy(id, data, size);
		id[size] = '\0';
		(void)gw_finding_doc_get(id);
		free(id);
	}
	return 0;
}

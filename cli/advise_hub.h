/* `gpuwise advise MODEL` by name: Hugging Face ids, the catalogue's
 * variants and spellings, did-you-mean (cli/advise_hub.c). */
#ifndef GPUWISE_CLI_ADVISE_HUB_H
#define GPUWISE_CLI_ADVISE_HUB_H

#include <stdbool.h>

#include "gpuwise/advise.h"
#include "gpuwise/checkpoint.h"

struct advise_source {
	const char *how;           /* "catalogue", "hub" (downloaded) or "hub-cache" */
	char commit[72];           /* Hub models: the commit read */
	bool have_checkpoint;
	gw_checkpoint checkpoint;  /* from the safetensors headers */
	char weights[1200];        /* what the checkpoint holds, or why it was not read ("" for catalogue models) */
};

/* m from a name that is neither a file nor a catalogue name. 0, or -1 with
 * the message printed (the model cannot be read: exit 1). */
int advise_model_by_name(gw_model *m, const char *arg, struct advise_source *src);

#endif

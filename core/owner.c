/* owner.c - block ownership index (see owner.h). */
#include "owner.h"

#include <stdlib.h>

struct owner_index {
	struct owner_run *runs;
	size_t nruns;
};

void owner_index_free(struct owner_index *idx)
{
	if (!idx)
		return;
	free(idx->runs);
	free(idx);
}

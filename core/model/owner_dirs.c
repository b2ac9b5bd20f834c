/* owner_dirs.c - the directory blocks a probe scan walks, asked of the
 * kernel all at once before a walk of the tree names many owners. */
#include "owner_int.h"
#include "fs_probe.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* Bytes of directories asked for at most: 256 MiB (10M files in
 * directories of 1000 hold 234 MiB of them; 64 MiB, a quarter of that, left
 * the walk waiting on most), and no more than a sixteenth of the memory,
 * which the page cache must hold them in until the walk reads them. */
#define DIRS_BUDGET_MAX (256ULL << 20)
#define DIRS_BUDGET_MIN (16ULL << 20)

static unsigned long long dirs_budget(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	unsigned long long b;

	if (pages <= 0 || psize <= 0)
		return DIRS_BUDGET_MIN;
	b = (unsigned long long)pages * (unsigned long long)psize / 16;
	return b > DIRS_BUDGET_MAX ? DIRS_BUDGET_MAX :
	       b < DIRS_BUDGET_MIN ? DIRS_BUDGET_MIN : b;
}

void owner_dirs_begin(ext2_filsys fs, struct owner_index *idx)
{
	/* advice only: short of memory, nothing is gathered */
	if (!idx->dirs)
		idx->dirs = calloc(1, sizeof(*idx->dirs));
	idx->dirs_blocks = 0;
	idx->dirs_max = dirs_budget() / fs->blocksize;
}

void owner_dirs_note(struct owner_index *idx, const struct orun *r)
{
	/* none gathered, or given up (short of memory) before */
	if (!idx->dirs || r->cls != OWN_DIR ||
	    idx->dirs_blocks + r->len > idx->dirs_max)
		return;
	/* advice only: short of memory, the walk reads as it goes */
	if (orun_push(idx->dirs, r)) {
		owner_dirs_free(idx);
		return;
	}
	idx->dirs_blocks += r->len;
}

static int start_cmp(const void *a, const void *b)
{
	blk64_t x = orun_start(a), y = orun_start(b);

	return x < y ? -1 : x > y;
}

/* One hint for each stretch of touching runs, in block order: the kernel
 * reads them in parallel, where the walk would wait for each directory
 * block in its turn (a cold cache read every directory one by one). */
void owner_dirs_ask(ext2_filsys fs, const char *device,
		    struct owner_index *idx)
{
	struct orun *v;
	blk64_t a, b;
	size_t i, n;
	int fd;

	if (!idx->dirs || !idx->dirs->n)
		return;
	fd = fs_probe_readahead_fd(fs, device);
	if (fd < 0)
		return;
	v = idx->dirs->v;
	n = idx->dirs->n;
	qsort(v, n, sizeof(*v), start_cmp);
	for (i = 0; i < n;) {
		a = orun_start(&v[i]);
		b = orun_end(&v[i]);
		for (i++; i < n && orun_start(&v[i]) <= b; i++)
			if (orun_end(&v[i]) > b)
				b = orun_end(&v[i]);
		posix_fadvise(fd, (off_t)(a * fs->blocksize),
			      (off_t)((b - a) * fs->blocksize),
			      POSIX_FADV_WILLNEED);
	}
	close(fd);
}

void owner_dirs_free(struct owner_index *idx)
{
	if (idx->dirs)
		free(idx->dirs->v);
	free(idx->dirs);
	idx->dirs = NULL;
}

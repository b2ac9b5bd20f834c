/* owner_dirs.c - directory blocks asked of the kernel all at once: those a
 * probe scan walks, before a walk of the tree names many owners, and those
 * of a complete scan, before frag names the worst files. */
#include "owner_int.h"
#include "fs_readahead.h"

#include <stdlib.h>
#include <unistd.h>

/* Bytes of directories asked for at most: 256 MiB (10M files in
 * directories of 1000 hold 234 MiB of them; 64 MiB, a quarter of that, left
 * the walk waiting on most), and no more than a sixteenth of the memory,
 * which the page cache must hold them in until the walk reads them. */
#define DIRS_BUDGET_MAX (256ULL << 20)
#define DIRS_BUDGET_MIN (16ULL << 20)
/* Bytes of directories a complete scan's runs are asked for at most. */
#define FILES_BUDGET (64ULL << 20)

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

/* The hints of runs v[0..n) (n > 0, in block order); with sample, none
 * when the last run's last block and the middle run's first are both in
 * the page cache. */
static void ask_runs(struct fs_ra *ra, const struct orun *v, size_t n,
		     int sample)
{
	size_t i;

	if (sample && fs_ra_cached(ra, orun_end(&v[n - 1]) - 1) &&
	    fs_ra_cached(ra, orun_start(&v[n / 2])))
		return;
	for (i = 0; i < n; i++)
		fs_ra_add(ra, orun_start(&v[i]), v[i].len);
}

/*
 * One hint for each stretch of touching runs, in block order: the kernel
 * reads them in parallel, where the walk would wait for each directory
 * block in its turn (a cold cache read every directory one by one).  None
 * when the last run's last block and the middle run's first are both in
 * the page cache: the walk reads the runs in tree order, not block order,
 * so one sample at the end says less than it does for the bitmaps.
 */
void owner_dirs_ask(ext2_filsys fs, const char *device,
		    struct owner_index *idx)
{
	struct fs_ra ra;
	struct orun *v;
	size_t n;

	if (!idx->dirs || !idx->dirs->n)
		return;
	fs_ra_open(&ra, fs, device);
	if (ra.fd < 0)
		return;
	v = idx->dirs->v;
	n = idx->dirs->n;
	qsort(v, n, sizeof(*v), start_cmp);
	ask_runs(&ra, v, n, 1);
	fs_ra_close(&ra);
}

void owner_dirs_free(struct owner_index *idx)
{
	if (idx->dirs)
		free(idx->dirs->v);
	free(idx->dirs);
	idx->dirs = NULL;
}

/* The directory runs of a complete scan gathered, while the budget lasts
 * (the last one cut to it). */
struct files_ctx {
	struct orun_vec v;
	blk64_t left;		/* blocks of budget left */
	int short_mem;
};

static int gather_dir(const struct orun *r, void *arg)
{
	struct files_ctx *c = arg;
	struct orun d;

	if (r->cls != OWN_DIR)
		return 0;
	d = *r;
	if (d.len > c->left)
		d.len = (uint32_t)c->left;
	if (orun_push(&c->v, &d)) {
		c->short_mem = 1;
		return 1;
	}
	c->left -= d.len;
	return !c->left;
}

void owner_dirs_ask_files(ext2_filsys fs, const char *device,
			  const struct owner_index *idx)
{
	struct files_ctx c = {.left = FILES_BUDGET / fs->blocksize};
	struct fs_ra ra;
	const struct orun *v;
	size_t n;

	fs_ra_open(&ra, fs, device);
	if (ra.fd < 0)
		return;
	fpack_each(&idx->files, gather_dir, &c);
	v = c.v.v;
	n = c.v.n;
	/* short of memory: what was gathered, unsampled (advice only) */
	if (n)
		ask_runs(&ra, v, n, !c.short_mem);
	fs_ra_close(&ra);
	free(c.v.v);
}

/* plan_file.c - plans on disk: a line-oriented text file (header, kind,
 * fingerprint, old and new mappings, steps) that `apply FILE` reads back
 * (plan_parse.c), plus the sanity check a plan must pass before it is
 * applied. */
#include "plan_repack_int.h"
#include "plan_file_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void save_one(FILE *f, const struct plan *p)
{
	size_t i;

	fprintf(f, "kind %s\nino %u\nextents %d\ntarget %llu %llu\n"
		"new_meta %llu\nnew_size %llu\nchained %d\n", p->kind,
		p->ino, p->extents,
		(unsigned long long)p->target,
		(unsigned long long)p->target_len,
		(unsigned long long)p->new_meta,
		(unsigned long long)p->new_size_blocks, p->chained);
	fprintf(f, "fp %u %u %u %u %u %llu %llu %u %s\n", p->fp.wtime,
		p->fp.mtime, p->fp.mnt_count, p->fp.generation, p->fp.ctime,
		(unsigned long long)p->fp.free_blocks,
		(unsigned long long)p->fp.free_inodes, p->fp.map_hash,
		p->fp.uuid);
	if (p->set_size)
		fprintf(f, "set_size %llu\n", (unsigned long long)p->set_size);
	if (p->create_name[0])
		fprintf(f, "create %s\n", p->create_name);
	if (p->dir_blocks[0])
		fprintf(f, "dir_blocks %llu %llu\n",
			(unsigned long long)p->dir_blocks[0],
			(unsigned long long)p->dir_blocks[1]);
	if (p->repack)
		plan_repack_save(f, p);
	for (i = 0; i < p->nold; i++)
		fprintf(f, "old %llu %llu %llu %d\n",
			(unsigned long long)p->old[i].lblk,
			(unsigned long long)p->old[i].pblk,
			(unsigned long long)p->old[i].len, p->old[i].uninit);
	for (i = 0; i < p->nold_meta; i++)
		fprintf(f, "oldmeta %llu\n", (unsigned long long)p->old_meta[i]);
	for (i = 0; i < p->nnew; i++)
		fprintf(f, "new %llu %llu %llu %d\n",
			(unsigned long long)p->new[i].lblk,
			(unsigned long long)p->new[i].pblk,
			(unsigned long long)p->new[i].len, p->new[i].uninit);
	for (i = 0; i < p->nsteps; i++)
		fprintf(f, "step %s %llu %llu %llu\n",
			plan_step_name(p->steps[i].kind),
			(unsigned long long)p->steps[i].src,
			(unsigned long long)p->steps[i].dst,
			(unsigned long long)p->steps[i].len);
}

errcode_t plan_save(const struct plan *p, const char *path)
{
	FILE *f;

	f = fopen(path, "w");
	if (!f)
		return errno;
	fprintf(f, "%s\n", PLAN_MAGIC);
	for (; p; p = p->next) {
		save_one(f, p);
		fprintf(f, "%s\n", p->next ? "next" : "end");
	}
	if (fclose(f))
		return errno;
	return 0;
}

/* Whether run r lies within one of p's old runs, at the same offsets, or
 * (bigalloc) within one cluster an old run maps the same logical cluster
 * into, at the block's offset in it. */
static int in_old(ext2_filsys fs, const struct plan *p,
		  const struct plan_ext *r)
{
	int bits = fs->cluster_ratio_bits;
	blk64_t mask = EXT2FS_CLUSTER_MASK(fs), lc = r->lblk >> bits;
	blk64_t pc = r->pblk >> bits;
	size_t i;

	for (i = 0; i < p->nold; i++)
		if (r->pblk >= p->old[i].pblk &&
		    r->pblk + r->len <= p->old[i].pblk + p->old[i].len &&
		    r->lblk - p->old[i].lblk == r->pblk - p->old[i].pblk)
			return 1;
	if (!bits || !r->len || (r->lblk & mask) != (r->pblk & mask) ||
	    (r->lblk + r->len - 1) >> bits != lc)
		return 0;
	for (i = 0; i < p->nold; i++) {
		const struct plan_ext *o = &p->old[i];

		if (o->len && o->lblk >> bits <= lc &&
		    (o->lblk + o->len - 1) >> bits >= lc)
			return (o->pblk + ((lc << bits) - (o->lblk & ~mask))) >>
			       bits == pc;
	}
	return 0;
}

int plan_check_sane(struct session *s, const struct plan *p)
{
	blk64_t end = ext2fs_blocks_count(s->fs->super);
	blk64_t ratio = EXT2FS_CLUSTER_RATIO(s->fs);
	size_t i;

	if (p->repack)
		return plan_repack_sane(s, p);

	if (!p->target_len || p->target < s->fs->super->s_first_data_block ||
	    p->target + p->target_len > end || p->target_len < p->new_meta)
		goto bad;
	for (i = 0; i < p->nnew; i++) {
		if (p->new[i].pblk < p->target || p->new[i].pblk +
		    p->new[i].len > p->target + p->target_len) {
			if (!in_old(s->fs, p, &p->new[i]))
				goto bad;
			continue;	/* prealloc keeps the old extents */
		}
	}
	if (p->target % ratio || (plan_clusters(s->fs, p->new, p->nnew,
			p->target, p->target + p->target_len) + p->new_meta) *
	    ratio != p->target_len)
		goto bad;
	for (i = 0; i < p->nsteps; i++)
		if (p->steps[i].kind == STEP_COPY &&
		    (p->steps[i].dst < p->target ||
		     p->steps[i].dst + p->steps[i].len >
		     p->target + p->target_len))
			goto bad;
	if (plan_used_in(s->fs, p->target, p->target + p->target_len - 1)) {
		out_error(s->out, "apply", 0, "the plan's new run %llu-%llu "
			  "is no longer free; make the plan again",
			  (unsigned long long)p->target,
			  (unsigned long long)(p->target + p->target_len - 1));
		return 1;
	}
	return 0;
bad:
	out_error(s->out, "apply", 0, "the plan is inconsistent (its new "
		  "mapping does not fit its target run); refusing it");
	return 1;
}

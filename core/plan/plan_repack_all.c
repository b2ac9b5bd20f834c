/* plan_repack_all.c - repack_flex --all and --groups-per-flex: one chain
 * that empties each flex group's island with evacuate moves and packs it,
 * planned read-only against the filesystem as it is (every island, move
 * target and temporary place reserved in a scratch bitmap while the next
 * is planned; the owner index keeps seeing the real one), applied
 * under one undo file; and what the guard and verify need to know about
 * such a chain (a move may empty an island that a later repack fills). */
#include "plan_repack_int.h"
#include "owner.h"
#include "e2l_err.h"

#include <stdlib.h>
#include <string.h>

void plan_chain_link(struct plan *p)
{
	const struct plan *head = p;

	for (; p; p = p->next)
		p->head = head;
}

int plan_chain_moves(const struct plan *head, const struct plan *upto,
		     ext2_ino_t ino)
{
	const struct plan *q;

	for (q = head; q && q != upto; q = q->next)
		if (!q->repack && q->ino == ino && !q->create_name[0] &&
		    !q->set_size)
			return 1;
	return 0;
}

blk64_t plan_used_outside_later_islands(ext2_filsys fs, const struct plan *p,
					blk64_t first, blk64_t last)
{
	blk64_t mask = EXT2FS_CLUSTER_MASK(fs);
	const struct plan *q;
	blk64_t a, b, n = 0;

	if (first > last)
		return 0;
	for (q = p->next; q; q = q->next) {
		const struct plan_repack *r = q->repack;

		if (!r || !r->n)
			continue;
		/* the island's whole clusters (bigalloc: its metadata marks
		 * them all) */
		a = r->island & ~mask;
		b = ((r->island + r->island_len + mask) & ~mask) - 1;
		if (!repack_overlaps(first, last - first + 1, a, b - a + 1))
			continue;
		if (first < a)
			n += plan_used_outside_later_islands(fs, p, first,
							     a - 1);
		if (last > b)
			n += plan_used_outside_later_islands(fs, p, b + 1,
							     last);
		return n;
	}
	return plan_used_in(fs, first, last);
}

static void append(struct plan ***tail, struct plan *p)
{
	**tail = p;
	*tail = &p->next;
}

/* Reserves in work what a repack plan writes outside its island:
 * temporary places and the resize inode's new block. */
static void reserve_repack(ext2fs_block_bitmap work,
			   const struct plan_repack *r)
{
	size_t i;

	for (i = 0; i < r->nitems; i++) {
		const struct repack_item *it = &r->items[i];

		if (it->tmp)
			ext2fs_mark_block_bitmap_range2(work, it->tmp,
							it->len);
		if (it->what == RP_DIND)
			ext2fs_mark_block_bitmap2(work, it->to);
	}
}

/*
 * Plans the moves emptying the island [a, a + len) of flex group flex and
 * appends them; inodes an earlier plan of chain moves already are skipped.
 * 0, or prints why and returns nonzero.  (What cannot move is the
 * repack's to name.)
 */
static int plan_evacuations(struct session *s, struct plan *chain,
			    struct plan ***tail, ext2fs_block_bitmap work,
			    unsigned long flex, dgrp_t first, dgrp_t n,
			    blk64_t a, blk64_t len)
{
	struct plan_evac e = {0};
	errcode_t err;
	int rc = 1;

	e.first = a;
	e.len = len;
	e.island = 1;
	e.own_first = first;
	e.own_n = n;
	e.chain = chain;
	err = plan_evacuate_scan(s, &e);
	if (err)
		out_error(s->out, "repack_flex", err, "while finding what "
			  "owns flex group %lu's island", flex);
	else
		rc = plan_evacuate_build(s, "repack_flex", &e, work, tail);
	plan_evacuate_done(&e);
	return rc;
}

errcode_t plan_build_repack_all(struct session *s, int all,
				unsigned long flex, int log_flex,
				struct plan **pp)
{
	ext2_filsys fs = s->fs;
	ext2fs_block_bitmap work = NULL;	/* in use or reserved */
	struct plan *chain = NULL, **tail = &chain, *p;
	struct plan_repack g;
	unsigned long f, nflex;
	errcode_t err;
	int bad = 1;

	*pp = NULL;
	err = owner_index_build(s);
	if (!err)
		err = ext2fs_copy_bitmap(fs->block_map, &work);
	if (err) {
		out_error(s->out, "repack_flex", err, "while planning");
		return err;
	}
	/* every island held first: no move or temporary place lands in
	 * one that a later repack of the chain fills */
	memset(&g, 0, sizeof(g));
	if (plan_repack_geometry(s, &g, 0, log_flex))
		goto restore;
	nflex = (fs->group_desc_count + (1UL << g.log_flex) - 1) >> g.log_flex;
	if (!all && flex >= nflex) {
		out_error(s->out, "repack_flex", 0, "no flex group %lu (the "
			  "filesystem has %lu, of %lu groups each)", flex,
			  nflex, 1UL << g.log_flex);
		goto restore;
	}
	for (f = all ? 0 : flex; f < (all ? nflex : flex + 1); f++) {
		blk64_t end = g.island + g.island_len;

		if (plan_repack_geometry(s, &g, f, log_flex))
			goto restore;
		if (f != (all ? 0 : flex) && g.island < end) {
			out_error(s->out, "repack_flex", 0, "flex group %lu's "
				  "island (from block %llu) would overlap flex "
				  "group %lu's", f,
				  (unsigned long long)g.island, f - 1);
			goto restore;
		}
		ext2fs_mark_block_bitmap_range2(work, g.island,
						g.island_len);
	}
	for (f = all ? 0 : flex; f < (all ? nflex : flex + 1); f++) {
		if (plan_repack_geometry(s, &g, f, log_flex))
			goto restore;
		if (plan_evacuations(s, chain, &tail, work, f, g.first, g.n,
				     g.island, g.island_len))
			goto restore;
		if (plan_build_repack_opts(s, f, log_flex, chain, work, &p))
			goto restore;
		if (!p)
			continue;	/* already packed: said so */
		reserve_repack(work, p->repack);
		append(&tail, p);
	}
	bad = 0;
restore:
	ext2fs_free_block_bitmap(work);
	if (bad) {
		plan_free(chain);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	for (p = chain; p; p = p->next)
		p->chained = p != chain;	/* fingerprints: the first */
	plan_chain_link(chain);
	*pp = chain;
	return 0;
}

/* frag.c - fragmentation (see frag.h): free extents from the block bitmap
 * with range searches, and per-file extent counts from the owner scan. */
#include "frag.h"
#include "owner_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void frag_hist_add(struct frag_hist *h, blk64_t len)
{
	int b = 0;

	while (b < FRAG_BUCKETS - 1 && (len >> (b + 1)))
		b++;
	h->count[b]++;
	h->blocks[b] += len;
	h->free_blocks += len;
	h->free_extents++;
	if (len > h->max_extent)
		h->max_extent = len;
	if (!h->min_extent || len < h->min_extent)
		h->min_extent = len;
}

errcode_t frag_free_hist(struct session *s, dgrp_t first, dgrp_t last,
			 struct frag_hist *h)
{
	ext2fs_block_bitmap bm;
	blk64_t a, end, z;
	errcode_t err;

	memset(h, 0, sizeof(*h));
	if (!s->fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS;
	if (first > last || last >= s->fs->group_desc_count)
		return EXT2_ET_INVALID_ARGUMENT;
	/* the whole filesystem without the whole bitmap in memory; a bitmap
	 * that fails there is loaded for its error */
	if (!first && last == s->fs->group_desc_count - 1 &&
	    frag_stream_usable(s) && !frag_stream_hist(s, first, last, h))
		return 0;
	err = session_need(s, NEED_BLOCK_BITMAP);
	if (err)
		return err;
	bm = s->fs->block_map;
	a = ext2fs_group_first_block2(s->fs, first);
	end = ext2fs_group_last_block2(s->fs, last) + 1;
	while (a < end) {
		/* Cluster bitmaps answer in whole clusters: clamp to a. */
		if (ext2fs_find_first_zero_block_bitmap2(bm, a, end - 1, &z))
			break;
		a = z > a ? z : a;
		if (ext2fs_find_first_set_block_bitmap2(bm, a, end - 1, &z))
			z = end;
		if (z <= a)
			z = a + 1;
		frag_hist_add(h, z - a);
		a = z;
	}
	return 0;
}

errcode_t frag_files_scan(struct session *s, size_t top, int readahead,
			  struct frag_files *f)
{
	struct owner_frag of;
	errcode_t err;
	size_t i;

	memset(f, 0, sizeof(*f));
	err = owner_frag_get(s, top, readahead, &of);
	if (err)
		return err;
	f->files = of.st.files;
	f->fragmented_files = of.st.fragmented;
	f->total_blocks = of.st.total_blocks;
	f->total_extents = of.st.total_extents;
	f->total_ideal = of.st.total_ideal;
	f->bad_inodes = of.bad_inodes;
	f->score = of.st.total_blocks ?
		   100.0 * of.st.displaced / of.st.total_blocks : 0;
	if (of.n) {
		/* every field set below */
		f->worst = malloc(of.n * sizeof(*f->worst));
		if (!f->worst) {
			free(of.files);
			return ENOMEM;
		}
	}
	for (i = 0; i < of.n; i++) {
		f->worst[i].ino = of.files[i].ino;
		f->worst[i].blocks = of.files[i].blocks;
		f->worst[i].extents = of.files[i].extents;
		f->worst[i].ideal = of.files[i].ideal;
	}
	f->nworst = of.n;
	free(of.files);
	return 0;
}

errcode_t frag_files_get(struct session *s, size_t top, struct frag_files *f)
{
	return frag_files_scan(s, top, 0, f);
}

void frag_files_release(struct frag_files *f)
{
	free(f->worst);
	f->worst = NULL;
	f->nworst = 0;
}

errcode_t frag_file_get(struct session *s, ext2_ino_t ino,
			struct frag_file *ff)
{
	struct orun_vec v = {0};
	struct owalk w;
	errcode_t err;

	memset(ff, 0, sizeof(*ff));
	err = owalk_read(s->fs, ino, OWN_FILE, &w, &v);
	if (err)
		return err;
	free(v.v);
	if (w.err)
		return w.err;
	ff->ino = ino;
	ff->blocks = w.data_blocks;
	ff->extents = w.extents;
	ff->ideal = (w.data_blocks + OWNER_MAX_EXTENT_BLOCKS - 1) /
		    OWNER_MAX_EXTENT_BLOCKS;
	return 0;
}

/* Adds ino (if set and not yet listed) when it has blocks. */
static void special_add(struct session *s, struct frag_special *out,
			size_t *n, ext2_ino_t ino, const char *name)
{
	struct frag_file ff;
	size_t i;

	if (!ino || ino > s->fs->super->s_inodes_count ||
	    *n == FRAG_SPECIAL_MAX)
		return;
	for (i = 0; i < *n; i++)
		if (out[i].f.ino == ino)
			return;
	if (frag_file_get(s, ino, &ff) || !ff.blocks)
		return;
	out[*n].name = name;
	out[*n].f = ff;
	(*n)++;
}

static int special_cmp(const void *x, const void *y)
{
	const struct frag_special *a = x, *b = y;

	return a->f.ino < b->f.ino ? -1 : a->f.ino > b->f.ino;
}

errcode_t frag_special_get(struct session *s, struct frag_special *out,
			   size_t *n)
{
	struct ext2_super_block *sb;

	*n = 0;
	if (!s->fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS;
	sb = s->fs->super;
	if (ext2fs_has_feature_journal(sb) && !ext2fs_has_feature_journal_dev(sb))
		special_add(s, out, n, sb->s_journal_inum ? sb->s_journal_inum
				: EXT2_JOURNAL_INO, "journal");
	special_add(s, out, n, sb->s_usr_quota_inum, "user quota");
	special_add(s, out, n, sb->s_grp_quota_inum, "group quota");
	special_add(s, out, n, sb->s_prj_quota_inum, "project quota");
	if (ext2fs_has_feature_orphan_file(sb))
		special_add(s, out, n, sb->s_orphan_file_inum, "orphan file");
	special_add(s, out, n, EXT2_BOOT_LOADER_INO, "boot loader");
	qsort(out, *n, sizeof(*out), special_cmp);
	return 0;
}

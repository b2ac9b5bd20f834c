/* lab_damage.c - the recipe steps that damage a scenario on purpose, for
 * the labs that teach repair and recovery: delete a file (its inode keeps
 * its extents, as lsdel and undel want), corrupt a count or a bitmap, and
 * leave a committed transaction in the journal, not yet replayed. */
#include "lab.h"
#include "jtrans.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static errcode_t path_ino(ext2_filsys fs, const char *path, ext2_ino_t *ino,
			  struct ext2_inode *inode)
{
	errcode_t err = ext2fs_namei(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, path,
				     ino);

	return err ? err : ext2fs_read_inode(fs, *ino, inode);
}

static int free_one(ext2_filsys fs, blk64_t *b, e2_blkcnt_t c, blk64_t rb,
		    int ro, void *p)
{
	(void)c; (void)rb; (void)ro; (void)p;
	ext2fs_block_alloc_stats2(fs, *b, -1);
	return 0;
}

/* delete PATH: unlinked, links 0, dtime set, its blocks and inode freed
 * in the bitmaps; the inode's block map stays (what undel restores). */
errcode_t lab_step_delete(ext2_filsys fs, const char *path)
{
	char parent[256], *slash;
	struct ext2_inode inode;
	ext2_ino_t ino, dir;
	errcode_t err;

	err = path_ino(fs, path, &ino, &inode);
	if (err)
		return err;
	if (!LINUX_S_ISREG(inode.i_mode))
		return EXT2_ET_FILE_NOT_FOUND;
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (!slash)
		return EXT2_ET_INVALID_ARGUMENT;
	*slash = 0;
	err = ext2fs_namei(fs, EXT2_ROOT_INO, EXT2_ROOT_INO,
			   *parent ? parent : "/", &dir);
	if (!err)
		err = ext2fs_unlink(fs, dir, slash + 1, ino, 0);
	if (!err)
		err = ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
					    free_one, NULL);
	if (err)
		return err;
	inode.i_links_count = 0;
	inode.i_dtime = fs->now ? fs->now : inode.i_mtime + 3600;
	err = ext2fs_write_inode(fs, ino, &inode);
	if (!err)
		ext2fs_inode_alloc_stats2(fs, ino, -1, 0);
	return err;
}

/* corrupt links PATH N | corrupt free_blocks N | corrupt bitmap PATH: a
 * wrong link count, a wrong free block count in the superblock, or the
 * file's first block marked free in the bitmap while the file keeps it. */
errcode_t lab_step_corrupt(ext2_filsys fs, char **w, int n)
{
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t err;
	blk64_t blk;

	if (n == 4 && !strcmp(w[1], "links")) {
		err = path_ino(fs, w[2], &ino, &inode);
		if (err)
			return err;
		inode.i_links_count = atoi(w[3]);
		return ext2fs_write_inode(fs, ino, &inode);
	}
	if (n == 3 && !strcmp(w[1], "free_blocks")) {
		ext2fs_free_blocks_count_set(fs->super, strtoull(w[2], NULL,
								 0));
		ext2fs_mark_super_dirty(fs);
		return 0;
	}
	if (n == 3 && !strcmp(w[1], "bitmap")) {
		err = path_ino(fs, w[2], &ino, &inode);
		if (!err)
			err = ext2fs_bmap2(fs, ino, &inode, NULL, 0, 0, NULL,
					   &blk);
		if (err)
			return err;
		if (!blk)
			return EXT2_ET_FILE_NOT_FOUND;
		/* the bitmap lies: the group counts keep the block used */
		ext2fs_unmark_block_bitmap2(fs->block_map, blk);
		ext2fs_mark_bb_dirty(fs);
		return 0;
	}
	return EXT2_ET_INVALID_ARGUMENT;
}

struct pending {
	unsigned char *buf;	/* the block's new content */
	unsigned size;		/* the block size */
};

static errcode_t pending_block(void *ctx, size_t i, unsigned char *buf)
{
	struct pending *p = ctx;

	(void)i;
	memcpy(buf, p->buf, p->size);
	return 0;
}

/* dirty_journal PATH: one committed transaction that rewrites PATH's
 * first block (its new text: "replayed by journal recovery"), the
 * journal left for recovery (s_start set, needs_recovery). */
errcode_t lab_step_dirty_journal(ext2_filsys fs, const char *path)
{
	struct ext2_inode inode;
	struct jt_journal j;
	struct pending p;
	struct jt_tx t;
	struct timeval tv = { (time_t)fs->now, 0 };
	ext2_ino_t ino;
	errcode_t err;
	blk64_t blk;

	err = path_ino(fs, path, &ino, &inode);
	if (!err)
		err = ext2fs_bmap2(fs, ino, &inode, NULL, 0, 0, NULL, &blk);
	if (err)
		return err;
	if (!blk)
		return EXT2_ET_FILE_NOT_FOUND;
	p.size = fs->blocksize;
	p.buf = calloc(1, fs->blocksize);
	if (!p.buf)
		return ENOMEM;
	err = io_channel_read_blk64(fs->io, blk, 1, p.buf);
	if (!err) {
		memcpy(p.buf, "replayed by journal recovery\n", 29);
		err = jt_open_inode(fs, &j);
	}
	if (err)
		goto out;
	jt_tx_begin(&t, &j, j.sequence, j.first, 0);
	err = jt_tx_blocks(&t, &blk, 1, pending_block, &p);
	if (!err)
		err = jt_tx_commit(&t, &tv);
	if (!err) {
		j.start = j.first;
		err = jt_write_sb(&j);
	}
	jt_close(&j);
	if (!err) {
		ext2fs_set_feature_journal_needs_recovery(fs->super);
		ext2fs_mark_super_dirty(fs);
	}
out:
	free(p.buf);
	return err;
}

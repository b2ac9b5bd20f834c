/* plan_journal.c - a plan's metadata switch as one jbd2 transaction: while
 * capturing, the filesystem's writes land in memory (reads see them); at the
 * end they are written to the journal, committed (the atomic point), written
 * home (checkpoint), and the journal is marked empty again. */
#include "plan.h"
#include "jtrans.h"

#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

struct cap_blk {
	blk64_t blk;
	unsigned char *data;
};

static struct {
	ext2_filsys fs;
	io_manager orig;
	struct struct_io_manager mgr;
	struct cap_blk *b;
	size_t n, cap;
	struct jt_journal old, new;	/* new: a relocated journal's run */
	int has_new;
	blk64_t new_sb;			/* its superblock's block */
	ext2fs_block_bitmap snap;	/* in use when the capture began */
	__u32 room;			/* log blocks a transaction may take */
	int spilled;			/* too big: writing through instead */
	int active;			/* between begin and end */
} pj;

static struct cap_blk *find(blk64_t blk)
{
	size_t i;

	for (i = 0; i < pj.n; i++)
		if (pj.b[i].blk == blk)
			return &pj.b[i];
	return NULL;
}

/* Too big for one transaction: what was captured goes home in its order,
 * flushed, and every later write goes straight through (ordered writes, as
 * on a filesystem without a journal). */
static errcode_t spill(io_channel ch)
{
	unsigned fb = pj.fs->blocksize;
	errcode_t err = 0;
	size_t i;

	for (i = 0; i < pj.n && !err; i++)
		err = pj.orig->write_blk64(ch, pj.b[i].blk * fb /
					   ch->block_size, -(int)fb,
					   pj.b[i].data);
	if (!err)
		err = pj.orig->flush(ch);
	for (i = 0; i < pj.n; i++)
		free(pj.b[i].data);
	pj.n = 0;
	pj.spilled = 1;
	return err;
}

/* The captured copy of fs block blk, read from the device first if new. */
static errcode_t get(io_channel ch, blk64_t blk, struct cap_blk **out)
{
	unsigned fb = pj.fs->blocksize;
	struct cap_blk *c = find(blk), *nv;
	errcode_t err;

	if (c) {
		*out = c;
		return 0;
	}
	if (jt_tx_size(&pj.old, pj.n + 1 + pj.has_new) > pj.room) {
		err = spill(ch);
		*out = NULL;
		return err;
	}
	if (pj.n == pj.cap) {
		pj.cap = pj.cap ? pj.cap * 2 : 32;
		nv = realloc(pj.b, pj.cap * sizeof(*nv));
		if (!nv)
			return EXT2_ET_NO_MEMORY;
		pj.b = nv;
	}
	c = &pj.b[pj.n];
	c->blk = blk;
	c->data = malloc(fb);
	if (!c->data)
		return EXT2_ET_NO_MEMORY;
	err = pj.orig->read_blk64(ch, blk * fb / ch->block_size, -(int)fb,
				  c->data);
	if (err) {
		free(c->data);
		return err;
	}
	pj.n++;
	*out = c;
	return 0;
}

/* Does a write to fs blocks [a, z] touch the committed filesystem?  Blocks
 * free when the capture began belong to nobody: writes there go straight
 * through (copies to a new home), the rest is captured. */
static int visible(__u64 a, __u64 z)
{
	ext2_filsys fs = pj.fs;
	__u64 b;

	if (!pj.snap || a < fs->super->s_first_data_block ||
	    z >= ext2fs_blocks_count(fs->super))
		return 1;
	for (b = a; b <= z; b++)
		if (find(b))
			return 1;
	/* (true when every block of the range is free) */
	return !ext2fs_test_block_bitmap_range2(pj.snap, a, z - a + 1);
}

static errcode_t cap_write64(io_channel ch, unsigned long long blk, int count,
			     const void *buf)
{
	unsigned fb = pj.fs->blocksize;
	__u64 off = blk * ch->block_size, end;
	__u64 len = count < 0 ? (__u64)-count : (__u64)count * ch->block_size;
	struct cap_blk *c;
	errcode_t err;
	__u64 f, a, z;

	if (pj.spilled || !len ||
	    !visible(off / fb, (off + len - 1) / fb))
		return pj.orig->write_blk64(ch, blk, count, buf);
	for (end = off + len, f = off / fb; f * fb < end; f++) {
		err = get(ch, f, &c);
		if (!err && !c)		/* spilled: the rest goes through */
			return pj.orig->write_blk64(ch, blk, count, buf);
		if (err)
			return err;
		a = off > f * fb ? off : f * fb;
		z = end < (f + 1) * fb ? end : (f + 1) * fb;
		memcpy(c->data + (a - f * fb), (const char *)buf + (a - off),
		       z - a);
	}
	return 0;
}

static errcode_t cap_read64(io_channel ch, unsigned long long blk, int count,
			    void *buf)
{
	unsigned fb = pj.fs->blocksize;
	__u64 off = blk * ch->block_size, end, a, z;
	__u64 len = count < 0 ? (__u64)-count : (__u64)count * ch->block_size;
	errcode_t err = pj.orig->read_blk64(ch, blk, count, buf);
	size_t i;

	if (err)
		return err;
	for (end = off + len, i = 0; i < pj.n; i++) {
		__u64 s = pj.b[i].blk * fb;

		a = off > s ? off : s;
		z = end < s + fb ? end : s + fb;
		if (a < z)
			memcpy((char *)buf + (a - off),
			       pj.b[i].data + (a - s), z - a);
	}
	return 0;
}

static errcode_t cap_write(io_channel ch, unsigned long blk, int count,
			   const void *buf)
{
	return cap_write64(ch, blk, count, buf);
}

static errcode_t cap_read(io_channel ch, unsigned long blk, int count,
			  void *buf)
{
	return cap_read64(ch, blk, count, buf);
}

/* The primary superblock, written whole (as plan_commit_groups does). */
static errcode_t write_super(ext2_filsys fs)
{
	errcode_t err;

	fs->super->s_wtime = time(NULL);
	ext2fs_superblock_csum_set(fs, fs->super);
	err = io_channel_set_blksize(fs->io, SUPERBLOCK_OFFSET);
	if (!err)
		err = io_channel_write_blk64(fs->io, 1, -SUPERBLOCK_SIZE,
					     fs->super);
	io_channel_set_blksize(fs->io, fs->blocksize);
	if (!err)
		err = io_channel_flush(fs->io);
	return err;
}

static void drop(void)
{
	size_t i;

	for (i = 0; i < pj.n; i++)
		free(pj.b[i].data);
	free(pj.b);
	pj.b = NULL;
	pj.n = pj.cap = 0;
	jt_close(&pj.old);
	if (pj.has_new)
		jt_close(&pj.new);
	pj.has_new = 0;
	if (pj.snap)
		ext2fs_free_block_bitmap(pj.snap);
	pj.snap = NULL;
	pj.active = 0;
}

static void uninstall(void)
{
	if (pj.fs && pj.fs->io->manager == &pj.mgr)
		pj.fs->io->manager = pj.orig;
}

/* Log blocks from the first one, short of a fast-commit area. */
static __u32 room_of(const struct jt_journal *j)
{
	__u32 fc = 0, n = j->maxlen - j->first;

	if (j->incompat & E2L_JFEAT_INCOMPAT_FAST_COMMIT) {
		fc = (__u32)j->sb[0x54] << 24 | j->sb[0x55] << 16 |
		     j->sb[0x56] << 8 | j->sb[0x57];
		if (!fc)
			fc = 256;	/* jbd2's default */
	}
	return fc < n ? n - fc : 0;
}

int plan_journal_usable(ext2_filsys fs)
{
	return ext2fs_has_feature_journal(fs->super) &&
	       fs->super->s_journal_inum &&
	       !ext2fs_has_feature_journal_needs_recovery(fs->super);
}

errcode_t plan_journal_begin(ext2_filsys fs, const struct plan *p,
			     int *active)
{
	errcode_t err;
	size_t i;

	memset(&pj, 0, sizeof(pj));
	pj.fs = fs;
	*active = 0;
	if (jt_open_inode(fs, &pj.old))
		return 0;	/* unusable journal: ordered writes instead */
	if (p && p->ino == fs->super->s_journal_inum && p->nnew) {
		struct e2l_jextent *r = calloc(p->nnew, sizeof(*r));

		if (!r) {
			err = EXT2_ET_NO_MEMORY;
			goto fail;
		}
		for (i = 0; i < p->nnew; i++) {
			r[i].lblk = p->new[i].lblk;
			r[i].pblk = p->new[i].pblk;
			r[i].len = p->new[i].len;
		}
		err = jt_open(fs, r, p->nnew, &pj.new);
		free(r);
		if (err) {
			drop();
			return 0;
		}
		pj.has_new = 1;
		jt_bmap(&pj.new, 0, &pj.new_sb);
	}
	pj.room = room_of(&pj.old);
	if (pj.has_new && room_of(&pj.new) < pj.room)
		pj.room = room_of(&pj.new);
	if (fs->block_map) {
		err = ext2fs_copy_bitmap(fs->block_map, &pj.snap);
		if (err)
			goto fail;
	}
	/* From here a crash leaves needs_recovery with an empty journal,
	 * which recovery just clears (a mounted filesystem looks so). */
	ext2fs_set_feature_journal_needs_recovery(fs->super);
	err = write_super(fs);
	if (err)
		goto fail;
	pj.orig = fs->io->manager;
	pj.mgr = *pj.orig;
	pj.mgr.read_blk = cap_read;
	pj.mgr.read_blk64 = cap_read64;
	pj.mgr.write_blk = cap_write;
	pj.mgr.write_blk64 = cap_write64;
	pj.mgr.write_byte = NULL;
	fs->io->manager = &pj.mgr;
	*active = pj.active = 1;
	return 0;
fail:
	drop();
	return err;
}

void plan_journal_abort(ext2_filsys fs)
{
	struct ext2_super_block *sb;

	if (!pj.active || pj.fs != fs)
		return;
	uninstall();
	drop();
	/* The captured changes are dropped; the superblock on the disk
	 * (old counters) loses its needs_recovery flag again. */
	sb = malloc(SUPERBLOCK_SIZE);
	if (!sb || io_channel_set_blksize(fs->io, SUPERBLOCK_OFFSET) ||
	    io_channel_read_blk64(fs->io, 1, -SUPERBLOCK_SIZE, sb)) {
		io_channel_set_blksize(fs->io, fs->blocksize);
		free(sb);
		return;
	}
	ext2fs_clear_feature_journal_needs_recovery(sb);
	ext2fs_superblock_csum_set(fs, sb);
	io_channel_write_blk64(fs->io, 1, -SUPERBLOCK_SIZE, sb);
	io_channel_set_blksize(fs->io, fs->blocksize);
	io_channel_flush(fs->io);
	ext2fs_clear_feature_journal_needs_recovery(fs->super);
	free(sb);
}

static errcode_t data_of(void *ctx, size_t i, unsigned char *buf)
{
	(void)ctx;
	memcpy(buf, pj.b[i].data, pj.fs->blocksize);
	return 0;
}

/* The transaction into one journal: blocks, flush, commit, flush. */
static errcode_t write_tx(struct jt_journal *j, const blk64_t *list,
			  __u32 tid)
{
	struct jt_tx t;
	struct timeval tv;
	errcode_t err;

	gettimeofday(&tv, NULL);
	jt_tx_begin(&t, j, tid, j->first, 0);
	err = jt_tx_blocks(&t, list, pj.n, data_of, NULL);
	if (!err)
		err = io_channel_flush(j->fs->io);
	if (!err)
		err = jt_tx_commit(&t, &tv);
	if (!err)
		err = io_channel_flush(j->fs->io);
	return err;
}

static errcode_t mark(struct jt_journal *j, __u32 start, __u32 seq)
{
	j->start = start;
	j->sequence = seq;
	return jt_write_sb(j);
}

errcode_t plan_journal_end(ext2_filsys fs)
{
	__u32 tid = pj.old.sequence, room;
	blk64_t *list = NULL;
	struct cap_blk *c;
	errcode_t err = 0;
	size_t i;

	if (!pj.active || pj.fs != fs)
		return 0;
	uninstall();
	if (pj.spilled) {	/* written through already */
		err = io_channel_flush(fs->io);
		goto clear;
	}
	if (pj.has_new) {
		/* Replay from either journal leaves the new one empty. */
		pj.new.start = 0;
		pj.new.sequence = tid + 1;
		jt_sb_update(&pj.new);
		err = get(fs->io, pj.new_sb, &c);
		if (!err && !c) {	/* spilled just now */
			err = io_channel_flush(fs->io);
			goto clear;
		}
		if (!err)
			memcpy(c->data, pj.new.sb, fs->blocksize);
	}
	list = malloc((pj.n ? pj.n : 1) * sizeof(*list));
	if (!list) {
		err = EXT2_ET_NO_MEMORY;
		goto out;
	}
	for (i = 0; i < pj.n; i++)
		list[i] = pj.b[i].blk;
	room = pj.room;
	if (err)
		goto out;
	if (jt_tx_size(&pj.old, pj.n) > room) {
		/* Too big for the journal: the captured writes in their
		 * order, as without a journal. */
		for (i = 0; i < pj.n && !err; i++)
			err = io_channel_write_blk64(fs->io, pj.b[i].blk, 1,
						     pj.b[i].data);
		if (!err)
			err = io_channel_flush(fs->io);
		goto clear;
	}
	/* 1. The transaction into the journal(s); the new run first. */
	if (pj.has_new)
		err = write_tx(&pj.new, list, tid);
	if (!err)
		err = write_tx(&pj.old, list, tid);
	if (!err && pj.has_new)
		err = mark(&pj.new, pj.new.first, tid);
	if (!err)
		err = io_channel_flush(fs->io);
	/* 2. The atomic point: the journal recovery reads says "replay". */
	if (!err)
		err = mark(&pj.old, pj.old.first, tid);
	if (!err)
		err = io_channel_flush(fs->io);
	/* 3. Checkpoint: every block home, the new journal's superblock
	 * last (it says "empty"); flush. */
	for (i = 0; i < pj.n && !err; i++)
		if (!pj.has_new || pj.b[i].blk != pj.new_sb)
			err = io_channel_write_blk64(fs->io, pj.b[i].blk, 1,
						     pj.b[i].data);
	if (!err)
		err = io_channel_flush(fs->io);
	if (!err && pj.has_new)
		err = mark(&pj.new, 0, tid + 1);
	if (!err)
		err = io_channel_flush(fs->io);
	/* 4. The journal is empty again; then so says the superblock. */
	if (!err)
		err = mark(&pj.old, 0, tid + 1);
	if (!err)
		err = io_channel_flush(fs->io);
clear:
	if (!err) {
		ext2fs_clear_feature_journal_needs_recovery(fs->super);
		err = write_super(fs);
	}
out:
	free(list);
	drop();
	return err;
}

errcode_t plan_journal_step(ext2_filsys fs)
{
	int active;
	errcode_t err;

	if (!pj.active || pj.fs != fs || (!pj.n && !pj.spilled))
		return 0;
	err = plan_journal_end(fs);
	if (!err)
		err = plan_journal_begin(fs, NULL, &active);
	return err;
}

/* undo_layer.c - where apply's undo file (undo_writer.c) meets the device:
 * an io layer on the session's channel that has each write's old contents
 * saved before the write goes on, from the apply to the channel's close,
 * handed over to the next apply's file, put on the channel of every reopen
 * meanwhile (undo_guard_manager), and refusing every write once its file
 * is finished. */
#include "undo_guard_int.h"
#include "e2l_err.h"
#include "io_layer.h"
#include "undo_pend.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The io layer on the channel a guard records (io_layer.h): every write
 * through the channel has the old contents it covers saved first.  When
 * its guard is finished (g NULL), writes are refused: nothing changes the
 * device behind a finished undo file.  Small writes are held (undo_pend.c)
 * until the next flush, or a read, discard or large write over them: their
 * old contents are then saved in one batch, one fdatasync for all the
 * metadata writes between two flushes instead of one per write.
 */
struct uw_layer {
	struct io_layer l;		/* first: found from the channel */
	struct undo_guard *g;		/* NULL: finished */
	io_channel ch;
	struct uw_pend pend;		/* held writes (only while g) */
};

/* The manager a session reopens with while it records (undo_guard_manager)
 * and the guard its open attaches: an io manager's open has no context. */
static struct struct_io_manager uw_mgr;
static struct undo_guard *opening;

static errcode_t uw_write_blk64(io_channel ch, unsigned long long blk,
				int count, const void *buf);

static struct uw_layer *layer_of(io_channel ch)
{
	return (struct uw_layer *)io_layer_find(ch, uw_write_blk64);
}

/* The held writes reach the device (their old contents saved first). */
static errcode_t uw_drain(struct uw_layer *L)
{
	if (!L->pend.n)
		return 0;
	if (!L->g) {	/* (cannot happen: finishing drains) */
		uw_pend_free(&L->pend);
		return E2L_ERR_UNDO_SEALED;
	}
	return uw_pend_drain(&L->pend, L->g, L->ch, L->l.below);
}

/* What every direct write, discard and zeroout does first: refused once
 * the file is finished, the held writes made when it overlaps them (the
 * order of writes to a block is kept), then the old contents of
 * [off, off + len) saved. */
static errcode_t uw_before(io_channel ch, unsigned long long off,
			   unsigned long long len, struct uw_layer **Lp)
{
	struct uw_layer *L = layer_of(ch);
	errcode_t err;

	*Lp = L;
	if (!L->g)
		return E2L_ERR_UNDO_SEALED;
	err = uw_pend_over(&L->pend, off, len) ? uw_drain(L) : 0;
	return err ? err : uw_save(L->g, off, len);
}

static errcode_t uw_write_blk64(io_channel ch, unsigned long long blk,
				int count, const void *buf)
{
	unsigned long long off = blk * ch->block_size;
	unsigned long long len = uw_bytes(ch, count);
	struct uw_layer *L = layer_of(ch);
	errcode_t err;

	/* a small write is held: saved with the others at the next drain */
	if (L->g && uw_pend_holds(ch, count)) {
		err = uw_pend_add(&L->pend, ch, blk, count, buf);
		if (!err && uw_pend_full(&L->pend))
			err = uw_drain(L);
		return err;
	}
	err = uw_before(ch, off, len, &L);
	if (err)
		return err;
	err = L->l.below->write_blk64(ch, blk, count, buf);
	uw_follow(L->g, off, len, 0);
	uw_dev_wrote(L->g);
	return err;
}

static errcode_t uw_write_blk(io_channel ch, unsigned long blk, int count,
			      const void *buf)
{
	return uw_write_blk64(ch, blk, count, buf);
}

/* A read over held writes finds them on the device. */
static errcode_t uw_read_blk64(io_channel ch, unsigned long long blk,
			       int count, void *buf)
{
	struct uw_layer *L = layer_of(ch);
	errcode_t err = 0;

	if (uw_pend_over(&L->pend, blk * ch->block_size, uw_bytes(ch, count)))
		err = uw_drain(L);
	return err ? err : L->l.below->read_blk64(ch, blk, count, buf);
}

static errcode_t uw_read_blk(io_channel ch, unsigned long blk, int count,
			     void *buf)
{
	return uw_read_blk64(ch, blk, count, buf);
}

static errcode_t uw_discard(io_channel ch, unsigned long long blk,
			    unsigned long long count)
{
	unsigned long long off = blk * ch->block_size;
	unsigned long long len = count * ch->block_size;
	struct uw_layer *L;
	errcode_t err;

	err = uw_before(ch, off, len, &L);
	if (err)
		return err;
	err = L->l.below->discard(ch, blk, count);
	uw_follow(L->g, off, len, 0);
	uw_dev_wrote(L->g);
	return err;
}

static errcode_t uw_zeroout(io_channel ch, unsigned long long blk,
			    unsigned long long count)
{
	unsigned long long off = blk * ch->block_size;
	unsigned long long len = count * ch->block_size;
	struct uw_layer *L;
	errcode_t err;

	err = uw_before(ch, off, len, &L);
	if (err)
		return err;
	err = L->l.below->zeroout(ch, blk, count);
	uw_follow(L->g, off, len, 0);
	uw_dev_wrote(L->g);
	return err;
}

/* The undo file reaches the disk before the device's writes do. */
static errcode_t uw_flush(io_channel ch)
{
	struct uw_layer *L = layer_of(ch);
	struct undo_guard *g = L->g;
	errcode_t err, derr = uw_drain(L);

	uw_settle(g);	/* the presave done: the file is whole */
	if (g && g->have_hdr && fdatasync(g->fd) < 0 && !g->err)
		g->err = errno;
	err = L->l.below->flush(ch);
	if (g)
		uw_follow(g, 0, 0, !err && !derr);
	return derr ? derr : err;
}

static errcode_t uw_set_blksize(io_channel ch, int blksize)
{
	struct uw_layer *L = layer_of(ch);
	errcode_t err = uw_drain(L);	/* held in the old block size */

	if (err)
		return err;
	err = L->l.below->set_blksize(ch, blksize);

	if (L->g)	/* unix I/O wrote its cache out */
		uw_follow(L->g, 0, 0, 0);
	return err;
}

static errcode_t uw_set_option(io_channel ch, const char *opt,
			       const char *arg)
{
	struct uw_layer *L = layer_of(ch);
	unsigned long long v;
	char *end;

	if (!strcmp(opt, "tdb_data_size"))	/* libext2fs's: ours is fixed */
		return 0;
	if (!strcmp(opt, "offset")) {	/* the one the guard was made for */
		if (!arg)
			return EXT2_ET_INVALID_ARGUMENT;
		errno = 0;
		v = strtoull(arg, &end, 0);
		if (errno || end == arg || *end ||
		    (L->g && v != L->g->fs_offset))
			return EXT2_ET_INVALID_ARGUMENT;
	}
	if (!L->l.below->set_option)
		return EXT2_ET_INVALID_ARGUMENT;
	return L->l.below->set_option(ch, opt, arg);
}

/* The channel closes: what unix I/O cached reaches the device (each block
 * saved when it was written), then the superblock copy follows it. */
static errcode_t uw_close(io_channel ch)
{
	struct uw_layer *L = layer_of(ch);
	struct undo_guard *g = L->g;
	errcode_t err, derr;

	if (ch->refcount > 1)	/* a duplicated handle's: it only counts */
		return L->l.below->close(ch);
	derr = uw_drain(L);
	uw_pend_free(&L->pend);
	uw_settle(g);
	err = L->l.below->close(ch);
	if (!err)
		err = derr;
	if (g) {
		ug_follow_sb(g);
		if (g->have_hdr && fdatasync(g->fd) < 0 && !g->err)
			g->err = errno;
		g->layer = NULL;
	}
	free(L);
	return err;
}

/* Installs the recording layer of g on ch. */
static errcode_t layer_push(struct undo_guard *g, io_channel ch)
{
	struct uw_layer *L = calloc(1, sizeof(*L));

	if (!L)
		return ENOMEM;
	io_layer_push(ch, &L->l);
	L->l.mgr.write_blk = uw_write_blk;
	L->l.mgr.write_blk64 = uw_write_blk64;
	L->l.mgr.read_blk = uw_read_blk;
	L->l.mgr.read_blk64 = uw_read_blk64;
	/* without it libext2fs writes the primary superblock whole, through
	 * write_blk64: recorded, and never torn */
	L->l.mgr.write_byte = NULL;
	L->l.mgr.flush = uw_flush;
	L->l.mgr.set_blksize = uw_set_blksize;
	L->l.mgr.set_option = uw_set_option;
	L->l.mgr.close = uw_close;
	if (L->l.below->discard)
		L->l.mgr.discard = uw_discard;
	if (L->l.below->zeroout)
		L->l.mgr.zeroout = uw_zeroout;
	L->g = g;
	L->ch = ch;
	g->layer = L;
	return 0;
}

errcode_t undo_guard_attach(struct undo_guard *g, io_channel ch,
			    struct undo_guard **prev)
{
	struct uw_layer *L = layer_of(ch);
	errcode_t err;

	*prev = NULL;
	if (!g->w || g->layer || g->have_hdr)
		return EXT2_ET_INVALID_ARGUMENT;
	/* what the channel caches reaches the device (through the file
	 * recording it until now, if any) before this file starts */
	err = io_channel_flush(ch);
	if (!err && L)
		uw_fault_from(g, L->g);
	if (!err)
		err = uw_begin(g);
	if (err)
		return err;
	if (!L)
		return layer_push(g, ch);
	/* the file recording ch until now ends here, with nothing between */
	*prev = L->g;
	if (L->g)
		L->g->layer = NULL;
	L->g = g;
	g->layer = L;
	return 0;
}

/* Opens unix I/O and records it into the guard named by
 * undo_guard_manager. */
static errcode_t uw_open(const char *name, int flags, io_channel *chp)
{
	struct undo_guard *g = opening;
	errcode_t err;

	if (!g || !g->w || g->layer || !name)
		return EXT2_ET_BAD_DEVICE_NAME;
	err = unix_io_manager->open(name, flags & ~IO_FLAG_THREADS, chp);
	if (err)
		return err;
	err = layer_push(g, *chp);
	if (err) {
		io_channel_close(*chp);
		*chp = NULL;
	}
	return err;
}

io_manager undo_guard_manager(struct undo_guard *g)
{
	if (!g || !g->w)
		return NULL;
	opening = g;
	memset(&uw_mgr, 0, sizeof(uw_mgr));
	uw_mgr = *unix_io_manager;
	uw_mgr.name = "e2layout undo writer";
	uw_mgr.open = uw_open;
	return &uw_mgr;
}

void undo_guard_detach(struct undo_guard *g)
{
	struct uw_layer *L = g ? g->layer : NULL;

	if (!L)
		return;
	io_channel_flush(L->ch);
	L->g = NULL;
	g->layer = NULL;
	ug_follow_sb(g);
}

void uw_layer_forget(struct undo_guard *g)
{
	if (opening == g)
		opening = NULL;
}

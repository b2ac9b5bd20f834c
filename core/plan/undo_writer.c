/* undo_writer.c - e2layout's own writer of e2undo files (E2UNDO02, the
 * format e2undo reads) for apply: an io layer on the session's channel
 * that, before each write reaches the device, saves the old contents of the
 * blocks not saved yet in large sequential reads, appends them with their
 * keys, and makes the file durable (fdatasync) - one key block and header
 * write per device write instead of one per block.  What it records are
 * the writes through the channel it is attached to (undo_layer.c). */
#include "undo_writer_int.h"
#include "crc32c_fast.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The data write in flight, finished: 0, or what failed.  A direct write
 * that failed in any way is made again buffered, which says what went
 * wrong if anything does (EINVAL: O_DIRECT refused, none after it). */
static errcode_t uw_wait(struct undo_writer *w)
{
	const struct aiocb *list[1] = { &w->cb };
	struct undo_guard *g = w->g;
	errcode_t err;
	ssize_t n;

	if (!w->inflight)
		return g->err;
	while (aio_error(&w->cb) == EINPROGRESS)
		aio_suspend(list, 1, NULL);
	err = aio_error(&w->cb);
	n = aio_return(&w->cb);
	w->inflight = 0;
	if (!err && n == (ssize_t)w->afull)
		return g->err;
	if (err == EINVAL) {
		close(w->dfd);
		w->dfd = -1;
	}
	err = ug_put_at(g->fd, w->abuf, w->alen, (off_t)w->cb.aio_offset);
	if (err && !g->err)
		g->err = err;
	return g->err;
}

/* Writes the data of a key (len bytes of w->buf, at an undo block): with
 * O_DIRECT rounded up to whole undo blocks with zeros (the file keeps that
 * room anyway) and left in flight, the buffers swapped; else buffered. */
static errcode_t uw_put_data(struct undo_writer *w, size_t len,
			     unsigned long long off)
{
	struct undo_guard *g = w->g;
	size_t full = (len + UW_BLK - 1) / UW_BLK * UW_BLK;
	unsigned char *t;
	errcode_t err = uw_wait(w);

	if (err)
		return err;
	if (g->fault > 0 && --g->fault == 0)
		return g->err = ENOSPC;
	if (w->dfd < 0 || !w->abuf) {
		err = ug_put_at(g->fd, w->buf, len, (off_t)off);
		if (err)
			return g->err = err;
		full = len;
	} else {
		memset(w->buf + len, 0, full - len);
		t = w->buf;
		w->buf = w->abuf;
		w->abuf = t;
		w->buf_zeros = 0;
		memset(&w->cb, 0, sizeof(w->cb));
		w->cb.aio_fildes = w->dfd;
		w->cb.aio_buf = w->abuf;
		w->cb.aio_nbytes = full;
		if (w->dfault > 0 && --w->dfault == 0)
			w->cb.aio_nbytes = full - 1;
		w->cb.aio_offset = (off_t)off;
		w->cb.aio_sigevent.sigev_notify = SIGEV_NONE;
		w->alen = len;
		w->afull = full;
		if (aio_write(&w->cb) < 0) {
			err = ug_put_at(g->fd, w->abuf, len, (off_t)off);
			if (err)
				return g->err = err;
		} else {
			w->inflight = 1;
		}
	}
	if (off + full > w->size)
		w->size = off + full;
	return 0;
}

/* A write to the undo file: counted for E2L_FAULT_UNDO_WRITES, and the
 * first failure refuses every later write. */
static errcode_t uw_put(struct undo_writer *w, const void *buf, size_t len,
			unsigned long long off)
{
	struct undo_guard *g = w->g;
	errcode_t err = uw_wait(w);

	if (err)
		return err;
	if (g->fault > 0 && --g->fault == 0)
		return g->err = ENOSPC;
	err = ug_put_at(g->fd, buf, len, (off_t)off);
	if (err)
		return g->err = err;
	if (off + len > w->size)
		w->size = off + len;
	return 0;
}

static errcode_t uw_sync(struct undo_writer *w)
{
	if (uw_wait(w))
		return w->g->err;
	if (fdatasync(w->g->fd) < 0)
		return w->g->err = errno;
	/* what a power loss now leaves, for E2L_FAULT_DEV_WRITES */
	w->dur_size = w->size;
	w->dur_keys = w->num_keys;
	w->dur_key_blk = w->key_blk;
	memcpy(w->dur_keyb, w->keyb, UW_BLK);
	return 0;
}

/* The header and the superblock copy, before the first record: the file
 * is an e2undo file (of no keys) from then on. */
errcode_t uw_start(struct undo_writer *w)
{
	struct undo_guard *g = w->g;
	unsigned char sb[SB_SIZE], copy[SB_SIZE];
	__u32 log;
	errcode_t err;

	if (g->have_hdr)
		return 0;
	if (!ug_dev_sb(g, sb))
		return g->err = EXT2_ET_SHORT_READ;
	log = ug_get32(sb + SB_LOG_BSIZE);
	w->gran = log <= 6 ? 1024ULL << log : 1024;
	memset(g->hdr, 0, UH_SIZE);
	memcpy(g->hdr, "E2UNDO02", 8);
	ug_put64(g->hdr + UH_SUPER, 1);
	ug_put64(g->hdr + UH_KEYOFF, 2);
	ug_put32(g->hdr + UH_BLKSIZE, UW_BLK);
	ug_put32(g->hdr + UH_FS_BLKSIZE, (__u32)w->gran);
	if (g->fs_offset) {
		ug_put32(g->hdr + UH_COMPAT, UH_FS_OFFSET);
		ug_put64(g->hdr + UH_FSOFF, g->fs_offset);
	}
	g->sb_off = UW_BLK;
	memcpy(copy, sb, SB_SIZE);
	copy[SB_MAGIC] = ~copy[SB_MAGIC];
	copy[SB_MAGIC + 1] = ~copy[SB_MAGIC + 1];
	err = uw_put(w, copy, SB_SIZE, g->sb_off);
	if (err)
		return err;
	memcpy(g->sb, sb, SB_SIZE);
	g->have_sb = 1;
	ug_seal_header(g);
	err = uw_put(w, g->hdr, UH_SIZE, 0);
	if (err)
		return err;
	g->have_hdr = 1;
	w->key_blk = 2;
	w->next_blk = 3;
	return 0;
}

static void uw_seal_keyb(struct undo_writer *w)
{
	ug_put32(w->keyb, UW_KEYMAGIC);
	ug_put32(w->keyb + 4, 0);
	ug_put32(w->keyb + 4, crc32c_fast(~0U, w->keyb, UW_BLK));
}

/* The records so far become what the file restores: the key block being
 * filled, the length its data needs, the header's key count; then durable. */
errcode_t uw_commit(struct undo_writer *w)
{
	struct undo_guard *g = w->g;
	unsigned long long end = w->next_blk * UW_BLK;
	errcode_t err;

	uw_seal_keyb(w);
	err = uw_put(w, w->keyb, UW_BLK, w->key_blk * UW_BLK);
	/* data left as a hole at the end (zeros) must still be there */
	if (!err && end > w->size) {
		if (ftruncate(g->fd, (off_t)end) < 0)
			err = g->err = errno;
		else
			w->size = end;
	}
	if (err)
		return err;
	ug_put64(g->hdr + UH_KEYS, w->num_keys);
	ug_seal_header(g);
	err = uw_put(w, g->hdr, UH_SIZE, 0);
	if (!err)
		err = uw_sync(w);
	if (!err)
		w->snap_ok = 0;	/* every mark is in the file now */
	return err;
}

static int all_zero(const unsigned char *p, size_t n)
{
	return !n || (!p[0] && !memcmp(p, p + 1, n - 1));
}

/* Reads n bytes of the device at fs offset off into w->buf: *got is what
 * exists (less at the device's end); *zero says they are all zeros (a hole
 * in an image is not read at all). */
static errcode_t uw_read_old(struct undo_writer *w, unsigned long long off,
			     size_t n, size_t *got, int *zero)
{
	struct undo_guard *g = w->g;
	off_t pos = (off_t)(g->fs_offset + off), d;
	struct stat st;
	ssize_t r;

	*got = 0;
	*zero = 0;
	if (w->isreg) {
		if (fstat(g->devfd, &st) < 0)
			return errno;
		if (pos >= st.st_size)
			return 0;
		if ((unsigned long long)(st.st_size - pos) < n)
			n = (size_t)(st.st_size - pos);
		d = lseek(g->devfd, pos, SEEK_DATA);
		if ((d < 0 && errno == ENXIO) || (d >= 0 && d >= pos + (off_t)n)) {
			if (w->buf_zeros < n)
				memset(w->buf, 0, n);
			w->buf_zeros = n > w->buf_zeros ? n : w->buf_zeros;
			*got = n;
			*zero = 1;
			return 0;
		}
	}
	w->buf_zeros = 0;
	while (*got < n) {
		r = pread(g->devfd, w->buf + *got, n - *got, pos + *got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno;
		if (!r)
			break;
		*got += r;
	}
	*zero = all_zero(w->buf, *got);
	return 0;
}

/* The preimage over the old contents just read (bytes [off, off + got) of
 * the filesystem, in w->buf): 1 when it covered some of them. */
static int uw_overlay(struct undo_writer *w, unsigned long long off,
		      size_t got)
{
	unsigned long long lo, hi;

	if (!w->pre)
		return 0;
	lo = off > w->pre_off ? off : w->pre_off;
	hi = off + got < w->pre_off + w->pre_len ? off + got :
						     w->pre_off + w->pre_len;
	if (lo >= hi)
		return 0;
	memcpy(w->buf + (lo - off), w->pre + (lo - w->pre_off), hi - lo);
	w->buf_zeros = 0;
	return 1;
}

/* Appends the old contents of granules [a, a + n) as keys of at most
 * UW_KEYMAX bytes; zeros are left as holes in the undo file. */
static errcode_t uw_record(struct undo_writer *w, unsigned long long a,
			   unsigned long long n)
{
	unsigned long long per = UW_KEYMAX / w->gran, k;
	unsigned char *key;
	__u32 crc;
	size_t got;
	int zero;
	errcode_t err;

	for (; n; a += k, n -= k) {
		k = n < per ? n : per;
		err = uw_read_old(w, a * w->gran, (size_t)(k * w->gran), &got,
				  &zero);
		if (err)
			return w->g->err = err;
		if (!got)
			return 0;	/* past the device's end */
		if (uw_overlay(w, a * w->gran, got))
			zero = all_zero(w->buf, got);
		if (w->nkeys == UW_KPB) {	/* full: the next one follows */
			uw_seal_keyb(w);
			err = uw_put(w, w->keyb, UW_BLK, w->key_blk * UW_BLK);
			if (err)
				return err;
			memset(w->keyb, 0, UW_BLK);
			w->nkeys = 0;
			w->key_blk = w->next_blk++;
		}
		/* the crc first: the data write takes the buffer */
		if (!zero || got != w->zcrc_len) {
			crc = crc32c_fast(~0U, w->buf, got);
			if (zero) {
				w->zcrc = crc;
				w->zcrc_len = got;
			}
		} else {
			crc = w->zcrc;
		}
		if (!zero) {
			err = uw_put_data(w, got, w->next_blk * UW_BLK);
			if (err)
				return err;
		}
		key = w->keyb + UW_KEY * (w->nkeys + 1);
		ug_put64(key, a);
		ug_put32(key + 8, crc);
		ug_put32(key + 12, (__u32)got);
		w->nkeys++;
		w->num_keys++;
		w->next_blk += (got + UW_BLK - 1) / UW_BLK;
	}
	return 0;
}

/* Saves every granule of bytes [off, off + len) of the filesystem not
 * saved yet, uncommitted (*added: some were).  Once the file failed, only
 * blocks it holds already may still change (the MMP block's release),
 * never the superblock, whose copy could not follow. */
errcode_t uw_save_range(struct undo_writer *w, unsigned long long off,
			    unsigned long long len, int *added)
{
	struct undo_guard *g = w->g;
	unsigned long long a, b, gap;
	size_t i;
	errcode_t err;

	if (!len)
		return 0;
	a = off / w->gran;
	b = (off + len + w->gran - 1) / w->gran;
	if (g->err || g->stale) {
		uw_unsnap(w);
		return g->have_hdr && uw_saved(w, a, b) &&
		       (off >= SB_OFFSET + SB_SIZE || off + len <= SB_OFFSET) ?
		       0 : (g->err ? g->err : EIO);
	}
	err = uw_start(w);
	if (err)
		return err;
	while (a < b) {
		i = uw_find(w, a);
		if (i < w->nruns && w->runs[i].start <= a) {
			a = w->runs[i].start + w->runs[i].len;
			continue;
		}
		gap = i < w->nruns && w->runs[i].start < b ?
		      w->runs[i].start - a : b - a;
		err = uw_record(w, a, gap);
		if (!err)
			err = uw_mark(w, i, a, gap);
		if (err)
			return err;
		*added = 1;
		a += gap;
	}
	return 0;
}

/* Before bytes [off, off + len) of the filesystem are written: what they
 * hold saved (uw_save_range), and the file made durable. */
static errcode_t save_old(struct undo_writer *w, unsigned long long off,
			  unsigned long long len)
{
	int added = 0;
	errcode_t err = uw_save_range(w, off, len, &added);

	return !err && added ? uw_commit(w) : err;
}

int uw_cmp_span(const void *a, const void *b)
{
	const struct undo_span *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

errcode_t undo_guard_presave(struct undo_guard *g, struct undo_span *sp,
			     size_t n)
{
	struct undo_writer *w = g ? g->w : NULL;
	int added = 0;
	size_t i;
	errcode_t err = 0;

	if (!w || !g->layer)
		return EXT2_ET_INVALID_ARGUMENT;
	uw_ahead_join(w);	/* the file is this caller's alone */
	qsort(sp, n, sizeof(*sp), uw_cmp_span);
	err = uw_start(w);
	for (i = 0; i < n && !err; i++)
		err = uw_save_range(w, sp[i].off, sp[i].len, &added);
	if (!err && added)
		err = uw_commit(w);
	return err;
}

errcode_t undo_guard_presave_ahead(struct undo_guard *g,
				   struct undo_span *sp, size_t n)
{
	struct undo_writer *w = g ? g->w : NULL;
	errcode_t err;

	if (!w || !g->layer)
		return EXT2_ET_INVALID_ARGUMENT;
	err = uw_ahead_start(w, sp, n);
	/* no thread to be had: all of it now */
	return err == EAGAIN ? undo_guard_presave(g, sp, n) : err;
}

void uw_dev_wrote(struct undo_guard *g)
{
	struct undo_writer *w = g ? g->w : NULL;

	if (!w || w->dev_left <= 0 || --w->dev_left)
		return;
	uw_ahead_stop(w);	/* it commits no more: the file is ours */
	uw_wait(w);
	/* a power loss now: what the last fdatasync made durable is left
	 * (the superblock copy as it is: help apply's window) */
	if (g->have_hdr) {
		ug_put64(g->hdr + UH_KEYS, w->dur_keys);
		if (w->dur_key_blk)
			ug_put_at(g->fd, w->dur_keyb, UW_BLK,
				  (off_t)(w->dur_key_blk * UW_BLK));
		if (ftruncate(g->fd, (off_t)(w->dur_size > 2 * UW_BLK ?
				w->dur_size : 2 * UW_BLK)) < 0 ||
		    ug_put_header(g))
			_exit(87);
	}
	_exit(86);
}

void uw_fault_from(struct undo_guard *g, const struct undo_guard *prev)
{
	if (g && g->w && prev && prev->w)
		g->w->dev_left = prev->w->dev_left;
}

/* After a write reached the device (or unix I/O's cache): the superblock
 * copy follows the device's until a flush has put it on the device. */
static void follow(struct undo_writer *w, unsigned long long off,
		   unsigned long long len, int flushed)
{
	if (len && off < SB_OFFSET + SB_SIZE && off + len > SB_OFFSET)
		w->sb_dirty = 1;
	if (!w->sb_dirty)
		return;
	ug_follow_sb(w->g);
	if (flushed)
		w->sb_dirty = 0;
}

errcode_t uw_save(struct undo_guard *g, unsigned long long off,
		  unsigned long long len)
{
	/* saved ahead and durable already; or the presave is over */
	if (uw_ahead_wait(g->w, off, len))
		return 0;
	return save_old(g->w, off, len);
}

void uw_follow(struct undo_guard *g, unsigned long long off,
	       unsigned long long len, int flushed)
{
	struct undo_writer *w = g->w;

	/* the superblock copy is written into the file: the presave (which
	 * never covers it) first finishes */
	if (w->ahead && (w->sb_dirty || flushed || !len ||
			 (off < SB_OFFSET + SB_SIZE && off + len > SB_OFFSET)))
		uw_ahead_join(w);
	follow(w, off, len, flushed);
}

errcode_t uw_begin(struct undo_guard *g)
{
	struct undo_writer *w = g->w;
	errcode_t err = uw_start(w);

	/* the preimage is recorded now: a crash from here on leaves a file
	 * that restores it */
	if (!err && w->pre)
		err = save_old(w, w->pre_off, w->pre_len);
	return err;
}

errcode_t undo_guard_preimage(struct undo_guard *g, unsigned long long off,
			      const void *data, size_t len)
{
	struct undo_writer *w = g->w;

	if (!w || g->have_hdr || w->pre || !len)
		return EXT2_ET_INVALID_ARGUMENT;
	w->pre = malloc(len);
	if (!w->pre)
		return ENOMEM;
	memcpy(w->pre, data, len);
	w->pre_off = off;
	w->pre_len = len;
	return 0;
}

errcode_t uw_new(struct undo_guard *g)
{
	struct undo_writer *w = calloc(1, sizeof(*w));
	char proc[40];
	const char *ev;
	struct stat st, dst;

	if (!w)
		return ENOMEM;
	w->g = g;
	w->gran = 1024;
	if (posix_memalign((void **)&w->buf, UW_BLK, UW_KEYMAX))
		w->buf = NULL;
	if (!w->buf) {
		free(w);
		return ENOMEM;
	}
	w->isreg = g->devfd >= 0 && !fstat(g->devfd, &st) &&
		   S_ISREG(st.st_mode);
	/* the same file, not whatever its name may point to by now: without
	 * /proc, or where O_DIRECT is refused, the data goes buffered */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", g->fd);
	w->dfd = open(proc, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (w->dfd >= 0 && (fstat(w->dfd, &dst) < 0 ||
			    fstat(g->fd, &st) < 0 || dst.st_ino != st.st_ino ||
			    dst.st_dev != st.st_dev ||
			    posix_memalign((void **)&w->abuf, UW_BLK,
					   UW_KEYMAX))) {
		close(w->dfd);
		w->dfd = -1;
		w->abuf = NULL;
	}
	ev = getenv("E2L_FAULT_DEV_WRITES");
	w->dev_left = ev && *ev ? strtol(ev, NULL, 10) : 0;
	ev = getenv("E2L_FAULT_UNDO_DIRECT");
	w->dfault = ev && *ev ? strtol(ev, NULL, 10) : 0;
	g->w = w;
	return 0;
}

void uw_settle(struct undo_guard *g)
{
	if (g && g->w) {
		uw_ahead_join(g->w);
		uw_wait(g->w);
	}
}

void uw_free(struct undo_guard *g)
{
	struct undo_writer *w = g->w;

	uw_layer_forget(g);
	if (!w)
		return;
	uw_settle(g);
	if (w->dfd >= 0)
		close(w->dfd);
	free(w->abuf);
	free(w->runs);
	free(w->snap);
	free(w->buf);
	free(w->pre);
	free(w);
	g->w = NULL;
}

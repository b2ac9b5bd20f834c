/* plan_dryrun.c - runs a step of a plan on a copy of the filesystem handle
 * whose writes land in memory and are thrown away, so that apply learns
 * whether the step would need anything the guard did not check before a
 * single byte reaches the disk. */
#include "plan.h"
#include "io_layer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct dr_write {
	unsigned long long off;		/* bytes */
	size_t len;
	unsigned char *data;
};

/* The overlay.  One dry run at a time (apply runs one plan at a time);
 * the state lives only for the length of plan_dry_run. */
static struct {
	struct io_layer l;	/* first: the layers below find themselves */
	struct dr_write *w;
	size_t n, cap;
	errcode_t err;
} dr;

static size_t bytes_of(io_channel ch, int count)
{
	return count < 0 ? (size_t)-count : (size_t)count * ch->block_size;
}

static errcode_t dr_write64(io_channel ch, unsigned long long blk, int count,
			    const void *buf)
{
	struct dr_write *w;
	size_t len = bytes_of(ch, count);

	if (dr.n == dr.cap) {
		size_t cap = dr.cap ? dr.cap * 2 : 16;

		w = realloc(dr.w, cap * sizeof(*w));
		if (!w)
			return dr.err = ENOMEM;
		dr.w = w;
		dr.cap = cap;
	}
	w = &dr.w[dr.n];
	w->data = malloc(len ? len : 1);
	if (!w->data)
		return dr.err = ENOMEM;
	memcpy(w->data, buf, len);
	w->off = blk * ch->block_size;
	w->len = len;
	dr.n++;
	return 0;
}

static errcode_t dr_write(io_channel ch, unsigned long blk, int count,
			  const void *buf)
{
	return dr_write64(ch, blk, count, buf);
}

/* What the disk holds, with the dry run's writes over it, in order. */
static errcode_t dr_read64(io_channel ch, unsigned long long blk, int count,
			   void *buf)
{
	unsigned long long off = blk * ch->block_size, a, b;
	size_t len = bytes_of(ch, count), i;
	errcode_t err = dr.l.below->read_blk64(ch, blk, count, buf);

	if (err)
		return err;
	for (i = 0; i < dr.n; i++) {
		const struct dr_write *w = &dr.w[i];

		a = w->off > off ? w->off : off;
		b = w->off + w->len < off + len ? w->off + w->len : off + len;
		if (a < b)
			memcpy((unsigned char *)buf + (a - off),
			       w->data + (a - w->off), b - a);
	}
	return 0;
}

static errcode_t dr_read(io_channel ch, unsigned long blk, int count,
			 void *buf)
{
	return dr_read64(ch, blk, count, buf);
}

errcode_t plan_dry_run(ext2_filsys fs,
		       errcode_t (*fn)(ext2_filsys fs, struct plan *p),
		       struct plan *p)
{
	ext2_filsys dup;
	errcode_t err;
	size_t i;

	err = ext2fs_dup_handle(fs, &dup);
	if (err)
		return err;
	memset(&dr, 0, sizeof(dr));
	io_layer_push(fs->io, &dr.l);	/* the channel both handles share */
	dr.l.mgr.read_blk = dr_read;
	dr.l.mgr.read_blk64 = dr_read64;
	dr.l.mgr.write_blk = dr_write;
	dr.l.mgr.write_blk64 = dr_write64;
	dr.l.mgr.write_byte = NULL;
	dr.l.mgr.discard = NULL;
	dr.l.mgr.zeroout = NULL;
	dr.l.mgr.cache_readahead = NULL;
	err = fn(dup, p);
	io_layer_pop(fs->io, &dr.l);
	if (!err)
		err = dr.err;
	for (i = 0; i < dr.n; i++)
		free(dr.w[i].data);
	free(dr.w);
	memset(&dr, 0, sizeof(dr));
	/* the copy shares the inode cache: what it wrote there goes too */
	ext2fs_free(dup);
	ext2fs_flush_icache(fs);
	return err;
}

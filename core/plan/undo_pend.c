/* undo_pend.c - the undo layer's held writes: the small writes between two
 * flushes (bitmaps, descriptors, inode, mapping and journal blocks) kept in
 * memory, then their old contents saved in one batch (one fdatasync) and
 * the writes made in their order - instead of one fdatasync per write. */
#include "undo_guard_int.h"
#include "undo_pend.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int uw_pend_holds(io_channel ch, int count)
{
	return uw_bytes(ch, count) <= UW_PEND_LEN;
}

int uw_pend_over(const struct uw_pend *p, unsigned long long off,
		 unsigned long long len)
{
	size_t i;

	if (!p->n || off >= p->hi || off + len <= p->lo)
		return 0;
	for (i = 0; i < p->n; i++)
		if (off < p->v[i].off + p->v[i].len &&
		    p->v[i].off < off + len)
			return 1;
	return 0;
}

errcode_t uw_pend_add(struct uw_pend *p, io_channel ch,
		      unsigned long long blk, int count, const void *buf)
{
	unsigned long long off = blk * ch->block_size;
	unsigned long long len = uw_bytes(ch, count);
	struct uw_pw *v;

	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;

		v = realloc(p->v, cap * sizeof(*v));
		if (!v)
			return ENOMEM;
		p->v = v;
		p->cap = cap;
	}
	v = &p->v[p->n];
	v->data = malloc(len ? len : 1);
	if (!v->data)
		return ENOMEM;
	memcpy(v->data, buf, len);
	v->blk = blk;
	v->count = count;
	v->off = off;
	v->len = len;
	if (!p->n || off < p->lo)
		p->lo = off;
	if (!p->n || off + len > p->hi)
		p->hi = off + len;
	p->n++;
	p->bytes += len;
	return 0;
}

int uw_pend_full(const struct uw_pend *p)
{
	return p->bytes >= UW_PEND_MAX;
}

static void pend_clear(struct uw_pend *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->v[i].data);
	p->n = 0;
	p->bytes = 0;
	p->lo = p->hi = 0;
}

/*
 * The held writes reach the device: first the old contents of every block
 * they cover saved and durable (undo_guard_presave: one sorted batch, one
 * fdatasync), only then each write, in the order it was made.  When the
 * file cannot take them, none is made.
 */
errcode_t uw_pend_drain(struct uw_pend *p, struct undo_guard *g,
			io_channel ch, io_manager below)
{
	struct undo_span *sp;
	size_t i, n = p->n;
	errcode_t err = 0;

	if (!n)
		return 0;
	sp = malloc(n * sizeof(*sp));
	if (!sp) {
		pend_clear(p);
		return ENOMEM;
	}
	for (i = 0; i < n; i++) {
		sp[i].off = p->v[i].off;
		sp[i].len = p->v[i].len;
	}
	err = undo_guard_presave(g, sp, n);
	free(sp);
	for (i = 0; i < n && !err; i++) {
		err = below->write_blk64(ch, p->v[i].blk, p->v[i].count,
					 p->v[i].data);
		uw_follow(g, p->v[i].off, p->v[i].len, 0);
		uw_dev_wrote(g);
	}
	pend_clear(p);
	return err;
}

void uw_pend_free(struct uw_pend *p)
{
	pend_clear(p);
	free(p->v);
	p->v = NULL;
	p->cap = 0;
}

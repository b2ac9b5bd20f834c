/* exp_owner_map.c - who owns each block of an image, as a sorted list of
 * runs read once from the owner index (an image closed again at once), so
 * that every block request of a run can be given an owner class. */
#include "exp_run.h"

#include <stdlib.h>
#include <string.h>

struct collect {
	struct owner_run *v;
	size_t n, cap;
	int oom;
};

static int collect_run(const struct owner_run *r, void *arg)
{
	struct collect *c = arg;

	if (r->cls == OWN_FREE || r->cls == OWN_UNINIT)
		return 0;
	if (c->n && c->v[c->n - 1].cls == r->cls &&
	    c->v[c->n - 1].start + c->v[c->n - 1].len == r->start) {
		c->v[c->n - 1].len += r->len;
		return 0;
	}
	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 1024;
		struct owner_run *nv = realloc(c->v, ncap * sizeof(*nv));

		if (!nv) {
			c->oom = 1;
			return 1;
		}
		c->v = nv;
		c->cap = ncap;
	}
	c->v[c->n++] = *r;
	return 0;
}

errcode_t exp_open_quiet(struct session *s, struct sink *quiet,
			 struct strbuf *msgs, const char *image, char *why,
			 size_t len)
{
	errcode_t err;

	sink_init_cb(quiet, SINK_TEXT, exp_sink_to_strbuf, msgs);
	session_init(s, quiet);
	err = session_open(s, image, 0, NULL, 0, 0);
	if (!err)
		return 0;
	/* what session_open said, on one line */
	while (msgs->len && (msgs->buf[msgs->len - 1] == '\n' ||
			     msgs->buf[msgs->len - 1] == ' '))
		msgs->buf[--msgs->len] = 0;
	snprintf(why, len, "cannot open %s: %s", image,
		 msgs->len ? msgs->buf : error_message(err));
	return err;
}

errcode_t exp_owner_map(const char *image, struct owner_run **map,
			size_t *n, unsigned *blocksize, char *why, size_t len)
{
	struct collect c = { 0 };
	struct strbuf msgs = { 0 };
	struct session s;
	struct sink quiet;
	errcode_t err;

	*map = NULL;
	*n = 0;
	err = exp_open_quiet(&s, &quiet, &msgs, image, why, len);
	if (err)
		goto out;
	err = owner_index_build(&s);
	if (!err)
		err = owner_for_range(&s, 0, ext2fs_blocks_count(s.fs->super),
				      collect_run, &c);
	if (!err && c.oom)
		err = ENOMEM;
	if (err)
		snprintf(why, len, "reading the owners of %s: %s", image,
			 error_message(err));
	*blocksize = s.fs->blocksize;
	session_close(&s);
out:
	sink_free(&quiet);
	strbuf_free(&msgs);
	if (err) {
		free(c.v);
		return err;
	}
	*map = c.v;
	*n = c.n;
	return 0;
}

enum owner_class exp_owner_of(const struct owner_run *map, size_t n,
			      blk64_t blk)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (map[mid].start + map[mid].len <= blk)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && map[lo].start <= blk)
		return map[lo].cls;
	return OWN_FREE;
}

void exp_sink_to_strbuf(void *ctx, enum sink_chan chan, const char *buf,
			size_t len)
{
	(void)chan;
	strbuf_add(ctx, buf, len);
}

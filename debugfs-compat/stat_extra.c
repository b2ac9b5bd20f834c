/* stat_extra.c - block runs, extent lists and extended attributes for the
 * inode commands (stat, blocks, dump_extents); see stat_extra.h. */
#include "stat_extra.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static errcode_t runs_add(struct stat_runs *r, const struct stat_run *run)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		struct stat_run *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return EXT2_ET_NO_MEMORY;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = *run;
	return 0;
}

void stat_runs_free(struct stat_runs *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

struct collect {
	struct stat_runs *r;
	struct stat_run cur;	/* the data run being extended */
	int have_cur;
	errcode_t err;
};

static void collect_finish(struct collect *c)
{
	errcode_t err;

	if (!c->have_cur)
		return;
	err = runs_add(c->r, &c->cur);
	if (err && !c->err)
		c->err = err;
	c->have_cur = 0;
}

static int collect_proc(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t cnt,
			blk64_t ref_block, int ref_offset, void *priv)
{
	struct collect *c = priv;
	struct stat_run run = {0};

	(void)fs;
	(void)ref_block;
	(void)ref_offset;
	c->r->total++;
	if (cnt >= 0) {
		if (c->have_cur &&
		    c->cur.physical + c->cur.length == *blocknr &&
		    c->cur.logical + (long long)c->cur.length == cnt) {
			c->cur.length++;
			return 0;
		}
		collect_finish(c);
		c->cur.logical = cnt;
		c->cur.physical = *blocknr;
		c->cur.length = 1;
		c->cur.kind = RUN_DATA;
		/* debugfs treats block 0 as "no range open" */
		c->have_cur = *blocknr != 0;
		return 0;
	}
	collect_finish(c);
	run.physical = *blocknr;
	run.length = 1;
	run.kind = cnt == -1 ? RUN_IND : cnt == -2 ? RUN_DIND : RUN_TIND;
	run.logical = -1;
	if (cnt >= -3) {
		errcode_t err = runs_add(c->r, &run);

		if (err && !c->err)
			c->err = err;
	}
	return c->err ? BLOCK_ABORT : 0;
}

errcode_t stat_collect_blocks(ext2_filsys fs, ext2_ino_t ino,
			      struct stat_runs *r)
{
	struct collect c = { .r = r };
	errcode_t err;

	err = ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
				    collect_proc, &c);
	collect_finish(&c);
	return c.err ? c.err : err;
}

errcode_t stat_collect_extents(ext2_filsys fs, ext2_ino_t ino,
			       struct stat_runs *r)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent e;
	struct ext2_extent_info info;
	int op = EXT2_EXTENT_ROOT;
	errcode_t err;

	err = ext2fs_extent_open(fs, ino, &h);
	if (err)
		return err;
	for (;;) {
		struct stat_run run = {0};

		if (ext2fs_extent_get(h, op, &e))
			break;
		op = EXT2_EXTENT_NEXT;
		if (e.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT)
			continue;
		if (ext2fs_extent_get_info(h, &info))
			continue;
		run.logical = e.e_lblk;
		run.physical = e.e_pblk;
		run.length = e.e_len;
		run.level = info.curr_level;
		if (!(e.e_flags & EXT2_EXTENT_FLAGS_LEAF)) {
			run.kind = RUN_ETB;
			run.length = 1;
		} else {
			if (e.e_len == 0)
				continue;
			run.uninit = !!(e.e_flags & EXT2_EXTENT_FLAGS_UNINIT);
		}
		err = runs_add(r, &run);
		if (err)
			break;
	}
	ext2fs_extent_free(h);
	return err;
}

void stat_print_blocks(struct sink *out, const struct stat_runs *r)
{
	static const char *const names[] = {"TIND", "DIND", "IND"};
	size_t i;

	out_printf(out, "BLOCKS:\n");
	for (i = 0; i < r->n; i++) {
		const struct stat_run *x = &r->v[i];
		const char *sep = i ? ", " : "";

		if (x->kind < 0)
			out_printf(out, "%s(%s):%llu", sep,
				   names[x->kind + 3], x->physical);
		else if (x->length == 1)
			out_printf(out, "%s(%lld):%llu", sep, x->logical,
				   x->physical);
		else
			out_printf(out, "%s(%lld-%lld):%llu-%llu", sep,
				   x->logical,
				   x->logical + (long long)x->length - 1,
				   x->physical, x->physical + x->length - 1);
	}
	if (r->total)
		out_printf(out, "\nTOTAL: %lld\n", r->total);
	out_printf(out, "\n");
}

void stat_print_extents(struct sink *out, const struct stat_runs *r)
{
	size_t i;

	out_printf(out, "EXTENTS:\n");
	for (i = 0; i < r->n; i++) {
		const struct stat_run *x = &r->v[i];
		const char *sep = i ? ", " : "";
		const char *u = x->uninit ? "[u]" : "";

		if (x->kind == RUN_ETB)
			out_printf(out, "%s(ETB%d):%llu", sep, x->level,
				   x->physical);
		else if (x->length == 1)
			out_printf(out, "%s(%lld%s):%lld", sep, x->logical, u,
				   (long long)x->physical);
		else
			out_printf(out, "%s(%lld-%lld%s):%lld-%lld", sep,
				   x->logical,
				   x->logical + (long long)x->length - 1, u,
				   (long long)x->physical,
				   (long long)(x->physical + x->length - 1));
	}
	if (r->n)
		out_printf(out, "\n");
}

void stat_json_runs(struct sink *out, const char *key,
		    const struct stat_runs *r)
{
	static const char *const names[] = {"tind", "dind", "ind"};
	size_t i;

	json_arr_begin(out, key);
	for (i = 0; i < r->n; i++) {
		const struct stat_run *x = &r->v[i];

		json_obj_begin(out, NULL);
		if (x->kind < 0) {
			json_str(out, "kind", names[x->kind + 3]);
			json_null(out, "logical");
		} else if (x->kind == RUN_ETB) {
			json_str(out, "kind", "index");
			json_u64(out, "level", x->level);
			json_u64(out, "logical", x->logical);
		} else {
			json_str(out, "kind", "data");
			json_u64(out, "logical", x->logical);
		}
		json_u64(out, "physical", x->physical);
		json_u64(out, "length", x->length);
		if (x->kind == RUN_DATA)
			json_bool(out, "uninit", x->uninit);
		json_obj_end(out);
	}
	json_arr_end(out);
}

/* ---- extended attributes ---- */

static void put_c_string(struct sink *out, const char *str, size_t len)
{
	static const char esc[] = "\a\b\f\n\r\t\v\\'\"";
	static const char let[] = "abfnrtv\\'\"";
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char ch = str[i];
		const char *p = ch ? strchr(esc, ch) : NULL;

		if (p)
			out_printf(out, "\\%c", let[p - esc]);
		else if (ch < 32 || ch > 126)
			out_printf(out, "\\%03o", ch);
		else
			out_write(out, (const char *)&ch, 1);
	}
}

/* debugfs prints a value quoted when "printable enough", else in hex. */
static void put_xattr_string(struct sink *out, const char *str, size_t len,
			     int quotes)
{
	size_t i, printable = 0;

	for (i = 0; i < len; i++)
		if (isprint((unsigned char)str[i]))
			printable++;
	if (printable <= len * 7 / 8) {
		for (i = 0; i < len; i++)
			out_printf(out, "%02x ", (unsigned char)str[i]);
		return;
	}
	if (quotes)
		out_write(out, "\"", 1);
	put_c_string(out, str, len);
	if (quotes)
		out_write(out, "\"", 1);
}

static int xattr_proc(char *name, char *value, size_t value_len, void *data)
{
	struct session *s = data;

	if (sink_is_json(s->out)) {
		json_obj_begin(s->out, NULL);
		json_str(s->out, "name", name);
		json_u64(s->out, "size", value_len);
		json_obj_end(s->out);
	}
	out_printf(s->out, "  ");
	put_xattr_string(s->out, name, strlen(name), 0);
	out_printf(s->out, " (%zu)", value_len);
	if (!strcmp(name, "system.data"))
		value_len = 0;
	if (value_len != 0 && value_len < 40) {
		out_printf(s->out, " = ");
		put_xattr_string(s->out, value, value_len, 1);
	}
	out_printf(s->out, "\n");
	return 0;
}

void stat_print_xattrs(struct session *s, ext2_ino_t ino)
{
	struct ext2_xattr_handle *h;
	size_t n;

	if (ext2fs_xattrs_open(s->fs, ino, &h))
		return;
	if (ext2fs_xattrs_read(h) || ext2fs_xattrs_count(h, &n) || n == 0)
		goto out;
	out_printf(s->out, "Extended attributes:\n");
	json_arr_begin(s->out, "xattrs");
	ext2fs_xattrs_iterate(h, xattr_proc, s);
	json_arr_end(s->out);
out:
	ext2fs_xattrs_close(&h);
}

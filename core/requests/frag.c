/* frag.c - `frag [--top N] [--per-group|--per-flex]`: the free-extent
 * histogram, the fs-wide file fragmentation score and the worst files. */
#include "cmd.h"
#include "dfs_util.h"
#include "frag.h"
#include "live_defrag.h"
#include "owner.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void print_hist(struct session *s, const struct frag_hist *h,
		       int text)
{
	int i;

	if (sink_is_json(s->out)) {
		json_u64(s->out, "free_blocks", h->free_blocks);
		json_u64(s->out, "free_extents", h->free_extents);
		json_u64(s->out, "min_extent", h->min_extent);
		json_u64(s->out, "max_extent", h->max_extent);
		json_arr_begin(s->out, "histogram");
		for (i = 0; i < FRAG_BUCKETS; i++) {
			if (!h->count[i])
				continue;
			json_obj_begin(s->out, NULL);
			json_u64(s->out, "min_blocks", 1ULL << i);
			json_u64(s->out, "extents", h->count[i]);
			json_u64(s->out, "blocks", h->blocks[i]);
			json_obj_end(s->out);
		}
		json_arr_end(s->out);
	}
	if (!text)
		return;
	out_printf(s->out, "Free space: %llu blocks in %llu extents",
		   (unsigned long long)h->free_blocks,
		   (unsigned long long)h->free_extents);
	if (h->free_extents)
		out_printf(s->out, " (smallest %llu, largest %llu, average "
			   "%llu)", (unsigned long long)h->min_extent,
			   (unsigned long long)h->max_extent,
			   (unsigned long long)(h->free_blocks /
						h->free_extents));
	out_printf(s->out, "\n");
	if (!h->free_extents)
		return;
	out_printf(s->out, "  %-24s %12s %14s %8s\n", "Extent size (blocks)",
		   "Extents", "Free blocks", "Percent");
	for (i = 0; i < FRAG_BUCKETS; i++) {
		char range[48];

		if (!h->count[i])
			continue;
		snprintf(range, sizeof(range), "%llu...%llu",
			 1ULL << i, (2ULL << i) - 1);
		out_printf(s->out, "  %-24s %12llu %14llu %7.2f%%\n", range,
			   (unsigned long long)h->count[i],
			   (unsigned long long)h->blocks[i],
			   100.0 * h->blocks[i] / h->free_blocks);
	}
}

/* One line per group or flex group. */
static int print_parts(struct session *s, const char *who, dgrp_t per)
{
	dgrp_t ngroups = s->fs->group_desc_count, g, last;
	struct frag_hist h;
	errcode_t err;

	if (sink_is_json(s->out))
		json_arr_begin(s->out, per > 1 ? "flex_groups" : "groups");
	out_printf(s->out, "\n%-8s %12s %10s %10s %10s\n",
		   per > 1 ? "Flex" : "Group", "Free", "Extents", "Largest",
		   "Average");
	for (g = 0; g < ngroups; g += per) {
		last = g + per - 1 < ngroups ? g + per - 1 : ngroups - 1;
		err = frag_free_hist(s, g, last, &h);
		if (err) {
			out_error(s->out, who, err, "while reading groups");
			return 1;
		}
		if (sink_is_json(s->out)) {
			json_obj_begin(s->out, NULL);
			json_u64(s->out, "index", g / per);
			json_u64(s->out, "first_group", g);
			json_u64(s->out, "last_group", last);
			print_hist(s, &h, 0);
			json_obj_end(s->out);
		}
		out_printf(s->out, "%-8u %12llu %10llu %10llu %10llu\n",
			   g / per, (unsigned long long)h.free_blocks,
			   (unsigned long long)h.free_extents,
			   (unsigned long long)h.max_extent,
			   (unsigned long long)(h.free_extents ?
				h.free_blocks / h.free_extents : 0));
	}
	if (sink_is_json(s->out))
		json_arr_end(s->out);
	return 0;
}

/* The digits of 0..99, two a number: a division gives two digits. */
static const char two[] =
	"00010203040506070809101112131415161718192021222324"
	"25262728293031323334353637383940414243444546474849"
	"50515253545556575859606162636465666768697071727374"
	"75767778798081828384858687888990919293949596979899";

/* v right-aligned in width columns at p, as "%*llu" prints it; returns
 * the end. */
static char *put_u64(char *p, unsigned long long v, int width)
{
	char d[20];
	int i = sizeof(d), n;

	/* right to left, two digits a division */
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		d[--i] = two[2 * r + 1];
		d[--i] = two[2 * r];
		v /= 100;
	}
	if (v >= 10) {
		d[--i] = two[2 * v + 1];
		d[--i] = two[2 * v];
	} else {
		d[--i] = (char)('0' + v);
	}
	n = (int)sizeof(d) - i;
	if (width > n) {
		memset(p, ' ', width - n);
		p += width - n;
	}
	memcpy(p, d + i, n);
	p += n;
	return p;
}

/* v's digits ending just before end (v < 10^width of its field, spaces
 * already before them): the right-aligned field without a memset and a
 * memcpy of the digits a field (most of a --top 10000 list's cost). */
static void put_right(char *end, unsigned long long v)
{
	unsigned r;

	while (v >= 100) {
		r = (unsigned)(v % 100);
		*--end = two[2 * r + 1];
		*--end = two[2 * r];
		v /= 100;
	}
	if (v >= 10) {
		*--end = two[2 * v + 1];
		*--end = two[2 * v];
	} else {
		*--end = (char)('0' + v);
	}
}

/* The worst files' lines gathered for one write of many (a write per line
 * was a tenth of a --top 10000 list's cost). */
struct line_batch {
	size_t n;
	char buf[32768];
};

static void batch_flush(struct session *s, struct line_batch *lb)
{
	if (lb->n)
		out_write(s->out, lb->buf, lb->n);
	lb->n = 0;
}

/*
 * One worst file's line, as "%10u %8llu %6llu %10llu  %s\n" prints it
 * (formatted here: vsnprintf was most of the cost of a long --top list).
 */
static void file_line(struct session *s, struct line_batch *lb,
		      const struct frag_file *w, const char *path)
{
	/* the fields' ends in a line whose numbers fit their widths */
	enum { INO_END = 10, EXT_END = 19, IDEAL_END = 26, BLK_END = 37,
	       HEAD = 39 };
	char head[4 * 21 + 8], *p = head;
	size_t len, hlen;

	if (w->extents < 100000000ULL && w->ideal < 1000000ULL &&
	    w->blocks < 10000000000ULL) {	/* an inode has 10 digits */
		memset(head, ' ', HEAD);
		put_right(head + INO_END, w->ino);
		put_right(head + EXT_END, w->extents);
		put_right(head + IDEAL_END, w->ideal);
		put_right(head + BLK_END, w->blocks);
		hlen = HEAD;
	} else {
		p = put_u64(p, w->ino, 10);
		*p++ = ' ';
		p = put_u64(p, w->extents, 8);
		*p++ = ' ';
		p = put_u64(p, w->ideal, 6);
		*p++ = ' ';
		p = put_u64(p, w->blocks, 10);
		*p++ = ' ';
		*p++ = ' ';
		hlen = (size_t)(p - head);
	}
	if (!path)
		path = "?";
	len = strlen(path);
	if (lb->n + hlen + len + 1 > sizeof(lb->buf))
		batch_flush(s, lb);
	if (hlen + len + 1 > sizeof(lb->buf)) {	/* a path longer than all */
		out_write(s->out, head, hlen);
		out_write(s->out, path, len);
		out_write(s->out, "\n", 1);
		return;
	}
	memcpy(lb->buf + lb->n, head, hlen);
	memcpy(lb->buf + lb->n + hlen, path, len);
	lb->buf[lb->n + hlen + len] = '\n';
	lb->n += hlen + len + 1;
}

static void print_files(struct session *s, const struct frag_files *f,
			char *const *paths)
{
	struct line_batch lb;
	size_t i;
	const char *path;

	lb.n = 0;
	if (sink_is_json(s->out)) {
		json_u64(s->out, "files", f->files);
		json_u64(s->out, "fragmented_files", f->fragmented_files);
		json_u64(s->out, "file_blocks", f->total_blocks);
		json_u64(s->out, "file_extents", f->total_extents);
		json_u64(s->out, "ideal_extents", f->total_ideal);
		json_double(s->out, "score", f->score);
		json_u64(s->out, "bad_inodes", f->bad_inodes);
		json_arr_begin(s->out, "worst");
	}
	out_printf(s->out, "\nFiles: %llu with data blocks, %llu fragmented; "
		   "%llu blocks in %llu extents (ideal %llu)\n",
		   (unsigned long long)f->files,
		   (unsigned long long)f->fragmented_files,
		   (unsigned long long)f->total_blocks,
		   (unsigned long long)f->total_extents,
		   (unsigned long long)f->total_ideal);
	out_printf(s->out, "Fragmentation score: %.2f (0 is ideal; see "
		   "\"help fragmentation\")\n", f->score);
	if (f->bad_inodes)
		out_printf(s->out, "Skipped %lu corrupted inodes\n",
			   f->bad_inodes);
	if (f->nworst)
		out_printf(s->out, "\n%10s %8s %6s %10s  %s\n", "Inode",
			   "Extents", "Ideal", "Blocks", "Path");
	for (i = 0; i < f->nworst; i++) {
		const struct frag_file *w = &f->worst[i];

		path = paths ? paths[i] : NULL;
		if (sink_is_json(s->out)) {
			json_obj_begin(s->out, NULL);
			json_u64(s->out, "inode", w->ino);
			json_u64(s->out, "extents", w->extents);
			json_u64(s->out, "ideal", w->ideal);
			json_u64(s->out, "blocks", w->blocks);
			if (path)
				json_str(s->out, "path", path);
			else
				json_null(s->out, "path");
			json_obj_end(s->out);
		}
		file_line(s, &lb, w, path);
	}
	batch_flush(s, &lb);
	if (sink_is_json(s->out))
		json_arr_end(s->out);
}

/* The reserved inodes with blocks, the journal first among them. */
static void print_special(struct session *s)
{
	struct frag_special sp[FRAG_SPECIAL_MAX];
	size_t n, i;

	if (frag_special_get(s, sp, &n))
		n = 0;
	if (sink_is_json(s->out))
		json_arr_begin(s->out, "special");
	if (n)
		out_printf(s->out, "\nSpecial inodes (not in the list above):"
			   "\n%10s %8s %6s %10s  %s\n", "Inode", "Extents",
			   "Ideal", "Blocks", "What");
	for (i = 0; i < n; i++) {
		const struct frag_file *f = &sp[i].f;

		if (sink_is_json(s->out)) {
			json_obj_begin(s->out, NULL);
			json_u64(s->out, "inode", f->ino);
			json_str(s->out, "name", sp[i].name);
			json_u64(s->out, "extents", f->extents);
			json_u64(s->out, "ideal", f->ideal);
			json_u64(s->out, "blocks", f->blocks);
			json_obj_end(s->out);
		}
		out_printf(s->out, "%10u %8llu %6llu %10llu  %s\n", f->ino,
			   (unsigned long long)f->extents,
			   (unsigned long long)f->ideal,
			   (unsigned long long)f->blocks, sp[i].name);
	}
	if (sink_is_json(s->out))
		json_arr_end(s->out);
}

static int do_frag(struct session *s, int argc, char **argv)
{
	unsigned long long top = 10;
	struct frag_files f;
	struct frag_hist h;
	ext2_ino_t *want = NULL;
	char **paths = NULL, *arena = NULL;
	dgrp_t per = 0;
	errcode_t err;
	char *end;
	size_t i;
	int a, donors = 0;

	if (!frag_stream_usable(s) &&
	    dfs_check_loaded(s, argv[0], NEED_BLOCK_BITMAP))
		return CMD_FAIL;
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--top") && a + 1 < argc) {
			errno = 0;
			top = strtoull(argv[++a], &end, 0);
			if (errno || *end || !*argv[a] || *argv[a] == '-' ||
			    top > 1000000) {
				out_error(s->out, argv[0], 0, "bad count %s",
					  argv[a]);
				return CMD_FAIL;
			}
		} else if (!strcmp(argv[a], "--donors")) {
			donors = 1;
		} else if (!strcmp(argv[a], "--per-group")) {
			per = 1;
		} else if (!strcmp(argv[a], "--per-flex")) {
			per = ext2fs_has_feature_flex_bg(s->fs->super) ?
			      1U << s->fs->super->s_log_groups_per_flex : 1;
		} else {
			out_error(s->out, argv[0], 0, "Usage: frag [--top N] "
				  "[--per-group|--per-flex] [--donors]");
			return CMD_FAIL;
		}
	}
	if (donors && !s->live) {
		out_error(s->out, argv[0], 0, "--donors needs a mounted "
			  "filesystem (live mode: e2layout /mount/point)");
		return CMD_FAIL;
	}
	err = frag_free_hist(s, 0, s->fs->group_desc_count - 1, &h);
	if (err) {
		out_error(s->out, argv[0], err,
			  "while reading allocation bitmaps");
		return CMD_FAIL;
	}
	if (sink_is_json(s->out))
		json_obj_begin(s->out, "free");
	print_hist(s, &h, 1);
	if (sink_is_json(s->out))
		json_obj_end(s->out);
	if (per && print_parts(s, argv[0], per))
		return CMD_FAIL;
	err = frag_files_scan(s, top, 1, &f);
	if (err) {
		out_error(s->out, argv[0], err, "while scanning inodes");
		return CMD_FAIL;
	}
	if (f.nworst) {
		/* both filled before use (owner_find_paths sets every
		 * path): no zeroing of 10,000 of each first */
		want = malloc(f.nworst * sizeof(*want));
		paths = malloc(f.nworst * sizeof(*paths));
		for (i = 0; want && paths && i < f.nworst; i++)
			want[i] = f.worst[i].ino;
		if (!want || !paths ||
		    owner_find_paths(s->fs, want, paths, f.nworst, &arena)) {
			free(paths);
			paths = NULL;
		}
	}
	if (sink_is_json(s->out))
		json_obj_begin(s->out, "files");
	print_files(s, &f, paths);
	print_special(s);
	if (sink_is_json(s->out))
		json_obj_end(s->out);
	free(arena);
	free(want);
	free(paths);
	frag_files_release(&f);
	if (donors && ldf_preview(s, (size_t)top))
		return CMD_FAIL;
	return CMD_OK;
}

const struct cmd_entry cmd_frag = {
	.name = "frag",
	.synopsis = "frag [--top N] [--per-group|--per-flex] [--donors]",
	.summary = "Free-space and file fragmentation, with the worst files",
	.options = "--top --per-group --per-flex --donors",
	/* the bitmap is read group by group when it is not loaded (its
	 * errors told as the dispatcher tells them) */
	.flags = CMD_NEEDS_FS | CMD_JSON,
	.run = do_frag,
};

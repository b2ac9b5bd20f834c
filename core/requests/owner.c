/* owner.c - `owner BLOCK...`: what owns each block (class, group, and
 * for file blocks the inode, its path and the logical block). */
#include "cmd.h"
#include "dfs_util.h"
#include "fs_probe.h"
#include "owner.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int data_class(enum owner_class c)
{
	return c == OWN_FILE || c == OWN_DIR || c == OWN_JOURNAL ||
	       c == OWN_OTHER;
}

/* Does a metadata-only e2image file hold the content of blk, of class
 * cls?  It holds the primary superblock and descriptors, the bitmaps and
 * the inode tables; free blocks have no content to hold. */
static int image_holds(struct session *s, blk64_t blk, enum owner_class cls)
{
	blk64_t first = s->fs->super->s_first_data_block;

	switch (cls) {
	case OWN_FREE:
	case OWN_UNINIT:
	case OWN_BBITMAP:
	case OWN_IBITMAP:
	case OWN_ITABLE:
		return 1;
	case OWN_SUPER:
		return blk == first;
	case OWN_GDT:
		return blk > first && blk <= first + s->fs->desc_blocks;
	default:
		return 0;
	}
}

/* The JSON members that say who owns blk (one claimant). */
static void json_owner(struct session *s, blk64_t blk,
		       const struct owner_run *r, const char *path)
{
	blk64_t lblk = r->lblk + (data_class(r->cls) ? blk - r->start : 0);

	json_str(s->out, "class", owner_class_key(r->cls));
	json_str(s->out, "class_name", owner_class_name(r->cls));
	json_u64(s->out, "group", r->group);
	json_u64(s->out, "run_start", r->start);
	json_u64(s->out, "run_length", r->len);
	if (!r->ino)
		return;
	json_u64(s->out, "inode", r->ino);
	if (path)
		json_str(s->out, "path", path);
	else
		json_null(s->out, "path");
	if (r->cls != OWN_XATTR)
		json_u64(s->out, "logical_block", lblk);
}

/* A line of text built in memory and written at once (six printf calls a
 * line were a tenth of `owner` with 1000 blocks). */
struct line {
	struct sink *out;
	size_t n;
	char b[512];
};

static void line_put(struct line *l, const char *str, size_t len)
{
	if (l->n + len > sizeof(l->b)) {
		out_write(l->out, l->b, l->n);
		l->n = 0;
		if (len > sizeof(l->b)) {
			out_write(l->out, str, len);
			return;
		}
	}
	memcpy(l->b + l->n, str, len);
	l->n += len;
}

static void line_str(struct line *l, const char *str)
{
	line_put(l, str, strlen(str));
}

static void line_u64(struct line *l, unsigned long long v)
{
	char d[20];
	int i = sizeof(d);

	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	line_put(l, d + i, sizeof(d) - i);
}

static void line_end(struct line *l)
{
	line_put(l, "\n", 1);
	out_write(l->out, l->b, l->n);
	l->n = 0;
}

/* The text that says who owns blk (one claimant), without a newline. */
static void text_owner(struct line *l, blk64_t blk, const struct owner_run *r,
		       const char *path)
{
	blk64_t lblk = r->lblk + (data_class(r->cls) ? blk - r->start : 0);

	line_str(l, owner_class_name(r->cls));
	line_str(l, ", group ");
	line_u64(l, r->group);
	if (!r->ino)
		return;
	line_str(l, ", inode ");
	line_u64(l, r->ino);
	if (path) {
		line_str(l, " (");
		line_str(l, path);
		line_str(l, ")");
	}
	if (r->cls != OWN_XATTR) {
		line_str(l, r->cls == OWN_MAPPING ?
			 ", mapping for logical block " : ", logical block ");
		line_u64(l, lblk);
	}
}

/* What blk's claims[0..nc) claim it as: "inodes" when every one is an
 * inode's, else "owners". */
static const char *claimant_word(const struct owner_claim *c, size_t nc)
{
	size_t i;

	for (i = 0; i < nc; i++)
		if (!c[i].run.ino)
			return "owners";
	return "inodes";
}

/*
 * One block's answer: r (its first claim), and when the block is claimed
 * more than once (c[0..nc), nc > 1) every claim after a note.
 */
static void print_one(struct session *s, blk64_t blk,
		      const struct owner_run *r, const char *path,
		      const struct owner_claim *c, size_t nc,
		      char *const *cpaths)
{
	struct line l;
	size_t i;

	l.out = s->out;
	l.n = 0;

	if (sink_is_json(s->out)) {
		json_obj_begin(s->out, NULL);
		json_u64(s->out, "block", blk);
		json_owner(s, blk, r, path);
		if (fs_probe_metadata_only(s->fs))
			json_bool(s->out, "in_image",
				  image_holds(s, blk, r->cls));
		if (nc > 1) {
			json_u64(s->out, "claimed_by", nc);
			json_arr_begin(s->out, "owners");
			for (i = 0; i < nc; i++) {
				json_obj_begin(s->out, NULL);
				json_owner(s, blk, &c[i].run,
					   c[i].run.ino ? cpaths[i] : NULL);
				json_obj_end(s->out);
			}
			json_arr_end(s->out);
		}
		json_obj_end(s->out);
	}
	line_u64(&l, blk);
	line_str(&l, ": ");
	text_owner(&l, blk, r, path);
	if (fs_probe_metadata_only(s->fs) && !image_holds(s, blk, r->cls))
		line_str(&l, r->cls == OWN_UNKNOWN ?
			 " (the map of its inode is not in this e2image "
			 "file)" : " (its content is not in this e2image "
			 "file)");
	if (nc > 1) {
		line_str(&l, "; claimed by ");
		line_u64(&l, nc);
		line_str(&l, " ");
		line_str(&l, claimant_word(c, nc));
	}
	line_end(&l);
	for (i = 1; i < nc; i++) {
		line_u64(&l, blk);
		line_str(&l, ": also ");
		text_owner(&l, blk, &c[i].run,
			   c[i].run.ino ? cpaths[i] : NULL);
		line_end(&l);
	}
}

extern const struct cmd_entry cmd_owner;

static int do_owner(struct session *s, int argc, char **argv)
{
	struct owner_run *runs = NULL;
	struct owner_claim *claims = NULL;
	blk64_t *blks = NULL;
	ext2_ino_t *want = NULL;
	char **paths = NULL, *arena = NULL;
	size_t nc = 0, c, m, j;
	int i, n, ret = CMD_FAIL, all = 0, every;
	char **args;
	char *end;
	errcode_t err;

	/* -a: every claim, from a scan of every inode */
	if (argc > 1 && !strcmp(argv[1], "-a")) {
		all = 1;
		if (argc < 3)
			return cmd_usage(s, &cmd_owner, argv[0]);
	}
	n = argc - 1 - all;
	args = argv + 1 + all;
	/* the dispatcher's bitmap check, unless the asked groups' bitmaps
	 * are all that is read */
	if (!owner_probe_groups_only(s) &&
	    dfs_check_loaded(s, argv[0], NEED_BLOCK_BITMAP))
		return CMD_FAIL;
	blks = calloc(n, sizeof(*blks));
	runs = calloc(n, sizeof(*runs));
	if (!blks || !runs) {
		out_error(s->out, argv[0], ENOMEM, NULL);
		goto out;
	}
	for (i = 0; i < n; i++) {
		errno = 0;
		blks[i] = strtoull(args[i], &end, 0);
		if (errno || end == args[i] || *end ||
		    args[i][0] == '-' ||
		    blks[i] >= ext2fs_blocks_count(s->fs->super)) {
			out_error(s->out, argv[0], 0,
				  "bad block number %s (the filesystem has "
				  "%llu blocks)", args[i],
				  (unsigned long long)
				  ext2fs_blocks_count(s->fs->super));
			goto out;
		}
	}
	/* every claimant from the index or with -a (a scan of every
	 * inode), else one owner a block (a scan that stops once each has
	 * one) */
	every = all || owner_index_complete(s);
	err = every ? owner_lookup_all(s, blks, n, runs, &claims, &nc) :
	      owner_lookup_blocks(s, blks, n, runs);
	if (err) {
		out_error(s->out, argv[0], err,
			  err == EXT2_ET_BLOCK_BITMAP_READ ||
			  err == EXT2_ET_BLOCK_BITMAP_CSUM_INVALID ?
			  "while reading allocation bitmaps" :
			  "while scanning inodes");
		goto out;
	}
	/* the paths of the answers, then of every claim */
	want = calloc(n + nc + 1, sizeof(*want));
	paths = calloc(n + nc + 1, sizeof(*paths));
	if (!want || !paths) {
		out_error(s->out, argv[0], ENOMEM, NULL);
		goto out;
	}
	for (i = 0; i < n; i++)
		want[i] = runs[i].ino;
	for (j = 0; j < nc; j++)
		want[n + j] = claims[j].run.ino;
	/* a metadata-only e2image file holds no directory block to walk */
	err = fs_probe_metadata_only(s->fs) ? 0 :
	      every ? owner_find_paths(s->fs, want, paths, n + nc, &arena) :
	      owner_find_paths_near(s->fs, want, paths, n + nc, &arena);
	if (err)
		out_error(s->out, argv[0], err, "while finding path names");
	if (sink_is_json(s->out))
		json_arr_begin(s->out, "blocks");
	for (i = 0, c = 0; i < n; i++) {
		while (c < nc && claims[c].k < (size_t)i)
			c++;
		for (m = c; m < nc && claims[m].k == (size_t)i; m++)
			;
		/* without -a there are no claims: no pointer into them */
		print_one(s, blks[i], &runs[i], runs[i].ino ? paths[i] : NULL,
			  claims ? claims + c : NULL, m - c, paths + n + c);
	}
	if (sink_is_json(s->out))
		json_arr_end(s->out);
	ret = CMD_OK;
out:
	free(blks);
	free(runs);
	free(arena);
	free(claims);
	free(want);
	free(paths);
	return ret;
}

const struct cmd_entry cmd_owner = {
	.name = "owner",
	.synopsis = "owner [-a] BLOCK...",
	.summary = "Tell what owns each block: metadata, a file, free space",
	/* the block bitmap of the asked blocks' groups is read when none is
	 * loaded (its errors told as the dispatcher tells them) */
	.flags = CMD_NEEDS_FS | CMD_JSON,
	.run = do_owner,
	.min_args = 2,
	.max_args = INT_MAX,
	.usage = "[-a] BLOCK...",
	.usage_name = "owner",
};

/* owner.c - `owner BLOCK...`: what owns each block (class, group, and
 * for file blocks the inode, its path and the logical block). */
#include "cmd.h"
#include "fs_probe.h"
#include "owner.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A wanted inode and its place in the caller's arrays. */
struct wanted {
	ext2_ino_t ino;
	size_t k;
};

struct pathfind {
	ext2_filsys fs;
	const struct wanted *want;	/* sorted by inode */
	ext2_ino_t *parent;
	char **names;			/* the entry's name, or NULL: unused */
	size_t n, left;
	ext2fs_inode_bitmap seen, wanted;
	ext2_ino_t *stack;
	size_t sn, scap;
	ext2_ino_t cur;
	errcode_t err;
};

/* Gives every want[] entry for inode ino its parent (a bitmap test for
 * the usual miss, a binary search for a hit). */
static void pf_found(struct pathfind *pf, ext2_ino_t ino,
		     const struct ext2_dir_entry *d)
{
	int len = ext2fs_dirent_name_len(d);
	size_t lo = 0, hi = pf->n;

	if (!ext2fs_fast_test_inode_bitmap2(pf->wanted, ino))
		return;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pf->want[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < pf->n && pf->want[lo].ino == ino; lo++)
		if (!pf->parent[pf->want[lo].k]) {
			pf->parent[pf->want[lo].k] = pf->cur;
			pf->left--;
			if (pf->names && (pf->names[pf->want[lo].k] =
					  malloc(len + 1))) {
				memcpy(pf->names[pf->want[lo].k], d->name,
				       len);
				pf->names[pf->want[lo].k][len] = 0;
			}
		}
}

static int pf_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *d,
		    int offset, int blocksize, char *buf, void *priv)
{
	struct pathfind *pf = priv;
	int len = ext2fs_dirent_name_len(d), ft = ext2fs_dirent_file_type(d);
	struct ext2_inode inode;

	(void)dir;
	(void)entry;
	(void)offset;
	(void)blocksize;
	(void)buf;
	if (!d->inode || d->inode > pf->fs->super->s_inodes_count ||
	    (d->name[0] == '.' && (len == 1 || (len == 2 &&
					       d->name[1] == '.'))))
		return 0;
	pf_found(pf, d->inode, d);
	if (!pf->left)
		return DIRENT_ABORT;
	if (ft == EXT2_FT_UNKNOWN) {
		if (ext2fs_read_inode(pf->fs, d->inode, &inode) ||
		    !LINUX_S_ISDIR(inode.i_mode))
			return 0;
	} else if (ft != EXT2_FT_DIR) {
		return 0;
	}
	if (ext2fs_fast_test_inode_bitmap2(pf->seen, d->inode))
		return 0;
	ext2fs_fast_mark_inode_bitmap2(pf->seen, d->inode);
	if (pf->sn == pf->scap) {
		size_t cap = pf->scap ? pf->scap * 2 : 64;
		ext2_ino_t *st = realloc(pf->stack, cap * sizeof(*st));

		if (!st) {
			pf->err = ENOMEM;
			return DIRENT_ABORT;
		}
		pf->stack = st;
		pf->scap = cap;
	}
	pf->stack[pf->sn++] = d->inode;
	return 0;
}

static int wanted_cmp(const void *a, const void *b)
{
	const struct wanted *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* Finds a directory holding each of want[0..n) (0 when none), walking the
 * tree from the root once for all of them. */
static errcode_t find_int(ext2_filsys fs, const ext2_ino_t *want,
			  ext2_ino_t *parent, char **names, size_t n)
{
	struct pathfind pf = {.fs = fs, .parent = parent, .names = names};
	struct wanted *w = NULL;
	errcode_t err;
	size_t i;
	int keep_type;

	memset(parent, 0, n * sizeof(*parent));
	keep_type = fs->default_bitmap_type;
	session_bitmap_type(fs, fs->super->s_inodes_count);
	err = ext2fs_allocate_inode_bitmap(fs, "seen", &pf.seen);
	if (!err)
		err = ext2fs_allocate_inode_bitmap(fs, "wanted", &pf.wanted);
	fs->default_bitmap_type = keep_type;
	if (err)
		goto out;
	w = malloc((n ? n : 1) * sizeof(*w));
	if (!w) {
		err = ENOMEM;
		goto out;
	}
	/* inode 0 (no owner) and impossible numbers are never found */
	for (i = 0; i < n; i++) {
		if (!want[i] || want[i] > fs->super->s_inodes_count)
			continue;
		w[pf.n].ino = want[i];
		w[pf.n++].k = i;
		ext2fs_mark_inode_bitmap2(pf.wanted, want[i]);
	}
	qsort(w, pf.n, sizeof(*w), wanted_cmp);
	pf.want = w;
	pf.left = pf.n;
	ext2fs_mark_inode_bitmap2(pf.seen, EXT2_ROOT_INO);
	pf.stack = malloc(64 * sizeof(*pf.stack));
	if (!pf.stack) {
		err = ENOMEM;
		goto out;
	}
	pf.scap = 64;
	pf.stack[pf.sn++] = EXT2_ROOT_INO;
	while (pf.sn && pf.left && !pf.err) {
		pf.cur = pf.stack[--pf.sn];
		ext2fs_dir_iterate2(fs, pf.cur, 0, NULL, pf_entry, &pf);
	}
	err = pf.err;
out:
	free(pf.stack);
	free(w);
	if (pf.seen)
		ext2fs_free_inode_bitmap(pf.seen);
	if (pf.wanted)
		ext2fs_free_inode_bitmap(pf.wanted);
	return err;
}

errcode_t owner_find_parents(ext2_filsys fs, const ext2_ino_t *want,
			     ext2_ino_t *parent, size_t n)
{
	return find_int(fs, want, parent, NULL, n);
}

struct dirpath {
	ext2_ino_t dir;
	char *path;
};

static int dirpath_cmp(const void *a, const void *b)
{
	const struct dirpath *x = a, *y = b;

	return x->dir < y->dir ? -1 : x->dir > y->dir;
}

errcode_t owner_find_paths(ext2_filsys fs, const ext2_ino_t *want,
			   char **paths, size_t n)
{
	ext2_ino_t *parent = calloc(n ? n : 1, sizeof(*parent));
	char **names = calloc(n ? n : 1, sizeof(*names));
	struct dirpath *dp = calloc(n ? n : 1, sizeof(*dp)), key, *hit;
	size_t i, nd = 0, o = 0;
	errcode_t err = ENOMEM;

	memset(paths, 0, n * sizeof(*paths));
	if (!parent || !names || !dp)
		goto out;
	err = find_int(fs, want, parent, names, n);
	if (err)
		goto out;
	/* each directory's own path once (ext2fs_get_pathname reads every
	 * directory up to the root: once per file was most of the time) */
	for (i = 0; i < n; i++)
		if (parent[i] && names[i])
			dp[nd++].dir = parent[i];
	qsort(dp, nd, sizeof(*dp), dirpath_cmp);
	for (i = 0; i < nd; i++)
		if (!o || dp[o - 1].dir != dp[i].dir)
			dp[o++].dir = dp[i].dir;
	nd = o;
	for (i = 0; i < nd; i++)
		if (ext2fs_get_pathname(fs, dp[i].dir, 0, &dp[i].path))
			dp[i].path = NULL;
	for (i = 0; i < n; i++) {
		if (want[i] == EXT2_ROOT_INO) {
			char *p = NULL;

			if (!ext2fs_get_pathname(fs, EXT2_ROOT_INO, 0, &p))
				paths[i] = strdup(p);
			ext2fs_free_mem(&p);
			continue;
		}
		if (!parent[i] || !names[i])
			continue;
		key.dir = parent[i];
		hit = bsearch(&key, dp, nd, sizeof(*dp), dirpath_cmp);
		if (!hit || !hit->path) {
			/* a directory damaged past the entry: its own walk
			 * fails where the search for the entry stops short */
			char *p = NULL;

			if (!ext2fs_get_pathname(fs, parent[i], want[i], &p))
				paths[i] = strdup(p);
			ext2fs_free_mem(&p);
			continue;
		}
		/* as ext2fs_get_pathname(parent, ino) composes it */
		if (asprintf(&paths[i], "%s/%s", hit->path[1] ? hit->path : "",
			     names[i]) < 0)
			paths[i] = NULL;
	}
	err = 0;
out:
	for (i = 0; names && i < n; i++)
		free(names[i]);
	for (i = 0; dp && i < nd; i++)
		ext2fs_free_mem(&dp[i].path);
	free(names);
	free(parent);
	free(dp);
	return err;
}

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

/* The text that says who owns blk (one claimant), without a newline. */
static void text_owner(struct session *s, blk64_t blk,
		       const struct owner_run *r, const char *path)
{
	blk64_t lblk = r->lblk + (data_class(r->cls) ? blk - r->start : 0);

	out_printf(s->out, "%s, group %u", owner_class_name(r->cls),
		   r->group);
	if (!r->ino)
		return;
	out_printf(s->out, ", inode %u", r->ino);
	if (path)
		out_printf(s->out, " (%s)", path);
	if (r->cls != OWN_XATTR)
		out_printf(s->out, ", %s %llu", r->cls == OWN_MAPPING ?
			   "mapping for logical block" : "logical block",
			   (unsigned long long)lblk);
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
	size_t i;

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
	out_printf(s->out, "%llu: ", (unsigned long long)blk);
	text_owner(s, blk, r, path);
	if (fs_probe_metadata_only(s->fs) && !image_holds(s, blk, r->cls))
		out_printf(s->out, r->cls == OWN_UNKNOWN ?
			   " (the map of its inode is not in this e2image "
			   "file)" : " (its content is not in this e2image "
			   "file)");
	if (nc > 1)
		out_printf(s->out, "; claimed by %zu %s", nc,
			   claimant_word(c, nc));
	out_printf(s->out, "\n");
	for (i = 1; i < nc; i++) {
		out_printf(s->out, "%llu: also ", (unsigned long long)blk);
		text_owner(s, blk, &c[i].run, c[i].run.ino ? cpaths[i] : NULL);
		out_printf(s->out, "\n");
	}
}

static int do_owner(struct session *s, int argc, char **argv)
{
	struct owner_run *runs = NULL;
	struct owner_claim *claims = NULL;
	blk64_t *blks = NULL;
	ext2_ino_t *want = NULL;
	char **paths = NULL;
	size_t nc = 0, c, m, j;
	int i, n = argc - 1, ret = CMD_FAIL;
	char *end;
	errcode_t err;

	blks = calloc(n, sizeof(*blks));
	runs = calloc(n, sizeof(*runs));
	if (!blks || !runs) {
		out_error(s->out, argv[0], ENOMEM, NULL);
		goto out;
	}
	for (i = 0; i < n; i++) {
		errno = 0;
		blks[i] = strtoull(argv[i + 1], &end, 0);
		if (errno || end == argv[i + 1] || *end ||
		    argv[i + 1][0] == '-' ||
		    blks[i] >= ext2fs_blocks_count(s->fs->super)) {
			out_error(s->out, argv[0], 0,
				  "bad block number %s (the filesystem has "
				  "%llu blocks)", argv[i + 1],
				  (unsigned long long)
				  ext2fs_blocks_count(s->fs->super));
			goto out;
		}
	}
	/* every claimant, without building the whole index when the
	 * session has none */
	err = owner_lookup_all(s, blks, n, runs, &claims, &nc);
	if (err) {
		out_error(s->out, argv[0], err, "while scanning inodes");
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
	      owner_find_paths(s->fs, want, paths, n + nc);
	if (err)
		out_error(s->out, argv[0], err, "while finding path names");
	if (sink_is_json(s->out))
		json_arr_begin(s->out, "blocks");
	for (i = 0, c = 0; i < n; i++) {
		while (c < nc && claims[c].k < (size_t)i)
			c++;
		for (m = c; m < nc && claims[m].k == (size_t)i; m++)
			;
		print_one(s, blks[i], &runs[i], runs[i].ino ? paths[i] : NULL,
			  claims + c, m - c, paths + n + c);
	}
	if (sink_is_json(s->out))
		json_arr_end(s->out);
	ret = CMD_OK;
out:
	free(blks);
	free(runs);
	for (j = 0; paths && j < n + nc; j++)
		free(paths[j]);
	free(claims);
	free(want);
	free(paths);
	return ret;
}

const struct cmd_entry cmd_owner = {
	.name = "owner",
	.synopsis = "owner BLOCK...",
	.summary = "Tell what owns each block: metadata, a file, free space",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BBITMAP | CMD_JSON,
	.run = do_owner,
	.min_args = 2,
	.max_args = INT_MAX,
	.usage = "BLOCK...",
	.usage_name = "owner",
};

/* owner.c - `owner BLOCK...`: what owns each block (class, group, and
 * for file blocks the inode, its path and the logical block). */
#include "cmd.h"
#include "fs_probe.h"
#include "owner.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct pathfind {
	ext2_filsys fs;
	const ext2_ino_t *want;
	ext2_ino_t *parent;
	size_t n, left;
	ext2fs_inode_bitmap seen;
	ext2_ino_t *stack;
	size_t sn, scap;
	ext2_ino_t cur;
	errcode_t err;
};

static int pf_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *d,
		    int offset, int blocksize, char *buf, void *priv)
{
	struct pathfind *pf = priv;
	int len = ext2fs_dirent_name_len(d), ft = ext2fs_dirent_file_type(d);
	struct ext2_inode inode;
	size_t k;

	(void)dir;
	(void)entry;
	(void)offset;
	(void)blocksize;
	(void)buf;
	if (!d->inode || d->inode > pf->fs->super->s_inodes_count ||
	    (d->name[0] == '.' && (len == 1 || (len == 2 &&
					       d->name[1] == '.'))))
		return 0;
	for (k = 0; k < pf->n; k++)
		if (pf->want[k] == d->inode && !pf->parent[k]) {
			pf->parent[k] = pf->cur;
			pf->left--;
		}
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

/* Finds a directory holding each of want[0..n) (0 when none), walking the
 * tree from the root once for all of them. */
errcode_t owner_find_parents(ext2_filsys fs, const ext2_ino_t *want,
			     ext2_ino_t *parent, size_t n)
{
	struct pathfind pf = {.fs = fs, .want = want, .parent = parent,
			      .n = n, .left = n};
	errcode_t err;

	err = ext2fs_allocate_inode_bitmap(fs, "seen", &pf.seen);
	if (err)
		return err;
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
	ext2fs_free_inode_bitmap(pf.seen);
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

static void print_one(struct session *s, blk64_t blk,
		      const struct owner_run *r, const char *path)
{
	blk64_t lblk = r->lblk + (data_class(r->cls) ? blk - r->start : 0);

	if (sink_is_json(s->out)) {
		json_obj_begin(s->out, NULL);
		json_u64(s->out, "block", blk);
		json_str(s->out, "class", owner_class_key(r->cls));
		json_str(s->out, "class_name", owner_class_name(r->cls));
		json_u64(s->out, "group", r->group);
		json_u64(s->out, "run_start", r->start);
		json_u64(s->out, "run_length", r->len);
		if (r->ino) {
			json_u64(s->out, "inode", r->ino);
			if (path)
				json_str(s->out, "path", path);
			else
				json_null(s->out, "path");
			if (r->cls != OWN_XATTR)
				json_u64(s->out, "logical_block", lblk);
		}
		if (fs_probe_metadata_only(s->fs))
			json_bool(s->out, "in_image",
				  image_holds(s, blk, r->cls));
		json_obj_end(s->out);
	}
	out_printf(s->out, "%llu: %s, group %u", (unsigned long long)blk,
		   owner_class_name(r->cls), r->group);
	if (r->ino) {
		out_printf(s->out, ", inode %u", r->ino);
		if (path)
			out_printf(s->out, " (%s)", path);
		if (r->cls != OWN_XATTR)
			out_printf(s->out, ", %s %llu", r->cls == OWN_MAPPING ?
				   "mapping for logical block" :
				   "logical block",
				   (unsigned long long)lblk);
	}
	if (fs_probe_metadata_only(s->fs) && !image_holds(s, blk, r->cls))
		out_printf(s->out, r->cls == OWN_UNKNOWN ?
			   " (the map of its inode is not in this e2image "
			   "file)" : " (its content is not in this e2image "
			   "file)");
	out_printf(s->out, "\n");
}

static int do_owner(struct session *s, int argc, char **argv)
{
	struct owner_run *runs = NULL;
	blk64_t *blks = NULL;
	ext2_ino_t *want = NULL, *parent = NULL;
	int i, n = argc - 1, ret = CMD_FAIL;
	char *end, *path;
	errcode_t err;

	if (n < 1) {
		out_error(s->out, argv[0], 0, "Usage: owner BLOCK...");
		return CMD_FAIL;
	}
	blks = calloc(n, sizeof(*blks));
	runs = calloc(n, sizeof(*runs));
	want = calloc(n, sizeof(*want));
	parent = calloc(n, sizeof(*parent));
	if (!blks || !runs || !want || !parent) {
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
	err = owner_index_build(s);
	if (err) {
		out_error(s->out, argv[0], err, "while scanning inodes");
		goto out;
	}
	for (i = 0; i < n; i++) {
		err = owner_lookup(s, blks[i], &runs[i]);
		if (err) {
			out_error(s->out, argv[0], err, "while looking up %llu",
				  (unsigned long long)blks[i]);
			goto out;
		}
		want[i] = runs[i].ino;
	}
	/* a metadata-only e2image file holds no directory block to walk */
	err = fs_probe_metadata_only(s->fs) ? 0 :
	      owner_find_parents(s->fs, want, parent, n);
	if (err)
		out_error(s->out, argv[0], err, "while finding path names");
	if (sink_is_json(s->out))
		json_arr_begin(s->out, "blocks");
	for (i = 0; i < n; i++) {
		path = NULL;
		if (runs[i].ino == EXT2_ROOT_INO)
			ext2fs_get_pathname(s->fs, EXT2_ROOT_INO, 0, &path);
		else if (runs[i].ino && parent[i])
			ext2fs_get_pathname(s->fs, parent[i], runs[i].ino,
					    &path);
		print_one(s, blks[i], &runs[i], path);
		ext2fs_free_mem(&path);
	}
	if (sink_is_json(s->out))
		json_arr_end(s->out);
	ret = CMD_OK;
out:
	free(blks);
	free(runs);
	free(want);
	free(parent);
	return ret;
}

const struct cmd_entry cmd_owner = {
	.name = "owner",
	.synopsis = "owner BLOCK...",
	.summary = "Tell what owns each block: metadata, a file, free space",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BBITMAP | CMD_JSON,
	.run = do_owner,
};

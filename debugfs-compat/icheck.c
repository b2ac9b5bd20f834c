/* icheck.c - `icheck BLOCK...`: the inode owning each block, as debugfs 1.47.0
 * prints it, in ONE inode scan for all the blocks (ncheck.c is the other
 * direction). */
#include "cmd.h"
#include "dfs_scan.h"
#include "dfs_util.h"
#include "dfs_wr.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>


struct icheck_block {
	blk64_t blk;
	ext2_ino_t ino;	/* 0 while no owner is found */
};

struct icheck_walk {
	struct icheck_block *b;
	int n, left;
	ext2_ino_t ino;	/* inode being walked */
	int errors;	/* inodes whose blocks could not be walked */
	char *bbuf;	/* block_iterate's buffer */
};

static int icheck_proc(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t cnt,
		       blk64_t ref, int ref_off, void *priv)
{
	struct icheck_walk *w = priv;
	int i;

	(void)fs;
	(void)cnt;
	(void)ref;
	(void)ref_off;
	for (i = 0; i < w->n; i++) {
		if (!w->b[i].ino && w->b[i].blk == *blocknr) {
			w->b[i].ino = w->ino;
			w->left--;
		}
	}
	return w->left ? 0 : BLOCK_ABORT;
}

/* One inode of icheck's scan: credits its blocks; nonzero when every
 * block asked has its owner. */
static int icheck_visit(struct session *s, ext2_ino_t ino,
			struct ext2_inode *inode, void *arg)
{
	struct icheck_walk *w = arg;
	blk64_t acl;
	errcode_t err;

	if (!inode->i_links_count)
		return 0;
	w->ino = ino;
	acl = ext2fs_file_acl_block(s->fs, inode);
	if (acl) {
		icheck_proc(s->fs, &acl, 0, 0, 0, w);
		if (!w->left)
			return 1;
	}
	if (!ext2fs_inode_has_valid_blocks2(s->fs, inode) || inode->i_dtime)
		return 0;
	err = ext2fs_block_iterate3(s->fs, ino, BLOCK_FLAG_READ_ONLY,
				    w->bbuf, icheck_proc, w);
	if (err) {
		out_error(s->out, "icheck", err,
			  "while calling ext2fs_block_iterate");
		w->errors++;
		return 0;
	}
	return !w->left;
}

static int do_icheck(struct session *s, int argc, char **argv)
{
	struct icheck_walk w = {0};
	char *bbuf = NULL;
	int i, err, rc = CMD_FAIL;

	w.b = calloc(argc, sizeof(*w.b));
	if (!w.b || ext2fs_get_mem(s->fs->blocksize * 3, &bbuf)) {
		out_error(s->out, "icheck", EXT2_ET_NO_MEMORY,
			  "while allocating block buffer");
		goto out;
	}
	for (i = 1; i < argc; i++) {
		w.b[i - 1].blk = dfs_parse_ulonglong(s, argv[i], argv[0],
						     "block number", &err);
		if (err)
			goto out;
	}
	w.n = w.left = argc - 1;
	w.bbuf = bbuf;
	if (dfs_scan_inodes(s, "icheck", NULL, icheck_visit, &w))
		goto out;
	/* The answer is printed even when some inodes could not be walked,
	 * but the request then fails. */

	out_printf(s->out, "Block\tInode number\n");
	json_arr_begin(s->out, "blocks");
	for (i = 0; i < w.n; i++) {
		json_obj_begin(s->out, NULL);
		json_u64(s->out, "block", w.b[i].blk);
		if (w.b[i].ino) {
			out_printf(s->out, "%llu\t%u\n",
				   (unsigned long long)w.b[i].blk, w.b[i].ino);
			json_u64(s->out, "inode", w.b[i].ino);
		} else {
			out_printf(s->out, "%llu\t<block not found>\n",
				   (unsigned long long)w.b[i].blk);
			json_null(s->out, "inode");
		}
		json_obj_end(s->out);
	}
	json_arr_end(s->out);
	rc = w.errors ? CMD_FAIL : CMD_OK;
out:
	ext2fs_free_mem(&bbuf);
	free(w.b);
	return rc;
}

const struct cmd_entry cmd_icheck = {
	.name = "icheck",
	.synopsis = "icheck <block>...",
	.summary = "Do block->inode translation",
	.options = "--json",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON,
	.run = do_icheck,
	.min_args = 2,
	.max_args = INT_MAX,
	.usage = "<block number> ...",
	.usage_name = "icheck",
};

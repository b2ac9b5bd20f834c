/* lsdel.c - debugfs's list_deleted_inodes (lsdel): one inode scan for
 * inodes with a deletion time whose blocks are still partly free, oldest
 * deletion first; with [secs], only those deleted within secs of now. */
#include "cmd.h"
#include "dfs_util.h"

#include <stdlib.h>
#include <string.h>

struct lsdel_item {
	ext2_ino_t ino;
	unsigned short mode;
	__u32 uid;
	__u64 size;
	__s64 dtime;
	e2_blkcnt_t blocks, free;
};

struct lsdel_count {
	e2_blkcnt_t blocks, free, bad;
};

static int lsdel_block(ext2_filsys fs, blk64_t *blk, e2_blkcnt_t cnt,
		       blk64_t ref, int off, void *priv)
{
	struct lsdel_count *c = priv;

	(void)cnt;
	(void)ref;
	(void)off;
	c->blocks++;
	if (*blk < fs->super->s_first_data_block ||
	    *blk >= ext2fs_blocks_count(fs->super)) {
		c->bad++;
		return BLOCK_ABORT;
	}
	if (!ext2fs_test_block_bitmap2(fs->block_map, *blk))
		c->free++;
	return 0;
}

static int lsdel_cmp(const void *a, const void *b)
{
	const struct lsdel_item *x = a, *y = b;

	return (int)(x->dtime - y->dtime);
}

static int lsdel_next(struct session *s, ext2_inode_scan scan,
		      ext2_ino_t *ino, struct ext2_inode *inode,
		      const char *what)
{
	errcode_t err;

	do {
		err = ext2fs_get_next_inode(scan, ino, inode);
	} while (err == EXT2_ET_BAD_BLOCK_IN_INODE_TABLE);
	if (err)
		out_error(s->out, "ls_deleted_inodes", err, "%s", what);
	return err ? 1 : 0;
}

static int do_lsdel(struct session *s, int argc, char **argv)
{
	struct lsdel_item *v = NULL, *nv;
	size_t n = 0, cap = 0, i;
	ext2_inode_scan scan = NULL;
	struct ext2_inode inode;
	struct lsdel_count c;
	struct sink *o = s->out;
	long long now, secs = 0, age;
	char *block_buf = NULL, *end;
	ext2_ino_t ino;
	errcode_t err;
	int ret = CMD_FAIL;

	if (argc > 1) {
		secs = strtol(argv[1], &end, 0);
		if (*end) {
			out_error(o, argv[0], 0, "Bad time - %s", argv[1]);
			return CMD_FAIL;
		}
	}
	if ((s->flags & SESSION_CATASTROPHIC) ||
	    session_need(s, NEED_BLOCK_BITMAP)) {
		dfs_not_loaded(s, argv[0]);
		return CMD_FAIL;
	}
	now = session_now(s);
	age = now - secs < 0 ? secs - now : now - secs;
	block_buf = malloc(s->fs->blocksize * 3);
	if (!block_buf) {
		out_error(o, "ls_deleted_inodes", ENOMEM,
			  "while allocating block buffer");
		goto out;
	}
	err = ext2fs_open_inode_scan(s->fs, 0, &scan);
	if (err) {
		out_error(o, "ls_deleted_inodes", err,
			  "while opening inode scan");
		goto out;
	}
	if (lsdel_next(s, scan, &ino, &inode, "while starting inode scan"))
		goto out;
	while (ino) {
		if (!inode.i_dtime ||
		    (secs && (unsigned long long)age > inode.i_dtime))
			goto next;
		memset(&c, 0, sizeof(c));
		err = 0;
		if (ext2fs_inode_has_valid_blocks2(s->fs, &inode))
			err = ext2fs_block_iterate3(s->fs, ino,
						    BLOCK_FLAG_READ_ONLY,
						    block_buf, lsdel_block, &c);
		if (err) {
			out_error(o, "ls_deleted_inodes", err,
				  "while calling ext2fs_block_iterate2");
			goto next;
		}
		/* inline data has no blocks but is still listed */
		if ((!c.free || c.bad) &&
		    !(inode.i_flags & EXT4_INLINE_DATA_FL))
			goto next;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				out_error(o, "ls_deleted_inodes", ENOMEM,
					  "while reallocating array");
				goto out;
			}
			v = nv;
		}
		v[n].ino = ino;
		v[n].mode = inode.i_mode;
		v[n].uid = inode_uid(inode);
		v[n].size = inode.i_size;
		if (!LINUX_S_ISDIR(inode.i_mode))
			v[n].size |= (__u64)inode.i_size_high << 32;
		v[n].dtime = (__s32)inode.i_dtime;	/* as debugfs: signed */
		v[n].blocks = c.blocks;
		v[n].free = c.free;
		n++;
next:
		if (lsdel_next(s, scan, &ino, &inode, "while doing inode scan"))
			goto out;
	}
	out_printf(o, " Inode  Owner  Mode    Size      Blocks   "
		   "Time deleted\n");
	if (n)
		qsort(v, n, sizeof(*v), lsdel_cmp);
	json_arr_begin(o, "deleted");
	for (i = 0; i < n; i++) {
		out_printf(o, "%6u %6d %6o %6llu %6lld/%6lld %s", v[i].ino,
			   (int)v[i].uid, v[i].mode,
			   (unsigned long long)v[i].size,
			   (long long)v[i].free, (long long)v[i].blocks,
			   dfs_time_to_string(v[i].dtime));
		json_obj_begin(o, NULL);
		json_u64(o, "inode", v[i].ino);
		json_u64(o, "owner", v[i].uid);
		json_u64(o, "mode", v[i].mode);
		json_u64(o, "size", v[i].size);
		json_u64(o, "free_blocks", v[i].free);
		json_u64(o, "blocks", v[i].blocks);
		json_i64(o, "dtime", v[i].dtime);
		json_obj_end(o);
	}
	json_arr_end(o);
	out_printf(o, "%d deleted inodes found.\n", (int)n);
	ret = CMD_OK;
out:
	free(block_buf);
	free(v);
	if (scan)
		ext2fs_close_inode_scan(scan);
	return ret;
}

static const char *const lsdel_aliases[] = {"lsdel", NULL};
const struct cmd_entry cmd_list_deleted_inodes = {
	.name = "list_deleted_inodes",
	.aliases = lsdel_aliases,
	.synopsis = "list_deleted_inodes [secs]",
	.summary = "List deleted inodes whose blocks are still free",
	.options = "--json",
	.flags = CMD_DEBUGFS | CMD_JSON | CMD_NEEDS_FS,
	.run = do_lsdel,
	.min_args = 1,
	.max_args = 2,
	.usage = "[secs]",
	.usage_name = "list_deleted_inodes",
};

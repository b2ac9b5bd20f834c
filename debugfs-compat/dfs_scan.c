/* dfs_scan.c - the inode scan icheck and ncheck share, with debugfs's error
 * messages and its skipping of bad inode-table blocks. */
#include "dfs_scan.h"

/* Next inode of the scan, skipping bad inode-table blocks as debugfs does. */
static errcode_t scan_next(ext2_inode_scan scan, ext2_ino_t *ino,
			   struct ext2_inode *inode)
{
	errcode_t err;

	do {
		err = ext2fs_get_next_inode(scan, ino, inode);
	} while (err == EXT2_ET_BAD_BLOCK_IN_INODE_TABLE);
	return err;
}

int dfs_scan_inodes(struct session *s, const char *cmd,
		    void (*begin)(struct session *s, void *arg),
		    int (*visit)(struct session *s, ext2_ino_t ino,
				 struct ext2_inode *inode, void *arg),
		    void *arg)
{
	ext2_inode_scan scan = NULL;
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t err;
	int rc = 1;

	err = ext2fs_open_inode_scan(s->fs, 0, &scan);
	if (err) {
		out_error(s->out, cmd, err, "while opening inode scan");
		return 1;
	}
	err = scan_next(scan, &ino, &inode);
	if (err) {
		out_error(s->out, cmd, err, "while starting inode scan");
		goto out;
	}
	if (begin)
		begin(s, arg);
	while (ino) {
		if (visit(s, ino, &inode, arg))
			break;
		err = scan_next(scan, &ino, &inode);
		if (err) {
			out_error(s->out, cmd, err, "while doing inode scan");
			goto out;
		}
	}
	rc = 0;
out:
	ext2fs_close_inode_scan(scan);
	return rc;
}

/* logdump_read.c - logdump's reading of the journal: an internal one
 * through its inode (or the superblock's backup of its block map), an
 * external one through a host file descriptor, at byte offsets. */
#include "logdump_int.h"
#include "dfs_util.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

int lg_read(struct lg *l, const char *who, ext2_loff_t off,
		   unsigned char *buf, unsigned size)
{
	unsigned got = 0;
	errcode_t err;
	ssize_t n;

	if (!l->jfile) {
		if (lseek(l->fd, off, SEEK_SET) < 0) {
			out_error(l->s->out, who, errno,
				  "while seeking in reading journal");
			return -1;
		}
		n = read(l->fd, buf, size);
		if (n < 0) {
			out_error(l->s->out, who, errno,
				  "while reading journal");
			return -1;
		}
		got = n;
	} else {
		err = ext2fs_file_llseek(l->jfile, off, EXT2_SEEK_SET, NULL);
		if (err) {
			out_error(l->s->out, who, err,
				  "while seeking in reading journal");
			return -1;
		}
		err = ext2fs_file_read(l->jfile, buf, size, &got);
		if (err) {
			out_error(l->s->out, who, err,
				  "while reading journal");
			return -1;
		}
	}
	if (got != size) {
		out_error(l->s->out, who, 0, "short read (read %u, expected "
			  "%u) while reading journal", got, size);
		return -1;
	}
	return 0;
}

unsigned lg_wrap(struct lg *l, unsigned blk)
{
	if (blk >= l->maxlen)
		blk -= l->maxlen - l->first;
	return blk;
}

int lg_open_internal(struct lg *l, int use_sb, char **argv)
{
	struct ext2_super_block *es = l->s->fs->super;
	struct ext2_inode inode;
	errcode_t err;

	if (use_sb) {
		if (es->s_jnl_backup_type != EXT3_JNL_BACKUP_BLOCKS) {
			out_error(l->s->out, argv[0], 0,
				  "no journal backup in super block\n");
			return -1;
		}
		memset(&inode, 0, sizeof(inode));
		memcpy(inode.i_block, es->s_jnl_blocks, EXT2_N_BLOCKS * 4);
		inode.i_size_high = es->s_jnl_blocks[15];
		inode.i_size = es->s_jnl_blocks[16];
		inode.i_links_count = 1;
		inode.i_mode = LINUX_S_IFREG | 0600;
	} else if (dfs_read_inode(l->s, es->s_journal_inum, &inode,
				  argv[0])) {
		return -1;
	}
	err = ext2fs_file_open2(l->s->fs, es->s_journal_inum, &inode, 0,
				&l->jfile);
	if (err) {
		out_error(l->s->out, argv[0], err, "while opening ext2 file");
		return -1;
	}
	return 0;
}

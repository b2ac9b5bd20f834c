/* filefrag.c - debugfs's filefrag: the runs of physically contiguous
 * blocks of a file, or of every file in a directory (-r: recursively). */
#include "cmd.h"
#include "dfs_util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define FF_VERBOSE	0x1
#define FF_DIR		0x2
#define FF_RECURSE	0x4

/* A directory waiting to be walked (-r), in the order debugfs walks them. */
struct ff_pending {
	struct ff_pending *next;
	ext2_ino_t ino;
	char *path;
};

struct ff_state {
	struct session *s;
	unsigned opts;
	const char *path;	/* the file being reported */
	const char *dirpath;	/* the directory being walked */
	int lw, pw;		/* column widths */
	int runs;		/* runs reported so far for this file */
	e2_blkcnt_t len;	/* the run in progress */
	e2_blkcnt_t lstart;
	blk64_t pstart, expect;
	struct ff_pending *head, *tail;
};

static int ff_digits(unsigned long long n)
{
	int d = 0;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

/* Ends the run in progress: one row with -v, one JSON element. */
static void ff_flush(struct ff_state *st)
{
	struct sink *o = st->s->out;

	if (!st->len)
		return;
	if (st->opts & FF_VERBOSE) {
		if (st->expect)
			out_printf(o, "%4d %*lu %*llu %*llu %*lu\n", st->runs,
				   st->lw, (unsigned long)st->lstart,
				   st->pw, (unsigned long long)st->pstart,
				   st->pw, (unsigned long long)st->expect,
				   st->lw, (unsigned long)st->len);
		else
			out_printf(o, "%4d %*lu %*llu %*s %*lu\n", st->runs,
				   st->lw, (unsigned long)st->lstart,
				   st->pw, (unsigned long long)st->pstart,
				   st->pw, "", st->lw, (unsigned long)st->len);
	}
	if (sink_is_json(o)) {
		json_obj_begin(o, NULL);
		json_u64(o, "logical", st->lstart);
		json_u64(o, "physical", st->pstart);
		if (st->expect)
			json_u64(o, "expected", st->expect);
		else
			json_null(o, "expected");
		json_u64(o, "length", st->len);
		json_obj_end(o);
	}
	st->runs++;
}

static int ff_block(ext2_filsys fs, blk64_t *blk, e2_blkcnt_t cnt,
		    blk64_t ref, int off, void *priv)
{
	struct ff_state *st = priv;

	(void)fs;
	(void)ref;
	(void)off;
	if (cnt < 0 || !*blk)
		return 0;
	if (st->len && cnt == st->lstart + st->len &&
	    *blk == st->pstart + st->len) {
		st->len++;
		return 0;
	}
	ff_flush(st);
	st->expect = (cnt == st->lstart + st->len) ? st->pstart + st->len : 0;
	st->lstart = cnt;
	st->pstart = *blk;
	st->len = 1;
	return 0;
}

static void ff_file(struct ff_state *st, ext2_ino_t ino,
		    struct ext2_inode *inode)
{
	struct session *s = st->s;
	struct sink *o = s->out;
	unsigned bs = s->fs->blocksize;
	int isdir = LINUX_S_ISDIR(inode->i_mode);
	errcode_t err;

	st->lw = ff_digits((EXT2_I_SIZE(inode) + bs - 1) / bs) + 1;
	if (st->lw < 7)
		st->lw = 7;
	st->runs = 0;
	st->len = st->lstart = 0;
	st->pstart = st->expect = 0;
	json_obj_begin(o, NULL);
	json_str(o, "name", dfs_json_path(st->path));
	json_u64(o, "inode", ino);
	json_bool(o, "directory", isdir);
	if (st->opts & FF_VERBOSE) {
		blk64_t nb = ext2fs_inode_i_blocks(s->fs, inode);

		if (!ext2fs_has_feature_huge_file(s->fs->super) ||
		    !(inode->i_flags & EXT4_HUGE_FILE_FL))
			nb /= bs / 512;
		out_printf(o, "\n%s has %llu block(s), i_size is %llu\n",
			   st->path, (unsigned long long)nb,
			   (unsigned long long)EXT2_I_SIZE(inode));
		out_printf(o, "%4s %*s %*s %*s %*s\n", "ext", st->lw,
			   "logical", st->pw, "physical", st->pw, "expected",
			   st->lw, "length");
	}
	json_arr_begin(o, "extents");
	/* fast symlinks and inline data have no blocks to walk */
	err = 0;
	if (ext2fs_inode_has_valid_blocks2(s->fs, inode))
		err = ext2fs_block_iterate3(s->fs, ino, BLOCK_FLAG_READ_ONLY,
					    NULL, ff_block, st);
	if (err)
		out_error(o, "ext2fs_block_iterate3", err, NULL);
	ff_flush(st);
	json_arr_end(o);
	json_u64(o, "contiguous_extents", st->runs);
	json_obj_end(o);
	out_printf(o, "%s: %d contiguous extents%s\n", st->path, st->runs,
		   isdir ? " (dir)" : "");
}

static int ff_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *d,
		    int off, int bs, char *buf, void *priv)
{
	struct ff_state *st = priv;
	int len = ext2fs_dirent_name_len(d);
	struct ext2_inode inode;
	struct ff_pending *p;
	char *path;

	(void)dir;
	(void)off;
	(void)bs;
	(void)buf;
	if (entry == DIRENT_DELETED_FILE)
		return 0;
	if ((len == 1 && d->name[0] == '.') ||
	    (len == 2 && d->name[0] == '.' && d->name[1] == '.'))
		return 0;
	if (asprintf(&path, "%s/%.*s", st->dirpath, len, d->name) < 0)
		return DIRENT_ABORT;
	st->path = path;
	if (dfs_read_inode(st->s, d->inode, &inode, path)) {
		free(path);
		return 0;
	}
	ff_file(st, d->inode, &inode);
	if (!(st->opts & FF_RECURSE) || !LINUX_S_ISDIR(inode.i_mode)) {
		free(path);
		return 0;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		free(path);
		return DIRENT_ABORT;
	}
	p->ino = d->inode;
	p->path = path;
	if (st->tail)
		st->tail->next = p;
	else
		st->head = p;
	st->tail = p;
	return 0;
}

/* Walks ino's entries, then (with -r) each subdirectory found, in turn. */
static void ff_walk(struct ff_state *st, ext2_ino_t ino, const char *name)
{
	struct ff_pending *p = NULL;
	errcode_t err;

	st->dirpath = name;
	for (;;) {
		err = ext2fs_dir_iterate2(st->s->fs, ino, 0, NULL, ff_entry,
					  st);
		if (err)
			out_error(st->s->out, "ext2fs_dir_iterate2", err, NULL);
		if (p) {
			st->head = p->next;
			if (!st->head)
				st->tail = NULL;
			free(p->path);
			free(p);
		}
		p = st->head;
		if (!p)
			break;
		ino = p->ino;
		st->dirpath = p->path;
	}
}

static int do_filefrag(struct session *s, int argc, char **argv)
{
	struct ff_state st;
	struct ext2_inode inode;
	ext2_ino_t ino;
	int c;

	memset(&st, 0, sizeof(st));
	st.s = s;
	while ((c = dfs_getopt(s, argc, argv, "dvr")) != -1) {
		switch (c) {
		case 'd':
			st.opts |= FF_DIR;
			break;
		case 'v':
			st.opts |= FF_VERBOSE;
			break;
		case 'r':
			st.opts |= FF_RECURSE;
			break;
		default:
			goto usage;
		}
	}
	if (argc > optind + 1) {
usage:
		out_error(s->out, NULL, 0, "Usage: filefrag [-dvr] file");
		return CMD_FAIL;
	}
	if (argc == optind) {
		ino = s->cwd;
		st.path = ".";
	} else {
		ino = dfs_string_to_inode(s, argv[optind]);
		st.path = argv[optind];
	}
	if (!ino || dfs_read_inode(s, ino, &inode, argv[0]))
		return CMD_FAIL;
	st.pw = ff_digits(ext2fs_blocks_count(s->fs->super)) + 1;
	if (st.pw < 8)
		st.pw = 8;
	json_arr_begin(s->out, "files");
	if (!LINUX_S_ISDIR(inode.i_mode) || (st.opts & FF_DIR))
		ff_file(&st, ino, &inode);
	else
		ff_walk(&st, ino, st.path);
	json_arr_end(s->out);
	out_printf(s->out, "\n");
	return CMD_OK;
}

const struct cmd_entry cmd_filefrag = {
	.name = "filefrag",
	.synopsis = "filefrag [-d] [-v] [-r] [file]",
	.summary = "Report the fragmentation of a file or directory",
	.options = "-d -v -r --json",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON,
	.complete = COMPLETE_PATH,
	.run = do_filefrag,
};

/* icheck.c - icheck (block -> owning inode) and ncheck (inode -> names),
 * as debugfs 1.47.0 prints them.  Each does ONE pass for all its arguments:
 * icheck one inode scan, ncheck one walk over every directory. */
#include "cmd.h"
#include "dfs_util.h"
#include "dfs_wr.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* ---- icheck ---- */

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

/* Calls begin (when not NULL) once the scan has started, then visit for
 * every inode until it returns nonzero; errors are reported under cmd's
 * name.  0 when the scan ran to its end (or visit stopped it), 1 when it
 * could not. */
static int scan_inodes(struct session *s, const char *cmd,
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

	if (argc < 2) {
		out_error(s->out, argv[0], 0,
			  "Usage: icheck <block number> ...");
		return CMD_FAIL;
	}
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
	if (scan_inodes(s, "icheck", NULL, icheck_visit, &w))
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
};

/* ---- ncheck ---- */

struct ncheck_walk {
	struct session *s;
	ext2_ino_t *ino;	/* the inodes asked, in order */
	int n;
	int names_left;		/* names still expected (links counted) */
	int position;		/* entries seen in the current directory */
	int check_type;		/* -c */
	ext2_ino_t dir;		/* directory being walked */
	char *parent;		/* its path, looked up on the first hit */
	int parent_failed;
	int errors;		/* anything reported on the way */
	int started;		/* the header is out */
};

static void ncheck_json(struct ncheck_walk *w, ext2_ino_t ino,
			const char *path, int bad_type)
{
	json_obj_begin(w->s->out, NULL);
	json_u64(w->s->out, "inode", ino);
	json_str(w->s->out, "path", dfs_json_path(path));
	json_u64(w->s->out, "dir", w->dir);
	if (w->check_type)
		json_bool(w->s->out, "bad_filetype", bad_type);
	json_obj_end(w->s->out);
}

static int ncheck_proc(struct ext2_dir_entry *d, int offset, int blocksize,
		       char *buf, void *priv)
{
	struct ncheck_walk *w = priv;
	struct session *s = w->s;
	int ftype = ext2fs_dirent_file_type(d), len = ext2fs_dirent_name_len(d);
	struct ext2_inode inode;
	struct strbuf path = {0};
	errcode_t err;
	int i, bad;

	(void)offset;
	(void)blocksize;
	(void)buf;
	if (++w->position <= 2)
		return 0;	/* "." and ".." */
	for (i = 0; i < w->n; i++) {
		if (w->ino[i] != d->inode)
			continue;
		if (!w->parent && !w->parent_failed) {
			err = ext2fs_get_pathname(s->fs, w->dir, 0,
						  &w->parent);
			if (err) {
				out_error(s->out, "ncheck", err,
					  "while calling ext2fs_get_pathname "
					  "for inode #%u", w->dir);
				w->parent_failed = 1;
				w->errors++;
			}
		}
		strbuf_reset(&path);
		if (w->parent)
			strbuf_printf(&path, "%s/%.*s", w->parent, len,
				      d->name);
		else
			strbuf_printf(&path, "<%u>/%.*s", w->dir, len,
				      d->name);
		out_printf(s->out, "%u\t%s", w->ino[i], path.buf);
		bad = 0;
		if (w->check_type && ftype) {
			if (dfs_read_inode(s, d->inode, &inode, "ncheck"))
				w->errors++;
			else if (ftype != dfs_wr_file_type(inode.i_mode)) {
				out_printf(s->out, "  <--- BAD FILETYPE");
				bad = 1;
			}
		}
		out_printf(s->out, "\n");
		if (sink_is_json(s->out))
			ncheck_json(w, w->ino[i], path.buf, bad);
		w->names_left--;
	}
	strbuf_free(&path);
	return w->names_left ? 0 : DIRENT_ABORT;
}

/* ncheck's header, once the scan has started. */
static void ncheck_begin(struct session *s, void *arg)
{
	struct ncheck_walk *w = arg;

	out_printf(s->out, "Inode\tPathname\n");
	json_arr_begin(s->out, "names");
	w->started = 1;
}

/* One inode of ncheck's scan: a directory's names of the inodes asked;
 * nonzero when every name has been found. */
static int ncheck_visit(struct session *s, ext2_ino_t ino,
			struct ext2_inode *inode, void *arg)
{
	struct ncheck_walk *w = arg;
	errcode_t err;

	if (!inode->i_links_count || inode->i_dtime ||
	    !LINUX_S_ISDIR(inode->i_mode))
		return 0;
	w->position = 0;
	w->dir = ino;
	w->parent_failed = 0;
	err = ext2fs_dir_iterate(s->fs, ino, 0, NULL, ncheck_proc, w);
	ext2fs_free_mem(&w->parent);
	if (err) {
		out_error(s->out, "ncheck", err,
			  "while calling ext2_dir_iterate");
		w->errors++;
		return 0;
	}
	return !w->names_left;
}

/* "N", "0xN" or "<N>" (debugfs also tolerates trailing '>'s after <N). */
static int ncheck_parse(const char *arg, ext2_ino_t *ino)
{
	const char *str = arg;
	size_t len = strlen(arg);
	char *end;

	if (len > 2 && str[0] == '<' && str[len - 1] == '>')
		str++;
	*ino = strtol(str, &end, 0);
	return *end && (str == arg || *end != '>');
}

static int do_ncheck(struct session *s, int argc, char **argv)
{
	struct ncheck_walk w = { .s = s };
	struct ext2_inode inode;
	int c, i, rc = CMD_FAIL;

	while ((c = getopt(argc, argv, "c")) != -1) {
		if (c != 'c')
			goto usage;
		w.check_type = 1;
	}
	if (argc <= 1) {
usage:
		out_error(s->out, argv[0], 0,
			  "Usage: ncheck [-c] <inode number> ...");
		return CMD_FAIL;
	}
	argc -= optind;
	argv += optind;
	w.ino = calloc(argc + 1, sizeof(*w.ino));
	if (!w.ino) {
		out_error(s->out, "ncheck", EXT2_ET_NO_MEMORY,
			  "while allocating inode info array");
		return CMD_FAIL;
	}
	for (i = 0; i < argc; i++) {
		if (ncheck_parse(argv[i], &w.ino[i])) {
			out_error(s->out, "ncheck", 0,
				  "Invalid inode number - '%s'", argv[i]);
			goto out;
		}
		if (dfs_read_inode(s, w.ino[i], &inode, argv[0]))
			goto out;
		w.names_left += LINUX_S_ISDIR(inode.i_mode) ? 1 :
				inode.i_links_count;
	}
	w.n = argc;
	if (scan_inodes(s, "ncheck", ncheck_begin, ncheck_visit, &w) == 0 && !w.errors)
		rc = CMD_OK;
	if (w.started)
		json_arr_end(s->out);
out:
	free(w.ino);
	return rc;
}

const struct cmd_entry cmd_ncheck = {
	.name = "ncheck",
	.synopsis = "ncheck [-c] <inode>...",
	.summary = "Do inode->name translation",
	.options = "-c --json",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON,
	.run = do_ncheck,
};

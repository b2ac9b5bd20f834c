/* ncheck.c - `ncheck [-c] INODE...`: the path names of the inodes given, as
 * debugfs's ncheck.c finds them (a scan of every directory). */
#include "cmd.h"
#include "dfs_scan.h"
#include "dfs_util.h"
#include "dfs_wr.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

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

extern const struct cmd_entry cmd_ncheck;

static int do_ncheck(struct session *s, int argc, char **argv)
{
	struct ncheck_walk w = { .s = s };
	struct ext2_inode inode;
	int c, i, rc = CMD_FAIL;

	while ((c = getopt(argc, argv, "c")) != -1) {
		if (c != 'c')
			return cmd_usage(s, &cmd_ncheck, argv[0]);
		w.check_type = 1;
	}
	if (dfs_check_open(s, argv[0]))
		return CMD_FAIL;
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
	if (dfs_scan_inodes(s, "ncheck", ncheck_begin, ncheck_visit, &w) == 0 &&
	    !w.errors)
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
	/* its options come before the count and the open check */
	.flags = CMD_DEBUGFS | CMD_JSON,
	.run = do_ncheck,
	.min_args = 2,
	.max_args = INT_MAX,
	.usage = "[-c] <inode number> ...",
	.usage_name = "ncheck",
};

/* ls.c - list_directory/ls: a directory's entries, byte for byte as
 * debugfs 1.47.0 prints them (short, -l long, -p parseable, -d deleted,
 * -c block checksums, -r raw names), plus a structured --json result. */
#include "cmd.h"
#include "dfs_util.h"

#include <getopt.h>
#include <string.h>
#include <time.h>

#define LS_LONG		0x01
#define LS_PARSE	0x02
#define LS_RAW		0x04
#define LS_ENCRYPT	0x08

struct ls_walk {
	struct session *s;
	int col;		/* column of the short listing */
	int options;		/* LS_* */
	int seen;		/* entries seen: "." and ".." print raw */
	int errors;		/* entries whose inode could not be read */
};

static const char *const ls_months[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

/* Appends the printable form of a name (\xNN for odd bytes); returns its
 * length.  With out NULL only measures. */
static int ls_name(struct strbuf *out, const struct ext2_dir_entry *d,
		   int options)
{
	int len = ext2fs_dirent_name_len(d), n = 0, i;
	char tmp[32];

	if ((options & LS_ENCRYPT) && !(options & LS_RAW)) {
		n = snprintf(tmp, sizeof(tmp), "<encrypted (%d)>", len);
		if (out)
			strbuf_add(out, tmp, n);
		return n;
	}
	for (i = 0; i < len; i++) {
		unsigned char ch = d->name[i];

		if (ch < 32 || ch >= 127 || ch == '\\') {
			if (out)
				strbuf_printf(out, "\\x%02x", ch);
			n += 4;
		} else {
			if (out)
				strbuf_add(out, (char *)&ch, 1);
			n++;
		}
	}
	return n;
}

static void ls_json_entry(struct ls_walk *w, int entry,
			  struct ext2_dir_entry *d, ext2_ino_t ino,
			  const struct ext2_inode *inode, int have_inode)
{
	struct sink *o = w->s->out;
	char name[EXT2_NAME_LEN + 1];
	int len = ext2fs_dirent_name_len(d);

	json_obj_begin(o, NULL);
	if (entry == DIRENT_CHECKSUM) {
		struct ext2_dir_entry_tail *t = (void *)d;

		json_str(o, "kind", "checksum");
		json_u64(o, "checksum", t->det_checksum);
		json_obj_end(o);
		return;
	}
	memcpy(name, d->name, len);
	name[len] = 0;
	json_str(o, "name", name);
	json_u64(o, "inode", d->inode);
	json_bool(o, "deleted", entry == DIRENT_DELETED_FILE);
	json_u64(o, "rec_len", d->rec_len);
	json_u64(o, "file_type", ext2fs_dirent_file_type(d));
	if (have_inode && ino) {
		json_str(o, "type", LINUX_S_ISDIR(inode->i_mode) ? "dir" :
			 LINUX_S_ISREG(inode->i_mode) ? "file" :
			 LINUX_S_ISLNK(inode->i_mode) ? "symlink" : "other");
		json_u64(o, "mode", inode->i_mode);
		json_u64(o, "uid", inode_uid(*inode));
		json_u64(o, "gid", inode_gid(*inode));
		json_u64(o, "size", EXT2_I_SIZE(inode));
		json_u64(o, "mtime", inode->i_mtime);
	}
	json_obj_end(o);
}

static void ls_long(struct ls_walk *w, struct strbuf *line, int entry,
		    struct ext2_dir_entry *d, ext2_ino_t ino,
		    const struct ext2_inode *inode, char lbr, char rbr,
		    int options)
{
	char date[80];

	if (ino) {
		time_t mt = inode->i_mtime;
		struct tm tm;

		localtime_r(&mt, &tm);
		snprintf(date, sizeof(date), "%2d-%s-%4d %02d:%02d",
			 tm.tm_mday, ls_months[tm.tm_mon], 1900 + tm.tm_year,
			 tm.tm_hour, tm.tm_min);
	} else {
		strcpy(date, "                 ");
	}
	strbuf_printf(line, "%c%6u%c %6o ", lbr, ino, rbr, inode->i_mode);
	if (entry == DIRENT_CHECKSUM) {
		strbuf_printf(line, "(dirblock checksum: 0x%08x)\n",
			      ((struct ext2_dir_entry_tail *)d)->det_checksum);
		return;
	}
	strbuf_printf(line, "(%d)  %5d  %5d   %5llu %s ",
		      ext2fs_dirent_file_type(d), inode_uid(*inode),
		      inode_gid(*inode),
		      (unsigned long long)EXT2_I_SIZE(inode), date);
	ls_name(line, d, options);
	strbuf_add(line, "\n", 1);
	(void)w;
}

static void ls_short(struct ls_walk *w, struct strbuf *line, int entry,
		     struct ext2_dir_entry *d, char lbr, char rbr,
		     int options)
{
	struct strbuf head = {0};
	int len;

	if (entry == DIRENT_CHECKSUM)
		strbuf_printf(&head, "%c%u%c (dirblock checksum: 0x%08x)   ",
			      lbr, d->inode, rbr,
			      ((struct ext2_dir_entry_tail *)d)->det_checksum);
	else
		strbuf_printf(&head, "%c%u%c (%d) ", lbr, d->inode, rbr,
			      d->rec_len);
	len = head.len;
	if (entry != DIRENT_CHECKSUM)
		len += 3 + ls_name(NULL, d, options);
	if (w->col + len > 80) {
		strbuf_add(line, "\n", 1);
		w->col = 0;
	}
	strbuf_add(line, head.buf, head.len);
	if (entry != DIRENT_CHECKSUM) {
		ls_name(line, d, options);
		strbuf_add(line, "   ", 3);
	}
	w->col += len;
	strbuf_free(&head);
}

static int ls_proc(ext2_ino_t dir, int entry, struct ext2_dir_entry *d,
		   int offset, int blocksize, char *buf, void *priv)
{
	struct ls_walk *w = priv;
	struct ext2_inode inode;
	struct strbuf line = {0};
	ext2_ino_t ino = d->inode;
	int options = w->options, have = 0;
	char lbr = ' ', rbr = ' ';

	(void)dir;
	(void)offset;
	(void)blocksize;
	(void)buf;
	if (w->seen < 2) {
		w->seen++;
		options |= LS_RAW;
	}
	if (entry == DIRENT_DELETED_FILE) {
		lbr = '<';
		rbr = '>';
		ino = 0;
	}
	memset(&inode, 0, sizeof(inode));
	if (ino && (options & (LS_LONG | LS_PARSE))) {
		if (dfs_read_inode(w->s, ino, &inode, "ls")) {
			w->errors++;
			return 0;
		}
		have = 1;
	} else if (ino && sink_is_json(w->s->out)) {
		/* Only for the JSON members: the text stays debugfs's. */
		have = !ext2fs_read_inode(w->s->fs, ino, &inode);
		if (!have)
			memset(&inode, 0, sizeof(inode));
	}
	if (options & LS_PARSE) {
		strbuf_printf(&line, "/%u/%06o/%d/%d/%.*s/", ino, inode.i_mode,
			      inode_uid(inode), inode_gid(inode),
			      ext2fs_dirent_name_len(d), d->name);
		if (LINUX_S_ISDIR(inode.i_mode))
			strbuf_add(&line, "/", 1);
		else
			strbuf_printf(&line, "%llu/", (unsigned long long)
				      EXT2_I_SIZE(&inode));
		strbuf_add(&line, "\n", 1);
	} else if (options & LS_LONG) {
		ls_long(w, &line, entry, d, ino, &inode, lbr, rbr, options);
	} else {
		ls_short(w, &line, entry, d, lbr, rbr, options);
	}
	if (line.len)
		out_write(w->s->out, line.buf, line.len);
	strbuf_free(&line);
	if (sink_is_json(w->s->out))
		ls_json_entry(w, entry, d, ino, &inode, have);
	return 0;
}

static int do_ls(struct session *s, int argc, char **argv)
{
	int flags = DIRENT_FLAG_INCLUDE_EMPTY;
	struct ls_walk w = { .s = s };
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t err;
	int c;

	while ((c = getopt(argc, argv, "cdlpr")) != -1) {
		switch (c) {
		case 'c':
			flags |= DIRENT_FLAG_INCLUDE_CSUM;
			break;
		case 'l':
			w.options |= LS_LONG;
			break;
		case 'd':
			flags |= DIRENT_FLAG_INCLUDE_REMOVED;
			break;
		case 'p':
			w.options |= LS_PARSE;
			break;
		case 'r':
			w.options |= LS_RAW;
			break;
		default:
			goto usage;
		}
	}
	if (argc > optind + 1) {
usage:
		out_error(s->out, NULL, 0,
			  "Usage: ls [-c] [-d] [-l] [-p] [-r] file");
		return CMD_FAIL;
	}
	if (argc == optind)
		ino = s->cwd;
	else
		ino = dfs_string_to_inode(s, argv[optind]);
	if (!ino)
		return CMD_FAIL;
	if (dfs_read_inode(s, ino, &inode, argv[0]))
		return CMD_FAIL;
	if (inode.i_flags & EXT4_ENCRYPT_FL)
		w.options |= LS_ENCRYPT;

	if (sink_is_json(s->out)) {
		json_u64(s->out, "directory", ino);
		json_arr_begin(s->out, "entries");
	}
	err = ext2fs_dir_iterate2(s->fs, ino, flags, NULL, ls_proc, &w);
	if (sink_is_json(s->out))
		json_arr_end(s->out);
	out_printf(s->out, "\n");
	if (err) {
		out_error(s->out, argv[1], err, NULL);
		return CMD_FAIL;
	}
	return w.errors ? CMD_FAIL : CMD_OK;
}

static const char *const ls_aliases[] = {"ls", NULL};
const struct cmd_entry cmd_list_directory = {
	.name = "list_directory",
	.aliases = ls_aliases,
	.synopsis = "ls [-c] [-d] [-l] [-p] [-r] [dir]",
	.summary = "List directory",
	.options = "-c -d -l -p -r --json",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON | CMD_FEW_GROUPS,
	.complete = COMPLETE_PATH,
	.run = do_ls,
};

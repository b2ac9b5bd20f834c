/* xattrs.c - debugfs's ea_list and ea_get: a file's extended
 * attributes through libext2fs's xattr handle, printed as debugfs prints
 * them (quoted C strings when printable enough, else hex bytes). */
#include "cmd.h"
#include "dfs_util.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#define XP_HEX		0x01	/* -x */
#define XP_RAW		0x02	/* -V */
#define XP_C		0x04	/* -C */
#define XP_LIST		0x08	/* ea_list: short values only */
#define XP_NOQUOTES	0x10

static void xp_c_string(struct sink *o, const char *str, size_t len)
{
	static const char esc[] = "\a\b\f\n\t\v\\'\"";
	static const char let[] = "abfntv\\'\"";
	const char *p;
	unsigned char ch;
	size_t i;

	for (i = 0; i < len; i++) {
		ch = str[i];
		p = ch ? strchr(esc, ch) : NULL;
		if (p)
			out_printf(o, "\\%c", let[p - esc]);
		else if (ch < 32 || ch > 126)
			out_printf(o, "\\%03o", ch);
		else
			out_write(o, (const char *)&ch, 1);
	}
}

static void xp_string(struct sink *o, const char *str, size_t len,
		      unsigned flags)
{
	size_t i, printable = 0;

	if (flags & XP_RAW) {
		out_write(o, str, len);
		return;
	}
	if (!(flags & XP_C)) {
		for (i = 0; i < len; i++)
			if (isprint(str[i]))
				printable++;
		if (printable <= len * 7 / 8)
			flags |= XP_HEX;
	}
	if (flags & XP_HEX) {
		for (i = 0; i < len; i++)
			out_printf(o, "%02x ", (unsigned char)str[i]);
		return;
	}
	if (!(flags & XP_NOQUOTES))
		out_write(o, "\"", 1);
	xp_c_string(o, str, len);
	if (!(flags & XP_NOQUOTES))
		out_write(o, "\"", 1);
}

static void xp_attr(struct sink *o, const char *name, const char *value,
		    size_t len, unsigned flags)
{
	xp_string(o, name, strlen(name), XP_NOQUOTES);
	out_printf(o, " (%zu)", len);
	if ((flags & XP_LIST) && !strcmp(name, "system.data"))
		len = 0;
	if (len && (!(flags & XP_LIST) || len < 40)) {
		out_printf(o, " = ");
		xp_string(o, value, len, flags);
	}
	out_printf(o, "\n");
}

/* A JSON value: a string when it is valid printable text, else hex. */
static void xp_json_value(struct sink *o, const char *v, size_t len)
{
	struct strbuf hex = {0};
	size_t i;
	int text = 1;

	for (i = 0; i < len; i++)
		if (!isprint((unsigned char)v[i]))
			text = 0;
	if (text) {
		struct strbuf sb = {0};

		strbuf_add(&sb, v, len);
		strbuf_add(&sb, "", 1);
		json_str(o, "value", sb.buf);
		strbuf_free(&sb);
	} else {
		json_null(o, "value");
	}
	for (i = 0; i < len; i++)
		strbuf_printf(&hex, "%02x", (unsigned char)v[i]);
	json_str(o, "hex", hex.buf ? hex.buf : "");
	strbuf_free(&hex);
}

static int xp_list_one(char *name, char *value, size_t len, void *data)
{
	struct session *s = data;

	if (sink_is_json(s->out)) {
		json_obj_begin(s->out, NULL);
		json_str(s->out, "name", name);
		json_u64(s->out, "size", len);
		xp_json_value(s->out, value, len);
		json_obj_end(s->out);
	}
	out_printf(s->out, "  ");
	xp_attr(s->out, name, value, len, XP_LIST);
	return 0;
}

static int do_ea_list(struct session *s, int argc, char **argv)
{
	struct ext2_xattr_handle *h;
	ext2_ino_t ino;
	size_t n;
	int ret = CMD_FAIL;

	(void)argc;	/* counted by the dispatcher */
	ino = dfs_string_to_inode(s, argv[1]);
	if (!ino)
		return CMD_FAIL;
	/* debugfs keeps quiet when the attributes cannot be read */
	if (ext2fs_xattrs_open(s->fs, ino, &h))
		return CMD_FAIL;
	if (ext2fs_xattrs_read(h) || ext2fs_xattrs_count(h, &n))
		goto out;
	json_u64(s->out, "inode", ino);
	json_arr_begin(s->out, "xattrs");
	if (n) {
		out_printf(s->out, "Extended attributes:\n");
		ext2fs_xattrs_iterate(h, xp_list_one, s);
	}
	json_arr_end(s->out);
	ret = CMD_OK;
out:
	ext2fs_xattrs_close(&h);
	return ret;
}

const struct cmd_entry cmd_ea_list = {
	.name = "ea_list",
	.synopsis = "ea_list file",
	.summary = "List the extended attributes of a file",
	.options = "--json",
	.flags = CMD_DEBUGFS | CMD_JSON | CMD_USAGE_STDOUT | CMD_NEEDS_FS,
	.complete = COMPLETE_PATH,
	.run = do_ea_list,
	.min_args = 2,
	.max_args = 2,
	.usage = "<file>",
};

static int do_ea_get(struct session *s, int argc, char **argv)
{
	struct ext2_xattr_handle *h;
	unsigned pflags = 0, hflags = 0;
	FILE *fp = NULL;
	char *buf = NULL;
	size_t len;
	ext2_ino_t ino;
	errcode_t err;
	int c, ret = CMD_FAIL;

	while ((c = dfs_getopt(s, argc, argv, "Cf:rxV")) != -1) {
		switch (c) {
		case 'f':
			if (fp)
				fclose(fp);
			fp = fopen(optarg, "w");
			if (!fp) {
				out_errtext(s->out, "%s: %s\n", optarg,
					    strerror(errno));
				return CMD_FAIL;
			}
			break;
		case 'r':
			hflags |= XATTR_HANDLE_FLAG_RAW;
			break;
		case 'x':
			pflags |= XP_HEX;
			break;
		case 'V':
			pflags |= XP_RAW | XP_NOQUOTES;
			break;
		case 'C':
			pflags |= XP_C;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 2) {
usage:
		out_printf(s->out, "%s: Usage: %s [-f outfile]|[-xVC] [-r] "
			   "<file> <attr>\n", argv[0], argv[0]);
		goto out2;
	}
	if (dfs_check_open(s, argv[0]))
		goto out2;
	ino = dfs_string_to_inode(s, argv[optind]);
	if (!ino)
		goto out2;
	if (ext2fs_xattrs_open(s->fs, ino, &h))
		goto out2;
	err = ext2fs_xattrs_flags(h, &hflags, NULL);
	if (!err)
		err = ext2fs_xattrs_read(h);
	if (!err)
		err = ext2fs_xattr_get(h, argv[optind + 1], (void **)&buf,
				       &len);
	if (err)
		goto out;
	if (sink_is_json(s->out)) {
		json_str(s->out, "name", argv[optind + 1]);
		json_u64(s->out, "size", len);
		xp_json_value(s->out, buf, len);
	}
	if (fp) {
		if (len && fwrite(buf, len, 1, fp) != 1)
			out_errtext(s->out, "%s: %s\n", argv[0],
				    strerror(errno));
	} else {
		if (pflags & XP_RAW) {
			if (pflags & (XP_HEX | XP_C))
				pflags &= ~XP_RAW;
			xp_string(s->out, buf, len, pflags);
		} else {
			xp_attr(s->out, argv[optind + 1], buf, len, pflags);
		}
		out_printf(s->out, "\n");
	}
	ext2fs_free_mem(&buf);
	ret = CMD_OK;
out:
	ext2fs_xattrs_close(&h);
	if (err)
		out_error(s->out, argv[0], err,
			  "while getting extended attribute");
out2:
	if (fp)
		fclose(fp);
	return ret;
}

const struct cmd_entry cmd_ea_get = {
	.name = "ea_get",
	.synopsis = "ea_get [-f outfile]|[-xVC] [-r] file attr_name",
	.summary = "Print the value of an extended attribute",
	.options = "-f -x -V -C -r",
	.flags = CMD_DEBUGFS | CMD_JSON,
	.complete = COMPLETE_PATH,
	.run = do_ea_get,
};

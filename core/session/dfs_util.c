/* dfs_util.c - debugfs-compatible argument helpers (see dfs_util.h). */
#include "dfs_util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int dfs_check_open(struct session *s, const char *who)
{
	if (s->fs)
		return 0;
	out_error(s->out, who, 0, "Filesystem not open");
	return 1;
}

int dfs_check_rw(struct session *s, const char *who)
{
	if (s->fs->flags & EXT2_FLAG_RW)
		return 0;
	out_error(s->out, who, 0, "Filesystem opened read/only");
	return 1;
}

int dfs_not_loaded(struct session *s, const char *who)
{
	out_error(s->out, who, 0, "Filesystem bitmaps not loaded");
	return 1;
}

int dfs_check_bitmaps(struct session *s, const char *who)
{
	if (session_need(s, NEED_BITMAPS) == 0)
		return 0;
	return dfs_not_loaded(s, who);
}

int dfs_check_loaded(struct session *s, const char *who, unsigned need)
{
	errcode_t err;

	if (s->flags & SESSION_CATASTROPHIC)
		return dfs_not_loaded(s, who);
	err = session_need(s, need);
	if (err) {
		out_error(s->out, who, err, "while reading allocation bitmaps");
		return 1;
	}
	return 0;
}

int dfs_check_notopen(struct session *s, const char *who)
{
	if (!s->fs)
		return 0;
	out_error(s->out, who, 0, "Filesystem %s is still open.  Close it "
		  "first.\n", s->fs->device_name);
	return 1;
}

void dfs_usage(struct session *s, const char *who, const char *name,
	       const char *usage)
{
	out_error(s->out, who, 0, "Usage: %s %s", name, usage);
}

int dfs_args(struct session *s, int argc, char **argv, int min, int max,
	     const char *cmd, const char *usage, int flags)
{
	if (argc < min || argc > max) {
		dfs_usage(s, argv[0], cmd, usage);
		return 1;
	}
	if (flags & DFS_CHECK_NOTOPEN)
		return dfs_check_notopen(s, argv[0]);
	if (dfs_check_open(s, argv[0]))
		return 1;
	if ((flags & DFS_CHECK_RW) && dfs_check_rw(s, argv[0]))
		return 1;
	if ((flags & DFS_CHECK_BITMAPS) && dfs_check_bitmaps(s, argv[0]))
		return 1;
	return 0;
}

ext2_ino_t dfs_string_to_inode(struct session *s, const char *str)
{
	size_t len = strlen(str);
	ext2_ino_t ino;
	errcode_t err;

	/* "<N>" names inode N, when N is a plausible inode number. */
	if (len > 2 && str[0] == '<' && str[len - 1] == '>') {
		char *end;
		unsigned long n = strtoul(str + 1, &end, 0);

		if (*end == '>' && n <= s->fs->super->s_inodes_count)
			return n;
	}
	err = ext2fs_namei(s->fs, s->root, s->cwd, str, &ino);
	if (err) {
		out_error(s->out, str, err, NULL);
		return 0;
	}
	if (ino > s->fs->super->s_inodes_count) {
		out_error(s->out, str, 0,
			  "resolves to an illegal inode number: %u\n", ino);
		return 0;
	}
	return ino;
}

int dfs_arg_inode(struct session *s, const char *arg, ext2_ino_t *ino)
{
	*ino = dfs_string_to_inode(s, arg);
	return *ino ? 0 : 1;
}

unsigned long dfs_parse_ulong(struct session *s, const char *str,
			      const char *cmd, const char *descr, int *err)
{
	char *end;
	unsigned long v = strtoul(str, &end, 0);

	if (*end == 0) {
		*err = 0;
		return v;
	}
	out_error(s->out, cmd, 0, "Bad %s - %s", descr, str);
	*err = 1;
	return 0;
}

unsigned long long dfs_parse_ulonglong(struct session *s, const char *str,
				       const char *cmd, const char *descr,
				       int *err)
{
	char *end;
	unsigned long long v = strtoull(str, &end, 0);

	if (*end == 0) {
		*err = 0;
		return v;
	}
	out_error(s->out, cmd, 0, "Bad %s - %s", descr, str);
	*err = 1;
	return 0;
}

int dfs_strtoblk2(struct session *s, const char *cmd, const char *str,
		  const char *descr, blk64_t *ret)
{
	int err;

	*ret = dfs_parse_ulonglong(s, str, cmd, descr ? descr : "block number",
				   &err);
	return err;
}

int dfs_strtoblk(struct session *s, const char *cmd, const char *str,
		 blk64_t *ret)
{
	return dfs_strtoblk2(s, cmd, str, NULL, ret);
}

int dfs_getopt(struct session *s, int argc, char **argv, const char *opts)
{
	const char *p;
	int c;

	opterr = 0;
	c = getopt(argc, argv, opts);
	if (c != '?')
		return c;
	/* glibc's own words, through the sink rather than straight to fd 2 */
	p = optopt ? strchr(opts, optopt) : NULL;
	if (p && p[1] == ':')
		out_errtext(s->out, "%s: option requires an argument -- '%c'\n",
			    argv[0], optopt);
	else
		out_errtext(s->out, "%s: invalid option -- '%c'\n", argv[0],
			    optopt);
	return c;
}

int dfs_block_args(struct session *s, int argc, char **argv, blk64_t *block,
		   blk64_t *count)
{
	int err;

	if (dfs_strtoblk(s, argv[0], argv[1], block))
		return 1;
	if (*block == 0) {
		out_error(s->out, argv[0], 0, "Invalid block number 0");
		return 1;
	}
	if (argc > 2) {
		err = 0;
		*count = dfs_parse_count(s, argv[2], argv[0], "count", &err);
		if (err)
			return 1;
	}
	return 0;
}

unsigned long dfs_parse_count(struct session *s, const char *str,
			      const char *cmd, const char *descr, int *err)
{
	const char *p = str;

	/* strtoul reads "-6" as 2^64 - 6 (debugfs loops on it for ever) */
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '-') {
		out_error(s->out, cmd, 0, "Bad %s - %s", descr, str);
		*err = 1;
		return 0;
	}
	return dfs_parse_ulong(s, str, cmd, descr, err);
}

unsigned long long dfs_clamp_count(struct session *s, const char *cmd,
				   unsigned long long first,
				   unsigned long long count,
				   unsigned long long last, const char *what)
{
	unsigned long long in_fs = first <= last ? last - first + 1 : 0;
	unsigned long long slack = last + 1 > 65536 ? last + 1 : 65536;

	/* as debugfs while what lies past the end stays a screenful of
	 * complaints no longer than the filesystem itself */
	if (count <= in_fs || count - in_fs <= slack)
		return count;
	count = in_fs ? in_fs : 1;
	out_error(s->out, cmd, 0, "the count runs past the last %s (%llu); "
		  "stopping there", what, last);
	return count;
}

int dfs_read_inode_full(struct session *s, ext2_ino_t ino,
			struct ext2_inode *inode, const char *cmd, int size)
{
	errcode_t err = ext2fs_read_inode_full(s->fs, ino, inode, size);

	if (err) {
		out_error(s->out, cmd, err, "while reading inode %u", ino);
		return 1;
	}
	return 0;
}

int dfs_read_inode(struct session *s, ext2_ino_t ino,
		   struct ext2_inode *inode, const char *cmd)
{
	return dfs_read_inode_full(s, ino, inode, cmd, sizeof(*inode));
}

const char *dfs_inode_time_to_string(__u32 xtime, __u32 extra)
{
	__s64 t = (__s32)xtime;

	t += (__s64)(extra & EXT4_EPOCH_MASK) << 32;
	return dfs_time_to_string(t);
}

const char *dfs_time_to_string(__s64 t)
{
	const char *tz = getenv("TZ");
	time_t tt = (time_t)t;
	struct tm tm;
	static char buf[64];
	int gmt = tz && (!strcmp(tz, "GMT") || !strcmp(tz, "GMT0"));

	if (!(gmt ? gmtime_r(&tt, &tm) : localtime_r(&tt, &tm)))
		return "(invalid time)\n";
	return asctime_r(&tm, buf);
}

const char *dfs_json_path(const char *path)
{
	return path && path[0] == '/' && path[1] == '/' ? path + 1 : path;
}

/* debugfs's time syntax: @SECONDS, YYYYMMDD[HHMM[SS]] in GMT, "now", or
 * a plain number.  Returns -1 when it is none of these. */
long long dfs_parse_time(const char *arg)
{
	struct tm tm;
	const char *end;
	char *tail;
	long long v;

	if (!strcmp(arg, "now"))
		return time(NULL);
	if (arg[0] != '@') {
		memset(&tm, 0, sizeof(tm));
		/* as much as parses counts: 20200101 is a day */
		end = strptime(arg, "%Y%m%d%H%M%S", &tm);
		(void)end;
		if (tm.tm_mday)
			return timegm(&tm);
	} else {
		arg++;
	}
	v = strtoll(arg, &tail, 0);
	return *tail ? -1 : v;
}

int dfs_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

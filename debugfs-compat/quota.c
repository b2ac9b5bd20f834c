/* quota.c - debugfs's list_quota (lq) and get_quota (gq): the quota
 * files (v2 format: a four-level radix tree of 1 KiB blocks over 72-byte
 * records) read through libext2fs file I/O as debugfs's libsupport does
 * (no check beyond its own), records decoded by quota_tree.h. */
#include "cmd.h"
#include "dfs_util.h"
#include "quota_tree.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* each type's file magic (the kernel's v2 quota format) */
static const __u32 q_magics[] = {0xd9c01f11, 0xd9c01927, 0xd9c03f14};

struct qfile {
	struct session *s;
	ext2_file_t f;
	unsigned char *seen;	/* data blocks already listed */
	unsigned nblocks;
};

static int q_read(struct qfile *q, unsigned blk, unsigned char *buf)
{
	unsigned got = 0;

	memset(buf, 0, QT_BLK);
	if (ext2fs_file_llseek(q->f, (__u64)blk * QT_BLK, EXT2_SEEK_SET,
			       NULL) ||
	    ext2fs_file_read(q->f, buf, QT_BLK, &got))
		return -1;
	return 0;
}

static void q_row(struct session *s, const struct qt_rec *r)
{
	out_printf(s->out, "%10u   %8lld %8lld %8lld    %8lld %8lld %8lld\n",
		   r->id, (long long)r->curspace, (long long)r->bsoft,
		   (long long)r->bhard, (long long)r->curinodes,
		   (long long)r->isoft, (long long)r->ihard);
}

/* Lists a tree block's records, depth first, each data block once. */
static void q_walk(struct qfile *q, unsigned blk, int depth)
{
	unsigned char *buf = malloc(QT_BLK);
	struct qt_rec r;
	unsigned i, ref;

	if (!buf || q_read(q, blk, buf))
		goto out;
	if (depth == 4) {
		if (blk < q->nblocks) {
			if (q->seen[blk])
				goto out;
			q->seen[blk] = 1;
		}
		for (i = 0; i < QT_PER_BLK; i++) {
			const unsigned char *p = buf + QT_DHDR + i * QT_REC;

			if (!qt_rec_used(p))
				continue;
			qt_rec_decode(p, &r);
			q_row(q->s, &r);
		}
		goto out;
	}
	for (i = 0; i < QT_BLK / 4; i++) {
		ref = qt_le(buf + i * 4, 4);
		if (ref && ref < q->nblocks)
			q_walk(q, ref, depth + 1);
	}
out:
	free(buf);
}

/* Finds id's record (zeros when there is none). */
static void q_find(struct qfile *q, __u32 id, struct qt_rec *r)
{
	unsigned char buf[QT_BLK];
	unsigned blk = 1, i;
	int depth;

	memset(r, 0, sizeof(*r));
	r->id = id;
	for (depth = 0; depth < 4; depth++) {
		if (q_read(q, blk, buf))
			return;
		blk = qt_le(buf + ((id >> ((3 - depth) * 8)) & 0xff) * 4, 4);
		if (!blk || blk >= q->nblocks)
			return;
	}
	if (q_read(q, blk, buf))
		return;
	for (i = 0; i < QT_PER_BLK; i++) {
		const unsigned char *p = buf + QT_DHDR + i * QT_REC;

		if (qt_rec_used(p) && qt_le(p, 4) == id) {
			qt_rec_decode(p, r);
			return;
		}
	}
}

static int q_check_fs(struct session *s, const char *who)
{
	if (dfs_check_open(s, who))
		return 1;
	if (!ext2fs_has_feature_quota(s->fs->super)) {
		out_error(s->out, who, 0, "quota feature not enabled");
		return 1;
	}
	return 0;
}

/* debugfs's quota type: a name (any case) or 0..2.  -1 after a message. */
static int q_type(struct session *s, const char *arg)
{
	char *end;
	long t;
	int i;

	for (i = 0; i < 3; i++)
		if (!strcasecmp(arg, qt_type_name(i)))
			return i;
	t = strtol(arg, &end, 0);
	if (!*end && t >= 0 && t < 3)
		return t;
	out_errtext(s->out, "Invalid quota type: %s\n", arg);
	out_printf(s->out, "Valid quota types are: user group project \n");
	return -1;
}

/*
 * libsupport's check of a quota file's header before it is used: the
 * 8-byte header must read whole (an e2image file holds no data blocks:
 * the read fails) and carry a v2 version (0 or 1) in little-endian order.
 * Nonzero when the check fails, after the line libsupport logs for a
 * failed read.
 */
static int q_check_header(struct session *s, struct qfile *q, int type)
{
	unsigned char h[8];
	unsigned got = 0;
	errcode_t err;

	err = ext2fs_file_llseek(q->f, 0, EXT2_SEEK_SET, NULL);
	if (!err) {
		err = ext2fs_file_read(q->f, h, sizeof(h), &got);
		if (err)
			out_errtext(s->out, "[ERROR] ../../../../lib/support/"
				    "quotaio.c:178:quota_read_nomount: "
				    "ext2fs_file_read failed: %ld\n",
				    (long)err);
	}
	if (err || got != sizeof(h))
		return -1;
	/* the type's magic read big-endian: stored in the wrong order */
	if (((__u32)h[0] << 24 | (__u32)h[1] << 16 | h[2] << 8 | h[3]) ==
	    q_magics[type]) {
		out_errtext(s->out, "[ERROR] ../../../../lib/support/"
			    "quotaio_v2.c:226:v2_check_file: Your quota file "
			    "is stored in wrong endianness\n");
		return -1;
	}
	return qt_le(h + 4, 4) > 1 ? -1 : 0;
}

static int q_open(struct session *s, const char *who, int type,
		  struct qfile *q)
{
	errcode_t err;

	memset(q, 0, sizeof(*q));
	q->s = s;
	err = ext2fs_file_open(s->fs, qt_inum(s->fs->super, type), 0, &q->f);
	if (err) {
		/* libsupport's quota code logs this line first */
		out_errtext(s->out, "[ERROR] ../../../../lib/support/quotaio.c"
			    ":213:quota_file_open: ext2fs_file_open failed: "
			    "%s\n", error_message(err));
		out_error(s->out, who, err,
			  "while opening quota inode (type %d)", type);
		return -1;
	}
	q->nblocks = ext2fs_file_get_size(q->f) / QT_BLK;
	if (q_check_header(s, q, type)) {
		out_errtext(s->out, "[ERROR] ../../../../lib/support/quotaio.c"
			    ":250:quota_file_open: qh_ops->check_file "
			    "failed\n");
		out_error(s->out, who, EIO,
			  "while opening quota inode (type %d)", type);
		ext2fs_file_close(q->f);
		return -1;
	}
	return 0;
}

static void q_header(struct session *s, int type)
{
	out_printf(s->out, "%7s %2s   %8s %8s %8s    %8s %8s %8s\n",
		   qt_type_name(type), "id", "space", "quota", "limit",
		   "inodes", "quota", "limit");
}

static int do_list_quota(struct session *s, int argc, char **argv)
{
	struct qfile q;
	int type;

	if (q_check_fs(s, argv[0]))
		return CMD_FAIL;
	if (argc != 2) {
		out_error(s->out, NULL, 0, "Usage: list_quota <quota_type>\n");
		return CMD_FAIL;
	}
	type = q_type(s, argv[1]);
	if (type < 0 || q_open(s, argv[0], type, &q))
		return CMD_FAIL;
	q_header(s, type);
	q.seen = calloc(q.nblocks ? q.nblocks : 1, 1);
	if (q.seen && q.nblocks > 1)
		q_walk(&q, 1, 0);
	free(q.seen);
	ext2fs_file_close(q.f);
	return CMD_OK;
}

static const char *const lq_aliases[] = {"lq", NULL};
const struct cmd_entry cmd_list_quota = {
	.name = "list_quota",
	.aliases = lq_aliases,
	.synopsis = "list_quota quota_type",
	.summary = "List the quota records of a type (user, group, project)",
	.flags = CMD_DEBUGFS,
	.run = do_list_quota,
};

static int do_get_quota(struct session *s, int argc, char **argv)
{
	struct qfile q;
	struct qt_rec r;
	unsigned long id;
	int type, err;

	if (q_check_fs(s, argv[0]))
		return CMD_FAIL;
	if (argc != 3) {
		out_error(s->out, NULL, 0,
			  "Usage: get_quota <quota_type> <id>\n");
		return CMD_FAIL;
	}
	type = q_type(s, argv[1]);
	if (type < 0 || q_open(s, argv[0], type, &q))
		return CMD_FAIL;
	id = dfs_parse_ulong(s, argv[2], argv[0], "id", &err);
	if (!err) {
		q_header(s, type);
		q_find(&q, (__u32)id, &r);
		q_row(s, &r);
	}
	ext2fs_file_close(q.f);
	return err ? CMD_FAIL : CMD_OK;
}

static const char *const gq_aliases[] = {"gq", NULL};
const struct cmd_entry cmd_get_quota = {
	.name = "get_quota",
	.aliases = gq_aliases,
	.synopsis = "get_quota quota_type id",
	.summary = "Show one quota record",
	.flags = CMD_DEBUGFS,
	.run = do_get_quota,
};

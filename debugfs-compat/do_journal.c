/* do_journal.c - debugfs's journal requests: journal_open (jo),
 * journal_write (jw), journal_close (jc) and journal_run (jr), on the jbd2
 * transaction writer (jtrans.c), with debugfs 1.47.0's messages and layout. */
#include "cmd.h"
#include "dfs_util.h"
#include "jtrans.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#define DATA_END	((errcode_t)-1)	/* short data file: stop quietly */

/* The open journal (s->journal, closed with the filesystem), or NULL. */
static struct jt_session *jopen(struct session *s)
{
	return s->journal;
}

static __u32 be32(const unsigned char *p)
{
	return (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
}

static int fs_recover(ext2_filsys fs)
{
	return ext2fs_has_feature_journal_needs_recovery(fs->super);
}

/* debugfs's walk from s_start to the block after the last commit. */
static void find_head(struct jt_session *js)
{
	struct jt_journal *j = &js->j;
	unsigned tb = journal_tag_bytes(j->incompat), off, flags;
	unsigned csz = jt_csum_v23(j) ? 4 : 0;
	__u32 seq = j->sequence, blk = j->start, head = blk;
	unsigned char *b = malloc(j->bs);
	blk64_t pblk;

	if (!blk || !b)
		goto out;
	for (;;) {
		if (jt_bmap(j, blk, &pblk) ||
		    io_channel_read_blk64(j->io, pblk, 1, b))
			break;
		if (++blk >= j->maxlen)
			blk -= j->maxlen - j->first;
		if (be32(b) != E2L_JBD2_MAGIC || be32(b + 8) != seq)
			break;
		if (be32(b + 4) == E2L_JBD2_DESCRIPTOR) {
			for (off = 12; off + tb <= j->bs - csz;) {
				flags = b[off + 6] << 8 | b[off + 7];
				blk++;
				off += tb;
				if (!(flags & E2L_JBD2_FLAG_SAME_UUID))
					off += 16;
				if (flags & E2L_JBD2_FLAG_LAST_TAG)
					break;
			}
			if (blk >= j->maxlen)
				blk -= j->maxlen - j->first;
		} else if (be32(b + 4) == E2L_JBD2_COMMIT) {
			head = blk;
			seq++;
		} else if (be32(b + 4) != E2L_JBD2_REVOKE) {
			break;
		}
	}
	js->next_seq = seq;
	js->head = head;
out:
	free(b);
}

static void set_csum(struct session *s, int ver)
{
	struct jt_session *js = s->journal;
	struct jt_journal *j = &js->j;

	if (j->version < 2)
		return;
	if (js->tail || fs_recover(s->fs)) {
		out_printf(s->out, "Journal needs recovery, will not add "
			   "csums.\n");
		return;
	}
	if (ext2fs_has_feature_metadata_csum(s->fs->super)) {
		out_printf(s->out, "Setting csum v%d\n", ver);
		if (ver == 2) {
			j->incompat &= ~E2L_JFEAT_INCOMPAT_CSUM_V3;
			j->incompat |= E2L_JFEAT_INCOMPAT_CSUM_V2;
			j->compat &= ~E2L_JFEAT_COMPAT_CHECKSUM;
		} else if (ver == 3) {
			j->incompat &= ~E2L_JFEAT_INCOMPAT_CSUM_V2;
			j->incompat |= E2L_JFEAT_INCOMPAT_CSUM_V3;
			j->compat &= ~E2L_JFEAT_COMPAT_CHECKSUM;
		}
		j->sb[0x50] = E2L_JBD2_CRC32C_CHKSUM;
		jt_reseed(j);
	} else {
		j->compat |= E2L_JFEAT_COMPAT_CHECKSUM;
		j->incompat &= ~(E2L_JFEAT_INCOMPAT_CSUM_V2 |
				 E2L_JFEAT_INCOMPAT_CSUM_V3);
	}
}

/* debugfs's update_uuid and update_64bit_flag. */
static void set_uuid_64bit(struct session *s)
{
	struct jt_session *js = s->journal;
	struct jt_journal *j = &js->j;
	ext2_filsys fs = s->fs;
	int i;

	if (j->version < 2 || !ext2fs_has_feature_64bit(fs->super))
		return;
	for (i = 0; i < 16 && !j->sb[0x30 + i]; i++)
		;
	if (i && !(j->incompat & E2L_JFEAT_INCOMPAT_64BIT)) {
		if (js->tail || fs_recover(fs))
			out_printf(s->out, "Journal needs recovery, will not "
				   "set 64bit.\n");
		else
			memcpy(j->sb + 0x30, fs->super->s_uuid, 16);
	}
	if (j->incompat & E2L_JFEAT_INCOMPAT_64BIT)
		return;
	if (js->tail || fs_recover(fs)) {
		out_printf(s->out, "Journal needs recovery, will not set "
			   "64bit.\n");
		return;
	}
	j->incompat |= E2L_JFEAT_INCOMPAT_64BIT;
}

static int check_bitmaps(struct session *s, const char *who)
{
	if (s->fs && s->no_bitmaps)
		return dfs_not_loaded(s, who);
	return dfs_check_bitmaps(s, who);
}

static int do_jo(struct session *s, int argc, char **argv)
{
	int c, csum = 0, ver = 3;
	const char *ext = NULL;
	struct jt_session *js;
	errcode_t err;

	if (check_bitmaps(s, argv[0]))
		return CMD_FAIL;
	if (jopen(s)) {
		out_printf(s->out, "Journal is already open.\n");
		return CMD_FAIL;
	}
	if (!ext2fs_has_feature_journal(s->fs->super)) {
		out_printf(s->out, "Journalling is not enabled on this "
			   "filesystem.\n");
		return CMD_FAIL;
	}
	cmd_reset_getopt();
	while ((c = dfs_getopt(s, argc, argv, "cv:f:")) != -1) {
		switch (c) {
		case 'c':
			csum = 1;
			break;
		case 'f':	/* the external journal's device or file */
			ext = optarg;
			break;
		case 'v':
			ver = atoi(optarg);
			if (ver != 2 && ver != 3) {
				out_printf(s->out, "Unknown journal csum v%d\n",
					   ver);
				ver = 3;
			}
			break;
		default:	/* debugfs goes on after its usage */
			out_printf(s->out, "%s: [-c] [-v ver] [-f ext_jnl]\n"
				   "-c: Enable journal checksumming.\n"
				   "-v: Use this version checksum format.\n"
				   "-f: Load this external journal.\n",
				   argv[0]);
		}
	}
	js = calloc(1, sizeof(*js));
	err = js ? jt_open_fs(s->fs, ext, &js->j) : EXT2_ET_NO_MEMORY;
	if (err) {
		free(js);
		out_error(s->out, argv[0], err, "while opening journal");
		return CMD_FAIL;
	}
	s->journal = js;
	js->tail = js->j.start;
	js->tail_seq = js->next_seq = js->j.sequence;
	js->head = 0;
	set_uuid_64bit(s);
	if (csum)
		set_csum(s, ver);
	find_head(js);
	return CMD_OK;
}

/* debugfs's read_list: "a,b-c,..." appended to *list as parsed. */
static errcode_t read_list(const char *str, blk64_t **list, size_t *n)
{
	char *copy = strdup(str), *tok, *save = NULL, *e;
	unsigned long long x, y;
	blk64_t *nv;
	errcode_t err = 0;

	if (!copy)
		return ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		errno = 0;
		y = x = strtoull(tok, &e, 0);
		if (errno) {
			err = errno;
			break;
		}
		if (*e == '-') {
			y = strtoull(e + 1, NULL, 0);
			if (errno) {
				err = errno;
				break;
			}
		} else if (*e) {
			err = EINVAL;
			break;
		}
		if (y < x) {
			err = EINVAL;
			break;
		}
		nv = realloc(*list, (*n + (y - x + 1)) * sizeof(*nv));
		if (!nv) {
			err = ENOMEM;
			break;
		}
		*list = nv;
		for (; x <= y; x++)
			(*list)[(*n)++] = x;
	}
	free(copy);
	return err;
}

/* journal_write's data file, read one journal block at a time. */
struct jw_data {
	FILE *fp;
	unsigned bs;
};

static errcode_t from_file(void *ctx, size_t i, unsigned char *buf)
{
	struct jw_data *d = ctx;

	(void)i;
	if (fread(buf, d->bs, 1, d->fp) != 1)
		return DATA_END;
	return 0;
}

static errcode_t jwrite(struct session *s, const blk64_t *bl, size_t bn,
			const blk64_t *rl, size_t rn, FILE *fp, int commit)
{
	struct jt_session *js = s->journal;
	struct jt_journal *j = &js->j;
	struct jw_data data = {fp, js->j.bs};
	struct jt_tx t;
	struct timeval tv;
	__u32 blocks, tid, start;
	errcode_t err;

	if (rn)
		j->incompat |= E2L_JFEAT_INCOMPAT_REVOKE;
	blocks = jt_tx_guess(j, bn, rn);
	tid = js->tail ? js->next_seq : js->tail_seq;
	start = js->tail ? js->head : j->first;
	if (start + blocks > j->maxlen)
		return ENOSPC;
	jt_tx_begin(&t, j, tid, start, JT_QUIRK_DEBUGFS);
	err = jt_tx_blocks(&t, bl, bn, from_file, &data);
	if (err == DATA_END)
		err = 0;
	if (!err)
		err = jt_tx_revokes(&t, rl, rn);
	if (err || !commit)
		return err;
	gettimeofday(&tv, NULL);
	err = jt_tx_commit(&t, &tv);
	if (err)
		return err;
	ext2fs_set_feature_journal_needs_recovery(s->fs->super);
	ext2fs_mark_super_dirty(s->fs);
	if (!js->tail) {
		js->tail_seq = tid;
		js->tail = start;
	}
	js->head = start + blocks + 1;
	js->next_seq = tid + 1;
	return 0;
}

static int do_jw(struct session *s, int argc, char **argv)
{
	blk64_t *bl = NULL, *rl = NULL;
	size_t bn = 0, rn = 0;
	int c, commit = 1, ret = CMD_FAIL;
	FILE *fp = NULL;
	errcode_t err;

	if (!jopen(s)) {
		out_printf(s->out, "Journal not open.\n");
		return CMD_FAIL;
	}
	cmd_reset_getopt();
	while ((c = dfs_getopt(s, argc, argv, "b:r:c")) != -1) {
		switch (c) {
		case 'b':
			err = read_list(optarg, &bl, &bn);
			if (err) {	/* 1.47.0 stops here */
				out_error(s->out, argv[0], err,
					  "while reading block list");
				goto out;
			}
			break;
		case 'r':
			err = read_list(optarg, &rl, &rn);
			if (err) {
				out_error(s->out, argv[0], err,
					  "while reading revoke list");
				goto out;
			}
			break;
		case 'c':
			commit = 0;
			break;
		default:
			out_printf(s->out, "%s [-b blocks] [-r revoke] [-c] "
				   "file\n-b: Write these blocks into "
				   "transaction.\n-c: Do not commit "
				   "transaction.\n-r: Revoke these blocks from "
				   "transaction.\n", argv[0]);
			goto out;
		}
	}
	if (bn && optind != argc - 1) {
		out_printf(s->out, "Need a file to read blocks from.\n");
		goto out;
	}
	if (bn) {
		fp = fopen(argv[optind], "r");
		if (!fp) {
			out_error(s->out, argv[0], errno,
				  "while opening journal data file");
			goto out;
		}
	}
	err = jwrite(s, bl, bn, rl, rn, fp, commit);
	if (err)
		out_error(s->out, "journal_write", err,
			  "while writing journal");
	else
		ret = CMD_OK;
	if (fp)
		fclose(fp);
out:
	free(bl);
	free(rl);
	return ret;
}

static int do_jc(struct session *s, int argc, char **argv)
{
	struct jt_session *js = jopen(s);
	errcode_t err = 0;

	(void)argc;
	(void)argv;
	if (!js) {
		out_printf(s->out, "Journal not open.\n");
		return CMD_FAIL;
	}
	if (s->fs->flags & EXT2_FLAG_RW) {
		js->j.sequence = js->tail_seq;
		js->j.start = js->tail;
		err = jt_write_sb(&js->j);
	}
	jt_session_free(js);
	s->journal = NULL;
	if (err) {
		out_error(s->out, argv[0], err, "while closing journal");
		return CMD_FAIL;
	}
	return CMD_OK;
}

static int uuid_null(const __u8 *u)
{
	int i;

	for (i = 0; i < 16; i++)
		if (u[i])
			return 0;
	return 1;
}

/* debugfs's last look at the journal after a replay: flags that disagree,
 * or an error recorded in s_errno (moved to the superblock's state); the
 * journal superblock is written back in any case. */
static errcode_t check_journal(ext2_filsys fs)
{
	struct jt_journal j;
	errcode_t err;

	if (!ext2fs_has_feature_journal(fs->super) &&
	    !fs->super->s_journal_inum && !fs->super->s_journal_dev &&
	    uuid_null(fs->super->s_journal_uuid))
		return 0;
	err = jt_open_fs(fs, NULL, &j);
	if (err)
		return err;
	if (!ext2fs_has_feature_journal(fs->super) ||
	    (!fs_recover(fs) && j.start)) {
		jt_close(&j);
		return EXT2_ET_JOURNAL_FLAGS_WRONG;
	}
	if (!fs_recover(fs) && be32(j.sb + 0x20)) {
		fs->super->s_state |= EXT2_ERROR_FS;
		ext2fs_mark_super_dirty(fs);
		memset(j.sb + 0x20, 0, 4);
	}
	err = jt_write_sb(&j);
	jt_close(&j);
	return err;
}

/* Replays the journal, then reopens the filesystem as debugfs does. */
static errcode_t run_journal(struct session *s)
{
	ext2_filsys fs = s->fs;
	struct jt_journal j;
	io_manager io = fs->io->manager;
	io_stats stats = NULL;
	unsigned long long kb = 0;
	unsigned long n;
	errcode_t err, rerr;
	int flags = fs->flags, bs = fs->blocksize;

	if (fs->flags & EXT2_FLAG_DIRTY)
		ext2fs_flush(fs);
	rerr = jt_open_fs(fs, NULL, &j);
	if (!rerr) {
		rerr = jt_recover(&j, &n);
		if (j.bad_pass)
			out_printf(s->out, "JBD2: recovery pass %d ended at "
				   "transaction %u, expected %u\n", j.bad_pass,
				   j.bad_pass_seq, j.bad_pass_end);
		jt_close(&j);
	}
	if (fs->super->s_kbytes_written && io->get_stats)
		io->get_stats(fs->io, &stats);
	if (stats && stats->bytes_written)
		kb = stats->bytes_written >> 10;
	err = session_reopen(s, io, flags, bs, 0, REOPEN_DISCARD);
	if (err)
		return err;
	fs = s->fs;
	s->no_bitmaps = true;
	s->now = 0;	/* a new filesystem handle: the real clock again */
	fs->flags |= EXT2_FLAG_MASTER_SB_ONLY;
	/* what debugfs 1.47.0 leaves in s_lastcheck after journal_run */
	fs->super->s_lastcheck = 0xffffffffU;
	fs->super->s_kbytes_written += kb;
	ext2fs_clear_feature_journal_needs_recovery(fs->super);
	if (rerr)
		fs->super->s_state &= ~EXT2_VALID_FS;
	ext2fs_mark_super_dirty(fs);
	err = check_journal(fs);
	return err ? err : rerr;
}

static int do_jr(struct session *s, int argc, char **argv)
{
	errcode_t err;

	(void)argc;
	if (check_bitmaps(s, argv[0]))
		return CMD_FAIL;
	if (jopen(s)) {
		out_printf(s->out, "Please close the journal before "
			   "recovering it.\n");
		return CMD_FAIL;
	}
	err = run_journal(s);
	if (err) {
		out_error(s->out, "journal_run", err,
			  "while recovering journal");
		return CMD_FAIL;
	}
	return CMD_OK;
}

static const char *const jo_aliases[] = {"jo", NULL};
static const char *const jw_aliases[] = {"jw", NULL};
static const char *const jc_aliases[] = {"jc", NULL};
static const char *const jr_aliases[] = {"jr", NULL};

const struct cmd_entry cmd_journal_open = {
	.name = "journal_open",
	.aliases = jo_aliases,
	.synopsis = "journal_open [-c] [-v ver] [-f ext_jnl]",
	.summary = "Open the journal for writing transactions",
	.options = "-c -v -f",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_RW | CMD_DEBUGFS,
	.run = do_jo,
};

const struct cmd_entry cmd_journal_write = {
	.name = "journal_write",
	.aliases = jw_aliases,
	.synopsis = "journal_write [-b blocks] [-r revoke] [-c] file",
	.summary = "Write a transaction to the open journal",
	.options = "-b -r -c",
	.flags = CMD_DEBUGFS,
	.complete = COMPLETE_HOST_PATH,
	.run = do_jw,
};

const struct cmd_entry cmd_journal_close = {
	.name = "journal_close",
	.aliases = jc_aliases,
	.synopsis = "journal_close",
	.summary = "Close the open journal",
	.flags = CMD_DEBUGFS,
	.run = do_jc,
};

const struct cmd_entry cmd_journal_run = {
	.name = "journal_run",
	.aliases = jr_aliases,
	.synopsis = "journal_run",
	.summary = "Recover the journal: replay its committed transactions",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_RW | CMD_DEBUGFS,
	.run = do_jr,
};

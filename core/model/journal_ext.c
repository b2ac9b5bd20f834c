/* journal_ext.c - external journals (journal_ext.h): a journal device's
 * ext2 superblock and jbd2 superblock, found for a filesystem by option or
 * by UUID, and its layout told. */
#include "journal_ext.h"
#include "e2l_err.h"
#include "fs_probe.h"

#include <e2p/e2p.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SB_OFF		1024
#define SB_LEN		1024

/* 0 when sb (as read from the device) is a journal device's. */
static errcode_t check_sb(struct ext2_super_block *sb)
{
#ifdef WORDS_BIGENDIAN
	ext2fs_swap_super(sb);
#endif
	if (sb->s_magic != EXT2_SUPER_MAGIC ||
	    !ext2fs_has_feature_journal_dev(sb))
		return EXT2_ET_BAD_MAGIC;
	if (sb->s_log_block_size > EXT2_MAX_BLOCK_LOG_SIZE -
				   EXT2_MIN_BLOCK_LOG_SIZE)
		return EXT2_ET_CORRUPT_SUPERBLOCK;
	return 0;
}

/* Reads the ext2 superblock of path into sb; 0 when it is a journal
 * device's. */
static errcode_t read_sb(int fd, struct ext2_super_block *sb)
{
	ssize_t n = pread(fd, sb, SB_LEN, SB_OFF);

	if (n < 0)
		return errno;
	if (n != SB_LEN)
		return EXT2_ET_SHORT_READ;
	return check_sb(sb);
}

int journal_ext_is_sb(const void *head, ssize_t n)
{
	struct ext2_super_block sb;

	if (n < SB_OFF + SB_LEN)
		return 0;
	memcpy(&sb, (const char *)head + SB_OFF, SB_LEN);
	return check_sb(&sb) == 0;
}

errcode_t journal_ext_read(const char *path, struct e2l_journal *j)
{
	struct ext2_super_block sb;
	errcode_t err;
	blk64_t start;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	err = read_sb(fd, &sb);
	if (err)
		goto out;
	j->ext_blocksize = EXT2_MIN_BLOCK_SIZE << sb.s_log_block_size;
	j->ext_blocks = ext2fs_blocks_count(&sb);
	snprintf(j->ext_label, sizeof(j->ext_label), "%.16s",
		 sb.s_volume_name);
	if (!j->ext_uuid[0])
		e2p_uuid_to_str(sb.s_uuid, j->ext_uuid);
	/* the jbd2 superblock follows the ext2 one, in the next block */
	start = j->ext_blocksize == EXT2_MIN_BLOCK_SIZE ? 2 : 1;
	j->sb_pblk = start;
	ext2fs_free_mem(&j->sb_raw);
	err = ext2fs_get_mem(j->ext_blocksize, &j->sb_raw);
	if (err)
		goto out;
	n = pread(fd, j->sb_raw, j->ext_blocksize,
		  (off_t)(start * j->ext_blocksize));
	if (n != (ssize_t)j->ext_blocksize) {
		err = n < 0 ? errno : EXT2_ET_SHORT_READ;
		ext2fs_free_mem(&j->sb_raw);
		goto out;
	}
	j->sb_raw_len = j->ext_blocksize;
	journal_decode_super(j);
	free(j->ext_path);
	j->ext_path = strdup(path);
	if (!j->ext_path)
		err = ENOMEM;
out:
	close(fd);
	return err;
}

/* j's users: which one fs_uuid is (-1 when none). */
static int find_user(const struct e2l_journal *j, const char *fs_uuid)
{
	char u[37];
	unsigned i;

	for (i = 0; !journal_user(j, i, u); i++)
		if (!strcmp(u, fs_uuid))
			return (int)i;
	return -1;
}

errcode_t journal_ext_find(struct session *s, struct e2l_journal *j)
{
	char want[37], fs_uuid[37], got[37];
	char *path = NULL;
	errcode_t err;

	j->ext_user = -1;
	if (!j->external)
		return 0;
	snprintf(want, sizeof(want), "%s", j->ext_uuid);
	if (s->journal_dev) {
		path = strdup(s->journal_dev);
		j->ext_how = "--journal-dev";
	} else {
		path = fs_probe_journal_dev(s->fs);
		j->ext_how = "found by its UUID";
	}
	if (!path)
		return s->journal_dev ? ENOMEM : 0;
	err = journal_ext_read(path, j);
	free(path);
	if (err && !s->journal_dev) {
		/* what libblkid remembered is gone (a detached loop device,
		 * an unplugged disk): not found */
		free(j->ext_path);
		j->ext_path = NULL;
		return 0;
	}
	if (err == EXT2_ET_BAD_MAGIC) {
		j->ext_mismatch = 1;
		return E2L_ERR_BAD_ARGUMENT;
	}
	if (err)
		return err;
	snprintf(got, sizeof(got), "%s", j->sb_uuid);
	snprintf(j->ext_uuid, sizeof(j->ext_uuid), "%s", want);
	if (j->sb_valid && strcmp(got, want)) {
		j->ext_mismatch = 1;
		return E2L_ERR_BAD_ARGUMENT;
	}
	e2p_uuid_to_str(s->fs->super->s_uuid, fs_uuid);
	j->ext_user = find_user(j, fs_uuid);
	return 0;
}

void journal_ext_print(struct session *s, const struct e2l_journal *j)
{
	unsigned long long bs = j->ext_blocksize;
	char u[37];
	unsigned i;

	out_printf(s->out, "Journal device: %s (%llu blocks of %llu bytes, "
		   "%llu bytes)%s%s%s\n", j->ext_path,
		   (unsigned long long)j->ext_blocks, bs,
		   (unsigned long long)j->ext_blocks * bs,
		   j->ext_label[0] ? ", label \"" : "", j->ext_label,
		   j->ext_label[0] ? "\"" : "");
	out_printf(s->out, "  block 0%s: the device's ext2 superblock (at "
		   "byte 1024, journal_dev)\n", bs == 1024 ? "-1" : "");
	out_printf(s->out, "  block %llu: the journal superblock (byte "
		   "%llu)\n", (unsigned long long)j->sb_pblk,
		   (unsigned long long)j->sb_pblk * bs);
	if (!j->sb_valid) {
		out_printf(s->out, "  (not a valid jbd2 superblock)\n");
		return;
	}
	if (j->sb_maxlen > j->sb_first)
		out_printf(s->out, "  blocks %u-%u: the log (%u blocks, bytes "
			   "%llu-%llu)\n", j->sb_first, j->sb_maxlen - 1,
			   j->sb_maxlen - j->sb_first,
			   (unsigned long long)j->sb_first * bs,
			   (unsigned long long)j->sb_maxlen * bs - 1);
	out_printf(s->out, "  journal UUID %s, %u user%s%s:\n", j->sb_uuid,
		   j->sb_nr_users, j->sb_nr_users == 1 ? "" : "s",
		   j->sb_nr_users > JBD2_USERS_MAX ? " (damaged: a journal "
		   "superblock lists at most 48; those 48 follow)" : "");
	for (i = 0; !journal_user(j, i, u); i++)
		out_printf(s->out, "    %s%s\n", u,
			   (int)i == j->ext_user ? "  (this filesystem)" : "");
}

/* journal.c - the `journal` request: where the journal lives (inode,
 * extents, gaps, mapping blocks) and what its superblock says. */
#include "cmd.h"
#include "journal.h"
#include "journal_ext.h"

#include <e2p/e2p.h>

static long long run_gap(const struct e2l_journal *j, unsigned i)
{
	return (long long)j->ext[i].pblk -
	       (long long)(j->ext[i - 1].pblk + j->ext[i - 1].len);
}

static void json_features(struct sink *o, const struct e2l_journal *j)
{
	const __u32 masks[3] = { j->sb_feature_compat, j->sb_feature_incompat,
				 j->sb_feature_ro_compat };
	int type;
	unsigned bit;

	json_arr_begin(o, "features");
	for (type = 0; type < 3; type++)
		for (bit = 0; bit < 32; bit++)
			if (masks[type] & (1U << bit))
				json_str(o, NULL,
					 e2p_jrnl_feature2string(type,
								 1U << bit));
	json_arr_end(o);
}

static void json_super(struct sink *o, const struct e2l_journal *j)
{
	char uuid[37];
	unsigned i;

	json_obj_begin(o, "superblock");
	json_u64(o, "block", j->sb_pblk);
	json_bool(o, "valid", j->sb_valid);
	json_bool(o, "in_image", !j->sb_absent);
	if (j->sb_valid) {
		json_u64(o, "version", j->sb_blocktype == 4 ? 2 : 1);
		json_u64(o, "block_size", j->sb_blocksize);
		json_u64(o, "length", j->sb_maxlen);
		json_u64(o, "first", j->sb_first);
		json_u64(o, "sequence", j->sb_sequence);
		json_u64(o, "start", j->sb_start);
		json_i64(o, "errno", (__s32)j->sb_errno);
		json_u64(o, "feature_compat", j->sb_feature_compat);
		json_u64(o, "feature_incompat", j->sb_feature_incompat);
		json_u64(o, "feature_ro_compat", j->sb_feature_ro_compat);
		json_features(o, j);
		json_u64(o, "checksum_version", journal_csum_version(j));
		json_u64(o, "checksum_type", j->sb_checksum_type);
		json_u64(o, "fast_commit_blocks", journal_fc_blocks(j));
		json_str(o, "uuid", j->sb_uuid);
		json_u64(o, "nr_users", j->sb_nr_users);
		json_arr_begin(o, "users");
		for (i = 0; !journal_user(j, i, uuid); i++)
			json_str(o, NULL, uuid);
		json_arr_end(o);
	}
	json_obj_end(o);
}

static void json_journal(struct sink *o, const struct e2l_journal *j)
{
	unsigned i;

	json_bool(o, "present", j->present);
	if (!j->present)
		return;
	json_bool(o, "external", j->external);
	if (j->external) {
		json_str(o, "uuid", j->ext_uuid);
		json_u64(o, "device", j->ext_dev);
		if (!j->ext_path || j->ext_mismatch) {
			json_null(o, "device_path");
			return;
		}
		json_str(o, "device_path", j->ext_path);
		json_str(o, "found", j->ext_how);
		json_u64(o, "device_block_size", j->ext_blocksize);
		json_u64(o, "device_blocks", j->ext_blocks);
		if (j->ext_user >= 0)
			json_u64(o, "user_index", j->ext_user);
		else
			json_null(o, "user_index");
		json_super(o, j);
		return;
	}
	json_u64(o, "inode", j->ino);
	json_u64(o, "size_bytes", j->size_bytes);
	json_u64(o, "data_blocks", j->data_blocks);
	json_bool(o, "uses_extents", j->uses_extents);
	json_u64(o, "extent_entries", j->nentries);
	json_u64(o, "pieces", j->next);
	json_bool(o, "contiguous", j->next <= 1);
	json_arr_begin(o, "extents");
	for (i = 0; i < j->next; i++) {
		json_obj_begin(o, NULL);
		json_u64(o, "logical", j->ext[i].lblk);
		json_u64(o, "physical", j->ext[i].pblk);
		json_u64(o, "length", j->ext[i].len);
		if (i)
			json_i64(o, "gap_before", run_gap(j, i));
		else
			json_null(o, "gap_before");
		json_obj_end(o);
	}
	json_arr_end(o);
	json_arr_begin(o, "mapping_blocks");
	for (i = 0; i < j->nmap; i++)
		json_u64(o, NULL, j->map_blocks[i]);
	json_arr_end(o);
	json_super(o, j);
}

static void text_super(struct session *s, const struct e2l_journal *j,
		       unsigned blocksize)
{
	char *buf, uuid[37];
	size_t len;
	unsigned i;
	int flags = 0;
	FILE *f;

	out_printf(s->out, "\nJournal superblock at block %llu:\n",
		   (unsigned long long)j->sb_pblk);
	if (j->sb_absent) {
		out_printf(s->out, "  (not in this e2image file: it holds "
			   "the filesystem's metadata only)\n");
		return;
	}
	if (!j->sb_valid) {
		out_printf(s->out, "  (not a valid jbd2 superblock)\n");
		return;
	}
	/* As dumpe2fs: without the flag, libe2p counts no fast-commit area
	 * ("Fast commit length: 0") and the whole journal as the log. */
	if (s->fs && ext2fs_has_feature_fast_commit(s->fs->super))
		flags |= E2P_LIST_JOURNAL_FLAG_FC;
	f = sink_stream_begin(s->out, &buf, &len);
	if (f)
		e2p_list_journal_super(f, j->sb_raw, blocksize, flags);
	sink_stream_end(s->out, f, &buf, &len);
	out_printf(s->out, "%-26s%u\n", "Journal block size:",
		   j->sb_blocksize);
	out_printf(s->out, "%-26s%u\n", "Journal first block:", j->sb_first);
	out_printf(s->out, "%-26s%d\n", "Journal checksum version:",
		   journal_csum_version(j));
	out_printf(s->out, "%-26s%u\n", "Journal fast commit blks:",
		   journal_fc_blocks(j));
	out_printf(s->out, "%-26s%u\n", "Journal users:", j->sb_nr_users);
	for (i = 0; !journal_user(j, i, uuid); i++)
		out_printf(s->out, "%-26s%s\n", "", uuid);
}

static void text_journal(struct session *s, const struct e2l_journal *j)
{
	ext2_filsys fs = s->fs;
	unsigned i;

	if (!j->present) {
		out_printf(s->out, "No journal (has_journal is not set).\n");
		return;
	}
	if (j->external) {
		out_printf(s->out, "External journal: UUID %s, device "
			   "0x%04x\n", j->ext_uuid, j->ext_dev);
		if (j->ext_mismatch)
			return;	/* do_journal said why */
		if (!j->ext_path) {
			out_printf(s->out, "Its device was not found (no "
				   "block device with that UUID); name it "
				   "with --journal-dev PATH.\n");
			return;
		}
		out_printf(s->out, "Device %s (%s)\n", j->ext_path,
			   j->ext_how);
		journal_ext_print(s, j);
		if (j->ext_user < 0)
			out_printf(s->out, "Warning: this filesystem is not "
				   "among the journal's users.\n");
		if (j->sb_valid)
			text_super(s, j, j->ext_blocksize);
		return;
	}
	out_printf(s->out, "Internal journal: inode %u (%s)\n", j->ino,
		   j->uses_extents ? "extent-mapped" : "block-mapped");
	out_printf(s->out, "Size: %llu bytes, %llu blocks mapped\n",
		   (unsigned long long)j->size_bytes,
		   (unsigned long long)j->data_blocks);
	out_printf(s->out, "Extents: %u (%s", j->nentries,
		   j->uses_extents ? "extent entries" : "runs");
	if (j->next <= 1)
		out_printf(s->out, "), contiguous\n");
	else
		out_printf(s->out, "), in %u pieces\n", j->next);
	for (i = 0; i < j->next; i++) {
		if (i)
			out_printf(s->out, "      gap %+lld block(s)\n",
				   run_gap(j, i));
		out_printf(s->out, "  logical %llu-%llu  physical %llu-%llu  "
			   "(%llu blocks)\n",
			   (unsigned long long)j->ext[i].lblk,
			   (unsigned long long)(j->ext[i].lblk +
						j->ext[i].len - 1),
			   (unsigned long long)j->ext[i].pblk,
			   (unsigned long long)(j->ext[i].pblk +
						j->ext[i].len - 1),
			   (unsigned long long)j->ext[i].len);
	}
	out_printf(s->out, "Mapping blocks:");
	if (!j->nmap)
		out_printf(s->out, " none");
	for (i = 0; i < j->nmap; i++)
		out_printf(s->out, " %llu", (unsigned long long)j->map_blocks[i]);
	out_printf(s->out, "\n");
	if (j->next)
		text_super(s, j, fs->blocksize);
}

static int do_journal(struct session *s, int argc, char **argv)
{
	struct e2l_journal j;
	errcode_t err;

	if (argc > 1) {
		out_error(s->out, argv[0], 0, "Usage: journal");
		return CMD_FAIL;
	}
	err = journal_load(s->fs, &j);
	if (err) {
		out_error(s->out, argv[0], err, "while reading the journal "
			  "(inode %u)", s->fs->super->s_journal_inum);
		return CMD_FAIL;
	}
	err = journal_ext_find(s, &j);
	if (err) {
		if (j.ext_mismatch)
			out_error(s->out, argv[0], 0, "%s is not this "
				  "filesystem's journal (it wants the journal "
				  "device with UUID %s)", j.ext_path ?
				  j.ext_path : s->journal_dev, j.ext_uuid);
		else
			out_error(s->out, argv[0], err, "while reading the "
				  "journal device %s", s->journal_dev ?
				  s->journal_dev : "");
		journal_release(&j);
		return CMD_FAIL;
	}
	if (sink_is_json(s->out))
		json_journal(s->out, &j);
	else
		text_journal(s, &j);
	journal_release(&j);
	return CMD_OK;
}

const struct cmd_entry cmd_journal = {
	.name = "journal",
	.synopsis = "journal",
	.summary = "Show where the journal lives and its superblock",
	.flags = CMD_NEEDS_FS | CMD_JSON,
	.run = do_journal,
};

/* lab_fact_fs.c - the facts of the filesystem a lab reads: superblock
 * numbers, group metadata places and descriptor copies, block owners,
 * the journal's runs and superblock, flex groups' layouts. */
#include "lab_int.h"
#include "flex.h"
#include "gdt_loc.h"
#include "journal.h"
#include "owner.h"

#include <string.h>

static void add_uuid(struct lab_fact *f, const unsigned char *u)
{
	int i;

	strbuf_reset(&f->s);
	f->isnum = 0;
	for (i = 0; i < 16; i++)
		strbuf_printf(&f->s, "%s%02x", i == 4 || i == 6 || i == 8 ||
			      i == 10 ? "-" : "", u[i]);
}

const char *lab_fact_super(const struct lab_fact_arg *a, struct lab_fact *f)
{
	ext2_filsys fs = a->s->fs;
	struct ext2_super_block *sb = fs->super;
	const char *name = a->name;
	dgrp_t g;

	if (!strcmp(name, "groups"))
		lab_fact_num(f, fs->group_desc_count);
	else if (!strcmp(name, "blocks_count"))
		lab_fact_num(f, ext2fs_blocks_count(sb));
	else if (!strcmp(name, "blocks_per_group"))
		lab_fact_num(f, sb->s_blocks_per_group);
	else if (!strcmp(name, "inodes_per_group"))
		lab_fact_num(f, sb->s_inodes_per_group);
	else if (!strcmp(name, "first_data_block"))
		lab_fact_num(f, sb->s_first_data_block);
	else if (!strcmp(name, "block_size"))
		lab_fact_num(f, fs->blocksize);
	else if (!strcmp(name, "inode_size"))
		lab_fact_num(f, EXT2_INODE_SIZE(sb));
	else if (!strcmp(name, "descs_per_block"))
		lab_fact_num(f, EXT2_DESC_PER_BLOCK(sb));
	else if (!strcmp(name, "first_meta_bg"))
		lab_fact_num(f, ext2fs_has_feature_meta_bg(sb) ?
			     sb->s_first_meta_bg : fs->desc_blocks);
	else if (!strcmp(name, "reserved_gdt_blocks"))
		lab_fact_num(f, sb->s_reserved_gdt_blocks);
	else if (!strcmp(name, "groups_per_flex"))
		lab_fact_num(f, ext2fs_has_feature_flex_bg(sb) &&
			     sb->s_log_groups_per_flex < 31 ?
			     1U << sb->s_log_groups_per_flex : 0);
	else if (!strcmp(name, "cluster_size"))
		lab_fact_num(f, (unsigned long long)fs->blocksize <<
			     (fs->cluster_ratio_bits & 31));
	else if (!strcmp(name, "cluster_blocks"))
		lab_fact_num(f, EXT2FS_CLUSTER_RATIO(fs));
	else if (!strcmp(name, "clusters_per_group"))
		lab_fact_num(f, sb->s_clusters_per_group);
	else if (!strcmp(a->field, "uuid") && !strcmp(name, "fs"))
		add_uuid(f, sb->s_uuid);
	else if (!strcmp(name, "fs") && !strcmp(a->field, "hash_seed"))
		add_uuid(f, (const unsigned char *)sb->s_hash_seed);
	else if (!strcmp(name, "fs") && !strcmp(a->field, "mkfs_time"))
		lab_fact_num(f, sb->s_mkfs_time);
	else if (!strcmp(name, "deleted"))
		return lab_fact_deleted(a, f);
	else if (!strcmp(name, "sb_backups")) {
		strbuf_reset(&f->s);
		f->isnum = 0;
		for (g = 1; g < fs->group_desc_count; g++)
			if (ext2fs_bg_has_super(fs, g))
				lab_fact_range(f,
					ext2fs_group_first_block2(fs, g), 1);
	} else
		return "unknown fact";
	return NULL;
}

/* desc_copies(G): every block that holds a copy of group G's descriptor:
 * the primary and the backups.  Before the first meta group the whole
 * table follows each superblock copy; in a meta group its one descriptor
 * block is in the meta group's first, second and last groups (after a
 * superblock copy where the group has one). */
static void lab_desc_copies(ext2_filsys fs, dgrp_t g, struct lab_fact *f)
{
	struct ext2_super_block *sb = fs->super;
	unsigned per = EXT2_DESC_PER_BLOCK(sb), i = g / per, k;
	dgrp_t m[3], c;

	if (!ext2fs_has_feature_meta_bg(sb) || i < sb->s_first_meta_bg) {
		for (c = 0; c < fs->group_desc_count; c++)
			if (ext2fs_bg_has_super(fs, c))
				lab_fact_range(f, ext2fs_group_first_block2(fs, c) +
					  1 + i, 1);
		return;
	}
	m[0] = i * per;
	m[1] = i * per + 1;
	m[2] = i * per + per - 1;
	for (k = 0; k < 3; k++)
		if (m[k] < fs->group_desc_count)
			lab_fact_range(f, ext2fs_group_first_block2(fs, m[k]) +
				  (ext2fs_bg_has_super(fs, m[k]) ? 1 : 0), 1);
}

const char *lab_fact_group(const struct lab_fact_arg *a, struct lab_fact *f)
{
	ext2_filsys fs = a->s->fs;
	struct ext2_super_block *sb = fs->super;
	const char *name = a->name;
	blk64_t sbk, old, new;
	blk_t used;
	dgrp_t g;

	if (!strcmp(name, "group_of")) {
		if (a->n < sb->s_first_data_block || a->n >= ext2fs_blocks_count(sb))
			return "no such block";
		lab_fact_num(f, ext2fs_group_of_blk2(fs, a->n));
		return NULL;
	}
	if (strcmp(name, "group_first") && strcmp(name, "group_last") &&
	    strcmp(name, "gdt") && strcmp(name, "inode_table") &&
	    strcmp(name, "block_bitmap") && strcmp(name, "inode_bitmap") &&
	    strcmp(name, "desc_block") && strcmp(name, "desc_copies"))
		return "unknown fact";
	if (a->n >= fs->group_desc_count)
		return "no such group";
	g = a->n;
	strbuf_reset(&f->s);
	f->isnum = 0;
	if (!strcmp(name, "group_first")) {
		lab_fact_num(f, ext2fs_group_first_block2(fs, g));
	} else if (!strcmp(name, "group_last")) {
		lab_fact_num(f, ext2fs_group_last_block2(fs, g));
	} else if (!strcmp(name, "gdt")) {
		ext2fs_super_and_bgd_loc2(fs, g, &sbk, &old, &new, &used);
		if (old)
			lab_fact_range(f, old, fs->desc_blocks);
		else if (new)
			lab_fact_range(f, new, 1);
	} else if (!strcmp(name, "desc_block")) {
		lab_fact_num(f, gdt_block_loc(fs, g / EXT2_DESC_PER_BLOCK(sb)));
	} else if (!strcmp(name, "desc_copies")) {
		lab_desc_copies(fs, g, f);
	} else if (!strcmp(name, "inode_table")) {
		lab_fact_range(f, ext2fs_inode_table_loc(fs, g),
			  fs->inode_blocks_per_group);
	} else if (!strcmp(name, "block_bitmap")) {
		lab_fact_range(f, ext2fs_block_bitmap_loc(fs, g), 1);
	} else {
		lab_fact_range(f, ext2fs_inode_bitmap_loc(fs, g), 1);
	}
	return NULL;
}

/* owner(B): the inode that owns block B, or the kind of metadata ("sb",
 * "gdt", "itable", ...), or "free". */
const char *lab_fact_owner(const struct lab_fact_arg *a, struct lab_fact *f)
{
	struct session *s = a->s;
	unsigned long long b = a->n;
	struct owner_run run;

	if (b >= ext2fs_blocks_count(s->fs->super))
		return "no such block";
	if (owner_index_build(s) || owner_lookup(s, b, &run))
		return "cannot find the block's owner";
	if (run.ino) {
		lab_fact_num(f, run.ino);
		return NULL;
	}
	strbuf_reset(&f->s);
	f->isnum = 0;
	strbuf_printf(&f->s, "%s", owner_class_key(run.cls));
	return NULL;
}

/* The journal's physical block of logical block l; 0 when unmapped. */
static blk64_t journal_pblk(const struct e2l_journal *j, blk64_t l)
{
	unsigned i;

	for (i = 0; i < j->next; i++)
		if (l >= j->ext[i].lblk && l < j->ext[i].lblk + j->ext[i].len)
			return j->ext[i].pblk + (l - j->ext[i].lblk);
	return 0;
}

const char *lab_fact_journal(const struct lab_fact_arg *a,
			     struct lab_fact *f)
{
	ext2_filsys fs = a->s->fs;
	const char *field = a->field;
	struct e2l_journal j;
	const char *msg = NULL;
	unsigned i, runs = 0;

	if (journal_load(fs, &j))
		return "cannot read the journal";
	if (!j.present || j.external) {
		msg = "no internal journal";
		goto out;
	}
	for (i = 0; i < j.next; i++)
		if (!i || j.ext[i].pblk != j.ext[i - 1].pblk +
		    j.ext[i - 1].len)
			runs++;
	if (!strcmp(field, "extents"))
		lab_fact_num(f, runs);
	else if (!strcmp(field, "blocks"))
		lab_fact_num(f, j.data_blocks);
	else if (!strcmp(field, "start"))
		lab_fact_num(f, j.next ? j.ext[0].pblk : 0);
	else if (!strcmp(field, "inode"))
		lab_fact_num(f, j.ino);
	else if (!strcmp(field, "dirty") && j.sb_valid)
		lab_fact_num(f, j.sb_start != 0);
	else if (!strcmp(field, "sequence") && j.sb_valid)
		lab_fact_num(f, j.sb_sequence);
	else if (!strcmp(field, "sequence"))
		msg = "the journal superblock is not valid";
	else if (!strcmp(field, "runs"))
		for (i = 0; i < j.next; i++)
			lab_fact_range(f, j.ext[i].pblk, j.ext[i].len);
	else if (!j.sb_valid && !strncmp(field, "fc_", 3))
		msg = "the journal superblock is not valid";
	else if (!strcmp(field, "maxlen") && j.sb_valid)
		lab_fact_num(f, j.sb_maxlen);
	else if (!strcmp(field, "maxlen"))
		msg = "the journal superblock is not valid";
	else if (!strcmp(field, "fc_blocks") || !strcmp(field, "fc_start")) {
		unsigned long long fc;

		fc = journal_fc_blocks(&j);
		if (field[3] == 'b')
			lab_fact_num(f, fc);
		else if (!fc || fc > j.sb_maxlen)
			msg = "no fast-commit area";
		else
			lab_fact_num(f, journal_pblk(&j, j.sb_maxlen - fc));
	} else
		msg = "unknown journal field";
out:
	journal_release(&j);
	return msg;
}

const char *lab_fact_flex(const struct lab_fact_arg *a, struct lab_fact *f)
{
	ext2_filsys fs = a->s->fs;
	struct e2l_flex fx;
	const char *why;

	if (!strcmp(a->field, "islands")) {
		if (a->n >= flex_count(fs) || flex_get(fs, a->n, &fx))
			return "no such flex group";
		lab_fact_num(f, fx.nislands);
		flex_release(&fx);
		return NULL;
	}
	why = lab_flex_layout(fs, a->n, a->field[0] == 'p', &f->s);
	if (!why && a->field[0] == 'p')
		lab_fact_num(f, f->s.buf && !strcmp(f->s.buf, "1"));
	return why;
}

/* lab_fact.c - the facts a lab's checks and claims read from images: the
 * journal's runs, a file's extents and checksum, inodes, block owners,
 * flex islands, group metadata places, the worst file; of the checked
 * image, a companion image, or the fresh scenario; and arithmetic on
 * them (help/labs/README.md lists them all). */
#include "lab_int.h"
#include "flex.h"
#include "gdt_loc.h"
#include "frag.h"
#include "journal.h"
#include "lab_htree.h"
#include "owner.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void set_num(struct lab_fact *f, unsigned long long n)
{
	strbuf_reset(&f->s);
	f->n = n;
	f->isnum = 1;
	strbuf_printf(&f->s, "%llu", n);
}

static void add_range(struct lab_fact *f, blk64_t a, blk64_t len)
{
	strbuf_printf(&f->s, "%s%llu", f->s.len ? "," : "",
		      (unsigned long long)a);
	if (len > 1)
		strbuf_printf(&f->s, "-%llu", (unsigned long long)(a + len - 1));
}

/* Builds the fresh scenario once (this trainee's seed), into a temporary
 * file. */
static struct session *start_image(struct lab_images *im)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (im->start.fs)
		return &im->start;
	if (im->start_path[0])
		return NULL;	/* building failed before */
	snprintf(im->start_path, sizeof(im->start_path), "%s/e2l-lab-XXXXXX",
		 dir && strlen(dir) < 40 ? dir : "/tmp");
	fd = mkstemp(im->start_path);
	if (fd < 0)
		return NULL;
	close(fd);
	if (lab_recipe_run(im->lab, "", im->start_path, &im->quiet) ||
	    session_open(&im->start, im->start_path, 0, NULL, 0, 0))
		return NULL;
	return &im->start;
}

/* The session of the image a tag names ("" the checked image). */
static struct session *image_for(struct lab_images *im, const char *tag,
				 int taglen)
{
	char path[4096];
	size_t n = strlen(im->image);

	if (!taglen)
		return &im->main;
	if (taglen == 5 && !strncmp(tag, "start", 5))
		return start_image(im);
	if (im->other.fs && (int)strlen(im->other_tag) == taglen &&
	    !strncmp(im->other_tag, tag, taglen))
		return &im->other;
	session_close(&im->other);
	if (n > 4 && !strcmp(im->image + n - 4, ".img"))
		n -= 4;
	snprintf(path, sizeof(path), "%.*s-%.*s.img", (int)n, im->image,
		 taglen, tag);
	snprintf(im->other_tag, sizeof(im->other_tag), "%.*s", taglen, tag);
	session_init(&im->other, &im->quiet);
	if (session_open(&im->other, path, 0, NULL, 0, 0))
		return NULL;
	return &im->other;
}

/* The inode's leaf extents: unwritten ones (and their blocks), the first
 * block. */
static errcode_t walk_extents(ext2_filsys fs, ext2_ino_t ino,
			      unsigned long long *unwritten,
			      unsigned long long *unw_blocks, blk64_t *first)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent e;
	int op = EXT2_EXTENT_ROOT;
	errcode_t err;

	*unwritten = *unw_blocks = 0;
	*first = 0;
	err = ext2fs_extent_open(fs, ino, &h);
	if (err)
		return err;
	while (!(err = ext2fs_extent_get(h, op, &e))) {
		op = EXT2_EXTENT_NEXT;
		if (!(e.e_flags & EXT2_EXTENT_FLAGS_LEAF) ||
		    (e.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT))
			continue;
		if (!*first)
			*first = e.e_pblk;
		if (e.e_flags & EXT2_EXTENT_FLAGS_UNINIT) {
			(*unwritten)++;
			*unw_blocks += e.e_len;
		}
	}
	ext2fs_extent_free(h);
	return err == EXT2_ET_EXTENT_NO_NEXT ? 0 : err;
}

errcode_t lab_file_sum(ext2_filsys fs, ext2_ino_t ino, char out[17])
{
	ext2_file_t file;
	char buf[65536];
	unsigned int got;
	uint64_t h = 0xcbf29ce484222325ULL;
	unsigned long long size;
	errcode_t err;

	err = ext2fs_file_open(fs, ino, 0, &file);
	if (err)
		return err;
	size = ext2fs_file_get_size(file);
	for (;;) {
		unsigned i;

		err = ext2fs_file_read(file, buf, sizeof(buf), &got);
		if (err || !got)
			break;
		for (i = 0; i < got; i++)
			h = (h ^ (unsigned char)buf[i]) * 0x100000001b3ULL;
	}
	ext2fs_file_close(file);
	h ^= size * 0x9e3779b97f4a7c15ULL;
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	return err;
}

static const char *fact_file(struct session *s, const char *path,
			     const char *field, struct lab_fact *f)
{
	ext2_filsys fs = s->fs;
	struct ext2_inode inode;
	struct frag_file ff;
	unsigned long long unw, unwb;
	char sum[17];
	ext2_ino_t ino;
	blk64_t first;

	if (ext2fs_namei(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, path, &ino) ||
	    ext2fs_read_inode(fs, ino, &inode)) {
		if (!strcmp(field, "exists")) {
			set_num(f, 0);
			return NULL;
		}
		return "no such file";
	}
	if (!strcmp(field, "exists")) {
		set_num(f, 1);
	} else if (!strcmp(field, "ino")) {
		set_num(f, ino);
	} else if (!strcmp(field, "size")) {
		set_num(f, EXT2_I_SIZE(&inode));
	} else if (!strcmp(field, "sum")) {
		if (!LINUX_S_ISREG(inode.i_mode))
			return "not a regular file";
		if (lab_file_sum(fs, ino, sum))
			return "cannot read its data";
		strbuf_reset(&f->s);
		strbuf_printf(&f->s, "%s", sum);
		f->isnum = 0;
	} else if (!strcmp(field, "depth") ||
		   !strcmp(field, "leaf_entries")) {
		struct ext3_extent_header *eh = (void *)inode.i_block;
		ext2_extent_handle_t h;
		struct ext2fs_extent e;
		unsigned long long nleaf = 0;
		int op = EXT2_EXTENT_ROOT;

		if (!(inode.i_flags & EXT4_EXTENTS_FL))
			return "not extent-mapped";
		if (field[0] == 'd') {
			set_num(f, ext2fs_le16_to_cpu(eh->eh_depth));
			return NULL;
		}
		if (ext2fs_extent_open(fs, ino, &h))
			return "cannot read its extent tree";
		while (!ext2fs_extent_get(h, op, &e)) {
			op = EXT2_EXTENT_NEXT;
			if ((e.e_flags & EXT2_EXTENT_FLAGS_LEAF) &&
			    !(e.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT))
				nleaf++;
		}
		ext2fs_extent_free(h);
		set_num(f, nleaf);
	} else if (!strcmp(field, "extents") || !strcmp(field, "blocks")) {
		if (frag_file_get(s, ino, &ff))
			return "cannot read its blocks";
		set_num(f, field[0] == 'e' ? ff.extents : ff.blocks);
	} else if (!strcmp(field, "unwritten") || !strcmp(field, "first") ||
		   !strcmp(field, "group") || !strcmp(field, "written") ||
		   !strcmp(field, "unwritten_blocks")) {
		if (!(inode.i_flags & EXT4_EXTENTS_FL))
			return "not extent-mapped";
		if (walk_extents(fs, ino, &unw, &unwb, &first))
			return "cannot read its extent tree";
		if (field[0] == 'g' && !first)
			return "the file has no blocks";
		if (!strcmp(field, "written")) {
			if (frag_file_get(s, ino, &ff))
				return "cannot read its blocks";
			set_num(f, ff.blocks > unwb ? ff.blocks - unwb : 0);
		} else if (!strcmp(field, "unwritten_blocks")) {
			set_num(f, unwb);
		} else {
			set_num(f, field[0] == 'u' ? unw : field[0] == 'f' ?
				first : ext2fs_group_of_blk2(fs, first));
		}
	} else {
		return "unknown file field";
	}
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

static const char *fact_journal(ext2_filsys fs, const char *field,
				struct lab_fact *f)
{
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
		set_num(f, runs);
	else if (!strcmp(field, "blocks"))
		set_num(f, j.data_blocks);
	else if (!strcmp(field, "start"))
		set_num(f, j.next ? j.ext[0].pblk : 0);
	else if (!strcmp(field, "inode"))
		set_num(f, j.ino);
	else if (!strcmp(field, "dirty") && j.sb_valid)
		set_num(f, j.sb_start != 0);
	else if (!strcmp(field, "sequence") && j.sb_valid)
		set_num(f, j.sb_sequence);
	else if (!strcmp(field, "sequence"))
		msg = "the journal superblock is not valid";
	else if (!strcmp(field, "runs"))
		for (i = 0; i < j.next; i++)
			add_range(f, j.ext[i].pblk, j.ext[i].len);
	else if (!j.sb_valid && !strncmp(field, "fc_", 3))
		msg = "the journal superblock is not valid";
	else if (!strcmp(field, "maxlen") && j.sb_valid)
		set_num(f, j.sb_maxlen);
	else if (!strcmp(field, "maxlen"))
		msg = "the journal superblock is not valid";
	else if (!strcmp(field, "fc_blocks") || !strcmp(field, "fc_start")) {
		unsigned long long fc;

		fc = journal_fc_blocks(&j);
		if (field[3] == 'b')
			set_num(f, fc);
		else if (!fc || fc > j.sb_maxlen)
			msg = "no fast-commit area";
		else
			set_num(f, journal_pblk(&j, j.sb_maxlen - fc));
	} else
		msg = "unknown journal field";
out:
	journal_release(&j);
	return msg;
}

static const char *fact_inode(ext2_filsys fs, unsigned long long ino,
			      const char *field, struct lab_fact *f)
{
	unsigned long long idx, off;
	struct ext2_inode inode;
	dgrp_t g;

	if (!ino || ino > fs->super->s_inodes_count)
		return "no such inode";
	g = (ino - 1) / fs->super->s_inodes_per_group;
	idx = (ino - 1) % fs->super->s_inodes_per_group;
	off = idx * EXT2_INODE_SIZE(fs->super);
	if (!strcmp(field, "group")) {
		set_num(f, g);
	} else if (!strcmp(field, "table_block")) {
		set_num(f, ext2fs_inode_table_loc(fs, g) + off / fs->blocksize);
	} else if (!strcmp(field, "offset")) {
		set_num(f, off % fs->blocksize);
	} else if (!strcmp(field, "sum")) {
		char sum[17];

		/* a deleted inode's too, while its block map stays */
		if (ext2fs_read_inode(fs, ino, &inode) ||
		    !LINUX_S_ISREG(inode.i_mode))
			return "not a regular file's inode";
		if (lab_file_sum(fs, ino, sum))
			return "cannot read its data";
		strbuf_reset(&f->s);
		strbuf_printf(&f->s, "%s", sum);
		f->isnum = 0;
	} else if (!strcmp(field, "links") || !strcmp(field, "size") ||
		   !strcmp(field, "generation") || !strcmp(field, "dtime")) {
		if (ext2fs_read_inode(fs, ino, &inode))
			return "cannot read the inode";
		set_num(f, field[0] == 'l' ? inode.i_links_count :
			field[0] == 's' ? EXT2_I_SIZE(&inode) :
			field[0] == 'd' ? inode.i_dtime : inode.i_generation);
	} else {
		return "unknown inode field";
	}
	return NULL;
}

static void add_uuid(struct lab_fact *f, const unsigned char *u)
{
	int i;

	strbuf_reset(&f->s);
	f->isnum = 0;
	for (i = 0; i < 16; i++)
		strbuf_printf(&f->s, "%s%02x", i == 4 || i == 6 || i == 8 ||
			      i == 10 ? "-" : "", u[i]);
}

/* deleted: the first inode of a deleted regular file (links 0, dtime
 * set, its mode kept), 0 when there is none. */
static const char *fact_deleted(ext2_filsys fs, struct lab_fact *f)
{
	ext2_inode_scan scan;
	struct ext2_inode inode;
	ext2_ino_t ino, found = 0;

	if (ext2fs_open_inode_scan(fs, 0, &scan))
		return "cannot scan the inodes";
	while (!found && !ext2fs_get_next_inode(scan, &ino, &inode) && ino)
		if (ino >= EXT2_FIRST_INO(fs->super) && !inode.i_links_count &&
		    inode.i_dtime && LINUX_S_ISREG(inode.i_mode))
			found = ino;
	ext2fs_close_inode_scan(scan);
	set_num(f, found);
	return NULL;
}

/* The facts of the superblock and of groups: NULL when known, else why
 * not; unknown names give "unknown fact". */
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
				add_range(f, ext2fs_group_first_block2(fs, c) +
					  1 + i, 1);
		return;
	}
	m[0] = i * per;
	m[1] = i * per + 1;
	m[2] = i * per + per - 1;
	for (k = 0; k < 3; k++)
		if (m[k] < fs->group_desc_count)
			add_range(f, ext2fs_group_first_block2(fs, m[k]) +
				  (ext2fs_bg_has_super(fs, m[k]) ? 1 : 0), 1);
}

static const char *fact_fs(ext2_filsys fs, const char *name, int hasarg,
			   unsigned long long a, struct lab_fact *f)
{
	struct ext2_super_block *sb = fs->super;
	blk64_t sbk, old, new;
	blk_t used;
	dgrp_t g;

	if (!hasarg) {
		if (!strcmp(name, "groups"))
			set_num(f, fs->group_desc_count);
		else if (!strcmp(name, "blocks_count"))
			set_num(f, ext2fs_blocks_count(sb));
		else if (!strcmp(name, "blocks_per_group"))
			set_num(f, sb->s_blocks_per_group);
		else if (!strcmp(name, "inodes_per_group"))
			set_num(f, sb->s_inodes_per_group);
		else if (!strcmp(name, "first_data_block"))
			set_num(f, sb->s_first_data_block);
		else if (!strcmp(name, "block_size"))
			set_num(f, fs->blocksize);
		else if (!strcmp(name, "inode_size"))
			set_num(f, EXT2_INODE_SIZE(sb));
		else if (!strcmp(name, "descs_per_block"))
			set_num(f, EXT2_DESC_PER_BLOCK(sb));
		else if (!strcmp(name, "first_meta_bg"))
			set_num(f, ext2fs_has_feature_meta_bg(sb) ?
				sb->s_first_meta_bg : fs->desc_blocks);
		else if (!strcmp(name, "reserved_gdt_blocks"))
			set_num(f, sb->s_reserved_gdt_blocks);
		else if (!strcmp(name, "groups_per_flex"))
			set_num(f, ext2fs_has_feature_flex_bg(sb) &&
				sb->s_log_groups_per_flex < 31 ?
				1U << sb->s_log_groups_per_flex : 0);
		else if (!strcmp(name, "fs.uuid"))
			add_uuid(f, sb->s_uuid);
		else if (!strcmp(name, "fs.hash_seed"))
			add_uuid(f, (const unsigned char *)sb->s_hash_seed);
		else if (!strcmp(name, "fs.mkfs_time"))
			set_num(f, sb->s_mkfs_time);
		else if (!strcmp(name, "deleted"))
			return fact_deleted(fs, f);
		else if (!strcmp(name, "sb_backups")) {
			strbuf_reset(&f->s);
			f->isnum = 0;
			for (g = 1; g < fs->group_desc_count; g++)
				if (ext2fs_bg_has_super(fs, g))
					add_range(f,
					    ext2fs_group_first_block2(fs, g),
					    1);
		} else
			return "unknown fact";
		return NULL;
	}
	if (!strcmp(name, "group_of")) {
		if (a < sb->s_first_data_block || a >= ext2fs_blocks_count(sb))
			return "no such block";
		set_num(f, ext2fs_group_of_blk2(fs, a));
		return NULL;
	}
	if (strcmp(name, "group_first") && strcmp(name, "group_last") &&
	    strcmp(name, "gdt") && strcmp(name, "inode_table") &&
	    strcmp(name, "block_bitmap") && strcmp(name, "inode_bitmap") &&
	    strcmp(name, "desc_block") && strcmp(name, "desc_copies"))
		return "unknown fact";
	if (a >= fs->group_desc_count)
		return "no such group";
	g = a;
	strbuf_reset(&f->s);
	f->isnum = 0;
	if (!strcmp(name, "group_first")) {
		set_num(f, ext2fs_group_first_block2(fs, g));
	} else if (!strcmp(name, "group_last")) {
		set_num(f, ext2fs_group_last_block2(fs, g));
	} else if (!strcmp(name, "gdt")) {
		ext2fs_super_and_bgd_loc2(fs, g, &sbk, &old, &new, &used);
		if (old)
			add_range(f, old, fs->desc_blocks);
		else if (new)
			add_range(f, new, 1);
	} else if (!strcmp(name, "desc_block")) {
		set_num(f, gdt_block_loc(fs, g / EXT2_DESC_PER_BLOCK(sb)));
	} else if (!strcmp(name, "desc_copies")) {
		lab_desc_copies(fs, g, f);
	} else if (!strcmp(name, "inode_table")) {
		add_range(f, ext2fs_inode_table_loc(fs, g),
			  fs->inode_blocks_per_group);
	} else if (!strcmp(name, "block_bitmap")) {
		add_range(f, ext2fs_block_bitmap_loc(fs, g), 1);
	} else {
		add_range(f, ext2fs_inode_bitmap_loc(fs, g), 1);
	}
	return NULL;
}

/* owner(B): the inode that owns block B, or the kind of metadata ("sb",
 * "gdt", "itable", ...), or "free". */
static const char *fact_owner(struct session *s, unsigned long long b,
			      struct lab_fact *f)
{
	struct owner_run run;

	if (b >= ext2fs_blocks_count(s->fs->super))
		return "no such block";
	if (owner_index_build(s) || owner_lookup(s, b, &run))
		return "cannot find the block's owner";
	if (run.ino) {
		set_num(f, run.ino);
		return NULL;
	}
	strbuf_reset(&f->s);
	f->isnum = 0;
	strbuf_printf(&f->s, "%s", owner_class_key(run.cls));
	return NULL;
}

static const char *fact_worst(struct session *s, int extents,
			      struct lab_fact *f)
{
	ext2_filsys fs = s->fs;
	struct frag_files ff;
	char *name = NULL;
	ext2_ino_t dir = 0;

	if (frag_files_get(s, 1, &ff))
		return "cannot measure fragmentation";
	strbuf_reset(&f->s);
	f->isnum = 0;
	if (extents) {
		set_num(f, ff.nworst ? ff.worst[0].extents : 0);
	} else if (ff.nworst) {
		/* A file's name lives in its directory: find it. */
		if (!owner_find_parents(fs, &ff.worst[0].ino, &dir, 1) &&
		    dir && !ext2fs_get_pathname(fs, dir, ff.worst[0].ino,
						&name))
			strbuf_printf(&f->s, "%s", name);
	}
	ext2fs_free_mem(&name);
	frag_files_release(&ff);
	return NULL;
}

/* The position of the ')' that closes the '(' at e[0], or NULL. */
static const char *closing(const char *e)
{
	int depth = 0;

	for (; *e; e++) {
		if (*e == '(')
			depth++;
		else if (*e == ')' && --depth == 0)
			return e;
	}
	return NULL;
}

static const char *expr_eval(struct lab_images *im, const char *e,
			     size_t len, struct lab_fact *f);

static const char *const fs_names[] = {
	"groups", "blocks_count", "blocks_per_group", "inodes_per_group",
	"first_data_block", "block_size", "inode_size", "groups_per_flex",
	"descs_per_block", "first_meta_bg", "reserved_gdt_blocks",
	"fs.uuid", "fs.hash_seed", "fs.mkfs_time", "sb_backups", "deleted",
	NULL
};
static const char *const group_names[] = {
	"group_first", "group_last", "gdt", "inode_table", "block_bitmap",
	"inode_bitmap", "group_of", "desc_block", "desc_copies", NULL
};
static const char *const file_fields[] = {
	"exists", "ino", "size", "sum", "extents", "blocks", "unwritten",
	"unwritten_blocks", "written", "first", "group", "depth",
	"leaf_entries", NULL
};
static const char *const inode_fields[] = {
	"group", "table_block", "offset", "links", "size", "generation",
	"dtime", "sum", NULL
};
static const char *const journal_fields[] = {
	"extents", "blocks", "start", "runs", "inode", "sequence", "dirty",
	"maxlen", "fc_blocks", "fc_start",
	NULL
};
static const char *const trace_fields[] = {
	"uuid", "first", "group", "inode", "blocks", NULL
};
static const char *const dir_fields[] = {
	"indexed", "depth", "blocks", NULL
};
static const char *const dirent_fields[] = {
	"hash", "minor", "leaf", NULL
};
static const char *const flex_fields[] = {
	"layout", "packed", "islands", NULL
};

static int among(const char *const *names, const char *s, size_t n)
{
	for (; *names; names++)
		if (strlen(*names) == n && !strncmp(*names, s, n))
			return 1;
	return 0;
}

/*
 * One fact, e[0..len): [TAG]name, [TAG]name(ARG)[.field], a number.  With
 * im NULL only its form is checked (lab load).
 */
static const char *fact_eval(struct lab_images *im, const char *e,
			     size_t len, struct lab_fact *f)
{
	const char *tag = "", *end = e + len, *open, *close, *why, *field;
	struct lab_fact a = {{0}, 0, 0};
	char name[64], path[256], *num_end;
	struct session *s = NULL;
	int taglen = 0, hasarg = 0;
	unsigned long long n = 0;
	size_t nl;

	while (e < end && isspace((unsigned char)*e))
		e++;
	while (end > e && isspace((unsigned char)end[-1]))
		end--;
	if (e == end)
		return "empty fact";
	if (*e == '"') {
		/* "text": a literal (owner(B) == "itable") */
		if (end - e < 2 || end[-1] != '"')
			return "no closing \"";
		if (im) {
			strbuf_reset(&f->s);
			strbuf_add(&f->s, e + 1, end - e - 2);
			f->isnum = 0;
		}
		return NULL;
	}
	if (isdigit((unsigned char)*e)) {
		n = strtoull(e, &num_end, 0);
		if (num_end != end)
			return "bad number";
		if (im)
			set_num(f, n);
		return NULL;
	}
	if (*e == '[') {
		close = memchr(e, ']', end - e);
		if (!close)
			return "no ] after the image tag";
		tag = e + 1;
		taglen = close - tag;
		e = close + 1;
	}
	open = memchr(e, '(', end - e);
	nl = (open ? open : end) - e;
	if (nl >= sizeof(name))
		return "unknown fact";
	snprintf(name, sizeof(name), "%.*s", (int)nl, e);
	field = "";
	path[0] = 0;
	if (open) {
		close = closing(open);
		if (!close || close >= end)
			return "no ) to close (";
		if (close + 1 < end && close[1] != '.')
			return "unexpected text after )";
		field = close + 1 < end ? close + 2 : end;
		hasarg = 1;
		if ((!strcmp(name, "file") && open[1] == '/') ||
		    !strcmp(name, "trace") || !strcmp(name, "dir") ||
		    !strcmp(name, "dirent")) {
			if (close - open - 1 >= (long)sizeof(path))
				return "path too long";
			snprintf(path, sizeof(path), "%.*s",
				 (int)(close - open - 1), open + 1);
		} else {
			/* The argument is itself an expression. */
			why = expr_eval(im, open + 1, close - open - 1, &a);
			if (!why && im && !strcmp(name, "file"))
				snprintf(path, sizeof(path), "%s",
					 a.s.buf ? a.s.buf : "");
			else if (!why && im && !a.isnum)
				why = "the argument is not a number";
			n = a.n;
			strbuf_free(&a.s);
			if (why)
				return why;
			if (im && !strcmp(name, "file") && path[0] != '/')
				return "no such file";
		}
	}
	nl = end - field;
	/* Is it a known fact?  (im NULL: that is all we check.) */
	if (!hasarg && !strncmp(name, "journal.", 8)) {
		if (!among(journal_fields, name + 8, strlen(name + 8)))
			return "unknown journal field";
	} else if (!hasarg && (!strcmp(name, "frag.worst") ||
			       !strcmp(name, "frag.worst.extents"))) {
		;
	} else if (!hasarg) {
		if (!among(fs_names, name, strlen(name)))
			return "unknown fact";
	} else if (!strcmp(name, "file")) {
		if (!among(file_fields, field, nl))
			return "unknown file field";
	} else if (!strcmp(name, "inode")) {
		if (!among(inode_fields, field, nl))
			return "unknown inode field";
	} else if (!strcmp(name, "trace")) {
		if (!among(trace_fields, field, nl))
			return "unknown trace field";
	} else if (!strcmp(name, "dir")) {
		if (!among(dir_fields, field, nl))
			return "unknown dir field";
	} else if (!strcmp(name, "dirent")) {
		if (!among(dirent_fields, field, nl))
			return "unknown dirent field";
	} else if (!strcmp(name, "flex")) {
		if (!among(flex_fields, field, nl))
			return "unknown flex field";
	} else if (!strcmp(name, "owner") || !strcmp(name, "ino") ||
		   among(group_names, name, strlen(name))) {
		if (nl)
			return "unexpected .field";
		if (!strcmp(name, "ino"))
			return "ino(PATH) is file(PATH).ino";
	} else {
		return "unknown fact";
	}
	if (!im)
		return NULL;
	if (!strcmp(name, "trace")) {
		snprintf(name, sizeof(name), "%.*s", (int)nl, field);
		return lab_fact_trace(im->image, path, name, f);
	}
	s = image_for(im, tag, taglen);
	if (!s || !s->fs)
		return "cannot open the image it is about";
	strbuf_reset(&f->s);
	f->isnum = 0;
	if (!strncmp(name, "journal.", 8))
		return fact_journal(s->fs, name + 8, f);
	if (!strncmp(name, "frag.worst", 10))
		return fact_worst(s, name[10] != 0, f);
	if (!strcmp(name, "file")) {
		snprintf(name, sizeof(name), "%.*s", (int)nl, field);
		return fact_file(s, path, name, f);
	}
	if (!strcmp(name, "inode")) {
		snprintf(name, sizeof(name), "%.*s", (int)nl, field);
		return fact_inode(s->fs, n, name, f);
	}
	if (!strcmp(name, "owner"))
		return fact_owner(s, n, f);
	if (!strcmp(name, "dir") || !strcmp(name, "dirent")) {
		const char *d = name[3] ? "dirent" : "dir";

		snprintf(name, sizeof(name), "%.*s", (int)nl, field);
		if (d[3])
			return lab_fact_dirent(s->fs, path, name, &f->s,
					       &f->n, &f->isnum);
		why = lab_fact_dir(s->fs, path, name, &f->n);
		if (!why)
			set_num(f, f->n);
		return why;
	}
	if (!strcmp(name, "flex")) {
		if (!strncmp(field, "islands", 7)) {
			struct e2l_flex fx;

			if (n >= flex_count(s->fs) || flex_get(s->fs, n, &fx))
				return "no such flex group";
			set_num(f, fx.nislands);
			flex_release(&fx);
			return NULL;
		}
		why = lab_flex_layout(s->fs, n, field[0] == 'p', &f->s);
		if (!why && field[0] == 'p') {
			int ok = f->s.buf && !strcmp(f->s.buf, "1");

			set_num(f, ok);
		}
		return why;
	}
	return fact_fs(s->fs, name, hasarg, n, f);
}

/* The lowest-precedence binary operator of e[0..len) outside parentheses
 * (the rightmost one: left associative), written with spaces around it. */
static const char *find_op(const char *e, size_t len, const char *ops)
{
	const char *best = NULL;
	int depth = 0, in_br = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (e[i] == '(')
			depth++;
		else if (e[i] == ')')
			depth--;
		else if (e[i] == '[')
			in_br = 1;
		else if (e[i] == ']')
			in_br = 0;
		else if (!depth && !in_br && i > 0 && i + 1 < len &&
			 e[i - 1] == ' ' && e[i + 1] == ' ' &&
			 strchr(ops, e[i]))
			best = e + i;
	}
	return best;
}

/* " == " or " != " outside parentheses and brackets, or NULL. */
static const char *find_eq(const char *e, size_t len)
{
	int depth = 0, in_br = 0;
	size_t i;

	for (i = 1; i + 3 < len; i++) {
		if (e[i] == '(')
			depth++;
		else if (e[i] == ')')
			depth--;
		else if (e[i] == '[')
			in_br = 1;
		else if (e[i] == ']')
			in_br = 0;
		else if (!depth && !in_br && e[i - 1] == ' ' &&
			 (e[i] == '=' || e[i] == '!') && e[i + 1] == '=' &&
			 e[i + 2] == ' ')
			return e + i;
	}
	return NULL;
}

/* A == B, A != B inside an expression: 1 or 0 (numbers as numbers,
 * anything else as text). */
static const char *eq_eval(struct lab_images *im, const char *e, size_t len,
			   const char *op, struct lab_fact *f)
{
	struct lab_fact r = {{0}, 0, 0};
	const char *why;
	int same;

	why = expr_eval(im, e, op - e, f);
	if (!why)
		why = expr_eval(im, op + 2, e + len - op - 2, &r);
	if (!why && im) {
		if (f->isnum && r.isnum)
			same = f->n == r.n;
		else
			same = !strcmp(f->s.buf ? f->s.buf : "",
				       r.s.buf ? r.s.buf : "");
		set_num(f, same == (*op == '='));
	}
	strbuf_free(&r.s);
	return why;
}

static const char *expr_eval(struct lab_images *im, const char *e,
			     size_t len, struct lab_fact *f)
{
	struct lab_fact r = {{0}, 0, 0};
	const char *op, *why, *end;
	unsigned long long v;

	while (len && isspace((unsigned char)*e))
		e++, len--;
	while (len && isspace((unsigned char)e[len - 1]))
		len--;
	/* ( EXPR ): a group. */
	if (len && *e == '(' && (end = closing(e)) && end == e + len - 1)
		return expr_eval(im, e + 1, len - 2, f);
	op = find_eq(e, len);
	if (op)
		return eq_eval(im, e, len, op, f);
	op = find_op(e, len, "+-");
	if (!op)
		op = find_op(e, len, "*/%");
	if (!op)
		return fact_eval(im, e, len, f);
	why = expr_eval(im, e, op - e, f);
	if (!why)
		why = expr_eval(im, op + 1, e + len - op - 1, &r);
	if (!why && im && (!f->isnum || !r.isnum))
		why = "arithmetic on something that is not a number";
	if (why || !im)
		goto out;
	switch (*op) {
	case '+': v = f->n + r.n; break;
	case '-':
		if (r.n > f->n) {
			why = "the difference is negative";
			goto out;
		}
		v = f->n - r.n;
		break;
	case '*': v = f->n * r.n; break;
	default:
		if (!r.n) {
			why = "division by zero";
			goto out;
		}
		v = *op == '/' ? f->n / r.n : f->n % r.n;
	}
	set_num(f, v);
out:
	strbuf_free(&r.s);
	return why;
}

const char *lab_fact_eval(struct lab_images *im, const char *e,
			  struct lab_fact *f)
{
	return expr_eval(im, e, strlen(e), f);
}

const char *lab_fact_known(const char *e)
{
	struct lab_fact f = {{0}, 0, 0};

	return expr_eval(NULL, e, strlen(e), &f);
}

static void quiet_write(void *c, enum sink_chan ch, const char *b, size_t n)
{
	(void)c; (void)ch; (void)b; (void)n;
}

errcode_t lab_images_open(struct lab_images *im, const struct lab *lab,
			  const char *image, struct sink *out)
{
	memset(im, 0, sizeof(*im));
	im->lab = lab;
	im->image = image;
	sink_init_cb(&im->quiet, SINK_TEXT, quiet_write, NULL);
	session_init(&im->main, out);
	session_init(&im->other, &im->quiet);
	session_init(&im->start, &im->quiet);
	return session_open(&im->main, image, 0, NULL, 0, 0);
}

void lab_images_close(struct lab_images *im)
{
	session_close(&im->start);
	session_close(&im->other);
	session_close(&im->main);
	if (im->start_path[0])
		unlink(im->start_path);
	sink_free(&im->quiet);
}

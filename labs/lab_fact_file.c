/* lab_fact_file.c - the facts of files and inodes a lab reads: a file's
 * extents, blocks, checksum and tree, an inode's place and fields, the
 * first deleted file, the worst-fragmented file. */
#include "lab_int.h"
#include "frag.h"
#include "owner.h"

#include <string.h>

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

const char *lab_fact_file(const struct lab_fact_arg *a, struct lab_fact *f)
{
	struct session *s = a->s;
	ext2_filsys fs = s->fs;
	const char *path = a->path, *field = a->field;
	struct ext2_inode inode;
	struct frag_file ff;
	unsigned long long unw, unwb;
	char sum[17];
	ext2_ino_t ino;
	blk64_t first;

	if (ext2fs_namei(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, path, &ino) ||
	    ext2fs_read_inode(fs, ino, &inode)) {
		if (!strcmp(field, "exists")) {
			lab_fact_num(f, 0);
			return NULL;
		}
		return "no such file";
	}
	if (!strcmp(field, "exists")) {
		lab_fact_num(f, 1);
	} else if (!strcmp(field, "ino")) {
		lab_fact_num(f, ino);
	} else if (!strcmp(field, "size")) {
		lab_fact_num(f, EXT2_I_SIZE(&inode));
	} else if (!strcmp(field, "allocated")) {
		/* i_blocks: whole clusters under bigalloc */
		lab_fact_num(f, ext2fs_get_stat_i_blocks(fs, &inode) /
			     (fs->blocksize / 512));
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
			lab_fact_num(f, ext2fs_le16_to_cpu(eh->eh_depth));
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
		lab_fact_num(f, nleaf);
	} else if (!strcmp(field, "extents") || !strcmp(field, "blocks")) {
		if (frag_file_get(s, ino, &ff))
			return "cannot read its blocks";
		lab_fact_num(f, field[0] == 'e' ? ff.extents : ff.blocks);
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
			lab_fact_num(f, ff.blocks > unwb ? ff.blocks - unwb : 0);
		} else if (!strcmp(field, "unwritten_blocks")) {
			lab_fact_num(f, unwb);
		} else {
			lab_fact_num(f, field[0] == 'u' ? unw : field[0] == 'f' ?
				first : ext2fs_group_of_blk2(fs, first));
		}
	} else {
		return "unknown file field";
	}
	return NULL;
}

const char *lab_fact_inode(const struct lab_fact_arg *a, struct lab_fact *f)
{
	ext2_filsys fs = a->s->fs;
	unsigned long long ino = a->n;
	const char *field = a->field;
	unsigned long long idx, off;
	struct ext2_inode inode;
	dgrp_t g;

	if (!ino || ino > fs->super->s_inodes_count)
		return "no such inode";
	g = (ino - 1) / fs->super->s_inodes_per_group;
	idx = (ino - 1) % fs->super->s_inodes_per_group;
	off = idx * EXT2_INODE_SIZE(fs->super);
	if (!strcmp(field, "group")) {
		lab_fact_num(f, g);
	} else if (!strcmp(field, "table_block")) {
		lab_fact_num(f, ext2fs_inode_table_loc(fs, g) + off / fs->blocksize);
	} else if (!strcmp(field, "offset")) {
		lab_fact_num(f, off % fs->blocksize);
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
		   !strcmp(field, "generation") || !strcmp(field, "dtime") ||
		   !strcmp(field, "ctime")) {
		if (ext2fs_read_inode(fs, ino, &inode))
			return "cannot read the inode";
		lab_fact_num(f, field[0] == 'l' ? inode.i_links_count :
			field[0] == 's' ? EXT2_I_SIZE(&inode) :
			field[0] == 'd' ? inode.i_dtime :
			field[0] == 'c' ? inode.i_ctime : inode.i_generation);
	} else {
		return "unknown inode field";
	}
	return NULL;
}

/* deleted: the first inode of a deleted regular file (links 0, dtime
 * set, its mode kept), 0 when there is none. */
const char *lab_fact_deleted(const struct lab_fact_arg *a,
			     struct lab_fact *f)
{
	ext2_filsys fs = a->s->fs;
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
	lab_fact_num(f, found);
	return NULL;
}

const char *lab_fact_worst(const struct lab_fact_arg *a, struct lab_fact *f)
{
	struct session *s = a->s;
	ext2_filsys fs = s->fs;
	int extents = *a->field != 0;
	struct frag_files ff;
	char *name = NULL;
	ext2_ino_t dir = 0;

	if (frag_files_get(s, 1, &ff))
		return "cannot measure fragmentation";
	strbuf_reset(&f->s);
	f->isnum = 0;
	if (extents) {
		lab_fact_num(f, ff.nworst ? ff.worst[0].extents : 0);
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

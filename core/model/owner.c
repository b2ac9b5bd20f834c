/* owner.c - the block ownership index (see owner.h): group metadata and the
 * special inodes are placed at once, file runs come from the inode scan
 * (owner_scan.c), free and unowned space from the block bitmap.  Queries
 * are binary searches plus bitmap range searches. */
#include "owner_int.h"
#include "fs_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name, *key;
	char letter;
} classes[OWN_CLASS_MAX] = {
	[OWN_FREE] = {"free", "free", '.'},
	[OWN_UNINIT] = {"free (uninit group)", "uninit", '_'},
	[OWN_SUPER] = {"superblock", "super", 'S'},
	[OWN_GDT] = {"group descriptors", "gdt", 'G'},
	[OWN_RSV_GDT] = {"reserved GDT", "rsv_gdt", 'R'},
	[OWN_BBITMAP] = {"block bitmap", "bbitmap", 'b'},
	[OWN_IBITMAP] = {"inode bitmap", "ibitmap", 'i'},
	[OWN_ITABLE] = {"inode table", "itable", 'I'},
	[OWN_JOURNAL] = {"journal", "journal", 'J'},
	[OWN_MAPPING] = {"mapping", "mapping", 'M'},
	[OWN_FILE] = {"file data", "file", 'F'},
	[OWN_DIR] = {"directory", "dir", 'D'},
	[OWN_XATTR] = {"xattr block", "xattr", 'X'},
	[OWN_OTHER] = {"other metadata", "other", 'O'},
	[OWN_UNKNOWN] = {"used, owner unknown", "unknown", '?'},
};

const char *owner_class_name(enum owner_class cls)
{
	return cls < OWN_CLASS_MAX ? classes[cls].name : "?";
}

const char *owner_class_key(enum owner_class cls)
{
	return cls < OWN_CLASS_MAX ? classes[cls].key : "?";
}

char owner_class_letter(enum owner_class cls)
{
	return cls < OWN_CLASS_MAX ? classes[cls].letter : '?';
}

enum owner_class owner_class_from_key(const char *key)
{
	int i;

	for (i = 0; i < OWN_CLASS_MAX; i++)
		if (!strcmp(classes[i].key, key))
			return i;
	return OWN_CLASS_MAX;
}

/* Blocks per group served by one run unit of a mergeable class. */
blk64_t owner_group_unit(ext2_filsys fs, int cls)
{
	if (cls == OWN_BBITMAP || cls == OWN_IBITMAP)
		return 1;
	if (cls == OWN_ITABLE)
		return fs->inode_blocks_per_group ? fs->inode_blocks_per_group
						  : 1;
	return 0;
}

static errcode_t meta_add(ext2_filsys fs, struct orun_vec *v, blk64_t start,
			  blk64_t len, int cls, dgrp_t grp)
{
	blk64_t total = ext2fs_blocks_count(fs->super);
	struct orun r = {0};

	if (!len || start >= total)
		return 0;
	if (len > total - start)
		len = total - start;
	orun_set_start(&r, start);
	r.len = len;
	r.cls = cls;
	r.ino = grp;
	return orun_push(v, &r);
}

static errcode_t meta_groups(ext2_filsys fs, struct orun_vec *v)
{
	struct ext2_super_block *sb = fs->super;
	blk64_t super, old_desc, new_desc, gdt;
	errcode_t err = 0;
	dgrp_t g;

	for (g = 0; g < fs->group_desc_count && !err; g++) {
		ext2fs_super_and_bgd_loc2(fs, g, &super, &old_desc, &new_desc,
					  NULL);
		if (g == 0 && super > 0)	/* the boot block of 1k fs */
			err = meta_add(fs, v, 0, super, OWN_SUPER, 0);
		if (super || g == 0)
			err = err ? err : meta_add(fs, v, super, 1,
						   OWN_SUPER, g);
		if (old_desc) {
			gdt = fs->desc_blocks;
			if (ext2fs_has_feature_meta_bg(sb) &&
			    sb->s_first_meta_bg < gdt)
				gdt = sb->s_first_meta_bg;
			err = err ? err : meta_add(fs, v, old_desc, gdt,
						   OWN_GDT, g);
			if (!ext2fs_has_feature_meta_bg(sb))
				err = err ? err : meta_add(fs, v,
					old_desc + gdt,
					sb->s_reserved_gdt_blocks,
					OWN_RSV_GDT, g);
		}
		if (new_desc)
			err = err ? err : meta_add(fs, v, new_desc, 1,
						   OWN_GDT, g);
		err = err ? err : meta_add(fs, v,
			ext2fs_block_bitmap_loc(fs, g), 1, OWN_BBITMAP, g);
		err = err ? err : meta_add(fs, v,
			ext2fs_inode_bitmap_loc(fs, g), 1, OWN_IBITMAP, g);
		err = err ? err : meta_add(fs, v,
			ext2fs_inode_table_loc(fs, g),
			fs->inode_blocks_per_group, OWN_ITABLE, g);
	}
	if (!err && ext2fs_has_feature_mmp(sb) && sb->s_mmp_block)
		err = meta_add(fs, v, sb->s_mmp_block, 1, OWN_OTHER, 0);
	return err;
}

/* The special inodes: journal, bad blocks, quota, orphan file, resize. */
static errcode_t meta_inodes(ext2_filsys fs, struct owner_index *idx)
{
	struct ext2_super_block *sb = fs->super;
	struct ext2_inode inode;
	struct owalk w;
	ext2_ino_t ino, last = EXT2_FIRST_INODE(sb);
	ext2_ino_t extra[4] = {sb->s_journal_inum, sb->s_usr_quota_inum,
			       sb->s_grp_quota_inum, sb->s_prj_quota_inum};
	struct orun r = {0};
	int i;

	memset(&w, 0, sizeof(w));
	w.fs = fs;
	w.out = &idx->meta;
	for (i = -(int)last; i < 5; i++) {
		ino = i < 0 ? (ext2_ino_t)(i + (int)last) :
		      i < 4 ? extra[i] : sb->s_orphan_file_inum;
		if (!ino || ino == EXT2_ROOT_INO ||
		    ino > sb->s_inodes_count ||
		    (i >= 0 && ino < last))	/* done in the first pass */
			continue;
		if (ext2fs_read_inode(fs, ino, &inode)) {
			idx->bad_inodes++;
			continue;
		}
		if (ino == EXT2_RESIZE_INO) {
			/* Its data are the reserved GDT blocks (placed
			 * above); only its double-indirect block is its own. */
			blk64_t b = inode.i_block[EXT2_DIND_BLOCK];

			if (b && b < ext2fs_blocks_count(sb)) {
				orun_set_start(&r, b);
				r.len = 1;
				r.cls = OWN_OTHER;
				r.ino = ino;
				if (orun_push(&idx->meta, &r))
					return ENOMEM;
			}
			continue;
		}
		if (ino != EXT2_BAD_INO && !inode.i_links_count)
			continue;
		owalk_inode(&w, ino, &inode, ino == sb->s_journal_inum &&
			    ext2fs_has_feature_journal(sb) ? OWN_JOURNAL :
			    OWN_OTHER);
		if (w.err)
			return w.err;
		if (w.bad)
			idx->bad_inodes++;
	}
	return 0;
}

/* Merges neighbouring group-metadata runs of one class (flex_bg packs the
 * bitmaps and inode tables of consecutive groups back to back). */
static void meta_merge(ext2_filsys fs, struct orun_vec *v)
{
	size_t i, o = 0;

	for (i = 0; i < v->n; i++) {
		struct orun *p = o ? &v->v[o - 1] : NULL, *c = &v->v[i];
		blk64_t unit = owner_group_unit(fs, c->cls);

		if (p && unit && p->cls == c->cls && orun_end(p) ==
		    orun_start(c) && p->len % unit == 0 &&
		    (blk64_t)p->ino + p->len / unit == c->ino &&
		    (blk64_t)p->len + c->len <= UINT32_MAX) {
			p->len += c->len;
			continue;
		}
		v->v[o++] = *c;
	}
	v->n = o;
}

/*
 * Inode-table blocks per read of the scan: a whole group's table where it
 * fits in 4 MiB (the scan never reads across groups), instead of
 * libext2fs's default of 8 blocks: far fewer reads, and a cold cache sees
 * large sequential requests.
 */
static int scan_buffer_blocks(ext2_filsys fs)
{
	unsigned max = (4U << 20) / fs->blocksize;
	unsigned n = fs->inode_blocks_per_group;

	if (n < 8)
		n = 8;
	return n < max ? n : max;
}

#define OWNER_TOP_KEEP 1024	/* worst files the session's index keeps */

errcode_t owner_idx_open(ext2_filsys fs, const char *device,
			 enum owner_keep keep, size_t topmax,
			 struct owner_index **out)
{
	struct owner_index *idx;
	errcode_t err;

	*out = NULL;
	if (keep != OKEEP_NONE &&
	    ext2fs_blocks_count(fs->super) >> FRUN_START_BITS)
		return EOVERFLOW;	/* beyond the compact runs' reach */
	idx = calloc(1, sizeof(*idx));
	if (!idx)
		return ENOMEM;
	idx->rafd = -1;
	idx->keep = keep;
	/* the session's index sorts its runs a range of blocks at a time;
	 * the others keep the order of the scan */
	fpack_init(&idx->files, ext2fs_blocks_count(fs->super),
		   keep == OKEEP_ALL ? FPACK_BUCKETS : 1);
	idx->topmax = topmax;
	err = meta_groups(fs, &idx->meta);
	if (!err)
		err = meta_inodes(fs, idx);
	if (err)
		goto out;
	orun_sort(&idx->meta);
	meta_merge(fs, &idx->meta);
	err = orun_index(&idx->meta);
	if (err)
		goto out;
	idx->inode_buf = malloc(EXT2_INODE_SIZE(fs->super));
	if (!idx->inode_buf) {
		err = ENOMEM;
		goto out;
	}
	err = ext2fs_open_inode_scan(fs, scan_buffer_blocks(fs), &idx->scan);
	if (err)
		goto out;
	ext2fs_inode_scan_flags(idx->scan, EXT2_SF_SKIP_MISSING_ITABLE, 0);
	/* readahead of the inode tables goes through a descriptor of our
	 * own: the page cache is the same */
	idx->rafd = fs_probe_readahead_fd(fs, device);
	*out = idx;
	return 0;
out:
	owner_index_free(idx);
	return err;
}

errcode_t owner_scan_begin(struct session *s)
{
	struct owner_bits *bits;
	errcode_t err;

	if (!s->fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS;
	if (s->owners)
		return 0;
	/* the bitmap read from the disk a group at a time where it can be;
	 * one that fails there is loaded for its error */
	/* the groups' summaries only where the bitmaps cannot change under
	 * later reads: not mounted (a live view or not) */
	if (!owner_bits_usable(s) ||
	    owner_bits_open(s->fs, !s->live &&
			    !(s->mount_flags & EXT2_MF_MOUNTED), &bits)) {
		bits = NULL;
		err = session_need(s, NEED_BLOCK_BITMAP);
		if (err)
			return err;
	}
	err = owner_idx_open(s->fs, s->device, OKEEP_ALL, OWNER_TOP_KEEP,
			     &s->owners);
	if (err) {
		owner_bits_free(bits);
		return err;
	}
	s->owners->bits = bits;
	return 0;
}

int owner_bitmap_from_disk(struct session *s)
{
	if (!s->fs)
		return 0;
	if (!s->owners && (!owner_bits_usable(s) || owner_scan_begin(s)))
		return 0;
	return s->owners->bits && !s->fs->block_map;
}

double owner_scan_progress(const struct session *s)
{
	const struct owner_index *idx = s->owners;
	const struct ext2_super_block *sb;
	double p, q;

	if (!idx || !s->fs)
		return 0;
	if (idx->complete)
		return 1;
	sb = s->fs->super;
	/* the in-use inodes walked, of those the superblock counts (lazy
	 * inode tables make the inode number a poor measure); the inode
	 * number when the count is implausible */
	p = (double)idx->last_ino / sb->s_inodes_count;
	if (sb->s_free_inodes_count < sb->s_inodes_count) {
		q = (double)idx->walked / (sb->s_inodes_count -
					   sb->s_free_inodes_count);
		if (q <= 1)
			p = q;
	}
	return p < 0.99 ? p : 0.99;
}

unsigned long owner_scan_files(const struct session *s)
{
	return s->owners ? s->owners->walked : 0;
}

errcode_t owner_index_build(struct session *s)
{
	errcode_t err;
	int done = 0;

	while (!done) {
		err = owner_scan_step(s, 65536, &done);
		if (err)
			return err;
	}
	return 0;
}

int owner_index_complete(const struct session *s)
{
	return s->owners && s->owners->complete;
}

unsigned long owner_bad_inodes(const struct session *s)
{
	return s->owners ? s->owners->bad_inodes : 0;
}

unsigned long owner_absent_inodes(const struct session *s)
{
	return s->owners ? s->owners->absent_inodes : 0;
}

static void readahead_dirs(struct session *s,
			   const struct owner_index *idx);

/* Scans keeping only directory runs (for readahead before the path walk),
 * remembering the top worst files. */
static errcode_t frag_scan(struct session *s, size_t top,
			   struct owner_index **out)
{
	struct owner_index *idx;
	errcode_t err;
	int done = 0;

	/* no bitmap: the scan keeps counts and directory runs only */
	err = owner_idx_open(s->fs, s->device, OKEEP_DIRS, top, &idx);
	while (!err && !done)
		err = owner_idx_step(s->fs, idx, 65536, &done);
	if (err) {
		owner_index_free(idx);
		return err;
	}
	*out = idx;
	return 0;
}

errcode_t owner_frag_get(struct session *s, size_t top, int readahead,
			 struct owner_frag *out)
{
	struct owner_index *idx = s->owners, *own = NULL;
	errcode_t err;

	memset(out, 0, sizeof(*out));
	if (!s->fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS;
	if (!idx || !idx->complete || top > idx->topmax) {
		err = frag_scan(s, top, &own);
		if (err)
			return err;
		idx = own;
	}
	out->st = idx->fstats;
	out->bad_inodes = idx->bad_inodes;
	owner_top_trim(idx);
	out->n = idx->nfrag < top ? idx->nfrag : top;
	if (out->n && own) {
		/* the scan's own buffer, about to be freed: taken, not copied
		 * (10,000 files were a quarter MiB copied into fresh pages) */
		out->files = idx->frag;
		idx->frag = NULL;
	} else if (out->n) {
		out->files = malloc(idx->nfrag * sizeof(*out->files));
		if (!out->files) {
			owner_index_free(own);
			return ENOMEM;
		}
		memcpy(out->files, idx->frag, idx->nfrag * sizeof(*idx->frag));
	}
	if (out->n)
		owner_top_sort(out->files, idx->nfrag);
	if (readahead)
		readahead_dirs(s, idx);
	owner_index_free(own);
	return 0;
}

errcode_t owner_class_counts_quick(struct session *s, blk64_t first,
				   blk64_t count,
				   blk64_t counts[OWN_CLASS_MAX])
{
	ext2_filsys fs = s->fs;
	blk64_t total, end, gfirst, glast, a, b, len, gsize, freeb, f;
	dgrp_t g;

	if (!fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS;
	if (s->owners)
		return owner_cell_counts(s, first, count, counts);
	total = ext2fs_blocks_count(fs->super);
	end = first + count;
	if (end < first || end > total)
		end = total;
	if (first < fs->super->s_first_data_block) {
		b = end < fs->super->s_first_data_block ? end :
		    fs->super->s_first_data_block;
		if (b > first)
			counts[OWN_SUPER] += b - first;	/* the boot block */
		first = b;
	}
	while (first < end) {
		g = ext2fs_group_of_blk2(fs, first);
		gfirst = ext2fs_group_first_block2(fs, g);
		glast = ext2fs_group_last_block2(fs, g);
		a = first;
		b = glast + 1 < end ? glast + 1 : end;
		len = b - a;
		gsize = glast - gfirst + 1;
		freeb = (blk64_t)ext2fs_bg_free_blocks_count(fs, g) *
			EXT2FS_CLUSTER_RATIO(fs);
		if (freeb > gsize)
			freeb = gsize;
		/* the group's share of free blocks in [a, b) */
		f = len == gsize ? freeb :
		    (blk64_t)((double)freeb * len / gsize + 0.5);
		if (f > len)
			f = len;
		counts[ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT) ?
		       OWN_UNINIT : OWN_FREE] += f;
		counts[OWN_UNKNOWN] += len - f;
		first = b;
	}
	return 0;
}

errcode_t owner_class_counts_row(struct session *s, blk64_t first,
				 blk64_t bpc, blk64_t end, int n,
				 blk64_t (*counts)[OWN_CLASS_MAX])
{
	errcode_t err;
	blk64_t a, b;
	int k;

	if (!s->fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS;
	if (s->owners)
		return owner_cells_row(s, first, bpc, end, n, counts);
	for (k = 0, a = first; k < n && a < end; k++, a = b) {
		b = end - a < bpc ? end : a + bpc;
		memset(counts[k], 0, sizeof(counts[k]));
		err = owner_class_counts_quick(s, a, b - a, counts[k]);
		if (err)
			return err;
	}
	return 0;
}

/* Asks for the directory blocks idx knows (up to 64 MiB, owner_dirs.c). */
static void readahead_dirs(struct session *s, const struct owner_index *idx)
{
	if (idx->complete)
		owner_dirs_ask_files(s->fs, s->device, idx);
}

void owner_readahead_dirs(struct session *s)
{
	if (s->owners)
		readahead_dirs(s, s->owners);
}

void owner_index_free(struct owner_index *idx)
{
	if (!idx)
		return;
	if (idx->scan)
		ext2fs_close_inode_scan(idx->scan);
	if (idx->rafd >= 0)
		close(idx->rafd);
	free(idx->inode_buf);
	free(idx->defer_buf);
	free(idx->defer_ino);
	free(idx->probe_found);
	free(idx->pgroup);
	free(idx->pbits);
	owner_dirs_free(idx);
	owner_bits_free(idx->bits);
	free(idx->meta.v);
	free(idx->meta.maxend);
	fpack_free(&idx->files);
	free(idx->frag);
	free(idx);
}

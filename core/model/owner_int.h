/* owner_int.h - internals shared by owner.c, owner_query.c, owner_scan.c,
 * owner_claims.c and model/owner_*.c: the run records (wide for metadata,
 * 12 bytes for file runs) and the index structure. */
#ifndef E2L_OWNER_INT_H
#define E2L_OWNER_INT_H

#include "owner.h"

#include <stddef.h>
#include <stdint.h>

/*
 * A wide run: 20 bytes (the metadata vector, and every run while it is
 * walked).  start is 48 bits (2^48 blocks is beyond any
 * ext4 filesystem), len 32 bits (runs are split at 2^32-1).  For group
 * metadata classes, ino holds the first group the run serves.
 */
struct orun {
	uint32_t start_lo;
	uint16_t start_hi;
	uint8_t cls;
	uint8_t pad;
	uint32_t len;
	uint32_t ino;
	uint32_t lblk;
};

static inline blk64_t orun_start(const struct orun *r)
{
	return ((blk64_t)r->start_hi << 32) | r->start_lo;
}

static inline blk64_t orun_end(const struct orun *r)
{
	return orun_start(r) + r->len;
}

static inline void orun_set_start(struct orun *r, blk64_t b)
{
	r->start_lo = (uint32_t)b;
	r->start_hi = (uint16_t)(b >> 32);
}

struct orun_vec {
	struct orun *v;
	size_t n, cap;
	/* set by orun_index: NULL when no run starts inside an earlier one,
	 * else maxend[i] is the furthest end of v[0..i] (runs overlap: a
	 * damaged image's metadata over other metadata), which orun_find
	 * searches */
	blk64_t *maxend;
};

/*
 * A file run as the scan stores it: 12 bytes, so that the index costs
 * 12 bytes per extent.  start is 44 bits (w's bits 15-26 over start_lo;
 * 2^44 blocks is 64 PiB at 4 KiB), the class one of the four a scanned
 * inode can have (w's top 2 bits, in the order of enum owner_class), len
 * 15 bits as len - 1 (w's bits 0-14): longer runs are stored as several
 * (an extent is at most 32768).  The logical block is w's bits 27-29 when
 * it is below FRUN_LBLK_ESC, else in the vector's table of the rest
 * (frun_unpack looks it up there).
 */
struct frun {
	uint32_t start_lo;
	uint32_t ino;
	uint32_t w;
};

#define FRUN_MAX_LEN 32768U
#define FRUN_START_BITS 44
#define FRUN_LBLK_ESC 7U

/* A logical block that does not fit in its run, found by its run's key. */
struct frun_lblk {
	uint32_t ino;
	uint32_t start_lo;
	uint32_t w;		/* the run's w, its lblk bits FRUN_LBLK_ESC */
	uint32_t lblk;
};

struct frun_vec {
	struct frun *v;
	size_t n, cap;
	int overlap;	/* set by frun_sort: a run starts inside an earlier
			   one (cross-links), frun_find looks back */
	struct frun_lblk *lx;	/* the logical blocks >= FRUN_LBLK_ESC */
	size_t nlx, caplx;
	int lx_unsorted;	/* appended out of order: searched linearly
				   until frun_lblk_sort */
};

static inline blk64_t frun_start(const struct frun *r)
{
	return ((blk64_t)((r->w >> 15) & 0xfff) << 32) | r->start_lo;
}

static inline blk64_t frun_len(const struct frun *r)
{
	return (r->w & 0x7fff) + 1;
}

static inline blk64_t frun_end(const struct frun *r)
{
	return frun_start(r) + frun_len(r);
}

/* The class a stored run's 2-bit code stands for (the four a scanned
 * inode's runs can have, in the order of enum owner_class), and back: -1
 * for a class without a code.  The 12-byte and the packed runs share it. */
_Static_assert(OWN_FILE == OWN_MAPPING + 1 && OWN_DIR == OWN_MAPPING + 2 &&
	       OWN_XATTR == OWN_MAPPING + 3, "the four run classes in a row");

static inline int frun_code_cls(unsigned code)
{
	return OWN_MAPPING + (int)(code & 3);
}

static inline int frun_cls_code(int cls)
{
	return cls >= OWN_MAPPING && cls <= OWN_XATTR ? cls - OWN_MAPPING
						      : -1;
}

/* The class of a stored run. */
static inline int frun_cls(const struct frun *r)
{
	return frun_code_cls(r->w >> 30);
}

/* The stored run r of v as a wide one (for the query code). */
void frun_unpack(const struct frun_vec *v, const struct frun *r,
		 struct orun *out);
/* Sorts v's table of logical blocks (any time: it is in its own order),
 * so that frun_unpack searches it by halves. */
void frun_lblk_sort(struct frun_vec *v);
/* Appends r, cut into pieces of at most FRUN_MAX_LEN blocks; EOVERFLOW
 * for a class or a start the format cannot hold. */
errcode_t frun_push(struct frun_vec *vec, const struct orun *r);
/* Sorts in place (no second copy) by (start, ino, class, len, lblk), drops
 * exact duplicates as orun_sort does and gives memory back. */
void frun_sort(struct frun_vec *vec);
/* frun_sort's order, no duplicate dropped (for a merge that drops them as
 * a sort of everything merged would: two shared-xattr runs of one block
 * apart in that order are both kept, beside each other here they are not) */
void frun_order(struct frun_vec *vec);
/* Index of the first run of v (sorted) over pos when one is (every run
 * before it ends at pos or before), else of the first run after pos. */
size_t frun_find(const struct frun_vec *v, blk64_t pos);

errcode_t orun_push(struct orun_vec *vec, const struct orun *r);
void orun_sort(struct orun_vec *vec);
/* After the last change to the sorted v: notes whether runs overlap, and
 * then the furthest ends orun_find needs (ENOMEM when they cannot be
 * kept).  The caller frees v->maxend with v->v. */
errcode_t orun_index(struct orun_vec *v);
/* Index of the first run of v (sorted, then orun_index) over pos when one
 * is (every run before it ends at pos or before), else of the first run
 * after pos: it holds pos when its start is at most pos.  Logarithmic,
 * overlapping runs or not. */
size_t orun_find(const struct orun_vec *v, blk64_t pos);
/* The part [a, b) of stored run r as a query answer (group metadata: the
 * group served by a; file data: the logical block of a). */
void orun_to_run(ext2_filsys fs, const struct orun *r, blk64_t a, blk64_t b,
		 struct owner_run *out);

/*
 * The scan's file runs, packed (owner_pack*.c).  While the scan pushes
 * them: blocks of at most FPACK_BLK delta-coded runs in pages, one list a
 * bucket of 2^shift blocks, in the order pushed (a few below the bucket's
 * last kept aside, with several buckets), each block with its first run's
 * start and inode and the furthest end of every run up to its last.
 * Sorted (fpack_sort, on first query): a segment a bucket, in turn, each
 * its blocks sorted (a bucket pushed in order: its own blocks as they
 * are; one with strays: merged with them), searched by halves.
 */
#define FPACK_PAGE 4096		/* bytes a page takes (one malloc) */
#define FPACK_RUN_MAX 24	/* bytes a coded run takes at most */
#define FPACK_BLK 64		/* runs a block holds at most */
#define FPACK_BUCKETS 256	/* buckets the pushes are split into */

struct fpage {
	struct fpage *next;
	uint32_t used;
	uint8_t b[];
};

#define FPACK_PAGE_DATA (FPACK_PAGE - offsetof(struct fpage, b))

struct fprev {
	blk64_t end;
	uint32_t ino;
	uint32_t lnext;		/* the logical block after the last run */
};

struct fblk {
	blk64_t start;		/* its first run's */
	blk64_t maxend;		/* the furthest end of its runs and all before */
	const struct fpage *page;
	uint16_t off;		/* in page->b */
	uint16_t n;
	uint32_t ino;		/* its first run's */
};

/* A bucket's runs are coded in blocks as the sorted ones are, so that a
 * bucket pushed in order becomes sorted blocks as it is (its maxends and
 * overlap its own until the sort adds the buckets before it); a block's
 * runs are coded together, once pushed (one loop, its state in
 * registers, instead of a call's worth of loads and stores a run). */
/* A run pushed and not yet coded (a bucket codes FPACK_BLK at once). */
struct fstage {
	blk64_t start;
	uint32_t len, ino, lblk;
	uint8_t code;
};

struct fbucket {
	struct fpage *head, *tail;
	struct fstage *st;	/* the runs after its blocks, coded into the
				   next block once FPACK_BLK of them wait */
	unsigned nst;
	size_t n;
	blk64_t last;		/* the last run's start */
	int mixed;		/* a run pushed at or before the last's start:
				   the bucket needs the sort */
	int overlap;		/* a run started inside an earlier one */
	blk64_t maxend;		/* the furthest end of its runs */
	struct fblk *blk;	/* its blocks, in its pages */
	size_t nblk, capblk;
	/* the runs pushed at or before the last's start while they are few
	 * (FPACK_STRAY_PART of the bucket), the blocks staying in order: the
	 * sort merges them in instead of sorting the bucket */
	struct frun_vec stray;
};

#define FPACK_STRAY_PART 16	/* one run in this many may stray */

/* Sorted blocks, a bucket's: the sorted index is its buckets' in turn. */
struct fseg {
	struct fblk *blk;
	size_t n;
};

struct fpack {
	size_t n;		/* runs pushed, or after the sort kept */
	int sorted;
	int overlap;		/* sorted: a run starts inside an earlier one
				   (cross-links) */
	errcode_t err;		/* the sort failed (ENOMEM): the runs lost */
	int nb;			/* buckets */
	unsigned shift;
	int strays;		/* runs out of order kept aside (the session's
				   index: fpack_each's order is not its own) */
	struct fbucket b[FPACK_BUCKETS];
	struct fseg seg[FPACK_BUCKETS];	/* sorted: nseg, in pages */
	int nseg;
	struct fpage *pages;
};

/* The runs of a sorted fpack from one position on (it.v set by the caller,
 * then fpack_at); it.r is the current run while it.ok. */
struct fpack_it {
	const struct fpack *v;
	struct orun r;
	int ok;
	int s;			/* its block: seg[s].blk[b] */
	size_t b;
	unsigned left;		/* runs of the block after r */
	const uint8_t *p;
	struct fprev pv;
};

/* An empty index for a filesystem of blocks blocks, pushes split into
 * nbuckets by block range (1: kept in the order pushed). */
void fpack_init(struct fpack *v, blk64_t blocks, int nbuckets);
/* Appends r, cut into pieces of at most FRUN_MAX_LEN blocks, as frun_push
 * (EOVERFLOW as it); after a sort, the runs go back to the buckets and
 * the next fpack_sort sorts them all again. */
errcode_t fpack_push(struct fpack *v, const struct orun *r);
/* Sorts as frun_sort does (its order, its duplicates dropped), a bucket at
 * a time; ENOMEM (the runs lost: v->err). */
errcode_t fpack_sort(struct fpack *v);
/* Every run of v, sorted or not (not: bucket by bucket, each in the order
 * pushed, with several buckets the runs kept aside last), until fn returns
 * nonzero. */
errcode_t fpack_each(const struct fpack *v,
		     int (*fn)(const struct orun *r, void *arg), void *arg);
/* Positions it (sorted) at the first run over pos when one is (every run
 * before it ends at pos or before), else at the first run after pos, as
 * frun_find; !it->ok when there is none. */
void fpack_at(struct fpack_it *it, blk64_t pos);
/* fpack_at for a pos at or after the one it was positioned for (by
 * fpack_at or fpack_seek): a few steps on when the answer is in its block,
 * else the search. */
void fpack_seek(struct fpack_it *it, blk64_t pos);
void fpack_next(struct fpack_it *it);
/* A gap between runs, [a, b), for fpack_count's caller to count. */
typedef errcode_t (*fpack_gap_fn)(void *arg, blk64_t a, blk64_t b,
				  blk64_t *counts);
/* The map cells' inner loop over [pos, lim), where no metadata run lies:
 * each block the first run over it owns (the queries' answer) added to
 * counts[that run's class], each stretch no run covers handed to gap;
 * it (sorted, positioned by fpack_at at or before pos) moves on only past
 * runs ending by the last block counted, as fpack_next would. */
errcode_t fpack_count(struct fpack_it *it, blk64_t pos, blk64_t lim,
		      blk64_t *counts, fpack_gap_fn gap, void *arg);
void fpack_free(struct fpack *v);

struct owner_index;

/* Per-inode accumulation while walking one inode. */
struct owalk {
	ext2_filsys fs;
	struct orun_vec *out;		/* where runs go (wide)... */
	struct owner_index *idx;	/* ...or the scan's: owner_keep_run */
	ext2_ino_t ino;
	enum owner_class data_cls;
	struct orun cur;		/* pending run, cur.len == 0: none */
	blk64_t data_blocks, extents, longest, cur_ext, phys_end;
	blk64_t steps, max_steps;
	int bad;
	int absent;			/* its map needs blocks a metadata-only
					   e2image file does not hold */
	errcode_t err;			/* allocation failure */
};

/* Walks the blocks of one inode into w->out (merging runs). */
void owalk_inode(struct owalk *w, ext2_ino_t ino, struct ext2_inode *inode,
		 enum owner_class cls);
/* Reads inode ino and walks it into v (counts in *w; w->err set on a
 * failure while walking).  cls OWN_CLASS_MAX: the class its mode calls for. */
errcode_t owalk_read(ext2_filsys fs, ext2_ino_t ino, enum owner_class cls,
		     struct owalk *w, struct orun_vec *v);
/* Flushes the pending run. */
void owalk_flush(struct owalk *w);
/* ext2fs_block_iterate3's callback: adds one mapped block (or, with
 * blockcnt < 0, one indirect block) to the walk in priv. */
int owalk_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		blk64_t ref_blk, int ref_offset, void *priv);
/* In a metadata-only e2image file: walks what i_block holds of inode's
 * map and marks the rest absent; returns 0 (nothing done) when the whole
 * map is in the inode and the normal walk can read it. */
int owalk_image(struct owalk *w, struct ext2_inode *inode);

/* What a scan keeps of the runs it walks. */
enum owner_keep {
	OKEEP_ALL = 0,		/* every run: the session's index */
	OKEEP_NONE,		/* none: per-file counts only (frag) */
	OKEEP_PROBE,		/* those touching the probe ranges (owner B) */
	OKEEP_DIRS,		/* directory runs, up to OKEEP_DIRS_MAX (frag:
				   read ahead before the path walk) */
};

#define OKEEP_DIRS_MAX 65536	/* 1 MiB of runs */

/* A range of blocks a probe scan keeps the runs of (sorted, disjoint). */
struct owner_probe {
	blk64_t start, end;
};

struct owner_index {
	struct orun_vec meta;		/* group metadata + special inodes */
	struct fpack files;		/* the scan's runs, sorted on first use */
	enum owner_keep keep;
	const struct owner_probe *probe;	/* OKEEP_PROBE */
	size_t nprobe;
	/* a probe scan that may stop early (one block a range): which ranges
	 * a kept run already covers, and how many do not yet; NULL: the scan
	 * reads every inode */
	unsigned char *probe_found;
	size_t probe_left;
	/* a bit per 2^probe_shift blocks, set where a probe range lies: most
	 * runs touch none, told without a search (owner_probe.c) */
	const uint64_t *probe_map;
	unsigned probe_shift;
	/* a probe on a session whose block bitmap is not loaded: the block
	 * bitmaps of the probed groups only, pgroup[0..npgroup) sorted, each
	 * bitmap_group_bytes() of pbits (owner_probe.c); npgroup 0: the
	 * queries read fs->block_map */
	dgrp_t *pgroup;
	unsigned char *pbits;
	size_t npgroup;
	/* the session's index built without the bitmap loaded: its bits read
	 * from the disk a group at a time (owner_bits.c), while
	 * fs->block_map is NULL; a loaded bitmap is always read instead */
	struct owner_bits *bits;
	/* a probe scan in an order of its own (owner_probe.c): the groups
	 * whose inodes it reads, porder[0..nporder), porder[porder_at] the
	 * one being read; NULL: inode order */
	const dgrp_t *porder;
	size_t nporder, porder_at;
	ext2_inode_scan scan;
	char *inode_buf;
	int complete;
	ext2_ino_t last_ino;
	unsigned long walked;		/* in-use inodes walked so far */
	unsigned long bad_inodes;
	unsigned long scan_errors;	/* unreadable inode-table blocks */
	/* a metadata-only e2image file: inodes read by number (the inode
	 * scan reads where the filesystem keeps its tables); the next one,
	 * and the inodes whose maps the image does not hold */
	ext2_ino_t image_next;
	unsigned long absent_inodes;
	struct owner_fstats fstats;
	/* the worst fragmented files (owner_top.c): at most 2 * topmax in
	 * frag[0..nfrag) of fragcap, in no order, the topmax worst among
	 * them; with have_cut, a file no worse than frag_cut is not kept */
	struct owner_filefrag *frag;
	size_t nfrag, topmax, fragcap;
	struct owner_filefrag frag_cut;
	int have_cut;
	int files_sorted;		/* files sorted (on first query) */
	int rafd;			/* the device, for readahead, or -1 */
	dgrp_t ra_next;			/* first group not yet advised */
	/* bytes of used inode table asked for (groups < ra_next) and passed
	 * by the scan (groups < ra_passed): their difference is how far
	 * ahead the readahead runs */
	unsigned long long ra_asked, ra_done;
	dgrp_t ra_passed;
	/* inodes with an extent tree deeper than i_block, walked in batches
	 * after their tree blocks have been asked for (owner_scan.c) */
	char *defer_buf;
	ext2_ino_t *defer_ino;
	unsigned ndefer;
	/* a probe scan whose owners a walk of the tree may name: the
	 * directory runs it walks, up to a budget (owner_dirs.c); NULL: not
	 * gathered */
	struct orun_vec *dirs;
	blk64_t dirs_blocks, dirs_max;
};

/* The scan's runs in block order (sorted on first use after the scan, so
 * that a command needing only the per-file numbers never sorts them);
 * ENOMEM when they could not be sorted. */
errcode_t owner_files(struct owner_index *idx, const struct fpack **out);

#define PROBE_MAP_SPAN 64	/* buckets a run is tested by */

/* With idx->probe_map (owner_probe.c): may [a, b) touch a probe range?  0:
 * it does not.  Inline: the scan asks it of every run it walks. */
static inline int owner_probe_maybe(const struct owner_index *idx, blk64_t a,
				    blk64_t b)
{
	const uint64_t *m = idx->probe_map;
	blk64_t x, last;

	if (b <= a)
		return 0;
	last = (b - 1) >> idx->probe_shift;
	x = a >> idx->probe_shift;
	if (last - x >= PROBE_MAP_SPAN)
		return 1;	/* a long run: the search tells */
	/* bits x..last, in one word or two (a span under 64), by masks */
	if (x / 64 == last / 64)
		return ((m[x / 64] >> (x % 64)) &
			(~0ULL >> (63 - (last - x)))) != 0;
	return (m[x / 64] >> (x % 64)) != 0 ||
	       (m[last / 64] & (~0ULL >> (63 - last % 64))) != 0;
}

/* With idx->npgroup: the first block in [a, b) whose cluster is in use
 * (set) or free (!set), in *z; ENOENT when there is none (owner_probe.c,
 * for the queries' gaps between runs). */
struct owner_bits;
struct session;

/* May the session's index read the block bitmap from the disk (not loaded
 * or changed in memory, not a catastrophic open, whole bytes a group, no
 * bigalloc)?  0: it loads the bitmap. */
int owner_bits_usable(const struct session *s);

/* Ready to read fs's bitmap a group at a time, every group read once first
 * so that its errors are a load's (EXT2_ET_BLOCK_BITMAP_READ,
 * EXT2_ET_BLOCK_BITMAP_CSUM_INVALID); with summary, each group's used
 * blocks noted then for owner_bits_used_quick (not for a mounted
 * filesystem, whose bitmaps change under the reads that follow). */
errcode_t owner_bits_open(ext2_filsys fs, int summary,
			  struct owner_bits **out);
void owner_bits_free(struct owner_bits *ob);

/* n bits from block base (at or past the first data block), as
 * ext2fs_get_block_bitmap_range2 gives them. */
errcode_t owner_bits_range(ext2_filsys fs, struct owner_bits *ob,
			   blk64_t base, size_t n, unsigned char *out);

/* The blocks in use among blocks i..j-1 of group g (from its first
 * block), in *used, when the group's summary tells without its bits: 1;
 * else 0 (read them). */
int owner_bits_used_quick(const struct owner_bits *ob, dgrp_t g, blk64_t i,
			  blk64_t j, blk64_t *used);

/* The first block of [a, b) in use (set) or free in *z; ENOENT: none. */
errcode_t owner_bits_find(ext2_filsys fs, struct owner_bits *ob, blk64_t a,
			  blk64_t b, int set, blk64_t *z);

errcode_t owner_probe_find(ext2_filsys fs, const struct owner_index *idx,
			   blk64_t a, blk64_t b, int set, blk64_t *z);

/* The directory runs of a probe scan (owner_dirs.c): begin gathering
 * them (owalk_inode then notes every directory's runs, while the budget
 * lasts), note one walked run, ask the kernel for their blocks, free
 * them. */
void owner_dirs_begin(ext2_filsys fs, struct owner_index *idx);
void owner_dirs_note(struct owner_index *idx, const struct orun *r);
void owner_dirs_ask(ext2_filsys fs, const char *device,
		    struct owner_index *idx);
void owner_dirs_free(struct owner_index *idx);
/* The directory blocks of a complete scan's file runs (idx->files), up to
 * 64 MiB, asked for in the runs' order; nothing when a sample of them is
 * in the page cache. */
void owner_dirs_ask_files(ext2_filsys fs, const char *device,
			  const struct owner_index *idx);

/* Keeps one walked run as idx->keep says. */
errcode_t owner_keep_run(struct owner_index *idx, const struct orun *r);

/*
 * An index not attached to a session: group metadata and the special
 * inodes placed, the inode scan opened (device: for readahead, or NULL).
 * keep says which file runs the scan keeps; topmax how many of the worst
 * files it remembers.  The caller steps it with owner_idx_step and frees it
 * with owner_index_free.
 */
errcode_t owner_idx_open(ext2_filsys fs, const char *device,
			 enum owner_keep keep, size_t topmax,
			 struct owner_index **out);
errcode_t owner_idx_step(ext2_filsys fs, struct owner_index *idx,
			 unsigned max_inodes, int *done);
/* owner_lookup on an index (complete or not). */
errcode_t owner_idx_lookup(ext2_filsys fs, struct owner_index *idx,
			   blk64_t blk, struct owner_run *run);
/* owner_idx_lookup of blks[0..n) into runs[0..n): a block at or after the
 * one before it starts its search where that one's ended. */
errcode_t owner_idx_lookup_many(ext2_filsys fs, struct owner_index *idx,
				const blk64_t *blks, size_t n,
				struct owner_run *runs);

/*
 * owner_class_counts from the index without a run answer for each piece
 * (owner_cells.c: the TUI's map asks it for every cell): the same counts,
 * bigalloc asked of owner_class_counts itself.  Adds to counts[].
 */
errcode_t owner_cell_counts(struct session *s, blk64_t first, blk64_t count,
			    blk64_t counts[OWN_CLASS_MAX]);
/* The same for n cells of bpc blocks from first (the last cut at end): one
 * walk of the index; counts[k] set for cell k. */
errcode_t owner_cells_row(struct session *s, blk64_t first, blk64_t bpc,
			  blk64_t end, int n, blk64_t (*counts)[OWN_CLASS_MAX]);

/* The worst files (owner_top.c): offers one file; ENOMEM when their
 * buffer cannot be grown. */
errcode_t owner_top_offer(struct owner_index *idx,
			  const struct owner_filefrag *f);
/* Keeps only the topmax worst of idx's files (nfrag <= topmax after). */
void owner_top_trim(struct owner_index *idx);
/* Sorts v[0..n) worst first (a radix sort; a heap sort in place when its
 * copy cannot be had). */
void owner_top_sort(struct owner_filefrag *v, size_t n);
/* worst-first order: more extents beyond the ideal, then more blocks,
 * then the lower inode. */
int owner_worse(const struct owner_filefrag *a,
		const struct owner_filefrag *b);

/* Adds one walked file's fragmentation to the index's counters. */
errcode_t owner_note_file(struct owner_index *idx, ext2_ino_t ino,
			  const struct owalk *w);

/* Is ino handled before the scan (journal, quota...)? */
int owner_special_ino(ext2_filsys fs, ext2_ino_t ino);

/* In a metadata-only e2image file, the next inode after idx->image_next,
 * read by number (*ino 0 after the last). */
errcode_t owner_image_next(ext2_filsys fs, struct owner_index *idx,
			   ext2_ino_t *ino, struct ext2_inode *inode, int isize);

/* Blocks per group served by one run unit of a mergeable metadata class
 * (0 for classes that are not merged across groups). */
blk64_t owner_group_unit(ext2_filsys fs, int cls);

/* Every claim of idx's stored runs on blks[0..n) (owner_dup.c), sorted as
 * owner_lookup_all tells them; the caller frees *claims. */
errcode_t owner_idx_claims(ext2_filsys fs, const struct owner_index *idx,
			   const blk64_t *blks, size_t n,
			   struct owner_claim **claims, size_t *nclaims);

#endif

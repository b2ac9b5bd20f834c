/* plan.h - layout plans: a list of steps (allocate, copy, write mapping,
 * switch an inode, free) computed read-only, previewed, saved, then applied
 * in a crash-safe order and verified.  See help/topics/plans.txt. */
#ifndef E2L_PLAN_H
#define E2L_PLAN_H

#include "session.h"

/* One physically contiguous data run of an inode. */
struct plan_ext {
	blk64_t lblk, pblk, len;
	int uninit;			/* unwritten extent */
};

enum plan_step_kind {
	STEP_COPY,		/* copy len blocks src -> dst */
	STEP_WRITE_MAP,		/* write new mapping block(s) at dst */
	STEP_ALLOC,		/* mark [dst, dst+len) in use */
	STEP_SWITCH,		/* point the inode at the new mapping */
	STEP_FREE,		/* release [src, src+len) */
	STEP_ZERO,		/* zero [dst, dst+len) (a grown journal) */
	STEP_KIND_MAX
};

struct plan_step {
	enum plan_step_kind kind;
	blk64_t src, dst, len;
};

/* What the filesystem looked like when the plan was made. */
struct plan_fp {
	__u32 wtime, mtime, mnt_count, generation, ctime;
	__u64 free_blocks, free_inodes;
	__u32 map_hash;			/* of the inode's mapping */
	char uuid[37];
};

struct plan {
	char kind[32];			/* "journal_relocate", "defrag" */
	ext2_ino_t ino;
	int extents;			/* extent-mapped (else block-mapped) */
	blk64_t target, target_len;	/* the new run: data then mapping */
	blk64_t new_size_blocks;	/* journal --size, else 0 */
	struct plan_ext *old, *new;	/* mappings before and after */
	size_t nold, nnew;
	blk64_t *old_meta;		/* tree/indirect blocks to free */
	size_t nold_meta;
	blk64_t new_meta;		/* mapping blocks at the run's end */
	__u64 set_size;			/* prealloc: i_size at least this */
	char create_name[256];		/* prealloc: create this file in
					   directory ino, then use it */
	blk64_t dir_blocks[2];		/* prealloc: the free blocks that
					   directory grows into when the
					   entry does not fit (0: fits) */
	struct plan_step *steps;
	size_t nsteps;
	struct plan_fp fp;
	int chained;			/* fp: only the inode is checked */
	struct plan *next;		/* evacuate: plans applied in turn */
	const struct plan *head;	/* the chain p belongs to (its first
					   plan), or NULL alone */
	struct plan_repack *repack;	/* repack_flex: descriptor moves */
	struct plan_lines *lines;	/* read from a file: where each entry
					   was (plan_file_int.h), else NULL */
};

void plan_free(struct plan *p);
void plan_lines_free(struct plan_lines *l);

/* The inode's current mapping (data runs, mapping blocks) and fingerprint. */
errcode_t plan_read_map(ext2_filsys fs, ext2_ino_t ino, int *extents,
			struct plan_ext **runs, size_t *nruns,
			blk64_t **meta, size_t *nmeta);
errcode_t plan_fingerprint(ext2_filsys fs, ext2_ino_t ino,
			   struct plan_fp *fp);
/* 0 when fs still matches p->fp; else prints why and returns nonzero. */
int plan_check_fp(struct session *s, const struct plan *p);

/*
 * Builds a plan moving every data block of ino into one run at the first
 * free run at or after goal (wrapping around), sized data+mapping.  On a
 * full filesystem prints the largest free run and what evacuate would need.
 */
errcode_t plan_build_move(struct session *s, const char *kind, ext2_ino_t ino,
			  blk64_t goal, blk64_t new_size, struct plan **pp);

/* Free run search: first run of at least len free blocks at/after goal. */
errcode_t plan_find_free(ext2_filsys fs, blk64_t goal, blk64_t len,
			 blk64_t *start, blk64_t *largest);

/* Mapping blocks the new layout needs (0 when it fits in the inode; ~0
 * when an extent tree would be deeper than 5). */
blk64_t plan_meta_needed(ext2_filsys fs, int extents,
			 const struct plan_ext *runs, size_t n);
/* Blocks per level of the most compact extent tree over n extents
 * (level[0]: leaves); returns the depth, -1 when past 8 levels. */
int plan_tree_levels(ext2_filsys fs, size_t n, blk64_t level[8]);
/* Distinct clusters (blocks without bigalloc) of the runs lying within
 * [lo, hi); runs in logical order, as a valid file maps them. */
blk64_t plan_clusters(ext2_filsys fs, const struct plan_ext *runs, size_t n,
		      blk64_t lo, blk64_t hi);
/* Mapping block k of p's new layout: the last new_meta clusters of the
 * target run, one block at the start of each (a cluster each on bigalloc,
 * as e2fsck wants for tree blocks). */
blk64_t plan_meta_blk(ext2_filsys fs, const struct plan *p, blk64_t k);
/* Units for ext2fs_iblk_add/sub_blocks of the old and the new mapping
 * (clusters of data and mapping blocks; blocks without bigalloc). */
blk64_t plan_units_old(ext2_filsys fs, const struct plan *p);
blk64_t plan_units_new(ext2_filsys fs, const struct plan *p);

/* A block-mapped layout: data from target in logical order with each
 * indirect block placed just before the first block it maps. */
struct plan_indirect {
	__u32 iblock[EXT2_N_BLOCKS];
	struct plan_ext *runs;		/* new data runs */
	size_t nruns;
	blk64_t *metas;			/* indirect blocks, ascending */
	size_t nmeta;
	char *meta;			/* their contents, same order */
};
errcode_t plan_indirect_layout(ext2_filsys fs, const struct plan_ext *old,
			       size_t nold, blk64_t target,
			       struct plan_indirect *out);
void plan_indirect_release(struct plan_indirect *ind);

/* prealloc: unwritten extents over the holes of [0, size) of ino (or of a
 * new file name in directory ino when name is non-NULL). */
errcode_t plan_build_prealloc(struct session *s, ext2_ino_t ino,
			      const char *name, __u64 size, blk64_t goal,
			      struct plan **pp);
/* Apply side of the above: creates p->create_name, sets p->ino. */
errcode_t plan_create_file(ext2_filsys fs, struct plan *p);
/* plan_dirent.c: would an entry for name fit in directory dir's blocks
 * (in the leaf its hash picks, when indexed)?  *fits 1 or 0. */
errcode_t plan_dir_fits(ext2_filsys fs, ext2_ino_t dir, const char *name,
			int *fits);
/* Reserves p->dir_blocks: the first two free blocks from dir's goal,
 * outside p's new run (p->target must be set). */
errcode_t plan_dir_reserve(ext2_filsys fs, struct plan *p, ext2_ino_t dir);
/* Links p->create_name to ino in directory p->ino; the directory grows
 * only into p->dir_blocks (their bitmaps and counters committed), never
 * into p's new run; any other allocation fails the link. */
errcode_t plan_dir_link(ext2_filsys fs, const struct plan *p, ext2_ino_t ino);

/* Previews a plan (text or JSON). */
void plan_show(struct session *s, const struct plan *p);
/* Every plan of the chain p: plan_show for a single plan; in JSON, several
 * are the elements of a "plans" array (a key never repeats in an object). */
void plan_show_chain(struct session *s, const struct plan *p);

/* What plan_show previews, as data (the TUI draws it): blocks the steps
 * read and write, and the block range [lo, hi) the plan touches. */
struct plan_stats {
	blk64_t read, written;
	blk64_t lo, hi;
};
void plan_get_stats(const struct plan *p, struct plan_stats *st);
/* One strip of the before (after = 0) or after map: cells of per blocks
 * from lo, 'X' the plan's inode, '#' other used, '.' free, ' ' past the
 * end of the filesystem; line holds cells + 1 bytes. */
void plan_map_strip(ext2_filsys fs, const struct plan *p, int after,
		    blk64_t lo, blk64_t per, unsigned cells, char *line);
/* The map's cells over blocks [lo, hi): at most PLAN_MAP_CELLS of *per
 * blocks each (at least 1); returns how many. */
#define PLAN_MAP_CELLS 64
unsigned plan_map_cells(blk64_t lo, blk64_t hi, blk64_t *per);
/* The strip every preview draws: cells of per blocks from lo, each cell's
 * letter from cell(fs, arg, after, first, len) ("after" as given), ' ' past
 * the end of the filesystem; line holds cells + 1 bytes. */
typedef char plan_cell_fn(ext2_filsys fs, const void *arg, int after,
			  blk64_t first, blk64_t len);
void plan_strip(ext2_filsys fs, plan_cell_fn *cell, const void *arg,
		int after, blk64_t lo, blk64_t per, unsigned cells,
		char *line);
/* Prints the before/after map strips: the JSON "map" member, or the text
 * block headed "Map of blocks LO-HI, PER blocks per cell (LEGEND):". */
void plan_show_map(struct session *s, blk64_t lo, blk64_t hi, blk64_t per,
		   const char *legend, const char *before, const char *after);

/* Files. */
errcode_t plan_save(const struct plan *p, const char *path);
/*
 * Reads a plan file as untrusted input (plan_parse.c): every line is
 * checked on its own and the plans for completeness; nothing is checked
 * against a filesystem yet (plan_guard does).  0, or E2L_ERR_BAD_PLAN_FILE
 * (an errno when the file cannot be read) with why = "line N: what".
 */
errcode_t plan_load(const char *path, struct plan **pp, char *why,
		    size_t whylen);

/*
 * Checks a chain of plans (p, p->next...) against the filesystem before it
 * is shown, kept or applied (plan_check.c, then plan_guard.c):
 *  - every block number lies in the filesystem; each plan's inode exists
 *    and is the kind its plan says; each plan is exactly the one e2layout
 *    builds now for its inode and target (so its recorded old runs are the
 *    inode's mapping, its copies read the inode's blocks into the target,
 *    its frees release the inode's blocks) - E2L_ERR_BAD_PLAN_FILE for a
 *    loaded plan (naming the line), E2L_ERR_STALE_PLAN for one made in
 *    this session;
 *  - every block a plan writes (allocates, copies into, zeroes, writes
 *    mapping blocks to) is free in the block bitmap and claimed by nobody
 *    in the owner index, and every block it frees is claimed by the moving
 *    inode (or the moving group metadata) alone; the plans of a chain
 *    write disjoint blocks; the owner scan skipped no inode -
 *    E2L_ERR_OWNER_CONFLICT, after naming the blocks and their owners.
 * who prefixes the messages.  0 when the chain may go ahead.
 */
errcode_t plan_guard(struct session *s, const struct plan *p,
		     const char *who);
/* The first half of plan_guard alone (plan_check.c). */
errcode_t plan_check_fs(struct session *s, const struct plan *p,
			const char *who);

/*
 * While a plan creates its file (prealloc's new name), no block may be
 * allocated behind the guard's back: a directory that must grow for the
 * new entry fails with E2L_ERR_OWNER_CONFLICT instead of taking a block
 * nobody checked.  begin saves the allocation hooks, end puts them back.
 */
struct plan_fence {
	errcode_t (*alloc)(ext2_filsys, blk64_t, blk64_t *);
	errcode_t (*range)(ext2_filsys, int, blk64_t, blk64_t, blk64_t *,
			   blk64_t *);
};
void plan_fence_begin(ext2_filsys fs, struct plan_fence *f);
void plan_fence_end(ext2_filsys fs, const struct plan_fence *f);
/* Runs fn(copy of fs, p) with every write kept in memory and thrown away
 * afterwards (plan_dryrun.c): fs and the disk are left as they were. */
errcode_t plan_dry_run(ext2_filsys fs,
		       errcode_t (*fn)(ext2_filsys fs, struct plan *p),
		       struct plan *p);

struct apply_opts;
/* Applies p (crash-safe order); undo_path NULL for no undo file, else a
 * new file (undo_guard.h: refused when anything exists there), added to the
 * session's undo list when it restores; o (may be NULL) carries the
 * operator's options (--no-fsck). */
errcode_t plan_apply(struct session *s, struct plan *p,
		     const char *undo_path, const struct apply_opts *o);
/*
 * plan_gate.c: before apply writes anything, confirms that the disk still
 * holds what the session planned from (else E2L_ERR_STALE_PLAN, and the
 * session writes nothing more), writes the session's own pending changes,
 * and that the filesystem is known to be consistent: checked since last
 * written (s_lastcheck), or e2fsck -fn reports nothing (else
 * E2L_ERR_NOT_CLEAN; o->no_fsck skips the run, with a warning).  Prints
 * why it refuses.  Fixes p's fingerprints for the session's own write.
 */
errcode_t plan_gate(struct session *s, struct plan *p,
		    const struct apply_opts *o);
/* Builds the new i_block (and mapping blocks) for p; used by apply. */
errcode_t plan_build_iblock(ext2_filsys fs, const struct plan *p,
			    __u32 iblock[EXT2_N_BLOCKS], char **meta_buf);
/* Writes the touched groups' bitmaps, their descriptor blocks and the
 * primary superblock (sorted groups[]), each in one write, then flushes. */
errcode_t plan_commit_groups(ext2_filsys fs, const dgrp_t *groups, size_t n);
/* plan_jclean.c: nonzero when the journal inode INO may be moved: the
 * filesystem needs no recovery, the journal superblock reads and has the
 * jbd2 magic, the log is empty (s_start 0) and, when WANT_RESIZE, it has no
 * fast-commit area.  Otherwise 0, the reason printed to the session's sink
 * under the name journal_relocate. */
int plan_journal_clean(struct session *s, ext2_ino_t ino, int want_resize);

/* plan_journal.c: the metadata switch as one jbd2 transaction.  Between
 * begin and end the filesystem's writes are captured in memory; end writes
 * them to the journal, commits, checkpoints and empties the journal.
 * usable: an internal journal that needs no recovery. */
int plan_journal_usable(ext2_filsys fs);
errcode_t plan_journal_begin(ext2_filsys fs, const struct plan *p,
			     int *active);	/* 0: no journal to use */
errcode_t plan_journal_end(ext2_filsys fs);
void plan_journal_abort(ext2_filsys fs);
/* Inside a multi-phase operation: commits and checkpoints what was captured
 * so far as one transaction and starts the next (no-op when no capture is
 * active or nothing was captured). */
errcode_t plan_journal_step(ext2_filsys fs);
/* Checks the applied result: mapping, bitmaps and counters.  0 if good. */
int plan_verify(struct session *s, const struct plan *p);

/* Blocks marked in use in [first, last] of the loaded block bitmap. */
blk64_t plan_used_in(ext2_filsys fs, blk64_t first, blk64_t last);
/* Checks a (possibly loaded) plan is sane: new runs inside a free target. */
int plan_check_sane(struct session *s, const struct plan *p);

const char *plan_step_name(enum plan_step_kind k);

/* How an operation that applies its plan at once records undo data. */
struct apply_opts {
	int no_undo;		/* --no-undo */
	const char *undo;	/* --undo FILE */
	int no_fsck;		/* --no-fsck: skip the e2fsck -fn run (the
				   block ownership checks never skip) */
};

/* Removes --no-undo, --undo FILE and --no-fsck from argv (an operation's
 * arguments).
 * Returns 0, or 1 after an error when --undo has no file. */
int plan_take_apply_opts(struct session *s, int *argc, char **argv,
			 struct apply_opts *o);

/*
 * Ends an operation: p becomes the session's current plan and is shown
 * (unless shown already).  On a read-only session, or under `plan OP`, that
 * is all; on a -w session the plan is then applied at once, with an undo
 * file unless o says otherwise, and verified.  Returns CMD_OK or CMD_FAIL.
 */
int plan_offer(struct session *s, struct plan *p, int shown,
	       const struct apply_opts *o);
/*
 * Applies p (loaded: a plan read from a file, freed here; else NULL and p
 * is the current plan, dropped once applied), recording undo data as o
 * asks (the session's -z file when it has one, else o->undo or a default
 * name, none with o->no_undo), then verifies every plan of the chain.
 * Prints what it did and why it failed; returns CMD_OK or CMD_FAIL.
 */
int plan_apply_verify(struct session *s, struct plan *p, struct plan *loaded,
		      const struct apply_opts *o);

/* repack_flex (plan_repack.c): moves a flex group's bitmaps and inode
 * tables into one packed island, switching the group descriptors. */
struct plan_repack;
errcode_t plan_build_repack(struct session *s, unsigned long flex,
			    struct plan **pp);
/* The same with 2^log_flex groups per flex group (-1: keep the
 * filesystem's, or 4 when flex_bg is off) after the plans of chain before
 * (NULL: none), whose moves may empty the island first; temporary places
 * are searched where avoid (NULL: the block bitmap) is clear. */
errcode_t plan_build_repack_opts(struct session *s, unsigned long flex,
				 int log_flex, const struct plan *before,
				 ext2fs_block_bitmap avoid, struct plan **pp);
/*
 * repack_flex --all / --groups-per-flex (plan_repack_all.c): one chain that
 * packs every flex group (all) or flex group flex, each island emptied by
 * evacuate moves planned just before its repack, every move and temporary
 * place outside every island.  NULL in *pp when all are packed already.
 */
errcode_t plan_build_repack_all(struct session *s, int all,
				unsigned long flex, int log_flex,
				struct plan **pp);
/* Sets head on every plan of the chain p. */
void plan_chain_link(struct plan *p);
/* Whether a plan of p's chain before upto (NULL: the whole chain) moves
 * inode ino out of its blocks (an evacuate, defrag or relocate move). */
int plan_chain_moves(const struct plan *head, const struct plan *upto,
		     ext2_ino_t ino);
/* Blocks of [first, last] in use, not counting those inside the island of
 * a repack plan after p in p's chain (which fills them on purpose). */
blk64_t plan_used_outside_later_islands(ext2_filsys fs, const struct plan *p,
					blk64_t first, blk64_t last);
void plan_repack_free(struct plan_repack *r);
void plan_repack_show(struct session *s, const struct plan *p);
errcode_t plan_repack_run(ext2_filsys fs, const struct plan *p);
int plan_repack_sane(struct session *s, const struct plan *p);
int plan_repack_verify(struct session *s, const struct plan *p);
/* A plan moving only the resize inode's double-indirect block to the
 * first free block at or after goal (evacuate, when it is in the range). */
/*
 * Emptying a block range (plan_evacuate.c), for evacuate and for
 * repack_flex --all's islands.  Set first, len and (an island) island,
 * own_first/own_n (the groups whose metadata the repack moves) and chain
 * (inodes an earlier plan of it moves are left out); plan_evacuate_scan
 * fills what the range holds: the inodes to move, fixed blocks (first at
 * fixed_at), extended-attribute blocks, and, outside an island, the resize
 * inode's double-indirect block (dind), which moves first.
 * plan_evacuate_build appends a move per inode (targets clear in work,
 * marked there as they are planned) to *tail: 0, or prints why and
 * returns 1.  plan_evacuate_done frees the scan.
 */
struct plan_evac {
	blk64_t first, len;
	int island;
	dgrp_t own_first, own_n;
	const struct plan *chain;
	/* filled in */
	struct session *s;
	ext2_ino_t *inos;
	size_t n, cap, planned;
	blk64_t fixed, fixed_at, xattr, dind, moved;
	int oom;
};
errcode_t plan_evacuate_scan(struct session *s, struct plan_evac *e);
int plan_evacuate_build(struct session *s, const char *who,
			struct plan_evac *e, ext2fs_block_bitmap work,
			struct plan ***tail);
void plan_evacuate_done(struct plan_evac *e);
errcode_t plan_build_dind_move(struct session *s, blk64_t goal,
			       struct plan **pp);
blk64_t plan_dind_target(const struct plan *p);

#endif

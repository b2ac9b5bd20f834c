/* owner_paths.c - a directory and a path for each of many inodes, from one
 * walk of the tree that carries every directory's path down with it. */
#include "owner.h"
#include "crc32c_fast.h"
#include "dir_batch.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A directory the walk has reached: the frames of its path, shared by its
 * pending subdirectories (freed when the last of them is walked). */
struct pnode {
	struct pnode *up;	/* NULL: the root */
	ext2_ino_t ino;
	unsigned refs;
	unsigned len;
	char name[];
};

#define NO_PATH ((size_t)-1)

/* A wanted inode and its place in the caller's arrays. */
struct wanted {
	ext2_ino_t ino;
	size_t k;
};

struct pathfind {
	ext2_filsys fs;
	unsigned blocksize;		/* fs's, and its inode count: */
	ext2_ino_t inodes;		/* tested for every entry */
	const struct wanted *want;	/* sorted by inode */
	ext2_ino_t *parent;
	char **paths;			/* NULL: parents only */
	/* the paths' text, one block grown by doubling; off[k]: where
	 * want k's path starts in it, NO_PATH: none */
	char *arena;
	size_t alen, acap;
	size_t *off;
	size_t n, left;
	size_t next;	/* want[] after the last inode found: a directory's
			 * entries come in inode order, so its next hit is
			 * likely there (no search) */
	/* a bit per inode number: plain arrays, tested for every entry of
	 * the tree (libext2fs's bitmap calls were a fifth of the walk) */
	uint64_t *seen, *wanted;
	struct pnode **stack;
	size_t sn, scap;
	struct pnode *cur;
	char *curpath;			/* cur's path, once asked for */
	size_t curlen;			/* its length ("/": 0) */
	/* checksums verified lazily: the block being walked, is it checked
	 * (and good), or known bad (its entries are not used)? */
	int lazy_csum, checked, bad;
	/* the generation of the directory gen_dir (0: none read yet), for
	 * its blocks' checksums */
	ext2_ino_t gen_dir;
	__u32 gen;
	errcode_t err;
};

static int bit_test(const uint64_t *map, ext2_ino_t ino)
{
	return (map[ino / 64] >> (ino % 64)) & 1;
}

static void bit_set(uint64_t *map, ext2_ino_t ino)
{
	map[ino / 64] |= 1ULL << (ino % 64);
}

static void pnode_put(struct pnode *p)
{
	while (p && !--p->refs) {
		struct pnode *up = p->up;

		free(p);
		p = up;
	}
}

/* "/a/b" for the frames of p ("/" for the root). */
static char *pnode_path(const struct pnode *p)
{
	const struct pnode *q;
	size_t len = 0, o;
	char *s;

	for (q = p; q->up; q = q->up)
		len += q->len + 1;
	s = malloc(len ? len + 1 : 2);
	if (!s)
		return NULL;
	if (!len)
		return strcpy(s, "/");
	s[len] = 0;
	for (q = p, o = len; q->up; q = q->up) {
		o -= q->len;
		memcpy(s + o, q->name, q->len);
		s[--o] = '/';
	}
	return s;
}

/*
 * ext2fs_dir_block_csum_verify's answer for a leaf block (buf, on-disk
 * order) that ends in a checksum tail: 1 good, 0 bad, -1 not such a block
 * (an htree node, a damaged chain of entries: libext2fs tells).  The same
 * CRC-32C of the seed, the directory's number and generation and the
 * entries before the tail, computed with the CPU's crc32 and the
 * generation read once a directory (libext2fs's table-driven CRC and its
 * inode read per block were a tenth of `frag --top 10000`).  The chain of
 * entries is followed from off, an entry libext2fs reached along it from
 * the block's start (each entry before it as long and aligned as this
 * walk asks): the same end, half the steps.
 */
static int leaf_csum_ok(struct pathfind *pf, ext2_ino_t dir, const char *buf,
			unsigned off)
{
	ext2_filsys fs = pf->fs;
	unsigned top = fs->blocksize - sizeof(struct ext2_dir_entry_tail);
	const struct ext2_dir_entry_tail *t;
	struct ext2_inode inode;
	unsigned rl;
	__u32 le, crc;

	if (!ext2fs_has_feature_metadata_csum(fs->super))
		return 1;
	if (fs->blocksize >= 65536)
		return -1;	/* rec_len's large-block encoding */
	while (off < top) {
		rl = ext2fs_le16_to_cpu(((const struct ext2_dir_entry *)
					 (buf + off))->rec_len);
		if (rl < 8 || rl % 4)
			return -1;
		off += rl;
	}
	if (off != top)
		return -1;
	t = (const struct ext2_dir_entry_tail *)(buf + top);
	if (t->det_reserved_zero1 ||
	    ext2fs_le16_to_cpu(t->det_rec_len) != sizeof(*t) ||
	    ext2fs_le16_to_cpu(t->det_reserved_name_len) !=
	    EXT2_DIR_NAME_LEN_CSUM)
		return -1;
	if (pf->gen_dir != dir) {
		if (ext2fs_read_inode(fs, dir, &inode))
			return -1;
		pf->gen_dir = dir;
		pf->gen = inode.i_generation;
	}
	le = ext2fs_cpu_to_le32(dir);
	crc = crc32c_fast(fs->csum_seed, &le, sizeof(le));
	le = ext2fs_cpu_to_le32(pf->gen);
	crc = crc32c_fast(crc, &le, sizeof(le));
	crc = crc32c_fast(crc, buf, top);
	return crc == ext2fs_le32_to_cpu(t->det_checksum);
}

/*
 * May the entry d of the block at buf be used?  With lazy checksums the
 * walk reads directory blocks unverified (as the inode scan reads inodes)
 * and verifies a block only when one of its entries is about to be used:
 * every name given and every directory descended into comes from a block
 * whose checksum holds; a block that fails is skipped whole.
 */
static int entry_usable(struct pathfind *pf, ext2_ino_t dir, char *buf,
			int offset)
{
	int ok;

	if (!pf->lazy_csum || pf->checked)
		return !pf->bad;
	pf->checked = 1;
	ok = leaf_csum_ok(pf, dir, buf, (unsigned)offset);
	if (ok < 0)
		ok = ext2fs_dir_block_csum_verify(pf->fs, dir,
						  (struct ext2_dir_entry *)buf);
	pf->bad = !ok;
	return !pf->bad;
}

/* len bytes of the arena for want k's path (NULL: no memory). */
static char *arena_take(struct pathfind *pf, size_t len, size_t k)
{
	size_t cap = pf->acap ? pf->acap : 4096;
	char *a;

	while (cap - pf->alen < len)
		cap *= 2;
	if (cap != pf->acap) {
		a = realloc(pf->arena, cap);
		if (!a)
			return NULL;
		pf->arena = a;
		pf->acap = cap;
	}
	pf->off[k] = pf->alen;
	pf->alen += len;
	return pf->arena + pf->off[k];
}

/* The first want[] of ino (a wanted inode): at the finger, else by a
 * binary search (a tenth of `frag --top 10000`'s walk, and a cache miss a
 * step). */
static size_t want_first(const struct pathfind *pf, ext2_ino_t ino)
{
	size_t lo = 0, hi = pf->n, mid;

	if (pf->next < pf->n && pf->want[pf->next].ino == ino &&
	    (!pf->next || pf->want[pf->next - 1].ino < ino))
		return pf->next;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (pf->want[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Gives every want[] entry for inode ino its parent and path (a bitmap
 * test for the usual miss, a binary search for a hit); 0 when one could
 * not be allocated. */
static int pf_found(struct pathfind *pf, ext2_ino_t ino,
		    const struct ext2_dir_entry *d)
{
	int len = ext2fs_dirent_name_len(d);
	size_t lo = want_first(pf, ino);
	char *p;

	for (; lo < pf->n && pf->want[lo].ino == ino; lo++) {
		if (pf->parent[pf->want[lo].k])
			continue;
		pf->parent[pf->want[lo].k] = pf->cur->ino;
		pf->left--;
		if (!pf->paths || pf->off[pf->want[lo].k] != NO_PATH)
			continue;
		if (!pf->curpath) {
			pf->curpath = pnode_path(pf->cur);
			if (!pf->curpath)
				return 0;
			/* the root's "/" gives "/name" */
			pf->curlen = pf->curpath[1] ? strlen(pf->curpath) : 0;
		}
		/* as ext2fs_get_pathname(parent, ino) composes it */
		p = arena_take(pf, pf->curlen + len + 2, pf->want[lo].k);
		if (!p)
			return 0;
		memcpy(p, pf->curpath, pf->curlen);
		p[pf->curlen] = '/';
		memcpy(p + pf->curlen + 1, d->name, len);
		p[pf->curlen + len + 1] = 0;
	}
	pf->next = lo;
	return 1;
}

/* Pushes subdirectory ino (entry d of pf->cur) to be walked. */
static int pf_push(struct pathfind *pf, ext2_ino_t ino,
		   const struct ext2_dir_entry *d)
{
	int len = ext2fs_dirent_name_len(d);
	struct pnode *p;

	if (pf->sn == pf->scap) {
		size_t cap = pf->scap ? pf->scap * 2 : 64;
		struct pnode **st = realloc(pf->stack, cap * sizeof(*st));

		if (!st)
			return 0;
		pf->stack = st;
		pf->scap = cap;
	}
	p = malloc(sizeof(*p) + len);
	if (!p)
		return 0;
	p->up = pf->cur;
	p->ino = ino;
	p->refs = 1;
	p->len = len;
	memcpy(p->name, d->name, len);
	pf->cur->refs++;
	pf->stack[pf->sn++] = p;
	return 1;
}

/* An entry pf_entry keeps looking at: a wanted inode's name or a
 * directory to descend into (apart, so that the common entry, neither,
 * costs pf_entry no stack frame of an inode). */
static __attribute__((noinline)) int
pf_use(struct pathfind *pf, ext2_ino_t dir, struct ext2_dir_entry *d,
       int offset, char *buf, int ft)
{
	struct ext2_inode inode;

	if (bit_test(pf->wanted, d->inode)) {
		if (!entry_usable(pf, dir, buf, offset))
			return 0;
		if (!pf_found(pf, d->inode, d)) {
			pf->err = ENOMEM;
			return DIRENT_ABORT;
		}
		if (!pf->left)
			return DIRENT_ABORT;
	}
	if (ft == EXT2_FT_UNKNOWN) {
		if (ext2fs_read_inode(pf->fs, d->inode, &inode) ||
		    !LINUX_S_ISDIR(inode.i_mode))
			return 0;
	} else if (ft != EXT2_FT_DIR) {
		return 0;
	}
	if (bit_test(pf->seen, d->inode) ||
	    !entry_usable(pf, dir, buf, offset))
		return 0;
	bit_set(pf->seen, d->inode);
	if (!pf_push(pf, d->inode, d)) {
		pf->err = ENOMEM;
		return DIRENT_ABORT;
	}
	return 0;
}

static int pf_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *d,
		    int offset, int blocksize, char *buf, void *priv)
{
	struct pathfind *pf = priv;
	int len = ext2fs_dirent_name_len(d), ft = ext2fs_dirent_file_type(d);

	(void)entry;
	/* every entry of a block is seen (DIRENT_FLAG_INCLUDE_EMPTY): the
	 * one at offset 0 starts a block; inline data is not a block */
	if (blocksize != (int)pf->blocksize)
		pf->checked = 1, pf->bad = 0;
	else if (!offset)
		pf->checked = pf->bad = 0;
	if (!d->inode || d->inode > pf->inodes ||
	    (d->name[0] == '.' && (len == 1 || (len == 2 &&
					       d->name[1] == '.'))))
		return 0;
	/* most entries: a file not asked for */
	if (ft != EXT2_FT_DIR && ft != EXT2_FT_UNKNOWN &&
	    !bit_test(pf->wanted, d->inode))
		return 0;
	return pf_use(pf, dir, d, offset, buf, ft);
}

/* Sorts w[0..n) (in k order) by inode, keeping k order among equals: four
 * stable passes of 8 bits (a comparison sort of 10,000 wanted files cost
 * more than the rest of their search but the walk). */
static errcode_t wanted_sort(struct wanted *w, size_t n)
{
	struct wanted *tmp, *from = w, *to;
	size_t *count, i, sum, c;
	int shift;

	if (n < 2)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	count = malloc(256 * sizeof(*count));
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return ENOMEM;
	}
	for (shift = 0, to = tmp; shift < 32; shift += 8) {
		memset(count, 0, 256 * sizeof(*count));
		for (i = 0; i < n; i++)
			count[(from[i].ino >> shift) & 0xff]++;
		for (i = 0, sum = 0; i < 256; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			to[count[(from[i].ino >> shift) & 0xff]++] = from[i];
		to = from;
		from = from == w ? tmp : w;
	}
	free(tmp);
	free(count);
	return 0;
}

/* Can this host verify a directory block as the callback sees it?  On a
 * big-endian host libext2fs has swapped it already: it verifies there. */
static int lazy_csum_ok(void)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return 0;
#else
	return 1;
#endif
}

/* The walk: from the root, depth first, until every wanted inode is found
 * or the tree is done; each directory's blocks read a stretch at a time
 * (dir_batch.c). */
static void walk(struct pathfind *pf)
{
	int keep = pf->fs->flags & EXT2_FLAG_IGNORE_CSUM_ERRORS;
	struct dir_batch *batch;
	struct pnode *p;

	/* without the layer (no memory) the walk reads block by block */
	(void)dir_batch_begin(pf->fs, &batch);
	pf->lazy_csum = lazy_csum_ok();
	if (pf->lazy_csum)
		pf->fs->flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
	while (pf->sn && pf->left && !pf->err) {
		p = pf->stack[--pf->sn];
		pf->cur = p;
		pf->curpath = NULL;
		pf->checked = pf->bad = 0;
		dir_batch_dir(batch, pf->fs, p->ino);
		ext2fs_dir_iterate2(pf->fs, p->ino, DIRENT_FLAG_INCLUDE_EMPTY,
				    NULL, pf_entry, pf);
		free(pf->curpath);
		pf->curpath = NULL;
		pnode_put(p);
	}
	while (pf->sn)
		pnode_put(pf->stack[--pf->sn]);
	dir_batch_end(batch, pf->fs);
	if (!keep)
		pf->fs->flags &= ~EXT2_FLAG_IGNORE_CSUM_ERRORS;
}

/* Finds a directory holding each of want[0..n) (0 when none) and, with
 * paths, the path to it, walking the tree from the root once for all. */
static errcode_t find_int(ext2_filsys fs, const ext2_ino_t *want,
			  ext2_ino_t *parent, char **paths, size_t n,
			  char **arena)
{
	struct pathfind pf = {.fs = fs, .parent = parent, .paths = paths,
			      .blocksize = fs->blocksize,
			      .inodes = fs->super->s_inodes_count};
	struct wanted *w = NULL;
	struct pnode *root;
	errcode_t err;
	size_t i, words;

	memset(parent, 0, n * sizeof(*parent));
	words = fs->super->s_inodes_count / 64 + 1;
	pf.seen = calloc(words, sizeof(*pf.seen));
	pf.wanted = calloc(words, sizeof(*pf.wanted));
	if (!pf.seen || !pf.wanted) {
		err = ENOMEM;
		goto out;
	}
	w = malloc((n ? n : 1) * sizeof(*w));
	pf.stack = malloc(64 * sizeof(*pf.stack));
	root = calloc(1, sizeof(*root));
	if (paths)
		pf.off = malloc((n ? n : 1) * sizeof(*pf.off));
	if (!w || !pf.stack || !root || (paths && !pf.off)) {
		free(root);
		err = ENOMEM;
		goto out;
	}
	for (i = 0; paths && i < n; i++)
		pf.off[i] = NO_PATH;
	/* the root's path, "/", given by no entry */
	for (i = 0; paths && i < n; i++)
		if (want[i] == EXT2_ROOT_INO) {
			if (!pf.alen && !arena_take(&pf, 2, i)) {
				free(root);
				err = ENOMEM;
				goto out;
			}
			pf.off[i] = 0;
			memcpy(pf.arena, "/", 2);
		}
	/* inode 0 (no owner) and impossible numbers are never found; the
	 * root's path is known */
	for (i = 0; i < n; i++) {
		if (!want[i] || want[i] > fs->super->s_inodes_count ||
		    (paths && want[i] == EXT2_ROOT_INO))
			continue;
		w[pf.n].ino = want[i];
		w[pf.n++].k = i;
		bit_set(pf.wanted, want[i]);
	}
	err = wanted_sort(w, pf.n);
	if (err)
		goto out;
	pf.want = w;
	pf.left = pf.n;
	bit_set(pf.seen, EXT2_ROOT_INO);
	pf.scap = 64;
	root->ino = EXT2_ROOT_INO;
	root->refs = 1;
	pf.stack[pf.sn++] = root;
	walk(&pf);
	err = pf.err;
	for (i = 0; !err && paths && i < n; i++)
		paths[i] = pf.off[i] == NO_PATH ? NULL : pf.arena + pf.off[i];
	if (!err && arena) {
		*arena = pf.arena;
		pf.arena = NULL;
	}
out:
	free(pf.arena);
	free(pf.off);
	free(pf.stack);
	free(w);
	free(pf.seen);
	free(pf.wanted);
	return err;
}

errcode_t owner_find_parents(ext2_filsys fs, const ext2_ino_t *want,
			     ext2_ino_t *parent, size_t n)
{
	return find_int(fs, want, parent, NULL, n, NULL);
}

errcode_t owner_find_paths(ext2_filsys fs, const ext2_ino_t *want,
			   char **paths, size_t n, char **arena)
{
	ext2_ino_t *parent = calloc(n ? n : 1, sizeof(*parent));
	errcode_t err = ENOMEM;

	*arena = NULL;
	memset(paths, 0, n * sizeof(*paths));
	if (!parent)
		return err;
	err = find_int(fs, want, parent, paths, n, arena);
	if (err)
		memset(paths, 0, n * sizeof(*paths));
	free(parent);
	return err;
}

/* lab_recipe.c - builds a lab's scenario image from its recipe lines
 * (mkfs, noflex, seed, journal, dir, file) with the demo's image writer
 * (labs/demo_int.h): libext2fs only, no root, no mount. */
#include "lab.h"
#include "lab_state.h"
#include "demo_int.h"
#include "jtrans.h"
#include "lab_htree.h"
#include "lab_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RECIPE_WORDS	16

struct recipe {
	struct demo d;
	blk64_t cursor;		/* files go after the last file written */
	const char *where;	/* "NAME.lab line N" context for errors */
	struct sink *out;
};

/* "256M", "4K", "1G", "100": bytes (or a plain count). */
static int parse_size(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K': *v <<= 10; end++; break;
	case 'M': *v <<= 20; end++; break;
	case 'G': *v <<= 30; end++; break;
	}
	return *end ? -1 : 0;
}

/* Finds key=VALUE among words; NULL when absent. */
static const char *opt(char **w, int n, const char *key)
{
	size_t k = strlen(key);
	int i;

	for (i = 1; i < n; i++)
		if (!strncmp(w[i], key, k) && w[i][k] == '=')
			return w[i] + k + 1;
	return NULL;
}

static int num_opt(struct recipe *r, char **w, int n, const char *key,
		   unsigned long long dflt, unsigned long long *v)
{
	const char *s = opt(w, n, key);

	*v = dflt;
	if (s && parse_size(s, v)) {
		out_error(r->out, "lab", 0, "%s: bad %s=%s", r->where, key, s);
		return -1;
	}
	return 0;
}

/* mkdir -p inside the image; *ino gets the last directory. */
static errcode_t mkdirs(ext2_filsys fs, const char *path, ext2_ino_t *ino)
{
	char buf[256], *p, *slash;
	ext2_ino_t dir = EXT2_ROOT_INO, next;
	errcode_t err = 0;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf; *p == '/'; p++)
		;
	while (*p) {
		slash = strchr(p, '/');
		if (slash)
			*slash = 0;
		err = ext2fs_lookup(fs, dir, p, strlen(p), NULL, &next);
		if (err == EXT2_ET_FILE_NOT_FOUND) {
			err = ext2fs_mkdir(fs, dir, 0, p);
			if (err == EXT2_ET_DIR_NO_SPACE) {
				err = ext2fs_expand_dir(fs, dir);
				if (!err)
					err = ext2fs_mkdir(fs, dir, 0, p);
			}
			if (!err)
				err = ext2fs_lookup(fs, dir, p, strlen(p),
						    NULL, &next);
		}
		if (err)
			return err;
		dir = next;
		if (!slash)
			break;
		for (p = slash + 1; *p == '/'; p++)
			;
	}
	*ino = dir;
	return 0;
}

/* dir PATH [group=G]: directories, parents included; with group= the
 * last one's inode is taken from group G's inode table (and the files
 * made in it after it, as libext2fs allocates near their directory). */
static errcode_t step_dir(struct recipe *r, char **w, int n)
{
	ext2_filsys fs = r->d.fs;
	unsigned long long group;
	char parent[256], *name;
	ext2_ino_t dir, ino;
	errcode_t err;

	if (num_opt(r, w, n, "group", ~0ULL, &group))
		return EXT2_ET_INVALID_ARGUMENT;
	if (group == ~0ULL)
		return mkdirs(fs, w[1], &ino);
	if (group >= fs->group_desc_count || *w[1] != '/' ||
	    strlen(w[1]) >= sizeof(parent)) {
		out_error(r->out, "lab", 0, "%s: dir needs an absolute path "
			  "and a group that exists", r->where);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	snprintf(parent, sizeof(parent), "%s", w[1]);
	name = strrchr(parent, '/');
	*name++ = 0;
	if (!*name)
		return EXT2_ET_INVALID_ARGUMENT;
	err = mkdirs(fs, parent, &dir);
	if (!err)
		err = ext2fs_new_inode(fs, group * fs->super->s_inodes_per_group
				       + 1, LINUX_S_IFDIR | 0755, 0, &ino);
	if (!err)
		err = ext2fs_mkdir(fs, dir, ino, name);
	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(fs, dir);
		if (!err)
			err = ext2fs_mkdir(fs, dir, ino, name);
	}
	return err;
}

/* names DIR count=N: DIR made (parents included; it must not exist) as
 * an htree directory holding N empty files of seeded names. */
static errcode_t step_names(struct recipe *r, char **w, int n)
{
	ext2_filsys fs = r->d.fs;
	unsigned long long count;
	char parent[256], *name;
	ext2_ino_t up, dir;
	errcode_t err;

	if (num_opt(r, w, n, "count", 0, &count))
		return EXT2_ET_INVALID_ARGUMENT;
	name = strrchr(w[1], '/');
	if (*w[1] != '/' || !name[1] || strlen(w[1]) >= sizeof(parent) ||
	    count < 1 || count > 100000 ||
	    !ext2fs_namei(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, w[1], &dir)) {
		out_error(r->out, "lab", 0, "%s: names needs a new absolute "
			  "directory and count=1..100000", r->where);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	snprintf(parent, sizeof(parent), "%.*s", (int)(name - w[1]), w[1]);
	err = mkdirs(fs, parent, &up);
	if (!err)
		err = mkdirs(fs, w[1], &dir);
	if (!err)
		err = lab_step_names(&r->d, dir, up, w[1], count);
	return err;
}

/* Gives the journal superblock a sequence number of this scenario's own
 * (a journal that has been used): a journal made afresh starts at 1, so
 * the journal lab can tell its journal from a recreated one. */
static errcode_t journal_stamp(struct recipe *r)
{
	struct jt_journal j;
	errcode_t err;

	err = jt_open_inode(r->d.fs, &j);
	if (err)
		return err;
	j.sequence = 1000 + demo_rand(&r->d) % 900000;
	err = jt_write_sb(&j);
	jt_close(&j);
	return err;
}

/* journal [size=BLOCKS] [fragments=N]: holes of jsize/N blocks between
 * short fillers make the journal come out in N pieces; the fillers are
 * freed afterwards. */
static errcode_t step_journal(struct recipe *r, char **w, int n)
{
	ext2_filsys fs = r->d.fs;
	struct ext2fs_journal_params jp;
	unsigned long long size, frags;
	blk64_t region, pos, hole, fill[64];
	errcode_t err;
	int i, nf = 0;

	err = ext2fs_get_journal_params(&jp, fs);
	if (err)
		return err;
	if (num_opt(r, w, n, "size", jp.num_journal_blocks, &size) ||
	    num_opt(r, w, n, "fragments", 1, &frags))
		return EXT2_ET_INVALID_ARGUMENT;
	if (frags < 1 || frags > 64 || size < 1024) {
		out_error(r->out, "lab", 0, "%s: journal needs size >= 1024 "
			  "and fragments 1..64", r->where);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	jp.num_journal_blocks = size;
	region = ext2fs_group_first_block2(fs, fs->group_desc_count / 2);
	hole = (size + frags - 1) / frags + 1;
	for (pos = region + hole; nf < (int)frags - 1; pos += hole + 8) {
		if (pos + 8 >= ext2fs_blocks_count(fs->super) ||
		    !ext2fs_test_block_bitmap_range2(fs->block_map, pos, 8))
			return EXT2_ET_BLOCK_ALLOC_FAIL;
		ext2fs_block_alloc_stats_range(fs, pos, 8, +1);
		fill[nf++] = pos;
	}
	err = ext2fs_add_journal_inode3(fs, &jp, region,
					EXT2_MKJOURNAL_LAZYINIT |
					EXT2_MKJOURNAL_NO_MNT_CHECK);
	for (i = 0; i < nf; i++)
		ext2fs_block_alloc_stats_range(fs, fill[i], 8, -1);
	if (!err)
		err = journal_stamp(r);
	return err;
}

/* file PATH size=BYTES [fragments=N] [group=G] [gap=BLOCKS] */
static errcode_t step_file(struct recipe *r, char **w, int n)
{
	ext2_filsys fs = r->d.fs;
	unsigned long long size, frags, group, gap;
	const char *path = n > 1 ? w[1] : "", *name;
	struct demo_file f;
	struct demo_run run;
	blk64_t total, piece, left, goal, want;
	char parent[256];
	ext2_ino_t dir;
	errcode_t err;

	name = strrchr(path, '/');
	if (*path != '/' || !name[1] || name - path >= (long)sizeof(parent)) {
		out_error(r->out, "lab", 0, "%s: file needs an absolute path",
			  r->where);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	if (num_opt(r, w, n, "size", 0, &size) ||
	    num_opt(r, w, n, "fragments", 1, &frags) ||
	    num_opt(r, w, n, "group", ~0ULL, &group) ||
	    num_opt(r, w, n, "gap", 16, &gap))
		return EXT2_ET_INVALID_ARGUMENT;
	total = (size + fs->blocksize - 1) / fs->blocksize;
	if (frags < 1 || (total && frags > total) ||
	    (group != ~0ULL && group >= fs->group_desc_count)) {
		out_error(r->out, "lab", 0, "%s: bad fragments or group",
			  r->where);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	snprintf(parent, sizeof(parent), "%.*s", (int)(name - path), path);
	err = mkdirs(fs, parent, &dir);
	if (!err)
		err = demo_file_begin(&r->d, dir, name + 1, path, size, &f);
	goal = group != ~0ULL ? ext2fs_group_first_block2(fs, group) :
	       r->cursor;
	piece = total ? (total + frags - 1) / frags : 0;
	/* bigalloc: pieces of whole clusters keep each logical block at its
	 * physical block's offset in the cluster */
	piece = (piece + EXT2FS_CLUSTER_RATIO(fs) - 1) &
		~(blk64_t)EXT2FS_CLUSTER_MASK(fs);
	for (left = total; !err && left; left -= want, goal += gap) {
		blk64_t todo;

		want = piece < left ? piece : left;
		for (todo = want; !err && todo; todo -= run.len) {
			err = demo_find_free(&r->d, goal, todo, &run);
			if (!err)
				err = demo_file_put(&r->d, &f, f.next_lblk,
						    run.start, run.len, 0);
			goal = run.start + run.len;
		}
	}
	if (!err)
		err = demo_file_end(&r->d, &f);
	if (goal > r->cursor)
		r->cursor = goal;
	return err;
}

/* A hash of the seed, a choice's text and its occurrence: the same
 * {choice} picks the same value in a lab's main and companion recipes. */
static uint64_t pick(uint64_t seed, const char *text, size_t len, int k)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ seed;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 0x100000001b3ULL;
	h = (h ^ (unsigned)k) * 0x100000001b3ULL;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 32);
}

/*
 * Expands the seed's choices in a recipe line: {A|B|C} one of the words,
 * {LO..HI} or {LO..HI:STEP} a number.  A new string (free()), or NULL
 * with a message on out.
 */
char *lab_recipe_expand(const char *line, uint64_t seed, const char *where,
			struct sink *out)
{
	struct strbuf sb = {0};
	const char *p = line, *open, *close;
	unsigned long long lo, hi, step, v;
	int k = 0;

	while ((open = strchr(p, '{'))) {
		const char *q, *bar;
		size_t n, len;
		char tail[2];

		strbuf_add(&sb, p, open - p);
		close = strchr(open, '}');
		if (!close)
			goto bad;
		len = close - open - 1;
		v = pick(seed, open + 1, len, k++);
		step = 1;
		if (sscanf(open + 1, "%llu..%llu%1[}:]", &lo, &hi, tail) == 3 &&
		    (tail[0] == '}' || sscanf(strchr(open, ':') + 1,
					      "%llu%1[}]", &step, tail) == 2) &&
		    lo <= hi && step) {
			unsigned long long span = (hi - lo) / step;

			/* span + 1 choices (any v when that overflows) */
			if (span < ~0ULL)
				v %= span + 1;
			strbuf_printf(&sb, "%llu", lo + v * step);
		} else {
			for (n = 1, q = open + 1; q < close; q++)
				n += *q == '|';
			if (n < 2)
				goto bad;
			v %= n;
			for (q = open + 1; v; v--)
				q = strchr(q, '|') + 1;
			bar = memchr(q, '|', close - q);
			strbuf_add(&sb, q, (bar ? bar : close) - q);
		}
		p = close + 1;
	}
	strbuf_add(&sb, p, strlen(p));
	return sb.buf;
bad:
	out_error(out, "lab", 0, "%s: a {choice} is {A|B...}, {LO..HI} or "
		  "{LO..HI:STEP}", where);
	strbuf_free(&sb);
	return NULL;
}

int lab_recipe_step_known(const char *word)
{
	static const char *const steps[] = {
		"mkfs", "noflex", "journal", "file", "dir", "delete",
		"corrupt", "dirty_journal", "names", "kernel", NULL
	};
	const char *const *p;

	for (p = steps; *p; p++)
		if (!strcmp(*p, word))
			return 1;
	return 0;
}

static int split(char *line, char **w)
{
	int n = 0;
	char *p = strtok(line, " \t\n");

	for (; p && n < RECIPE_WORDS; p = strtok(NULL, " \t\n"))
		w[n++] = p;
	return n;
}

static errcode_t mkfs_geom(struct recipe *r, char **w, int n, int noflex,
			   struct demo_geom *g)
{
	unsigned long long size, bs, flex, ratio, cluster;
	const char *feat = opt(w, n, "features");
	static char fbuf[256];
	int i;

	if (num_opt(r, w, n, "size", 256ULL << 20, &size) ||
	    num_opt(r, w, n, "blocksize", 4096, &bs) ||
	    num_opt(r, w, n, "flex", 16, &flex) ||
	    num_opt(r, w, n, "inode_ratio", 16384, &ratio) ||
	    num_opt(r, w, n, "cluster", 0, &cluster))
		return EXT2_ET_INVALID_ARGUMENT;
	for (i = 1; i < n; i++)
		noflex |= !strcmp(w[i], "noflex");
	memset(g, 0, sizeof(*g));
	g->log_block_size = bs == 1024 ? 0 : bs == 2048 ? 1 : 2;
	while ((1ULL << g->log_flex) < flex && g->log_flex < 31)
		g->log_flex++;
	if ((1024ULL << g->log_block_size) != bs || (1ULL << g->log_flex) !=
	    flex || size < (4ULL << 20) || size > (64ULL << 30) ||
	    ratio < 1024) {
		out_error(r->out, "lab", 0, "%s: mkfs needs blocksize 1024, "
			  "2048 or 4096, flex a power of two, 4M <= size <= "
			  "64G", r->where);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	/* cluster=BYTES: bigalloc, as mke2fs -O bigalloc -C BYTES */
	while (cluster && (bs << g->cluster_bits) < cluster &&
	       g->cluster_bits < 8)
		g->cluster_bits++;
	if (cluster && ((bs << g->cluster_bits) != cluster ||
			!g->cluster_bits)) {
		out_error(r->out, "lab", 0, "%s: cluster= must be the block "
			  "size times 2, 4, ... 256", r->where);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	g->blocks = size / bs;
	g->inode_ratio = ratio;
	snprintf(fbuf, sizeof(fbuf), "%s%s%s", feat ? feat : "",
		 feat && noflex ? "," : "", noflex ? "^flex_bg" : "");
	g->features = fbuf[0] ? fbuf : NULL;
	return 0;
}

errcode_t lab_recipe_run(const struct lab *lab, const char *tag,
			 const char *path, struct sink *out)
{
	struct recipe r;
	struct demo_geom g;
	char *lines[64], *w[RECIPE_WORDS], where[96];
	int nl = 0, i, n, noflex = 0, existed, kfirst = 0, damaged = 0;
	errcode_t err = 0;
	const char *v;

	memset(&r, 0, sizeof(r));
	r.out = r.d.log = out;
	r.where = where;
	/* The trainee's seed (1 before there is one); a companion image gets
	 * its own UUID and file contents. */
	r.d.seed = lab_seed_tag(lab->seed ? lab->seed : 1, tag);
	for (i = 0; (v = lab_get(lab, "recipe", tag, i)) && nl < 64; i++) {
		snprintf(where, sizeof(where), "%s.lab recipe%s%s%s line %d",
			 lab->name, *tag ? "[" : "", tag, *tag ? "]" : "",
			 i + 1);
		lines[nl] = lab_recipe_expand(v, lab->seed ? lab->seed : 1,
					      where, out);
		if (!lines[nl]) {
			err = EXT2_ET_INVALID_ARGUMENT;
			goto out;
		}
		if (!strcmp(lines[nl], "noflex"))
			noflex = 1;
		nl++;
	}
	snprintf(where, sizeof(where), "%s.lab recipe%s%s%s", lab->name,
		 *tag ? "[" : "", tag, *tag ? "]" : "");
	n = nl ? split(lines[0], w) : 0;
	if (!n || strcmp(w[0], "mkfs")) {
		out_error(out, "lab", 0, "%s: the first recipe line must be "
			  "mkfs", where);
		err = EXT2_ET_INVALID_ARGUMENT;
		goto out;
	}
	err = mkfs_geom(&r, w, n, noflex, &g);
	if (!err)
		err = demo_begin(&r.d, path, &g, &existed);
	if (err && !r.d.fs)
		goto out;
	if (!err)
		r.cursor = ext2fs_group_first_block2(r.d.fs, 0);
	for (i = 1; !err && i < nl; i++) {
		snprintf(where, sizeof(where), "%s.lab recipe%s%s%s line %d",
			 lab->name, *tag ? "[" : "", tag, *tag ? "]" : "",
			 i + 1);
		if (!strncmp(lines[i], "kernel ", 7)) {
			if (!kfirst)
				kfirst = i;
			continue;
		}
		if (kfirst) {
			out_error(out, "lab", 0, "%s: kernel steps come last "
				  "(they run on the finished image)", where);
			err = EXT2_ET_INVALID_ARGUMENT;
			break;
		}
		n = split(lines[i], w);
		if (!strcmp(w[0], "noflex")) {
			continue;
		} else if (!strcmp(w[0], "journal")) {
			err = step_journal(&r, w, n);
		} else if (!strcmp(w[0], "file")) {
			err = step_file(&r, w, n);
		} else if (!strcmp(w[0], "dir") && (n == 2 || n == 3)) {
			err = step_dir(&r, w, n);
		} else if (!strcmp(w[0], "names") && n == 3) {
			err = step_names(&r, w, n);
		} else if (!strcmp(w[0], "delete") && n == 2) {
			err = lab_step_delete(r.d.fs, w[1]);
		} else if (!strcmp(w[0], "corrupt")) {
			err = lab_step_corrupt(r.d.fs, w, n);
			damaged = 1;
		} else if (!strcmp(w[0], "dirty_journal") && n == 2) {
			err = lab_step_dirty_journal(r.d.fs, w[1]);
			damaged = 1;
		} else {
			out_error(out, "lab", 0, "%s: unknown step %s", where,
				  w[0]);
			err = EXT2_ET_INVALID_ARGUMENT;
		}
		if (err && err != EXT2_ET_INVALID_ARGUMENT)
			out_error(out, "lab", err, "%s", where);
	}
	if (!err && kfirst && damaged) {
		/* the kernel mounts (as root) only what it should trust */
		out_error(out, "lab", 0, "%s: kernel steps need a clean image: "
			  "no corrupt or dirty_journal step before them", where);
		err = EXT2_ET_INVALID_ARGUMENT;
	}
	err = demo_end(&r.d, path, err);
	if (!err && kfirst) {
		snprintf(where, sizeof(where), "%s.lab recipe%s%s%s line %d",
			 lab->name, *tag ? "[" : "", tag, *tag ? "]" : "",
			 kfirst + 1);
		err = lab_kernel_steps(path, lines + kfirst, nl - kfirst,
				       r.d.seed, where, out);
		if (err && err != EBUSY)
			unlink(path);	/* never a half-built scenario (but
					 * never one still mounted either) */
	}
out:
	for (i = 0; i < nl; i++)
		free(lines[i]);
	return err;
}

errcode_t lab_build(const struct lab *lab, const char *dir, char **img,
		    struct sink *out)
{
	char path[4096];
	errcode_t err = 0;
	size_t i, j;

	*img = NULL;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		err = errno;
		out_error(out, "lab", err, "while making %s", dir);
		return err;
	}
	for (i = 0; !err && i < lab->n; i++) {
		if (strcmp(lab->l[i].key, "recipe"))
			continue;
		for (j = 0; j < i; j++)	/* the first line of each tag */
			if (!strcmp(lab->l[j].key, "recipe") &&
			    !strcmp(lab->l[j].tag, lab->l[i].tag))
				break;
		if (j < i)
			continue;
		snprintf(path, sizeof(path), "%s/%s%s%s.img", dir, lab->name,
			 *lab->l[i].tag ? "-" : "", lab->l[i].tag);
		err = lab_recipe_run(lab, lab->l[i].tag, path, out);
		if (!err && !*lab->l[i].tag) {
			*img = strdup(path);
			if (!*img)
				err = ENOMEM;
		}
	}
	if (!err && !*img) {
		out_error(out, "lab", 0, "lab %s has no recipe", lab->name);
		err = EXT2_ET_INVALID_ARGUMENT;
	}
	if (err && err != EXT2_ET_INVALID_ARGUMENT)
		out_error(out, "lab", err, "while building lab %s in %s",
			  lab->name, dir);
	return err;
}

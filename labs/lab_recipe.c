/* lab_recipe.c - builds a lab's scenario image from its recipe lines
 * (mkfs, noflex, seed, journal, dir, file) with the demo's image writer
 * (labs/demo_int.h): libext2fs only, no root, no mount. */
#include "lab.h"
#include "demo_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	unsigned long long size, bs, flex, ratio, seed;
	const char *feat = opt(w, n, "features");
	static char fbuf[256];
	int i;

	if (num_opt(r, w, n, "size", 256ULL << 20, &size) ||
	    num_opt(r, w, n, "blocksize", 4096, &bs) ||
	    num_opt(r, w, n, "flex", 16, &flex) ||
	    num_opt(r, w, n, "inode_ratio", 16384, &ratio) ||
	    num_opt(r, w, n, "seed", 1, &seed))
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
	g->blocks = size / bs;
	g->inode_ratio = ratio;
	snprintf(fbuf, sizeof(fbuf), "%s%s%s", feat ? feat : "",
		 feat && noflex ? "," : "", noflex ? "^flex_bg" : "");
	g->features = fbuf[0] ? fbuf : NULL;
	r->d.seed = seed;
	return 0;
}

errcode_t lab_recipe_run(const struct lab *lab, const char *tag,
			 const char *path, struct sink *out)
{
	struct recipe r;
	struct demo_geom g;
	char *lines[64], *w[RECIPE_WORDS], where[96];
	int nl = 0, i, n, noflex = 0, existed;
	errcode_t err = 0;
	const char *v;

	memset(&r, 0, sizeof(r));
	r.out = r.d.log = out;
	r.where = where;
	for (i = 0; (v = lab_get(lab, "recipe", tag, i)) && nl < 64; i++) {
		lines[nl] = strdup(v);
		if (!lines[nl])
			goto nomem;
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
		n = split(lines[i], w);
		if (!strcmp(w[0], "noflex")) {
			continue;
		} else if (!strcmp(w[0], "journal")) {
			err = step_journal(&r, w, n);
		} else if (!strcmp(w[0], "file")) {
			err = step_file(&r, w, n);
		} else if (!strcmp(w[0], "dir") && n == 2) {
			ext2_ino_t ino;

			err = mkdirs(r.d.fs, w[1], &ino);
		} else {
			out_error(out, "lab", 0, "%s: unknown step %s", where,
				  w[0]);
			err = EXT2_ET_INVALID_ARGUMENT;
		}
		if (err && err != EXT2_ET_INVALID_ARGUMENT)
			out_error(out, "lab", err, "%s", where);
	}
	err = demo_end(&r.d, path, err);
	goto out;
nomem:
	err = ENOMEM;
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

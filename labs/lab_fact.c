/* lab_fact.c - the facts a lab's checks read from images: the journal's
 * runs, a file's extents, flex islands, group metadata places, the worst
 * file; of the checked image, a companion image, or the fresh scenario. */
#include "lab_int.h"
#include "flex.h"
#include "frag.h"
#include "journal.h"
#include "owner.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void set_num(struct lab_fact *f, unsigned long long n)
{
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

/* Builds the fresh scenario once, into a temporary file. */
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

/* The inode's leaf extents: unwritten ones and the first block. */
static errcode_t walk_extents(ext2_filsys fs, ext2_ino_t ino,
			      unsigned long long *unwritten, blk64_t *first)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent e;
	int op = EXT2_EXTENT_ROOT;
	errcode_t err;

	*unwritten = 0;
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
		if (e.e_flags & EXT2_EXTENT_FLAGS_UNINIT)
			(*unwritten)++;
	}
	ext2fs_extent_free(h);
	return err == EXT2_ET_EXTENT_NO_NEXT ? 0 : err;
}

static const char *fact_file(struct session *s, const char *path,
			     const char *field, struct lab_fact *f)
{
	ext2_filsys fs = s->fs;
	struct ext2_inode inode;
	struct frag_file ff;
	unsigned long long unw;
	ext2_ino_t ino;
	blk64_t first;

	if (ext2fs_namei(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, path, &ino) ||
	    ext2fs_read_inode(fs, ino, &inode))
		return "no such file";
	if (!strcmp(field, "size")) {
		set_num(f, EXT2_I_SIZE(&inode));
	} else if (!strcmp(field, "extents") || !strcmp(field, "blocks")) {
		if (frag_file_get(s, ino, &ff))
			return "cannot read its blocks";
		set_num(f, field[0] == 'e' ? ff.extents : ff.blocks);
	} else if (!strcmp(field, "unwritten") || !strcmp(field, "first") ||
		   !strcmp(field, "group")) {
		if (!(inode.i_flags & EXT4_EXTENTS_FL))
			return "not extent-mapped";
		if (walk_extents(fs, ino, &unw, &first))
			return "cannot read its extent tree";
		if (field[0] == 'g' && !first)
			return "the file has no blocks";
		set_num(f, field[0] == 'u' ? unw : field[0] == 'f' ? first :
			ext2fs_group_of_blk2(fs, first));
	} else {
		return "unknown file field";
	}
	return NULL;
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
	else if (!strcmp(field, "runs"))
		for (i = 0; i < j.next; i++)
			add_range(f, j.ext[i].pblk, j.ext[i].len);
	else
		msg = "unknown journal field";
out:
	journal_release(&j);
	return msg;
}

/* "name(ARG).field": splits into arg and field; NULL when not that form. */
static const char *call(const char *e, const char *name, char *arg,
			size_t len)
{
	size_t n = strlen(name);
	const char *close;

	if (strncmp(e, name, n) || e[n] != '(' || !(close = strchr(e, ')')))
		return NULL;
	snprintf(arg, len, "%.*s", (int)(close - e - n - 1), e + n + 1);
	return *++close == '.' ? close + 1 : close;
}

/* Evaluates a fact; NULL on success, or why it could not. */
static const char *fact_eval(struct lab_images *im, const char *e,
			     struct lab_fact *f)
{
	const char *tag = "", *rest, *why;
	struct session *s;
	ext2_filsys fs;
	char arg[256], *end;
	unsigned long g = 0;
	int taglen = 0;

	strbuf_reset(&f->s);
	f->isnum = 0;
	if (*e == '[' && (rest = strchr(e, ']'))) {
		tag = e + 1;
		taglen = rest - tag;
		e = rest + 1;
	}
	/* file(FACT).field: the path is itself a fact, evaluated first
	 * (it may name another image). */
	rest = call(e, "file", arg, sizeof(arg));
	if (rest && arg[0] != '/') {
		struct lab_fact p = {{0}, 0, 0};

		why = fact_eval(im, arg, &p);
		snprintf(arg, sizeof(arg), "%s", p.s.buf ? p.s.buf : "");
		strbuf_free(&p.s);
		if (why)
			return why;
		if (arg[0] != '/')
			return "no such file";
	}
	s = image_for(im, tag, taglen);
	if (!s || !s->fs)
		return "cannot open the image it is about";
	fs = s->fs;
	if (!strncmp(e, "journal.", 8))
		return fact_journal(fs, e + 8, f);
	if (rest)
		return fact_file(s, arg, rest, f);
	if (!strcmp(e, "groups")) {
		set_num(f, fs->group_desc_count);
		return NULL;
	}
	if (!strcmp(e, "sb_backups")) {
		for (g = 1; g < fs->group_desc_count; g++)
			if (ext2fs_bg_has_super(fs, g))
				add_range(f, ext2fs_group_first_block2(fs, g),
					  1);
		return NULL;
	}
	if (!strcmp(e, "frag.worst") || !strcmp(e, "frag.worst.extents")) {
		struct frag_files ff;
		char *name = NULL;

		if (frag_files_get(s, 1, &ff))
			return "cannot measure fragmentation";
		if (e[10] && ff.nworst)
			set_num(f, ff.worst[0].extents);
		else if (e[10])
			set_num(f, 0);
		else if (ff.nworst) {
			ext2_ino_t dir = 0;

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
	rest = NULL;
	if (strchr(e, '(')) {
		rest = strchr(e, '(') + 1;
		g = strtoul(rest, &end, 0);
		if (end == rest || *end != ')')
			return "bad argument";
		rest = end + 1;
	}
	if (rest && !strncmp(e, "flex(", 5) && (!strcmp(rest, ".layout") ||
						!strcmp(rest, ".packed"))) {
		int packed = !strcmp(rest, ".packed");

		why = lab_flex_layout(fs, g, packed, &f->s);

		if (!why && packed) {
			int ok = f->s.buf && !strcmp(f->s.buf, "1");

			strbuf_reset(&f->s);
			set_num(f, ok);
		}
		return why;
	}
	if (rest && !strncmp(e, "flex(", 5) && !strcmp(rest, ".islands")) {
		struct e2l_flex fx;

		if (g >= flex_count(fs) || flex_get(fs, g, &fx))
			return "no such flex group";
		set_num(f, fx.nislands);
		flex_release(&fx);
		return NULL;
	}
	if (!rest || *rest || g >= fs->group_desc_count)
		return "unknown fact or no such group";
	if (!strncmp(e, "group_first(", 12)) {
		set_num(f, ext2fs_group_first_block2(fs, g));
		return NULL;
	}
	if (!strncmp(e, "gdt(", 4)) {
		blk64_t sb, old, new;
		blk_t used;

		ext2fs_super_and_bgd_loc2(fs, g, &sb, &old, &new, &used);
		if (old)
			add_range(f, old, fs->desc_blocks);
		else if (new)
			add_range(f, new, 1);
		return NULL;
	}
	if (!strncmp(e, "inode_table(", 12))
		add_range(f, ext2fs_inode_table_loc(fs, g),
			  fs->inode_blocks_per_group);
	else if (!strncmp(e, "block_bitmap(", 13))
		add_range(f, ext2fs_block_bitmap_loc(fs, g), 1);
	else if (!strncmp(e, "inode_bitmap(", 13))
		add_range(f, ext2fs_inode_bitmap_loc(fs, g), 1);
	else
		return "unknown fact";
	return NULL;
}


const char *lab_fact_eval(struct lab_images *im, const char *e,
			  struct lab_fact *f)
{
	struct lab_fact r = {{0}, 0, 0};
	const char *minus = strstr(e, " - "), *why;
	char left[256];

	if (!minus)
		return fact_eval(im, e, f);
	/* "A - B": a difference of two numeric facts (or numbers). */
	snprintf(left, sizeof(left), "%.*s", (int)(minus - e), e);
	why = fact_eval(im, left, f);
	if (!why)
		why = fact_eval(im, minus + 3, &r);
	if (!why && (!f->isnum || !r.isnum))
		why = "not a number";
	if (!why && r.n > f->n)
		why = "the difference is negative";
	if (!why) {
		strbuf_reset(&f->s);
		set_num(f, f->n - r.n);
	}
	strbuf_free(&r.s);
	return why;
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

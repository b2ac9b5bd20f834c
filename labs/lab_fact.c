/* lab_fact.c - the fact language of a lab's checks and claims: one table
 * of the fact families (their names, argument and fields), the images a
 * fact is about (the checked one, a companion, the fresh scenario) and
 * arithmetic on facts; the families are read in lab_fact_fs.c and
 * lab_fact_file.c (help/labs/README.md lists them all). */
#include "lab_int.h"
#include "lab_htree.h"
#include "lab_choice.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lab_fact_num(struct lab_fact *f, unsigned long long n)
{
	strbuf_reset(&f->s);
	f->n = n;
	f->isnum = 1;
	strbuf_printf(&f->s, "%llu", n);
}

void lab_fact_range(struct lab_fact *f, blk64_t a, blk64_t len)
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

static const char *fact_dir(const struct lab_fact_arg *a, struct lab_fact *f)
{
	const char *why = lab_fact_dir(a->s->fs, a->path, a->field, &f->n);

	if (!why)
		lab_fact_num(f, f->n);
	return why;
}

static const char *fact_dirent(const struct lab_fact_arg *a,
			       struct lab_fact *f)
{
	return lab_fact_dirent(a->s->fs, a->path, a->field, &f->s, &f->n,
			       &f->isnum);
}

static const char *fact_trace(const struct lab_fact_arg *a,
			      struct lab_fact *f)
{
	return lab_fact_trace(a->im->image, a->path, a->field, f);
}

static const char *fact_exp(const struct lab_fact_arg *a, struct lab_fact *f)
{
	return lab_fact_exp(a->im->image, a->path, a->field, f);
}

/* choice(KEY): the letter of KEY's right choice in this trainee's order. */
static const char *fact_choice(const struct lab_fact_arg *a,
			       struct lab_fact *f)
{
	char c = lab_choice_letter(a->im->lab, a->path);

	if (!c)
		return "the lab has no choice[KEY] lines for this key";
	strbuf_add(&f->s, &c, 1);
	return NULL;
}

enum fact_form {
	FA_NONE,	/* name or name.field */
	FA_NUM,		/* name(EXPR)[.field] */
	FA_PATH,	/* name(/path).field, the path as written */
	FA_FILE,	/* file(/path).field, or file(EXPR) giving a path */
};

/* Every fact family: the names it answers to (space-separated), its
 * argument, its fields (NULL: none; a leading "-": the field may be left
 * out) and what reads it. */
static const struct fact_family {
	const char *names;
	enum fact_form form;
	const char *fields;
	int no_image;		/* read beside the image, not in it */
	const char *(*eval)(const struct lab_fact_arg *a, struct lab_fact *f);
	int (*field_ok)(const char *field, size_t n);	/* else fields */
} families[] = {
	{ "groups blocks_count blocks_per_group inodes_per_group "
	  "first_data_block block_size inode_size groups_per_flex "
	  "descs_per_block first_meta_bg reserved_gdt_blocks sb_backups "
	  "deleted cluster_size cluster_blocks clusters_per_group",
	  FA_NONE, NULL, 0, lab_fact_super, NULL },
	{ "fs", FA_NONE, "uuid hash_seed mkfs_time", 0, lab_fact_super, NULL },
	{ "journal", FA_NONE, "extents blocks start runs inode sequence "
	  "dirty maxlen fc_blocks fc_start", 0, lab_fact_journal, NULL },
	{ "frag.worst", FA_NONE, "- extents", 0, lab_fact_worst, NULL },
	{ "group_first group_last gdt inode_table block_bitmap "
	  "inode_bitmap group_of desc_block desc_copies",
	  FA_NUM, NULL, 0, lab_fact_group, NULL },
	{ "owner", FA_NUM, NULL, 0, lab_fact_owner, NULL },
	{ "inode", FA_NUM, "group table_block offset links size generation "
	  "dtime ctime sum", 0, lab_fact_inode, NULL },
	{ "flex", FA_NUM, "layout packed islands", 0, lab_fact_flex, NULL },
	{ "file", FA_FILE, "exists ino size allocated sum extents blocks "
	  "unwritten "
	  "unwritten_blocks written first group depth leaf_entries",
	  0, lab_fact_file, NULL },
	{ "dir", FA_PATH, "indexed depth blocks", 0, fact_dir, NULL },
	{ "dirent", FA_PATH, "hash minor leaf", 0, fact_dirent, NULL },
	{ "trace", FA_PATH, "uuid first group inode blocks", 1, fact_trace,
	  NULL },
	{ "exp", FA_PATH, "", 1, fact_exp, lab_exp_field_ok },
	{ "choice", FA_PATH, NULL, 1, fact_choice, NULL },
};

/* Is s[0..n) one of the space-separated words? */
static int among(const char *words, const char *s, size_t n)
{
	const char *w = words;
	size_t k;

	while (*w) {
		k = strcspn(w, " ");
		if (k == n && !strncmp(w, s, n))
			return 1;
		w += k;
		w += *w == ' ';
	}
	return 0;
}

/* The family of name[0..len) (with hasarg, the text before '('); for a
 * family without an argument, *field is set to what follows "name.". */
static const struct fact_family *family_of(const char *name, size_t len,
					   int hasarg, const char **field)
{
	const struct fact_family *fam;
	size_t i, k;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		fam = &families[i];
		if ((fam->form != FA_NONE) != hasarg)
			continue;
		if (among(fam->names, name, len))
			return fam;
		if (hasarg || !fam->fields)
			continue;
		/* name.field: the longest family name that prefixes it */
		k = strlen(fam->names);
		if (len > k + 1 && !strncmp(name, fam->names, k) &&
		    name[k] == '.') {
			*field = name + k + 1;
			return fam;
		}
	}
	return NULL;
}

/*
 * One fact, e[0..len): [TAG]name, [TAG]name.field, [TAG]name(ARG)[.field],
 * a number, a "text".  With im NULL only its form is checked (lab load).
 */
static const char *fact_eval(struct lab_images *im, const char *e,
			     size_t len, struct lab_fact *f)
{
	const char *tag = "", *end = e + len, *open, *close, *why, *field;
	const struct fact_family *fam;
	struct lab_fact v = {{0}, 0, 0};
	struct lab_fact_arg a;
	char name[64], fld[64], path[256], *num_end;
	int taglen = 0;
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
		unsigned long long n = strtoull(e, &num_end, 0);

		if (num_end != end)
			return "bad number";
		if (im)
			lab_fact_num(f, n);
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
	memset(&a, 0, sizeof(a));
	a.im = im;
	a.path = path;
	path[0] = 0;
	open = memchr(e, '(', end - e);
	nl = (open ? open : end) - e;
	if (open && nl == 3 && !strncmp(e, "ino", 3))
		return "ino(PATH) is file(PATH).ino";
	field = NULL;
	fam = family_of(e, nl, open != NULL, &field);
	if (!fam)
		return "unknown fact";
	if (field)	/* name.field */
		nl = field - 1 - e;
	if (nl >= sizeof(name))
		return "unknown fact";
	snprintf(name, sizeof(name), "%.*s", (int)nl, e);
	if (open) {
		close = closing(open);
		if (!close || close >= end)
			return "no ) to close (";
		if (close + 1 < end && close[1] != '.')
			return "unexpected text after )";
		field = close + 1 < end ? close + 2 : end;
		if (fam->form == FA_PATH ||
		    (fam->form == FA_FILE && open[1] == '/')) {
			if (close - open - 1 >= (long)sizeof(path))
				return "path too long";
			snprintf(path, sizeof(path), "%.*s",
				 (int)(close - open - 1), open + 1);
		} else {
			/* The argument is itself an expression. */
			why = expr_eval(im, open + 1, close - open - 1, &v);
			if (!why && im && fam->form == FA_FILE)
				snprintf(path, sizeof(path), "%s",
					 v.s.buf ? v.s.buf : "");
			else if (!why && im && !v.isnum)
				why = "the argument is not a number";
			a.n = v.n;
			strbuf_free(&v.s);
			if (why)
				return why;
			if (im && fam->form == FA_FILE && path[0] != '/')
				return "no such file";
		}
	} else if (!field) {
		field = end;
	}
	nl = end - field;
	/* Is the field one the family has?  (im NULL: that is all.) */
	if (nl >= sizeof(fld))
		return "unknown field";
	snprintf(fld, sizeof(fld), "%.*s", (int)nl, field);
	if (fam->field_ok ? !fam->field_ok(fld, nl) :
	    !fam->fields ? nl != 0 : nl ? !among(fam->fields, fld, nl) :
	    strncmp(fam->fields, "- ", 2))
		return !fam->fields ? "unexpected .field" : nl ?
		       "unknown field" : "a .field is needed";
	if (!im)
		return NULL;
	a.name = name;
	a.field = fld;
	if (!fam->no_image) {
		a.s = image_for(im, tag, taglen);
		if (!a.s || !a.s->fs)
			return "cannot open the image it is about";
	}
	strbuf_reset(&f->s);
	f->isnum = 0;
	/* a family returns NULL or a static message, never into a */
	/* cppcheck-suppress returnDanglingLifetime */
	return fam->eval(&a, f);
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
		lab_fact_num(f, same == (*op == '='));
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
	lab_fact_num(f, v);
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

/* lab_check.c - a lab's checks, a small declarative language: facts read
 * from the image (journal.extents, file(P).unwritten, flex(N).islands,
 * sb_backups, inode_table(G)...), compared with numbers, or with the
 * trainee's answers; `fsck clean` runs e2fsck -fn. */
#include "lab.h"
#include "flex.h"
#include "frag.h"
#include "journal.h"
#include "session.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

struct fact {
	struct strbuf s;	/* the value as text */
	unsigned long long n;
	int isnum;
};

struct ctx {
	const char *image;
	struct sink *out;	/* the account */
	struct sink quiet;	/* errors of helper sessions */
	struct session main, other;
	char other_tag[32];
	char *answers;		/* the answers file, or NULL */
};

static void quiet_write(void *c, enum sink_chan ch, const char *b, size_t n)
{
	(void)c; (void)ch; (void)b; (void)n;
}

static void set_num(struct fact *f, unsigned long long n)
{
	f->n = n;
	f->isnum = 1;
	strbuf_printf(&f->s, "%llu", n);
}

static void add_range(struct fact *f, blk64_t a, blk64_t len)
{
	strbuf_printf(&f->s, "%s%llu", f->s.len ? "," : "",
		      (unsigned long long)a);
	if (len > 1)
		strbuf_printf(&f->s, "-%llu", (unsigned long long)(a + len - 1));
}

/* The session of the image a tag names ("" the checked image). */
static struct session *image_for(struct ctx *c, const char *tag, int taglen)
{
	char path[4096];
	size_t n = strlen(c->image);

	if (!taglen)
		return &c->main;
	if (c->other.fs && (int)strlen(c->other_tag) == taglen &&
	    !strncmp(c->other_tag, tag, taglen))
		return &c->other;
	session_close(&c->other);
	if (n > 4 && !strcmp(c->image + n - 4, ".img"))
		n -= 4;
	snprintf(path, sizeof(path), "%.*s-%.*s.img", (int)n, c->image,
		 taglen, tag);
	snprintf(c->other_tag, sizeof(c->other_tag), "%.*s", taglen, tag);
	session_init(&c->other, &c->quiet);
	if (session_open(&c->other, path, 0, NULL, 0, 0))
		return NULL;
	return &c->other;
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
			     const char *field, struct fact *f)
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
	} else if (!strcmp(field, "unwritten") || !strcmp(field, "first")) {
		if (!(inode.i_flags & EXT4_EXTENTS_FL))
			return "not extent-mapped";
		if (walk_extents(fs, ino, &unw, &first))
			return "cannot read its extent tree";
		set_num(f, field[0] == 'u' ? unw : first);
	} else {
		return "unknown file field";
	}
	return NULL;
}

static const char *fact_journal(ext2_filsys fs, const char *field,
				struct fact *f)
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
static const char *fact_eval(struct ctx *c, const char *e, struct fact *f)
{
	const char *tag = "", *rest;
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
	s = image_for(c, tag, taglen);
	if (!s || !s->fs)
		return "cannot open the image it is about";
	fs = s->fs;
	if (!strncmp(e, "journal.", 8))
		return fact_journal(fs, e + 8, f);
	if ((rest = call(e, "file", arg, sizeof(arg))))
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
	if (!strcmp(e, "frag.worst")) {
		struct frag_files ff;
		char *name = NULL;

		if (frag_files_get(s, 1, &ff))
			return "cannot measure fragmentation";
		if (ff.nworst && !ext2fs_get_pathname(fs, ff.worst[0].ino, 0,
						       &name))
			strbuf_printf(&f->s, "%s", name);
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
		const char *why = lab_flex_layout(fs, g, packed, &f->s);

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

/* Lower case, no white space: "32768, 98304" == "32768,98304". */
static void normalize(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (; *in && n + 1 < len; in++)
		if (!isspace((unsigned char)*in) && *in != '"')
			out[n++] = tolower((unsigned char)*in);
	out[n] = 0;
}

/* The trainee's answer to key, or NULL. */
static const char *answer_of(struct ctx *c, const char *key, char *buf,
			     size_t len)
{
	const char *p, *eq, *nl;
	size_t k = strlen(key);

	for (p = c->answers; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, key, k))
			continue;
		eq = p + k;
		while (*eq == ' ' || *eq == '\t')
			eq++;
		if (*eq != '=' && *eq != ':')
			continue;
		for (eq++; *eq == ' ' || *eq == '\t'; eq++)
			;
		snprintf(buf, len, "%.*s", (int)((nl ? nl : eq + strlen(eq)) -
						 eq), eq);
		return buf;
	}
	return NULL;
}

static int run_fsck(const char *image)
{
	char *argv[] = { (char *)"e2fsck", (char *)"-fn", (char *)image, NULL };
	posix_spawn_file_actions_t fa;
	int status = -1;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "e2fsck", &fa, NULL, argv, environ) == 0 &&
	    waitpid(pid, &status, 0) != pid)
		status = -1;
	posix_spawn_file_actions_destroy(&fa);
	if (status == -1)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* FACT == FACT, FACT != FACT: the two values as text (white space and
 * case aside), e.g. this image's layout against a companion image's. */
static int fact_vs_fact(struct ctx *c, const char *expr, const char *k1,
			const char *op, const char *k2, const char *note)
{
	struct fact a = {{0}, 0, 0}, b = {{0}, 0, 0};
	char x[4096], y[4096];
	const char *why;
	int met = 0, rc = 1;

	why = fact_eval(c, k1, &a);
	if (!why)
		why = fact_eval(c, k2, &b);
	if (!why && strcmp(op, "==") && strcmp(op, "!="))
		why = "unknown comparison";
	if (why) {
		out_printf(c->out, "  NOT MET %s: %s\n", expr, why);
		goto out;
	}
	normalize(a.s.buf ? a.s.buf : "", x, sizeof(x));
	normalize(b.s.buf ? b.s.buf : "", y, sizeof(y));
	met = !strcmp(x, y) == !strcmp(op, "==");
	if (met)
		out_printf(c->out, "  ok      %s\n", expr);
	else
		out_printf(c->out, "  NOT MET %s: %s is %s, %s is %s%s%s\n",
			   expr, k1, x, k2, y, note ? ": " : "",
			   note ? note : "");
	rc = !met;
out:
	strbuf_free(&a.s);
	strbuf_free(&b.s);
	return rc;
}

/* Runs one check; 0 met, 1 not met (the account says why), 2 broken. */
static int one_check(struct ctx *c, const char *line)
{
	char expr[256], key[256], want[512], got[512], buf[512], op[3] = "";
	struct fact f = {{0}, 0, 0};
	const char *why, *note, *lit;
	unsigned long long v;
	int rc = 2, met = 0, n;

	note = strstr(line, " -- ");
	snprintf(expr, sizeof(expr), "%.*s",
		 (int)(note ? note - line : (long)strlen(line)), line);
	note = note ? note + 4 : NULL;
	if (!strcmp(expr, "live")) {
		out_printf(c->out, "  STUB    this lab needs a mounted "
			   "filesystem and kernel tracing; its goal cannot be "
			   "checked on an image\n");
		return 1;
	}
	if (!strcmp(expr, "fsck clean")) {
		n = run_fsck(c->image);
		if (n < 0) {
			out_printf(c->out, "  ERROR   fsck clean: cannot run "
				   "e2fsck\n");
			return 2;
		}
		out_printf(c->out, n ? "  NOT MET fsck clean: e2fsck -fn %s "
			   "exits %d%s%s\n" : "  ok      fsck clean\n",
			   c->image, n, note ? ": " : "", note ? note : "");
		return n ? 1 : 0;
	}
	if (sscanf(expr, "answer %255s = %511[^\n]", key, want) == 2) {
		lit = want;
		if (*want != '"') {
			why = fact_eval(c, want, &f);
			if (why)
				goto broken;
			lit = f.s.buf ? f.s.buf : "";
		}
		normalize(lit, want, sizeof(want));
		if (!answer_of(c, key, buf, sizeof(buf))) {
			out_printf(c->out, "  NOT MET answer %s: no answer "
				   "(write \"%s = ...\" in the answers "
				   "file)%s%s\n", key, key, note ? ": " : "",
				   note ? note : "");
			rc = 1;
			goto out;
		}
		normalize(buf, got, sizeof(got));
		met = !strcmp(got, want);
		if (met)
			out_printf(c->out, "  ok      answer %s\n", key);
		else
			out_printf(c->out, "  NOT MET answer %s: \"%s\" is "
				   "not right%s%s\n", key, buf,
				   note ? ": " : "", note ? note : "");
		rc = !met;
		goto out;
	}
	if (sscanf(expr, "%255s %2[=!] %511s", key, op, want) == 3 &&
	    !isdigit((unsigned char)want[0]))
		return fact_vs_fact(c, expr, key, op, want, note);
	if (sscanf(expr, "%255s %2[=!<>] %llu", key, op, &v) != 3) {
		why = "not a check";
		goto broken;
	}
	why = fact_eval(c, key, &f);
	if (why)
		goto broken;
	if (!f.isnum) {
		why = "not a number";
		goto broken;
	}
	if (!strcmp(op, "=="))
		met = f.n == v;
	else if (!strcmp(op, "!="))
		met = f.n != v;
	else if (!strcmp(op, "<="))
		met = f.n <= v;
	else if (!strcmp(op, ">="))
		met = f.n >= v;
	else if (!strcmp(op, "<"))
		met = f.n < v;
	else if (!strcmp(op, ">"))
		met = f.n > v;
	else {
		why = "unknown comparison";
		goto broken;
	}
	if (met)
		out_printf(c->out, "  ok      %s\n", expr);
	else
		out_printf(c->out, "  NOT MET %s: it is %llu%s%s\n", expr, f.n,
			   note ? ": " : "", note ? note : "");
	rc = !met;
	goto out;
broken:
	out_printf(c->out, "  NOT MET %s: %s\n", expr, why);
	rc = 1;
out:
	strbuf_free(&f.s);
	return rc;
}

static char *read_file(const char *path)
{
	struct strbuf sb = {0};
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0 && sb.len < (1 << 20))
		strbuf_add(&sb, buf, n);
	fclose(f);
	if (!sb.buf)
		strbuf_add(&sb, "", 0);
	return sb.buf ? sb.buf : strdup("");
}

int lab_check(const struct lab *lab, const char *image, const char *answers,
	      struct sink *out)
{
	char apath[4096];
	struct ctx c;
	const char *v;
	size_t i, n;
	int r, bad = 0, broken = 0, uses_answers = 0;

	memset(&c, 0, sizeof(c));
	c.image = image;
	c.out = out;
	sink_init_cb(&c.quiet, SINK_TEXT, quiet_write, NULL);
	session_init(&c.main, out);
	session_init(&c.other, &c.quiet);
	if (session_open(&c.main, image, 0, NULL, 0, 0)) {
		sink_free(&c.quiet);
		return 2;
	}
	for (i = 0; (v = lab_get(lab, "check", "", i)); i++)
		uses_answers |= !strncmp(v, "answer ", 7);
	if (!answers && uses_answers) {
		n = strlen(image);
		if (n > 4 && !strcmp(image + n - 4, ".img"))
			n -= 4;
		snprintf(apath, sizeof(apath), "%.*s.answers", (int)n, image);
		answers = apath;
	}
	if (answers) {
		c.answers = read_file(answers);
		if (!c.answers)
			out_printf(out, "(no answers file %s)\n", answers);
	}
	out_printf(out, "Lab %s: checking %s\n", lab->name, image);
	for (i = 0; (v = lab_get(lab, "check", "", i)); i++) {
		r = one_check(&c, v);
		bad += r != 0;
		broken |= r == 2;
	}
	if (!i)
		out_printf(out, "  (this lab has no checks)\n");
	if (bad)
		out_printf(out, "Goal not met: %d of %zu check(s) fail.  "
			   "Hints: e2layout lab hint %s\n", bad, i, lab->name);
	else
		out_printf(out, "Goal met: all %zu check(s) pass.\n", i);
	free(c.answers);
	session_close(&c.other);
	session_close(&c.main);
	sink_free(&c.quiet);
	return broken ? 2 : bad ? 1 : 0;
}

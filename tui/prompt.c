/* prompt.c - the one-line editor behind `:` and `/`, written for curses (no
 * readline inside curses): cursor keys, Ctrl-A/E/U/W/K, history on Up/Down,
 * and Tab completion of request names, options, help topics and paths
 * inside the filesystem.  It edits characters, not bytes: a UTF-8 sequence
 * is taken whole from the keys, and the cursor, Backspace and Delete step
 * over a character with its combining marks (tui/uchar.c). */
#include "tui_int.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "help.h"
#include "uchar.h"

/* debugfs's bound on a request line (as in a -f file); past it the
 * prompt takes no more keys */
#define LINE_MAX_LEN	(CMD_LINE_MAX + 1)
#define HIST_MAX	100
#define CTRL(c)		((c) & 0x1f)

#define CAND_MAX	200	/* candidates a list shows */

struct tui_prompt {
	char line[LINE_MAX_LEN];
	int len, pos;
	int utf8;		/* the terminal's: characters are UTF-8 */
	char seq[4];		/* a UTF-8 sequence still arriving */
	int nseq;
	char *hist[HIST_MAX];
	int nhist, hpos;
	int last_tab;		/* the key before was an ambiguous Tab */
	/* The candidates an ambiguous Tab listed (shown above the line). */
	char *list[CAND_MAX];
	int nlist, nlist_all;
};

struct tui_prompt *prompt_new(void)
{
	return calloc(1, sizeof(struct tui_prompt));
}

static void list_clear(struct tui_prompt *p)
{
	int i;

	for (i = 0; i < p->nlist; i++)
		free(p->list[i]);
	p->nlist = p->nlist_all = 0;
}

void prompt_free(struct tui_prompt *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; i < p->nhist; i++)
		free(p->hist[i]);
	list_clear(p);
	free(p);
}

void prompt_reset(struct tui_prompt *p)
{
	p->line[0] = 0;
	p->len = p->pos = 0;
	p->hpos = p->nhist;
	p->nseq = 0;
	p->last_tab = 0;
	list_clear(p);
}

const char *prompt_line(const struct tui_prompt *p)
{
	return p->line;
}

void prompt_history_add(struct tui_prompt *p, const char *line)
{
	if (!*line || (p->nhist && !strcmp(p->hist[p->nhist - 1], line)))
		return;
	if (p->nhist == HIST_MAX) {
		free(p->hist[0]);
		memmove(p->hist, p->hist + 1, (HIST_MAX - 1) * sizeof(char *));
		p->nhist--;
	}
	p->hist[p->nhist] = strdup(line);
	if (p->hist[p->nhist])
		p->nhist++;
	p->hpos = p->nhist;
}

static void set_line(struct tui_prompt *p, const char *s)
{
	snprintf(p->line, sizeof(p->line), "%s", s);
	p->len = p->pos = strlen(p->line);
}

static void insert(struct tui_prompt *p, const char *s, size_t n)
{
	if (p->len + (int)n >= LINE_MAX_LEN)
		return;
	memmove(p->line + p->pos + n, p->line + p->pos, p->len - p->pos + 1);
	memcpy(p->line + p->pos, s, n);
	p->len += n;
	p->pos += n;
}

static void delete_range(struct tui_prompt *p, int from, int to)
{
	if (from >= to)
		return;
	memmove(p->line + from, p->line + to, p->len - to + 1);
	p->len -= to - from;
	p->pos = from;
}

/* Completion candidates. */
struct cands {
	char **v;
	size_t n, cap;
	const char *prefix;
	size_t plen;
};

static void cand_add(struct cands *c, const char *s, const char *suffix)
{
	char **nv;
	size_t len;

	if (strncmp(s, c->prefix, c->plen))
		return;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 32;
		nv = realloc(c->v, c->cap * sizeof(char *));
		if (!nv)
			return;
		c->v = nv;
	}
	len = strlen(s) + strlen(suffix) + 1;
	c->v[c->n] = malloc(len);
	if (!c->v[c->n])
		return;
	snprintf(c->v[c->n], len, "%s%s", s, suffix);
	c->n++;
}

struct dir_ctx {
	struct cands *c;
	const char *dir;
	ext2_filsys fs;
};

static int dir_cb(struct ext2_dir_entry *de, int offset, int blocksize,
		  char *buf, void *priv)
{
	struct dir_ctx *d = priv;
	char name[EXT2_NAME_LEN + 1 + LINE_MAX_LEN];
	int len = ext2fs_dirent_name_len(de), isdir;
	struct ext2_inode inode;

	(void)offset;
	(void)blocksize;
	(void)buf;
	if ((len == 1 && de->name[0] == '.') ||
	    (len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	if (ext2fs_has_feature_filetype(d->fs->super))
		isdir = ext2fs_dirent_file_type(de) == EXT2_FT_DIR;
	else
		isdir = !ext2fs_read_inode(d->fs, de->inode, &inode) &&
			LINUX_S_ISDIR(inode.i_mode);
	snprintf(name, sizeof(name), "%s%.*s", d->dir, len, de->name);
	cand_add(d->c, name, isdir ? "/" : "");
	return 0;
}

static void complete_fs_path(struct tui *t, struct cands *c)
{
	char dir[LINE_MAX_LEN];
	const char *slash = strrchr(c->prefix, '/');
	struct dir_ctx d = {c, dir, t->fs};
	ext2_ino_t ino;

	snprintf(dir, sizeof(dir), "%.*s",
		 slash ? (int)(slash - c->prefix + 1) : 0, c->prefix);
	if (ext2fs_namei(t->fs, EXT2_ROOT_INO, t->s->cwd, *dir ? dir : ".",
			 &ino))
		return;
	ext2fs_dir_iterate(t->fs, ino, 0, NULL, dir_cb, &d);
}

static void complete_host_path(struct cands *c)
{
	char dir[LINE_MAX_LEN];
	const char *slash = strrchr(c->prefix, '/');
	struct dirent *de;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%.*s",
		 slash ? (int)(slash - c->prefix + 1) : 0, c->prefix);
	dp = opendir(*dir ? dir : ".");
	if (!dp)
		return;
	while ((de = readdir(dp))) {
		char name[LINE_MAX_LEN + 256];

		if (de->d_name[0] == '.' && c->prefix[strlen(dir)] != '.')
			continue;
		snprintf(name, sizeof(name), "%s%s", dir, de->d_name);
		cand_add(c, name, de->d_type == DT_DIR ? "/" : "");
	}
	closedir(dp);
}

static void complete_commands(struct cands *c)
{
	const struct cmd_entry *const *e;
	const char *const *a;

	for (e = cmd_table; *e; e++) {
		cand_add(c, (*e)->name, "");
		for (a = (*e)->aliases; a && *a; a++)
			cand_add(c, *a, "");
	}
}

static void gather(struct tui *t, struct tui_prompt *p, int wstart,
		   struct cands *c)
{
	const struct help_doc *h;
	const struct cmd_entry *e;
	char first[64], opt[64];
	const char *o;
	int n;

	if (t->prompt_kind == '/') {
		complete_fs_path(t, c);
		return;
	}
	if (wstart == 0 || strspn(p->line, " ") == (size_t)wstart) {
		complete_commands(c);
		return;
	}
	n = strcspn(p->line + strspn(p->line, " "), " ");
	snprintf(first, sizeof(first), "%.*s", n,
		 p->line + strspn(p->line, " "));
	e = cmd_find(first);
	if (!e)
		return;
	if (c->prefix[0] == '-' && e->options) {
		for (o = e->options; *o; o += n) {
			o += strspn(o, " ");
			n = strcspn(o, " ");
			if (!n)
				break;
			snprintf(opt, sizeof(opt), "%.*s", n, o);
			cand_add(c, opt, "");
		}
		return;
	}
	switch (e->complete) {
	case COMPLETE_PATH:
		complete_fs_path(t, c);
		break;
	case COMPLETE_HOST_PATH:
		complete_host_path(c);
		break;
	case COMPLETE_COMMAND:
		complete_commands(c);
		break;
	case COMPLETE_TOPIC:
		complete_commands(c);
		for (h = help_docs; h->kind; h++)
			if (!strcmp(h->kind, "topics"))
				cand_add(c, h->name, "");
		break;
	default:
		break;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void complete(struct tui *t, struct tui_prompt *p)
{
	char word[LINE_MAX_LEN];
	struct cands c = {0};
	int wstart = p->pos;
	size_t i, common;

	while (wstart > 0 && p->line[wstart - 1] != ' ')
		wstart--;
	snprintf(word, sizeof(word), "%.*s", p->pos - wstart,
		 p->line + wstart);
	c.prefix = word;
	c.plen = strlen(word);
	gather(t, p, wstart, &c);
	if (!c.n) {
		tui_message(t, 0, "no completion for \"%s\"", word);
		goto out;
	}
	qsort(c.v, c.n, sizeof(char *), cmp_str);
	common = strlen(c.v[0]);
	for (i = 1; i < c.n; i++) {
		size_t k = 0;

		while (k < common && c.v[i][k] == c.v[0][k])
			k++;
		common = k;
	}
	/* a common prefix of two names may end inside a character */
	common = uc_trim(c.v[0], common, p->utf8);
	delete_range(p, wstart, p->pos);
	insert(p, c.v[0], common);
	if (c.n == 1) {
		size_t l = strlen(c.v[0]);

		if (!l || c.v[0][l - 1] != '/')
			insert(p, " ", 1);
		t->msg[0] = 0;
	} else if (common > strlen(word) && !p->last_tab) {
		/* it went on: the list waits for a second Tab, as in
		 * readline */
		p->last_tab = 1;
	} else {
		list_clear(p);
		for (i = 0; i < c.n && i < CAND_MAX; i++) {
			p->list[i] = c.v[i];
			c.v[i] = NULL;
		}
		p->nlist = (int)i;
		p->nlist_all = (int)c.n;
		p->last_tab = 1;
	}
out:
	for (i = 0; i < c.n; i++)
		free(c.v[i]);
	free(c.v);
}

/* A byte of a typed character: whole characters go into the line, a
 * sequence that breaks off is dropped (never half a character). */
static void type_byte(struct tui_prompt *p, int ch)
{
	unsigned char b = (unsigned char)ch;
	unsigned cp;
	int need;

	if (!p->utf8 || b < 0x80) {
		p->nseq = 0;
		insert(p, (const char *)&b, 1);
		return;
	}
	if ((b & 0xc0) != 0x80) {
		p->nseq = 0;	/* a new sequence: the old one broke off */
		if (!uc_seq_len(b))
			return;
	} else if (!p->nseq) {
		return;		/* a stray continuation byte */
	}
	p->seq[p->nseq++] = (char)b;
	need = uc_seq_len((unsigned char)p->seq[0]);
	if (p->nseq < need)
		return;
	if (uc_decode(p->seq, p->nseq, &cp) == need)
		insert(p, p->seq, p->nseq);
	p->nseq = 0;
}

int prompt_key(struct tui *t, struct tui_prompt *p, int ch)
{
	int i;

	p->utf8 = t->utf8;
	if (ch != '\t') {
		p->last_tab = 0;
		list_clear(p);
	}
	if (ch < 0x80 || ch > 0xff)
		p->nseq = 0;	/* a key, not the rest of a character */
	switch (ch) {
	case '\n': case '\r': case KEY_ENTER:
		return 1;
	case 27: case CTRL('g'):
		return -1;
	case KEY_BACKSPACE: case 127: case CTRL('h'):
		if (p->pos > 0)
			delete_range(p, uc_prev(p->line, p->len, p->pos,
						p->utf8), p->pos);
		else if (!p->len)
			return -1;
		break;
	case KEY_DC: case CTRL('d'):
		if (p->pos < p->len) {
			i = p->pos;
			delete_range(p, i, uc_next(p->line, p->len, i,
						   p->utf8));
		}
		break;
	case KEY_LEFT: case CTRL('b'):
		if (p->pos > 0)
			p->pos = uc_prev(p->line, p->len, p->pos, p->utf8);
		break;
	case KEY_RIGHT: case CTRL('f'):
		if (p->pos < p->len)
			p->pos = uc_next(p->line, p->len, p->pos, p->utf8);
		break;
	case KEY_HOME: case CTRL('a'):
		p->pos = 0;
		break;
	case KEY_END: case CTRL('e'):
		p->pos = p->len;
		break;
	case CTRL('u'):
		delete_range(p, 0, p->pos);
		break;
	case CTRL('k'):
		p->line[p->pos] = 0;
		p->len = p->pos;
		break;
	case CTRL('w'):
		/* back over blanks, then over the word: a space byte is
		 * never inside a UTF-8 character */
		i = p->pos;
		while (i > 0 && p->line[i - 1] == ' ')
			i--;
		while (i > 0 && p->line[i - 1] != ' ')
			i--;
		delete_range(p, i, p->pos);
		break;
	case KEY_UP: case CTRL('p'):
		if (p->hpos > 0)
			set_line(p, p->hist[--p->hpos]);
		break;
	case KEY_DOWN: case CTRL('n'):
		if (p->hpos < p->nhist - 1)
			set_line(p, p->hist[++p->hpos]);
		else {
			p->hpos = p->nhist;
			set_line(p, "");
		}
		break;
	case '\t':
		complete(t, p);
		break;
	default:
		if (ch >= ' ' && ch < 256 && ch != 127)
			type_byte(p, ch);
		break;
	}
	return 0;
}

/* The candidates of an ambiguous Tab, in columns above the prompt line
 * (rows top..y-1 are the view's and are drawn over). */
static void draw_list(struct tui *t, struct tui_prompt *p, int y, int x,
		      int w, int top)
{
	int i, colw = 1, ncols, nrows, rows, r, c, k;

	for (i = 0; i < p->nlist; i++) {
		int cw = uc_width(p->list[i], 0, (int)strlen(p->list[i]),
				  p->utf8) + 2;

		if (cw > colw)
			colw = cw;
	}
	if (colw > w)
		colw = w;
	ncols = w / colw;
	if (ncols < 1)
		ncols = 1;
	nrows = (p->nlist + ncols - 1) / ncols;
	rows = nrows + 1;	/* and the count */
	if (rows > y - top)
		rows = y - top;
	if (rows < 1)
		return;
	for (r = 0; r < rows; r++) {
		move(y - rows + r, x);
		clrtoeol();
	}
	tui_text(t, y - rows, x, w, R_HEAD, "%d candidates%s:", p->nlist_all,
		 rows - 1 < nrows || p->nlist < p->nlist_all
		 ? " (type more to narrow them)" : "");
	for (r = 0; r < rows - 1; r++)
		for (c = 0; c < ncols; c++) {
			k = c * nrows + r;
			if (k >= p->nlist)
				continue;
			move(y - rows + 1 + r, x + c * colw);
			addnstr(p->list[k],
				(int)uc_trim(p->list[k], (size_t)colw - 1,
					     p->utf8));
		}
}

void prompt_draw(struct tui *t, struct tui_prompt *p, int y, int x, int w,
		 const char *label)
{
	int lw = strlen(label), avail = w - lw - 1, off = 0, end;

	if (avail < 1)
		return;
	if (p->nlist)
		draw_list(t, p, y, x, w, 1);
	/* scroll by characters until the cursor's column fits */
	while (off < p->pos &&
	       uc_width(p->line, off, p->pos, p->utf8) > avail)
		off = uc_next(p->line, p->len, off, p->utf8);
	end = off;
	while (end < p->len) {
		int next = uc_next(p->line, p->len, end, p->utf8);

		if (uc_width(p->line, off, next, p->utf8) > avail)
			break;
		end = next;
	}
	move(y, x);
	clrtoeol();
	tui_text(t, y, x, lw, R_HEAD, "%s", label);
	mvaddnstr(y, x + lw, p->line + off, end - off);
	move(y, x + lw + uc_width(p->line, off, p->pos, p->utf8));
}

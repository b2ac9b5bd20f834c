/* names.c - inode number to path for the status line and the lists: one
 * walk of the directory tree, made the first time a file's name is wanted,
 * remembering each inode's first parent directory (bounded, so a huge
 * filesystem costs at most NAMES_MAX entries). */
#include "tui_int.h"

#include <stdlib.h>
#include <string.h>

#define NAMES_MAX	200000
#define DIRS_MAX	50000

struct name_ent {
	ext2_ino_t ino, parent;
};

struct tui_names {
	struct name_ent *e;
	size_t n, cap;
	ext2_ino_t *queue;	/* directories still to read */
	size_t qn, qcap, dirs;
};

static int walk_cb(ext2_ino_t dir, int entry, struct ext2_dir_entry *de,
		   int offset, int blocksize, char *buf, void *priv)
{
	struct tui_names *nm = priv;
	int len = ext2fs_dirent_name_len(de);
	void *p;

	(void)entry;
	(void)offset;
	(void)blocksize;
	(void)buf;
	if ((len == 1 && de->name[0] == '.') ||
	    (len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	if (nm->n == NAMES_MAX)
		return DIRENT_ABORT;
	if (nm->n == nm->cap) {
		nm->cap = nm->cap ? nm->cap * 2 : 1024;
		p = realloc(nm->e, nm->cap * sizeof(*nm->e));
		if (!p)
			return DIRENT_ABORT;
		nm->e = p;
	}
	nm->e[nm->n].ino = de->inode;
	nm->e[nm->n].parent = dir;
	nm->n++;
	if (ext2fs_dirent_file_type(de) == EXT2_FT_DIR ||
	    ext2fs_dirent_file_type(de) == EXT2_FT_UNKNOWN) {
		if (nm->qn == nm->qcap) {
			nm->qcap = nm->qcap ? nm->qcap * 2 : 256;
			p = realloc(nm->queue, nm->qcap * sizeof(ext2_ino_t));
			if (!p)
				return DIRENT_ABORT;
			nm->queue = p;
		}
		nm->queue[nm->qn++] = de->inode;
	}
	return 0;
}

static int cmp_ent(const void *a, const void *b)
{
	const struct name_ent *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->parent < y->parent ? -1 : x->parent > y->parent;
}

static void build(struct tui *t)
{
	struct tui_names *nm = calloc(1, sizeof(*nm));
	struct ext2_inode inode;
	ext2_ino_t dir;

	t->names = nm;
	if (!nm)
		return;
	nm->queue = malloc(256 * sizeof(ext2_ino_t));
	if (!nm->queue)
		return;
	nm->qcap = 256;
	nm->queue[nm->qn++] = EXT2_ROOT_INO;
	while (nm->qn && nm->dirs < DIRS_MAX && nm->n < NAMES_MAX) {
		dir = nm->queue[--nm->qn];
		nm->dirs++;
		if (ext2fs_read_inode(t->fs, dir, &inode) ||
		    !LINUX_S_ISDIR(inode.i_mode))
			continue;
		ext2fs_dir_iterate2(t->fs, dir, 0, NULL, walk_cb, nm);
	}
	if (nm->n)
		qsort(nm->e, nm->n, sizeof(*nm->e), cmp_ent);
	free(nm->queue);
	nm->queue = NULL;
	nm->qn = nm->qcap = 0;
}

void names_free(struct tui *t)
{
	if (!t->names)
		return;
	free(t->names->e);
	free(t->names->queue);
	free(t->names);
	t->names = NULL;
}

void tui_inode_path(struct tui *t, ext2_ino_t ino, char *buf, size_t len)
{
	struct name_ent key = {ino, 0}, *e;
	struct tui_names *nm;
	char *name = NULL;
	size_t lo, hi, mid;

	buf[0] = 0;
	if (ino == EXT2_JOURNAL_INO) {
		snprintf(buf, len, "(journal)");
		return;
	}
	if (ino == EXT2_RESIZE_INO) {
		snprintf(buf, len, "(resize inode)");
		return;
	}
	if (ino < EXT2_FIRST_INO(t->fs->super) && ino != EXT2_ROOT_INO)
		return;
	if (ino == EXT2_ROOT_INO) {
		snprintf(buf, len, "/");
		return;
	}
	if (!t->names)
		build(t);
	nm = t->names;
	if (!nm || !nm->n)
		return;
	lo = 0;
	hi = nm->n;
	while (lo < hi) {	/* the first entry with this inode */
		mid = (lo + hi) / 2;
		if (cmp_ent(&nm->e[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == nm->n || nm->e[lo].ino != ino)
		return;
	e = &nm->e[lo];
	if (!ext2fs_get_pathname(t->fs, e->parent, ino, &name) && name)
		snprintf(buf, len, "%s", name);
	ext2fs_free_mem(&name);
}

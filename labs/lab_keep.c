/* lab_keep.c - the "files kept" check: every regular file of the fresh
 * scenario (rebuilt from this trainee's seed) is still in the checked
 * image, at the same path, with the same content. */
#include "lab_int.h"

#include <string.h>

struct walk {
	struct lab_images *im;
	ext2_filsys start;
	struct strbuf *why;
	char path[1024];
	size_t len;
	unsigned long files;
	int depth;
	errcode_t err;
};

static int visit(ext2_ino_t dir, int entry, struct ext2_dir_entry *d,
		 int offset, int blocksize, char *buf, void *priv);

/* Compares one regular file (the walk's path) with the checked image. */
static int compare(struct walk *w, ext2_ino_t ino)
{
	ext2_filsys fs = w->im->main.fs;
	char a[17], b[17];
	ext2_ino_t other;
	struct ext2_inode inode;

	w->files++;
	if (lab_file_sum(w->start, ino, a)) {
		w->err = EXT2_ET_SHORT_READ;
		strbuf_printf(w->why, "cannot read %s in the fresh scenario",
			      w->path);
		return DIRENT_ABORT;
	}
	if (ext2fs_namei(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, w->path, &other) ||
	    ext2fs_read_inode(fs, other, &inode) ||
	    !LINUX_S_ISREG(inode.i_mode)) {
		strbuf_printf(w->why, "%s is gone", w->path);
		return DIRENT_ABORT;
	}
	if (lab_file_sum(fs, other, b)) {
		strbuf_printf(w->why, "%s cannot be read", w->path);
		return DIRENT_ABORT;
	}
	if (strcmp(a, b)) {
		strbuf_printf(w->why, "%s changed (content or size: checksum "
			      "%s, was %s)", w->path, b, a);
		return DIRENT_ABORT;
	}
	return 0;
}

static int visit(ext2_ino_t dir, int entry, struct ext2_dir_entry *d,
		 int offset, int blocksize, char *buf, void *priv)
{
	struct walk *w = priv;
	int nlen = ext2fs_dirent_name_len(d), type, rc = 0;
	size_t saved = w->len;

	(void)dir; (void)entry; (void)offset; (void)blocksize; (void)buf;
	if (!d->inode || (nlen == 1 && d->name[0] == '.') ||
	    (nlen == 2 && d->name[0] == '.' && d->name[1] == '.'))
		return 0;
	if (w->len + nlen + 2 >= sizeof(w->path)) {
		strbuf_printf(w->why, "a path is too long");
		return DIRENT_ABORT;
	}
	w->path[w->len] = '/';
	memcpy(w->path + w->len + 1, d->name, nlen);
	w->len += nlen + 1;
	w->path[w->len] = 0;
	type = ext2fs_dirent_file_type(d);
	if (type == EXT2_FT_REG_FILE) {
		rc = compare(w, d->inode);
	} else if (type == EXT2_FT_DIR && w->depth < 32 &&
		   strcmp(w->path, "/lost+found")) {
		w->depth++;
		w->err = ext2fs_dir_iterate2(w->start, d->inode, 0, NULL,
					     visit, w);
		w->depth--;
		if (w->err || w->why->len)
			rc = DIRENT_ABORT;
	}
	w->len = saved;
	w->path[saved] = 0;
	return rc;
}

const char *lab_files_kept(struct lab_images *im, struct strbuf *why)
{
	struct lab_fact f = {{0}, 0, 0};
	struct walk w;
	errcode_t err;

	/* [start] is built on first use: any fact about it builds it. */
	if (lab_fact_eval(im, "[start]groups", &f)) {
		strbuf_free(&f.s);
		return "cannot rebuild the fresh scenario";
	}
	strbuf_free(&f.s);
	memset(&w, 0, sizeof(w));
	w.im = im;
	w.start = im->start.fs;
	w.why = why;
	err = ext2fs_dir_iterate2(w.start, EXT2_ROOT_INO, 0, NULL, visit, &w);
	if (why->len)
		return why->buf;
	if (err || w.err)
		return "cannot walk the fresh scenario's directories";
	strbuf_printf(why, "%lu file(s)", w.files);
	return NULL;
}

/* undo_path.c - where an undo file may go: never over anything that exists
 * (least of all the image itself, by whatever name), only into a writable
 * directory with room for the plan's worst case; the default name; and the
 * session's list of the undo files it wrote; what a plan will overwrite,
 * saved before it starts. */
#include "undo_guard.h"
#include "e2l_err.h"
#include "plan.h"
#include "plan_repack_int.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* What a block written costs the undo file the first time, at most: a
 * record of its own (undo_writer.c pads each to 4 KiB, holds whole
 * filesystem blocks), counted as 32 KiB or the block when larger. */
#define UNDO_CHUNK	((fs)->blocksize > 32768 ? \
			 (unsigned long long)(fs)->blocksize : 32768ULL)

static void refuse(struct session *s, const char *who, const char *path,
		   const char *fmt, const char *arg)
{
	char why[PATH_MAX + 128];

	snprintf(why, sizeof(why), fmt, arg);
	out_error(s->out, who, E2L_ERR_UNDO_PATH, "%s: %s; give the name of a "
		  "new file in a writable directory%s", path, why,
		  strcmp(who, "apply") ? "" : " (or --no-undo)");
}

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* Is st the session's device or image (the same file, or the same
 * block device through another node)? */
static int is_device(const char *device, const struct stat *st)
{
	struct stat d;

	if (!device || stat(device, &d))
		return 0;
	if (st->st_dev == d.st_dev && st->st_ino == d.st_ino)
		return 1;
	return S_ISBLK(st->st_mode) && S_ISBLK(d.st_mode) &&
	       st->st_rdev == d.st_rdev;
}

/* What exists at path, said as the reason to refuse it. */
static void refuse_existing(struct session *s, const char *who,
			    const char *device, const char *path,
			    const struct stat *l)
{
	struct stat t;
	char size[32];

	if (S_ISLNK(l->st_mode)) {
		if (stat(path, &t))
			refuse(s, who, path, "it is a symbolic link to nothing "
			       "(e2layout never writes through one)%s", "");
		else if (is_device(device, &t))
			refuse(s, who, path, "it is a symbolic link to the "
			       "filesystem image %s", device);
		else
			refuse(s, who, path, "it is a symbolic link (e2layout "
			       "never writes through one)%s", "");
		return;
	}
	if (is_device(device, l)) {
		refuse(s, who, path, "it is the filesystem image %s itself",
		       device);
		return;
	}
	if (!S_ISREG(l->st_mode)) {
		refuse(s, who, path, "it is %s", kind_of(l->st_mode));
		return;
	}
	snprintf(size, sizeof(size), "%lld", (long long)l->st_size);
	refuse(s, who, path, "a file of %s bytes exists there (e2layout never "
	       "replaces a file)", size);
}

static unsigned long long room_of(const struct statvfs *v)
{
	/* root may use the reserved blocks too */
	return (unsigned long long)(geteuid() ? v->f_bavail : v->f_bfree) *
	       v->f_frsize;
}

static int check_room(struct session *s, const char *who, const char *path,
		      const char *dir, const struct statvfs *v,
		      unsigned long long worst)
{
	char why[PATH_MAX + 128];
	unsigned long long room = room_of(v);

	if (!worst || room >= worst)
		return 0;
	snprintf(why, sizeof(why), "it may grow to %llu KiB and %s has %llu "
		 "KiB free", (worst + 1023) / 1024, dir, room / 1024);
	refuse(s, who, path, "%s", why);
	return 1;
}

errcode_t undo_path_check(struct session *s, const char *who,
			  const char *device, const char *path,
			  unsigned long long worst_bytes)
{
	struct statvfs v;
	struct stat st;
	char *copy = NULL, *dir;
	errcode_t err = E2L_ERR_UNDO_PATH;

	if (!path || !*path) {
		refuse(s, who, "\"\"", "the name is empty%s", "");
		return err;
	}
	if (path[strlen(path) - 1] == '/') {
		refuse(s, who, path, "it names a directory%s", "");
		return err;
	}
	if (!lstat(path, &st)) {
		refuse_existing(s, who, device, path, &st);
		return err;
	}
	if (errno != ENOENT) {
		refuse(s, who, path, "%s", strerror(errno));
		return err;
	}
	copy = strdup(path);
	if (!copy)
		return ENOMEM;
	dir = dirname(copy);
	if (stat(dir, &st))
		refuse(s, who, path, errno == ENOENT ? "its directory %s does "
		       "not exist" : "its directory %s cannot be reached", dir);
	else if (!S_ISDIR(st.st_mode))
		refuse(s, who, path, "%s is not a directory", dir);
	else if (statvfs(dir, &v))
		refuse(s, who, path, "the filesystem of %s cannot be "
		       "examined", dir);
	else if (v.f_flag & ST_RDONLY)
		refuse(s, who, path, "its directory %s is on a read-only "
		       "filesystem", dir);
	else if (access(dir, W_OK | X_OK))
		refuse(s, who, path, "its directory %s is not writable", dir);
	else if (!check_room(s, who, path, dir, &v, worst_bytes))
		err = 0;
	free(copy);
	return err;
}

errcode_t undo_path_room(struct session *s, const char *who,
			 const char *path, unsigned long long worst_bytes)
{
	struct statvfs v;

	if (statvfs(path, &v)) {
		refuse(s, who, path, "%s", strerror(errno));
		return E2L_ERR_UNDO_PATH;
	}
	return check_room(s, who, path, path, &v, worst_bytes) ?
	       E2L_ERR_UNDO_PATH : 0;
}

char *undo_path_default(struct session *s)
{
	const char *dir = getenv("E2LAYOUT_UNDO_DIR");
	char *copy = strdup(s->device), *d = NULL, *base, *path = NULL;
	char stamp[32];
	struct stat st;
	time_t now = time(NULL);
	int n;

	if (!copy)
		return NULL;
	base = basename(copy);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	if (!dir || !*dir) {
		if (!stat(s->device, &st) && S_ISREG(st.st_mode)) {
			d = strdup(s->device);
			dir = d ? dirname(d) : NULL;
		} else {
			dir = "/var/tmp";
		}
	}
	for (n = 1; dir && n < 1000; n++) {
		free(path);
		path = NULL;
		if ((n == 1 ? asprintf(&path, "%s/e2layout-%s-%s.e2undo", dir,
				       base, stamp) :
			      asprintf(&path, "%s/e2layout-%s-%s-%d.e2undo",
				       dir, base, stamp, n)) < 0) {
			path = NULL;
			break;
		}
		if (lstat(path, &st) && errno == ENOENT)
			break;	/* free now; O_EXCL decides at creation */
	}
	free(d);
	free(copy);
	return path;
}

/* Blocks of a run written at once: its blocks plus a record at each end. */
static unsigned long long run_bytes(ext2_filsys fs, blk64_t len)
{
	return len ? len * fs->blocksize + 2 * UNDO_CHUNK : 0;
}

/* Groups a step's range touches: a bitmap and a descriptor block each. */
static unsigned long long groups_of(ext2_filsys fs, blk64_t first,
				    blk64_t len)
{
	if (!len)
		return 0;
	return ext2fs_group_of_blk2(fs, first + len - 1) -
	       ext2fs_group_of_blk2(fs, first) + 1;
}

static void plan_part(ext2_filsys fs, const struct plan *p,
		      unsigned long long *bytes, unsigned long long *meta)
{
	const struct plan_repack *r = p->repack;
	struct plan_stats ps;
	size_t i;

	if (r) {
		for (i = 0; i < r->nitems; i++)
			*bytes += run_bytes(fs, r->items[i].len) *
				  (r->items[i].tmp ? 2 : 1);
		*meta += 4ULL * r->n + 4;	/* bitmaps, descriptors */
		return;
	}
	/* the blocks the preview says it writes, plus a record at each end
	 * of every run written */
	plan_get_stats(p, &ps);
	*bytes += ps.written * fs->blocksize;
	for (i = 0; i < p->nsteps; i++) {
		const struct plan_step *st = &p->steps[i];

		switch (st->kind) {
		case STEP_COPY:
		case STEP_WRITE_MAP:
		case STEP_ZERO:
			*bytes += 2 * UNDO_CHUNK;
			break;
		case STEP_ALLOC:
			*meta += 2 * groups_of(fs, st->dst, st->len);
			break;
		case STEP_FREE:
			*meta += 2 * groups_of(fs, st->src, st->len);
			break;
		default:
			*meta += 2;	/* the inode's table block */
		}
	}
	if (p->create_name[0])
		*meta += 8;	/* inode, its bitmap, a directory block */
}

unsigned long long undo_plan_worst(ext2_filsys fs, const struct plan *p)
{
	unsigned long long bytes = 4 * UNDO_CHUNK, meta = 4, chunks;
	blk64_t old_desc = fs->desc_blocks, sbs = 0;
	dgrp_t g;

	for (; p; p = p->next)
		plan_part(fs, p, &bytes, &meta);
	/* every metadata block may be a record of its own, and on a journaled
	 * filesystem goes through the journal too */
	bytes += meta * UNDO_CHUNK;
	if (ext2fs_has_feature_journal(fs->super))
		bytes += run_bytes(fs, meta + 8) + UNDO_CHUNK;
	/* the closing flush rewrites each superblock copy and its GDT */
	if (ext2fs_has_feature_meta_bg(fs->super) &&
	    fs->super->s_first_meta_bg < old_desc)
		old_desc = fs->super->s_first_meta_bg;
	for (g = 0; g < fs->group_desc_count; g++)
		if (ext2fs_bg_has_super(fs, g))
			sbs++;
	bytes += sbs * run_bytes(fs, 1 + old_desc);
	bytes += (fs->desc_blocks - old_desc) * 3 * UNDO_CHUNK;
	/* the index: one key (16 bytes) per record */
	chunks = bytes / UNDO_CHUNK + 1;
	bytes += (chunks / (UNDO_CHUNK / 16 - 1) + 1) * UNDO_CHUNK;
	return bytes;
}

errcode_t undo_plan_presave(ext2_filsys fs, const struct plan *p,
			    struct undo_guard *g)
{
	unsigned long long bs = fs->blocksize;
	struct undo_span *sp;
	const struct plan *q;
	size_t i, n = 0;
	errcode_t err;

	for (q = p; q; q = q->next)
		n += q->repack ? 0 : q->nsteps;
	if (!n)
		return 0;
	sp = calloc(n, sizeof(*sp));
	if (!sp)
		return ENOMEM;
	n = 0;
	for (q = p; q; q = q->next)
		for (i = 0; !q->repack && i < q->nsteps; i++)
			if (q->steps[i].kind == STEP_COPY ||
			    q->steps[i].kind == STEP_ZERO ||
			    q->steps[i].kind == STEP_WRITE_MAP) {
				sp[n].off = q->steps[i].dst * bs;
				sp[n++].len = q->steps[i].len * bs;
			}
	err = undo_guard_presave_ahead(g, sp, n);
	free(sp);
	return err;
}

char *undo_restore_cmd(const char *path, const char *device)
{
	const char *q = strchr(device, '?'), *o = q;
	unsigned long long off = 0;
	char *cmd = NULL;
	int n;

	/* e2undo opens a file name, not libext2fs's IMAGE?options */
	while (o) {
		o++;
		if (!strncmp(o, "offset=", 7))
			off = strtoull(o + 7, NULL, 0);
		o = strchr(o, '&');
	}
	n = q ? (int)(q - device) : (int)strlen(device);
	if (off)
		n = asprintf(&cmd, "e2undo -o %llu %s %.*s", off, path, n,
			     device);
	else
		n = asprintf(&cmd, "e2undo %s %.*s", path, n, device);
	return n < 0 ? NULL : cmd;
}

errcode_t undo_list_add(struct session *s, const char *path)
{
	char **v, *cmd = undo_restore_cmd(path, s->device);

	if (!cmd)
		return ENOMEM;
	v = realloc(s->undo_files, (s->n_undo_files + 1) * sizeof(*v));
	if (!v) {
		free(cmd);
		return ENOMEM;
	}
	v[s->n_undo_files++] = cmd;
	s->undo_files = v;
	return 0;
}

void undo_list_free(struct session *s)
{
	size_t i;

	for (i = 0; i < s->n_undo_files; i++)
		free(s->undo_files[i]);
	free(s->undo_files);
	s->undo_files = NULL;
	s->n_undo_files = 0;
}

void undo_list_report(struct session *s)
{
	size_t i = s->n_undo_files;

	if (!i)
		return;
	if (i == 1)
		out_errtext(s->out, "e2layout: this session wrote an undo "
			    "file; to put the filesystem back as it was before "
			    "that apply, run:\n");
	else
		out_errtext(s->out, "e2layout: this session wrote %zu undo "
			    "files; to put the filesystem back as it was, run "
			    "them newest first (e2undo refuses any other "
			    "order):\n", i);
	while (i-- > 0)
		out_errtext(s->out, "  %s\n", s->undo_files[i]);
}

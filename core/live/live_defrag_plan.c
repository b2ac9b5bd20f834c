/* live_defrag_plan.c - a live defrag plan: what the kernel refuses to move
 * (said before anything is made), each file's extents, and its donor: an
 * unlinked file in the same filesystem that the kernel fallocates over the
 * file's data, whose FIEMAP is the plan's "after". */
#include "live_defrag.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "e2l_err.h"

/* Inode flags as FS_IOC_GETFLAGS reports them (linux/fs.h names most;
 * the ext4-only ones are spelled out). */
#define LDF_EXTENTS_FL		0x00080000
#define LDF_INLINE_DATA_FL	0x10000000
#define LDF_VERITY_FL		0x00100000
#define LDF_DAX_FL		0x02000000

size_t ldf_runs(const struct live_extent *e, size_t n)
{
	size_t i, runs = 0;

	for (i = 0; i < n; i++)
		if (!i || e[i - 1].logical + e[i - 1].length != e[i].logical ||
		    e[i - 1].physical + e[i - 1].length != e[i].physical)
			runs++;
	return runs;
}

/* The super options of the mount on mnt contain opt ("data=journal"). */
static int mount_has_opt(const char *mnt, const char *opt)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL, *dash, point[PATH_MAX], type[64], src[PATH_MAX];
	char opts[1024];
	size_t cap = 0, len = strlen(opt);
	int found = 0;

	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0) {
		char *o;

		if (sscanf(line, "%*u %*u %*u:%*u %*s %4095s", point) != 1 ||
		    strcmp(point, mnt))
			continue;
		dash = strstr(line, " - ");
		if (!dash || sscanf(dash + 3, "%63s %4095s %1023s", type, src,
				    opts) != 3)
			continue;
		for (o = opts; o; o = strchr(o, ',')) {
			if (*o == ',')
				o++;
			if (!strncmp(o, opt, len) &&
			    (o[len] == ',' || !o[len]))
				found = 1;
		}
	}
	free(line);
	fclose(f);
	return found;
}

int ldf_fs_ok(struct session *s, const char *who)
{
	struct ext2_super_block *sb = s->fs->super;
	struct statvfs sv;

	if (!ext2fs_has_feature_extents(sb)) {
		out_error(s->out, who, E2L_ERR_UNSAFE, "%s has no extent "
			  "feature: the kernel moves blocks (EXT4_IOC_MOVE_EXT) "
			  "only between extent-mapped files; unmount it and "
			  "use e2layout -w %s for an offline defrag",
			  s->live->mnt, s->device);
		return 1;
	}
	if (ext2fs_has_feature_bigalloc(sb)) {
		out_error(s->out, who, E2L_ERR_UNSAFE, "%s uses bigalloc: "
			  "the kernel does not defragment online with "
			  "bigalloc; unmount it for an offline defrag",
			  s->live->mnt);
		return 1;
	}
	if (statvfs(s->live->mnt, &sv) == 0 && (sv.f_flag & ST_RDONLY)) {
		out_error(s->out, who, E2L_ERR_UNSAFE, "%s is mounted "
			  "read-only: the kernel moves nothing on a read-only "
			  "mount (mount -o remount,rw %s first)", s->live->mnt,
			  s->live->mnt);
		return 1;
	}
	if (mount_has_opt(s->live->mnt, "data=journal")) {
		out_error(s->out, who, E2L_ERR_UNSAFE, "%s is mounted with "
			  "data=journal: the kernel does not defragment "
			  "data-journalled files online", s->live->mnt);
		return 1;
	}
	return 0;
}

/* The file is an active swap file (listed in /proc/swaps). */
static int is_swap(const struct stat *st)
{
	FILE *f = fopen("/proc/swaps", "r");
	char *line = NULL, name[PATH_MAX];
	size_t cap = 0;
	int found = 0;
	struct stat sw;

	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0) {
		char *d, *q;

		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/')
			continue;
		for (d = q = name; *q; q++) {	/* \040 escapes */
			if (q[0] == '\\' && q[1] >= '0' && q[1] <= '3' &&
			    q[2] >= '0' && q[2] <= '7' && q[3] >= '0' &&
			    q[3] <= '7') {
				*d++ = (char)((q[1] - '0') * 64 +
					      (q[2] - '0') * 8 + (q[3] - '0'));
				q += 3;
			} else {
				*d++ = *q;
			}
		}
		*d = 0;
		if (!stat(name, &sw) && sw.st_dev == st->st_dev &&
		    sw.st_ino == st->st_ino)
			found = 1;
	}
	free(line);
	fclose(f);
	return found;
}

/* Why the kernel would not move this file, or NULL (flags: GETFLAGS). */
static const char *refusal(const struct stat *st, int flags, int dax)
{
	if (flags & FS_IMMUTABLE_FL)
		return "it is immutable (chattr +i): the kernel moves no "
		       "blocks of an immutable file; chattr -i it first";
	if (flags & FS_APPEND_FL)
		return "it is append-only (chattr +a): the kernel moves no "
		       "blocks of an append-only file; chattr -a it first";
	if (is_swap(st))
		return "it is an active swap file: the kernel never moves a "
		       "swap file's blocks (swapoff it first)";
	if (dax || (flags & LDF_DAX_FL && dax < 0))
		return "it is open for DAX (direct access): the kernel does "
		       "not move DAX files' blocks";
	if (flags & LDF_INLINE_DATA_FL)
		return "it keeps its data inline in the inode: there are no "
		       "blocks to move";
	if (!(flags & LDF_EXTENTS_FL))
		return "it is block-mapped (no extents, an ext2/ext3 file): "
		       "the kernel moves only extent-mapped files (e2layout "
		       "-w on the unmounted filesystem defrags it)";
	if (flags & FS_ENCRYPT_FL)
		return "it is encrypted: a donor would need its key and "
		       "policy; e2layout leaves encrypted files alone";
	if (flags & LDF_VERITY_FL)
		return "it has fs-verity: its blocks are sealed";
	if (flags & FS_JOURNAL_DATA_FL)
		return "its data is journalled (chattr +j): the kernel does "
		       "not defragment data-journalled files online";
	return NULL;
}

void ldf_full_path(struct session *s, const char *arg, char *out,
		   size_t len)
{
	const char *mnt = s->live->mnt;
	size_t ml = strlen(mnt);

	if (arg[0] != '/')	/* a path in the filesystem, as debugfs's */
		snprintf(out, len, "%s/%s", strcmp(mnt, "/") ? mnt : "", arg);
	else if (strcmp(mnt, "/") &&
		 (strncmp(arg, mnt, ml) || (arg[ml] && arg[ml] != '/')))
		snprintf(out, len, "%s%s", mnt, arg);
	else
		snprintf(out, len, "%s", arg);
}


/* The group holding most of the extents' blocks. */
static dgrp_t main_group(struct session *s, const struct live_extent *e,
			 size_t n, unsigned bs)
{
	dgrp_t best = 0, g;
	__u64 most = 0, cur;
	size_t i, j;

	for (i = 0; i < n; i++) {
		g = ext2fs_group_of_blk2(s->fs, e[i].physical / bs);
		for (cur = 0, j = 0; j < n; j++)
			if (ext2fs_group_of_blk2(s->fs, e[j].physical / bs)
			    == g)
				cur += e[j].length;
		if (cur > most) {
			most = cur;
			best = g;
		}
	}
	return best;
}

/* An unlinked file in dir: O_TMPFILE, else a name unlinked at once. */
static int make_donor(const char *dir)
{
	char name[PATH_MAX + 32];
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR &&
			errno != EINVAL))
		return fd;
	snprintf(name, sizeof(name), "%s/.e2layout-donor.XXXXXX", dir);
	fd = mkostemp(name, O_CLOEXEC);
	if (fd >= 0)
		unlink(name);
	return fd;
}

/* Fallocates the donor over each of the file's data runs, in order. */
static errcode_t fill_donor(int fd, const struct live_extent *e, size_t n)
{
	size_t i = 0, j;

	while (i < n) {
		__u64 start = e[i].logical, end = start + e[i].length;

		for (j = i + 1; j < n && e[j].logical == end; j++)
			end += e[j].length;
		if (fallocate(fd, 0, (off_t)start, (off_t)(end - start)))
			return errno;
		i = j;
	}
	return 0;
}

static void drop(struct ldf_file *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void drop(struct ldf_file *f, const char *fmt, ...)
{
	va_list ap;

	f->dropped = true;
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
	if (f->donor >= 0)
		close(f->donor);
	f->donor = -1;
}

static errcode_t make_after(struct session *s, struct ldf_plan *p,
			    struct ldf_file *f)
{
	unsigned bs = p->blocksize;
	struct stat st;
	errcode_t err;
	dgrp_t before_group;
	char tmp[PATH_MAX];

	if (p->goal.kind != LDF_GOAL_NONE) {
		snprintf(f->donor_dir, sizeof(f->donor_dir), "%s",
			 p->goal.near);
	} else {
		snprintf(tmp, sizeof(tmp), "%s", f->path);
		snprintf(f->donor_dir, sizeof(f->donor_dir), "%s",
			 dirname(tmp));
	}
	if (!stat(f->donor_dir, &st))
		f->donor_dir_group = ldf_ino_group(s, st.st_ino);
	f->donor = make_donor(f->donor_dir);
	if (f->donor < 0) {
		drop(f, "no donor: cannot create an unlinked file in %s (%s)",
		     f->donor_dir, strerror(errno));
		return 0;
	}
	err = fill_donor(f->donor, f->before, f->nbefore);
	if (err == ENOSPC || err == EDQUOT) {
		drop(f, "no donor: the kernel found no room for another "
		     "%llu blocks (%s); the file is left as it is",
		     (unsigned long long)f->data_blocks, strerror(err));
		return 0;
	}
	if (!err)
		err = live_fiemap_fd(f->donor, &f->after, &f->nafter);
	if (err) {
		drop(f, "no donor: %s while the kernel allocated it",
		     strerror(err));
		return 0;
	}
	f->runs_after = ldf_runs(f->after, f->nafter);
	f->after_group = main_group(s, f->after, f->nafter, bs);
	before_group = main_group(s, f->before, f->nbefore, bs);
	if (p->goal.kind != LDF_GOAL_NONE && before_group == p->goal.group &&
	    f->after_group != p->goal.group)
		drop(f, "the kernel put the donor in group %u, and the file is "
		     "in goal group %u already: a worse place; left as it is",
		     f->after_group, p->goal.group);
	else if (f->runs_after > f->runs_before ||
		 (f->runs_after == f->runs_before &&
		  (p->goal.kind == LDF_GOAL_NONE ||
		   f->after_group != p->goal.group ||
		   before_group == p->goal.group)))
		drop(f, "the kernel's donor has %zu run%s (%zu extent%s), the "
		     "file %zu: not better; left as it is", f->runs_after,
		     f->runs_after == 1 ? "" : "s", f->nafter,
		     f->nafter == 1 ? "" : "s", f->runs_before);
	return 0;
}

errcode_t ldf_plan_add(struct session *s, struct ldf_plan *p,
		       const char *arg)
{
	struct ldf_file *f, *nf;
	struct statx stx;
	struct stat st;
	const char *why;
	int fd, flags = 0, dax = -1;
	size_t i;
	errcode_t err;

	if (p->n >= LDF_MAX_FILES) {
		out_error(s->out, "defrag", E2L_ERR_BAD_ARGUMENT, "more than "
			  "%d files in one live plan; defrag them in turns",
			  LDF_MAX_FILES);
		return E2L_ERR_BAD_ARGUMENT;
	}
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 8;
		nf = realloc(p->f, p->cap * sizeof(*nf));
		if (!nf)
			return ENOMEM;
		p->f = nf;
	}
	f = &p->f[p->n++];
	memset(f, 0, sizeof(*f));
	f->donor = -1;
	ldf_full_path(s, arg, f->path, sizeof(f->path));
	if (lstat(f->path, &st)) {
		drop(f, "%s", strerror(errno));
		f->refused = true;
		return 0;
	}
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->size = st.st_size;
	f->mtime = st.st_mtim;
	if (!S_ISREG(st.st_mode)) {
		drop(f, "not a regular file");
		f->refused = true;
		return 0;
	}
	if (st.st_dev != s->live->dev) {
		drop(f, "not on the filesystem mounted on %s", s->live->mnt);
		f->refused = true;
		return 0;
	}
	for (i = 0; i + 1 < p->n; i++)
		if (p->f[i].ino == f->ino && p->f[i].dev == f->dev) {
			drop(f, "the same file as %s", p->f[i].path);
			return 0;
		}
	fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		drop(f, "%s", strerror(errno));
		f->refused = true;
		return 0;
	}
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags))
		flags = 0;
	if (!statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx) &&
	    (stx.stx_attributes_mask & STATX_ATTR_DAX))
		dax = !!(stx.stx_attributes & STATX_ATTR_DAX);
	close(fd);
	why = refusal(&st, flags, dax);
	if (why) {
		drop(f, "refused: %s", why);
		f->refused = true;
		return 0;
	}
	/* the kernel wants the file open for writing */
	fd = open(f->path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		drop(f, "refused: cannot open it for writing (%s)%s",
		     strerror(errno), errno == ETXTBSY ? ": a running "
		     "program's executable" : "");
		f->refused = true;
		return 0;
	}
	err = live_fiemap_fd(fd, &f->before, &f->nbefore);
	close(fd);
	if (err) {
		drop(f, "FIEMAP failed: %s", strerror(err));
		f->refused = true;
		return 0;
	}
	for (i = 0; i < f->nbefore; i++)
		f->data_blocks += (f->before[i].length + p->blocksize - 1) /
				  p->blocksize;
	f->runs_before = ldf_runs(f->before, f->nbefore);
	if (!f->nbefore) {
		drop(f, "no blocks (empty or all holes): nothing to move");
		return 0;
	}
	if (f->runs_before <= 1) {
		drop(f, "already one contiguous run: nothing to do");
		return 0;
	}
	return make_after(s, p, f);
}

size_t ldf_movable(const struct ldf_plan *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->n; i++)
		n += !p->f[i].dropped;
	return n;
}

void ldf_plan_free(struct ldf_plan *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++) {
		if (p->f[i].donor >= 0)
			close(p->f[i].donor);
		free(p->f[i].before);
		free(p->f[i].after);
	}
	if (p->goal.made[0])
		rmdir(p->goal.made);
	free(p->f);
	free(p);
}

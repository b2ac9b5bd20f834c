/* undo_guard.c - the undo file's guard (created new, one at a time): its
 * creation, the header and superblock copy it keeps, and, for a session's
 * -z file, the setup of libext2fs's undo manager over the channels of
 * undo_channels.c - so that the file restores the device byte for byte
 * wherever the writes stop. */
#include "undo_guard_int.h"
#include "e2l_err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * libext2fs's undo manager takes its backing manager and file name through
 * process-wide setters and opens the file by name inside ext2fs_open; this
 * is how the backing manager's open finds the guard (one at a time).
 */
static struct undo_guard *active;

__u32 ug_get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (__u32)p[3] << 24;
}

void ug_put32(unsigned char *p, __u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

unsigned long long ug_get64(const unsigned char *p)
{
	return ug_get32(p) | (unsigned long long)ug_get32(p + 4) << 32;
}

void ug_put64(unsigned char *p, unsigned long long v)
{
	ug_put32(p, (__u32)v);
	ug_put32(p + 4, (__u32)(v >> 32));
}

struct undo_guard *ug_active(void)
{
	return active;
}

errcode_t ug_put_at(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = pwrite(fd, p, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : ENOSPC;
		p += n;
		len -= n;
		off += n;
	}
	return 0;
}

/*
 * The header as the file keeps it: complete, sb_crc of our copy, and the
 * filesystem's block size as the unit of the keys.  (The undo manager
 * writes the channel's block size of the moment, which is 1024 while a
 * superblock is being written: a file cut off there would have e2undo put
 * every record at a quarter of its offset on a 4 KiB filesystem.)
 */
void ug_seal_header(struct undo_guard *g)
{
	__u32 log;

	if (g->have_sb) {
		ug_put32(g->hdr + UH_SB_CRC,
			 ext2fs_crc32c_le(~0U, g->sb, SB_SIZE));
		log = ug_get32(g->sb + SB_LOG_BSIZE);
		if (log <= 6)
			ug_put32(g->hdr + UH_FS_BLKSIZE, 1024U << log);
	}
	ug_put32(g->hdr + UH_STATE, ug_get32(g->hdr + UH_STATE) | UH_FINISHED);
	ug_put32(g->hdr + UH_CRC, ext2fs_crc32c_le(~0U, g->hdr, UH_CRC));
}

errcode_t ug_put_header(struct undo_guard *g)
{
	ug_seal_header(g);
	return ug_put_at(g->fd, g->hdr, UH_SIZE, 0);
}

errcode_t ug_put_sb(struct undo_guard *g, const unsigned char *sb)
{
	unsigned char copy[SB_SIZE];
	errcode_t err;

	memcpy(copy, sb, SB_SIZE);
	copy[SB_MAGIC] = ~copy[SB_MAGIC];
	copy[SB_MAGIC + 1] = ~copy[SB_MAGIC + 1];
	err = ug_put_at(g->fd, copy, SB_SIZE, g->sb_off);
	if (err)
		return err;
	memcpy(g->sb, sb, SB_SIZE);
	g->have_sb = 1;
	return 0;
}

int ug_dev_sb(struct undo_guard *g, unsigned char *sb)
{
	return g->devfd >= 0 &&
	       pread(g->devfd, sb, SB_SIZE, (off_t)(g->fs_offset + SB_OFFSET)) ==
	       SB_SIZE;
}

/* After anything that may have reached the device: if its superblock
 * changed, the copy and then the header follow. */
void ug_follow_sb(struct undo_guard *g)
{
	unsigned char cur[SB_SIZE];

	if (!g || !g->have_hdr || g->stale)
		return;
	if (!ug_dev_sb(g, cur)) {
		g->stale = 1;
		return;
	}
	if (g->have_sb && !memcmp(cur, g->sb, SB_SIZE))
		return;
	if (ug_put_sb(g, cur) || ug_put_header(g))
		g->stale = 1;
}

/*
 * The name the undo manager is given: /proc/self/fd/N, which can only be
 * the file we created, when /proc shows it; else the path itself.  Either
 * way every read and write of the undo file goes to our descriptor (the
 * backing manager's open hands out file_mgr's channel); libext2fs's own
 * open of the name only reads the file's size, so a name swapped in the
 * meantime can make it refuse the file (EXT2_ET_UNDO_FILE_CORRUPT), never
 * write anywhere else (without /proc, its O_CREAT could at worst create an
 * empty file where a swapped-in dangling link points).
 */
static char *pick_token(int fd, const char *path)
{
	struct stat a, b;
	char *t = NULL;

	if (asprintf(&t, "/proc/self/fd/%d", fd) < 0)
		return strdup(path);
	if (!fstat(fd, &a) && !stat(t, &b) && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		return t;
	free(t);
	return strdup(path);
}

/* The offset=N of a device named IMAGE?offset=N (libext2fs's io options,
 * '&' between them), or 0. */
static unsigned long long name_offset(const char *device)
{
	const char *o = strchr(device, '?');

	while (o) {
		o++;
		if (!strncmp(o, "offset=", 7))
			return strtoull(o + 7, NULL, 0);
		o = strchr(o, '&');
	}
	return 0;
}

/* A new undo file at path (checked) for device, and the device opened
 * read-only for its superblock and old contents. */
static errcode_t guard_create(struct session *s, const char *who,
			      const char *device, const char *path,
			      unsigned long long worst_bytes,
			      struct undo_guard **gp)
{
	struct undo_guard *g;
	const char *v = getenv("E2L_FAULT_UNDO_WRITES");
	char *dev = NULL;
	errcode_t err;

	*gp = NULL;
	err = undo_path_check(s, who, device, path, worst_bytes);
	if (err)
		return err;
	g = calloc(1, sizeof(*g));
	if (!g)
		return ENOMEM;
	g->devfd = -1;
	g->fault = v && *v ? atol(v) : 0;
	/* never follows a link, never opens what exists */
	g->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		     0600);
	if (g->fd < 0) {
		err = errno;
		out_error(s->out, who, err, "while creating the undo file %s",
			  path);
		free(g);
		return err;
	}
	g->path = strdup(path);
	g->token = pick_token(g->fd, path);
	dev = strdup(device);
	if (!g->path || !g->token || !dev) {
		free(dev);
		undo_guard_close(&g, NULL, NULL);
		out_error(s->out, who, ENOMEM, "while setting up the undo file "
			  "%s", path);
		return ENOMEM;
	}
	g->fs_offset = name_offset(device);
	if (strchr(dev, '?'))
		*strchr(dev, '?') = 0;
	g->devfd = open(dev, O_RDONLY | O_CLOEXEC);
	free(dev);
	*gp = g;
	return 0;
}

errcode_t undo_guard_open(struct session *s, const char *who,
			  const char *device, const char *path,
			  unsigned long long worst_bytes,
			  struct undo_guard **gp)
{
	struct undo_guard *g;
	errcode_t err;

	*gp = NULL;
	if (active) {
		out_error(s->out, who, E2L_ERR_UNDO_PATH, "%s: the undo file "
			  "%s is being recorded already", path, active->path);
		return E2L_ERR_UNDO_PATH;
	}
	err = guard_create(s, who, device, path, worst_bytes, &g);
	if (err)
		return err;
	err = set_undo_io_backing_manager(ug_backing_manager());
	if (!err)
		err = set_undo_io_backup_file(g->token);
	if (err) {
		out_error(s->out, who, err, "while setting up the undo file "
			  "%s", path);
		undo_guard_close(&g, NULL, NULL);
		return err;
	}
	active = g;
	*gp = g;
	return 0;
}

errcode_t undo_guard_new(struct session *s, const char *who,
			 const char *device, const char *path,
			 unsigned long long worst_bytes,
			 struct undo_guard **gp)
{
	errcode_t err = guard_create(s, who, device, path, worst_bytes, gp);

	if (!err && (*gp)->devfd < 0)
		err = errno ? errno : EXT2_ET_BAD_DEVICE_NAME;
	if (!err)
		err = uw_new(*gp);
	if (err && *gp) {
		out_error(s->out, who, err, "while setting up the undo file "
			  "%s", path);
		undo_guard_close(gp, NULL, NULL);
	}
	return err;
}

errcode_t undo_guard_pin(ext2_filsys fs)
{
	char opt[40];
	unsigned size = fs->blocksize > 32768 ? fs->blocksize : 32768;

	snprintf(opt, sizeof(opt), "tdb_data_size=%u", size);
	return io_channel_set_options(fs->io, opt);
}

const char *undo_guard_path(const struct undo_guard *g)
{
	return g ? g->path : NULL;
}

errcode_t undo_guard_close(struct undo_guard **gp, errcode_t *write_err,
			   int *recorded)
{
	struct undo_guard *g = *gp;
	errcode_t ret;

	uw_settle(g);	/* nothing in flight: its result is known */
	if (g)
		undo_guard_detach(g);	/* its channel writes nothing more */
	if (write_err)
		*write_err = g ? g->err : 0;
	if (recorded)
		*recorded = g && g->have_hdr;
	if (!g)
		return 0;
	/* the last word on the superblock: libext2fs's manager has closed
	 * its channel (apply's writer followed it while it recorded one, and
	 * must not follow writes it did not record) */
	if (!g->w)
		ug_follow_sb(g);
	uw_settle(g);
	ret = g->stale ? (g->err ? g->err : EIO) : 0;
	if (fsync(g->fd) < 0 && !ret && g->have_hdr)
		ret = errno;
	close(g->fd);
	if (g->devfd >= 0)
		close(g->devfd);
	if (active == g) {
		active = NULL;
		set_undo_io_backing_manager(unix_io_manager);
	}
	uw_free(g);
	free(g->path);
	free(g->token);
	free(g);
	*gp = NULL;
	return ret;
}

errcode_t undo_guard_discard(struct undo_guard **gp)
{
	struct undo_guard *g = *gp;
	struct stat fst, pst;
	char *path = NULL;
	errcode_t err;

	if (g && !g->dev_writes && fstat(g->fd, &fst) == 0 &&
	    lstat(g->path, &pst) == 0 && fst.st_dev == pst.st_dev &&
	    fst.st_ino == pst.st_ino)
		path = strdup(g->path);
	err = undo_guard_close(gp, NULL, NULL);
	if (path && unlink(path) < 0 && !err)
		err = errno;
	free(path);
	return err;
}

errcode_t undo_guard_state(struct undo_guard *g, errcode_t *write_err,
			   int *recorded)
{
	uw_settle(g);
	*write_err = g->err;
	*recorded = g->have_hdr;
	if (!g->w || g->layer)	/* while it records a channel */
		ug_follow_sb(g);
	return g->stale ? (g->err ? g->err : EIO) : 0;
}

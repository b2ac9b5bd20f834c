/* undo_guard.c - the undo file's guard (created new, one at a time) and,
 * for a session's -z file, its channel: libext2fs's undo manager writes
 * its records into a file e2layout created, through functions of ours that
 * write them straight to the file (no cache to lose in a crash), keep its
 * header marked complete and its copy of the superblock equal to the
 * device's, and refuse every write after one failed - so that the file
 * restores the device byte for byte wherever the writes stop. */
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
static struct struct_io_manager backing_mgr, dev_mgr, file_mgr;

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

/* --- the undo file's channel ------------------------------------------ */

static void span(io_channel ch, unsigned long long blk, int count,
		 off_t *off, size_t *len)
{
	*off = (off_t)(blk * ch->block_size);
	*len = count < 0 ? (size_t)-(long long)count :
			   (size_t)count * ch->block_size;
}

static errcode_t file_read64(io_channel ch, unsigned long long blk,
			     int count, void *buf)
{
	struct undo_guard *g = ch->private_data;
	size_t len, got = 0;
	ssize_t n;
	off_t off;

	span(ch, blk, count, &off, &len);
	while (got < len) {
		n = pread(g->fd, (char *)buf + got, len - got, off + got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (!n)
			break;
		got += n;
	}
	if (got == len)
		return 0;
	memset((char *)buf + got, 0, len - got);
	return EXT2_ET_SHORT_READ;
}

static errcode_t file_read(io_channel ch, unsigned long blk, int count,
			   void *buf)
{
	return file_read64(ch, blk, count, buf);
}

static errcode_t file_header(struct undo_guard *g, io_channel ch,
			      const void *buf)
{
	unsigned char cur[SB_SIZE];
	errcode_t err;

	memcpy(g->hdr, buf, UH_SIZE);
	/* a session that wrote nothing: the manager never set its record
	 * size, and e2undo refuses a header saying 0; the copy goes where
	 * the manager puts it, in units of the channel's block size */
	if (!ug_get32(g->hdr + UH_BLKSIZE))
		ug_put32(g->hdr + UH_BLKSIZE, ch->block_size);
	g->sb_off = ug_get64(g->hdr + UH_SUPER) * ug_get32(g->hdr + UH_BLKSIZE);
	/* the first time, the copy goes in before the header names it */
	if (!g->have_sb && ug_dev_sb(g, cur)) {
		err = ug_put_sb(g, cur);
		if (err)
			return err;
	}
	err = ug_put_header(g);
	if (!err)
		g->have_hdr = 1;
	return err;
}

static errcode_t file_write64(io_channel ch, unsigned long long blk,
			      int count, const void *buf)
{
	struct undo_guard *g = ch->private_data;
	unsigned char sb[SB_SIZE];
	errcode_t err;
	size_t len;
	off_t off;

	if (g->err)
		return g->err;
	if (g->fault > 0 && --g->fault == 0)
		return g->err = ENOSPC;
	span(ch, blk, count, &off, &len);
	if (off == 0 && len == UH_SIZE) {
		err = file_header(g, ch, buf);
	} else if (g->have_hdr && (unsigned long long)off == g->sb_off &&
		   len == SB_SIZE) {
		/* the manager's copy: ours already, unless it lagged */
		memcpy(sb, buf, SB_SIZE);
		sb[SB_MAGIC] = ~sb[SB_MAGIC];
		sb[SB_MAGIC + 1] = ~sb[SB_MAGIC + 1];
		err = 0;
		if (!g->have_sb || memcmp(sb, g->sb, SB_SIZE)) {
			err = ug_put_sb(g, sb);
			if (!err)
				err = ug_put_header(g);
		}
	} else {
		err = ug_put_at(g->fd, buf, len, off);
	}
	if (err)
		g->err = err;
	return err;
}

static errcode_t file_write(io_channel ch, unsigned long blk, int count,
			    const void *buf)
{
	return file_write64(ch, blk, count, buf);
}

static errcode_t file_flush(io_channel ch)
{
	struct undo_guard *g = ch->private_data;

	if (g->err)
		return g->err;
	if (fdatasync(g->fd) < 0)
		return g->err = errno;
	return 0;
}

/*
 * The undo manager sets the file's block size to its record size before
 * its first record.  It names where a record goes in units of the device
 * channel's block size of the moment, so records smaller than a filesystem
 * block would all land at the start of their block: such a file is
 * refused before anything reaches the device (undo_guard_pin prevents it).
 */
static errcode_t file_set_blksize(io_channel ch, int blksize)
{
	struct undo_guard *g = ch->private_data;
	unsigned char sb[SB_SIZE];
	__u32 log;

	if (!g->err && ug_dev_sb(g, sb)) {
		log = ug_get32(sb + SB_LOG_BSIZE);
		if (log <= 6 && (unsigned)blksize % (1024U << log))
			g->err = E2L_ERR_UNDO_PATH;
	}
	ch->block_size = blksize;
	return 0;
}

static errcode_t file_close(io_channel ch)
{
	if (--ch->refcount > 0)
		return 0;
	ext2fs_free_mem(&ch->name);
	ext2fs_free_mem(&ch);
	return 0;
}

static errcode_t file_open(struct undo_guard *g, const char *name,
			   io_channel *chp)
{
	io_channel ch;
	errcode_t err;

	err = ext2fs_get_memzero(sizeof(*ch), &ch);
	if (err)
		return err;
	err = ext2fs_get_mem(strlen(name) + 1, &ch->name);
	if (err) {
		ext2fs_free_mem(&ch);
		return err;
	}
	strcpy(ch->name, name);
	ch->magic = EXT2_ET_MAGIC_IO_CHANNEL;
	ch->manager = &file_mgr;
	ch->block_size = 1024;
	ch->refcount = 1;
	ch->private_data = g;
	*chp = ch;
	return 0;
}

/* --- the device's channel: unix I/O, then the superblock follows ------- */

static errcode_t dev_write64(io_channel ch, unsigned long long blk,
			     int count, const void *buf)
{
	errcode_t err = unix_io_manager->write_blk64(ch, blk, count, buf);

	ug_follow_sb(ch->app_data);
	return err;
}

static errcode_t dev_write(io_channel ch, unsigned long blk, int count,
			   const void *buf)
{
	errcode_t err = unix_io_manager->write_blk(ch, blk, count, buf);

	ug_follow_sb(ch->app_data);
	return err;
}

static errcode_t dev_write_byte(io_channel ch, unsigned long off,
				int count, const void *buf)
{
	errcode_t err = unix_io_manager->write_byte(ch, off, count, buf);

	ug_follow_sb(ch->app_data);
	return err;
}

/* The undo file reaches the disk before the device's writes do. */
static errcode_t dev_flush(io_channel ch)
{
	struct undo_guard *g = ch->app_data;
	errcode_t err;

	if (g && fdatasync(g->fd) < 0 && !g->err)
		g->err = errno;
	err = unix_io_manager->flush(ch);
	ug_follow_sb(g);
	return err;
}

static errcode_t dev_set_blksize(io_channel ch, int blksize)
{
	errcode_t err = unix_io_manager->set_blksize(ch, blksize);

	ug_follow_sb(ch->app_data);	/* it flushes the cache */
	return err;
}

static errcode_t dev_discard(io_channel ch, unsigned long long blk,
			     unsigned long long count)
{
	errcode_t err = unix_io_manager->discard(ch, blk, count);

	ug_follow_sb(ch->app_data);
	return err;
}

static errcode_t dev_zeroout(io_channel ch, unsigned long long blk,
			     unsigned long long count)
{
	errcode_t err = unix_io_manager->zeroout(ch, blk, count);

	ug_follow_sb(ch->app_data);
	return err;
}

/* The undo manager's backing manager: the device, or our undo file. */
static errcode_t backing_open(const char *name, int flags, io_channel *chp)
{
	struct undo_guard *g = active;
	errcode_t err;

	if (g && !strcmp(name, g->token))
		return file_open(g, name, chp);
	err = unix_io_manager->open(name, flags, chp);
	if (err || !g)
		return err;
	(*chp)->manager = &dev_mgr;
	(*chp)->app_data = g;
	if (g->devfd < 0)
		g->devfd = open(name, O_RDONLY | O_CLOEXEC);
	return 0;
}

static void managers_init(void)
{
	backing_mgr = *unix_io_manager;
	backing_mgr.name = "e2layout undo backing";
	backing_mgr.open = backing_open;
	dev_mgr = *unix_io_manager;
	dev_mgr.write_blk = dev_write;
	dev_mgr.write_blk64 = dev_write64;
	if (unix_io_manager->write_byte)
		dev_mgr.write_byte = dev_write_byte;
	dev_mgr.flush = dev_flush;
	dev_mgr.set_blksize = dev_set_blksize;
	if (unix_io_manager->discard)
		dev_mgr.discard = dev_discard;
	if (unix_io_manager->zeroout)
		dev_mgr.zeroout = dev_zeroout;
	memset(&file_mgr, 0, sizeof(file_mgr));
	file_mgr.magic = EXT2_ET_MAGIC_IO_MANAGER;
	file_mgr.name = "e2layout undo file";
	file_mgr.close = file_close;
	file_mgr.set_blksize = file_set_blksize;
	file_mgr.read_blk = file_read;
	file_mgr.write_blk = file_write;
	file_mgr.flush = file_flush;
	file_mgr.read_blk64 = file_read64;
	file_mgr.write_blk64 = file_write64;
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
	managers_init();
	err = set_undo_io_backing_manager(&backing_mgr);
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

errcode_t undo_guard_state(struct undo_guard *g, errcode_t *write_err,
			   int *recorded)
{
	*write_err = g->err;
	*recorded = g->have_hdr;
	if (!g->w || g->layer)	/* while it records a channel */
		ug_follow_sb(g);
	return g->stale ? (g->err ? g->err : EIO) : 0;
}

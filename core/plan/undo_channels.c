/* undo_channels.c - the channels libext2fs's undo manager writes a -z
 * undo file through: the file's (its records straight to the file e2layout
 * created, no cache to lose in a crash, every write refused after one
 * failed) and the device's (unix I/O, then the guard's superblock copy
 * follows what reached the device). */
#include "undo_guard_int.h"
#include "e2l_err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The managers the undo manager is set up with (ug_backing_manager). */
static struct struct_io_manager backing_mgr, dev_mgr, file_mgr;

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

	((struct undo_guard *)ch->app_data)->dev_writes++;
	ug_follow_sb(ch->app_data);
	return err;
}

static errcode_t dev_write(io_channel ch, unsigned long blk, int count,
			   const void *buf)
{
	errcode_t err = unix_io_manager->write_blk(ch, blk, count, buf);

	((struct undo_guard *)ch->app_data)->dev_writes++;
	ug_follow_sb(ch->app_data);
	return err;
}

static errcode_t dev_write_byte(io_channel ch, unsigned long off,
				int count, const void *buf)
{
	errcode_t err = unix_io_manager->write_byte(ch, off, count, buf);

	((struct undo_guard *)ch->app_data)->dev_writes++;
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
	struct undo_guard *g = ug_active();
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

io_manager ug_backing_manager(void)
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
	return &backing_mgr;
}

/* exp_loop.c - copies, loop devices and mounts for the experiment's runs,
 * through the kernel's interfaces (FICLONE, SEEK_DATA, LOOP_CONFIGURE,
 * mount(2)) rather than external tools, so that every failure is seen. */
#include "exp_loop.h"
#include "exp.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

static void nap_ms(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

/* Copies [off, off + n) of in to out at the same offset. */
static int copy_range(int in, int out, off_t off, off_t n, char *buf,
		      size_t bsize)
{
	while (n > 0) {
		size_t want = (off_t)bsize < n ? bsize : (size_t)n;
		ssize_t r = pread(in, buf, want, off);

		if (r < 0 && errno == EINTR && !exp_interrupted)
			continue;
		if (r <= 0)
			return r < 0 ? errno : EIO;
		if (pwrite(out, buf, (size_t)r, off) != r)
			return errno ? errno : EIO;
		off += r;
		n -= r;
		if (exp_interrupted)
			return EINTR;
	}
	return 0;
}

static int sparse_copy(int in, int out, off_t size)
{
	enum { BSIZE = 1 << 20 };
	char *buf = malloc(BSIZE);
	off_t data = 0, hole;
	int err = 0;

	if (!buf)
		return ENOMEM;
	while (!err && data < size) {
		data = lseek(in, data, SEEK_DATA);
		if (data < 0) {
			err = errno == ENXIO ? 0 : errno;
			break;
		}
		hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0)
			hole = size;
		err = copy_range(in, out, data, hole - data, buf, BSIZE);
		data = hole;
	}
	free(buf);
	if (!err && ftruncate(out, size))
		err = errno;
	return err;
}

errcode_t expl_copy(const char *src, const char *dst, char *why, size_t len)
{
	struct stat st;
	int in, out, err = 0;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		err = errno;
		snprintf(why, len, "cannot open %s: %s", src, strerror(err));
		return err;
	}
	if (fstat(in, &st) || !S_ISREG(st.st_mode)) {
		close(in);
		snprintf(why, len, "%s is not a regular file (an experiment "
			 "runs on copies of image files)", src);
		return EINVAL;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0) {
		err = errno;
		close(in);
		snprintf(why, len, "cannot create %s: %s", dst, strerror(err));
		return err;
	}
	if (ioctl(out, FICLONE, in))
		err = sparse_copy(in, out, st.st_size);
	if (!err && fsync(out))
		err = errno;
	if (close(out) && !err)
		err = errno;
	close(in);
	if (err) {
		unlink(dst);
		snprintf(why, len, "copying %s to %s: %s", src, dst,
			 strerror(err));
	}
	return err;
}

struct mflag {
	const char *name;
	unsigned long flag;
};

static const struct mflag mflags[] = {
	{ "sync", MS_SYNCHRONOUS }, { "dirsync", MS_DIRSYNC },
	{ "noatime", MS_NOATIME }, { "nodiratime", MS_NODIRATIME },
	{ "relatime", MS_RELATIME }, { "strictatime", MS_STRICTATIME },
	{ "lazytime", MS_LAZYTIME }, { "nosuid", MS_NOSUID },
	{ "nodev", MS_NODEV }, { "noexec", MS_NOEXEC },
	{ "async", 0 }, { "rw", 0 }, { "defaults", 0 }, { "atime", 0 },
	{ "diratime", 0 }, { NULL, 0 }
};

int expl_check_opts(const char *opts, char *why, size_t len)
{
	const char *p;
	char *copy, *tok, *save = NULL;
	int bad = 0;

	if (!opts)
		return 0;
	if (strlen(opts) > 1024) {
		snprintf(why, len, "the mount options are longer than 1024 "
			 "bytes");
		return -1;
	}
	for (p = opts; *p; p++)
		if (*p <= ' ' || *p == 0x7f) {
			snprintf(why, len, "the mount options hold a space or "
				 "a control character: \"%s\"", opts);
			return -1;
		}
	copy = strdup(opts);
	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok && !bad;
	     tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, "ro") || !strcmp(tok, "remount") ||
		    !strcmp(tok, "bind") || !strcmp(tok, "move")) {
			snprintf(why, len, "mount option %s is refused (each "
				 "run mounts a fresh copy read-write)", tok);
			bad = 1;
		} else if (!strncmp(tok, "journal_path=", 13) ||
			   !strncmp(tok, "journal_dev=", 12) ||
			   !strcmp(tok, "errors=panic")) {
			snprintf(why, len, "mount option %s is refused (%s)",
				 tok, tok[0] == 'j' ? "it names a device "
				 "outside the copy, which the kernel would "
				 "write" : "an error in a copy would stop the "
				 "machine");
			bad = 1;
		}
	free(copy);
	return bad ? -1 : 0;
}

/* Splits opts into mount(2) flags and ext4's own option string. */
static int split_opts(const char *opts, unsigned long *flags, char *data,
		      size_t dlen)
{
	char *copy, *tok, *save = NULL;
	size_t used = 0;
	int i;

	*flags = 0;
	data[0] = 0;
	if (!opts)
		opts = "";
	copy = strdup(opts);
	if (!copy)
		return ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; mflags[i].name; i++)
			if (!strcmp(tok, mflags[i].name))
				break;
		if (mflags[i].name) {
			*flags |= mflags[i].flag;
			continue;
		}
		used += (size_t)snprintf(data + used, dlen - used, "%s%s",
					 used ? "," : "", tok);
		if (used >= dlen) {
			free(copy);
			return E2BIG;
		}
	}
	free(copy);
	/* a fresh filesystem's inode tables are zeroed in the background
	 * after its first mount (lazy init): writes in the middle of the
	 * workload, in every run on a fresh copy.  Off, unless asked for. */
	if (!strstr(opts, "init_itable")) {
		used += (size_t)snprintf(data + used, dlen - used, "%s%s",
					 used ? "," : "", "noinit_itable");
		if (used >= dlen)
			return E2BIG;
	}
	return 0;
}

/* A free loop device with st->copy behind it, detaching on last close. */
static errcode_t attach(struct exp_stage *st, char *why, size_t len)
{
	struct loop_config cfg;
	struct stat sb;
	int ctl, fd = -1, file, tries, err = 0;

	file = open(st->copy, O_RDWR | O_CLOEXEC);
	if (file < 0) {
		err = errno;
		snprintf(why, len, "cannot open %s: %s", st->copy,
			 strerror(err));
		return err;
	}
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		err = errno;
		close(file);
		snprintf(why, len, "cannot open /dev/loop-control: %s (loop "
			 "devices need root and the loop module)",
			 strerror(err));
		return err;
	}
	/* another process may take the free device first: try again */
	for (tries = 0; tries < 20; tries++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);

		if (n < 0) {
			err = errno;
			break;
		}
		snprintf(st->loopdev, sizeof(st->loopdev), "/dev/loop%d", n);
		snprintf(st->devname, sizeof(st->devname), "loop%d", n);
		fd = open(st->loopdev, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			err = errno;
			nap_ms(20);
			continue;
		}
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (__u32)file;
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
		/* the name is for losetup -l only; a cut one is fine */
		memcpy(cfg.info.lo_file_name, st->copy,
		       strnlen(st->copy, LO_NAME_SIZE - 1));
		if (!ioctl(fd, LOOP_CONFIGURE, &cfg)) {
			err = 0;
			break;
		}
		err = errno;
		close(fd);
		fd = -1;
		if (err != EBUSY)
			break;
	}
	close(ctl);
	close(file);
	if (fd < 0) {
		snprintf(why, len, "cannot attach %s to a loop device: %s",
			 st->copy, strerror(err ? err : EBUSY));
		return err ? err : EBUSY;
	}
	st->loop_fd = fd;
	if (fstat(fd, &sb) == 0)
		st->kdev = ((__u64)major(sb.st_rdev) << 20) |
			   minor(sb.st_rdev);
	return 0;
}

errcode_t expl_mount(struct exp_stage *st, const char *opts, char *why,
		     size_t len)
{
	unsigned long flags;
	char data[1100];
	errcode_t err;

	st->loop_fd = -1;
	err = split_opts(opts, &flags, data, sizeof(data));
	if (err) {
		snprintf(why, len, "bad mount options: %s", opts);
		return err;
	}
	if (mkdir(st->mnt, 0700)) {
		err = errno;
		snprintf(why, len, "cannot create %s: %s", st->mnt,
			 strerror(errno));
		return err;
	}
	st->have_mnt = 1;
	err = attach(st, why, len);
	if (err)
		return err;
	if (mount(st->loopdev, st->mnt, "ext4", flags, data)) {
		err = errno;
		snprintf(why, len, "mounting %s (a copy) on %s with \"%s\" "
			 "failed: %s (the kernel's log, dmesg, says why)",
			 st->loopdev, st->mnt, opts ? opts : "",
			 strerror(errno));
	} else {
		st->mounted = 1;
	}
	/* the mount holds the device now; autoclear frees it after */
	close(st->loop_fd);
	st->loop_fd = -1;
	return err;
}

static int loop_attached(const struct exp_stage *st)
{
	char p[128];

	snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file",
		 st->devname);
	return access(p, F_OK) == 0;
}

errcode_t expl_teardown(struct exp_stage *st, int remove_copy, char *why,
			size_t len)
{
	errcode_t first = 0;
	int i;

	if (st->loop_fd >= 0 && st->devname[0]) {
		close(st->loop_fd);
		st->loop_fd = -1;
	}
	if (st->mounted) {
		int e = 0;

		for (i = 0; i < 100; i++) {
			if (!umount2(st->mnt, 0)) {
				e = 0;
				break;
			}
			e = errno;
			if (e != EBUSY)
				break;
			nap_ms(50);
		}
		if (e == EBUSY) {
			/* still busy after 5 s: detach it lazily, say so */
			umount2(st->mnt, MNT_DETACH);
			snprintf(why, len, "%s stayed busy for 5 s; detached "
				 "lazily", st->mnt);
		} else if (e) {
			snprintf(why, len, "unmounting %s: %s", st->mnt,
				 strerror(e));
		}
		first = e;
		st->mounted = 0;
	}
	if (st->devname[0]) {
		for (i = 0; i < 200 && loop_attached(st); i++)
			nap_ms(25);
		if (loop_attached(st)) {
			int fd = open(st->loopdev, O_RDWR | O_CLOEXEC);

			if (fd >= 0) {
				ioctl(fd, LOOP_CLR_FD, 0);
				close(fd);
			}
		}
		st->devname[0] = 0;
	}
	if (st->have_mnt) {
		if (rmdir(st->mnt) && errno != ENOENT && !first) {
			first = errno;
			snprintf(why, len, "cannot remove %s: %s", st->mnt,
				 strerror(errno));
		}
		st->have_mnt = 0;
	}
	if (remove_copy && st->have_copy) {
		if (unlink(st->copy) && errno != ENOENT && !first) {
			first = errno;
			snprintf(why, len, "cannot remove %s: %s", st->copy,
				 strerror(errno));
		}
		st->have_copy = 0;
	}
	return first;
}

errcode_t expl_drop_caches(void)
{
	int fd;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (write(fd, "3", 1) != 1) {
		int e = errno;

		close(fd);
		return e;
	}
	return close(fd) ? errno : 0;
}

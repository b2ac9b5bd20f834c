/* live.c - finding a mounted ext4 from a device or a directory, its sysfs
 * name and tunables, and file extents through FIEMAP. */
#include "live.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Undoes mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = 0;
}

/*
 * Finds the mountinfo line of an ext* mount of device maj:min; copies its
 * mount point and source.  Prefers the mount whose mount point is path
 * (when path is set and one is; *exact says so), then a mount of the
 * filesystem's root.
 */
static errcode_t find_mount(unsigned maj, unsigned min, const char *path,
			    char *mnt, size_t mlen, char *src, size_t slen,
			    bool *exact)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (exact)
		*exact = false;
	if (!f)
		return errno;
	while (getline(&line, &cap, f) > 0) {
		char root[PATH_MAX], point[PATH_MAX], type[64], source[PATH_MAX];
		unsigned a, b;
		char *dash;

		if (sscanf(line, "%*u %*u %u:%u %4095s %4095s", &a, &b, root,
			   point) != 4 || a != maj || b != min)
			continue;
		dash = strstr(line, " - ");
		if (!dash || sscanf(dash + 3, "%63s %4095s", type,
				    source) != 2)
			continue;
		if (strcmp(type, "ext4") && strcmp(type, "ext3") &&
		    strcmp(type, "ext2"))
			continue;
		unescape(point);
		if (path && !strcmp(point, path)) {
			unescape(source);
			snprintf(mnt, mlen, "%s", point);
			snprintf(src, slen, "%s", source);
			found = 1;
			*exact = true;
			break;
		}
		if (found == 2 || (found && strcmp(root, "/")))
			continue;	/* keep the first mount of the root */
		unescape(source);
		snprintf(mnt, mlen, "%s", point);
		snprintf(src, slen, "%s", source);
		found = strcmp(root, "/") ? 1 : 2;
		if (found == 2 && !path)
			break;
	}
	free(line);
	fclose(f);
	return found ? 0 : ENOENT;
}

errcode_t live_device_of_dir(const char *dir, char *dev, size_t len,
			     char *mnt, size_t mlen, bool *is_mount_point)
{
	char real[PATH_MAX];
	struct stat st;

	*is_mount_point = false;
	if (stat(dir, &st))
		return errno;
	if (!S_ISDIR(st.st_mode))
		return ENOTDIR;
	if (!realpath(dir, real))
		return errno;
	return find_mount(major(st.st_dev), minor(st.st_dev), real, mnt,
			  mlen, dev, len, is_mount_point);
}

/* NAME under /sys/fs/ext4 for a device number. */
static void sys_name(struct live_info *l)
{
	char path[64], link[PATH_MAX], probe[PATH_MAX + 32];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", l->major,
		 l->minor);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = 0;
		snprintf(l->sysname, sizeof(l->sysname), "%s",
			 basename(link));
		snprintf(probe, sizeof(probe), "/sys/fs/ext4/%s", l->sysname);
		if (!access(probe, F_OK))
			return;
	}
	snprintf(link, sizeof(link), "%s", l->source);
	snprintf(l->sysname, sizeof(l->sysname), "%s", basename(link));
}

errcode_t live_attach(const char *mnt, struct live_info **lp)
{
	struct live_info *l;
	struct stat st;
	errcode_t err;

	*lp = NULL;
	if (stat(mnt, &st))
		return errno;
	l = calloc(1, sizeof(*l));
	if (!l)
		return ENOMEM;
	l->dev = st.st_dev;
	l->major = major(st.st_dev);
	l->minor = minor(st.st_dev);
	l->kdev = ((__u64)l->major << 20) | l->minor;
	err = find_mount(l->major, l->minor, NULL, l->mnt, sizeof(l->mnt),
			 l->source, sizeof(l->source), NULL);
	if (err) {
		free(l);
		return err;
	}
	sys_name(l);
	*lp = l;
	return 0;
}

void live_free(struct live_info *l)
{
	free(l);
}

static int sysfs_path(const struct live_info *l, const char *attr,
		      char *path, size_t len)
{
	if (!*attr || strchr(attr, '/') || !strcmp(attr, "..") ||
	    !strcmp(attr, "."))
		return -1;
	snprintf(path, len, "/sys/fs/ext4/%s/%s", l->sysname, attr);
	return 0;
}

errcode_t live_sysfs_read(const struct live_info *l, const char *attr,
			  char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if (sysfs_path(l, attr, path, sizeof(path)))
		return EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		errcode_t err = errno;

		close(fd);
		return err;
	}
	close(fd);
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

errcode_t live_sysfs_write(const struct live_info *l, const char *attr,
			   const char *val)
{
	char path[PATH_MAX];
	size_t len = strlen(val);
	ssize_t n;
	int fd;

	if (sysfs_path(l, attr, path, sizeof(path)))
		return EINVAL;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	n = write(fd, val, len);
	if (n < 0 || (size_t)n != len) {
		errcode_t err = n < 0 ? errno : EIO;

		close(fd);
		return err;
	}
	return close(fd) ? errno : 0;
}

errcode_t live_fiemap(const char *path, struct live_extent **ep, size_t *np)
{
	errcode_t err;
	int fd;

	*ep = NULL;
	*np = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	err = live_fiemap_fd(fd, ep, np);
	close(fd);
	return err;
}

errcode_t live_fiemap_fd(int fd, struct live_extent **ep, size_t *np)
{
	enum { BATCH = 128 };
	struct fiemap *fm;
	struct live_extent *e = NULL, *ne;
	size_t n = 0, cap = 0;
	__u64 start = 0;
	errcode_t err = 0;
	int last = 0;
	unsigned i;

	*ep = NULL;
	*np = 0;
	fm = calloc(1, sizeof(*fm) + BATCH * sizeof(struct fiemap_extent));
	if (!fm)
		return ENOMEM;
	while (!last) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = ~0ULL - start;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			err = errno;
			goto out;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			struct fiemap_extent *x = &fm->fm_extents[i];

			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				ne = realloc(e, cap * sizeof(*e));
				if (!ne) {
					err = ENOMEM;
					goto out;
				}
				e = ne;
			}
			e[n].logical = x->fe_logical;
			e[n].physical = x->fe_physical;
			e[n].length = x->fe_length;
			e[n].flags = x->fe_flags;
			n++;
			start = x->fe_logical + x->fe_length;
			if (x->fe_flags & FIEMAP_EXTENT_LAST)
				last = 1;
		}
	}
out:
	free(fm);
	if (err) {
		free(e);
		return err;
	}
	*ep = e;
	*np = n;
	return 0;
}

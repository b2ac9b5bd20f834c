/* live_paths.c - a bounded walk of a mount that names the inodes a trace
 * recorded: readdir's d_ino is the inode number, so no stat per entry. */
#include "live_paths.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEPTH 64

struct walk {
	struct live_ipath *p;
	size_t n, missing, budget;
	dev_t dev;
	char path[PATH_MAX];
};

static void found(struct walk *w, __u64 ino, const char *path,
		  unsigned char type)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		if (w->p[i].ino != ino || w->p[i].path)
			continue;
		w->p[i].path = strdup(path);
		w->p[i].type = type;
		if (w->p[i].path)
			w->missing--;
	}
}

/* Opens a directory without touching its atime (the walk must not mark
 * inodes dirty: a recording may be running on the same mount). */
static int open_dir(int at, const char *name)
{
	int fl = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, fd;

	fd = openat(at, name, fl | O_NOATIME);
	if (fd < 0 && errno == EPERM)
		fd = openat(at, name, fl);
	return fd;
}

/* Walks the directory open on fd, whose path is w->path (length len). */
static void walk_dir(struct walk *w, int fd, size_t len, int depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;

	if (!d) {
		close(fd);
		return;
	}
	while (w->missing && w->budget && (e = readdir(d))) {
		size_t l = strlen(e->d_name);
		struct stat st;
		int sub;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		w->budget--;
		if (len + 1 + l >= sizeof(w->path))
			continue;
		w->path[len] = '/';
		memcpy(w->path + len + 1, e->d_name, l + 1);
		found(w, e->d_ino, w->path, e->d_type);
		if (e->d_type != DT_DIR || depth >= MAX_DEPTH)
			goto next;
		sub = open_dir(dirfd(d), e->d_name);
		if (sub < 0)
			goto next;
		if (fstat(sub, &st) || st.st_dev != w->dev) {
			close(sub);	/* another mount on top */
			goto next;
		}
		walk_dir(w, sub, len + 1 + l, depth + 1);
next:
		w->path[len] = 0;
	}
	closedir(d);
}

errcode_t live_inode_paths(const char *mnt, struct live_ipath *p, size_t n,
			   size_t max_entries)
{
	struct walk w;
	struct stat st;
	size_t i;
	int fd;

	memset(&w, 0, sizeof(w));
	w.p = p;
	w.n = n;
	w.budget = max_entries;
	for (i = 0; i < n; i++) {
		p[i].path = NULL;
		p[i].type = DT_UNKNOWN;
	}
	w.missing = n;
	fd = open_dir(AT_FDCWD, mnt);
	if (fd < 0)
		return errno;
	if (fstat(fd, &st)) {
		close(fd);
		return errno;
	}
	w.dev = st.st_dev;
	found(&w, st.st_ino, "/", DT_DIR);
	walk_dir(&w, fd, 0, 0);
	return 0;
}

void live_ipaths_free(struct live_ipath *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(p[i].path);
		p[i].path = NULL;
	}
}

const char *live_special_inode(__u64 ino)
{
	switch (ino) {
	case EXT2_BAD_INO:		return "bad blocks";
	case EXT4_USR_QUOTA_INO:	return "user quota";
	case EXT4_GRP_QUOTA_INO:	return "group quota";
	case EXT2_BOOT_LOADER_INO:	return "boot loader";
	case EXT2_UNDEL_DIR_INO:	return "undelete";
	case EXT2_RESIZE_INO:		return "resize";
	case EXT2_JOURNAL_INO:		return "journal";
	case EXT2_EXCLUDE_INO:		return "exclude";
	case EXT4_REPLICA_INO:		return "replica";
	}
	return NULL;
}

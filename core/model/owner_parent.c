/* owner_parent.c - the paths of a few inodes from their parent chains (the
 * directories of an inode's group, then `..` up to the root), for `owner`
 * on a filesystem taken as consistent; else the walk of owner_paths.c. */
#include "owner.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NEAR_DIRS 16	/* directories of the group tried as the parent */
#define MAX_DEPTH 4096	/* levels climbed before giving up (a loop) */

/* What one directory's iteration looks for and finds. */
struct seek {
	ext2_filsys fs;
	ext2_ino_t want;	/* the entry's inode */
	int want_dir;		/* it must be a directory's entry */
	ext2_ino_t dotdot;	/* the directory's `..` (0: not seen) */
	char name[EXT2_NAME_LEN + 1];
	int found;
	int stop_at_dotdot;	/* the `..` is all that is asked */
};

static int seek_entry(struct ext2_dir_entry *d, int offset, int blocksize,
		      char *buf, void *priv)
{
	struct seek *k = priv;
	int len = ext2fs_dirent_name_len(d), ft = ext2fs_dirent_file_type(d);
	struct ext2_inode inode;

	(void)offset;
	(void)blocksize;
	(void)buf;
	if (!d->inode || d->inode > k->fs->super->s_inodes_count)
		return 0;
	if (d->name[0] == '.' && len == 2 && d->name[1] == '.') {
		k->dotdot = d->inode;
		return k->stop_at_dotdot || k->found ? DIRENT_ABORT : 0;
	}
	if (d->inode != k->want || (d->name[0] == '.' && len == 1))
		return 0;
	if (k->want_dir && ft != EXT2_FT_DIR) {
		/* the walk descends an unknown type only into a directory */
		if (ft != EXT2_FT_UNKNOWN ||
		    ext2fs_read_inode(k->fs, d->inode, &inode) ||
		    !LINUX_S_ISDIR(inode.i_mode))
			return 0;
	}
	if (k->found)
		return 0;
	memcpy(k->name, d->name, len);
	k->name[len] = 0;
	k->found = 1;
	return k->dotdot ? DIRENT_ABORT : 0;
}

/* Iterates dir for k (its blocks' checksums verified: a bad one is an
 * error, and the caller walks instead). */
static errcode_t seek_in(ext2_filsys fs, ext2_ino_t dir, struct seek *k)
{
	errcode_t err;

	k->fs = fs;
	k->found = 0;
	k->dotdot = 0;
	err = ext2fs_dir_iterate(fs, dir, 0, NULL, seek_entry, k);
	return err;
}

/* The parent of non-directory ino (one link): a directory of its group
 * holding it, nearest first; 0 when none of NEAR_DIRS does. */
static errcode_t file_parent(ext2_filsys fs, ext2_ino_t ino, char *name,
			     ext2_ino_t *parent)
{
	ext2_ino_t ipg = fs->super->s_inodes_per_group, got;
	ext2_ino_t below[NEAR_DIRS], above[NEAR_DIRS], try[2 * NEAR_DIRS + 1];
	dgrp_t g = (ino - 1) / ipg;
	ext2_inode_scan scan;
	struct ext2_inode inode;
	struct seek k = {.want = ino};
	size_t nb = 0, na = 0, nt = 0, j;
	errcode_t err;
	int keep = fs->flags & EXT2_FLAG_IGNORE_CSUM_ERRORS;

	*parent = 0;
	err = ext2fs_open_inode_scan(fs, 0, &scan);
	if (err)
		return err;
	ext2fs_inode_scan_flags(scan, EXT2_SF_SKIP_MISSING_ITABLE, 0);
	fs->flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
	err = ext2fs_inode_scan_goto_blockgroup(scan, g);
	/* the NEAR_DIRS directories nearest below ino (a ring, in inode
	 * order) and above it */
	while (!err && na < NEAR_DIRS) {
		err = ext2fs_get_next_inode(scan, &got, &inode);
		if (err || !got || (got - 1) / ipg != g)
			break;
		if (!inode.i_links_count || inode.i_dtime ||
		    !LINUX_S_ISDIR(inode.i_mode) || got == EXT2_ROOT_INO)
			continue;
		if (got < ino)
			below[nb++ % NEAR_DIRS] = got;
		else
			above[na++] = got;
	}
	if (!keep)
		fs->flags &= ~EXT2_FLAG_IGNORE_CSUM_ERRORS;
	ext2fs_close_inode_scan(scan);
	if (err)
		return err;
	/* nearest below first (a directory is made before its files) */
	for (j = 0; j < nb && j < NEAR_DIRS; j++)
		try[nt++] = below[(nb - 1 - j) % NEAR_DIRS];
	for (j = 0; j < na; j++)
		try[nt++] = above[j];
	if (g == 0)
		try[nt++] = EXT2_ROOT_INO;
	for (j = 0; j < nt; j++) {
		err = seek_in(fs, try[j], &k);
		if (err)
			return err;
		if (k.found) {
			strcpy(name, k.name);
			*parent = try[j];
			return 0;
		}
	}
	return 0;
}

/* ino's path into *out (malloc'd), NULL when the chain is not found (the
 * caller walks); an error stops. */
static errcode_t chain_path(ext2_filsys fs, ext2_ino_t ino, char **out)
{
	struct ext2_inode inode;
	struct seek k;
	char name[EXT2_NAME_LEN + 1], *path = NULL, *p;
	size_t len = 0, nl;
	ext2_ino_t cur, up;
	errcode_t err;
	int depth;

	*out = NULL;
	err = ext2fs_read_inode(fs, ino, &inode);
	if (err)
		return err;
	if (!inode.i_links_count || inode.i_dtime)
		return 0;
	if (LINUX_S_ISDIR(inode.i_mode)) {
		memset(&k, 0, sizeof(k));
		k.stop_at_dotdot = 1;
		err = seek_in(fs, ino, &k);
		if (err || !k.dotdot)
			return err;
		cur = ino;
		up = k.dotdot;
		name[0] = 0;	/* found below, in up */
	} else {
		if (inode.i_links_count != 1)
			return 0;	/* which link: the walk's order */
		err = file_parent(fs, ino, name, &up);
		if (err || !up)
			return err;
		cur = 0;
	}
	for (depth = 0; depth < MAX_DEPTH; depth++) {
		if (cur) {
			/* cur's name in up, and up's own `..` */
			memset(&k, 0, sizeof(k));
			k.want = cur;
			k.want_dir = 1;
			err = seek_in(fs, up, &k);
			if (err || !k.found || !k.dotdot)
				goto fail;
			strcpy(name, k.name);
		} else {
			memset(&k, 0, sizeof(k));
			k.stop_at_dotdot = 1;
			err = seek_in(fs, up, &k);
			if (err || !k.dotdot)
				goto fail;
		}
		nl = strlen(name);
		p = malloc(len + nl + 2);
		if (!p) {
			err = ENOMEM;
			goto fail;
		}
		p[0] = '/';
		memcpy(p + 1, name, nl);
		if (path)
			memcpy(p + 1 + nl, path, len);
		p[1 + nl + len] = 0;
		free(path);
		path = p;
		len += nl + 1;
		if (up == EXT2_ROOT_INO) {
			*out = path;
			return 0;
		}
		cur = up;
		up = k.dotdot;
	}
fail:
	free(path);
	return err;
}

int owner_near_counts(ext2_filsys fs, ext2_ino_t ino)
{
	return ino >= EXT2_FIRST_INODE(fs->super) &&
	       ino <= fs->super->s_inodes_count;
}

errcode_t owner_find_paths_near(ext2_filsys fs, const ext2_ino_t *want,
				char **paths, size_t n, char **arena)
{
	char **one = calloc(n ? n : 1, sizeof(*one)), *a = NULL;
	size_t i, j, len = 0, at;
	errcode_t err = 0;
	int walk = 0;

	*arena = NULL;
	memset(paths, 0, n * sizeof(*paths));
	if (!one)
		return ENOMEM;
	for (i = 0, j = 0; i < n && j <= OWNER_NEAR_MAX; i++)
		j += owner_near_counts(fs, want[i]);
	walk = j > OWNER_NEAR_MAX;
	for (i = 0; i < n && !err && !walk; i++) {
		if (!want[i] || want[i] > fs->super->s_inodes_count ||
		    (want[i] < EXT2_FIRST_INODE(fs->super) &&
		     want[i] != EXT2_ROOT_INO))
			continue;	/* a special inode: in no directory */
		for (j = 0; j < i && want[j] != want[i]; j++)
			;
		if (j < i) {
			if (one[j] && !(one[i] = strdup(one[j])))
				err = ENOMEM;
			continue;
		}
		if (want[i] == EXT2_ROOT_INO) {
			one[i] = strdup("/");
			err = one[i] ? 0 : ENOMEM;
			continue;
		}
		err = chain_path(fs, want[i], &one[i]);
		if (!err && !one[i])
			walk = 1;
	}
	for (i = 0; !err && !walk && i < n; i++)
		len += one[i] ? strlen(one[i]) + 1 : 0;
	if (!err && !walk && len) {
		a = malloc(len);
		if (!a)
			err = ENOMEM;
		for (i = 0, at = 0; a && i < n; i++) {
			if (!one[i])
				continue;
			paths[i] = strcpy(a + at, one[i]);
			at += strlen(one[i]) + 1;
		}
		*arena = a;
	}
	for (i = 0; i < n; i++)
		free(one[i]);
	free(one);
	if (walk || (err && err != ENOMEM))
		return owner_find_paths(fs, want, paths, n, arena);
	return err;
}

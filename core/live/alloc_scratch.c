/* alloc_scratch.c - the scratch filesystem `alloc set --preview` runs its
 * workloads on: made with mke2fs to the previewed filesystem's geometry
 * in a temporary directory off that filesystem, loop-mounted, then
 * unmounted and removed.  The previewed filesystem is never written to
 * and its tunables never change. */
#include "alloc_scratch.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define SCRATCH_MAX_BYTES	(16ULL << 30)

/* Runs argv quietly; its exit status, or -1. */
static int run(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	int status = -1;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) == 0 &&
	    waitpid(pid, &status, 0) != pid)
		status = -1;
	posix_spawn_file_actions_destroy(&fa);
	if (status == -1)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A temporary directory on another filesystem than l's. */
static errcode_t scratch_dir(const struct live_info *l, char *dir,
			     size_t len, char *why, size_t wlen)
{
	static const char *const bases[] = { NULL, "/var/tmp", "/tmp",
					     "/dev/shm" };
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(bases) / sizeof(*bases); i++) {
		const char *b = i ? bases[i] : getenv("TMPDIR");

		if (!b || !*b || strlen(b) + 24 > len || stat(b, &st) ||
		    st.st_dev == l->dev)
			continue;
		snprintf(dir, len, "%s/e2layout-preview-XXXXXX", b);
		if (mkdtemp(dir))
			return 0;
	}
	snprintf(why, wlen, "no temporary directory off %s for the preview's "
		 "scratch filesystem (set TMPDIR to one)", l->mnt);
	return EXT2_ET_INVALID_ARGUMENT;
}

errcode_t alloc_scratch_make(const struct live_info *l, ext2_filsys fs,
			     struct alloc_scratch *sc, char *why, size_t len)
{
	struct ext2_super_block *sb = fs->super;
	char bs[16], blocks[24], gpf[16], isz[16], ratio[24];
	unsigned long long bytes;
	errcode_t err;
	int fd, flex = ext2fs_has_feature_flex_bg(sb);

	memset(sc, 0, sizeof(*sc));
	err = scratch_dir(l, sc->dir, sizeof(sc->dir), why, len);
	if (err)
		return err;
	snprintf(sc->img, sizeof(sc->img), "%s/fs.img", sc->dir);
	snprintf(sc->mnt, sizeof(sc->mnt), "%s/mnt", sc->dir);
	sc->blocks = ext2fs_blocks_count(sb);
	bytes = (unsigned long long)sc->blocks * fs->blocksize;
	if (bytes > SCRATCH_MAX_BYTES)
		sc->blocks = SCRATCH_MAX_BYTES / fs->blocksize;
	fd = open(sc->img, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)sc->blocks * fs->blocksize) ||
	    close(fd) || mkdir(sc->mnt, 0700)) {
		err = errno;
		if (fd >= 0)
			close(fd);
		snprintf(why, len, "cannot make the scratch image %s: %s",
			 sc->img, strerror(err));
		return err;
	}
	snprintf(bs, sizeof(bs), "%u", fs->blocksize);
	snprintf(blocks, sizeof(blocks), "%llu",
		 (unsigned long long)sc->blocks);
	snprintf(gpf, sizeof(gpf), "%u", flex && sb->s_log_groups_per_flex <
		 31 ? 1U << sb->s_log_groups_per_flex : 16);
	snprintf(isz, sizeof(isz), "%u", EXT2_INODE_SIZE(sb));
	snprintf(ratio, sizeof(ratio), "%llu", sb->s_inodes_count ?
		 (unsigned long long)ext2fs_blocks_count(sb) * fs->blocksize /
		 sb->s_inodes_count : 16384ULL);
	{
		char *argv[] = { (char *)"mke2fs", (char *)"-q", (char *)"-F",
				 (char *)"-t", (char *)"ext4", (char *)"-b", bs,
				 (char *)"-G", gpf, (char *)"-I", isz,
				 (char *)"-i", ratio, (char *)"-O",
				 (char *)(flex ? "flex_bg" : "^flex_bg"),
				 (char *)"-E", (char *)"nodiscard", sc->img,
				 blocks, NULL };

		if (run(argv)) {
			snprintf(why, len, "mke2fs could not make the scratch "
				 "filesystem %s", sc->img);
			return EXT2_ET_INVALID_ARGUMENT;
		}
	}
	{
		/* noinit_itable: a lazy inode-table init would wake the
		 * kernel's one ext4lazyinit thread, which then zeroes the
		 * previewed filesystem's uninitialized tables too */
		char *argv[] = { (char *)"mount", (char *)"-o",
				 (char *)"loop,noinit_itable", sc->img, sc->mnt,
				 NULL };

		if (run(argv)) {
			snprintf(why, len, "cannot loop-mount the scratch "
				 "filesystem (the preview needs root and a "
				 "loop device)");
			return EXT2_ET_INVALID_ARGUMENT;
		}
	}
	sc->mounted = 1;
	err = live_attach(sc->mnt, &sc->live);
	if (!err)
		err = ext2fs_open(sc->img, EXT2_FLAG_64BITS, 0, 0,
				  unix_io_manager, &sc->fs);
	if (err)
		snprintf(why, len, "cannot read the scratch filesystem %s: %s",
			 sc->img, error_message(err));
	return err;
}

void alloc_scratch_drop(struct alloc_scratch *sc)
{
	char *argv[] = { (char *)"umount", sc->mnt, NULL };

	if (sc->fs)
		ext2fs_close_free(&sc->fs);
	if (sc->live)
		live_free(sc->live);
	sc->live = NULL;
	if (sc->mounted && run(argv) == 0)
		sc->mounted = 0;
	if (sc->mounted)
		return;		/* still mounted: leave it for the user */
	if (sc->img[0])
		unlink(sc->img);
	if (sc->mnt[0])
		rmdir(sc->mnt);
	if (sc->dir[0])
		rmdir(sc->dir);
}

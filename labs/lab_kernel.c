/* lab_kernel.c - a recipe's kernel steps: the finished image loop-mounted
 * and directories and files made through the kernel, so its allocator
 * (Orlov for directories, mballoc for data) places them, then unmounted;
 * a clear error where mounts are refused. */
#include "lab.h"
#include "lab_int.h"

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

/* Runs argv quietly (stdout and stderr to /dev/null); its exit status,
 * or -1 when it could not run. */
static int run_quiet(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, rc;

	if (posix_spawn_file_actions_init(&fa))
		return -1;
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* mkdir -p mnt/path (the kernel picks each new directory's group). */
static int kmkdirs(const char *mnt, const char *path)
{
	char buf[4096], *p;

	if (snprintf(buf, sizeof(buf), "%s%s", mnt, path) >= (int)sizeof(buf))
		return ENAMETOOLONG;
	for (p = buf + strlen(mnt) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return errno;
	return 0;
}

/* Writes size bytes of content seeded by seed and the path, in one go
 * (write(2) in 64 KiB pieces, then fsync). */
static int kwrite(const char *mnt, const char *path, unsigned long long size,
		  uint64_t seed)
{
	char full[4096], buf[65536], *slash;
	uint64_t x = seed;
	size_t i, n;
	int fd, err = 0;

	for (i = 0; path[i]; i++)
		x = (x ^ (unsigned char)path[i]) * 0x100000001b3ULL;
	if (snprintf(full, sizeof(full), "%s%s", mnt, path) >=
	    (int)sizeof(full))
		return ENAMETOOLONG;
	slash = strrchr(full, '/');
	*slash = 0;
	if (slash > full + strlen(mnt))
		err = kmkdirs(mnt, full + strlen(mnt));
	*slash = '/';
	if (err)
		return err;
	fd = open(full, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
	if (fd < 0)
		return errno;
	while (!err && size) {
		n = size < sizeof(buf) ? size : sizeof(buf);
		for (i = 0; i < n; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			buf[i] = (char)(x >> 56);
		}
		if (write(fd, buf, n) != (ssize_t)n)
			err = errno ? errno : EIO;
		size -= n;
	}
	if (!err && fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	return err;
}

/* One kernel step: "kernel mkdir PATH" or "kernel write PATH size=N". */
static int kstep(const char *mnt, char *line, uint64_t seed,
		 const char *where, struct sink *out)
{
	char *w[4], *save = NULL, *end, *p;
	unsigned long long size = 0;
	int n = 0, err;

	for (p = strtok_r(line, " \t", &save); p && n < 5;
	     p = strtok_r(NULL, " \t", &save)) {
		if (n < 4)
			w[n] = p;
		n++;
	}
	if (n == 3 && !strcmp(w[1], "mkdir") && w[2][0] == '/' &&
	    !strstr(w[2], "/..")) {
		err = kmkdirs(mnt, w[2]);
	} else if (n == 4 && !strcmp(w[1], "write") && w[2][0] == '/' &&
		   !strstr(w[2], "/..") && !strncmp(w[3], "size=", 5) &&
		   (size = strtoull(w[3] + 5, &end, 10), !*end) &&
		   size <= (1ULL << 30)) {
		err = kwrite(mnt, w[2], size, seed);
	} else {
		out_error(out, "lab", 0, "%s: a kernel step is \"kernel mkdir "
			  "/PATH\" or \"kernel write /PATH size=BYTES\"",
			  where);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	if (err)
		out_error(out, "lab", err, "%s: through the kernel", where);
	return err;
}

errcode_t lab_kernel_steps(const char *img, char **lines, int n,
			   uint64_t seed, const char *where, struct sink *out)
{
	const char *tmp = getenv("TMPDIR");
	char mnt[1024];
	char *mount_argv[] = { (char *)"mount", (char *)"-o",
			       (char *)"loop,noinit_itable", (char *)img, mnt,
			       NULL };
	char *umount_argv[] = { (char *)"umount", mnt, NULL };
	errcode_t err = 0;
	int i, tries;

	snprintf(mnt, sizeof(mnt), "%s/e2l-labmnt-XXXXXX",
		 tmp && *tmp && strlen(tmp) < 900 ? tmp : "/tmp");
	if (!mkdtemp(mnt)) {
		err = errno;
		out_error(out, "lab", err, "while making %s", mnt);
		return err;
	}
	if (geteuid() != 0 || run_quiet(mount_argv) != 0) {
		out_error(out, "lab", 0, "%s: the kernel steps need root and a "
			  "loop mount, and this machine refused them (mount -o "
			  "loop %s)", where, img);
		rmdir(mnt);
		return EPERM;
	}
	for (i = 0; !err && i < n; i++)
		err = kstep(mnt, lines[i], seed, where, out);
	sync();
	/* the kernel may still hold the mount a moment after the last
	 * close: retry, polling */
	for (tries = 0; run_quiet(umount_argv) != 0; tries++) {
		if (tries == 50) {
			out_error(out, "lab", 0, "%s: cannot unmount %s; the "
				  "image stays mounted there", where, mnt);
			return EBUSY;
		}
		usleep(100000);
	}
	rmdir(mnt);
	return err;
}

/* lab_kernel.c - a recipe's kernel steps: the finished image loop-mounted
 * and directories and files made through the kernel, so its allocator
 * (Orlov for directories, mballoc for data) places them, then unmounted;
 * a clear error where mounts are refused. */
#include "lab.h"
#include "lab_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

/* At most this many bytes written by one recipe's kernel steps in all:
 * they land in the image's sparse file, on the host's disk. */
#define KWRITE_TOTAL (1ULL << 30)

/* One checked kernel step: mkdir (size 0) or write. */
struct kstep {
	int write;
	char *path;
	unsigned long long size;
};

/* Signals that would end the program while the image is mounted: held
 * (blocked) from the mount to the unmount, and looked for between
 * writes, so the image is always unmounted and its loop device freed. */
static void kernel_sigs(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
}

/* 1 when one of kernel_sigs is pending. */
static int interrupted(void)
{
	sigset_t pend, set;
	int sig;

	kernel_sigs(&set);
	if (sigpending(&pend))
		return 0;
	for (sig = 1; sig < NSIG; sig++)
		if (sigismember(&set, sig) && sigismember(&pend, sig))
			return 1;
	return 0;
}

/* Opens directory name in dir (made first when mk), never following a
 * symbolic link: every step stays beneath the mount point. */
static int kopendir(int dir, const char *name, int mk)
{
	int fd;

	if (mk && mkdirat(dir, name, 0755) && errno != EEXIST)
		return -errno;
	fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	return fd < 0 ? -errno : fd;
}

/* Walks path (absolute, checked) from mnt: the directory holding its last
 * component (every directory made on the way), and *last that
 * component, in *path.  A descriptor, or minus an errno. */
static int kwalk(const char *mnt, char *path, char **last)
{
	char *p = path, *slash;
	int dir, next;

	dir = open(mnt, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (dir < 0)
		return -errno;
	while (*p == '/')
		p++;
	while ((slash = strchr(p, '/'))) {
		*slash = 0;
		next = kopendir(dir, p, 1);
		*slash = '/';
		close(dir);
		if (next < 0)
			return next;
		dir = next;
		for (p = slash; *p == '/'; p++)
			;
	}
	*last = p;
	return dir;
}

/* mkdir -p mnt/path (the kernel picks each new directory's group). */
static int kmkdirs(const char *mnt, char *path)
{
	char *last;
	int dir = kwalk(mnt, path, &last), fd;

	if (dir < 0)
		return -dir;
	fd = *last ? kopendir(dir, last, 1) : 0;
	close(dir);
	if (fd < 0)
		return -fd;
	if (fd > 0)
		close(fd);
	return 0;
}

/* Writes size bytes of content seeded by seed and the path, in one go
 * (write(2) in 64 KiB pieces, then fsync); EINTR when a signal came. */
static int kwrite(const char *mnt, char *path, unsigned long long size,
		  uint64_t seed)
{
	char buf[65536], *last;
	uint64_t x = seed;
	size_t i, n;
	int dir, fd, err = 0;

	for (i = 0; path[i]; i++)
		x = (x ^ (unsigned char)path[i]) * 0x100000001b3ULL;
	dir = kwalk(mnt, path, &last);
	if (dir < 0)
		return -dir;
	fd = openat(dir, last, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
	err = fd < 0 ? errno : 0;
	close(dir);
	if (fd < 0)
		return err;
	while (!err && size) {
		if (interrupted()) {
			err = EINTR;
			break;
		}
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

/* 1 when path is one a kernel step may name: absolute, no "..", no
 * control bytes, under PATH_MAX with every component under NAME_MAX. */
static int kpath_ok(const char *path)
{
	const unsigned char *p = (const unsigned char *)path;
	size_t comp = 0;

	if (*p != '/' || strstr(path, "/..") || strlen(path) >= 3000)
		return 0;
	for (; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return 0;
		comp = *p == '/' ? 0 : comp + 1;
		if (comp > 255)
			return 0;
	}
	return 1;
}

/* Parses a kernel step: "kernel mkdir PATH" or "kernel write PATH
 * size=N"; 0, or -1 when it is neither. */
static int kparse(char *line, struct kstep *k)
{
	char *w[4], *save = NULL, *end, *p;
	int n = 0;

	for (p = strtok_r(line, " \t", &save); p && n < 5;
	     p = strtok_r(NULL, " \t", &save)) {
		if (n < 4)
			w[n] = p;
		n++;
	}
	memset(k, 0, sizeof(*k));
	if (n == 3 && !strcmp(w[1], "mkdir") && kpath_ok(w[2])) {
		k->path = w[2];
		return 0;
	}
	if (n == 4 && !strcmp(w[1], "write") && kpath_ok(w[2]) &&
	    !strncmp(w[3], "size=", 5) && isdigit((unsigned char)w[3][5])) {
		errno = 0;
		k->size = strtoull(w[3] + 5, &end, 10);
		if (*end || errno || k->size > KWRITE_TOTAL)
			return -1;
		k->write = 1;
		k->path = w[2];
		return 0;
	}
	return -1;
}

/* Checks every step (nothing is mounted for a bad one): 0, or an error
 * named at where. */
static errcode_t kcheck(char **lines, int n, struct kstep *ks,
			const char *where, struct sink *out)
{
	unsigned long long total = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (kparse(lines[i], &ks[i])) {
			out_error(out, "lab", 0, "%s: a kernel step is \"kernel "
				  "mkdir /PATH\" or \"kernel write /PATH "
				  "size=BYTES\" (an absolute path without .. "
				  "or control characters); step %d is not",
				  where, i + 1);
			return EXT2_ET_INVALID_ARGUMENT;
		}
		total += ks[i].size;
		if (total > KWRITE_TOTAL) {
			out_error(out, "lab", 0, "%s: the kernel steps write "
				  "at most 1 GiB in all", where);
			return EXT2_ET_INVALID_ARGUMENT;
		}
	}
	return 0;
}

errcode_t lab_kernel_steps(const char *img, char **lines, int n,
			   uint64_t seed, const char *where, struct sink *out)
{
	const char *tmp = getenv("TMPDIR");
	char mnt[1024];
	char *mount_argv[] = { (char *)"mount", (char *)"-o",
			       (char *)"loop,noinit_itable,nosuid,nodev,noexec",
			       (char *)"--", (char *)img, mnt, NULL };
	char *umount_argv[] = { (char *)"umount", (char *)"--", mnt, NULL };
	struct kstep ks[64];
	sigset_t set, old;
	errcode_t err = 0;
	int i, tries;

	if (n > 64)
		n = 64;
	err = kcheck(lines, n, ks, where, out);
	if (err)
		return err;
	snprintf(mnt, sizeof(mnt), "%s/e2l-labmnt-XXXXXX",
		 tmp && *tmp && strlen(tmp) < 900 ? tmp : "/tmp");
	if (!mkdtemp(mnt)) {
		err = errno;
		out_error(out, "lab", err, "while making %s", mnt);
		return err;
	}
	kernel_sigs(&set);
	sigprocmask(SIG_BLOCK, &set, &old);
	if (geteuid() != 0 || run_quiet(mount_argv) != 0) {
		out_error(out, "lab", 0, "%s: the kernel steps need root and a "
			  "loop mount, and this machine refused them (mount -o "
			  "loop %s)", where, img);
		rmdir(mnt);
		err = EPERM;
		goto out;
	}
	for (i = 0; !err && i < n; i++) {
		if (interrupted())
			err = EINTR;
		else if (ks[i].write)
			err = kwrite(mnt, ks[i].path, ks[i].size, seed);
		else
			err = kmkdirs(mnt, ks[i].path);
		if (err)
			out_error(out, "lab", err, "%s: kernel step %d (%s)",
				  where, i + 1, ks[i].path);
	}
	sync();
	/* the kernel may still hold the mount a moment after the last
	 * close: retry, polling */
	for (tries = 0; run_quiet(umount_argv) != 0; tries++) {
		if (tries == 50) {
			out_error(out, "lab", 0, "%s: cannot unmount %s; the "
				  "image stays mounted there", where, mnt);
			err = EBUSY;
			goto out;
		}
		usleep(100000);
	}
	rmdir(mnt);
out:
	/* a signal held until now ends the program: no image left */
	if (err && err != EBUSY && interrupted())
		unlink(img);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}

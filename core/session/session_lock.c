/* session_lock.c - one writer at a time: the exclusive lock a -w session
 * holds from open to close (flock on an image, O_EXCL on a block device),
 * who holds it when another does, and the refusal of -w with -s. */
#include "session.h"
#include "e2l_err.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* "NAME (pid PID)" for another process, or "" when /proc does not say. */
static void holder_name(pid_t pid, char *buf, size_t len)
{
	char path[64], comm[64] = "";
	FILE *f;
	size_t n;

	buf[0] = 0;
	if (pid <= 0 || pid == getpid())
		return;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "r");
	if (f) {
		if (fgets(comm, sizeof(comm), f)) {
			n = strcspn(comm, "\n");
			comm[n] = 0;
		}
		fclose(f);
	}
	if (comm[0])
		snprintf(buf, len, "%s (pid %d)", comm, (int)pid);
	else
		snprintf(buf, len, "process %d", (int)pid);
}

/* The process holding a flock on the file st names, from /proc/locks. */
static pid_t flock_holder(const struct stat *st)
{
	FILE *f = fopen("/proc/locks", "r");
	char line[256], kind[16], mode[16], rw[16];
	unsigned maj, min;
	unsigned long ino;
	int pid;
	pid_t found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		/* "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF";
		 * waiters ("1: -> FLOCK ...") hold nothing */
		if (sscanf(line, "%*d: %15s %15s %15s %d %x:%x:%lu", kind, mode,
			   rw, &pid, &maj, &min, &ino) != 7 ||
		    strcmp(kind, "FLOCK"))
			continue;
		if (maj == major(st->st_dev) && min == minor(st->st_dev) &&
		    ino == st->st_ino)
			found = pid;
	}
	fclose(f);
	return found;
}

/* Another process with block device rdev open (the first found). */
static pid_t bdev_holder(dev_t rdev)
{
	DIR *proc = opendir("/proc"), *fds;
	struct dirent *p, *d;
	char path[16 + 2 * sizeof(p->d_name)];
	struct stat st;
	pid_t self = getpid(), found = 0;

	if (!proc)
		return 0;
	while (!found && (p = readdir(proc))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9' ||
		    atoi(p->d_name) == self)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd", p->d_name);
		fds = opendir(path);
		if (!fds)
			continue;
		while (!found && (d = readdir(fds))) {
			snprintf(path, sizeof(path), "/proc/%s/fd/%s",
				 p->d_name, d->d_name);
			if (d->d_name[0] != '.' && !stat(path, &st) &&
			    S_ISBLK(st.st_mode) && st.st_rdev == rdev)
				found = atoi(p->d_name);
		}
		closedir(fds);
	}
	closedir(proc);
	return found;
}

/* "the kernel, for NAME" when a device-mapper or md device sits on rdev:
 * those claim it exclusively without a process. */
static void bdev_kernel_holder(dev_t rdev, char *buf, size_t len)
{
	char path[96];
	struct dirent *d;
	DIR *dir;

	buf[0] = 0;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders",
		 major(rdev), minor(rdev));
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.') {
			snprintf(buf, len, "the kernel, for %.64s",
				 d->d_name);
			break;
		}
	closedir(dir);
}

errcode_t session_lock_busy(struct session *s, const char *device)
{
	char who[128] = "";
	struct stat st;

	if (!stat(device, &st) && S_ISBLK(st.st_mode)) {
		holder_name(bdev_holder(st.st_rdev), who, sizeof(who));
		if (!who[0])
			bdev_kernel_holder(st.st_rdev, who, sizeof(who));
		out_error(s->out, "e2layout", 0, "%s is opened exclusively by "
			  "%s; refusing to open it read-write: one writer at "
			  "a time", device, who[0] ? who : "another program "
			  "(another e2layout -w session, e2fsck, a mount...)");
	} else {
		if (!stat(device, &st))
			holder_name(flock_holder(&st), who, sizeof(who));
		out_error(s->out, "e2layout", 0, "%s holds a lock on %s; "
			  "refusing to open it read-write: one writer at a "
			  "time", who[0] ? who : "another e2layout -w session "
			  "or program", device);
	}
	return E2L_ERR_LOCKED;
}

errcode_t session_lock(struct session *s, const char *device)
{
	char path[PATH_MAX];
	const char *q;
	struct stat st;
	int fd, e;

	if (s->lock_fd >= 0)
		return 0;
	/* IMG?offset=N (a partition): the lock is the whole file's, and
	 * O_EXCL on a whole disk fails while any partition is mounted */
	q = strchr(device, '?');
	if (q && (size_t)(q - device) < sizeof(path)) {
		memcpy(path, device, q - device);
		path[q - device] = 0;
		device = path;
	}
	if (stat(device, &st))
		return 0;	/* ext2fs_open will say why it cannot open */
	if (S_ISBLK(st.st_mode)) {
		/* the kernel's exclusive claim: mount, e2fsck -fy (which
		 * opens with O_EXCL) and other writers are kept out, while
		 * the plain opens of libext2fs and e2fsck -fn still work */
		fd = open(device, O_RDONLY | O_EXCL | O_CLOEXEC);
		if (fd < 0) {
			if (errno == EBUSY)
				return session_lock_busy(s, device);
			e = errno;
			out_error(s->out, "e2layout", e, "while locking %s "
				  "for writing", device);
			return e;
		}
	} else {
		fd = open(device, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return 0;	/* ext2fs_open reports it */
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			e = errno;
			close(fd);
			if (e == EWOULDBLOCK)
				return session_lock_busy(s, device);
			out_error(s->out, "e2layout", e, "while locking %s; "
				  "refusing to open it read-write without "
				  "the writer's lock", device);
			return e;
		}
	}
	s->lock_fd = fd;
	return 0;
}

void session_unlock(struct session *s)
{
	if (s->lock_fd >= 0)
		close(s->lock_fd);	/* releases the flock or the claim */
	s->lock_fd = -1;
}

bool session_refuse_rw_backup_sb(struct sink *out, const char *who,
				 const char *device, unsigned flags,
				 blk64_t superblock, unsigned blocksize)
{
	if (!(flags & SESSION_RW) || (flags & SESSION_CATASTROPHIC) ||
	    !superblock)
		return false;
	out_error(out, who, 0, "-w with -s (a backup superblock) is refused: "
		  "opened that way, libext2fs rewrites the primary superblock "
		  "and the group descriptors from the backup on close.  To "
		  "repair a filesystem from a backup superblock, run e2fsck "
		  "-b %llu -B %u %s; to look at it, drop -w",
		  (unsigned long long)superblock, blocksize ? blocksize : 1024,
		  device);
	return true;
}

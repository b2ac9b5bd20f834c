/* fs_source.c - what to open when the named file is not itself ext2/3/4:
 * a qcow2 dump, converted by the real e2image into an unlinked sparse
 * temporary file, or one partition of a disk, found through libblkid. */
#include "fs_source.h"
#include "e2l_err.h"
#include "fs_head.h"

#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs "e2image -r qcow raw"; its error output goes to s->out when it
 * fails.  0, or the error to report. */
static errcode_t run_e2image(struct session *s, const char *qcow,
			     const char *raw)
{
	char msg[2048];
	size_t len = 0;
	ssize_t n;
	int pfd[2], status;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return errno;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return errno;
	}
	if (pid == 0) {
		sigset_t none;
		int null = open("/dev/null", O_RDWR);

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		dup2(pfd[1], STDERR_FILENO);
		execlp("e2image", "e2image", "-r", qcow, raw, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], msg + len, sizeof(msg) - 1 - len)) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			len += n;
	close(pfd[0]);
	msg[len] = 0;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	out_error(s->out, "e2layout", 0, "e2image -r could not convert %s%s",
		  qcow, WIFEXITED(status) && WEXITSTATUS(status) == 127 ?
		  " (is e2image installed?)" : ":");
	if (len)
		out_errtext(s->out, "%s%s", msg,
			    msg[len - 1] == '\n' ? "" : "\n");
	return E2L_ERR_UNSAFE;
}

/*
 * The qcow2 case: a sparse raw copy made by e2image -r in $TMPDIR, opened
 * and unlinked before anything else can happen.  The signals that would end
 * the program are held meanwhile, so that an interrupt cannot leave the
 * copy behind; one that came is delivered after the unlink.
 */
static errcode_t from_qcow2(struct session *s, const char *device,
			    unsigned flags, char **open_as)
{
	const char *dir = getenv("TMPDIR");
	char path[PATH_MAX], name[64];
	sigset_t hold, old;
	errcode_t err;
	int fd;

	out_error(s->out, "e2layout", 0, "%s: this is a qcow2 image (e2image "
		  "-Q)%s", device, flags & SESSION_RW ? "" : "; converting it "
		  "with e2image -r into a sparse temporary file (removed on "
		  "exit), read-only");
	if (flags & SESSION_RW) {
		out_error(s->out, "e2layout", 0, "a qcow2 image opens "
			  "read-only: its blocks are a copy; to change the "
			  "filesystem, convert it (e2image -r %s RAW) and "
			  "open RAW -w", device);
		return E2L_ERR_UNSAFE;
	}
	if (!dir || !*dir)
		dir = "/tmp";
	if ((size_t)snprintf(path, sizeof(path), "%s/e2layout-qcow2.XXXXXX",
			     dir) >= sizeof(path))
		return ENAMETOOLONG;
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigprocmask(SIG_BLOCK, &hold, &old);
	fd = mkstemp(path);
	if (fd < 0) {
		err = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		out_error(s->out, "e2layout", err, "while making a temporary "
			  "file in %s", dir);
		return err;
	}
	close(fd);
	err = run_e2image(s, device, path);
	fd = err ? -1 : open(path, O_RDONLY | O_CLOEXEC);
	if (!err && fd < 0)
		err = errno;
	unlink(path);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (err)
		return err;
	snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	*open_as = strdup(name);
	if (asprintf(&s->source_name, "%s (qcow2, read through a temporary "
		     "raw copy)", device) < 0)
		s->source_name = NULL;
	if (!*open_as) {
		close(fd);
		return ENOMEM;
	}
	s->source_fd = fd;
	return 0;
}

struct part {
	int no;
	unsigned long long start, size;	/* bytes */
	char type[32], label[64];
};

/* The filesystem libblkid finds in [start, start+size) of fd. */
static void part_fs(int fd, struct part *p)
{
	const char *v;
	blkid_probe pr = blkid_new_probe();

	p->type[0] = p->label[0] = 0;
	if (!pr)
		return;
	if (!blkid_probe_set_device(pr, fd, p->start, p->size)) {
		blkid_probe_enable_superblocks(pr, 1);
		blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
						  BLKID_SUBLKS_LABEL);
		if (blkid_do_safeprobe(pr) == 0) {
			if (!blkid_probe_lookup_value(pr, "TYPE", &v, NULL))
				snprintf(p->type, sizeof(p->type), "%s", v);
			if (!blkid_probe_lookup_value(pr, "LABEL", &v, NULL))
				snprintf(p->label, sizeof(p->label), "%s", v);
		}
	}
	blkid_free_probe(pr);
}

static int is_ext(const struct part *p)
{
	return !strcmp(p->type, "ext2") || !strcmp(p->type, "ext3") ||
	       !strcmp(p->type, "ext4") || !strcmp(p->type, "ext4dev");
}

/* "a GPT", "an MBR" or "a TYPE partition table" */
static const char *table_words(const char *pttype, char *buf, size_t len)
{
	if (!strcmp(pttype, "gpt"))
		return "a GPT";
	if (!strcmp(pttype, "dos"))
		return "an MBR partition table";
	snprintf(buf, len, "a %s partition table", pttype);
	return buf;
}

static void human(char *buf, size_t len, unsigned long long bytes)
{
	static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB",
					   "TiB", "PiB"};
	unsigned u = 0;
	double v = (double)bytes;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

static void say_part(struct session *s, const struct part *p)
{
	char size[32];

	human(size, sizeof(size), p->size);
	out_errtext(s->out, "  partition %d: offset %llu bytes, %s, %s%s%s%s\n",
		    p->no, p->start, size, p->type[0] ? p->type :
		    "no filesystem recognised", p->label[0] ? " labelled '" :
		    "", p->label, p->label[0] ? "'" : "");
}

/* Reads the partitions libblkid finds on device into *parts; their number,
 * 0 for no partition table, -2 for a table without partitions, or -1 on a
 * failure to probe. */
static int read_parts(const char *device, char *pttype, size_t ptlen,
		      struct part **parts)
{
	blkid_probe pr;
	blkid_partlist ls;
	blkid_parttable tab;
	struct part *v = NULL;
	const char *t;
	int i, n = 0, fd;

	*parts = NULL;
	fd = open(device, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, 0)) {
		n = -1;
		goto out;
	}
	blkid_probe_enable_superblocks(pr, 0);
	blkid_probe_enable_partitions(pr, 1);
	ls = blkid_probe_get_partitions(pr);
	tab = ls ? blkid_partlist_get_table(ls) : NULL;
	if (!tab)
		goto out;
	t = blkid_parttable_get_type(tab);
	snprintf(pttype, ptlen, "%s", t ? t : "unknown");
	n = blkid_partlist_numof_partitions(ls);
	if (n <= 0) {
		n = n < 0 ? -1 : -2;	/* -2: a table without partitions */
		goto out;
	}
	v = calloc(n, sizeof(*v));
	if (!v) {
		n = -1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		blkid_partition par = blkid_partlist_get_partition(ls, i);

		v[i].no = blkid_partition_get_partno(par);
		v[i].start = (unsigned long long)
			     blkid_partition_get_start(par) * 512;
		v[i].size = (unsigned long long)
			    blkid_partition_get_size(par) * 512;
		part_fs(fd, &v[i]);
	}
	*parts = v;
out:
	if (pr)
		blkid_free_probe(pr);
	close(fd);
	return n;
}

/*
 * On a whole-disk block device, the kernel's node for partition no (found
 * in sysfs: the disk's subdirectory whose "partition" file says no), so
 * that the open sees the partition's mounts; a malloc'd "/dev/NAME", or
 * NULL (an image file, or no such node: IMG?offset= then).
 */
static char *part_node(const char *device, int no)
{
	char dir[128], path[PATH_MAX], buf[32];
	struct dirent *d;
	struct stat st;
	char *node = NULL;
	DIR *dp;
	FILE *f;

	if (stat(device, &st) || !S_ISBLK(st.st_mode))
		return NULL;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	dp = opendir(dir);
	if (!dp)
		return NULL;
	while (!node && (d = readdir(dp))) {
		if (d->d_name[0] == '.' ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s/partition",
				     dir, d->d_name) >= sizeof(path))
			continue;
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && atoi(buf) == no &&
		    (size_t)snprintf(path, sizeof(path), "/dev/%s",
				     d->d_name) < sizeof(path) &&
		    !stat(path, &st) && S_ISBLK(st.st_mode))
			node = strdup(path);
		fclose(f);
	}
	closedir(dp);
	return node;
}

static errcode_t from_parts(struct session *s, const char *device,
			    char **open_as)
{
	char pttype[32], buf[64];
	const char *words;
	struct part *parts, *pick = NULL;
	int n, i, next = 0;

	n = read_parts(device, pttype, sizeof(pttype), &parts);
	if (n == -2) {
		out_error(s->out, "e2layout", 0, "%s: this disk has %s with no "
			  "partitions", device, table_words(pttype, buf,
							    sizeof(buf)));
		return E2L_ERR_BAD_ARGUMENT;
	}
	if (n <= 0) {
		if (s->partition) {
			out_error(s->out, "e2layout", 0, "--partition %d: %s "
				  "has no partition table", s->partition,
				  device);
			return E2L_ERR_BAD_ARGUMENT;
		}
		return 0;	/* the open says what it is not */
	}
	words = table_words(pttype, buf, sizeof(buf));
	for (i = 0; i < n; i++) {
		if (s->partition && parts[i].no == s->partition)
			pick = &parts[i];
		if (is_ext(&parts[i]))
			next++;
	}
	if (!s->partition && next == 1)
		for (i = 0; i < n; i++)
			if (is_ext(&parts[i]))
				pick = &parts[i];
	if (!pick) {
		if (s->partition)
			out_error(s->out, "e2layout", 0, "--partition %d: %s "
				  "has %s with %d partition%s:", s->partition,
				  device, words, n, n == 1 ? "" : "s");
		else
			out_error(s->out, "e2layout", 0, "%s: this disk has "
				  "%s with %d partition%s%s:", device, words,
				  n, n == 1 ? "" : "s", next ? "" :
				  ", none of them ext2/3/4");
		for (i = 0; i < n; i++)
			say_part(s, &parts[i]);
		if (next)
			out_errtext(s->out, "Open one with --partition N (or "
				    "name it %s?offset=BYTES).\n", device);
		free(parts);
		return E2L_ERR_BAD_ARGUMENT;
	}
	out_error(s->out, "e2layout", 0, "%s: this disk has %s; opening "
		  "partition %d (%s, offset %llu bytes)", device, words,
		  pick->no, pick->type[0] ? pick->type : "no filesystem "
		  "recognised", pick->start);
	*open_as = part_node(device, pick->no);
	if (*open_as)
		out_error(s->out, "e2layout", 0, "(partition %d is %s)",
			  pick->no, *open_as);
	else if (asprintf(open_as, "%s?offset=%llu", device,
			  pick->start) < 0) {
		*open_as = NULL;
		free(parts);
		return ENOMEM;
	}
	s->source_part = pick->no;
	s->source_bytes = pick->size;
	if (asprintf(&s->source_name, "%s partition %d (%s, offset %llu)",
		     device, pick->no, strcmp(pttype, "gpt") ? pttype : "GPT",
		     pick->start) < 0)
		s->source_name = NULL;
	free(parts);
	return 0;
}

/* IMG?offset=N where a partition of IMG starts at byte N: that partition
 * bounds the filesystem, as when --partition chose it. */
static void offset_part(struct session *s, const char *device)
{
	const char *q = strchr(device, '?');
	unsigned long long off;
	struct part *parts;
	char pttype[32], *base, *end;
	int n, i;

	if (strncmp(q, "?offset=", 8) || q[8] < '0' || q[8] > '9')
		return;
	errno = 0;
	off = strtoull(q + 8, &end, 10);
	if (errno || *end)
		return;
	base = strndup(device, (size_t)(q - device));
	if (!base)
		return;
	n = read_parts(base, pttype, sizeof(pttype), &parts);
	free(base);
	for (i = 0; i < n; i++)
		if (parts[i].start == off) {
			s->source_part = parts[i].no;
			s->source_bytes = parts[i].size;
		}
	if (n > 0)
		free(parts);
}

errcode_t fs_source_resolve(struct session *s, const char *device,
			    const struct fs_head *head, unsigned flags,
			    char **open_as)
{
	int kind;

	*open_as = NULL;
	if (strchr(device, '?')) {	/* IMG?offset=N: the caller's choice */
		offset_part(s, device);
		return 0;
	}
	kind = fs_head_kind(head);
	if (kind == 1)
		return from_qcow2(s, device, flags, open_as);
	if (kind == 2 || kind < 0) {
		if (kind == 2 && s->partition) {
			out_error(s->out, "e2layout", 0, "--partition %d: %s "
				  "is a filesystem, not a partitioned disk",
				  s->partition, device);
			return E2L_ERR_BAD_ARGUMENT;
		}
		return 0;
	}
	return from_parts(s, device, open_as);
}

void fs_source_not_e2image(struct session *s, const char *device)
{
	struct fs_head head;
	int kind;

	fs_head_read(device, &head, 0);
	kind = fs_head_kind(&head);
	if (kind == 1 || kind == 2)
		out_error(s->out, "e2layout", 0, "%s: this is %s, not an "
			  "e2image file: open it without -i", device,
			  kind == 1 ? "a qcow2 image (e2image -Q)" :
			  "an ext2/3/4 filesystem image");
}

void fs_source_release(struct session *s)
{
	if (s->source_fd >= 0)
		close(s->source_fd);
	s->source_fd = -1;
	s->source_part = 0;
	s->source_bytes = 0;
	free(s->source_name);
	s->source_name = NULL;
}

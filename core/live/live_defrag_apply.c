/* live_defrag_apply.c - carries out a live defrag plan: EXT4_IOC_MOVE_EXT
 * swaps each file's blocks with its donor's a chunk at a time (the kernel
 * copies the data and keeps the file consistent under readers and
 * writers), with progress, an optional rate limit and a stop between two
 * chunks on SIGINT or SIGTERM; then each file is checked by FIEMAP against
 * its donor's blocks and by SHA-256 against its content before. */
#include "e2l_err.h"
#include "live_defrag.h"
#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* linux/ext4.h is not installed everywhere: the ioctl as fs/ext4 has it. */
struct ldf_move_extent {
	__u32 reserved;		/* must be zero */
	__u32 donor_fd;
	__u64 orig_start;	/* logical block in the file */
	__u64 donor_start;	/* logical block in the donor */
	__u64 len;		/* blocks */
	__u64 moved_len;	/* blocks moved (out) */
};
#define LDF_IOC_MOVE_EXT _IOWR('f', 15, struct ldf_move_extent)

/* EBUSY answers (pages being written) before a chunk is left in place. */
#define BUSY_TRIES 20

/* Set by the signal handler: the signal that asks the run to stop. */
static volatile sig_atomic_t ldf_stop;

static void on_signal(int sig)
{
	ldf_stop = sig;
}

/* Logical block ranges moved so far. */
struct moved {
	__u64 (*r)[2];
	size_t n, cap;
};

static int moved_add(struct moved *m, __u64 start, __u64 len)
{
	if (m->n && m->r[m->n - 1][1] == start) {
		m->r[m->n - 1][1] += len;
		return 0;
	}
	if (m->n == m->cap) {
		size_t c = m->cap ? m->cap * 2 : 16;
		__u64 (*nr)[2] = realloc(m->r, c * sizeof(*nr));

		if (!nr)
			return -1;
		m->r = nr;
		m->cap = c;
	}
	m->r[m->n][0] = start;
	m->r[m->n++][1] = start + len;
	return 0;
}

struct run_state {
	struct session *s;
	struct ldf_plan *p;
	__u64 done, total;		/* blocks, all files */
	struct timespec t0;
	size_t files_done;
};

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Waits as long as --rate asks (interrupted by a stop signal). */
static void throttle(struct run_state *rs)
{
	double want, have;
	struct timespec ts;

	if (!rs->p->rate)
		return;
	want = (double)rs->done * rs->p->blocksize / (double)rs->p->rate;
	have = since(&rs->t0);
	if (want <= have || ldf_stop)
		return;
	ts.tv_sec = (time_t)(want - have);
	ts.tv_nsec = (long)((want - have - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

/* SHA-256 of fd's first len bytes; 0 or an errno. */
static errcode_t hash_fd(int fd, off_t len, unsigned char out[32])
{
	enum { BUF = 1 << 20 };
	struct sha256 c;
	char *buf = malloc(BUF);
	off_t off = 0;
	ssize_t n;
	errcode_t err = 0;

	if (!buf)
		return ENOMEM;
	err = sha256_init(&c);
	if (err) {
		free(buf);
		return err;
	}
	while (off < len) {
		n = pread(fd, buf, len - off < BUF ? (size_t)(len - off) : BUF,
			  off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : EIO;
			break;
		}
		sha256_update(&c, buf, (size_t)n);
		off += n;
	}
	free(buf);
	if (sha256_final(&c, out) && !err)
		err = EIO;
	return err;
}

static int same_stat(const struct stat *a, const struct stat *b)
{
	return a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Bytes of [logical, logical+len) that now maps to [physical, ...). */
static __u64 matched(const struct live_extent *now, size_t n, __u64 logical,
		     __u64 physical, __u64 len)
{
	__u64 end = logical + len, sum = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		__u64 a = now[i].logical, b = a + now[i].length;

		a = a > logical ? a : logical;
		b = b < end ? b : end;
		if (a < b && now[i].physical + (a - now[i].logical) ==
			     physical + (a - logical))
			sum += b - a;
	}
	return sum;
}

/* Blocks of the moved ranges that do not map to the donor's blocks now;
 * the first of them in *bad. */
static __u64 check_map(const struct ldf_file *f, const struct live_extent *now,
		       size_t n, const struct moved *m, unsigned bs,
		       __u64 *bad)
{
	__u64 off = 0;
	size_t i, j;

	*bad = ~0ULL;
	for (i = 0; i < f->nafter; i++) {
		const struct live_extent *d = &f->after[i];

		for (j = 0; j < m->n; j++) {
			__u64 lo = m->r[j][0] * bs, hi = m->r[j][1] * bs;
			__u64 a = d->logical > lo ? d->logical : lo;
			__u64 b = d->logical + d->length < hi ?
				  d->logical + d->length : hi;
			__u64 got;

			if (a >= b)
				continue;
			got = matched(now, n, a, d->physical + (a - d->logical),
				      b - a);
			if (got < b - a) {
				off += (b - a - got + bs - 1) / bs;
				if (a / bs < *bad)
					*bad = a / bs;
			}
		}
	}
	return off;
}

static void progress(struct run_state *rs, struct ldf_file *f, int *last)
{
	int pct = f->total ? (int)(f->moved * 100 / f->total) : 100;

	if (rs->s->apply_progress)
		rs->s->apply_progress(rs->s->apply_progress_ctx, rs->done,
				      rs->total);
	if (pct / 10 == *last / 10 || sink_is_json(rs->s->out))
		return;
	*last = pct;
	out_printf(rs->s->out, "  moving %s: %llu/%llu blocks (%d%%)\n",
		   f->path, (unsigned long long)f->moved,
		   (unsigned long long)f->total, pct);
	fflush(stdout);	/* a progress line is worth nothing later (the
			   stdio sink's stdout may be a file or a pipe) */
}

/* Moves the file's data runs in chunks; 0, or an errno (why in result). */
static errcode_t move_runs(struct run_state *rs, struct ldf_file *f, int fd,
			   const struct live_extent *e, size_t n,
			   struct moved *m)
{
	unsigned bs = rs->p->blocksize;
	static const struct timespec busy_wait = {0, 10 * 1000 * 1000};
	size_t i = 0, j;
	int last = -10, tries;

	for (j = 0; j < n; j++)
		f->total += (e[j].length + bs - 1) / bs;
	while (i < n) {
		__u64 start = e[i].logical / bs;
		__u64 end = (e[i].logical + e[i].length + bs - 1) / bs;
		__u64 cur;

		for (j = i + 1; j < n && e[j].logical / bs <= end; j++)
			end = (e[j].logical + e[j].length + bs - 1) / bs;
		i = j;
		for (cur = start; cur < end;) {
			struct ldf_move_extent me;

			if (ldf_stop)
				return 0;
			memset(&me, 0, sizeof(me));
			me.donor_fd = (__u32)f->donor;
			me.orig_start = me.donor_start = cur;
			me.len = end - cur < rs->p->chunk ? end - cur :
				 rs->p->chunk;
			for (tries = 0; tries < BUSY_TRIES; tries++) {
				if (!ioctl(fd, LDF_IOC_MOVE_EXT, &me) ||
				    (errno != EBUSY && errno != EAGAIN &&
				     errno != EINTR))
					break;
				/* pages being written: let them reach the
				 * disk, then ask again */
				me.moved_len = 0;
				fdatasync(fd);
				nanosleep(&busy_wait, NULL);
			}
			if (tries == BUSY_TRIES) {
				/* written all the time: those blocks stay */
				f->busy += me.len;
				cur += me.len;
				errno = 0;
				continue;
			}
			if (me.moved_len == 0 && errno) {
				errcode_t err = errno;

				snprintf(f->result, sizeof(f->result),
					 "the kernel refused to move blocks "
					 "%llu-%llu (EXT4_IOC_MOVE_EXT: %s)",
					 (unsigned long long)cur,
					 (unsigned long long)(cur + me.len - 1),
					 strerror(err));
				return err ? err : EIO;
			}
			if (!me.moved_len)
				me.moved_len = me.len;	/* a hole */
			if (moved_add(m, cur, me.moved_len))
				return ENOMEM;
			cur += me.moved_len;
			f->moved += me.moved_len;
			rs->done += me.moved_len;
			progress(rs, f, &last);
			throttle(rs);
			errno = 0;
		}
	}
	return 0;
}

/* Moves one file and checks it.  0 when moved (whole or, stopped, in
 * part) and checked; nonzero when anything failed (result says what). */
static int move_file(struct run_state *rs, struct ldf_file *f)
{
	struct live_extent *cur = NULL, *now = NULL, *after = NULL;
	size_t ncur = 0, nnow = 0, nafter = 0, i;
	unsigned char h0[32], h1[32];
	char hex[65];
	struct stat st0, st1, st2;
	struct moved m = {0};
	int fd, hashed = 0, written, rc = 1;
	errcode_t err;
	__u64 bad, off;

	fd = open(f->path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st0)) {
		snprintf(f->result, sizeof(f->result), "cannot open it for "
			 "writing now (%s)", strerror(errno));
		goto out;
	}
	if (st0.st_ino != f->ino || st0.st_dev != f->dev) {
		snprintf(f->result, sizeof(f->result), "the path names another "
			 "file now (replaced since the plan): not moved");
		goto out;
	}
	hashed = !hash_fd(fd, st0.st_size, h0) && !fstat(fd, &st1) &&
		 same_stat(&st0, &st1);
	/* the file may have changed since the plan: the donor covers its
	 * data as it is now (fallocate keeps what the donor has) */
	err = live_fiemap_fd(fd, &cur, &ncur);
	if (!err) {
		for (i = 0; i < ncur && !err; i++)
			if (fallocate(f->donor, 0, (off_t)cur[i].logical,
				      (off_t)cur[i].length))
				err = errno;
	}
	if (!err)
		err = live_fiemap_fd(f->donor, &after, &nafter);
	if (err) {
		snprintf(f->result, sizeof(f->result), "while preparing the "
			 "donor: %s; not moved", strerror(err));
		goto out;
	}
	free(f->after);
	f->after = after;
	f->nafter = nafter;
	after = NULL;
	err = move_runs(rs, f, fd, cur, ncur, &m);
	if (err == ENOMEM)
		snprintf(f->result, sizeof(f->result), "out of memory");
	/* what moved is checked even when a stop or an error cut it short */
	if (live_fiemap_fd(fd, &now, &nnow)) {
		snprintf(f->result, sizeof(f->result), "FIEMAP failed after "
			 "the move");
		goto out;
	}
	if (fstat(fd, &st2))
		st2 = st0;
	written = !hashed || !same_stat(&st0, &st2);
	off = check_map(f, now, nnow, &m, rs->p->blocksize, &bad);
	if (off && !written) {
		snprintf(f->result, sizeof(f->result), "after the move, %llu "
			 "block%s (from logical block %llu) are not where the "
			 "donor's blocks were (FIEMAP), and nobody wrote the "
			 "file", (unsigned long long)off, off == 1 ? "" : "s",
			 (unsigned long long)bad);
		goto out;
	}
	if (err)
		goto out;
	f->verified = true;
	if (!written) {
		if (hash_fd(fd, st0.st_size, h1) || memcmp(h0, h1, 32)) {
			snprintf(f->result, sizeof(f->result), "its content "
				 "changed across the move (SHA-256), and "
				 "nobody wrote it");
			f->verified = false;
			goto out;
		}
		sha256_hex(h1, hex);
		snprintf(f->result, sizeof(f->result), "%zu extent%s now; "
			 "blocks checked by FIEMAP, content by SHA-256 %s "
			 "(the same before and after)", nnow,
			 nnow == 1 ? "" : "s", hex);
	} else {
		snprintf(f->result, sizeof(f->result), "%zu extent%s now; "
			 "blocks checked by FIEMAP; written during the move, "
			 "so the content was not compared", nnow,
			 nnow == 1 ? "" : "s");
	}
	if (off) {
		size_t l = strlen(f->result);

		snprintf(f->result + l, sizeof(f->result) - l, "; %llu "
			 "block%s the writer was at (from logical block %llu) "
			 "went where the kernel put them, not the donor's",
			 (unsigned long long)off, off == 1 ? "" : "s",
			 (unsigned long long)bad);
	}
	if (f->busy) {
		size_t l = strlen(f->result);

		snprintf(f->result + l, sizeof(f->result) - l, "; %llu "
			 "block%s being written all the time stayed where they "
			 "were", (unsigned long long)f->busy,
			 f->busy == 1 ? "" : "s");
	}
	f->done = !ldf_stop || f->moved + f->busy >= f->total;
	rc = 0;
out:
	free(cur);
	free(now);
	free(after);
	free(m.r);
	if (fd >= 0)
		close(fd);
	return rc;
}

int ldf_apply(struct session *s, struct ldf_plan *p)
{
	struct sigaction sa, old_int, old_term;
	struct run_state rs = {.s = s, .p = p};
	struct ldf_file *stopped_in = NULL;
	size_t i, failed = 0, moving = ldf_movable(p);
	int stop;

	/* Without SHA-256 no move could be checked (and each would look
	 * written during it): refuse before the first one. */
	if (moving && sha256_check()) {
		out_error(s->out, "defrag", E2L_ERR_UNSAFE, "SHA-256 is not "
			  "available (libcrypto, OpenSSL's library, cannot be "
			  "loaded or does not work): a live move checks each "
			  "file's content with it before and after; nothing "
			  "moved");
		for (i = 0; i < p->n; i++)
			if (p->f[i].donor >= 0) {
				close(p->f[i].donor);
				p->f[i].donor = -1;
			}
		return 1;
	}
	for (i = 0; i < p->n; i++)
		if (!p->f[i].dropped && !p->f[i].done)
			rs.total += p->f[i].data_blocks;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: a sleep ends */
	ldf_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	clock_gettime(CLOCK_MONOTONIC, &rs.t0);
	for (i = 0; i < p->n && !ldf_stop; i++) {
		struct ldf_file *f = &p->f[i];

		if (f->dropped || f->done)
			continue;
		if (move_file(&rs, f))
			failed++;
		if (ldf_stop && f->moved < f->total)
			stopped_in = f;
		if (f->donor >= 0)	/* the old blocks go back */
			close(f->donor);
		f->donor = -1;
		if (!sink_is_json(s->out) && f->result[0])
			out_printf(s->out, "%s %s: %s\n", f->verified ?
				   "Moved" : "FAILED", f->path, f->result);
		rs.files_done += f->done;
	}
	stop = ldf_stop;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	ldf_stop = 0;
	for (; i < p->n; i++)	/* not reached: donors released */
		if (p->f[i].donor >= 0) {
			close(p->f[i].donor);
			p->f[i].donor = -1;
		}
	if (sink_is_json(s->out)) {
		json_u64(s->out, "files_moved", rs.files_done);
		json_u64(s->out, "blocks_moved", rs.done);
		json_u64(s->out, "failed", failed);
		json_bool(s->out, "stopped", stop != 0);
		json_arr_begin(s->out, "results");
		for (i = 0; i < p->n; i++) {
			if (p->f[i].dropped)
				continue;
			json_obj_begin(s->out, NULL);
			json_str(s->out, "path", p->f[i].path);
			json_u64(s->out, "moved", p->f[i].moved);
			json_u64(s->out, "blocks", p->f[i].total);
			json_bool(s->out, "verified", p->f[i].verified);
			json_str(s->out, "result", p->f[i].result);
			json_obj_end(s->out);
		}
		json_arr_end(s->out);
	}
	if (stop) {
		out_printf(s->out, "Stopped by %s between two moves after %.1f "
			   "s: %zu of %zu files done, %llu of %llu blocks "
			   "moved", stop == SIGINT ? "Ctrl-C (SIGINT)" :
			   "SIGTERM", since(&rs.t0), rs.files_done, moving,
			   (unsigned long long)rs.done,
			   (unsigned long long)rs.total);
		if (stopped_in)
			out_printf(s->out, "; %s has %llu of its %llu blocks "
				   "in the new place", stopped_in->path,
				   (unsigned long long)stopped_in->moved,
				   (unsigned long long)stopped_in->total);
		out_printf(s->out, ".\nEvery file is whole: the kernel moves "
			   "a chunk at a time, atomically.  Run the defrag "
			   "again to finish.\n");
		return 1;
	}
	if (!sink_is_json(s->out))
		out_printf(s->out, "Live defrag done: %zu file%s moved (%llu "
			   "blocks) in %.1f s, %zu failed\n", rs.files_done,
			   rs.files_done == 1 ? "" : "s",
			   (unsigned long long)rs.done, since(&rs.t0), failed);
	return failed ? 1 : 0;
}

/* io_overlay.c - `I`: the block I/O of the device lit on the maps as it
 * happens, reads and writes apart, fading over IO_FADE_SECONDS.  In live
 * mode the mounted device's requests; while an experiment started here
 * runs, the requests of its current run's loop device (a copy of A or B:
 * the cells are where the same blocks lie in the image shown).  The
 * events come from core/live/io_trace.c into the heat model io_heat.c. */
#include "tui_int.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io_trace.h"
#include "live.h"

#define IO_POLL_SECONDS	0.1
#define IO_FADE_SECONDS	3.0
#define IO_POLL_BYTES	(1 << 20)

struct tui_io {
	struct io_trace it;
	struct io_heat heat;
	int tracing;		/* it is recording */
	int follow;		/* following an experiment's runs */
	char dev[128];		/* what is watched: "loop3" */
	double started, last_poll, last_drawn;
	char err[160];
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Starts watching kdev; 0 or an errno with why set. */
static errcode_t watch(struct tui *t, struct tui_io *io, __u64 kdev,
		       char *why, size_t len)
{
	errcode_t err;

	if (io->tracing) {
		io_trace_stop(&io->it);
		io->tracing = 0;
	}
	err = io_trace_start(&io->it, kdev, t->fs->blocksize, why, len);
	if (!err)
		io->tracing = 1;
	return err;
}

static void io_free(struct tui *t)
{
	struct tui_io *io = t->io;

	if (!io)
		return;
	if (io->tracing)
		io_trace_stop(&io->it);
	io_heat_free(&io->heat);
	free(io);
	t->io = NULL;
	tui_signals_release();
}

void tui_io_toggle(struct tui *t)
{
	struct tui_io *io;
	const char *dev;
	char why[512];
	errcode_t err;
	__u64 kdev;

	if (t->io) {
		unsigned long long r = t->io->heat.reads,
				   w = t->io->heat.writes;

		io_free(t);
		t->gen++;
		tui_message(t, 0, "block I/O overlay off: %llu read and %llu "
			    "write request(s) seen", r, w);
		return;
	}
	if (!t->s->live && !tui_exp_running(t)) {
		tui_message(t, 1, "no block I/O to watch: the filesystem is not "
			    "mounted (e2layout /mount/point) and no experiment "
			    "runs (:experiment ...)");
		return;
	}
	io = calloc(1, sizeof(*io));
	if (!io || io_heat_init(&io->heat, ext2fs_blocks_count(t->fs->super))) {
		free(io);
		tui_message(t, 1, "block I/O overlay: out of memory");
		return;
	}
	io->it.fd = -1;
	why[0] = 0;
	if (t->s->live) {
		err = watch(t, io, t->s->live->kdev, why, sizeof(why));
		if (err) {
			io_heat_free(&io->heat);
			free(io);
			tui_message(t, 1, "cannot watch block I/O: %s",
				    *why ? why : error_message(err));
			return;
		}
		snprintf(io->dev, sizeof(io->dev), "%.120s", t->s->live->source);
	} else {
		io->follow = 1;	/* each run's device, as it mounts */
		snprintf(io->dev, sizeof(io->dev), "the experiment's runs");
	}
	t->io = io;
	if (io->follow && tui_exp_device(t, &kdev, &dev))
		tui_io_follow(t, kdev, dev);
	tui_signals_catch();
	io->started = io->last_poll = now_s();
	t->gen++;
	tui_message(t, 0, "watching block I/O of %s (I stops): reads and "
		    "writes light their cells, fading over %.0f s", io->dev,
		    IO_FADE_SECONDS);
}

void tui_io_follow(struct tui *t, __u64 kdev, const char *devname)
{
	struct tui_io *io = t->io;
	char why[512];

	if (!io || (!io->follow && t->s->live))
		return;
	io->follow = 1;
	if (!kdev) {
		if (io->tracing)
			io_trace_stop(&io->it);
		io->tracing = 0;
		snprintf(io->dev, sizeof(io->dev), "no run (ended)");
		return;
	}
	why[0] = 0;
	if (watch(t, io, kdev, why, sizeof(why))) {
		snprintf(io->err, sizeof(io->err), "%s", why);
		tui_message(t, 1, "cannot watch the run's block I/O: %s", why);
		return;
	}
	snprintf(io->dev, sizeof(io->dev), "%s", devname ? devname : "?");
}

int tui_io_idle(struct tui *t)
{
	struct tui_io *io = t->io;
	unsigned long long before;
	double now;
	errcode_t err;

	if (!io)
		return 0;
	if (tui_signal_pending() && (!tui_exp_running(t) ||
				     tui_signal_pending() != SIGINT)) {
		t->quit = 1;	/* tui_io_quit removes the instance */
		return 0;
	}
	now = now_s();
	if (now - io->last_poll < IO_POLL_SECONDS)
		return 0;
	io->last_poll = now;
	if (!io->tracing)
		return 0;
	before = io->it.issued + io->it.completed;
	err = io_trace_poll(&io->it, &io->heat, now, IO_POLL_BYTES);
	if (err && !io->err[0]) {
		snprintf(io->err, sizeof(io->err), "%s", error_message(err));
		tui_message(t, 1, "reading the block I/O trace: %s", io->err);
		return 1;
	}
	if (io->it.issued + io->it.completed != before)
		return 1;
	/* redraw while something fades, and once after it has faded */
	if (io->heat.last && now - io->heat.last < IO_FADE_SECONDS + 0.5 &&
	    now - io->last_drawn >= 0.25) {
		io->last_drawn = now;
		return 1;
	}
	return 0;
}

int tui_io_on(const struct tui *t)
{
	return t->io != NULL;
}

int tui_io_cell(const struct tui *t, blk64_t first, blk64_t count,
		int *write)
{
	const struct tui_io *io = t->io;
	double rd, wr, hot;

	if (!io || !io->heat.last)
		return 0;
	io_heat_cell(&io->heat, first, count, now_s(), IO_FADE_SECONDS, &rd,
		     &wr);
	*write = wr >= rd;
	hot = wr >= rd ? wr : rd;
	if (hot <= 0)
		return 0;
	return hot > 2.0 / 3 ? 3 : hot > 1.0 / 3 ? 2 : 1;
}

int tui_io_status(const struct tui *t, char *buf, size_t len)
{
	const struct tui_io *io = t->io;

	if (!io)
		return 0;
	if (!io->heat.reads && !io->heat.writes) {
		snprintf(buf, len, "IO %s %.0f s: no request yet (I stops)",
			 io->dev, now_s() - io->started);
		return 1;
	}
	snprintf(buf, len, "IO %s R %llu W %llu  last: %s %llu-%llu",
		 io->dev, io->heat.reads, io->heat.writes,
		 io->heat.last_write ? "write" : "read",
		 (unsigned long long)io->heat.last_blk,
		 (unsigned long long)(io->heat.last_blk + io->heat.last_len -
				      1));
	return 1;
}

void tui_io_quit(struct tui *t)
{
	io_free(t);
}

/* exp.h - the experiment engine: what an experiment is (two sides, a
 * workload, N runs each), what one run measures (metrics and the kernel's
 * counters), and the engine's entry points.  See help/cmd/experiment.txt. */
#ifndef E2L_EXP_H
#define E2L_EXP_H

#include <ext2fs/ext2fs.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>

#include "owner.h"
#include "sink.h"

enum exp_wl_kind {
	EXP_WL_SMALLCREATE, EXP_WL_RANDWRITE, EXP_WL_PARALLEL,
	EXP_WL_CREATEREADDELETE, EXP_WL_FIO, EXP_WL_BONNIE, EXP_WL_DBENCH,
	EXP_WL_NONE
};

struct exp_workload {
	enum exp_wl_kind kind;
	unsigned dirs;		/* smallcreate: directories */
	unsigned files;		/* smallcreate: per directory;
				   createreaddelete: in all */
	__u64 size;		/* bytes per file; randwrite: the file;
				   parallel: per thread */
	unsigned ops;		/* randwrite: 4 KiB writes */
	unsigned threads;	/* parallel: writers */
	int overwrite;		/* randwrite: into written blocks */
	int overwrite_b;	/* randwrite: B alone into written blocks */
	const char *arg;	/* fio: job file; bonnie++: its arguments;
				   dbench: clients */
	unsigned seconds;	/* dbench: how long */
};

#define EXP_MAX_METRICS	24
#define EXP_NAME_LEN	40

struct exp_metric {
	char name[EXP_NAME_LEN];
	double value;
	int higher_better;	/* throughput: more is better */
};

/* Counts of one tracepoint by the values of one key (or a tuple). */
struct exp_count {
	char key[128];
	unsigned long count;
};

struct exp_tally {
	struct exp_count *e;	/* open hash, then sorted by count */
	size_t n, cap;
};

#define EXP_MAX_KEYS	3
#define EXP_MAX_EVENTS	6

/* One counted tracepoint: "ext4:ext4_mark_inode_dirty:ino,ip". */
struct exp_event_spec {
	char system[32], event[64];
	char keys[EXP_MAX_KEYS][32];
	unsigned nkeys;
};

struct exp_event_count {
	int hist;		/* counted by a histogram trigger */
	int bpf;		/* counted by a BPF program (neither:
				   from the ring buffer) */
	unsigned long total;
	struct exp_tally by_key[EXP_MAX_KEYS];	/* each key alone */
	struct exp_tally by_tuple;		/* all keys together */
};

/* What the kernel counted during one run. */
struct exp_counters {
	int have_jbd2;
	unsigned long long jbd2_commits;	/* /proc/fs/jbd2/DEV/info */
	unsigned long long jbd2_blocks;		/* logged (jbd2_run_stats) */
	unsigned long long jbd2_traced_commits;	/* jbd2_run_stats events */
	double jbd2_commit_us;			/* average commit time */
	int have_io;
	unsigned long long io_requests, io_bytes, io_reads, io_writes;
	unsigned long long io_flushes;		/* no data: flush/FUA only */
	unsigned long long io_sequential, io_seeks;
	double io_mean_seek;			/* sectors, over the seeks */
	unsigned long long io_by_owner[OWN_CLASS_MAX];	/* requests */
	unsigned long long io_bytes_by_owner[OWN_CLASS_MAX];
	unsigned long long journal_writes, journal_breaks;
	unsigned long long lost;		/* events the buffer dropped */
	struct exp_event_count ev[EXP_MAX_EVENTS];
	char why_not[256];			/* why a counter is missing */
};

struct exp_run {
	unsigned index;		/* 1.. within its side */
	double seconds;
	struct exp_metric m[EXP_MAX_METRICS];
	size_t nm;
	struct exp_counters c;
};

struct exp_side {
	char name[2];		/* "A", "B" */
	char image[PATH_MAX];
	const char *mount_opts;
	struct exp_run *runs;
	size_t nruns;
	struct owner_run *map;	/* the image's owners before the run */
	size_t nmap;
	unsigned blocksize;
};

struct exp_config {
	struct exp_side side[2];
	struct exp_workload wl;
	unsigned runs;
	unsigned warmup;	/* uncounted runs of A first (default 1) */
	int counters;		/* 0: --no-counters */
	int no_check;		/* --no-check: no e2fsck -fn of the images */
	int keep_order;		/* 0: A B B A ...; 1: --no-interleave */
	double detect_pct;	/* the smaller effect asked about */
	const char *change;	/* --change REQUEST: B made from A */
	const char *keep_b;	/* --keep-b PATH: keep that B (and its undo
				   file, PATH.e2undo) */
	const char *workdir;	/* where copies and mounts live */
	const char *hook;	/* --hook CMD, before and after each run */
	const char *self;	/* this program, for --change */
	struct exp_event_spec events[EXP_MAX_EVENTS];
	unsigned nevents;
	struct sink *out;	/* result and errors */
	int progress;		/* progress lines on the error channel */
};

/* Set by the engine's signal handlers: stop at the next check, clean up. */
extern volatile sig_atomic_t exp_interrupted;

/*
 * Runs the experiment: the runs of both sides, then the report on c->out.
 * Everything it creates (copies, mount points, mounts, loop devices, the
 * tracing instance) is removed before it returns, also after SIGINT/SIGTERM
 * (then E2L_ERR_... EINTR).  Errors are reported on c->out.
 */
errcode_t exp_run(struct exp_config *c);

void exp_config_free(struct exp_config *c);

/* "smallcreate" -> EXP_WL_SMALLCREATE; EXP_WL_NONE when unknown. */
enum exp_wl_kind exp_workload_kind(const char *name);
const char *exp_workload_name(enum exp_wl_kind k);
void exp_workload_defaults(struct exp_workload *w, enum exp_wl_kind k);

/* Parses "system:event[:key,key]" into s; -1 when malformed. */
int exp_event_parse(const char *text, struct exp_event_spec *s);

#endif

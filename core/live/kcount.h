/* kcount.h - exact in-kernel counts of one tracepoint by key: a small BPF
 * program attached to the event adds each hit to a hash map keyed by up to
 * two of the event's fields (the kernel counts; nothing goes through the
 * ring buffer, so nothing can be lost to a full buffer). */
#ifndef E2L_KCOUNT_H
#define E2L_KCOUNT_H

#include <ext2fs/ext2fs.h>
#include <stddef.h>

/* One counted key: key[] are the fields named at open (0 when unused),
 * hits the events, sum the total of the summed field (0 without one). */
struct kcount_row {
	__u64 key[2];
	__u64 hits, sum;
};

struct kcount {
	int map_fd, drop_fd, prog_fd, perf_fd;
};

/*
 * Whether this kernel lets us count in the kernel (BPF tracepoint programs,
 * root).  0, or an errno with why holding a sentence.
 */
errcode_t kcount_available(char *why, size_t len);

/*
 * Starts counting event (e.g. "ext4/ext4_mark_inode_dirty", under tracefs
 * root's events/) for hits whose dev field equals dev: keyed by the fields
 * keys[0..nkeys-1] (nkeys 0..2, each a field of at most 8 bytes), summing
 * field sum (NULL for none).  At most max_keys distinct keys are held; the
 * hits beyond are counted as dropped (kcount_read).  On failure why gets a
 * sentence and kc holds nothing.
 */
errcode_t kcount_open(struct kcount *kc, const char *root, const char *event,
		      __u64 dev, const char *const *keys, int nkeys,
		      const char *sum, unsigned max_keys, char *why,
		      size_t len);

/*
 * Reads every key counted so far into *rowsp (malloc'd, *np rows, in no
 * order) and the hits that found the map full into *dropped.  Counting
 * goes on until kcount_close.
 */
errcode_t kcount_read(struct kcount *kc, struct kcount_row **rowsp,
		      size_t *np, __u64 *dropped);

/* Detaches the program and frees everything (kc may be unopened, zeroed
 * by kcount_init). */
void kcount_close(struct kcount *kc);
void kcount_init(struct kcount *kc);

#endif

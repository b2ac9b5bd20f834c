/* trace_parse.c - decoding the allocator's event stream (trace text, one
 * event a line) into a recording, and counting from the stream when the
 * kernel's counters are missing. */
#include "trace_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t dirty_hash(__u64 ino, __u64 ip, size_t mask)
{
	return (size_t)(((ino * 0x9E3779B97F4A7C15ULL) ^ ip) & mask);
}

/* The slot of (ino, ip) in the stream's table; caller (may be NULL) is
 * the name the stream printed, kept with a new slot. */
static struct trace_dirty *dirty_slot(struct trace_rec *r, __u64 ino,
				      __u64 ip, const char *caller)
{
	size_t i, mask;

	if ((r->ndirty + 1) * 2 > r->dcap) {
		size_t ncap = r->dcap ? r->dcap * 2 : 256, j;
		struct trace_dirty *nd = calloc(ncap, sizeof(*nd));

		if (!nd)
			return NULL;
		for (j = 0; j < r->dcap; j++) {
			if (!r->dirty[j].count)
				continue;
			i = dirty_hash(r->dirty[j].ino, r->dirty[j].ip,
				       ncap - 1);
			while (nd[i].count)
				i = (i + 1) & (ncap - 1);
			nd[i] = r->dirty[j];
		}
		free(r->dirty);
		r->dirty = nd;
		r->dcap = ncap;
	}
	mask = r->dcap - 1;
	i = dirty_hash(ino, ip, mask);
	while (r->dirty[i].count &&
	       (r->dirty[i].ino != ino || r->dirty[i].ip != ip))
		i = (i + 1) & mask;
	if (!r->dirty[i].count) {
		r->dirty[i].ino = ino;
		r->dirty[i].ip = ip;
		snprintf(r->dirty[i].caller, sizeof(r->dirty[i].caller), "%s",
			 caller ? caller : "");
		r->ndirty++;
	}
	return &r->dirty[i];
}

void trace_parse_line(struct trace_rec *r, const char *line,
		       struct trace_pending *pend, size_t *npend)
{
	const char *ev = strstr(line, ": ext4_"), *p;
	unsigned long long ino, block, goal;
	unsigned len, lblk, scanned;
	char cr[32];
	size_t i;

	if (!ev)
		return;
	ev += 2;
	p = strchr(ev, ':');
	if (!p)
		return;
	p += 2;
	if (!strncmp(ev, "ext4_mark_inode_dirty:", 22)) {
		struct trace_dirty *d;
		const char *c = strstr(p, " caller ");
		char name[TRACE_CALLER_LEN] = "";
		__u64 h = 0;

		if (sscanf(p, "dev %*d,%*d ino %llu", &ino) != 1)
			return;
		/* "caller ext4_dirty_inode+0x57/0x90": the function's name,
		 * keyed by its hash (the stream prints no address) */
		if (c && sscanf(c, " caller %47[^+ \n]", name) == 1)
			for (i = 0, h = 1469598103934665603ULL; name[i]; i++)
				h = (h ^ (unsigned char)name[i]) *
				    1099511628211ULL;
		r->dirty_events++;
		d = dirty_slot(r, ino, h, name[0] ? name : NULL);
		if (d)
			d->count++;
	} else if (!strncmp(ev, "ext4_request_blocks:", 20)) {
		r->requests++;
	} else if (!strncmp(ev, "ext4_mballoc_alloc:", 19) ||
		   !strncmp(ev, "ext4_mballoc_prealloc:", 22)) {
		int pre = ev[13] == 'p';
		const char *q;

		if (sscanf(p, "dev %*d,%*d inode %llu", &ino) != 1)
			return;
		pre ? r->prealloc++ : r->mballoc++;
		scanned = 0;
		cr[0] = 0;
		q = strstr(p, " grps ");
		if (q)
			sscanf(q, " grps %u cr %31s", &scanned, cr);
		for (i = 0; i < *npend && pend[i].ino != ino; i++)
			;
		if (i == *npend) {
			if (*npend == TRACE_PENDING)
				i = 0;	/* forget the oldest slot */
			else
				(*npend)++;
		}
		pend[i].ino = ino;
		pend[i].prealloc = pre;
		pend[i].scanned = scanned;
		snprintf(pend[i].cr, sizeof(pend[i].cr), "%s",
			 strncmp(cr, "CR_", 3) ? cr : cr + 3);
	} else if (!strncmp(ev, "ext4_allocate_blocks:", 21)) {
		struct trace_alloc *a;
		const char *q = strstr(p, " len ");

		const char *fl = strstr(p, " flags ");

		if (sscanf(p, "dev %*d,%*d ino %llu", &ino) != 1 || !q ||
		    sscanf(q, " len %u block %llu lblk %u goal %llu", &len,
			   &block, &lblk, &goal) != 4)
			return;
		if (r->nallocs == r->acap) {
			size_t ncap = r->acap ? r->acap * 2 : 64;
			struct trace_alloc *na = realloc(r->allocs,
						ncap * sizeof(*na));
			if (!na)
				return;
			r->allocs = na;
			r->acap = ncap;
		}
		a = &r->allocs[r->nallocs++];
		memset(a, 0, sizeof(*a));
		a->ino = ino;
		a->len = len;
		a->block = block;
		a->lblk = lblk;
		a->goal = goal;
		if (fl && fl < q) {
			const char *hd = strstr(fl, "HINT_DATA");

			a->data = hd && hd < q;
		}
		for (i = 0; i < *npend; i++) {
			if (pend[i].ino != ino)
				continue;
			a->mb = 1;
			a->prealloc = pend[i].prealloc;
			a->scanned = pend[i].scanned;
			memcpy(a->cr, pend[i].cr, sizeof(a->cr));
			pend[i] = pend[--(*npend)];
			break;
		}
	}
}

static int by_count(const void *x, const void *y)
{
	const struct trace_dirty *a = x, *b = y;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return a->ino < b->ino ? -1 : a->ino > b->ino;
}

static int by_ino(const void *x, const void *y)
{
	const struct trace_inode *a = x, *b = y;

	return a->ino < b->ino ? -1 : a->ino > b->ino;
}

static int by_allocs_desc(const void *x, const void *y)
{
	const struct trace_inode *a = x, *b = y;

	if (a->allocs != b->allocs)
		return a->allocs < b->allocs ? 1 : -1;
	return by_ino(x, y);
}

/* Without kernel counters: the totals and the allocations by inode from
 * the allocations the stream holds. */
void trace_inodes_from_stream(struct trace_rec *r)
{
	size_t i, j;

	r->alloc_events = r->nallocs;
	r->alloc_blocks = 0;
	r->inodes = calloc(r->nallocs ? r->nallocs : 1, sizeof(*r->inodes));
	for (i = 0; i < r->nallocs; i++) {
		r->alloc_blocks += r->allocs[i].len;
		if (r->inodes)
			r->inodes[i] = (struct trace_inode){r->allocs[i].ino,
							     1,
							     r->allocs[i].len};
	}
	if (!r->inodes || !r->nallocs)
		return;
	qsort(r->inodes, r->nallocs, sizeof(*r->inodes), by_ino);
	for (i = j = 0; i < r->nallocs; i++) {
		if (j && r->inodes[j - 1].ino == r->inodes[i].ino) {
			r->inodes[j - 1].allocs++;
			r->inodes[j - 1].blocks += r->inodes[i].blocks;
		} else {
			r->inodes[j++] = r->inodes[i];
		}
	}
	r->ninodes = j;
	qsort(r->inodes, j, sizeof(*r->inodes), by_allocs_desc);
}

void trace_dirty_sort(struct trace_rec *r)
{
	size_t i, j;

	for (i = j = 0; i < r->dcap; i++)
		if (r->dirty[i].count)
			r->dirty[j++] = r->dirty[i];
	if (j)
		qsort(r->dirty, j, sizeof(*r->dirty), by_count);
	r->ndirty = j;
}

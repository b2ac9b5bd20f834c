/* plan_file.c - plans on disk: a line-oriented text file (header, kind,
 * fingerprint, old and new mappings, steps) that `apply FILE` reads back,
 * plus the sanity check a loaded plan must pass before it is applied. */
#include "plan_repack_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_MAGIC "e2layout-plan 1"

static void save_one(FILE *f, const struct plan *p)
{
	size_t i;

	fprintf(f, "kind %s\nino %u\nextents %d\ntarget %llu %llu\n"
		"new_meta %llu\nnew_size %llu\nchained %d\n", p->kind,
		p->ino, p->extents,
		(unsigned long long)p->target,
		(unsigned long long)p->target_len,
		(unsigned long long)p->new_meta,
		(unsigned long long)p->new_size_blocks, p->chained);
	fprintf(f, "fp %u %u %u %u %u %llu %llu %u %s\n", p->fp.wtime,
		p->fp.mtime, p->fp.mnt_count, p->fp.generation, p->fp.ctime,
		(unsigned long long)p->fp.free_blocks,
		(unsigned long long)p->fp.free_inodes, p->fp.map_hash,
		p->fp.uuid);
	if (p->set_size)
		fprintf(f, "set_size %llu\n", (unsigned long long)p->set_size);
	if (p->create_name[0])
		fprintf(f, "create %s\n", p->create_name);
	if (p->dir_blocks[0])
		fprintf(f, "dir_blocks %llu %llu\n",
			(unsigned long long)p->dir_blocks[0],
			(unsigned long long)p->dir_blocks[1]);
	if (p->repack)
		plan_repack_save(f, p);
	for (i = 0; i < p->nold; i++)
		fprintf(f, "old %llu %llu %llu %d\n",
			(unsigned long long)p->old[i].lblk,
			(unsigned long long)p->old[i].pblk,
			(unsigned long long)p->old[i].len, p->old[i].uninit);
	for (i = 0; i < p->nold_meta; i++)
		fprintf(f, "oldmeta %llu\n", (unsigned long long)p->old_meta[i]);
	for (i = 0; i < p->nnew; i++)
		fprintf(f, "new %llu %llu %llu %d\n",
			(unsigned long long)p->new[i].lblk,
			(unsigned long long)p->new[i].pblk,
			(unsigned long long)p->new[i].len, p->new[i].uninit);
	for (i = 0; i < p->nsteps; i++)
		fprintf(f, "step %s %llu %llu %llu\n",
			plan_step_name(p->steps[i].kind),
			(unsigned long long)p->steps[i].src,
			(unsigned long long)p->steps[i].dst,
			(unsigned long long)p->steps[i].len);
}

errcode_t plan_save(const struct plan *p, const char *path)
{
	FILE *f;

	f = fopen(path, "w");
	if (!f)
		return errno;
	fprintf(f, "%s\n", PLAN_MAGIC);
	for (; p; p = p->next) {
		save_one(f, p);
		fprintf(f, "%s\n", p->next ? "next" : "end");
	}
	if (fclose(f))
		return errno;
	return 0;
}

static int grow(void **arr, size_t n, size_t size)
{
	void *a;

	if (n & (n - 1))	/* grow at powers of two */
		return 0;
	a = realloc(*arr, (n ? n * 2 : 1) * size);
	if (!a)
		return -1;
	*arr = a;
	return 0;
}

static int parse_line(struct plan *p, const char *line)
{
	unsigned long long a, b, c;
	char word[32];
	int u, k;

	k = plan_repack_parse(p, line);
	if (k)
		return k < 0 ? -1 : 0;
	if (sscanf(line, "kind %31s", p->kind) == 1)
		return 0;
	if (sscanf(line, "ino %u", &p->ino) == 1)
		return 0;
	if (sscanf(line, "extents %d", &p->extents) == 1)
		return 0;
	if (sscanf(line, "target %llu %llu", &a, &b) == 2) {
		p->target = a;
		p->target_len = b;
		return 0;
	}
	if (sscanf(line, "chained %d", &p->chained) == 1)
		return 0;
	if (sscanf(line, "set_size %llu", &a) == 1) {
		p->set_size = a;
		return 0;
	}
	if (!strncmp(line, "create ", 7) && line[7] &&
	    strlen(line + 7) < sizeof(p->create_name) &&
	    !strchr(line + 7, '/')) {
		strcpy(p->create_name, line + 7);
		return 0;
	}
	if (sscanf(line, "dir_blocks %llu %llu", &a, &b) == 2) {
		p->dir_blocks[0] = a;
		p->dir_blocks[1] = b;
		return 0;
	}
	if (sscanf(line, "new_size %llu", &a) == 1) {
		p->new_size_blocks = a;
		return 0;
	}
	if (sscanf(line, "new_meta %llu", &a) == 1) {
		p->new_meta = a;
		return 0;
	}
	if (sscanf(line, "fp %u %u %u %u %u %llu %llu %u %36s", &p->fp.wtime,
		   &p->fp.mtime, &p->fp.mnt_count, &p->fp.generation,
		   &p->fp.ctime, &a, &b, &p->fp.map_hash, p->fp.uuid) == 9) {
		p->fp.free_blocks = a;
		p->fp.free_inodes = b;
		return 0;
	}
	if (sscanf(line, "old %llu %llu %llu %d", &a, &b, &c, &u) == 4) {
		if (grow((void **)&p->old, p->nold, sizeof(*p->old)))
			return -1;
		p->old[p->nold++] = (struct plan_ext){a, b, c, u};
		return 0;
	}
	if (sscanf(line, "oldmeta %llu", &a) == 1) {
		if (grow((void **)&p->old_meta, p->nold_meta, sizeof(blk64_t)))
			return -1;
		p->old_meta[p->nold_meta++] = a;
		return 0;
	}
	if (sscanf(line, "new %llu %llu %llu %d", &a, &b, &c, &u) == 4) {
		if (grow((void **)&p->new, p->nnew, sizeof(*p->new)))
			return -1;
		p->new[p->nnew++] = (struct plan_ext){a, b, c, u};
		return 0;
	}
	if (sscanf(line, "step %31s %llu %llu %llu", word, &a, &b, &c) == 4) {
		for (k = 0; k < STEP_KIND_MAX; k++)
			if (!strcmp(word, plan_step_name(k)))
				break;
		if (k == STEP_KIND_MAX ||
		    grow((void **)&p->steps, p->nsteps, sizeof(*p->steps)))
			return -1;
		p->steps[p->nsteps++] = (struct plan_step){k, a, b, c};
		return 0;
	}
	return -1;
}

errcode_t plan_load(const char *path, struct plan **pp, char *why,
		    size_t whylen)
{
	struct plan *p, *first, *bad = NULL;
	char line[512];
	FILE *f;
	int lineno = 0, ended = 0;

	*pp = NULL;
	f = fopen(path, "r");
	if (!f) {
		snprintf(why, whylen, "%s", strerror(errno));
		return errno;
	}
	first = p = calloc(1, sizeof(*p));
	if (!p) {
		fclose(f);
		return ENOMEM;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (lineno == 1) {
			if (strcmp(line, PLAN_MAGIC))
				break;
			continue;
		}
		if (!strcmp(line, "end")) {
			ended = 1;
			break;
		}
		if (!strcmp(line, "next")) {
			p->next = calloc(1, sizeof(*p));
			if (!p->next)
				break;
			p = p->next;
			continue;
		}
		if (parse_line(p, line))
			break;
	}
	fclose(f);
	for (p = first; p; p = p->next)
		if (p->repack ? !p->repack->nitems || !p->fp.uuid[0] ||
		    (p->repack->n ? p->next || p != first ||
		     strcmp(p->kind, "repack_flex") :
		     p != first || strcmp(p->kind, "resize_block")) :
		    !p->ino || !p->nsteps || !p->nnew || !p->fp.uuid[0])
			bad = p;
	if (!ended || bad) {
		snprintf(why, whylen, "not an e2layout plan, or damaged near "
			 "line %d", lineno);
		plan_free(first);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	p = first;
	*pp = p;
	return 0;
}

/* Whether run r lies within one of p's old runs, at the same offsets. */
static int in_old(const struct plan *p, const struct plan_ext *r)
{
	size_t i;

	for (i = 0; i < p->nold; i++)
		if (r->pblk >= p->old[i].pblk &&
		    r->pblk + r->len <= p->old[i].pblk + p->old[i].len &&
		    r->lblk - p->old[i].lblk == r->pblk - p->old[i].pblk)
			return 1;
	return 0;
}

int plan_check_sane(struct session *s, const struct plan *p)
{
	blk64_t end = ext2fs_blocks_count(s->fs->super);
	blk64_t ratio = EXT2FS_CLUSTER_RATIO(s->fs);
	size_t i;

	if (p->repack)
		return plan_repack_sane(s, p);

	if (!p->target_len || p->target < s->fs->super->s_first_data_block ||
	    p->target + p->target_len > end || p->target_len < p->new_meta)
		goto bad;
	for (i = 0; i < p->nnew; i++) {
		if (p->new[i].pblk < p->target || p->new[i].pblk +
		    p->new[i].len > p->target + p->target_len) {
			if (!in_old(p, &p->new[i]))
				goto bad;
			continue;	/* prealloc keeps the old extents */
		}
	}
	if (p->target % ratio || (plan_clusters(s->fs, p->new, p->nnew,
			p->target, p->target + p->target_len) + p->new_meta) *
	    ratio != p->target_len)
		goto bad;
	for (i = 0; i < p->nsteps; i++)
		if (p->steps[i].kind == STEP_COPY &&
		    (p->steps[i].dst < p->target ||
		     p->steps[i].dst + p->steps[i].len >
		     p->target + p->target_len))
			goto bad;
	if (plan_used_in(s->fs, p->target, p->target + p->target_len - 1)) {
		out_error(s->out, "apply", 0, "the plan's new run %llu-%llu "
			  "is no longer free; make the plan again",
			  (unsigned long long)p->target,
			  (unsigned long long)(p->target + p->target_len - 1));
		return 1;
	}
	return 0;
bad:
	out_error(s->out, "apply", 0, "the plan is inconsistent (its new "
		  "mapping does not fit its target run); refusing it");
	return 1;
}

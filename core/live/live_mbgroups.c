/* live_mbgroups.c - the kernel allocator's per-group table,
 * /proc/fs/ext4/NAME/mb_groups: free clusters, free fragments, first free
 * and the buddy histogram of each group as mballoc sees it now. */
#include "live.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses "#12   : 52    4     1674  [ 4     2 ... ]"; 0 when it is one. */
static int parse_line(const char *line, struct live_mbgroup *g)
{
	const char *p;
	char *end;
	int n = 0;

	memset(g, 0, sizeof(*g));
	if (sscanf(line, "#%u : %u %u %u", &g->group, &g->free, &g->frags,
		   &g->first) != 4)
		return -1;
	p = strchr(line, '[');
	if (!p)
		return 0;
	p++;
	while (n < LIVE_MB_ORDERS) {
		unsigned long v = strtoul(p, &end, 10);

		if (end == p)
			break;
		g->order[n++] = (__u32)v;
		p = end;
	}
	g->norders = n;
	return 0;
}

errcode_t live_mbgroups_read(const struct live_info *l,
			     struct live_mbgroup **gp, dgrp_t *np)
{
	char path[PATH_MAX];
	struct live_mbgroup *g = NULL, *ng, one;
	size_t n = 0, cap = 0, lcap = 0;
	char *line = NULL;
	errcode_t err = 0;
	FILE *f;

	*gp = NULL;
	*np = 0;
	snprintf(path, sizeof(path), "/proc/fs/ext4/%s/mb_groups",
		 l->sysname);
	f = fopen(path, "r");
	if (!f)
		return errno;
	while (getline(&line, &lcap, f) > 0) {
		if (parse_line(line, &one))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			ng = realloc(g, cap * sizeof(*g));
			if (!ng) {
				err = ENOMEM;
				break;
			}
			g = ng;
		}
		g[n++] = one;
	}
	if (!err && ferror(f))
		err = EIO;
	free(line);
	fclose(f);
	if (err) {
		free(g);
		return err;
	}
	*gp = g;
	*np = (dgrp_t)n;
	return 0;
}

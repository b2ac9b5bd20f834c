/* io_layer.c - stacking e2layout's io managers on a channel (io_layer.h). */
#include "io_layer.h"

/* Marks a manager as one of ours (compared by address). */
static const char io_layer_name[] = "e2layout io layer";

void io_layer_push(io_channel ch, struct io_layer *l)
{
	l->below = ch->manager;
	l->mgr = *ch->manager;
	l->mgr.name = io_layer_name;
	ch->manager = &l->mgr;
}

void io_layer_pop(io_channel ch, struct io_layer *l)
{
	if (ch && l->below && ch->manager == &l->mgr)
		ch->manager = l->below;
}

struct io_layer *io_layer_find(io_channel ch,
			       errcode_t (*fn)(io_channel, unsigned long long,
					       int, const void *))
{
	io_manager m = ch ? ch->manager : NULL;
	struct io_layer *l;

	while (m && m->name == io_layer_name) {
		l = (struct io_layer *)m;	/* mgr is its first member */
		if (m->write_blk64 == fn)
			return l;
		m = l->below;
	}
	return NULL;
}

/* io_layer.h - the libext2fs io managers an apply stacks on the filesystem's
 * channel (the write counter of plan_apply.c, the journal capture of
 * plan_journal.c): each is a copy of the manager below it, the first member
 * of its owner's state, so a wrapper finds its state from the channel. */
#ifndef E2L_IO_LAYER_H
#define E2L_IO_LAYER_H

#include <ext2fs/ext2fs.h>

struct io_layer {
	struct struct_io_manager mgr;	/* installed: below's copy, wrapped */
	io_manager below;		/* the manager it wraps */
};

/*
 * Installs l on ch: l->mgr becomes a copy of ch's manager (the caller then
 * replaces the functions it wraps) and ch's manager.  The caller keeps l
 * alive until io_layer_pop.
 */
void io_layer_push(io_channel ch, struct io_layer *l);
/* Puts back what l wrapped, when l is ch's top layer. */
void io_layer_pop(io_channel ch, struct io_layer *l);
/*
 * The layer on ch's stack whose write_blk64 is fn (walking down through
 * e2layout's layers only), or NULL.
 */
struct io_layer *io_layer_find(io_channel ch,
			       errcode_t (*fn)(io_channel, unsigned long long,
					       int, const void *));

#endif

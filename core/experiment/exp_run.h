/* exp_run.h - what the engine's files share inside core/experiment/: the
 * owner map of an image, the report, the --change preparation. */
#ifndef E2L_EXP_RUN_H
#define E2L_EXP_RUN_H

#include "exp.h"
#include "session.h"

/* The used blocks of image by owner class, merged runs in block order (the
 * caller frees *map); the image is opened read-only and closed. */
errcode_t exp_owner_map(const char *image, struct owner_run **map,
			size_t *n, unsigned *blocksize, char *why, size_t len);

/* Refuses (E2L_ERR_NOT_CLEAN, the reason in why) an image that needs
 * journal recovery, is marked with errors or not clean, or (fsck set)
 * that e2fsck -fn reports problems in; name is "A" or "B". */
errcode_t exp_check_image(const char *name, const char *image, int fsck,
			  char *why, size_t len);

/* The class of blk in map (OWN_FREE when no run holds it). */
enum owner_class exp_owner_of(const struct owner_run *map, size_t n,
			      blk64_t blk);

/* Opens image read-only in s with its messages going to msgs through
 * quiet (sink_free(quiet) and strbuf_free(msgs) afterwards either way);
 * on failure why says "cannot open IMAGE: " and what the open said, on
 * one line, and s needs no closing. */
errcode_t exp_open_quiet(struct session *s, struct sink *quiet,
			 struct strbuf *msgs, const char *image, char *why,
			 size_t len);

/* A sink callback that appends everything to a struct strbuf. */
void exp_sink_to_strbuf(void *ctx, enum sink_chan chan, const char *buf,
			size_t len);

/*
 * Makes side B from A for --change: copies A to dst, applies the request
 * line change and then `apply --undo UNDO` in a read-write session (the
 * normal plan path: checks, jbd2 transaction, undo file, verification).
 * What the requests printed lands in log.
 */
errcode_t exp_make_change(const char *a, const char *dst, const char *undo,
			  const char *change, struct strbuf *log, char *why,
			  size_t len);

/* The table, the plots, the verdicts (text) or the document (JSON). */
void exp_report(struct exp_config *c);

#endif

/* xattr_dump.h - raw dumps shared by bd/id: debugfs's hex layout and its
 * decoding of an xattr block or in-inode xattr area, entry by entry. */
#ifndef E2L_XATTR_DUMP_H
#define E2L_XATTR_DUMP_H

#include <stddef.h>
#include "sink.h"

/* Hex rows of len bytes (of which avail are really in buf; beyond: 0). */
void xattr_hexdump(struct sink *o, const unsigned char *buf, size_t len,
		   size_t avail);
/* An xattr block (header, then entries). */
void xattr_dump_block(struct sink *o, const unsigned char *buf,
		      unsigned len);
/* The in-inode area after i_extra_isize (magic, then entries). */
void xattr_dump_ibody(struct sink *o, const unsigned char *buf,
		      unsigned len);

#endif

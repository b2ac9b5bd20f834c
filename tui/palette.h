/* palette.h - the map's 256-colour palette: one xterm colour per owner
 * class and per live overlay, chosen to stay apart for the common
 * colour-blindnesses (tests/unit/test_palette.c checks it).  No curses. */
#ifndef E2L_PALETTE_H
#define E2L_PALETTE_H

#include "owner.h"

/* The overlays drawn over the map's classes, each in a colour no class
 * uses: allocations the kernel made (alloc_overlay.c), recent and older,
 * and the block I/O of a workload, reads and writes. */
enum pal_overlay {
	PAL_ALLOC_NEW, PAL_ALLOC_OLD, PAL_IO_READ, PAL_IO_WRITE,
	PAL_NOVERLAY
};

/* The xterm-256 colour index of each owner class and each overlay. */
extern const unsigned char pal_class256[OWN_CLASS_MAX];
extern const unsigned char pal_overlay256[PAL_NOVERLAY];

/* The sRGB value xterm gives colour index idx (16..255: the 6x6x6 cube
 * and the grey ramp; 0..15 as xterm's defaults). */
void pal_xterm_rgb(int idx, unsigned char rgb[3]);

#endif

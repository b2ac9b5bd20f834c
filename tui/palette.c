/* palette.c - the map's 256-colour palette (see palette.h): the colours were
 * picked from the xterm cube by maximising the smallest CIEDE2000 distance
 * between any two of them as seen with normal vision, protanopia and
 * deuteranopia (Machado 2009), each kept near a hue that suits its class,
 * and readable on both a black and a white background. */
#include "palette.h"

const unsigned char pal_class256[OWN_CLASS_MAX] = {
	[OWN_FREE]	= 245,	/* grey */
	[OWN_UNINIT]	= 59,	/* dark grey */
	[OWN_SUPER]	= 124,	/* dark red */
	[OWN_GDT]	= 196,	/* red */
	[OWN_RSV_GDT]	= 96,	/* greyish purple */
	[OWN_BBITMAP]	= 220,	/* gold */
	[OWN_IBITMAP]	= 186,	/* pale yellow */
	[OWN_ITABLE]	= 169,	/* pink */
	[OWN_JOURNAL]	= 38,	/* cyan */
	[OWN_MAPPING]	= 69,	/* light blue */
	[OWN_FILE]	= 29,	/* sea green */
	[OWN_DIR]	= 27,	/* blue */
	[OWN_XATTR]	= 115,	/* pale green */
	[OWN_OTHER]	= 64,	/* olive */
	[OWN_UNKNOWN]	= 145,	/* light grey */
};

const unsigned char pal_overlay256[PAL_NOVERLAY] = {
	[PAL_ALLOC_NEW]	= 208,	/* orange */
	[PAL_ALLOC_OLD]	= 173,	/* tan */
	[PAL_IO_READ]	= 81,	/* sky blue */
	[PAL_IO_WRITE]	= 163,	/* magenta */
};

void pal_xterm_rgb(int idx, unsigned char rgb[3])
{
	static const unsigned char level[6] = {0, 95, 135, 175, 215, 255};
	static const unsigned char base16[16][3] = {
		{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0},
		{0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
		{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0},
		{92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
	};
	int i;

	if (idx < 0 || idx > 255)
		idx = 0;
	if (idx < 16) {
		for (i = 0; i < 3; i++)
			rgb[i] = base16[idx][i];
	} else if (idx < 232) {
		idx -= 16;
		rgb[0] = level[idx / 36];
		rgb[1] = level[idx / 6 % 6];
		rgb[2] = level[idx % 6];
	} else {
		rgb[0] = rgb[1] = rgb[2] = (unsigned char)(8 + 10 * (idx - 232));
	}
}

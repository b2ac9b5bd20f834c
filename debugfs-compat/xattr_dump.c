/* xattr_dump.c - decodes xattr areas entry by entry as debugfs's bd -x and
 * id -x show them (offsets in decimal and octal, values made printable). */
#include "xattr_dump.h"

#include <ctype.h>
#include <ext2fs/ext2fs.h>
#include <string.h>

static unsigned le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static unsigned le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned)p[3] << 24;
}

/* At most three unprintable bytes. */
static int mostly_printable(const unsigned char *p, unsigned len)
{
	unsigned bad = 0;

	while (len--)
		if (!isprint((char)*p++) && ++bad > 3)
			return 0;
	return 1;
}

/* Control bytes as ^X, high bytes as M-X (debugfs's safe_print). */
static void caret_print(struct sink *o, const unsigned char *p, unsigned len)
{
	unsigned char c;

	while (len--) {
		c = *p++;
		if (c > 128) {
			out_printf(o, "M-");
			c -= 128;
		}
		if (c < 32 || c == 0x7f)
			out_printf(o, "^%c", c ^ 0x40);
		else
			out_printf(o, "%c", c);
	}
}

static void dump_entries(struct sink *o, const unsigned char *buf,
			 unsigned start, unsigned len, unsigned vbase)
{
	unsigned off = start, vstart, nlen, vsize, voffs, vinum;

	while (off < len) {
		if (off + 2 <= len && le16(buf + off) == 0) {
			out_printf(o, "last entry found at offset %u (%04o)\n",
				   off, off);
			break;
		}
		if (off + 16 >= len) {
			out_printf(o, "xattr buffer overrun at %u (len = %u)\n",
				   off, len);
			break;
		}
		nlen = buf[off];
		voffs = le16(buf + off + 2);
		vinum = le32(buf + off + 4);
		vsize = le32(buf + off + 8);
		out_printf(o, "offset = %d (%04o), hash = %u, name_len = %u, "
			   "name_index = %u\n", (int)off, off,
			   le32(buf + off + 12), nlen, buf[off + 1]);
		vstart = vbase + voffs;
		out_printf(o, "value_offset = %d (%04o), value_inum = %u, "
			   "value_size = %u\n", (int)voffs, vstart, vinum,
			   vsize);
		off += 16;
		out_printf(o, "name = ");
		if (off + nlen >= len)
			out_printf(o, "<runs off end>");
		else
			caret_print(o, buf + off, nlen);
		out_printf(o, "\n");
		if (vsize) {
			out_printf(o, "value = ");
			if (vinum)
				out_printf(o, "<ino %u>", vinum);
			else if (voffs >= len || vstart + vsize > len)
				out_printf(o, "<runs off end>");
			else if (mostly_printable(buf + vstart, vsize))
				caret_print(o, buf + vstart, vsize);
			else {
				out_printf(o, "<hexdump>\n");
				xattr_hexdump(o, buf + vstart, vsize,
					      len - vstart);
			}
			out_printf(o, "\n");
		}
		out_printf(o, "\n");
		off += (nlen + 3) & ~3u;
	}
}

void xattr_dump_ibody(struct sink *o, const unsigned char *buf, unsigned len)
{
	unsigned magic = len >= 4 ? le32(buf) : 0;

	out_printf(o, "magic = %08x, length = %u, value_start =4 \n\n",
		   magic, len);
	if (magic == EXT2_EXT_ATTR_MAGIC)
		dump_entries(o, buf, 4, len, 4);
}

void xattr_dump_block(struct sink *o, const unsigned char *buf, unsigned len)
{
	unsigned magic = le32(buf);

	out_printf(o, "magic = %08x, length = %u\n", magic, len);
	if (magic != EXT2_EXT_ATTR_MAGIC)
		return;
	out_printf(o, "refcount = %u, blocks = %u\n", le32(buf + 4),
		   le32(buf + 8));
	out_printf(o, "hash = %08x, checksum = %08x\n", le32(buf + 12),
		   le32(buf + 16));
	out_printf(o, "reserved: %08x %08x %08x\n\n", le32(buf + 20),
		   le32(buf + 24), le32(buf + 28));
	dump_entries(o, buf, 32, len, 0);
}

void xattr_hexdump(struct sink *o, const unsigned char *buf, size_t len,
		   size_t avail)
{
	unsigned char row[16], prev[16];
	size_t off, j;
	int starred = 0;

	for (off = 0; off < len; off += 16) {
		/* a row may run past len (debugfs reads on); past the
		 * bytes we have, it reads as zeros */
		for (j = 0; j < 16; j++)
			row[j] = off + j < avail ? buf[off + j] : 0;
		if (off && !memcmp(row, prev, 16)) {
			if (!starred)
				out_printf(o, "*\n");
			starred = 1;
			continue;
		}
		starred = 0;
		memcpy(prev, row, 16);
		out_printf(o, "%04o  ", (unsigned)off);
		for (j = 0; j < 16; j += 2)
			out_printf(o, "%02x%02x ", row[j], row[j + 1]);
		out_printf(o, " ");
		for (j = 0; j < 16; j++)
			out_printf(o, "%c", isprint(row[j]) ? row[j] : '.');
		out_printf(o, "\n");
	}
	out_printf(o, "\n");
}

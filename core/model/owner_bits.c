/* owner_bits.c - the block bitmap bits the owner index reads for free and
 * unowned space, from the disk a group at a time (a few groups cached) when
 * the session has not loaded the bitmap, so that the index never needs the
 * whole bitmap in memory (see owner_int.h, struct owner_bits). */
#include "owner_int.h"
#include "bitmap_group.h"
#include "frag.h"
#include "session.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define OBITS_CACHE 4	/* groups kept: a walk in block order needs one */

struct owner_bits {
	ext2fs_block_bitmap um;		/* BLOCK_UNINIT marks, or NULL */
	size_t gbytes;			/* one group's bitmap */
	dgrp_t g[OBITS_CACHE];
	int have[OBITS_CACHE];
	unsigned next;			/* the slot filled next */
	unsigned char *buf;		/* OBITS_CACHE * gbytes */
	unsigned char *tmp;		/* gbytes of scratch */
	/* each group's blocks in use, and its first and last one in use
	 * (past its end: none), from the reading that checks it: most gaps
	 * the map counts lie before the first or after the last, or take
	 * the whole group, and need no bits read */
	struct gsum {
		uint32_t used, first, last;
	} *sum;
};

int owner_bits_usable(const struct session *s)
{
	/* frag's own conditions for reading the bitmap from the disk: a
	 * loaded bitmap may differ from the disk (a shell's setb), a cluster
	 * bitmap is left to libext2fs */
	return frag_stream_usable(s) && !s->fs->block_map;
}

void owner_bits_free(struct owner_bits *ob)
{
	if (!ob)
		return;
	if (ob->um)
		ext2fs_free_block_bitmap(ob->um);
	free(ob->buf);
	free(ob->tmp);
	free(ob->sum);
	free(ob);
}

/* Word i of a group's bits (of n), its bits past n cleared. */
static inline uint64_t sum_word(const unsigned char *buf, size_t n, size_t i)
{
	uint64_t w;

	memcpy(&w, buf + i / 8, sizeof(w));
	w = ext2fs_le64_to_cpu(w);
	return n - i < 64 ? w & ((1ULL << (n - i)) - 1) : w;
}

/* The summary of a group's bits: n of them (its blocks) in buf.  The
 * first and the last word in use are looked for four words at a time
 * from either end (most of a large filesystem's groups are nearly empty
 * or nearly full), the words between them counted. */
static void group_sum(const unsigned char *buf, size_t n, struct gsum *gs)
{
	size_t words = (n + 63) / 64, lo = 0, hi = words, i;
	uint64_t w, q[4];

	gs->used = 0;
	gs->first = gs->last = (uint32_t)n;
	while (lo + 4 <= words - (n % 64 != 0)) {	/* whole words */
		memcpy(q, buf + lo * 8, sizeof(q));
		if (q[0] | q[1] | q[2] | q[3])
			break;
		lo += 4;
	}
	while (lo < words && !sum_word(buf, n, lo * 64))
		lo++;
	if (lo == words)
		return;		/* none in use */
	while (hi >= lo + 4 && hi * 64 <= n) {
		memcpy(q, buf + (hi - 4) * 8, sizeof(q));
		if (q[0] | q[1] | q[2] | q[3])
			break;
		hi -= 4;
	}
	while (!sum_word(buf, n, (hi - 1) * 64))
		hi--;
	w = sum_word(buf, n, lo * 64);
	gs->first = (uint32_t)(lo * 64 + (size_t)__builtin_ctzll(w));
	w = sum_word(buf, n, (hi - 1) * 64);
	gs->last = (uint32_t)((hi - 1) * 64 + 63 - (size_t)__builtin_clzll(w));
	for (i = lo; i < hi; i++) {
		w = sum_word(buf, n, i * 64);
		gs->used += w == ~0ULL ? 64 : w ? (uint32_t)
			    __builtin_popcountll(w) : 0;
	}
}

errcode_t owner_bits_open(ext2_filsys fs, int summary,
			  struct owner_bits **out)
{
	struct owner_bits *ob;
	errcode_t err;
	dgrp_t g;

	*out = NULL;
	ob = calloc(1, sizeof(*ob));
	if (!ob)
		return ENOMEM;
	ob->gbytes = bitmap_group_bytes(fs);
	/* a word past the bitmap's bytes: the summary reads whole words */
	ob->buf = malloc(OBITS_CACHE * ob->gbytes + 8);
	ob->tmp = malloc(ob->gbytes);
	if (summary)
		ob->sum = malloc((fs->group_desc_count ? fs->group_desc_count
						       : 1) * sizeof(*ob->sum));
	err = ENOMEM;
	if (!ob->buf || !ob->tmp || (summary && !ob->sum))
		goto fail;
	err = bitmap_group_uninit_marks(fs, &ob->um);
	if (err)
		goto fail;
	/* every group read once, so that a bitmap a load would refuse (a
	 * read or checksum error) is refused here, before any answer */
	for (g = 0; g < fs->group_desc_count; g++) {
		err = bitmap_group_read(fs, g, ob->um, ob->buf, ob->tmp);
		if (err)
			goto fail;
		if (ob->sum)
			group_sum(ob->buf,
				  (size_t)(ext2fs_group_last_block2(fs, g) -
					   ext2fs_group_first_block2(fs, g) + 1),
				  &ob->sum[g]);
	}
	*out = ob;
	return 0;
fail:
	owner_bits_free(ob);
	return err;
}

/* Group g's bits, from the cache or the disk. */
static errcode_t group_bits(ext2_filsys fs, struct owner_bits *ob, dgrp_t g,
			    const unsigned char **bits)
{
	unsigned k;
	errcode_t err;

	for (k = 0; k < OBITS_CACHE; k++)
		if (ob->have[k] && ob->g[k] == g) {
			*bits = ob->buf + k * ob->gbytes;
			return 0;
		}
	k = ob->next;
	ob->next = (ob->next + 1) % OBITS_CACHE;
	ob->have[k] = 0;
	/* checked by owner_bits_open */
	err = bitmap_group_reread(fs, g, ob->um, ob->buf + k * ob->gbytes,
				ob->tmp);
	if (err)
		return err;
	ob->g[k] = g;
	ob->have[k] = 1;
	*bits = ob->buf + k * ob->gbytes;
	return 0;
}

/* The group of block b (at or past the first data block) and b's bit in
 * it. */
static dgrp_t bit_of(ext2_filsys fs, blk64_t b, blk64_t *i)
{
	dgrp_t g = ext2fs_group_of_blk2(fs, b);

	*i = b - ext2fs_group_first_block2(fs, g);
	return g;
}

errcode_t owner_bits_range(ext2_filsys fs, struct owner_bits *ob,
			   blk64_t base, size_t n, unsigned char *out)
{
	blk64_t bpg = EXT2_BLOCKS_PER_GROUP(fs->super), i, take;
	const unsigned char *bits;
	size_t done = 0, k;
	errcode_t err;
	dgrp_t g;

	if (base < fs->super->s_first_data_block ||
	    base + n > ext2fs_blocks_count(fs->super))
		return EINVAL;
	/* every bit of out written, none cleared first (the map loads a
	 * window of several groups for a gap of a few blocks) */
	while (done < n) {
		g = bit_of(fs, base + done, &i);
		err = group_bits(fs, ob, g, &bits);
		if (err)
			return err;
		take = bpg - i;
		if (take > n - done)
			take = n - done;
		if (!(i % 8) && !(done % 8)) {
			/* whole bytes, the last one's spare bits cleared */
			memcpy(out + done / 8, bits + i / 8, (take + 7) / 8);
			if (take % 8)
				out[(done + take) / 8] &=
					(unsigned char)((1u << (take % 8)) - 1);
		} else {
			for (k = 0; k < take; k++) {
				unsigned char m = (unsigned char)
					(1u << ((done + k) % 8));

				if ((bits[(i + k) / 8] >> ((i + k) % 8)) & 1)
					out[(done + k) / 8] |= m;
				else
					out[(done + k) / 8] &= (unsigned char)~m;
			}
		}
		done += take;
	}
	if (n % 8)	/* the spare bits of the last byte clear */
		out[n / 8] &= (unsigned char)((1u << (n % 8)) - 1);
	return 0;
}

errcode_t owner_bits_find(ext2_filsys fs, struct owner_bits *ob, blk64_t a,
			  blk64_t b, int set, blk64_t *z)
{
	blk64_t bpg = EXT2_BLOCKS_PER_GROUP(fs->super), i, gend, gbase;
	unsigned long long w, skip = set ? 0 : ~0ULL;
	const unsigned char *bits;
	errcode_t err;
	dgrp_t g;

	if (a < fs->super->s_first_data_block)
		a = fs->super->s_first_data_block;
	if (b > ext2fs_blocks_count(fs->super))
		b = ext2fs_blocks_count(fs->super);
	while (a < b) {
		g = bit_of(fs, a, &i);
		err = group_bits(fs, ob, g, &bits);
		if (err)
			return err;
		gbase = a - i;
		gend = b - gbase < bpg ? b - gbase : bpg;
		for (; i < gend; i++) {
			if (!(i & 63) && i + 64 <= gend) {
				memcpy(&w, bits + i / 8, 8);
				if (w == skip) {
					i += 63;
					continue;
				}
			}
			if (((bits[i / 8] >> (i % 8)) & 1) == !!set) {
				*z = gbase + i;
				return 0;
			}
		}
		a = gbase + gend;
	}
	return ENOENT;
}

int owner_bits_used_quick(const struct owner_bits *ob, dgrp_t g, blk64_t i,
			  blk64_t j, blk64_t *used)
{
	const struct gsum *gs = ob->sum ? &ob->sum[g] : NULL;

	if (!gs)
		return 0;
	if (i >= j || j <= gs->first || i > gs->last) {
		*used = 0;	/* none used in it (or none at all) */
		return 1;
	}
	if (i <= gs->first && j > gs->last) {
		*used = gs->used;	/* every used one in it */
		return 1;
	}
	return 0;
}

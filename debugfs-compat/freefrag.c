/* freefrag.c - `freefrag`/`e2freefrag [-c chunk_kb]`: debugfs's report
 * of free-space fragmentation, byte for byte, computed from the block
 * bitmap with range searches instead of a test per block. */
#include "cmd.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define FF_HIST 32

struct ff {
	unsigned long chunkbytes, free_chunks, real_free;
	unsigned long min, max, avg;
	int chunkbits, bsbits, blks_in_chunk;
	unsigned long count[FF_HIST], blocks[FF_HIST];
};

/* floor(log2(v)), 0 for 0 and 1 (as debugfs computes it). */
static int ff_log2(unsigned long v)
{
	int l = 0;

	while (v >>= 1)
		l++;
	return l;
}

static void ff_extent(struct ff *f, unsigned long len)
{
	int i = ff_log2(len) + 1;

	if (i >= FF_HIST)
		i = FF_HIST - 1;
	f->count[i]++;
	f->blocks[i] += len;
	if (len > f->max)
		f->max = len;
	if (len < f->min)
		f->min = len;
	f->avg += len;
	f->real_free++;
}

/*
 * debugfs tests block b of the cluster bitmap at position b >> cluster
 * bits (so with bigalloc it looks at cluster b >> 2*bits); reproduce that:
 * find free runs over v = b >> bits and widen them back to blocks.
 */
static void ff_scan(ext2_filsys fs, struct ff *f)
{
	blk64_t total = ext2fs_blocks_count(fs->super);
	blk64_t fdb = fs->super->s_first_data_block;
	unsigned cr = fs->cluster_ratio_bits;
	blk64_t v = fdb >> cr, vend = (total - 1) >> cr, z, s, e;
	blk64_t k = f->blks_in_chunk;

	while (v <= vend) {
		if (ext2fs_find_first_zero_block_bitmap2(fs->block_map, v,
							 vend, &z))
			break;
		v = z > v ? z : v;
		if (ext2fs_find_first_set_block_bitmap2(fs->block_map, v,
							vend, &z))
			z = vend + 1;
		if (z <= v)
			z = v + 1;
		s = v << cr;
		e = z << cr;
		s = s < fdb ? fdb : s;
		e = e > total ? total : e;
		v = z;
		if (s >= e)
			continue;
		ff_extent(f, e - s);
		if (k && e / k > (s + k - 1) / k)
			f->free_chunks += e / k - (s + k - 1) / k;
	}
}

static void ff_usage(struct session *s, const char *prog)
{
	out_errtext(s->out, "usage: %s [-c chunksize in kb] [-h] "
		    "device_name\n", prog);
}

static void ff_report(struct session *s, struct ff *f)
{
	ext2_filsys fs = s->fs;
	blk64_t total = ext2fs_blocks_count(fs->super);
	blk64_t free_blks = ext2fs_free_blocks_count(fs->super);
	const char *unitp = "KMGTPEZY";
	unsigned long start = 0, end, total_chunks;
	int i, units = 10;

	out_printf(s->out, "Total blocks: %llu\nFree blocks: %llu (%0.1f%%)\n",
		   (unsigned long long)total, (unsigned long long)free_blks,
		   (double)free_blks * 100 / total);
	if (f->chunkbytes) {
		out_printf(s->out, "\nChunksize: %lu bytes (%u blocks)\n",
			   f->chunkbytes, f->blks_in_chunk);
		total_chunks = (total + f->blks_in_chunk) >>
			       (f->chunkbits - f->bsbits);
		out_printf(s->out, "Total chunks: %lu\nFree chunks: %lu "
			   "(%0.1f%%)\n", total_chunks, f->free_chunks,
			   (double)f->free_chunks * 100 / total_chunks);
	}
	if (f->real_free) {
		unsigned int scale = fs->blocksize >> 10;

		f->min *= scale;
		f->max *= scale;
		f->avg = f->avg / f->real_free * scale;
	} else {
		f->min = 0;
	}
	json_u64(s->out, "total_blocks", total);
	json_u64(s->out, "free_blocks", free_blks);
	if (f->chunkbytes) {
		json_u64(s->out, "chunk_bytes", f->chunkbytes);
		json_u64(s->out, "free_chunks", f->free_chunks);
	}
	json_u64(s->out, "min_free_extent_kb", f->min);
	json_u64(s->out, "max_free_extent_kb", f->max);
	json_u64(s->out, "avg_free_extent_kb", f->avg);
	json_u64(s->out, "free_extents", f->real_free);
	out_printf(s->out, "\nMin. free extent: %lu KB \nMax. free extent: "
		   "%lu KB\nAvg. free extent: %lu KB\n", f->min, f->max,
		   f->avg);
	out_printf(s->out, "Num. free extent: %lu\n", f->real_free);
	out_printf(s->out, "\nHISTOGRAM OF FREE EXTENT SIZES:\n");
	out_printf(s->out, "%s :  %12s  %12s  %7s\n", "Extent Size Range",
		   "Free extents", "Free Blocks", "Percent");
	json_arr_begin(s->out, "histogram");
	for (i = 0; i < FF_HIST; i++) {
		end = 1UL << (i + f->bsbits - units);
		if (f->count[i]) {
			char end_str[32];

			if (i == FF_HIST - 1)
				strcpy(end_str, "max ");
			else
				snprintf(end_str, sizeof(end_str), "%5lu%c-",
					 end, *unitp);
			out_printf(s->out, "%5lu%c...%7s  :  %12lu  %12lu  "
				   "%6.2f%%\n", start, *unitp, end_str,
				   f->count[i], f->blocks[i],
				   (double)f->blocks[i] * 100 / free_blks);
			/* Bucket i holds extents of 2^(i-1) to 2^i - 1
			 * blocks (the last: any larger). */
			json_obj_begin(s->out, NULL);
			json_u64(s->out, "min_blocks", 1ULL << (i - 1));
			if (i == FF_HIST - 1)
				json_null(s->out, "max_blocks");
			else
				json_u64(s->out, "max_blocks",
					 (1ULL << i) - 1);
			json_u64(s->out, "extents", f->count[i]);
			json_u64(s->out, "blocks", f->blocks[i]);
			json_double(s->out, "percent", (double)f->blocks[i] *
				    100 / free_blks);
			json_obj_end(s->out);
		}
		start = end;
		if (start == 1 << 10) {
			start = 1;
			units += 10;
			unitp++;
		}
	}
	json_arr_end(s->out);
}

static int do_freefrag(struct session *s, int argc, char **argv)
{
	struct ff f;
	char *end;
	int c;

	memset(&f, 0, sizeof(f));
	opterr = 0;
	while ((c = getopt(argc, argv, ":c:h")) != -1) {
		switch (c) {
		case 'c':
			f.chunkbytes = strtoull(optarg, &end, 0);
			if (*end) {
				out_errtext(s->out, "%s: bad chunk size '%s'\n",
					    argv[0], optarg);
				ff_usage(s, argv[0]);
			}
			if (f.chunkbytes & (f.chunkbytes - 1)) {
				out_errtext(s->out, "%s: chunk size must be a "
					    "power of 2.\n", argv[0]);
				ff_usage(s, argv[0]);
			}
			f.chunkbytes *= 1024;
			break;
		case ':':
			out_errtext(s->out, "%s: option requires an argument "
				    "-- '%c'\n", argv[0], optopt);
			ff_usage(s, argv[0]);
			break;
		case '?':
			out_errtext(s->out, "%s: invalid option -- '%c'\n",
				    argv[0], optopt);
			/* fall through */
		default:
			ff_usage(s, argv[0]);
			break;
		}
	}
	if (f.chunkbytes && f.chunkbytes < s->fs->blocksize) {
		/* debugfs leaves altogether here. */
		out_errtext(s->out, "%s: chunksize must be greater than or "
			    "equal to filesystem blocksize.\n", argv[0]);
		s->quit = true;
		return CMD_FAIL;
	}
	out_printf(s->out, "Device: %s\n", s->fs->device_name);
	json_str(s->out, "device", s->fs->device_name);
	json_u64(s->out, "block_size", s->fs->blocksize);
	out_printf(s->out, "Blocksize: %u bytes\n", s->fs->blocksize);
	f.bsbits = ff_log2(s->fs->blocksize);
	f.chunkbits = ff_log2(f.chunkbytes ? f.chunkbytes : 1UL << 20);
	f.blks_in_chunk = (f.chunkbytes ? f.chunkbytes : 1UL << 20) >>
			  f.bsbits;
	f.min = ~0UL;
	if (session_need(s, NEED_BLOCK_BITMAP)) {
		out_error(s->out, s->fs->device_name,
			  EXT2_ET_NO_BLOCK_BITMAP,
			  "while reading block bitmap");
		s->quit = true;
		return CMD_FAIL;
	}
	ff_scan(s->fs, &f);
	ff_report(s, &f);
	return CMD_OK;
}

static const char *const freefrag_aliases[] = {"e2freefrag", NULL};
const struct cmd_entry cmd_freefrag = {
	.name = "freefrag",
	.aliases = freefrag_aliases,
	.synopsis = "freefrag [-c chunk_kb]",
	.summary = "Report free space fragmentation",
	.options = "-c -h",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON,
	.run = do_freefrag,
};

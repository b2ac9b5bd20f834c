/* live.c - `live status|groups|extents`: on a mounted filesystem, the
 * kernel's view (mballoc's table, GETFSMAP, statfs, FIEMAP) next to the
 * on-disk one (the group descriptors as the device holds them now). */
#include "cmd.h"
#include "journal.h"
#include "journal_ext.h"
#include "live.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

static int need_live(struct session *s, const char *who)
{
	if (s->live)
		return 0;
	out_error(s->out, who, 0, "%s is not a mounted filesystem opened "
		  "read-only (live mode needs one: e2layout /dev/X or "
		  "e2layout /mount/point)", s->device ? s->device : "this");
	return -1;
}

/*
 * The on-disk view now: superblock and descriptors read again from the
 * device, bypassing the page cache when the device allows it.
 */
static errcode_t disk_open(struct session *s, ext2_filsys *fsp)
{
	int flags = EXT2_FLAG_SOFTSUPP_FEATURES | EXT2_FLAG_64BITS |
		    EXT2_FLAG_IGNORE_CSUM_ERRORS;
	errcode_t err;

	err = ext2fs_open(s->device, flags | EXT2_FLAG_DIRECT_IO, 0, 0,
			  unix_io_manager, fsp);
	if (err)
		err = ext2fs_open(s->device, flags, 0, 0, unix_io_manager,
				  fsp);
	return err;
}

struct live_view {
	ext2_filsys disk;
	struct live_mbgroup *mb;
	dgrp_t nmb;
	blk64_t *fsmap_free;		/* per group, clusters */
	struct live_fsmap_sum fsmap;
	errcode_t fsmap_err, mb_err;
};

static void view_free(struct live_view *v)
{
	if (v->disk)
		ext2fs_close_free(&v->disk);
	free(v->mb);
	free(v->fsmap_free);
}

static errcode_t view_load(struct session *s, struct live_view *v)
{
	errcode_t err;

	memset(v, 0, sizeof(*v));
	err = disk_open(s, &v->disk);
	if (err) {
		out_error(s->out, "live", err, "while reading %s", s->device);
		return err;
	}
	v->mb_err = live_mbgroups_read(s->live, &v->mb, &v->nmb);
	v->fsmap_free = calloc(v->disk->group_desc_count,
			       sizeof(*v->fsmap_free));
	if (!v->fsmap_free)
		return ENOMEM;
	v->fsmap_err = live_fsmap(s->live, v->disk, &v->fsmap,
				  v->fsmap_free, NULL, NULL);
	if (v->mb_err)
		out_error(s->out, "live", v->mb_err, "while reading "
			  "/proc/fs/ext4/%s/mb_groups", s->live->sysname);
	if (v->fsmap_err)
		out_error(s->out, "live", v->fsmap_err, "while asking %s for "
			  "its map (FS_IOC_GETFSMAP)", s->live->mnt);
	return 0;
}

static blk64_t sysfs_num(struct session *s, const char *attr, int *ok)
{
	char buf[64];

	*ok = !live_sysfs_read(s->live, attr, buf, sizeof(buf));
	return *ok ? strtoull(buf, NULL, 10) : 0;
}

/* Where the journal lives: one line; for an external one its device and
 * log blocks when they can be found (journal_ext.h). */
static void live_journal_line(struct session *s)
{
	struct e2l_journal j;

	if (journal_load(s->fs, &j) || !j.present)
		return;
	if (!j.external) {
		out_printf(s->out, "Journal:                 inode %u, %llu "
			   "blocks in %u extent(s)\n", j.ino,
			   (unsigned long long)j.data_blocks, j.next);
	} else if (journal_ext_find(s, &j) || !j.ext_path) {
		out_printf(s->out, "Journal:                 external, UUID %s "
			   "(device not found: --journal-dev PATH)\n",
			   j.ext_uuid);
	} else {
		out_printf(s->out, "Journal:                 external on %s, "
			   "superblock at block %llu, log blocks %u-%u\n",
			   j.ext_path, (unsigned long long)j.sb_pblk,
			   j.sb_first, j.sb_maxlen ? j.sb_maxlen - 1 : 0);
	}
	journal_release(&j);
}

static int do_status(struct session *s, struct live_view *v)
{
	ext2_filsys fs = v->disk;
	struct live_info *l = s->live;
	blk64_t disk = 0, kern = 0, ratio = EXT2FS_CLUSTER_RATIO(fs);
	blk64_t delalloc, resv;
	int ok_d, ok_r;
	struct statvfs sv;
	dgrp_t g;

	for (g = 0; g < fs->group_desc_count; g++)
		disk += ext2fs_bg_free_blocks_count(fs, g);
	for (g = 0; g < v->nmb; g++)
		kern += v->mb[g].free;
	disk *= ratio;
	kern *= ratio;
	delalloc = sysfs_num(s, "delayed_allocation_blocks", &ok_d);
	resv = sysfs_num(s, "reserved_clusters", &ok_r);
	if (statvfs(l->mnt, &sv))
		memset(&sv, 0, sizeof(sv));
	if (sink_is_json(s->out)) {
		json_str(s->out, "mount_point", l->mnt);
		json_str(s->out, "device", l->source);
		json_str(s->out, "sysfs_name", l->sysname);
		json_u64(s->out, "major", l->major);
		json_u64(s->out, "minor", l->minor);
		json_u64(s->out, "block_size", fs->blocksize);
		json_u64(s->out, "blocks", ext2fs_blocks_count(fs->super));
		json_u64(s->out, "disk_free_blocks", disk);
		json_u64(s->out, "disk_sb_free_blocks",
			 ext2fs_free_blocks_count(fs->super));
		/* what could not be read is null, never left out */
		if (!v->mb_err) {
			json_u64(s->out, "kernel_free_blocks", kern);
			json_i64(s->out, "difference", (int64_t)(kern - disk));
		} else {
			json_null(s->out, "kernel_free_blocks");
			json_null(s->out, "difference");
		}
		if (!v->fsmap_err) {
			json_u64(s->out, "fsmap_free_blocks", v->fsmap.free);
			json_u64(s->out, "fsmap_free_extents",
				 v->fsmap.free_extents);
			json_u64(s->out, "fsmap_largest_free",
				 v->fsmap.largest_free);
		} else {
			json_null(s->out, "fsmap_free_blocks");
			json_null(s->out, "fsmap_free_extents");
			json_null(s->out, "fsmap_largest_free");
		}
		json_u64(s->out, "statfs_free_blocks",
			 (uint64_t)sv.f_bfree * sv.f_frsize / fs->blocksize);
		if (ok_d)
			json_u64(s->out, "delayed_allocation_blocks",
				 delalloc);
		else
			json_null(s->out, "delayed_allocation_blocks");
		if (ok_r)
			json_u64(s->out, "reserved_clusters", resv);
		else
			json_null(s->out, "reserved_clusters");
	}
	out_printf(s->out, "Live view of %s mounted on %s (dev %u:%u, "
		   "/sys/fs/ext4/%s)\n", l->source, l->mnt, l->major,
		   l->minor, l->sysname);
	out_printf(s->out, "Block size %u, %llu blocks, %u groups\n",
		   fs->blocksize,
		   (unsigned long long)ext2fs_blocks_count(fs->super),
		   fs->group_desc_count);
	out_printf(s->out, "Free blocks on disk:     %llu (group descriptors;"
		   " superblock says %llu)\n", (unsigned long long)disk,
		   (unsigned long long)ext2fs_free_blocks_count(fs->super));
	if (!v->mb_err)
		out_printf(s->out, "Free blocks, kernel:     %llu (mballoc, "
			   "mb_groups)\n", (unsigned long long)kern);
	if (!v->fsmap_err)
		out_printf(s->out, "Free blocks, GETFSMAP:   %llu in %llu "
			   "extents, largest %llu\n",
			   (unsigned long long)v->fsmap.free,
			   (unsigned long long)v->fsmap.free_extents,
			   (unsigned long long)v->fsmap.largest_free);
	out_printf(s->out, "Free blocks, statfs:     %llu\n",
		   (unsigned long long)((uint64_t)sv.f_bfree * sv.f_frsize /
					fs->blocksize));
	if (!v->mb_err)
		out_printf(s->out, "Kernel - disk:           %+lld blocks\n",
			   (long long)(kern - disk));
	if (ok_d)
		out_printf(s->out, "Delayed allocation:      %llu blocks "
			   "reserved, not placed yet\n",
			   (unsigned long long)delalloc);
	if (ok_r)
		out_printf(s->out, "Reserved clusters:       %llu\n",
			   (unsigned long long)resv);
	if (!v->fsmap_err)
		out_printf(s->out, "In use (GETFSMAP):       %llu inode "
			   "tables, %llu other metadata, %llu external log, %llu "
			   "files and trees\n",
			   (unsigned long long)v->fsmap.inodes,
			   (unsigned long long)v->fsmap.meta,
			   (unsigned long long)v->fsmap.log,
			   (unsigned long long)v->fsmap.files);
	live_journal_line(s);
	return v->mb_err || v->fsmap_err ? CMD_FAIL : CMD_OK;
}

static int do_groups(struct session *s, struct live_view *v, int changed)
{
	ext2_filsys fs = v->disk;
	long long tdisk = 0, tkern = 0, tmap = 0;
	dgrp_t g, shown = 0;

	if (v->mb_err)
		return CMD_FAIL;
	if (sink_is_json(s->out)) {
		json_u64(s->out, "group_count", fs->group_desc_count);
		json_u64(s->out, "cluster_ratio", EXT2FS_CLUSTER_RATIO(fs));
		json_arr_begin(s->out, "groups");
	} else {
		out_printf(s->out, "%7s %10s %10s %8s %10s %6s %10s\n",
			   "group", "disk free", "kern free", "diff",
			   "fsmap free", "frags", "first free");
	}
	for (g = 0; g < fs->group_desc_count; g++) {
		long long d = ext2fs_bg_free_blocks_count(fs, g);
		long long k = g < v->nmb ? v->mb[g].free : 0;
		long long m = v->fsmap_err ? -1 : (long long)v->fsmap_free[g];

		tdisk += d;
		tkern += k;
		tmap += m;
		if (changed && d == k && (m < 0 || m == k))
			continue;
		shown++;
		if (sink_is_json(s->out)) {
			json_obj_begin(s->out, NULL);
			json_u64(s->out, "group", g);
			json_i64(s->out, "disk_free", d);
			json_i64(s->out, "kernel_free", k);
			json_i64(s->out, "difference", k - d);
			if (m >= 0)
				json_i64(s->out, "fsmap_free", m);
			else
				json_null(s->out, "fsmap_free");
			json_u64(s->out, "frags",
				 g < v->nmb ? v->mb[g].frags : 0);
			json_u64(s->out, "first_free",
				 g < v->nmb ? v->mb[g].first : 0);
			json_obj_end(s->out);
			if ((shown & 4095) == 0)
				json_flush(s->out);
			continue;
		}
		out_printf(s->out, "%7u %10lld %10lld %+8lld %10lld %6u %10u\n",
			   g, d, k, k - d, m,
			   g < v->nmb ? v->mb[g].frags : 0,
			   g < v->nmb ? v->mb[g].first : 0);
	}
	if (sink_is_json(s->out)) {
		json_arr_end(s->out);
		json_i64(s->out, "disk_free", tdisk);
		json_i64(s->out, "kernel_free", tkern);
		json_i64(s->out, "difference", tkern - tdisk);
		if (!v->fsmap_err)	/* null as in each group's row */
			json_i64(s->out, "fsmap_free", tmap);
		else
			json_null(s->out, "fsmap_free");
	} else {
		out_printf(s->out, "%7s %10lld %10lld %+8lld %10lld\n", "total",
			   tdisk, tkern, tkern - tdisk,
			   v->fsmap_err ? -1 : tmap);
		if (EXT2FS_CLUSTER_RATIO(fs) > 1)
			out_printf(s->out, "(counts are clusters of %d "
				   "blocks)\n", EXT2FS_CLUSTER_RATIO(fs));
	}
	return v->fsmap_err ? CMD_FAIL : CMD_OK;
}

static int do_extents(struct session *s, const char *arg)
{
	struct live_extent *e;
	char path[PATH_MAX * 2];
	unsigned bs = s->fs->blocksize;
	size_t n, i;
	errcode_t err;

	/* a path inside the filesystem, or one on the host */
	if (arg[0] == '/' && strncmp(arg, s->live->mnt, strlen(s->live->mnt)))
		snprintf(path, sizeof(path), "%s%s", s->live->mnt, arg);
	else
		snprintf(path, sizeof(path), "%s", arg);
	err = live_fiemap(path, &e, &n);
	if (err) {
		out_error(s->out, "live", err, "while mapping %s (FIEMAP)",
			  path);
		return CMD_FAIL;
	}
	if (sink_is_json(s->out)) {
		json_str(s->out, "path", path);
		json_arr_begin(s->out, "extents");
	} else {
		out_printf(s->out, "%s: %zu extent%s (FIEMAP)\n", path, n,
			   n == 1 ? "" : "s");
		out_printf(s->out, "%10s %12s %8s %7s  %s\n", "logical",
			   "physical", "length", "group", "flags");
	}
	for (i = 0; i < n; i++) {
		blk64_t p = e[i].physical / bs, len = e[i].length / bs;
		dgrp_t g = ext2fs_group_of_blk2(s->fs, p);

		if (sink_is_json(s->out)) {
			json_obj_begin(s->out, NULL);
			json_u64(s->out, "logical", e[i].logical / bs);
			json_u64(s->out, "physical", p);
			json_u64(s->out, "length", len);
			json_u64(s->out, "group", g);
			json_u64(s->out, "flags", e[i].flags);
			json_obj_end(s->out);
		} else {
			out_printf(s->out, "%10llu %12llu %8llu %7u  %s%s\n",
				   (unsigned long long)(e[i].logical / bs),
				   (unsigned long long)p,
				   (unsigned long long)len, g,
				   e[i].flags & 0x800 ? "unwritten " : "",
				   e[i].flags & 1 ? "last" : "");
		}
	}
	if (sink_is_json(s->out))
		json_arr_end(s->out);
	free(e);
	return CMD_OK;
}

static int do_live(struct session *s, int argc, char **argv)
{
	struct live_view v;
	int rc, changed = 0;

	if (argc < 2 || (strcmp(argv[1], "status") &&
			 strcmp(argv[1], "groups") &&
			 strcmp(argv[1], "extents"))) {
		out_error(s->out, argv[0], 0, "Usage: live status | live "
			  "groups [--changed] | live extents PATH");
		return CMD_FAIL;
	}
	if (need_live(s, argv[0]))
		return CMD_FAIL;
	if (!strcmp(argv[1], "extents")) {
		if (argc != 3) {
			out_error(s->out, argv[0], 0, "Usage: live extents "
				  "PATH");
			return CMD_FAIL;
		}
		return do_extents(s, argv[2]);
	}
	if (argc == 3 && !strcmp(argv[1], "groups") &&
	    !strcmp(argv[2], "--changed"))
		changed = 1;
	else if (argc != 2) {
		out_error(s->out, argv[0], 0, "Usage: live status | live "
			  "groups [--changed] | live extents PATH");
		return CMD_FAIL;
	}
	if (view_load(s, &v)) {
		view_free(&v);
		return CMD_FAIL;
	}
	rc = !strcmp(argv[1], "status") ? do_status(s, &v)
					: do_groups(s, &v, changed);
	view_free(&v);
	return rc;
}

const struct cmd_entry cmd_live = {
	.name = "live",
	.synopsis = "live status | live groups [--changed] | live extents PATH",
	.summary = "The kernel's view of a mounted filesystem next to the "
		   "on-disk one",
	.options = "status groups extents --changed",
	.flags = CMD_NEEDS_FS | CMD_JSON,
	.complete = COMPLETE_HOST_PATH,
	.run = do_live,
};

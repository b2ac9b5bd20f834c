/* fs_probe.c - what a device holds when it is not ext2/3/4: libblkid's
 * superblock probe (type and label) or, failing that, its partition probe,
 * told in the words e2fsprogs's tools use after "Bad magic number". */
#include "fs_probe.h"

#include <blkid.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "DEV contains a TYPE file system [labelled 'LABEL']" on standard output;
 * 1 when a filesystem was recognised. */
static int probe_superblocks(struct sink *out, const char *device)
{
	const char *type = NULL, *label = NULL;
	blkid_probe pr;
	int found = 0;

	pr = blkid_new_probe_from_filename(device);
	if (!pr)
		return 0;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 0);
	if (blkid_do_safeprobe(pr) == 0 &&
	    !blkid_probe_lookup_value(pr, "TYPE", &type, NULL) && type) {
		if (!blkid_probe_lookup_value(pr, "LABEL", &label, NULL) &&
		    label)
			out_printf(out, "%s contains a %s file system labelled "
				   "'%s'\n", device, type, label);
		else
			out_printf(out, "%s contains a %s file system\n",
				   device, type);
		found = 1;
	}
	blkid_free_probe(pr);
	return found;
}

/* "Found a TYPE partition table in DEV" on the error channel. */
static void probe_partitions(struct sink *out, const char *device)
{
	const char *pttype = NULL;
	blkid_probe pr;

	pr = blkid_new_probe_from_filename(device);
	if (!pr)
		return;
	if (blkid_probe_enable_partitions(pr, 1) == 0 &&
	    blkid_probe_enable_superblocks(pr, 0) == 0 &&
	    blkid_do_fullprobe(pr) >= 0 &&
	    !blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL) && pttype)
		out_errtext(out, "Found a %s partition table in %s\n", pttype,
			    device);
	blkid_free_probe(pr);
}

void fs_probe_report(struct sink *out, const char *device)
{
	/* An ext2/3/4 superblock is what failed to open: blkid finding one
	 * would need the magic that was just found missing, so e2fsprogs's
	 * extra lines for ext* (mount and creation times) never apply. */
	if (!probe_superblocks(out, device))
		probe_partitions(out, device);
}

char *fs_probe_journal_dev(ext2_filsys fs)
{
	const __u8 *u = fs->super->s_journal_uuid;
	char uuid[37];
	blkid_cache cache = NULL;
	char *name = NULL;

	snprintf(uuid, sizeof(uuid), "%02x%02x%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3],
		 u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		 u[13], u[14], u[15]);
	if (blkid_get_cache(&cache, NULL) < 0)
		cache = NULL;
	if (cache)
		name = blkid_get_devname(cache, "UUID", uuid);
	if (!name && fs->super->s_journal_dev)
		name = blkid_devno_to_devname(fs->super->s_journal_dev);
	if (cache)
		blkid_put_cache(cache);
	return name;
}

int fs_probe_metadata_only(ext2_filsys fs)
{
	return fs && (fs->flags & EXT2_FLAG_IMAGE_FILE) &&
	       fs->io == fs->image_io;
}

int fs_probe_readahead_fd(ext2_filsys fs, const char *device)
{
	if (!fs || !device ||
	    (fs->flags & (EXT2_FLAG_IMAGE_FILE | EXT2_FLAG_DIRECT_IO)))
		return -1;
	return open(device, O_RDONLY | O_CLOEXEC);
}

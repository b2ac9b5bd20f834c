/* quota_update.c - keeps the quota files right across a layout change:
 * which inodes quota counts and under which ids (e2fsck's rules), the plan
 * time check, and the charge that apply makes beside the inode write. */
#include "quota_update.h"
#include "quota_tree.h"
#include "e2l_err.h"
#include "plan.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

int quota_counts(ext2_filsys fs, ext2_ino_t ino,
		 const struct ext2_inode_large *inode)
{
	struct ext2_super_block *sb = fs->super;

	if (ino != EXT2_ROOT_INO && ino < EXT2_FIRST_INODE(sb))
		return 0;	/* reserved inodes: the journal, resize... */
	if (ino == sb->s_prj_quota_inum || ino == sb->s_orphan_file_inum)
		return 0;
	return !(inode->i_flags & EXT4_EA_INODE_FL);
}

__u32 quota_id(ext2_filsys fs, const struct ext2_inode_large *inode, int t)
{
	size_t end = offsetof(struct ext2_inode_large, i_projid) +
		     sizeof(inode->i_projid);

	switch (t) {
	case QT_USR:
		return inode_uid(*inode);
	case QT_GRP:
		return inode_gid(*inode);
	case QT_PRJ:
		if (EXT2_INODE_SIZE(fs->super) >= end &&
		    EXT2_GOOD_OLD_INODE_SIZE + (size_t)inode->i_extra_isize >=
		    end)
			return inode->i_projid;
	}
	return 0;
}

/* Whether type t is counted on fs (as e2fsck counts: project ids only
 * with inodes larger than the old 128 bytes). */
static int type_on(ext2_filsys fs, int t)
{
	if (!ext2fs_has_feature_quota(fs->super) || !qt_inum(fs->super, t))
		return 0;
	return t != QT_PRJ ||
	       EXT2_INODE_SIZE(fs->super) > EXT2_GOOD_OLD_INODE_SIZE;
}

errcode_t quota_new_owner(ext2_filsys fs, ext2_ino_t dir,
			  struct ext2_inode_large *inode)
{
	struct ext2_inode_large d;
	errcode_t err;

	memset(&d, 0, sizeof(d));
	err = ext2fs_read_inode_full(fs, dir, (struct ext2_inode *)&d,
				     sizeof(d));
	if (err)
		return err;
	inode->i_uid = 0;
	inode->osd2.linux2.l_i_uid_high = 0;
	inode->i_gid = 0;
	inode->osd2.linux2.l_i_gid_high = 0;
	if (d.i_mode & LINUX_S_ISGID) {
		inode->i_gid = d.i_gid;
		inode->osd2.linux2.l_i_gid_high = d.osd2.linux2.l_i_gid_high;
	}
	if ((d.i_flags & EXT4_PROJINHERIT_FL) &&
	    EXT2_INODE_SIZE(fs->super) > EXT2_GOOD_OLD_INODE_SIZE)
		inode->i_projid = quota_id(fs, &d, QT_PRJ);
	return 0;
}

/* Adds space and inodes to r, with the grace deadlines the kernel keeps
 * (set when a soft limit is first passed, cleared below it).  Nonzero when
 * the result would leave the counters' range. */
static int adjust(const struct qt_file *qf, struct qt_rec *r, __s64 space,
		  int inodes)
{
	__u64 now = time(NULL);

	if (space < 0 ? r->curspace < (__u64)-(space + 1) + 1 :
	    r->curspace > UINT64_MAX - (__u64)space)
		return 1;
	if (inodes < 0 ? r->curinodes < (__u64)-(__s64)inodes :
	    r->curinodes > UINT64_MAX - (__u64)inodes)
		return 1;
	r->curspace += (__u64)space;
	r->curinodes += (__u64)(__s64)inodes;
	if (space) {
		if (r->bsoft && (r->curspace + QT_BLK - 1) / QT_BLK > r->bsoft)
			r->btime = r->btime ? r->btime : now + qf->bgrace;
		else
			r->btime = 0;
	}
	if (inodes) {
		if (r->isoft && r->curinodes > r->isoft)
			r->itime = r->itime ? r->itime : now + qf->igrace;
		else
			r->itime = 0;
	}
	return 0;
}

errcode_t quota_charge(ext2_filsys fs, ext2_ino_t ino,
		       const struct ext2_inode_large *inode, __s64 space,
		       int inodes)
{
	struct qt_file qf[QT_NTYPES];
	struct qt_rec r[QT_NTYPES];
	int on[QT_NTYPES], t, found;
	errcode_t err;

	if ((!space && !inodes) || !quota_counts(fs, ino, inode))
		return 0;
	/* Every record first; only then any write. */
	for (t = 0; t < QT_NTYPES; t++) {
		on[t] = type_on(fs, t);
		if (!on[t])
			continue;
		err = qt_open(fs, t, &qf[t]);
		if (!err)
			err = qt_find(&qf[t], quota_id(fs, inode, t), &r[t],
				      &found);
		if (err)
			return err;
		if (!found || adjust(&qf[t], &r[t], space, inodes))
			return E2L_ERR_QUOTA;
	}
	for (t = 0; t < QT_NTYPES; t++) {
		if (!on[t])
			continue;
		err = qt_write(&qf[t], &r[t]);
		if (err)
			return err;
	}
	return 0;
}

static __s64 stat_bytes(ext2_filsys fs, const struct ext2_inode_large *in)
{
	return (__s64)ext2fs_get_stat_i_blocks(fs,
			(struct ext2_inode *)(uintptr_t)in) * 512;
}

errcode_t quota_charge_switch(ext2_filsys fs, ext2_ino_t ino,
			      const struct ext2_inode_large *after)
{
	struct ext2_inode_large before;
	errcode_t err;

	if (!ext2fs_has_feature_quota(fs->super))
		return 0;
	memset(&before, 0, sizeof(before));
	err = ext2fs_read_inode_full(fs, ino, (struct ext2_inode *)&before,
				     sizeof(before));
	if (err)
		return err;
	return quota_charge(fs, ino, after, stat_bytes(fs, after) -
			    stat_bytes(fs, &before), 0);
}

/* One change the plan check looks at. */
struct change {
	ext2_ino_t ino;			/* 0: prealloc's new file */
	struct ext2_inode_large inode;	/* its owner */
	__s64 space;
	int inodes;
};

/* Checks one change against every counted quota file; files[t] caches
 * which were walked already.  Prints why not. */
static errcode_t check_change(struct session *s, const char *who,
			      const struct change *c, struct qt_file *files,
			      int *walked)
{
	ext2_filsys fs = s->fs;
	struct qt_rec r;
	__u32 id;
	int t, found;
	errcode_t err;

	for (t = 0; t < QT_NTYPES; t++) {
		if (!type_on(fs, t))
			continue;
		err = 0;
		if (!walked[t]) {
			err = qt_open(fs, t, &files[t]);
			if (!err)
				err = qt_check(&files[t], NULL);
			if (err == E2L_ERR_QUOTA)
				goto damaged;
			if (err) {
				out_error(s->out, who, err, "while reading "
					  "the %s quota file (inode %u)",
					  qt_type_name(t),
					  qt_inum(fs->super, t));
				return err;
			}
			walked[t] = 1;
		}
		id = quota_id(fs, &c->inode, t);
		err = qt_find(&files[t], id, &r, &found);
		if (err == E2L_ERR_QUOTA)
			goto damaged;
		if (err) {
			out_error(s->out, who, err, "while reading the %s "
				  "quota file (inode %u)", qt_type_name(t),
				  files[t].ino);
			return err;
		}
		if (!found && !c->ino) {
			out_error(s->out, who, E2L_ERR_QUOTA, "because the %s "
				  "quota file has no record for id %u, the "
				  "owner the new file would get, and e2layout "
				  "does not add records (the quota file would "
				  "have to grow); create the file another way "
				  "and prealloc it then", qt_type_name(t), id);
			return E2L_ERR_QUOTA;
		}
		if (!found) {
			out_error(s->out, who, E2L_ERR_QUOTA, "because the %s "
				  "quota file has no record for id %u, which "
				  "owns inode %u (the file is out of date); "
				  "run e2fsck -f to repair it, then plan "
				  "again", qt_type_name(t), id, c->ino);
			return E2L_ERR_QUOTA;
		}
		if (adjust(&files[t], &r, c->space, c->inodes)) {
			out_error(s->out, who, E2L_ERR_QUOTA, "because the "
				  "usage of %s %u (%llu bytes, %llu inodes) "
				  "cannot take this change (the file is out "
				  "of date); run e2fsck -f to repair it, then "
				  "plan again", qt_type_name(t), id,
				  (unsigned long long)r.curspace,
				  (unsigned long long)r.curinodes);
			return E2L_ERR_QUOTA;
		}
	}
	return 0;
damaged:
	out_error(s->out, who, E2L_ERR_QUOTA, "because %s; run e2fsck -f to "
		  "repair it, then plan again", files[t].why);
	return E2L_ERR_QUOTA;
}

/* The changes plan p makes (at most two: a file, its directory). */
static errcode_t changes_of(ext2_filsys fs, const struct plan *p,
			    struct change *c, int *n)
{
	__s64 unit = EXT2_CLUSTER_SIZE(fs->super);
	ext2_ino_t ino = p->ino;
	errcode_t err;

	*n = 0;
	if (p->repack || !ino || ino > fs->super->s_inodes_count)
		return 0;
	memset(c, 0, 2 * sizeof(*c));
	err = ext2fs_read_inode_full(fs, ino, (struct ext2_inode *)&c[0].inode,
				     sizeof(c[0].inode));
	if (err)
		return err;
	if (p->create_name[0]) {
		/* the directory may grow by a block or two: its owner's
		 * records must be there (the amount is known at apply) */
		c[1] = c[0];
		c[1].ino = ino;
		c[1].space = 0;
		memset(&c[0].inode, 0, sizeof(c[0].inode));
		if (EXT2_INODE_SIZE(fs->super) > EXT2_GOOD_OLD_INODE_SIZE)
			c[0].inode.i_extra_isize = sizeof(c[0].inode) -
						   EXT2_GOOD_OLD_INODE_SIZE;
		err = quota_new_owner(fs, ino, &c[0].inode);
		if (err)
			return err;
		c[0].ino = 0;
		c[0].inodes = 1;
		c[0].space = (__s64)plan_units_new(fs, p) * unit;
		*n = quota_counts(fs, ino, &c[1].inode) ? 2 : 1;
		return 0;
	}
	if (!quota_counts(fs, ino, &c[0].inode))
		return 0;
	c[0].ino = ino;
	c[0].space = ((__s64)plan_units_new(fs, p) -
		      (__s64)plan_units_old(fs, p)) * unit;
	*n = c[0].space != 0;
	return 0;
}

errcode_t quota_check_plan(struct session *s, const char *who,
			   const struct plan *p)
{
	struct qt_file files[QT_NTYPES];
	int walked[QT_NTYPES] = {0}, n, i;
	struct change c[2];
	errcode_t err;

	if (!s->fs || !ext2fs_has_feature_quota(s->fs->super))
		return 0;
	for (; p; p = p->next) {
		err = changes_of(s->fs, p, c, &n);
		if (err) {
			out_error(s->out, who, err, "while reading inode %u "
				  "for the quota check", p->ino);
			return err;
		}
		for (i = 0; i < n; i++) {
			err = check_change(s, who, &c[i], files, walked);
			if (err)
				return err;
		}
	}
	return 0;
}

/* journal_ext.h - external journals: reading a journal device (mke2fs -O
 * journal_dev) and finding the one a filesystem uses. */
#ifndef E2L_JOURNAL_EXT_H
#define E2L_JOURNAL_EXT_H

#include "journal.h"
#include "session.h"

/*
 * Do the first n bytes of a device (head, from offset 0) say it is a
 * journal device?  1 yes (its ext2 superblock has journal_dev), 0 no or
 * too short.
 */
int journal_ext_is_sb(const void *head, ssize_t n);

/*
 * Reads the journal device at path into j: its ext2 superblock (UUID,
 * label, block size, blocks) and its jbd2 superblock (the sb_* fields,
 * users), with j->ext_path set.  j may hold an external filesystem's model
 * (journal_load) or be fresh (zeroed by the caller).  An error when the
 * device cannot be read or is no journal device (EXT2_ET_BAD_MAGIC).
 */
errcode_t journal_ext_read(const char *path, struct e2l_journal *j);

/*
 * For s's filesystem with an external journal (j loaded by journal_load):
 * finds its device, --journal-dev (s->journal_dev) first, else by the
 * journal's UUID through libblkid, else by s_journal_dev's number, and
 * reads it (journal_ext_read).  Sets j->ext_how ("--journal-dev", "by
 * UUID") and j->ext_user (this filesystem's place among the users, or -1).
 * Not found: 0 with j->ext_path NULL.  A found device that is not the
 * journal (another UUID): E2L_ERR_BAD_ARGUMENT with j->ext_mismatch.
 */
errcode_t journal_ext_find(struct session *s, struct e2l_journal *j);

/*
 * Prints the layout of the external journal in j (read by journal_ext_read)
 * on s->out: the device, its size, where the journal superblock and the
 * log blocks lie, and the users.
 */
void journal_ext_print(struct session *s, const struct e2l_journal *j);

#endif

/* ksym.h - kernel addresses to function names through /proc/kallsyms (the
 * callers that in-kernel counters record as instruction pointers). */
#ifndef E2L_KSYM_H
#define E2L_KSYM_H

#include <ext2fs/ext2fs.h>
#include <stddef.h>

struct ksym {
	__u64 addr;
	char *name;
};

struct ksym_table {
	struct ksym *syms;	/* sorted by address */
	size_t n;
	char *names;		/* the names' storage */
};

/* Loads the kernel's text symbols; an empty table (not an error) when the
 * kernel hides its addresses (kptr_restrict). */
errcode_t ksym_load(struct ksym_table *t);

/* The function holding addr, or NULL when none is known. */
const char *ksym_name(const struct ksym_table *t, __u64 addr);

void ksym_free(struct ksym_table *t);

#endif

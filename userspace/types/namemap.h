/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names mapped to numbers (an index into the owner's array, mostly): a
 * hash table with its own copies of the names and a limit on how many it
 * holds.
 */
#ifndef KFT_NAMEMAP_H
#define KFT_NAMEMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "strtab.h"

struct namemap_slot {
	const char *name;	/* NULL: free */
	size_t value;
};

struct namemap {
	struct strtab names;
	struct namemap_slot *slots;
	size_t nr, cap;
	size_t max;		/* names held at most; 0: no limit */
};

/* @name's value set (added or replaced): 0, -ENOMEM, or -ENOSPC (full). */
int namemap__set(struct namemap *m, const char *name, size_t value);
/* @name's value in *value: false when it has none. */
bool namemap__get(const struct namemap *m, const char *name, size_t *value);
/* Every name dropped, the limit kept. */
void namemap__clear(struct namemap *m);

#endif

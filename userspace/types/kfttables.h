/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The enumerators and struct members that a type source's prototypes
 * point to, made once for each type and shared by every prototype that
 * uses the type. A struct of many enum members, pointed to by each
 * parameter of thousands of functions, would take megabytes a function
 * if each prototype had its own copy; shared, the tables take no more
 * than the type information they are made from. The source keeps them
 * until it is freed, and its prototypes are freed no later (kfttypes.c).
 */
#ifndef KFT_KFTTABLES_H
#define KFT_KFTTABLES_H

#include <stdbool.h>
#include <stddef.h>

#include "namemap.h"

struct kfttable {
	void *items;
	size_t nr;
};

struct kfttables {
	struct namemap index;		/* a type's key -> its index in tables */
	struct kfttable *tables;
	size_t nr, cap;
};

/*
 * The items kept for the type @key (a number that tells the source's
 * types apart: a BTF type's address, a DIE's offset), in *items and *nr:
 * false when there are none.
 */
bool kfttables__get(const struct kfttables *t, unsigned long long key, const void **items,
		    size_t *nr);
/*
 * items[0..nr) (from malloc, or NULL) kept for @key, the tables' from now
 * on: 0; -ENOMEM, or -ENOSPC when the tables hold all the types they may,
 * and then @items is freed.
 */
int kfttables__keep(struct kfttables *t, unsigned long long key, void *items, size_t nr);
void kfttables__free(struct kfttables *t);

#endif

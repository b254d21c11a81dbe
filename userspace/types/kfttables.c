// SPDX-License-Identifier: GPL-2.0
/* Type tables shared by a source's prototypes: see kfttables.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "kfttables.h"

/*
 * The types whose tables are kept at most: vmlinux's BTF has about
 * 150,000 types, of which the functions' parameters use far fewer.
 */
#define KFTTABLES_MAX	(1 << 20)

/* The name @key is indexed under. */
static void kfttables_name(unsigned long long key, char name[24])
{
	snprintf(name, 24, "%llx", key);
}

bool kfttables__get(const struct kfttables *t, unsigned long long key, const void **items,
		    size_t *nr)
{
	char name[24];
	size_t i;

	kfttables_name(key, name);
	if (!namemap__get(&t->index, name, &i))
		return false;
	*items = t->tables[i].items;
	*nr = t->tables[i].nr;
	return true;
}

/* Room for one more table: 0, or -ENOMEM. */
static int kfttables_room(struct kfttables *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	struct kfttable *tables;

	if (t->nr < t->cap)
		return 0;
	tables = realloc(t->tables, cap * sizeof(*tables));
	if (!tables)
		return -ENOMEM;
	t->tables = tables;
	t->cap = cap;
	return 0;
}

int kfttables__keep(struct kfttables *t, unsigned long long key, void *items, size_t nr)
{
	char name[24];
	int err;

	t->index.max = KFTTABLES_MAX;
	kfttables_name(key, name);
	err = kfttables_room(t);
	if (!err)
		err = namemap__set(&t->index, name, t->nr);
	if (err) {
		free(items);
		return err;
	}
	t->tables[t->nr].items = items;
	t->tables[t->nr].nr = nr;
	t->nr++;
	return 0;
}

void kfttables__free(struct kfttables *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->tables[i].items);
	free(t->tables);
	namemap__clear(&t->index);
	t->tables = NULL;
	t->nr = t->cap = 0;
}

// SPDX-License-Identifier: GPL-2.0
/* Names mapped to numbers: see namemap.h. Open addressing, linear probing. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "namemap.h"

/* The slot of @name: where it is, or the free one where it belongs. */
static size_t namemap_slot(const struct namemap_slot *slots, size_t cap, const char *name)
{
	size_t i = strtab__hash(name, strlen(name)) & (cap - 1);

	while (slots[i].name && strcmp(slots[i].name, name))
		i = (i + 1) & (cap - 1);
	return i;
}

static int namemap_grow(struct namemap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	struct namemap_slot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < m->cap; i++)
		if (m->slots[i].name)
			slots[namemap_slot(slots, cap, m->slots[i].name)] = m->slots[i];
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

int namemap__set(struct namemap *m, const char *name, size_t value)
{
	size_t i;

	if (m->cap && namemap__get(m, name, &i)) {
		m->slots[namemap_slot(m->slots, m->cap, name)].value = value;
		return 0;
	}
	if (m->max && m->nr >= m->max)
		return -ENOSPC;
	if ((m->nr + 1) * 2 > m->cap && namemap_grow(m))
		return -ENOMEM;
	i = namemap_slot(m->slots, m->cap, name);
	m->slots[i].name = strtab__add(&m->names, name, strlen(name));
	if (!m->slots[i].name)
		return -ENOMEM;
	m->slots[i].value = value;
	m->nr++;
	return 0;
}

bool namemap__get(const struct namemap *m, const char *name, size_t *value)
{
	size_t i;

	if (!m->cap)
		return false;
	i = namemap_slot(m->slots, m->cap, name);
	if (!m->slots[i].name)
		return false;
	*value = m->slots[i].value;
	return true;
}

void namemap__clear(struct namemap *m)
{
	strtab__free(&m->names);
	free(m->slots);
	m->slots = NULL;
	m->nr = m->cap = 0;
}

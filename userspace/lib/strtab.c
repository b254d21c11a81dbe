// SPDX-License-Identifier: GPL-2.0
/* String tables: see strtab.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "strtab.h"

#define STRTAB_CHUNK	(64 * 1024)

struct strtab_chunk {
	struct strtab_chunk *next;
	size_t used, size;
	char data[];
};

/* Room for n bytes: in the newest chunk, or a new one (bigger if need be). */
static char *strtab_room(struct strtab *st, size_t n)
{
	struct strtab_chunk *c = st->chunks;

	if (st->limit && (n > st->limit || st->bytes > st->limit - n)) {
		errno = EFBIG;
		return NULL;
	}
	if (!c || c->size - c->used < n) {
		size_t size = n > STRTAB_CHUNK ? n : STRTAB_CHUNK;

		c = malloc(sizeof(*c) + size);
		if (!c) {
			errno = ENOMEM;
			return NULL;
		}
		c->next = st->chunks;
		c->used = 0;
		c->size = size;
		st->chunks = c;
	}
	c->used += n;
	st->bytes += n;
	return c->data + c->used - n;
}

const char *strtab__add(struct strtab *st, const char *s, size_t len)
{
	char *copy;

	len = strnlen(s, len);	/* a string ends at a NUL byte, in the table too */
	copy = strtab_room(st, len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, s, len);
	copy[len] = '\0';
	return copy;
}

size_t strtab__hash(const char *s, size_t len)
{
	return (size_t)hash_bytes(s, len);
}

/* The slot of s: where it is, or the free one where it belongs. */
static size_t strtab_slot(const struct strtab *st, const char *s, size_t len)
{
	size_t i = strtab__hash(s, len) & (st->cap_slots - 1);

	while (st->slots[i] && (strncmp(st->slots[i], s, len) || st->slots[i][len]))
		i = (i + 1) & (st->cap_slots - 1);
	return i;
}

static int strtab_grow(struct strtab *st)
{
	struct strtab bigger = { .cap_slots = st->cap_slots ? st->cap_slots * 2 : 1024 };
	size_t i;

	bigger.slots = calloc(bigger.cap_slots, sizeof(*bigger.slots));
	if (!bigger.slots) {
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < st->cap_slots; i++)
		if (st->slots[i])
			bigger.slots[strtab_slot(&bigger, st->slots[i], strlen(st->slots[i]))] =
				st->slots[i];
	free(st->slots);
	st->slots = bigger.slots;
	st->cap_slots = bigger.cap_slots;
	return 0;
}

const char *strtab__intern(struct strtab *st, const char *s, size_t len)
{
	size_t i;

	len = strnlen(s, len);
	if ((st->nr_slots + 1) * 2 > st->cap_slots && strtab_grow(st))
		return NULL;
	i = strtab_slot(st, s, len);
	if (!st->slots[i]) {
		st->slots[i] = strtab__add(st, s, len);
		if (!st->slots[i])
			return NULL;
		st->nr_slots++;
	}
	return st->slots[i];
}

void strtab__free(struct strtab *st)
{
	struct strtab_chunk *c, *next;

	for (c = st->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(st->slots);
	st->chunks = NULL;
	st->slots = NULL;
	st->nr_slots = st->cap_slots = st->bytes = 0;
}

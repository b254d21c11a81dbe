// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks merged into a tree of frames: see flame.h. A frame's
 * children are found by a hash of (parent, name); names are interned, so
 * one name is one pointer.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "kd.h"
#include "words.h"

static size_t flame_hash(unsigned int parent, const char *name, size_t cap)
{
	uint64_t h = ((uint64_t)(uintptr_t)name >> 3) * 0x9E3779B97F4A7C15ull;

	h ^= (uint64_t)parent * 0xC2B2AE3D27D4EB4Full;
	return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

/* The slot of (parent, name): its frame's, or the empty one it would take. */
static size_t flame_slot(const struct flame *f, unsigned int parent, const char *name)
{
	size_t i = flame_hash(parent, name, f->cap_slots);

	while (f->slots[i]) {
		const struct flame_frame *fr = &f->frames[f->slots[i] - 1];

		if (fr->parent == parent && fr->name == name)
			break;
		i = (i + 1) & (f->cap_slots - 1);
	}
	return i;
}

static int flame_grow_slots(struct flame *f)
{
	size_t cap = f->cap_slots * 2, i;
	unsigned int *old = f->slots;
	size_t old_cap = f->cap_slots;

	f->slots = calloc(cap, sizeof(*f->slots));
	if (!f->slots) {
		f->slots = old;
		return -1;
	}
	f->cap_slots = cap;
	for (i = 0; i < old_cap; i++) {
		const struct flame_frame *fr;

		if (!old[i])
			continue;
		fr = &f->frames[old[i] - 1];
		f->slots[flame_slot(f, fr->parent, fr->name)] = old[i];
	}
	free(old);
	return 0;
}

static int flame_new_frame(struct flame *f, unsigned int parent, const char *name)
{
	struct flame_frame *p;

	if (f->nr >= f->max_frames) {
		errno = EOVERFLOW;
		return -1;
	}
	if (f->nr == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 1024;
		struct flame_frame *more = realloc(f->frames, cap * sizeof(*more));

		if (!more)
			return -1;
		f->frames = more;
		f->cap = cap;
	}
	p = &f->frames[parent];
	f->frames[f->nr] = (struct flame_frame){
		.name = name, .self = -1, .parent = parent, .sibling = p->child,
		.depth = p->depth + 1,
	};
	p->child = (unsigned int)f->nr;
	if (f->frames[f->nr].depth > f->depth)
		f->depth = f->frames[f->nr].depth;
	return (int)f->nr++;
}

long flame__child(struct flame *f, unsigned int parent, const char *s, size_t len)
{
	const char *name = strtab__intern(&f->names, s, len);
	size_t slot;
	int i;

	if (!name && errno == EFBIG)
		errno = EOVERFLOW;	/* EFBIG is kd's row limit */
	if (!name)
		return -1;
	if ((f->nr + 1) * 2 > f->cap_slots && flame_grow_slots(f))
		return -1;
	slot = flame_slot(f, parent, name);
	if (f->slots[slot])
		return f->slots[slot] - 1;
	i = flame_new_frame(f, parent, name);
	if (i < 0)
		return -1;
	f->slots[slot] = (unsigned int)i + 1;
	return i;
}

int flame__init(struct flame *f, const char *unit)
{
	memset(f, 0, sizeof(*f));
	f->unit = unit;
	f->max_frames = FLAME_MAX_FRAMES;
	f->names.limit = FLAME_MAX_NAME_BYTES;
	f->cap_slots = 1024;
	f->slots = calloc(f->cap_slots, sizeof(*f->slots));
	f->frames = malloc(1024 * sizeof(*f->frames));
	if (!f->slots || !f->frames) {
		flame__free(f);
		return -1;
	}
	f->cap = 1024;
	f->nr = 1;
	f->frames[0] = (struct flame_frame){ .name = "all", .self = -1 };
	return 0;
}

/* The number of frames in stack (empty ones do not count). */
static size_t flame_depth_of(const char *stack, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (stack[i] != ';' && (i == 0 || stack[i - 1] == ';'))
			n++;
	return n;
}

int flame__add(struct flame *f, const char *stack, size_t len, long long weight)
{
	const char *end = stack + len, *s, *e;
	unsigned int at = 0;
	long child;

	if (flame_depth_of(stack, len) > FLAME_MAX_DEPTH) {
		errno = E2BIG;
		return -1;
	}
	f->frames[0].samples = kd_time_add(f->frames[0].samples, weight);
	for (s = stack; s < end; s = e + 1) {
		e = memchr(s, ';', (size_t)(end - s));
		if (!e)
			e = end;
		if (e == s)
			continue;
		child = flame__child(f, at, s, (size_t)(e - s));
		if (child < 0)
			return -1;
		at = (unsigned int)child;
		f->frames[at].samples = kd_time_add(f->frames[at].samples, weight);
	}
	flame__end(f, at, weight);
	return 0;
}

void flame__end(struct flame *f, unsigned int i, long long weight)
{
	struct flame_frame *fr = &f->frames[i];

	fr->self = kd_time_add(fr->self < 0 ? 0 : fr->self, weight);
}

static int flame_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int flame__add_line(struct flame *f, const char *line, size_t len)
{
	struct word count;
	long long weight;
	size_t end = len, sp;

	while (end && flame_blank(line[end - 1]))
		end--;
	if (!end)
		return FLAME_BLANK;
	for (sp = end; sp && !flame_blank(line[sp - 1]); sp--)
		;
	count = (struct word){ line + sp, end - sp };
	while (sp && flame_blank(line[sp - 1]))
		sp--;
	if (!sp || memchr(line, '\0', len) || word_ll(&count, &weight) || weight < 0) {
		f->malformed++;
		return FLAME_MALFORMED;
	}
	f->lines++;
	if (!weight)
		return FLAME_STACK;
	return flame__add(f, line, sp, weight) ? -1 : FLAME_STACK;
}

const char *flame__strerror(int err)
{
	static char buf[160];

	switch (err) {
	case E2BIG:
		snprintf(buf, sizeof(buf), "a stack deeper than %d frames, kd's limit",
			 FLAME_MAX_DEPTH);
		return buf;
	case EOVERFLOW:
		snprintf(buf, sizeof(buf), "over kd's limit of %d frames (or %u MiB of names) "
			 "in a flame graph", FLAME_MAX_FRAMES, FLAME_MAX_NAME_BYTES >> 20);
		return buf;
	default:
		return strerror(err);
	}
}

void flame__free(struct flame *f)
{
	free(f->frames);
	free(f->slots);
	strtab__free(&f->names);
	memset(f, 0, sizeof(*f));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Prototypes the user wrote (kftparse.h), a source like the others: each
 * function's parsed prototype, found by its name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kftparse.h"
#include "kftsource.h"
#include "namemap.h"
#include "strtab.h"

/* The prototypes kept at most, and the bytes of their names. */
#define KFTWRITTEN_MAX		65536
#define KFTWRITTEN_MAX_NAMES	(16 << 20)

struct kftwritten {
	struct kftsource src;
	unsigned int word_bytes;
	struct strtab names;
	struct namemap by_name;		/* name -> index in protos */
	struct kftproto **protos;
	size_t nr, cap;
};

static struct kftproto *kftwritten_find(struct kftsource *src, const char *func)
{
	struct kftwritten *w = (struct kftwritten *)src;
	struct kftproto *copy;
	size_t i;

	if (!namemap__get(&w->by_name, func, &i)) {
		errno = ENOENT;
		return NULL;
	}
	copy = kftproto__dup(w->protos[i]);
	if (!copy)
		errno = ENOMEM;
	return copy;
}

static void kftwritten_free(struct kftsource *src)
{
	struct kftwritten *w = (struct kftwritten *)src;
	size_t i;

	for (i = 0; i < w->nr; i++)
		kftproto__free(w->protos[i]);
	free(w->protos);
	namemap__clear(&w->by_name);
	strtab__free(&w->names);
	free(w);
}

static const struct kftsource_ops kftwritten_ops = {
	.rank = KFTSOURCE_WRITTEN,
	.find = kftwritten_find,
	.free = kftwritten_free,
};

struct kftsource *kftwritten__new(unsigned int word_bytes)
{
	struct kftwritten *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->src.ops = &kftwritten_ops;
	w->word_bytes = word_bytes;
	w->names.limit = KFTWRITTEN_MAX_NAMES;
	w->by_name.max = KFTWRITTEN_MAX;
	return &w->src;
}

/* Room for one more prototype: 0, or -ENOMEM / -ENOSPC said. */
static int kftwritten_room(struct kftwritten *w, struct kfttypes_error *err)
{
	struct kftproto **protos;
	size_t cap = w->cap ? w->cap * 2 : 16;

	if (w->nr >= KFTWRITTEN_MAX) {
		snprintf(err->msg, sizeof(err->msg), "more than %d prototypes", KFTWRITTEN_MAX);
		return -ENOSPC;
	}
	if (w->nr < w->cap)
		return 0;
	protos = realloc(w->protos, cap * sizeof(*protos));
	if (!protos) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -ENOMEM;
	}
	w->protos = protos;
	w->cap = cap;
	return 0;
}

/*
 * Whether the prototype in text[0..len) may be added: it parses, there is
 * room, and its function has none yet. Its names go to a table of their
 * own, dropped: a refused prototype leaves none in the source's table,
 * whose limit would else be reached by prototypes never kept. 0, or a
 * negative errno with @err said.
 */
static int kftwritten_check(struct kftwritten *w, const char *text, size_t len,
			    struct kfttypes_error *err)
{
	struct strtab scratch = { .limit = KFTWRITTEN_MAX_NAMES };
	struct kftproto *p = kftparse__prototype(text, len, w->word_bytes, &scratch, err);
	size_t i;
	int e = p ? kftwritten_room(w, err) : -EINVAL;

	if (!e && namemap__get(&w->by_name, p->name, &i)) {
		snprintf(err->msg, sizeof(err->msg), "%s has a prototype already", p->name);
		err->column = 0;
		e = -EEXIST;
	}
	kftproto__free(p);
	strtab__free(&scratch);
	return e;
}

int kftwritten__add(struct kftsource *src, const char *text, size_t len,
		    struct kfttypes_error *err)
{
	struct kftwritten *w = (struct kftwritten *)src;
	struct kftproto *p;
	int e = kftwritten_check(w, text, len, err);

	if (e)
		return e;
	/* Parsed again, its names now in the table the kept prototypes use. */
	p = kftparse__prototype(text, len, w->word_bytes, &w->names, err);
	if (!p)
		return -EINVAL;
	if (namemap__set(&w->by_name, p->name, w->nr)) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		kftproto__free(p);
		return -ENOMEM;
	}
	w->protos[w->nr++] = p;
	return 0;
}

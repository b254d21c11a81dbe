// SPDX-License-Identifier: GPL-2.0
/*
 * Typed calls (kfttypes.h): the sources in rank order (BTF, DWARF,
 * written prototypes; in the order added within a rank), and what they
 * said of each function asked about, kept: a log names the same few
 * thousand functions millions of times. A function no source knows is
 * kept too (as none), until a source is added: then it is asked again. A
 * prototype found stays the function's: sources come before the calls
 * that need them (a module's BTF before its first call is printed), and
 * asking again would make a new prototype of each function for every
 * module added.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kftcall.h"
#include "kftparse.h"
#include "kftsource.h"
#include "kfttypes.h"
#include "namemap.h"

/* The functions whose prototypes are kept at most; past them, calls print in hex. */
#define KFTTYPES_MAX_KEPT	65536
/* The longest function name looked up. */
#define KFTTYPES_MAX_NAME	512
/* No prototype: a function no source knew, as of the sources' generation @g. */
#define KFTTYPES_NONE_BASE	(SIZE_MAX / 2)
#define KFTTYPES_NONE(g)	(KFTTYPES_NONE_BASE + (g) % KFTTYPES_NONE_BASE)

struct kfttypes {
	unsigned int word_bytes;
	struct kftsource *sources;	/* by rank */
	struct kftsource *written;	/* the written prototypes, in sources */
	struct namemap kept;		/* name -> index in protos, or KFTTYPES_NONE() */
	size_t sources_gen;		/* sources added so far */
	struct kftproto **protos;
	size_t nr, cap;
};

struct kfttypes *kfttypes__new(unsigned int word_bytes)
{
	struct kfttypes *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->word_bytes = word_bytes == 4 || word_bytes == 8 ? word_bytes : sizeof(long);
	t->kept.max = KFTTYPES_MAX_KEPT;
	return t;
}

void kfttypes__free(struct kfttypes *t)
{
	struct kftsource *s, *next;
	size_t i;

	if (!t)
		return;
	for (s = t->sources; s; s = next) {
		next = s->next;
		s->ops->free(s);
	}
	for (i = 0; i < t->nr; i++)
		kftproto__free(t->protos[i]);
	free(t->protos);
	namemap__clear(&t->kept);
	free(t);
}

/*
 * @src in the list after the sources of its rank and the ranks before;
 * the functions kept as unknown are asked about again (the new one may
 * know them).
 */
static void kfttypes_add(struct kfttypes *t, struct kftsource *src)
{
	struct kftsource **at = &t->sources;

	while (*at && (*at)->ops->rank <= src->ops->rank)
		at = &(*at)->next;
	src->next = *at;
	*at = src;
	t->sources_gen++;
}

static int kfttypes_added(struct kfttypes *t, struct kftsource *src)
{
	if (!src)
		return errno ? -errno : -EINVAL;
	kfttypes_add(t, src);
	return 0;
}

int kfttypes__add_btf(struct kfttypes *t, const char *path, const char *base_path,
		      struct kfttypes_error *err)
{
	struct kftsource *base = NULL;

	/* Every module's BTF over one copy of vmlinux's, where it is a source. */
	if (base_path)
		for (base = t->sources; base && !kftbtf__read_from(base, base_path);)
			base = base->next;
	return kfttypes_added(t, kftbtf__open(path, base, base_path, err));
}

int kfttypes__add_dwarf(struct kfttypes *t, const char *path, struct kfttypes_error *err)
{
	return kfttypes_added(t, kftdwarf__open(path, err));
}

int kfttypes__add_prototype(struct kfttypes *t, const char *text, struct kfttypes_error *err)
{
	return kfttypes__add_prototype_text(t, text, strnlen(text, KFTPARSE_MAX_LEN + 1), err);
}

int kfttypes__add_prototype_text(struct kfttypes *t, const char *text, size_t len,
				 struct kfttypes_error *err)
{
	int e;

	if (!t->written) {
		t->written = kftwritten__new(t->word_bytes);
		if (!t->written) {
			err->column = 0;
			snprintf(err->msg, sizeof(err->msg), "out of memory");
			return -ENOMEM;
		}
		kfttypes_add(t, t->written);
	}
	e = kftwritten__add(t->written, text, len, err);
	if (!e)
		t->sources_gen++;
	return e;
}

/* The first source's prototype of @func: NULL when none knows it. */
static struct kftproto *kfttypes_ask(struct kfttypes *t, const char *func)
{
	struct kftsource *s;
	struct kftproto *p;

	for (s = t->sources; s; s = s->next) {
		errno = 0;
		p = s->ops->find(s, func);
		if (p || errno != ENOENT)
			return p;
	}
	return NULL;
}

/* @p kept for @func (NULL: as none known): false when there is no room. */
static bool kfttypes_keep(struct kfttypes *t, const char *func, struct kftproto *p)
{
	if (p && t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct kftproto **protos = realloc(t->protos, cap * sizeof(*protos));

		if (!protos)
			return false;
		t->protos = protos;
		t->cap = cap;
	}
	if (namemap__set(&t->kept, func, p ? t->nr : KFTTYPES_NONE(t->sources_gen)))
		return false;
	if (p)
		t->protos[t->nr++] = p;
	return true;
}

const struct kftproto *kfttypes__find(struct kfttypes *t, const char *func)
{
	const char *colon = strchr(func, ':');
	struct kftproto *p;
	size_t i;

	if (colon)
		func = colon + 1;	/* "module:name": the name */
	if (!func[0] || strnlen(func, KFTTYPES_MAX_NAME + 1) > KFTTYPES_MAX_NAME)
		return NULL;
	if (namemap__get(&t->kept, func, &i)) {
		if (i < KFTTYPES_NONE_BASE)
			return t->protos[i];
		if (i == KFTTYPES_NONE(t->sources_gen))
			return NULL;
	}
	p = kfttypes_ask(t, func);
	if (!kfttypes_keep(t, func, p)) {
		kftproto__free(p);
		return NULL;
	}
	return p;
}

size_t kfttypes__format_shown(struct kfttypes *t, const char *func, const char *shown,
			      const struct kfttypes_call *call, unsigned int flags, char *buf,
			      size_t len)
{
	const struct kftproto *p = kfttypes__find(t, func);

	if (!shown)
		shown = func;
	if (!p)
		return kftcall__format_untyped(shown, call, t->word_bytes, flags, buf, len);
	return kftcall__format(p, shown, call, t->word_bytes, flags, buf, len);
}

size_t kfttypes__format_call(struct kfttypes *t, const char *func,
			     const struct kfttypes_call *call, unsigned int flags, char *buf,
			     size_t len)
{
	return kfttypes__format_shown(t, func, NULL, call, flags, buf, len);
}

size_t kfttypes__format_register(struct kfttypes *t, const char *func, int reg,
				 unsigned long long v, bool hidden, unsigned int flags, char *buf,
				 size_t len)
{
	return kftcall__format_register(kfttypes__find(t, func), reg, v, hidden, t->word_bytes,
					flags, buf, len);
}

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
 *
 * A function is kept by its name as the log names it: "module:name" is a
 * module's, whose static function may share its name with vmlinux's or
 * another module's. Each source knows whose functions it describes
 * (kftsource.h): a module's function is asked of that module's sources
 * first, then of those that are anyone's, never of the others.
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

/* @src is of the module whose name is name[0..len): kbuild's '_' for a file's '-'. */
static void kfttypes_owned_by(struct kftsource *src, const char *name, size_t len)
{
	size_t i;

	if (!len || len >= sizeof(src->module))
		return;		/* no module's name: anyone's */
	for (i = 0; i < len; i++)
		src->module[i] = name[i] == '-' ? '_' : name[i];
	src->module[len] = '\0';
	src->owner = KFTSOURCE_MODULE;
}

/*
 * Whose functions the DWARF at @path describes, by the file's name:
 * MODULE.ko's (or MODULE.ko.debug's) are that module's, kbuild names a
 * module's file after it; a vmlinux's are the kernel proper's; any other
 * file's are anyone's (an object, whose functions may be either).
 */
static void kfttypes_dwarf_owner(struct kftsource *src, const char *path)
{
	const char *base = strrchr(path, '/'), *ko;

	base = base ? base + 1 : path;
	ko = strstr(base, ".ko");
	if (ko && (!ko[3] || ko[3] == '.'))
		kfttypes_owned_by(src, base, (size_t)(ko - base));
	else if (!strncmp(base, "vmlinux", 7))
		src->owner = KFTSOURCE_KERNEL;
}

/* The BTF at @path, split over @base_path's; @module: whose it is (NULL: see below). */
static int kfttypes_add_btf(struct kfttypes *t, const char *path, const char *base_path,
			    const char *module, struct kfttypes_error *err)
{
	struct kftsource *base = NULL, *src;

	/* Every module's BTF over one copy of vmlinux's, where it is a source. */
	if (base_path)
		for (base = t->sources; base && !kftbtf__read_from(base, base_path);)
			base = base->next;
	src = kftbtf__open(path, base, base_path, err);
	/*
	 * BTF without a base is a vmlinux's. Split BTF of a module not named
	 * (a --btf file's: its name need not be the module's) is anyone's: it
	 * knows its own functions only, not its base's.
	 */
	if (src && module)
		kfttypes_owned_by(src, module, strlen(module));
	else if (src && !base_path)
		src->owner = KFTSOURCE_KERNEL;
	return kfttypes_added(t, src);
}

int kfttypes__add_btf(struct kfttypes *t, const char *path, const char *base_path,
		      struct kfttypes_error *err)
{
	return kfttypes_add_btf(t, path, base_path, NULL, err);
}

int kfttypes__add_module_btf(struct kfttypes *t, const char *module, const char *path,
			     const char *base_path, struct kfttypes_error *err)
{
	return kfttypes_add_btf(t, path, base_path, module, err);
}

int kfttypes__add_dwarf(struct kfttypes *t, const char *path, struct kfttypes_error *err)
{
	struct kftsource *src = kftdwarf__open(path, err);

	if (src)
		kfttypes_dwarf_owner(src, path);
	return kfttypes_added(t, src);
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

/*
 * Whether @s is asked, in @pass (0, then 1), about a function of
 * module[0..len) (NULL: a name without a module, of which every source is
 * asked in the first pass): the module's own sources first, then
 * anyone's. "vmlinux" is no module's name: the kernel proper's sources
 * are its own.
 */
static bool kfttypes_asks(const struct kftsource *s, const char *module, size_t len, int pass)
{
	if (!module)
		return !pass;
	if (pass)
		return s->owner == KFTSOURCE_ANY;
	if (len == strlen(KFTTYPES_KERNEL) && !strncmp(module, KFTTYPES_KERNEL, len))
		return s->owner == KFTSOURCE_KERNEL;
	return s->owner == KFTSOURCE_MODULE && !strncmp(s->module, module, len) &&
	       !s->module[len];
}

/*
 * The first source's prototype of @name, a function of module[0..len)
 * (NULL: none named): NULL when none knows it.
 */
static struct kftproto *kfttypes_ask(struct kfttypes *t, const char *module, size_t len,
				     const char *name)
{
	struct kftsource *s;
	struct kftproto *p;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (s = t->sources; s; s = s->next) {
			if (!kfttypes_asks(s, module, len, pass))
				continue;
			errno = 0;
			p = s->ops->find(s, name);
			if (p || errno != ENOENT)
				return p;
		}
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
	const char *name = colon ? colon + 1 : func;
	size_t i, len = colon ? (size_t)(colon - func) : 0;
	struct kftproto *p;

	if (!name[0] || strnlen(name, KFTTYPES_MAX_NAME + 1) > KFTTYPES_MAX_NAME ||
	    len >= KFTSOURCE_MODULE_MAX)
		return NULL;
	/* Kept as the log names it: "module:name" is not vmlinux's name. */
	if (namemap__get(&t->kept, func, &i)) {
		if (i < KFTTYPES_NONE_BASE)
			return t->protos[i];
		if (i == KFTTYPES_NONE(t->sources_gen))
			return NULL;
	}
	p = kfttypes_ask(t, colon ? func : NULL, len, name);
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

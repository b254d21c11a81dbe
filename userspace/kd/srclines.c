// SPDX-License-Identifier: GPL-2.0
/*
 * kd --srcline: each call's source lines, from the DWARF of the files
 * given, in the text every command that prints calls shows
 * (srcline__text()): a call's function at the line of its entry
 * ("fs/open.c:1380"), its caller at the line of the call with the
 * inlined calls it lies in ("build_open_how fs/open.c:1391 <-
 * do_sys_open fs/open.c:1420"). A log repeats a few thousand addresses
 * many times: each word is looked up once (the log keeps one copy of
 * each, so its pointer is its key) and its text kept once in the tree's
 * names.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kd.h"
#include "srcline/srcline.h"

/* The text of each word looked up, by the word's pointer and kind. */
struct kd_srcline_cache {
	struct kd_srcline_slot {
		const char *word;
		int is_return;
		const char *text;
	} *slots;
	size_t cap, nr;
};

static size_t kd_srcline_slot(const struct kd_srcline_cache *c, const char *word, int is_return)
{
	size_t i = (((uintptr_t)word >> 3) * 2654435761u + (size_t)is_return) & (c->cap - 1);

	while (c->slots[i].word && (c->slots[i].word != word || c->slots[i].is_return != is_return))
		i = (i + 1) & (c->cap - 1);
	return i;
}

static int kd_srcline_grow(struct kd_srcline_cache *c)
{
	struct kd_srcline_cache bigger = { .cap = c->cap ? c->cap * 2 : 256, .nr = c->nr };
	size_t i;

	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (i = 0; i < c->cap; i++)
		if (c->slots[i].word)
			bigger.slots[kd_srcline_slot(&bigger, c->slots[i].word,
						     c->slots[i].is_return)] = c->slots[i];
	free(c->slots);
	*c = bigger;
	return 0;
}

/* The text of word (a function's, or a caller's), looked up once; NULL with errno. */
static const char *kd_srcline_of(struct kd_tree *t, struct kd_srcline_cache *c,
				 struct srcline *sl, const struct ksyms *ks, const char *word,
				 int is_return)
{
	char text[SRCLINE_TEXT_MAX];
	size_t i;

	if ((c->nr + 1) * 2 > c->cap && kd_srcline_grow(c))
		return NULL;
	i = kd_srcline_slot(c, word, is_return);
	if (c->slots[i].word)
		return c->slots[i].text;
	if (srcline__text(sl, ks, word, is_return ? SRCLINE_RETURN : SRCLINE_ENTRY, text,
			  sizeof(text))) {
		errno = ENOMEM;
		return NULL;
	}
	c->slots[i] = (struct kd_srcline_slot){
		.word = word, .is_return = is_return,
		.text = strtab__intern(&t->names, text, strlen(text)),
	};
	if (!c->slots[i].text)
		return NULL;
	c->nr++;
	return c->slots[i].text;
}

int kd_srclines(struct kd_tree *t, struct srcline *sl, const struct ksyms *ks)
{
	struct kd_srcline_cache cache = { 0 };
	size_t i;
	int ret = 0;

	for (i = 0; i < t->nr && !ret; i++) {
		struct kd_call *c = &t->calls[i];

		c->src = kd_srcline_of(t, &cache, sl, ks, c->row->func, 0);
		c->caller_src = c->src ? kd_srcline_of(t, &cache, sl, ks, c->row->caller, 1) : NULL;
		ret = c->caller_src ? 0 : -1;
	}
	free(cache.slots);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/* Folded stacks: see kd.h. */
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "kd.h"

int kd_foldbuf_push(struct kd_foldbuf *b, const char *name, size_t len)
{
	size_t need = b->len + len + 2, i;

	if (need > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *more;

		while (cap < need)
			cap *= 2;
		more = realloc(b->s, cap);
		if (!more)
			return -1;
		b->s = more;
		b->cap = cap;
	}
	if (b->len)
		b->s[b->len++] = ';';
	for (i = 0; i < len; i++)
		b->s[b->len++] = name[i] == ';' ? '_' : name[i];
	b->s[b->len] = '\0';
	return 0;
}

int kd_folds_add(struct kd_folds *f, struct kd_foldbuf *b, long long weight)
{
	char *stack = malloc(b->len + 1);

	if (!stack)
		return -1;
	memcpy(stack, b->len ? b->s : "", b->len + 1);
	b->len = 0;
	if (f->nr == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 256;
		struct kd_fold *more = realloc(f->items, cap * sizeof(*more));

		if (!more) {
			free(stack);
			return -1;
		}
		f->items = more;
		f->cap = cap;
	}
	f->items[f->nr++] = (struct kd_fold){ stack, weight };
	return 0;
}

static int kd_cmp_fold(const void *a, const void *b)
{
	return strcmp(((const struct kd_fold *)a)->stack, ((const struct kd_fold *)b)->stack);
}

void kd_folds_merge(struct kd_folds *f)
{
	size_t i, n = 0;

	if (!f->nr)
		return;
	qsort(f->items, f->nr, sizeof(*f->items), kd_cmp_fold);
	for (i = 1; i < f->nr; i++) {
		if (!strcmp(f->items[i].stack, f->items[n].stack)) {
			f->items[n].weight = kd_time_add(f->items[n].weight, f->items[i].weight);
			free(f->items[i].stack);
		} else {
			f->items[++n] = f->items[i];
		}
	}
	f->nr = n + 1;
}

void kd_folds_print(FILE *out, const struct kd_folds *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		fprintf(out, "%s %lld\n", f->items[i].stack, f->items[i].weight);
}

void kd_folds_free(struct kd_folds *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		free(f->items[i].stack);
	free(f->items);
	memset(f, 0, sizeof(*f));
}

int kd_folds_draw(FILE *out, const struct kd_folds *f, const char *unit,
		  const struct kd_params *p)
{
	struct flame fl;
	size_t i;
	int ret;

	if (flame__init(&fl, unit))
		return -1;
	for (i = 0, ret = 0; i < f->nr && !ret; i++)
		ret = flame__add(&fl, f->items[i].stack, strlen(f->items[i].stack),
				 f->items[i].weight);
	if (!ret)
		ret = flame__svg(out, &fl, p->title);
	flame__free(&fl);
	return ret;
}

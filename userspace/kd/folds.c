// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks: see kd.h. The tree is a struct flame's (flame.c finds a
 * frame's child by a hash of (parent, name)); each frame keeps the weight
 * of the stacks that end at it (its self, -1 for none).
 *
 * The lines come out in the order strcmp() gives the lines "a;b;c" (the
 * order kd wrote before it had a tree), without making every line to sort
 * it. The lines under a frame all start with its own line's text, so
 * those that continue it ("<its line>;...") are a run of lines in that
 * order, and its own line is the one that stops there. Among a frame's
 * children, a child is thus two items: its own line, its name followed by
 * '\0', and the run of its callees' lines, its name followed by ';'.
 * Sorting a frame's items by those keys and walking them depth first
 * writes the lines in order: "a" < "a.b" < "a;x", although a (with a's
 * callees) and a.b are siblings.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kd.h"

int kd_folds_init(struct kd_folds *f)
{
	memset(f, 0, sizeof(*f));
	if (flame__init(&f->tree, ""))
		return -1;
	/* The log's limits bound the stacks already: a frame per call at most. */
	f->tree.max_frames = INT_MAX;
	f->tree.names.limit = 0;
	return 0;
}

/*
 * A flame graph takes stacks of at most FLAME_MAX_DEPTH frames. So that
 * every stack kd folds makes one, kd's own from --folded's lines as well,
 * the last frame a stack may have is KD_FOLDS_DEEPER, and the calls from
 * there on are folded into it: it takes their weight, so no time is lost.
 */
static long kd_folds_deeper(struct kd_folds *f, unsigned int parent)
{
	if (f->tree.frames[parent].depth == FLAME_MAX_DEPTH)
		return parent;	/* KD_FOLDS_DEEPER itself */
	return flame__child(&f->tree, parent, KD_FOLDS_DEEPER, strlen(KD_FOLDS_DEEPER));
}

long kd_folds_frame(struct kd_folds *f, unsigned int parent, const char *name, size_t len)
{
	size_t i;

	/*
	 * Empty names before a stack's first other one leave no trace in its
	 * line ("" then "b" is "b", as kd's lines always were): no frame.
	 */
	if (!len && !parent)
		return 0;
	if (f->tree.frames[parent].depth >= FLAME_MAX_DEPTH - 1)
		return kd_folds_deeper(f, parent);

	/* ';' separates frames: as flamegraph.pl's stackcollapse, it becomes '_'. */
	if (memchr(name, ';', len)) {
		if (len + 1 > f->name_cap) {
			char *more = realloc(f->name, len + 1);

			if (!more)
				return -1;
			f->name = more;
			f->name_cap = len + 1;
		}
		for (i = 0; i < len; i++)
			f->name[i] = name[i] == ';' ? '_' : name[i];
		name = f->name;
	}
	return flame__child(&f->tree, parent, name, len);
}

void kd_folds_add(struct kd_folds *f, unsigned int frame, long long weight)
{
	flame__end(&f->tree, frame, weight);
}

/* A frame's own line (block 0), or the run of its callees' lines (block 1). */
struct kd_fold_item {
	unsigned int frame;
	unsigned int block;
};

/* A frame whose items are being walked: items[next .. end) are left. */
struct kd_fold_level {
	size_t next, end;
	size_t len;		/* of its line */
	unsigned int frame;
};

struct kd_fold_walk {
	const struct flame *tree;
	struct kd_fold_item *items;	/* the levels' items, a stack */
	struct kd_fold_level *levels;
	char *line;
	size_t cap;
	int (*visit)(void *ctx, const char *line, size_t len, long long weight);
	void *ctx;
};

static const struct flame *kd_fold_sorting;

/* As strcmp() on the lines: a name then '\0' (its own line) or ';' (callees). */
static int kd_fold_cmp(const void *a, const void *b)
{
	const struct kd_fold_item *x = a, *y = b;
	const unsigned char *p = (const unsigned char *)kd_fold_sorting->frames[x->frame].name;
	const unsigned char *q = (const unsigned char *)kd_fold_sorting->frames[y->frame].name;
	int cp, cq;

	while (*p && *p == *q)
		p++, q++;
	cp = *p ? *p : x->block ? ';' : 0;
	cq = *q ? *q : y->block ? ';' : 0;
	return cp - cq;
}

/* Frame i's children as sorted items at items; how many. */
static size_t kd_fold_items(const struct flame *t, unsigned int i, struct kd_fold_item *items)
{
	unsigned int c;
	size_t n = 0;

	for (c = t->frames[i].child; c; c = t->frames[c].sibling) {
		if (t->frames[c].self >= 0)
			items[n++] = (struct kd_fold_item){ c, 0 };
		if (t->frames[c].child)
			items[n++] = (struct kd_fold_item){ c, 1 };
	}
	kd_fold_sorting = t;
	qsort(items, n, sizeof(*items), kd_fold_cmp);
	return n;
}

/* The line of item it under level l: l's line, ';' unless l is the root, the name. */
static int kd_fold_line(struct kd_fold_walk *w, const struct kd_fold_level *l,
			const struct kd_fold_item *it, size_t *len)
{
	const char *name = w->tree->frames[it->frame].name;
	size_t n = strlen(name), need = l->len + n + 2;

	if (need > w->cap) {
		size_t cap = w->cap ? w->cap : 256;
		char *more;

		while (cap < need)
			cap *= 2;
		more = realloc(w->line, cap);
		if (!more)
			return -1;
		w->line = more;
		w->cap = cap;
	}
	*len = l->len;
	if (l->frame)
		w->line[(*len)++] = ';';
	memcpy(w->line + *len, name, n);
	*len += n;
	return 0;
}

/* Every line, in order, to w->visit; depth first without recursion (any depth). */
static int kd_fold_walk(struct kd_fold_walk *w)
{
	size_t top = 1, len, n;
	struct kd_fold_level *l;

	/* A stack of empty names only is the empty line, first in order. */
	if (w->tree->frames[0].self >= 0 && w->visit(w->ctx, "", 0, w->tree->frames[0].self))
		return -1;
	n = kd_fold_items(w->tree, 0, w->items);
	w->levels[0] = (struct kd_fold_level){ .end = n };
	while (top) {
		struct kd_fold_item it;

		l = &w->levels[top - 1];
		if (l->next == l->end) {
			top--;
			continue;
		}
		it = w->items[l->next++];
		if (kd_fold_line(w, l, &it, &len))
			return -1;
		if (!it.block) {
			if (w->visit(w->ctx, w->line, len, w->tree->frames[it.frame].self))
				return -1;
			continue;
		}
		n = kd_fold_items(w->tree, it.frame, w->items + l->end);
		w->levels[top++] = (struct kd_fold_level){
			.next = l->end, .end = l->end + n, .len = len,
			.frame = it.frame,
		};
	}
	return 0;
}

/*
 * The lines of f to visit. A level's items sit after its parent's, and a
 * frame's children are items of one level only: 2 items a frame, and a
 * level a frame of the deepest stack, are enough.
 */
static int kd_folds_walk(const struct kd_folds *f,
			 int (*visit)(void *ctx, const char *line, size_t len, long long weight),
			 void *ctx)
{
	struct kd_fold_walk w = { .tree = &f->tree, .visit = visit, .ctx = ctx };
	int ret = -1;

	w.items = malloc(2 * f->tree.nr * sizeof(*w.items));
	w.levels = malloc(((size_t)f->tree.depth + 1) * sizeof(*w.levels));
	if (w.items && w.levels)
		ret = kd_fold_walk(&w);
	free(w.items);
	free(w.levels);
	free(w.line);
	return ret;
}

static int kd_fold_print_line(void *ctx, const char *line, size_t len, long long weight)
{
	fwrite(line, 1, len, ctx);
	fprintf(ctx, " %lld\n", weight);
	return 0;
}

int kd_folds_print(FILE *out, const struct kd_folds *f)
{
	return kd_folds_walk(f, kd_fold_print_line, out);
}

static int kd_fold_draw_line(void *ctx, const char *line, size_t len, long long weight)
{
	return flame__add(ctx, line, len, weight);
}

int kd_folds_draw(FILE *out, const struct kd_folds *f, const char *unit,
		  const struct kd_params *p)
{
	struct flame fl;
	int ret;

	if (flame__init(&fl, unit))
		return -1;
	ret = kd_folds_walk(f, kd_fold_draw_line, &fl);
	if (!ret)
		ret = flame__svg(out, &fl, p->title);
	flame__free(&fl);
	return ret;
}

void kd_folds_free(struct kd_folds *f)
{
	flame__free(&f->tree);
	free(f->name);
	memset(f, 0, sizeof(*f));
}

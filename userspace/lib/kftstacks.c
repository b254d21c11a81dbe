// SPDX-License-Identifier: GPL-2.0
/* The blocks of a stacks-mode log: see kftstacks.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "kftstacks.h"
#include "words.h"

/* Room for one more of an array's n items of size bytes (at most max); -1: none. */
static int kftstacks_grow(void **items, size_t *cap, size_t n, size_t size, size_t max)
{
	void *more = array_room(*items, cap, n, size, max);

	if (!more)
		return -1;
	*items = more;
	return 0;
}

static int kftstacks_full(const struct kftstacks *st, size_t max_items)
{
	if (st->nr + st->nr_frames < max_items)
		return 0;
	errno = EFBIG;
	return 1;
}

/*
 * The comm: the rest of the line from its first word w, without its line
 * end, up to an event's args word (args in stacks mode: the kernel writes
 * a comm's blanks escaped, so " args=" is no comm's).
 */
static struct word kftstacks_comm(const char *line, size_t len, const struct word *w)
{
	static const char args[] = " args=";
	const char *end = line + len, *p;

	while (end > w->s && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	for (p = w->s; p + sizeof(args) - 1 <= end; p++) {
		if (!memcmp(p, args, sizeof(args) - 1)) {
			end = p;
			break;
		}
	}
	return (struct word){ w->s, (size_t)(end - w->s) };
}

/*
 * The number after word *i, which may be named first ("pid 345" or "345");
 * *i moves past it. -1 if there is none in min..0x7fffffff.
 */
static int kftstacks_field(const struct word *w, size_t n, size_t *i, const char *key,
			   long long min, long long *v)
{
	if (*i + 1 < n && word_is(&w[*i], key))
		(*i)++;
	if (*i >= n || word_ll(&w[*i], v) || *v < min || *v > 0x7fffffff)
		return -1;
	(*i)++;
	return 0;
}

/*
 * "stack COUNT [pid] PID [comm] COMM" or "event TIME_US [cpu] CPU [pid]
 * PID [comm] COMM" into b (its comm left NULL), *comm the first word of
 * the comm; -1 if the line is neither. The spec's example names the
 * fields ("stack 1000 pid 345 comm bash"), its synopsis does not.
 */
static int kftstacks_head(const char *line, size_t len, struct kftstacks_block *b,
			  struct word *comm)
{
	struct word w[8];
	size_t n = words_split(line, len, w, 8), i = 2;
	long long pid, cpu = -1;

	b->event = n > 0 && word_is(&w[0], "event");
	b->count = 1;
	b->time = -1;
	if (n < 2 || word_ll(&w[1], b->event ? &b->time : &b->count) || b->time < -1 ||
	    b->count < 0)
		return -1;
	if (b->event && kftstacks_field(w, n, &i, "cpu", 0, &cpu))
		return -1;
	if (kftstacks_field(w, n, &i, "pid", -1, &pid))
		return -1;
	if (i + 1 < n && word_is(&w[i], "comm"))
		i++;
	if (i >= n)
		return -1;
	*comm = w[i];
	b->pid = (int)pid;
	b->cpu = (int)cpu;
	return 0;
}

static int kftstacks_block(struct kftstacks *st, struct strtab *names, const char *line,
			   size_t len, size_t max_items)
{
	struct kftstacks_block b = { 0 };
	struct word first, comm;

	if (kftstacks_head(line, len, &b, &first))
		return KFTSTACKS_MALFORMED;
	comm = kftstacks_comm(line, len, &first);
	b.comm = strtab__intern(names, comm.s, comm.len);
	if (!b.comm || kftstacks_full(st, max_items) ||
	    kftstacks_grow((void **)&st->blocks, &st->cap, st->nr, sizeof(b), max_items))
		return -1;
	b.first = st->nr_frames;
	st->blocks[st->nr++] = b;
	st->started = st->in_block = 1;
	return KFTSTACKS_BLOCK;
}

/* "[name]": a module. */
static int kftstacks_is_module(const struct word *w)
{
	return w->len > 2 && w->s[0] == '[' && w->s[w->len - 1] == ']';
}

/* "  ADDRESS SYMBOL [MODULE]": a frame of the last block. */
static int kftstacks_frame(struct kftstacks *st, struct strtab *names, const char *line,
			   size_t len, size_t max_items)
{
	struct kftstacks_frame f = { 0 };
	struct word w[3];
	size_t n = words_split(line, len, w, 3);
	const struct word *sym = &w[n > 1 ? 1 : 0];
	int module = n == 3 && kftstacks_is_module(&w[2]);

	if (!st->in_block)
		return KFTSTACKS_MALFORMED;
	if (kftstacks_full(st, max_items) ||
	    kftstacks_grow((void **)&st->frames, &st->cap_frames, st->nr_frames, sizeof(f),
			   max_items))
		return -1;
	f.sym = strtab__intern(names, sym->s, sym->len);
	if (module)
		f.module = strtab__intern(names, w[2].s + 1, w[2].len - 2);
	if (!f.sym || (module && !f.module))
		return -1;
	st->frames[st->nr_frames++] = f;
	st->blocks[st->nr - 1].nr++;
	return KFTSTACKS_FRAME;
}

int kftstacks__line(struct kftstacks *st, struct strtab *names, const char *line, size_t len,
		    size_t max_items)
{
	struct word w;

	if (line && words_split(line, len, &w, 1) == 0) {
		st->in_block = 0;	/* a blank line ends a block */
		return KFTSTACKS_TEXT;
	}
	/* A NUL byte would cut a name short: no line of a block has one. */
	if (!line || memchr(line, '\0', len))
		return st->started ? KFTSTACKS_MALFORMED : KFTSTACKS_TEXT;
	if (word_is(&w, "stack") || word_is(&w, "event")) {
		st->in_block = 0;	/* a malformed head takes no frames */
		return kftstacks_block(st, names, line, len, max_items);
	}
	if (!st->started)
		return KFTSTACKS_TEXT;
	if (line[0] == ' ' || line[0] == '\t')
		return kftstacks_frame(st, names, line, len, max_items);
	st->in_block = 0;
	return KFTSTACKS_MALFORMED;
}

void kftstacks__free(struct kftstacks *st)
{
	free(st->blocks);
	free(st->frames);
	memset(st, 0, sizeof(*st));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A stacks- or profile-mode /proc/kft_data (Documentation/stacks.rst,
 * section 3): the header, then a block per distinct stack, most counted
 * first, and with "snoop" the events of this read,
 *
 *	stack 1000 345 bash
 *	  0xffffffffc01a0010 kft_test_leaf+0x0/0x10 [kft_test]
 *	  0xffffffff812345ab vfs_write+0xcb/0x3c0
 *
 *	event 5678901 2 345 bash
 *	  0xffffffffc01a0010 kft_test_leaf+0x0/0x10 [kft_test]
 *
 * read into arrays: the blocks, the events, and the frames of both (a
 * block's frames are consecutive). The symbols, "%pS" as the kernel prints
 * it, become kft's one word "module:name" and an offset. Two snapshots of
 * one run subtract stack by stack (the counts only grow during a run), as
 * count mode's do function by function.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "kft.h"
#include "kftlog.h"

/* "0xHEX" from s to end: 0, or -1. */
static int kft_hex_to(const char *s, const char *end, uint64_t *v)
{
	char *e;

	if (strncmp(s, "0x", 2) || s[2] == '-' || s[2] == '+')
		return -1;
	errno = 0;
	*v = strtoull(s, &e, 16);
	return errno || e != end || e == s + 2 ? -1 : 0;
}

/*
 * "name+0xOFF/0xSIZE [module]" (or a bare "0xADDR": no symbol) into f.
 * 0, 1 when sym is none of those, -1 (errno) when the names are full.
 */
static int kft_frame_symbol(struct kft_stacks *s, const char *sym, struct kft_frame *f)
{
	const char *end = sym + strlen(sym), *mod = NULL, *plus, *slash;
	char buf[KFTLOG_LINE_MAX];
	uint64_t size;

	if (end - sym > 3 && end[-1] == ']') {
		mod = memchr(sym, '[', (size_t)(end - sym));
		if (!mod || mod == sym || mod[-1] != ' ' || mod + 2 == end)
			return 1;
		end = mod - 1;
		mod++;
	}
	f->name = NULL;
	f->off = 0;
	if (!strncmp(sym, "0x", 2) && !mod)
		return 0;
	plus = memchr(sym, '+', (size_t)(end - sym));
	if (plus) {
		slash = memchr(plus, '/', (size_t)(end - plus));
		if (!slash || kft_hex_to(plus + 1, slash, &f->off) ||
		    kft_hex_to(slash + 1, end, &size))
			return 1;
		end = plus;
	}
	if (end == sym || memchr(sym, ' ', (size_t)(end - sym)))
		return 1;
	if (mod)
		snprintf(buf, sizeof(buf), "%.*s:%.*s", (int)strcspn(mod, "]"), mod,
			 (int)(end - sym), sym);
	else
		snprintf(buf, sizeof(buf), "%.*s", (int)(end - sym), sym);
	f->name = strtab__intern(&s->names, buf, strlen(buf));
	return f->name ? 0 : -1;
}

/* "  0xADDR SYMBOL": a frame of the block just begun. 0, 1 when no frame, -1 (errno). */
static int kft_frame_line(struct kft_stacks *s, const char *line, struct kft_stack *b)
{
	const char *sp = strchr(line + 2, ' ');
	struct kft_frame f;
	void *v;
	int ret;

	if (strncmp(line, "  0x", 4) || !sp || kft_hex_to(line + 2, sp, &f.addr))
		return 1;
	ret = kft_frame_symbol(s, sp + 1, &f);
	if (ret)
		return ret;
	v = array_room(s->frames, &s->cap_frames, s->nr_frames, sizeof(*s->frames),
		       KFT_STACKS_FRAMES_MAX);
	if (!v)
		return -1;
	s->frames = v;
	s->frames[s->nr_frames++] = f;
	b->nr++;
	return 0;
}

/*
 * "stack COUNT PID COMM" or "event TIME_US CPU PID COMM [args=V,...]" (the
 * comm is the rest of the line, up to an event's args word: it may hold
 * spaces) into b. 0, or 1 when no such line.
 */
static int kft_block_line(struct kft_stacks *s, const char *line, struct kft_stack *b)
{
	unsigned long long a;
	const char *rest, *args = NULL;
	size_t len;
	int n = 0;

	memset(b, 0, sizeof(*b));
	if (sscanf(line, "stack %llu %ld %n", &a, &b->pid, &n) == 2 && n)
		b->count = a;
	else if (sscanf(line, "event %llu %d %ld %n", &a, &b->cpu, &b->pid, &n) == 3 && n)
		b->time_us = a;
	else
		return 1;
	rest = line + n;
	len = strcspn(rest, "\n");
	if (line[0] == 'e')
		args = strstr(rest, " args=");
	if (args && (size_t)(args - rest) < len) {
		b->args = strtab__intern(&s->names, args + 6, len - (size_t)(args - rest) - 6);
		if (!b->args)
			return -1;
		len = (size_t)(args - rest);
	}
	b->comm = b->pid < 0 ? "" : strtab__intern(&s->names, rest, len);
	b->first = s->nr_frames;
	return b->comm ? 0 : -1;
}

/* The header's counters of stacks and profile modes. */
static void kft_stacks_counter(struct kft_stacks *s, const char *line)
{
	unsigned long long v;

	if (sscanf(line, "Events not counted, table full = %llu", &v) == 1)
		s->table_full = v;
	else if (sscanf(line, "Events not counted, busy = %llu", &v) == 1)
		s->busy = v;
	else if (sscanf(line, "Stacks truncated at %u frames = %llu", &s->truncated_at, &v) == 2)
		s->truncated = v;
	else if (sscanf(line, "Events lost, ring full = %llu", &v) == 1)
		s->events_lost = v;
}

/* A finished block into its array (events only: stacks dropped). 0, or -1 (errno). */
static int kft_block_keep(struct kft_stacks *s, const struct kft_stack *b, int is_event)
{
	struct kft_stack **v = is_event ? &s->events : &s->stacks;
	size_t *nr = is_event ? &s->nr_events : &s->nr_stacks;
	size_t *cap = is_event ? &s->cap_events : &s->cap_stacks;
	void *p = array_room(*v, cap, *nr, sizeof(**v), KFT_STACKS_MAX);

	if (!p)
		return -1;
	*v = p;
	(*v)[(*nr)++] = *b;
	return 0;
}

/* What reading one log holds between lines. */
struct kft_stacks_reader {
	struct kft_stacks *s;
	struct kft_stack block;		/* the block being read */
	int in_block;			/* 0: none; 1: a stack; 2: an event */
	int past_header;		/* a block was seen */
	int flags;
};

static int kft_stacks_end_block(struct kft_stacks *s, struct kft_stacks_reader *r)
{
	int ret = 0, is_event = r->in_block == 2;

	if (r->in_block && (is_event || !(r->flags & KFT_STACKS_EVENTS_ONLY)))
		ret = kft_block_keep(s, &r->block, is_event);
	else if (r->in_block)
		s->nr_frames = r->block.first;	/* a stack not kept: its frames go */
	r->in_block = 0;
	return ret;
}

static int kft_stacks_line(void *ctx, char *line)
{
	struct kft_stacks_reader *r = ctx;
	struct kft_stacks *s = r->s;
	int ret;

	/* A line too long for the format, or a NUL in one: out of place. */
	if (!line) {
		s->malformed++;
		return 0;
	}
	if (r->in_block) {
		ret = kft_frame_line(s, line, &r->block);
		if (ret <= 0)
			return ret;
	}
	if (kft_stacks_end_block(s, r))
		return -1;
	ret = kft_block_line(s, line, &r->block);
	if (ret < 0)
		return -1;
	if (!ret) {
		r->in_block = line[0] == 'e' ? 2 : 1;
		r->past_header = 1;
		return 0;
	}
	/* Past the header, anything but a blank line is out of place. */
	if (r->past_header) {
		s->malformed += line[strspn(line, " ")] != '\0';
		return 0;
	}
	if (!kft_head_line(&s->head, line))
		kft_stacks_counter(s, line);
	return 0;
}

int kft_stacks_read(struct kft_stacks *s, FILE *in, int flags)
{
	struct kft_stacks_reader r = { .s = s, .flags = flags };
	int ret;

	memset(s, 0, sizeof(*s));
	kft_head_init(&s->head);
	s->names.limit = KFT_STACKS_NAME_BYTES;
	ret = kft_lines_read(in, kft_stacks_line, &r);
	return ret ? ret : kft_stacks_end_block(s, &r);
}

void kft_stacks_free(struct kft_stacks *s)
{
	free(s->stacks);
	free(s->events);
	free(s->frames);
	strtab__free(&s->names);
	memset(s, 0, sizeof(*s));
}

static int kft_frame_cmp(const struct kft_frame *a, const struct kft_frame *b)
{
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (!a->name || !b->name)
		return !!a->name - !!b->name;
	if (strcmp(a->name, b->name))
		return strcmp(a->name, b->name);
	return a->off < b->off ? -1 : a->off > b->off;
}

/* Two stacks by process, then frame by frame: the identity of a stack. */
static int kft_row_key_cmp(const struct kft_stack_row *a, const struct kft_stack_row *b)
{
	const struct kft_stack *x = a->stack, *y = b->stack;
	size_t i;
	int c;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	c = strcmp(x->comm, y->comm);
	for (i = 0; !c && i < x->nr && i < y->nr; i++)
		c = kft_frame_cmp(&a->frames[x->first + i], &b->frames[y->first + i]);
	if (!c && x->nr != y->nr)
		c = x->nr < y->nr ? -1 : 1;
	return c;
}

static int kft_row_key_qcmp(const void *a, const void *b)
{
	return kft_row_key_cmp(a, b);
}

static int kft_row_count_qcmp(const void *a, const void *b)
{
	const struct kft_stack_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	return kft_row_key_cmp(x, y);
}

/* A snapshot's stacks (at least one) as rows sorted by identity, or NULL. */
static struct kft_stack_row *kft_stacks_rows(const struct kft_stacks *s)
{
	struct kft_stack_row *rows = malloc(s->nr_stacks * sizeof(*rows));
	size_t i;

	if (!rows)
		return NULL;
	for (i = 0; i < s->nr_stacks; i++)
		rows[i] = (struct kft_stack_row){ &s->stacks[i], s->frames, s->stacks[i].count };
	qsort(rows, s->nr_stacks, sizeof(*rows), kft_row_key_qcmp);
	return rows;
}

struct kft_stack_row *kft_stacks_delta(const struct kft_stacks *cur,
				       const struct kft_stacks *prev, size_t *n)
{
	size_t i, j = 0, nr_old = prev ? prev->nr_stacks : 0;
	struct kft_stack_row *rows, *old = NULL;
	int c = 1;

	*n = 0;
	if (!cur->nr_stacks)
		return NULL;
	rows = kft_stacks_rows(cur);
	if (!rows || (nr_old && !(old = kft_stacks_rows(prev)))) {
		free(rows);
		return NULL;
	}
	/* Both sorted by identity: one walk pairs each stack with its earlier count. */
	for (i = 0; i < cur->nr_stacks; i++) {
		while (j < nr_old && (c = kft_row_key_cmp(&old[j], &rows[i])) < 0)
			j++;
		/* Equal stacks (addresses hidden) pair in turn: each old one once. */
		if (j < nr_old && !c) {
			/* Fewer than before: counting started again; count from zero. */
			if (old[j].count <= rows[i].count)
				rows[i].count -= old[j].count;
			j++;
		}
		if (rows[i].count)
			rows[(*n)++] = rows[i];
	}
	free(old);
	qsort(rows, *n, sizeof(*rows), kft_row_count_qcmp);
	return rows;
}

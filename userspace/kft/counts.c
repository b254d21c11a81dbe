// SPDX-License-Identifier: GPL-2.0
/*
 * A count-mode /proc/kft_data: the header, then after the dashes one row
 * per function called,
 *
 *	        1234 0xffffffff810a2b40 vfs_read
 *	           7 0xffffffffa0000080 kft_test_leaf [kft_test]
 *
 * read into a table indexed by (address, name), so that two snapshots can
 * be subtracted function by function: the module's counts only grow while
 * a run lasts, and a summary of an interval is the difference of the
 * snapshots at its ends (nothing is reset, so nothing is lost between).
 * The address alone would do, but a reader without CAP_SYSLOG sees zeros.
 *
 * A histogram-mode log has the same rows, each followed by a line per
 * bucket with calls (Documentation/kft.rst, "Histogram mode"),
 *
 *	               16384 -> 32767                : 120
 *
 * read into the function's KFT_HIST_BUCKETS counts.
 *
 * A run per value of an argument ("Counted per value of argument N" in
 * the header) has a row per function and value, the value in its last
 * word as the trace's args= writes one (hex, an error in decimal, or
 * "hidden"),
 *
 *	          42 0xffffffffa0000080 kft_test_args [kft_test] arg1=0x5
 *
 * keyed by (address, name, value), the value kept in decimal; so has a
 * histogram run per value ("Timed per value of argument N"), its buckets
 * under each.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "hash.h"
#include "kft.h"
#include "kftlog.h"

static size_t kft_count_hash(uint64_t addr, const char *name, const char *value)
{
	uint64_t h = hash_u64(addr);

	h = h * 0x9e3779b97f4a7c15ULL + hash_bytes(name, strlen(name));
	h = h * 0x9e3779b97f4a7c15ULL + hash_bytes(value, strlen(value));
	return (size_t)(h ^ h >> 29);
}

/* The slot of (addr, name, value): its entry's, or the free one where it goes. */
static size_t *kft_counts_slot(const struct kft_counts *c, uint64_t addr, const char *name,
			       const char *value)
{
	size_t mask = c->nr_slots - 1, i = kft_count_hash(addr, name, value) & mask;
	const struct kft_count *e;

	for (;; i = (i + 1) & mask) {
		if (!c->slots[i])
			return &c->slots[i];
		e = &c->v[c->slots[i] - 1];
		if (e->addr == addr && !strcmp(e->name, name) && !strcmp(e->value, value))
			return &c->slots[i];
	}
}

const struct kft_count *kft_counts_find_value(const struct kft_counts *c, uint64_t addr,
					      const char *name, const char *value)
{
	size_t *slot;

	if (!c->nr_slots)
		return NULL;
	slot = kft_counts_slot(c, addr, name, value);
	return *slot ? &c->v[*slot - 1] : NULL;
}

const struct kft_count *kft_counts_find(const struct kft_counts *c, uint64_t addr,
					const char *name)
{
	return kft_counts_find_value(c, addr, name, "");
}

/* Room for one more entry: the array and a slot table at most half full. */
static int kft_counts_grow(struct kft_counts *c)
{
	size_t i, n;
	void *p;

	p = array_room(c->v, &c->cap, c->nr, sizeof(*c->v), KFT_COUNTS_MAX);
	if (!p)
		return -1;
	c->v = p;
	if (2 * (c->nr + 1) <= c->nr_slots)
		return 0;
	n = c->nr_slots ? c->nr_slots * 2 : 512;
	p = calloc(n, sizeof(*c->slots));
	if (!p)
		return -1;
	free(c->slots);
	c->slots = p;
	c->nr_slots = n;
	for (i = 0; i < c->nr; i++)
		*kft_counts_slot(c, c->v[i].addr, c->v[i].name, c->v[i].value) = i + 1;
	return 0;
}

/* A histogram's buckets for the entries up to nr (zeroed). 0, or -1 (ENOMEM, EFBIG). */
static int kft_counts_buckets_room(struct kft_counts *c)
{
	size_t cap = c->buckets_cap;
	uint64_t *p;

	if (c->nr < cap)
		return 0;
	if (c->nr >= KFT_HISTS_MAX) {
		errno = EFBIG;
		return -1;
	}
	cap = cap ? cap * 2 : 64;
	p = realloc(c->buckets, cap * KFT_HIST_BUCKETS * sizeof(*p));
	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	memset(p + c->buckets_cap * KFT_HIST_BUCKETS, 0,
	       (cap - c->buckets_cap) * KFT_HIST_BUCKETS * sizeof(*p));
	c->buckets = p;
	c->buckets_cap = cap;
	return 0;
}

/*
 * Adds count to (addr, name, value): a name twice (addresses hidden)
 * sums. *entry: its index.
 */
static int kft_counts_add(struct kft_counts *c, uint64_t addr, const char *name,
			  size_t len, const char *value, uint64_t count, size_t *entry)
{
	const char *copy, *vcopy = "";
	size_t *slot;

	if (kft_counts_grow(c))
		return -1;
	if (c->head.mode == KFT_DATA_HISTOGRAM && kft_counts_buckets_room(c))
		return -1;
	copy = strtab__add(&c->names, name, len);
	if (*value)
		vcopy = strtab__add(&c->names, value, strlen(value));
	if (!copy || !vcopy)
		return -1;
	slot = kft_counts_slot(c, addr, copy, vcopy);
	if (*slot) {
		c->v[*slot - 1].count += count;
		*entry = *slot - 1;
		return 0;
	}
	c->v[c->nr] = (struct kft_count){ .addr = addr, .name = copy, .value = vcopy,
					  .count = count };
	*entry = c->nr;
	*slot = ++c->nr;
	return 0;
}

/*
 * "LOW -> HIGH : COUNT", a histogram's bucket: its index (bucket b holds
 * 2^b to 2^(b+1) - 1, bucket 0 also 0, the last one everything above);
 * -1 when the line is none.
 */
static int kft_bucket_row(const char *line, uint64_t *count)
{
	unsigned long long low, high, n;
	int b, used = 0;

	if (sscanf(line, " %llu -> %llu : %llu%n", &low, &high, &n, &used) != 3 ||
	    line[used] != '\0')
		return -1;
	for (b = 0; b < KFT_HIST_BUCKETS; b++) {
		if (low == (b ? 1ULL << b : 0) &&
		    high == (b == KFT_HIST_BUCKETS - 1 ? UINT64_MAX : (2ULL << b) - 1)) {
			*count = n;
			return b;
		}
	}
	return -1;
}

/* How the module marks a function whose module was unloaded. */
#define KFT_GONE	" (unloaded)"
#define KFT_GONE_LEN	(sizeof(KFT_GONE) - 1)

/*
 * "COUNT 0xADDR SYMBOL": the symbol as %ps prints it, "name" or
 * "name [module]", becomes kft's one-word "module:name" in buf; a
 * function of a module unloaded during the run, "name [module]
 * (unloaded)", becomes "module:name(unloaded)".
 * 0, or -1 when the line is no row.
 */
static int kft_counts_row(const char *line, uint64_t *count, uint64_t *addr,
			  char *buf, size_t size)
{
	const char *s = line, *mod, *end;
	int gone;
	char *e;

	while (*s == ' ')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*count = strtoull(s, &e, 10);
	if (errno || *e != ' ')
		return -1;
	for (s = e; *s == ' '; s++)
		;
	if (strncmp(s, "0x", 2) || s[2] < '0' || (s[2] > '9' && (s[2] < 'a' || s[2] > 'f')))
		return -1;
	*addr = strtoull(s + 2, &e, 16);
	if (errno || *e != ' ')
		return -1;
	for (s = e; *s == ' '; s++)
		;
	end = s + strcspn(s, "\n");
	while (end > s && end[-1] == ' ')
		end--;
	gone = (size_t)(end - s) > KFT_GONE_LEN && !strncmp(end - KFT_GONE_LEN, KFT_GONE, KFT_GONE_LEN);
	if (gone)
		end -= KFT_GONE_LEN;
	if (end == s || (size_t)(end - s) + KFT_GONE_LEN >= size)
		return -1;
	for (mod = end; mod > s && *mod != '['; mod--)
		;
	if (mod > s + 1 && mod[-1] == ' ' && end[-1] == ']' && end - mod > 2)
		snprintf(buf, size, "%.*s:%.*s%s", (int)(end - mod - 2), mod + 1,
			 (int)(mod - 1 - s), s, gone ? "(unloaded)" : "");
	else
		snprintf(buf, size, "%.*s%s", (int)(end - s), s, gone ? "(unloaded)" : "");
	return strchr(buf, ' ') ? -1 : 0;
}

/*
 * The last word of a row per value of argument @arg, "argN=V" (V as the
 * trace's args= writes it: 0x and hex digits, an error's negative decimal,
 * or "hidden"), cut from @line's end: V in decimal (unsigned) in @value.
 * 0, or -1 when the row has no such word.
 */
static int kft_counts_value(char *line, unsigned int arg, char *value, size_t size)
{
	char *word = strrchr(line, ' '), *e, prefix[16];
	unsigned long long v;
	size_t n;

	if (!word)
		return -1;
	n = (size_t)snprintf(prefix, sizeof(prefix), " arg%u=", arg);
	if (strncmp(word, prefix, n))
		return -1;
	word += n;
	if (!strcmp(word, "hidden")) {
		snprintf(value, size, "hidden");
	} else if (!strncmp(word, "0x", 2) && word[2] &&
		   strspn(word + 2, "0123456789abcdef") == strlen(word + 2)) {
		errno = 0;
		v = strtoull(word + 2, &e, 16);
		if (errno || *e)
			return -1;
		snprintf(value, size, "%llu", v);
	} else if (word[0] == '-' && word[1] >= '1' && word[1] <= '9' &&
		   strspn(word + 1, "0123456789") == strlen(word + 1) && strlen(word) < size) {
		snprintf(value, size, "%s", word);
	} else {
		return -1;
	}
	word[-(long)n] = '\0';
	return 0;
}

/* What reading one log holds between lines. */
struct kft_counts_reader {
	struct kft_counts *c;
	int in_rows;		/* past the dashes */
	size_t last;		/* a histogram: the entry its buckets are of */
	int has_last;
};

/* A histogram's bucket line: 0 if it was one (counted, or malformed), 1 if not. */
static int kft_counts_bucket(struct kft_counts_reader *r, const char *line)
{
	struct kft_counts *c = r->c;
	uint64_t count;
	int b;

	if (c->head.mode != KFT_DATA_HISTOGRAM || !strstr(line, " -> "))
		return 1;
	b = kft_bucket_row(line, &count);
	if (b < 0 || !r->has_last)
		c->malformed++;
	else
		c->buckets[r->last * KFT_HIST_BUCKETS + (size_t)b] += count;
	return 0;
}

/* One line: the header's facts, or a row once past the dashes. */
static int kft_counts_line(void *ctx, char *line)
{
	struct kft_counts_reader *r = ctx;
	struct kft_counts *c = r->c;
	char name[KFTLOG_LINE_MAX], value[24] = "";
	uint64_t count, addr;

	if (!line) {
		/* A line too long to be a row, or a NUL in one: no row. */
		c->malformed += r->in_rows;
		return 0;
	}
	if (r->in_rows) {
		if (!kft_counts_bucket(r, line))
			return 0;
		if ((c->head.per_arg &&
		     kft_counts_value(line, c->head.per_arg, value, sizeof(value))) ||
		    kft_counts_row(line, &count, &addr, name, sizeof(name))) {
			c->malformed += line[strspn(line, " ")] != '\0';
			/* A histogram's buckets of no row are no other row's. */
			r->has_last = 0;
			return 0;
		}
		r->has_last = 1;
		return kft_counts_add(c, addr, name, strlen(name), value, count, &r->last);
	}
	if (!strncmp(line, "--------", 8))
		r->in_rows = 1;
	else
		kft_head_line(&c->head, line);
	return 0;
}

int kft_counts_read(struct kft_counts *c, FILE *in)
{
	struct kft_counts_reader r = { .c = c };

	memset(c, 0, sizeof(*c));
	kft_head_init(&c->head);
	c->names.limit = KFT_COUNTS_NAME_BYTES;
	return kft_lines_read(in, kft_counts_line, &r);
}

void kft_counts_free(struct kft_counts *c)
{
	free(c->v);
	free(c->slots);
	free(c->buckets);
	strtab__free(&c->names);
	memset(c, 0, sizeof(*c));
}

static int kft_delta_cmp(const void *a, const void *b)
{
	const struct kft_delta *x = a, *y = b;

	int d;

	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	d = strcmp(x->name, y->name);
	return d ? d : strcmp(x->value, y->value);
}

struct kft_delta *kft_counts_delta(const struct kft_counts *cur, const struct kft_counts *prev,
				   size_t *n)
{
	struct kft_delta *d;
	const struct kft_count *p;
	uint64_t count;
	size_t i;

	*n = 0;
	if (!cur->nr)
		return NULL;
	d = malloc(cur->nr * sizeof(*d));
	if (!d)
		return NULL;
	for (i = 0; i < cur->nr; i++) {
		count = cur->v[i].count;
		p = prev ? kft_counts_find_value(prev, cur->v[i].addr, cur->v[i].name,
						 cur->v[i].value) : NULL;
		/* Fewer than before: counting started again; count from zero. */
		if (p && p->count <= count)
			count -= p->count;
		if (count)
			d[(*n)++] = (struct kft_delta){ .name = cur->v[i].name,
							.value = cur->v[i].value, .count = count };
	}
	qsort(d, *n, sizeof(*d), kft_delta_cmp);
	return d;
}

/*
 * As the original funccount: "%-30s %8s", the largest count last; per
 * argument, the value between, in a column of 20 (a 64-bit number's), or
 * as wide as the widest typed value shown.
 */
void kft_funccount_print(FILE *out, const struct kft_delta *d, size_t n, long top,
			 unsigned int per_arg, const char *stamp)
{
	size_t i = top > 0 && n > (size_t)top ? n - (size_t)top : 0, j;
	char arg[16];
	int width = 20;

	fputc('\n', out);
	if (stamp)
		fprintf(out, "%s\n", stamp);
	if (!per_arg) {
		fprintf(out, "%-30s %8s\n", "FUNC", "COUNT");
		for (; i < n; i++)
			fprintf(out, "%-30s %8" PRIu64 "\n", d[i].name, d[i].count);
		return;
	}
	for (j = i; j < n; j++)
		width = (int)(strlen(d[j].value) > (size_t)width ? strlen(d[j].value) : (size_t)width);
	snprintf(arg, sizeof(arg), "ARG%u", per_arg);
	fprintf(out, "%-30s %*s %8s\n", "FUNC", width, arg, "COUNT");
	for (; i < n; i++)
		fprintf(out, "%-30s %*s %8" PRIu64 "\n", d[i].name, width, d[i].value, d[i].count);
}

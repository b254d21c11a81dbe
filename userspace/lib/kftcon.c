// SPDX-License-Identifier: GPL-2.0
/* Saved consoles with kft's last calls: see kftcon.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kftcon.h"
#include "linereader.h"
#include "words.h"

/* Malformed dump lines named one by one; after these, only counted. */
#define KFTCON_WARNINGS_SHOWN	10
/* A dump's row's words: 11 of kftlog's, the name and its module. */
#define KFTCON_ROW_WORDS	14

/* A log being read, its warnings held until it is the one chosen. */
struct kftcon_part {
	struct kftlog *log;
	FILE *warn;
	char *held;
	size_t held_len;
	unsigned int bad;	/* malformed dump lines */
};

struct kftcon {
	size_t max_rows;
	unsigned int want;	/* the dump to read; 0: the last */
	const int *cut_said;	/* the input's reader said it was cut short; NULL: none */
	unsigned int lineno;
	int in_dump;		/* between a dump's start and its end */
	int reading;		/* that dump is part's */
	struct kftcon_part part;	/* the log, or the dump chosen */
	struct kftcon_info info;
	char row[KFTLOG_LINE_MAX];	/* a row with its function named */
};

/* Where "kft: " is in s[0..len), NULL if nowhere. */
static const char *kftcon_find(const char *s, size_t len)
{
	const char *end = s + len, *k;

	while ((k = memchr(s, 'k', (size_t)(end - s))) && end - k >= 5) {
		if (!memcmp(k, "kft: ", 5))
			return k;
		s = k + 1;
	}
	return NULL;
}

static int kftcon_starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

enum kftcon_line kftcon_line(const char *line, size_t len, const char **text,
			     size_t *text_len)
{
	const char *k, *p, *end = line + len;
	size_t n;

	/* The first "kft: " that a dump's line follows: the console's prefix is any. */
	for (k = kftcon_find(line, len); k; k = kftcon_find(k + 1, (size_t)(end - k - 1))) {
		p = k + 5;
		n = (size_t)(end - p);
		if (kftcon_starts(p, n, KFTCON_START_TEXT)) {
			*text = p + strlen(KFTCON_START_TEXT);
			*text_len = n - strlen(KFTCON_START_TEXT);
			return KFTCON_START;
		}
		if (kftcon_starts(p, n, KFTCON_END_TEXT))
			return KFTCON_END;
		if (kftcon_starts(p, n, KFTCON_ROW_TEXT)) {
			/* "kft: |" alone (a capture that trims lines): a blank line. */
			p++;
			if (p < end && *p == ' ')
				p++;
			else if (p < end && !word_blank(*p))
				return KFTCON_BAD;
			*text = p;
			*text_len = (size_t)(end - p);
			return KFTCON_TEXT;
		}
		if (kftcon_starts(p, n, "==="))
			return KFTCON_BAD;
	}
	return KFTCON_OTHER;
}

static void kftcon_part_close(struct kftcon_part *part)
{
	if (part->warn)
		fclose(part->warn);
	free(part->held);
	kftlog__free(part->log);
	memset(part, 0, sizeof(*part));
}

static int kftcon_part_open(struct kftcon_part *part, size_t max_rows)
{
	kftcon_part_close(part);
	part->log = kftlog__new(max_rows);
	part->warn = open_memstream(&part->held, &part->held_len);
	if (part->log && part->warn)
		return 0;
	kftcon_part_close(part);
	errno = ENOMEM;
	return -1;
}

struct kftcon *kftcon__new(size_t max_rows, unsigned int dump, const int *cut_said)
{
	struct kftcon *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->max_rows = max_rows;
	c->want = dump;
	c->cut_said = cut_said;
	if (kftcon_part_open(&c->part, max_rows)) {
		free(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

void kftcon__free(struct kftcon *c)
{
	if (!c)
		return;
	kftcon_part_close(&c->part);
	free(c);
}

/* "0x" and hex digits: a raw address. */
static int kftcon_is_addr(const struct word *w)
{
	size_t i;

	if (w->len < 3 || w->s[0] != '0' || w->s[1] != 'x')
		return 0;
	for (i = 2; i < w->len; i++)
		if (!strchr("0123456789abcdef", w->s[i]) || !w->s[i])
			return 0;
	return 1;
}

/*
 * A dump's row whose function is a raw address, with that word replaced
 * by the name the row ends with ("name+0x0/0x10 [module]" ->
 * "module:name", as addr2sym names it), into c->row; NULL when the row is not such a one
 * (then it is read as it is).
 */
static const char *kftcon_named(struct kftcon *c, const char *text, size_t len,
				size_t *out_len)
{
	struct word w[KFTCON_ROW_WORDS + 1], *name, *mod = NULL;
	size_t nr = words_split(text, len, w, KFTCON_ROW_WORDS + 1), name_len, at, n;
	const char *plus, *slash;

	/* The 7 words of a row with its return value, then the name. */
	if (nr < 8 || nr > KFTCON_ROW_WORDS || !kftcon_is_addr(&w[3]))
		return NULL;
	name = &w[nr - 1];
	if (name->len > 2 && name->s[0] == '[' && name->s[name->len - 1] == ']') {
		if (nr < 9)
			return NULL;
		mod = name;
		name = &w[nr - 2];
	}
	plus = memchr(name->s, '+', name->len);
	if (!plus || plus == name->s || memchr(name->s, '\0', name->len))
		return NULL;
	slash = memchr(plus, '/', (size_t)(name->s + name->len - plus));
	name_len = slash ? (size_t)(slash - name->s) : name->len;
	/* addr2sym's "name" for a function's start, "name+0x10" inside it. */
	if (name->s + name_len - plus == 4 && !memcmp(plus, "+0x0", 4))
		name_len = (size_t)(plus - name->s);
	at = (size_t)(w[3].s - text);
	n = at + (mod ? mod->len - 2 + 1 : 0) + name_len + (len - at - w[3].len);
	if (n >= sizeof(c->row) || (mod && memchr(mod->s, '\0', mod->len)))
		return NULL;
	memcpy(c->row, text, at);
	if (mod) {
		memcpy(c->row + at, mod->s + 1, mod->len - 2);
		at += mod->len - 2;
		c->row[at++] = ':';
	}
	memcpy(c->row + at, name->s, name_len);
	at += name_len;
	memcpy(c->row + at, w[3].s + w[3].len, len - (size_t)(w[3].s + w[3].len - text));
	*out_len = n;
	return c->row;
}

/* A line of the dump being read: to its log, as line c->lineno of the input. */
static int kftcon_text(struct kftcon *c, const char *text, size_t len, const char *name)
{
	struct kftlog *log = c->part.log;
	const char *row = log->scan.in_rows ? kftcon_named(c, text, len, &len) : NULL;

	return kftlog__feed_at(log, c->lineno, row ? row : text, len, name, c->part.warn);
}

/* "an oops: run 1, ..." -> "an oops", printable characters only. */
static void kftcon_why(struct kftcon_info *info, const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len && i + 1 < sizeof(info->why) && text[i] != ':'; i++)
		info->why[i] = text[i] >= ' ' && text[i] <= '~' ? text[i] : '?';
	info->why[i] = '\0';
}

/* A dump begins: the one to read (the next, if the last is wanted), or one to count. */
static int kftcon_start(struct kftcon *c, const char *text, size_t len, const char *name)
{
	struct kftcon_info *info = &c->info;

	if (c->in_dump && c->reading)
		fprintf(c->part.warn, "%s:%u: warning: the last calls of line %u have no end "
			"line (%s): another dump begins; read up to here\n", name, c->lineno,
			info->start_line, KFTCON_END_TEXT);
	info->dumps++;
	c->in_dump = 1;
	c->reading = !c->want || info->dumps == c->want;
	if (!c->reading)
		return 0;
	if (kftcon_part_open(&c->part, c->max_rows))
		return -1;
	info->chosen = info->dumps;
	info->start_line = c->lineno;
	info->end_line = 0;
	kftcon_why(info, text, len);
	return 0;
}

int kftcon__feed(struct kftcon *c, const char *line, size_t len, const char *name)
{
	enum kftcon_line kind = KFTCON_OTHER;
	const char *text = NULL;
	size_t text_len = 0;

	c->lineno++;
	if (line)
		kind = kftcon_line(line, len, &text, &text_len);
	if (!c->info.console && kind == KFTCON_TEXT && !c->info.stray++)
		c->info.stray_line = c->lineno;
	if (!c->info.console && kind != KFTCON_START)
		return kftlog__feed_at(c->part.log, c->lineno, line, len, name, c->part.warn);
	c->info.console = 1;
	switch (kind) {
	case KFTCON_START:
		return kftcon_start(c, text, text_len, name);
	case KFTCON_END:
		if (c->in_dump && c->reading)
			c->info.end_line = c->lineno;
		c->in_dump = c->reading = 0;
		return 0;
	case KFTCON_TEXT:
		if (c->reading)
			return kftcon_text(c, text, text_len, name);
		if (!c->in_dump && !c->info.stray++)
			c->info.stray_line = c->lineno;
		return 0;
	case KFTCON_BAD:
		if (c->reading && ++c->part.bad <= KFTCON_WARNINGS_SHOWN)
			fprintf(c->part.warn, "%s:%u: warning: malformed line of the last calls "
				"skipped (not 'kft: | LINE')\n", name, c->lineno);
		return 0;
	default:
		return 0;
	}
}

struct kftlog *kftcon__end(struct kftcon *c, const char *name, FILE *warn,
			   struct kftcon_info *info)
{
	struct kftlog *log = NULL;
	int err = ENOMEM;

	*info = c->info;
	if (info->console && !info->chosen) {
		err = ENOENT;
		goto out;
	}
	if (info->console && c->part.bad > KFTCON_WARNINGS_SHOWN)
		fprintf(c->part.warn, "%s: warning: %u malformed lines of the last calls "
			"skipped in all\n", name, c->part.bad);
	if (info->console && !info->end_line && c->in_dump && c->reading)
		fprintf(c->part.warn, "%s:%u: warning: the last calls of line %u have no end "
			"line (%s): the console was cut; read up to its end\n", name,
			c->lineno, info->start_line, KFTCON_END_TEXT);
	c->part.log->scan.cut_said = c->cut_said && *c->cut_said;
	kftlog__end(c->part.log, name, c->part.warn);
	/* A dump's rows come CPU after CPU, a record's read after read (kft record). */
	if (fflush(c->part.warn) || kftlog__sort(c->part.log))
		goto out;
	if (warn && c->part.held_len)
		fwrite(c->part.held, 1, c->part.held_len, warn);
	log = c->part.log;
	c->part.log = NULL;
out:
	kftcon__free(c);
	errno = err;
	return log;
}

/* What kftcon__read() feeds each line to (line_each()). */
struct kftcon_reading {
	struct kftcon *c;
	const char *name;
};

static int kftcon__feed_each(void *arg, const char *line, size_t len)
{
	struct kftcon_reading *r = arg;

	return kftcon__feed(r->c, line, len, r->name);
}

struct kftlog *kftcon__read(FILE *in, const char *name, FILE *warn, size_t max_rows,
			    unsigned int dump, const int *cut_said, struct kftcon_info *info)
{
	struct kftcon *c = kftcon__new(max_rows, dump, cut_said);
	char *line = malloc(KFTLOG_LINE_MAX);
	struct kftcon_reading r = { c, name };
	int err;

	memset(info, 0, sizeof(*info));
	if (c && line && !line_each(in, line, KFTLOG_LINE_MAX, kftcon__feed_each, &r)) {
		free(line);
		return kftcon__end(c, name, warn, info);
	}
	err = c && line ? errno : ENOMEM;
	free(line);
	kftcon__free(c);
	errno = err;
	return NULL;
}

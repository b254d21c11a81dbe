// SPDX-License-Identifier: GPL-2.0
/* kft logs: see kftlog.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kftlog.h"
#include "linereader.h"

/* Malformed rows named one by one; after these, only counted. */
#define KFTLOG_WARNINGS_SHOWN	10

struct kftlog_word {
	const char *s;
	size_t len;
};

static int is_blank_char(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Splits line into up to n words; returns how many there are (at most n). */
static size_t split_words(const char *line, size_t len, struct kftlog_word *w, size_t n)
{
	size_t i = 0, nr = 0;

	while (nr < n) {
		while (i < len && is_blank_char(line[i]))
			i++;
		if (i == len)
			break;
		w[nr].s = line + i;
		while (i < len && !is_blank_char(line[i]))
			i++;
		w[nr].len = (size_t)(line + i - w[nr].s);
		nr++;
	}
	return nr;
}

/* A decimal number filling the whole word. */
static int parse_ll(const struct kftlog_word *w, long long *v)
{
	char buf[32], *end;

	if (w->len == 0 || w->len >= sizeof(buf))
		return -1;
	memcpy(buf, w->s, w->len);
	buf[w->len] = '\0';
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return errno || *end ? -1 : 0;
}

/* "33", "33.1", "-1.0". */
static int parse_pid(const struct kftlog_word *w, int *pid, int *cpu)
{
	const char *dot = memchr(w->s, '.', w->len);
	struct kftlog_word p = { w->s, dot ? (size_t)(dot - w->s) : w->len };
	long long pv, c = -1;

	if (dot) {
		struct kftlog_word cw = { dot + 1, w->len - p.len - 1 };

		if (parse_ll(&cw, &c) || c < 0 || c > 0x7fffffff)
			return -1;
	}
	if (parse_ll(&p, &pv) || pv < -1 || pv > 0x7fffffff)
		return -1;
	*pid = (int)pv;
	*cpu = (int)c;
	return 0;
}

/* A row's five words; more words are allowed and ignored. */
static int parse_row(const char *line, size_t len, struct kftlog_row *row,
		     struct kftlog_names *names)
{
	struct kftlog_word w[5];

	/* A NUL byte would cut a name short, or empty it: no row has one. */
	if (memchr(line, '\0', len) || split_words(line, len, w, 5) != 5 ||
	    parse_ll(&w[0], &row->entry) || row->entry < 0 ||
	    parse_ll(&w[1], &row->delta) || row->delta < KFTLOG_DELTA_STACK ||
	    parse_pid(&w[2], &row->pid, &row->cpu))
		return -1;
	names->func = w[3].s;
	names->func_len = w[3].len;
	names->caller = w[4].s;
	names->caller_len = w[4].len;
	return 0;
}

enum kftlog_line kftlog_scan_line(struct kftlog_scan *s, const char *line, size_t len,
				  struct kftlog_row *row, struct kftlog_names *names)
{
	struct kftlog_word w;
	int blank = line && split_words(line, len, &w, 1) == 0;

	s->lineno++;
	s->text_lines += !blank;
	if (!s->in_rows) {
		s->in_rows = line && len >= 8 && !strncmp(line, "--------", 8);
		if (line && len >= sizeof(KFTLOG_COUNT_MODE_LINE) - 1 &&
		    !strncmp(line, KFTLOG_COUNT_MODE_LINE, sizeof(KFTLOG_COUNT_MODE_LINE) - 1))
			s->count_mode = 1;
		return KFTLOG_TEXT;
	}
	/* A count-mode log's rows are no calls: none is a row, none malformed. */
	if (blank || s->count_mode)
		return KFTLOG_TEXT;
	if (!line || parse_row(line, len, row, names)) {
		s->malformed++;
		return KFTLOG_MALFORMED;
	}
	s->rows++;
	return KFTLOG_ROW;
}

int kftlog_scan_is_log(const struct kftlog_scan *s)
{
	if (s->count_mode)
		return 0;
	return s->rows || (s->in_rows && !s->malformed) || !s->text_lines;
}

static int kftlog__add(struct kftlog *log, struct kftlog_row *row,
		       const struct kftlog_names *names)
{
	if (log->nr == log->max_rows) {
		errno = EFBIG;
		return -1;
	}
	if (log->nr == log->cap) {
		size_t n = log->cap ? log->cap * 2 : 1024;
		struct kftlog_row *more = realloc(log->rows, n * sizeof(*more));

		if (!more)
			return -1;
		log->rows = more;
		log->cap = n;
	}
	row->func = strtab__intern(&log->names, names->func, names->func_len);
	row->caller = strtab__intern(&log->names, names->caller, names->caller_len);
	if (!row->func || !row->caller)
		return -1;
	log->rows[log->nr++] = *row;
	return 0;
}

/* One line (NULL: too long); -1 with errno when the log cannot go on. */
static int kftlog__line(struct kftlog *log, const char *line, size_t len,
			const char *name, FILE *warn)
{
	struct kftlog_names names;
	struct kftlog_row row;

	switch (kftlog_scan_line(&log->scan, line, len, &row, &names)) {
	case KFTLOG_ROW:
		return kftlog__add(log, &row, &names);
	case KFTLOG_MALFORMED:
		if (warn && log->scan.malformed <= KFTLOG_WARNINGS_SHOWN)
			fprintf(warn, "%s:%u: warning: malformed row skipped\n", name,
				log->scan.lineno);
		return 0;
	default:
		return 0;
	}
}

static struct kftlog *kftlog__new(size_t max_rows)
{
	struct kftlog *log = calloc(1, sizeof(*log));

	if (!log)
		return NULL;
	log->max_rows = max_rows;
	/* A real log's names are a small share of it: a cap, not a budget. */
	log->names.limit = max_rows < (size_t)-1 / KFTLOG_NAME_BYTES_PER_ROW ?
			   max_rows * KFTLOG_NAME_BYTES_PER_ROW : 0;
	return log;
}

struct kftlog *kftlog__read(FILE *in, const char *name, FILE *warn, size_t max_rows)
{
	struct kftlog *log = kftlog__new(max_rows);
	char *line = malloc(KFTLOG_LINE_MAX);
	enum line_status st;
	int too_long = 0;
	size_t len;

	if (!log || !line)
		goto err;
	while ((st = line_read(in, line, KFTLOG_LINE_MAX, &len)) == LINE_WHOLE ||
	       st == LINE_PART) {
		/* A long line's parts are dropped; its last one counts it. */
		if (st == LINE_PART) {
			too_long = 1;
			continue;
		}
		if (kftlog__line(log, too_long ? NULL : line, len, name, warn))
			goto err;
		too_long = 0;
	}
	if (st == LINE_ERROR || (too_long && kftlog__line(log, NULL, 0, name, warn)))
		goto err;
	if (warn && log->scan.malformed > KFTLOG_WARNINGS_SHOWN)
		fprintf(warn, "%s: warning: %zu malformed rows skipped in all\n", name,
			log->scan.malformed);
	free(line);
	return log;
err:
	{
		int err = errno;	/* set by whatever failed */

		free(line);
		kftlog__free(log);
		errno = err;
		return NULL;
	}
}

struct kftlog *kftlog__parse(const char *text, size_t len, const char *name, FILE *warn)
{
	FILE *in = fmemopen((void *)text, len, "r");
	struct kftlog *log;

	if (!in)
		return NULL;
	log = kftlog__read(in, name, warn, KFTLOG_MAX_ROWS);
	fclose(in);
	return log;
}

void kftlog__free(struct kftlog *log)
{
	if (!log)
		return;
	free(log->rows);
	strtab__free(&log->names);
	free(log);
}

// SPDX-License-Identifier: GPL-2.0
/* kft logs: see kftlog.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kftlog.h"
#include "readall.h"

static int parse_ll(const char *s, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno || end == s || *end ? -1 : 0;
}

/* "33", "33.1", "-1.0". */
static int parse_pid(const char *s, int *pid, int *cpu)
{
	long long p, c = -1;
	char buf[32], *dot;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	dot = strchr(buf, '.');
	if (dot) {
		*dot = '\0';
		if (parse_ll(dot + 1, &c) || c < 0)
			return -1;
	}
	if (parse_ll(buf, &p) || p < -1 || p > 0x7fffffff)
		return -1;
	*pid = (int)p;
	*cpu = (int)c;
	return 0;
}

/* Splits a row into its five words; more words are allowed and ignored. */
static int parse_row(char *line, struct kftlog_row *row)
{
	char *w[5];
	int i;

	for (i = 0; i < 5; i++) {
		w[i] = strtok(i ? NULL : line, " \t\r");
		if (!w[i])
			return -1;
	}
	if (parse_ll(w[0], &row->entry) || row->entry < 0 ||
	    parse_ll(w[1], &row->delta) || row->delta < KFTLOG_DELTA_STACK ||
	    parse_pid(w[2], &row->pid, &row->cpu))
		return -1;
	row->func = w[3];
	row->caller = w[4];
	return 0;
}

static int kftlog__add(struct kftlog *log, size_t *cap, const struct kftlog_row *row)
{
	if (log->nr == *cap) {
		size_t n = *cap ? *cap * 2 : 1024;
		struct kftlog_row *more = realloc(log->rows, n * sizeof(*more));

		if (!more)
			return -1;
		log->rows = more;
		*cap = n;
	}
	log->rows[log->nr++] = *row;
	return 0;
}

static int blank(const char *s)
{
	return !s[strspn(s, " \t\r")];
}

struct kftlog *kftlog__parse(const char *text, size_t len, const char *name, FILE *warn)
{
	struct kftlog *log = calloc(1, sizeof(*log));
	struct kftlog_row row;
	unsigned int lineno = 0;
	int in_rows = 0;
	size_t cap = 0;
	char *p, *nl;

	if (!log || !(log->strings = malloc(len + 1)))
		goto err;
	memcpy(log->strings, text, len);
	log->strings[len] = '\0';
	for (p = log->strings; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		if (!in_rows) {
			in_rows = !strncmp(p, "--------", 8);
			continue;
		}
		if (blank(p))
			continue;
		row.line = lineno;
		if (parse_row(p, &row)) {
			log->warnings++;
			if (warn)
				fprintf(warn, "%s:%u: warning: malformed row skipped\n", name, lineno);
			continue;
		}
		if (kftlog__add(log, &cap, &row))
			goto err;
	}
	return log;
err:
	kftlog__free(log);
	errno = ENOMEM;
	return NULL;
}

struct kftlog *kftlog__read(FILE *in, const char *name, FILE *warn)
{
	struct kftlog *log = NULL;
	size_t len;
	char *text = read_all(in, &len);

	if (text)
		log = kftlog__parse(text, len, name, warn);
	free(text);
	return log;
}

void kftlog__free(struct kftlog *log)
{
	if (!log)
		return;
	free(log->rows);
	free(log->strings);
	free(log);
}

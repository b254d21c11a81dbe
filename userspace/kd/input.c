// SPDX-License-Identifier: GPL-2.0
/*
 * kd --flamegraph's input: a kft log, or folded stacks ("a;b;c N" a line,
 * as kd --folded, bcc's -f, bpftrace and perf's stackcollapse write them).
 * The first line that is not blank tells which: a kft log starts with its
 * header ("Kernel Instrumentation Run ID N", or "No logging run
 * registered") or its "--------" line; anything else is folded stacks.
 * Read a line at a time in bounded memory, as logs are.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "kd.h"
#include "linereader.h"

/* Malformed lines named one by one; after these, only counted. */
#define KD_WARNINGS_SHOWN	10

enum kd_input_kind { KD_INPUT_UNKNOWN, KD_INPUT_LOG, KD_INPUT_FOLDED };

struct kd_input {
	const char *name;
	FILE *warn;
	size_t max_rows;
	enum kd_input_kind kind;
	unsigned int lineno, blanks;	/* blank lines before the first other */
	struct kftlog *log;
	struct flame *f;
};

static int kd_starts(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(line, prefix, n);
}

static int kd_is_blank(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!strchr(" \t\r\n", line[i]) || !line[i])
			return 0;
	return 1;
}

/* The first line that is not blank decides; the blank ones go to the log. */
static int kd_input_decide(struct kd_input *in, const char *line, size_t len)
{
	unsigned int i;

	if (!line || (!kd_starts(line, len, "Kernel Instrumentation Run ID") &&
		      !kd_starts(line, len, "No logging run registered") &&
		      !kd_starts(line, len, "--------"))) {
		in->kind = KD_INPUT_FOLDED;
		return 0;
	}
	in->kind = KD_INPUT_LOG;
	in->log = kftlog__new(in->max_rows);
	if (!in->log)
		return -1;
	for (i = 0; i < in->blanks; i++)
		if (kftlog__feed(in->log, "\n", 1, in->name, in->warn))
			return -1;
	return 0;
}

static int kd_input_folded(struct kd_input *in, const char *line, size_t len)
{
	int ret = line ? flame__add_line(in->f, line, len) : FLAME_MALFORMED;

	if (!line)
		in->f->malformed++;
	if (ret == FLAME_MALFORMED && in->warn && in->f->malformed <= KD_WARNINGS_SHOWN)
		fprintf(in->warn, "%s:%u: warning: malformed line skipped (not 'STACK COUNT')\n",
			in->name, in->lineno);
	return ret < 0 ? -1 : 0;
}

/* A line (NULL: over FLAME_LINE_MAX bytes); -1 with errno to stop. */
static int kd_input_line(struct kd_input *in, const char *line, size_t len)
{
	if (in->kind == KD_INPUT_UNKNOWN) {
		if (line && kd_is_blank(line, len)) {
			in->blanks++;
			return 0;
		}
		if (kd_input_decide(in, line, len))
			return -1;
		in->lineno = in->blanks;
	}
	in->lineno++;
	if (in->kind == KD_INPUT_LOG)
		return kftlog__feed(in->log, line && len < KFTLOG_LINE_MAX ? line : NULL, len,
				    in->name, in->warn);
	return kd_input_folded(in, line, len);
}

static int kd_input_lines(struct kd_input *in, FILE *file, char *line)
{
	enum line_status st;
	int too_long = 0;
	size_t len;

	while ((st = line_read(file, line, FLAME_LINE_MAX, &len)) == LINE_WHOLE ||
	       st == LINE_PART) {
		/* A long line's parts are dropped; its last one counts it. */
		if (st == LINE_PART) {
			too_long = 1;
			continue;
		}
		if (kd_input_line(in, too_long ? NULL : line, len))
			return -1;
		too_long = 0;
	}
	if (st == LINE_ERROR || (too_long && kd_input_line(in, NULL, 0)))
		return -1;
	return 0;
}

int kd_read_flame_input(FILE *file, const char *name, FILE *warn, size_t max_rows,
			struct kftlog **log, struct flame *f)
{
	struct kd_input in = { .name = name, .warn = warn, .max_rows = max_rows, .f = f };
	char *line = malloc(FLAME_LINE_MAX);
	int ret = line ? kd_input_lines(&in, file, line) : -1;
	int err = errno;

	free(line);
	if (in.log)
		kftlog__end(in.log, name, warn);
	else if (warn && f->malformed > KD_WARNINGS_SHOWN)
		fprintf(warn, "%s: warning: %zu malformed lines skipped in all\n", name,
			f->malformed);
	if (ret) {
		kftlog__free(in.log);
		in.log = NULL;
	}
	*log = in.log;
	errno = err;
	return ret;
}

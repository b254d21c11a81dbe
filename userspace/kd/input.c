// SPDX-License-Identifier: GPL-2.0
/*
 * kd --flamegraph's input: a kft log, or folded stacks ("a;b;c N" a line,
 * as kd --folded, bcc's -f, bpftrace and perf's stackcollapse write them).
 * The first line that is not blank tells which: a kft log starts with its
 * header ("Kernel Instrumentation Run ID N", or "No logging run
 * registered") or its "--------" line; anything else is folded stacks,
 * unless a line begins kft's last calls in a saved console (kftcon.h):
 * then the input is that console, read as a log from there, and the
 * warnings about folded lines, held until then, are dropped. Read a line
 * at a time in bounded memory, as logs are.
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
	size_t max_rows;
	unsigned int dump;
	const int *cut_said;		/* as kftcon__new()'s */
	enum kd_input_kind kind;
	unsigned int lineno, blanks;	/* blank lines before the first other */
	struct kftcon *con;		/* a log's, or a console's, reader */
	struct flame *f;
	FILE *held;			/* folded stacks' warnings */
	char *held_text;
	size_t held_len;
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

/* The input is a log, or a console: its reader, the lines before counted. */
static int kd_input_log(struct kd_input *in, unsigned int before)
{
	unsigned int i;

	in->kind = KD_INPUT_LOG;
	in->con = kftcon__new(in->max_rows, in->dump, in->cut_said);
	if (!in->con)
		return -1;
	for (i = 0; i < before; i++)
		if (kftcon__feed(in->con, "\n", 1, in->name))
			return -1;
	return 0;
}

/* The first line that is not blank decides; the blank ones go to the log. */
static int kd_input_decide(struct kd_input *in, const char *line, size_t len)
{
	if (!line || (!kd_starts(line, len, "Kernel Instrumentation Run ID") &&
		      !kd_starts(line, len, "No logging run registered") &&
		      !kd_starts(line, len, "--------"))) {
		in->kind = KD_INPUT_FOLDED;
		return 0;
	}
	return kd_input_log(in, in->blanks);
}

static int kd_input_folded(struct kd_input *in, const char *line, size_t len)
{
	int ret = line ? flame__add_line(in->f, line, len) : FLAME_MALFORMED;

	if (!line)
		in->f->malformed++;
	if (ret == FLAME_MALFORMED && in->f->malformed <= KD_WARNINGS_SHOWN)
		fprintf(in->held, "%s:%u: warning: malformed line skipped (not 'STACK COUNT')\n",
			in->name, in->lineno);
	return ret < 0 ? -1 : 0;
}

/* Whether a line begins kft's last calls: the input is a console from there. */
static int kd_input_console(const char *line, size_t len)
{
	const char *text;
	size_t text_len;

	return line && kftcon_line(line, len, &text, &text_len) == KFTCON_START;
}

/* A line (NULL: over FLAME_LINE_MAX bytes); -1 with errno to stop. */
static int kd_input_line(void *arg, const char *line, size_t len)
{
	struct kd_input *in = arg;

	if (in->kind == KD_INPUT_UNKNOWN) {
		if (line && kd_is_blank(line, len)) {
			in->blanks++;
			return 0;
		}
		if (kd_input_decide(in, line, len))
			return -1;
		in->lineno = in->blanks;
	}
	if (in->kind == KD_INPUT_FOLDED && kd_input_console(line, len) &&
	    kd_input_log(in, in->lineno))
		return -1;
	in->lineno++;
	if (in->kind == KD_INPUT_LOG)
		return kftcon__feed(in->con, line && len < KFTLOG_LINE_MAX ? line : NULL, len,
				    in->name);
	return kd_input_folded(in, line, len);
}

int kd_read_flame_input(FILE *file, const char *name, FILE *warn, size_t max_rows,
			unsigned int dump, const int *cut_said, struct kftlog **log,
			struct kftcon_info *info, struct flame *f)
{
	struct kd_input in = { .name = name, .max_rows = max_rows, .dump = dump,
			       .cut_said = cut_said, .f = f };
	char *line = malloc(FLAME_LINE_MAX);
	int ret, err;

	memset(info, 0, sizeof(*info));
	*log = NULL;
	in.held = open_memstream(&in.held_text, &in.held_len);
	ret = line && in.held ? line_each(file, line, FLAME_LINE_MAX, kd_input_line, &in) : -1;
	err = line && in.held ? errno : ENOMEM;
	free(line);
	if (!ret && in.con) {
		*log = kftcon__end(in.con, name, warn, info);
		ret = *log ? 0 : -1;
		err = errno;
	} else if (!ret && in.held && !fflush(in.held)) {
		if (warn && in.held_len)
			fwrite(in.held_text, 1, in.held_len, warn);
		if (warn && f->malformed > KD_WARNINGS_SHOWN)
			fprintf(warn, "%s: warning: %zu malformed lines skipped in all\n", name,
				f->malformed);
	} else if (!ret) {
		ret = -1;
		err = ENOMEM;
	} else {
		kftcon__free(in.con);
	}
	if (in.held)
		fclose(in.held);
	free(in.held_text);
	errno = err;
	return ret;
}

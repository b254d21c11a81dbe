// SPDX-License-Identifier: GPL-2.0
/* kft logs: see kftlog.h. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "kftlog.h"
#include "linereader.h"
#include "words.h"

/* Malformed rows named one by one; after these, only counted. */
#define KFTLOG_WARNINGS_SHOWN	10

/* "33", "33.1", "-1.0". */
static int parse_pid(const struct word *w, int *pid, int *cpu)
{
	const char *dot = memchr(w->s, '.', w->len);
	struct word p = { w->s, dot ? (size_t)(dot - w->s) : w->len };
	long long pv, c = -1;

	if (dot) {
		struct word cw = { dot + 1, w->len - p.len - 1 };

		if (word_ll(&cw, &c) || c < 0 || c > 0x7fffffff)
			return -1;
	}
	if (word_ll(&p, &pv) || pv < -1 || pv > 0x7fffffff)
		return -1;
	*pid = (int)pv;
	*cpu = (int)c;
	return 0;
}

static int is_left(const struct word *w)
{
	return w->len >= 5 && !memcmp(w->s, "left=", 5);
}

/* "0x" and 1 to 16 hex digits. */
static int parse_hex(const struct word *w, unsigned long long *v)
{
	size_t i;

	if (w->len < 3 || w->len > 18 || w->s[0] != '0' || w->s[1] != 'x')
		return -1;
	*v = 0;
	for (i = 2; i < w->len; i++) {
		char c = w->s[i];
		int d = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

		if (d < 0)
			return -1;
		*v = *v << 4 | (unsigned long long)d;
	}
	return 0;
}

/*
 * A call's return column: "-22", "0x0", "hidden", or "-" (none). Any other
 * word there means nothing, as after the comm of older logs: the row has
 * no return value.
 */
static void parse_ret(const struct word *w, struct kftlog_row *row)
{
	long long e;

	if (word_is(w, "hidden")) {
		row->ret = KFTLOG_RET_HIDDEN;
	} else if (!parse_hex(w, &row->ret_value)) {
		row->ret = KFTLOG_RET_VALUE;
	} else if (!word_ll(w, &e) && e < 0 && e >= -KFTLOG_MAX_ERRNO) {
		row->ret = KFTLOG_RET_ERROR;
		row->ret_error = e;
	}
	if (row->ret != KFTLOG_RET_VALUE)
		row->ret_value = 0;
}

/* "NAME=VALUE", VALUE not empty: VALUE into v; 0, or -1 when the word is another. */
static int split_named(const struct word *w, const char *name, struct word *v)
{
	size_t n = strlen(name);

	if (w->len <= n + 1 || memcmp(w->s, name, n) || w->s[n] != '=')
		return -1;
	*v = (struct word){ w->s + n + 1, w->len - n - 1 };
	return 0;
}

/* "NAME=N" (N a number, not negative): N into v; 0, or -1 when the word is another. */
static int parse_named(const struct word *w, const char *name, long long *v)
{
	struct word num;

	return split_named(w, name, &num) || word_ll(&num, v) || *v < 0 ? -1 : 0;
}

/*
 * args=V,V,...: each V a value as a RETURN column writes one (an error,
 * hex, or "hidden"), at least one. Return: 0, or -1 when the word is
 * another or malformed (then ignored, as other unknown words are).
 */
static int parse_args(const struct word *w, struct kftlog_names *names)
{
	struct word v, item;
	struct kftlog_row scratch;
	size_t at, end;

	if (split_named(w, "args", &v))
		return -1;
	for (at = 0; at <= v.len; at = end + 1) {
		for (end = at; end < v.len && v.s[end] != ','; end++)
			;
		item = (struct word){ v.s + at, end - at };
		scratch.ret = KFTLOG_RET_NONE;
		parse_ret(&item, &scratch);
		if (scratch.ret == KFTLOG_RET_NONE)
			return -1;
	}
	names->args = v.s;
	names->args_len = v.len;
	return 0;
}

/* memN=HEX's bytes: two lower-case hex digits each, one at least. */
static int is_mem_bytes(const struct word *v)
{
	size_t i;

	if (!v->len || v->len % 2)
		return 0;
	for (i = 0; i < v->len; i++)
		if (!((v->s[i] >= '0' && v->s[i] <= '9') || (v->s[i] >= 'a' && v->s[i] <= 'f')))
			return 0;
	return 1;
}

/*
 * strN=VALUE (args string): N an argument, 1 to 8; VALUE "(fault)",
 * "hidden" (to a reader who sees no addresses), or a string in double quotes, "..." after them when it was cut, with no
 * double quote inside that a backslash does not escape. memN=VALUE (args
 * struct): the same but the bytes in hex. Return: 0, or -1 when the word
 * is another or malformed (then ignored).
 */
static int parse_str(const struct word *w, struct kftlog_row *row, struct kftlog_names *names)
{
	struct word v;
	size_t i, end;
	int mem;

	if (w->len < 6)
		return -1;
	mem = !memcmp(w->s, "mem", 3);
	if ((!mem && memcmp(w->s, "str", 3)) || w->s[3] < '1' || w->s[3] > '8' || w->s[4] != '=')
		return -1;
	v = (struct word){ w->s + 5, w->len - 5 };
	if (mem && !word_is(&v, "(fault)") && !word_is(&v, "hidden") && !is_mem_bytes(&v))
		return -1;
	if (!mem && v.len < 2)
		return -1;
	if (!mem && !word_is(&v, "(fault)") && !word_is(&v, "hidden")) {
		end = v.len >= 5 && !memcmp(v.s + v.len - 3, "...", 3) ? v.len - 3 : v.len;
		if (end < 2 || v.s[0] != '"' || v.s[end - 1] != '"')
			return -1;
		for (i = 1; i < end - 1; i++) {
			if (v.s[i] == '"')
				return -1;
			if (v.s[i] == '\\' && ++i == end - 1)
				return -1;
		}
	}
	row->str_arg = w->s[3] - '0';
	row->str_mem = mem;
	names->str = v.s;
	names->str_len = v.len;
	return 0;
}

/* A call's words after RETURN: offcpu's three times, args, and "cut". */
static void parse_after_ret(const struct word *w, size_t nr, struct kftlog_row *row,
			    struct kftlog_names *names)
{
	size_t i = 7;

	row->cut = 0;
	row->str_arg = 0;
	row->str_mem = 0;
	row->has_sched = 0;
	row->oncpu = row->runnable = row->blocked = 0;
	if (row->delta < 0)
		return;
	if (nr >= 10 && !parse_named(&w[7], "oncpu", &row->oncpu) &&
	    !parse_named(&w[8], "runnable", &row->runnable) &&
	    !parse_named(&w[9], "blocked", &row->blocked)) {
		row->has_sched = 1;
		i = 10;
	} else {
		row->oncpu = row->runnable = row->blocked = 0;
	}
	if (nr > i && !parse_args(&w[i], names))
		i++;
	if (nr > i && !parse_str(&w[i], row, names))
		i++;
	row->cut = nr > i && word_is(&w[i], "cut");
}

/*
 * A wake row's words after the five: the sleeper's name, always there (no
 * log before the comm column has wake rows), then on a set's first row
 * "waker=PID wcomm=NAME slept=N". A sleeper is a task, never an interrupt.
 * The first row is told by its "waker=": with that word but not the three
 * the row is malformed, so that it cannot pass for a continuation row.
 */
static int parse_wake(const struct word *w, size_t nr, struct kftlog_row *row,
		      struct kftlog_names *names)
{
	struct word v;
	long long pid;

	if (nr < 6 || row->pid < 0)
		return -1;
	names->comm = w[5].s;
	names->comm_len = w[5].len;
	if (nr < 7 || w[6].len < 6 || memcmp(w[6].s, "waker=", 6))
		return 0;
	if (nr < 9 || split_named(&w[6], "waker", &v) || word_ll(&v, &pid) || pid < -1 ||
	    pid > 0x7fffffff || split_named(&w[7], "wcomm", &v) ||
	    parse_named(&w[8], "slept", &row->slept))
		return -1;
	row->waker_pid = (int)pid;
	names->waker_comm = v.s;
	names->waker_comm_len = v.len;
	return 0;
}

/*
 * After the five words: the task's name (the comm column), then on a stack
 * watch's first row "left=N", on a call's row its return value. A log from
 * before the comm column has "left=N" sixth (so a stack row's task cannot
 * be named "left=..."); one from before the return column has nothing
 * after the comm; any other word on a stack row means nothing here. A
 * wake row's words are parse_wake()'s.
 */
static int parse_tail(const struct word *w, size_t nr, struct kftlog_row *row,
		      struct kftlog_names *names)
{
	const struct word *left = NULL;
	struct word n;

	names->comm = names->waker_comm = names->args = names->str = "";
	names->comm_len = names->waker_comm_len = names->args_len = names->str_len = 0;
	row->left = -1;
	row->ret = KFTLOG_RET_NONE;
	row->ret_error = 0;
	row->ret_value = 0;
	row->waker_pid = -1;
	row->slept = -1;
	parse_after_ret(w, nr, row, names);
	if (row->delta == KFTLOG_DELTA_WAKE)
		return parse_wake(w, nr, row, names);
	if (nr >= 7 && row->delta != KFTLOG_DELTA_STACK)
		parse_ret(&w[6], row);
	if (nr >= 6 && row->delta == KFTLOG_DELTA_STACK && is_left(&w[5])) {
		left = &w[5];
	} else if (nr >= 6) {
		names->comm = w[5].s;
		names->comm_len = w[5].len;
		if (nr >= 7 && row->delta == KFTLOG_DELTA_STACK && is_left(&w[6]))
			left = &w[6];
	}
	if (!left)
		return 0;
	n = (struct word){ left->s + 5, left->len - 5 };
	return word_ll(&n, &row->left) || row->left < 0 ? -1 : 0;
}

/*
 * The kernel's word from an address column as kft writes it ("0x" and
 * all its digits: 8 for a 32-bit kernel, 16 for a 64-bit one); 0 for a
 * symbol or another width.
 */
static unsigned int address_word_bytes(const char *s, size_t len)
{
	size_t i;

	if ((len != 10 && len != 18) || s[0] != '0' || s[1] != 'x')
		return 0;
	for (i = 2; i < len; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	}
	return (unsigned int)(len - 2) / 2;
}

/* A row's five words, and the eight after that mean something; more are ignored. */
static int parse_row(const char *line, size_t len, struct kftlog_row *row,
		     struct kftlog_names *names)
{
	struct word w[13];
	size_t nr;

	/* A NUL byte would cut a name short, or empty it: no row has one. */
	if (memchr(line, '\0', len) || (nr = words_split(line, len, w, 13)) < 5 ||
	    word_ll(&w[0], &row->entry) || row->entry < 0 ||
	    word_ll(&w[1], &row->delta) || row->delta < KFTLOG_DELTA_WAKE ||
	    parse_pid(&w[2], &row->pid, &row->cpu) || parse_tail(w, nr, row, names))
		return -1;
	names->func = w[3].s;
	names->func_len = w[3].len;
	names->caller = w[4].s;
	names->caller_len = w[4].len;
	return 0;
}

static int starts_with(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return line && len >= n && !strncmp(line, prefix, n);
}

int kftlog_rows_line(const char *line, size_t len, long long *rows)
{
	size_t n = strlen(KFTLOG_ROWS_LINE);
	struct word w[2];

	if (!starts_with(line, len, KFTLOG_ROWS_LINE))
		return 0;
	if (words_split(line + n, len - n, w, 2) == 1 && !word_ll(&w[0], rows) && *rows >= 0)
		return 1;
	return -1;
}

/*
 * A count that is none switches the cut-short check off for good, even if
 * another line counts again (which of them is right is not known), and the
 * first such line is kept for the warning that says so.
 */
static void scan_rows_line(struct kftlog_scan *s, const char *line, size_t len)
{
	long long rows;
	int said = kftlog_rows_line(line, len, &rows);

	if (!said)
		return;
	if (said > 0 && !s->bad_rows_line) {
		s->header_rows = rows;
		s->has_header_rows = 1;
		return;
	}
	s->has_header_rows = 0;
	if (!s->bad_rows_line)
		s->bad_rows_line = s->lineno;
}

/*
 * The kernel that wrote the log: the first "Kernel:" line's release (none
 * if it has no word, or one too long for a release), as kft writes one
 * line. A later one's line is kept, for the tools to say.
 */
static void scan_kernel_line(struct kftlog_scan *s, const char *line, size_t len)
{
	size_t n = strlen(KFTLOG_KERNEL_LINE);
	struct word w;

	if (!starts_with(line, len, KFTLOG_KERNEL_LINE))
		return;
	if (s->kernel_line) {
		if (!s->kernel_again_line)
			s->kernel_again_line = s->lineno;
		return;
	}
	s->kernel_line = s->lineno;
	if (words_split(line + n, len - n, &w, 1) == 1 && w.len <= KFTLOG_RELEASE_MAX &&
	    !memchr(w.s, '\0', w.len)) {
		memcpy(s->kernel, w.s, w.len);
		s->kernel[w.len] = '\0';
	}
}

enum kftlog_line kftlog_scan_line(struct kftlog_scan *s, const char *line, size_t len,
				  struct kftlog_row *row, struct kftlog_names *names)
{
	struct word w;
	int blank = line && words_split(line, len, &w, 1) == 0;

	s->lineno++;
	s->text_lines += !blank;
	s->unterminated = line && (!len || line[len - 1] != '\n');
	/* A stacks-mode log has no rows: its blocks are kftstacks' lines. */
	if (s->stacks_mode)
		return KFTLOG_TEXT;
	if (!s->in_rows) {
		s->in_rows = line && len >= 8 && !strncmp(line, "--------", 8);
		scan_rows_line(s, line, len);
		scan_kernel_line(s, line, len);
		if (starts_with(line, len, KFTLOG_UNITS_NS_LINE))
			s->units_ns = 1;
		if (starts_with(line, len, KFTLOG_COUNT_MODE_LINE))
			s->count_mode = 1;
		else if (!s->count_mode && starts_with(line, len, KFTLOG_STACKS_MODE_LINE))
			s->stacks_mode = 1;
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
	if (!s->word_bytes)
		s->word_bytes = address_word_bytes(names->func, names->func_len);
	if (!s->word_bytes)
		s->word_bytes = address_word_bytes(names->caller, names->caller_len);
	return KFTLOG_ROW;
}

/* Whether the rows are as many as the header counts, if it counts; if not, a warning. */
static int kftlog_scan_check_count(const struct kftlog_scan *s, const char *name, FILE *warn)
{
	/* A line that is no row still stands for one: the count is of lines. */
	long long rows = (long long)(s->rows + s->malformed);

	if (s->has_header_rows && rows < s->header_rows) {
		/* A damaged input is said once: its reader may have said the cut. */
		if (warn && !s->cut_said)
			fprintf(warn, "%s: warning: the log is cut short: %lld of the %lld rows "
				"its header counts\n", name, rows, s->header_rows);
		return -1;
	}
	if (s->has_header_rows && rows > s->header_rows) {
		if (warn)
			fprintf(warn, "%s: warning: %lld rows, but its header counts %lld\n",
				name, rows, s->header_rows);
		return -1;
	}
	return 0;
}

int kftlog_scan_check_end(const struct kftlog_scan *s, const char *name, FILE *warn)
{
	int ret = 0;

	if (!s->in_rows || s->count_mode || s->stacks_mode)
		return 0;
	/* Without a count the last line is still checked: a bad count is no count. */
	if (s->bad_rows_line) {
		if (warn)
			fprintf(warn, "%s:%u: warning: the header's count of rows is no number: "
				"the rows are not checked against it\n", name,
				s->bad_rows_line);
		ret = -1;
	} else if (kftlog_scan_check_count(s, name, warn)) {
		return -1;
	}
	/* /proc/kft_data ends every line: a log that does not was cut inside one. */
	if (s->unterminated) {
		if (warn)
			fprintf(warn, "%s: warning: the log is cut short inside its last "
				"line\n", name);
		return -1;
	}
	return ret;
}

int kftlog_scan_is_log(const struct kftlog_scan *s)
{
	if (s->count_mode || s->stacks_mode)
		return 0;
	return s->rows || (s->in_rows && !s->malformed);
}

const char *kftlog_scan_empty(const struct kftlog_scan *s)
{
	if (s->text_lines)
		return NULL;
	return s->lineno ? "has only blank lines" : "is empty";
}

static int kftlog__add(struct kftlog *log, struct kftlog_row *row,
		       const struct kftlog_names *names)
{
	/* Room for one more row, never past max_rows (EFBIG there). */
	struct kftlog_row *rows = array_room(log->rows, &log->cap, log->nr, sizeof(*rows),
					     log->max_rows);

	if (!rows)
		return -1;
	log->rows = rows;
	row->func = strtab__intern(&log->names, names->func, names->func_len);
	row->caller = strtab__intern(&log->names, names->caller, names->caller_len);
	row->comm = strtab__intern(&log->names, names->comm, names->comm_len);
	row->waker_comm = strtab__intern(&log->names, names->waker_comm, names->waker_comm_len);
	row->args = strtab__intern(&log->names, names->args, names->args_len);
	row->str = strtab__intern(&log->names, names->str, names->str_len);
	if (!row->func || !row->caller || !row->comm || !row->waker_comm || !row->args ||
	    !row->str)
		return -1;
	log->rows[log->nr++] = *row;
	return 0;
}

/* The first few malformed lines (counted already) are named. */
static void kftlog__warn(struct kftlog *log, const char *what, const char *name, FILE *warn)
{
	if (warn && log->scan.malformed <= KFTLOG_WARNINGS_SHOWN)
		fprintf(warn, "%s:%u: warning: malformed %s skipped\n", name, log->scan.lineno,
			what);
}

/* A line of a stacks-mode log's blocks (the header's lines are kftstacks' too). */
static int kftlog__stacks_line(struct kftlog *log, const char *line, size_t len,
			       const char *name, FILE *warn)
{
	/* Blocks and frames are rows for the row limit. */
	int ret = kftstacks__line(&log->stacks, &log->names, line, len, log->max_rows);

	if (ret == KFTSTACKS_MALFORMED) {
		log->scan.malformed++;
		kftlog__warn(log, "line", name, warn);
	}
	return ret < 0 ? -1 : 0;
}

int kftlog__feed(struct kftlog *log, const char *line, size_t len, const char *name,
		 FILE *warn)
{
	struct kftlog_names names;
	struct kftlog_row row;

	switch (kftlog_scan_line(&log->scan, line, len, &row, &names)) {
	case KFTLOG_ROW:
		return kftlog__add(log, &row, &names);
	case KFTLOG_MALFORMED:
		kftlog__warn(log, "row", name, warn);
		return 0;
	default:
		if (log->scan.stacks_mode)
			return kftlog__stacks_line(log, line, len, name, warn);
		return 0;
	}
}

int kftlog__feed_at(struct kftlog *log, unsigned int lineno, const char *line, size_t len,
		    const char *name, FILE *warn)
{
	log->scan.lineno = lineno - 1;	/* the scan counts the line */
	return kftlog__feed(log, line, len, name, warn);
}

void kftlog__end(struct kftlog *log, const char *name, FILE *warn)
{
	if (warn && log->scan.malformed > KFTLOG_WARNINGS_SHOWN)
		fprintf(warn, "%s: warning: %zu malformed %s skipped in all\n", name,
			log->scan.malformed, log->scan.stacks_mode ? "lines" : "rows");
	kftlog_scan_check_end(&log->scan, name, warn);
}

struct kftlog *kftlog__new(size_t max_rows)
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

/* What kftlog__read() feeds each line to (line_each()). */
struct kftlog_reading {
	struct kftlog *log;
	const char *name;
	FILE *warn;
};

static int kftlog__feed_each(void *arg, const char *line, size_t len)
{
	struct kftlog_reading *r = arg;

	return kftlog__feed(r->log, line, len, r->name, r->warn);
}

struct kftlog *kftlog__read(FILE *in, const char *name, FILE *warn, size_t max_rows)
{
	struct kftlog_reading r = { kftlog__new(max_rows), name, warn };
	char *line = malloc(KFTLOG_LINE_MAX);

	if (!r.log || !line || line_each(in, line, KFTLOG_LINE_MAX, kftlog__feed_each, &r)) {
		int err = errno;	/* set by whatever failed */

		free(line);
		kftlog__free(r.log);
		errno = err;
		return NULL;
	}
	kftlog__end(r.log, name, warn);
	free(line);
	return r.log;
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
	kftstacks__free(&log->stacks);
	strtab__free(&log->names);
	free(log);
}

/* Row i's index of a merge, by entry: equal entries keep their order. */
static void kftlog_merge(const struct kftlog_row *rows, const size_t *from, size_t *to,
			 size_t n, size_t w)
{
	size_t i;

	for (i = 0; i < n; i += 2 * w) {
		size_t mid = n - i > w ? i + w : n, hi = n - mid > w ? mid + w : n;
		size_t x = i, y = mid, k = i;

		while (x < mid && y < hi)
			to[k++] = rows[from[y]].entry < rows[from[x]].entry ? from[y++] : from[x++];
		while (x < mid)
			to[k++] = from[x++];
		while (y < hi)
			to[k++] = from[y++];
	}
}

int kftlog__sort(struct kftlog *log)
{
	struct kftlog_row *rows = log->rows, keep;
	size_t n = log->nr, w, i, j, k, *a, *b, *swap;

	for (i = 1; i < n && rows[i - 1].entry <= rows[i].entry; i++)
		;
	if (i >= n)
		return 0;
	a = malloc(n * sizeof(*a));
	b = malloc(n * sizeof(*b));
	if (!a || !b) {
		free(a);
		free(b);
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < n; i++)
		a[i] = i;
	for (w = 1; w < n; w *= 2) {
		kftlog_merge(rows, a, b, n, w);
		swap = a;
		a = b;
		b = swap;
	}
	/* a[k]: the row that goes to place k. Each cycle of it moved in place. */
	for (i = 0; i < n; i++) {
		if (a[i] == i)
			continue;
		keep = rows[i];
		for (j = i; a[j] != i; j = k) {
			k = a[j];
			rows[j] = rows[k];
			a[j] = j;
		}
		rows[j] = keep;
		a[j] = j;
	}
	free(a);
	free(b);
	return 0;
}

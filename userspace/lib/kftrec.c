// SPDX-License-Identifier: GPL-2.0
/*
 * kft record's file (kftrec.h): its first line, and its text. The rows'
 * text is /proc/kft_data's (module/kft_mode_trace.c, kft_output_log_row()),
 * to the byte: kd, addr2sym and scripts read the one as the other.
 */
#define _GNU_SOURCE		/* fopencookie() */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "kftlog.h"
#include "kftrec.h"
#include "kft_str_text.h"
#include "linereader.h"

static_assert(sizeof(struct kft_stream_row) == 64, "a stream row is 64 bytes");
static_assert(sizeof(struct kft_stream_sched) == 24, "offcpu's extension is 24 bytes");
static_assert(sizeof(struct kft_stream_args) == 72, "the arguments' extension is 72 bytes");
static_assert(sizeof(struct kft_stream_str) == 72, "the string's extension is 72 bytes");
/*
 * A record file grows past 2 GiB in a long run: every userspace build
 * has 64-bit file offsets (the Makefile's LFS), 32-bit ones too.
 */
static_assert(sizeof(off_t) == 8, "off_t of 64 bits: build with -D_FILE_OFFSET_BITS=64");

/*
 * Written now (KFTREC_VERSION): rows with extensions, a string's among
 * them. Version 2's rows have no string, version 1's no extension.
 */
#define KFTREC_VERSION_NO_STR	2
#define KFTREC_VERSION_PLAIN	1
/* The bytes of a string the module shows (KFT_STR_LEN). */
#define KFTREC_STR_SHOWN	62
#define KFTREC_LINE_MAX		256

static const char *kftrec_byte_order(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one ? "little-endian" : "big-endian";
}

int kftrec_write_first_line(FILE *out)
{
	return fprintf(out, "%cKFT record %d: %zu-byte rows, %zu-byte addresses, %s\n",
		       KFTREC_FIRST_BYTE, KFTREC_VERSION, sizeof(struct kft_stream_row),
		       sizeof(long), kftrec_byte_order()) < 0 ? -1 : 0;
}

/* A task's name as one word, as the module's kft_output_name() writes it. */
static size_t kftrec_name(const char *name, size_t len, char *buf)
{
	size_t i, n = 0;

	if (!len || !name[0]) {
		memcpy(buf, "\\000", 4);
		return 4;
	}
	for (i = 0; i < len && name[i]; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c <= ' ' || c >= 0x7f || c == '\\')
			n += (size_t)sprintf(buf + n, "\\%03o", c);
		else
			buf[n++] = (char)c;
	}
	return n;
}

size_t kftrec_extras_size(uint16_t flags)
{
	return (flags & KFT_STREAM_ROW_SCHED ? sizeof(struct kft_stream_sched) : 0) +
	       (flags & KFT_STREAM_ROW_ARGS ? sizeof(struct kft_stream_args) : 0) +
	       (flags & KFT_STREAM_ROW_STR ? sizeof(struct kft_stream_str) : 0);
}

size_t kftrec_call_from(const void *bytes, size_t len, struct kftrec_call *call)
{
	const unsigned char *b = bytes;
	size_t at = sizeof(call->row);

	if (len < at)
		return 0;
	memcpy(&call->row, b, sizeof(call->row));
	if (len - at < kftrec_extras_size(call->row.flags))
		return 0;
	/* The times, the arguments, the string, in this order. */
	if (call->row.flags & KFT_STREAM_ROW_SCHED) {
		memcpy(&call->sched, b + at, sizeof(call->sched));
		at += sizeof(call->sched);
	}
	if (call->row.flags & KFT_STREAM_ROW_ARGS) {
		memcpy(&call->args, b + at, sizeof(call->args));
		at += sizeof(call->args);
	}
	if (call->row.flags & KFT_STREAM_ROW_STR) {
		memcpy(&call->str, b + at, sizeof(call->str));
		at += sizeof(call->str);
	}
	return at;
}

/* The string's copy as the module writes it: NULL, or what is wrong. */
static const char *kftrec_str_invalid(const struct kft_stream_str *str)
{
	size_t i, used = 0;

	if (str->state > KFT_STREAM_STR_HIDDEN)
		return "its string's state is none kft writes";
	if (str->arg < 1 || str->arg > KFT_STREAM_ARGS_MAX)
		return "its string's argument is not 1 to 8";
	/* (A copy that was not made or not shown has its run's length.) */
	if (str->len >= KFT_STREAM_STR_LEN ||
	    (str->state == KFT_STREAM_STR_MEM && !str->len) ||
	    ((str->state == KFT_STREAM_STR_WHOLE || str->state == KFT_STREAM_STR_CUT) && str->len))
		return "its string's length goes against its state";
	for (i = 0; i < sizeof(str->pad); i++)
		if (str->pad[i])
			return "its string's padding is not zero";
	if (str->state == KFT_STREAM_STR_MEM)
		used = str->len;
	else if (str->state == KFT_STREAM_STR_WHOLE || str->state == KFT_STREAM_STR_CUT)
		used = strnlen(str->s, sizeof(str->s));
	if (used > KFTREC_STR_SHOWN + (str->state == KFT_STREAM_STR_MEM))
		return "its string is longer than kft keeps";
	for (i = used; i < sizeof(str->s); i++)
		if (str->s[i])
			return "its string's room past its bytes is not zero";
	return NULL;
}

/* The arguments as the module writes them: NULL, or what is wrong. */
static const char *kftrec_args_invalid(const struct kft_stream_args *args)
{
	unsigned int i, used;

	if (args->nr < 1 || args->nr > KFT_STREAM_ARGS_MAX)
		return "its count of arguments is not 1 to 8";
	used = (1u << args->nr) - 1;
	if ((args->error | args->hidden) & ~used || args->error & args->hidden)
		return "its arguments' error and hidden bits contradict each other or its count";
	for (i = 0; i < sizeof(args->pad); i++)
		if (args->pad[i])
			return "its arguments' padding is not zero";
	for (i = 0; i < KFT_STREAM_ARGS_MAX; i++) {
		int64_t v = (int64_t)args->a[i];

		if (args->error & (1u << i) ? v < -4095 || v > -1 :
		    (i >= args->nr || args->hidden & (1u << i)) && v)
			return "an argument's value goes against its bits";
	}
	return NULL;
}

/*
 * The return value as the module's kft_stream_fill() writes it: NULL, or
 * what is wrong. A row is at most one of open, error and hidden; an
 * error's value is -4095 to -1, and an open or hidden call's is 0. The
 * text shows the value by the flags alone, so a row against them would
 * show a value kft never wrote.
 */
static const char *kftrec_retval_invalid(const struct kft_stream_row *row)
{
	uint16_t kind = row->flags & (KFT_STREAM_ROW_OPEN | KFT_STREAM_ROW_ERROR |
				      KFT_STREAM_ROW_HIDDEN);
	int64_t v = (int64_t)row->retval;

	if (kind & (kind - 1))
		return "more than one of open, error and hidden";
	if (kind == KFT_STREAM_ROW_ERROR ? v < -4095 || v > -1 : kind && v)
		return "its return value goes against its flags";
	return NULL;
}

/*
 * The row's times, pid and return value as the module writes them: NULL,
 * or what is wrong. The text shows the times as signed numbers (a delta
 * of -1 is an open call, -2 a stack snapshot's row), so a time past
 * INT64_MAX would read as one of those; kft's times are nanoseconds since
 * the run's start and never come near it. An open call's duration is 0,
 * and a pid is a task's, or -1 in interrupt context.
 */
static const char *kftrec_row_invalid(const struct kft_stream_row *row)
{
	if (row->entry_ns > INT64_MAX)
		return "its entry time is past 2^63 - 1 ns";
	if (row->dur_ns > INT64_MAX)
		return "its duration is past 2^63 - 1 ns";
	if (row->flags & KFT_STREAM_ROW_OPEN && row->dur_ns)
		return "an open call with a duration";
	if (row->pid < -1)
		return "its pid is below -1";
	return kftrec_retval_invalid(row);
}

const char *kftrec_call_invalid(const struct kftrec_call *call, unsigned int version)
{
	uint16_t flags = call->row.flags;

	if (flags & ~KFT_STREAM_ROW_FLAGS)
		return "flags kft does not know";
	if (kftrec_row_invalid(&call->row))
		return kftrec_row_invalid(&call->row);
	if (version == KFTREC_VERSION_PLAIN && kftrec_extras_size(flags))
		return "extensions, which a version 1 file has none of";
	if (version == KFTREC_VERSION_NO_STR && flags & KFT_STREAM_ROW_STR)
		return "a string, which a version 2 file has none of";
	if (flags & KFT_STREAM_ROW_ARGS && kftrec_args_invalid(&call->args))
		return kftrec_args_invalid(&call->args);
	if (flags & KFT_STREAM_ROW_STR)
		return kftrec_str_invalid(&call->str);
	return NULL;
}

/* A register's value as the module's kft_output_value() writes it. */
static int kftrec_value(char *buf, size_t size, uint64_t v, int error, int hidden)
{
	if (error)
		return snprintf(buf, size, "%lld", (long long)(int64_t)v);
	if (hidden)
		return snprintf(buf, size, "hidden");
	return snprintf(buf, size, "0x%llx", (unsigned long long)v);
}

/* offcpu's words, as the module's kft_output_sched(): "" for an open call. */
static void kftrec_sched_text(const struct kftrec_call *call, unsigned int unit, char *buf,
			      size_t size)
{
	const struct kft_stream_sched *s = &call->sched;

	buf[0] = '\0';
	if ((call->row.flags & KFT_STREAM_ROW_SCHED) && !(call->row.flags & KFT_STREAM_ROW_OPEN))
		snprintf(buf, size, " oncpu=%llu runnable=%llu blocked=%llu",
			 (unsigned long long)(s->oncpu_ns / unit),
			 (unsigned long long)(s->runnable_ns / unit),
			 (unsigned long long)(s->blocked_ns / unit));
}

/* args' word, as the module's kft_output_args(). */
static void kftrec_args_text(const struct kftrec_call *call, char *buf, size_t size)
{
	const struct kft_stream_args *a = &call->args;
	size_t used;
	unsigned int i;
	int n;

	buf[0] = '\0';
	if (!(call->row.flags & KFT_STREAM_ROW_ARGS))
		return;
	n = snprintf(buf, size, " args=");
	used = n < 0 ? 0 : (size_t)n;
	for (i = 0; i < a->nr && i < KFT_STREAM_ARGS_MAX && used < size; i++) {
		n = snprintf(buf + used, size - used, "%s", i ? "," : "");
		used += n < 0 ? 0 : (size_t)n;
		if (used >= size)
			break;
		n = kftrec_value(buf + used, size - used, a->a[i], a->error & (1u << i),
				 a->hidden & (1u << i));
		used += n < 0 ? 0 : (size_t)n;
	}
}

/*
 * args string's word, as the module's kft_str_show(): at most
 * KFTREC_STR_TEXT_MAX bytes, its NUL too.
 */
#define KFTREC_STR_TEXT_MAX	(16 + KFT_STREAM_STR_LEN * KFT_STR_TEXT_CHAR_MAX)
static void kftrec_str_text(const struct kftrec_call *call, char *buf)
{
	const struct kft_stream_str *str = &call->str;
	const unsigned char *s = (const unsigned char *)str->s;
	size_t n, i;

	buf[0] = '\0';
	if (!(call->row.flags & KFT_STREAM_ROW_STR) || str->state == KFT_STREAM_STR_NONE)
		return;
	n = (size_t)sprintf(buf, " %s%u=", str->len ? "mem" : "str", str->arg);
	if (str->state == KFT_STREAM_STR_FAULT || str->state == KFT_STREAM_STR_HIDDEN) {
		strcpy(buf + n, str->state == KFT_STREAM_STR_FAULT ? "(fault)" : "hidden");
		return;
	}
	if (str->len) {
		for (i = 0; i < str->len && i < sizeof(str->s); i++, n += 2)
			kft_str_hex(buf + n, s[i]);
		buf[n] = '\0';
		return;
	}
	buf[n++] = '"';
	for (i = 0; i < KFTREC_STR_SHOWN && s[i]; i++)
		n += kft_str_text_char(buf + n, s[i]);
	buf[n++] = '"';
	buf[n] = '\0';
	if (str->state == KFT_STREAM_STR_CUT)
		strcpy(buf + n, "...");
}

int kftrec_call_text(const struct kftrec_call *call, unsigned int unit,
		     unsigned int addr_digits, char *buf, size_t size)
{
	const struct kft_stream_row *row = &call->row;
	int open = row->flags & KFT_STREAM_ROW_OPEN;
	char pid[32], comm[KFT_STREAM_COMM_LEN * 4 + 8] = " -", ret[32] = " -";
	char sched[96], args[KFT_STREAM_ARGS_MAX * 24 + 8], str[KFTREC_STR_TEXT_MAX];
	long long delta = open ? KFTLOG_DELTA_OPEN : (long long)(row->dur_ns / unit);
	int n;

	snprintf(pid, sizeof(pid), "%d.%u", row->pid, row->cpu);
	if (row->pid >= 0)
		comm[kftrec_name(row->comm, sizeof(row->comm), comm + 1) + 1] = '\0';
	if (!open) {
		ret[0] = ' ';
		kftrec_value(ret + 1, sizeof(ret) - 1, row->retval,
			     row->flags & KFT_STREAM_ROW_ERROR, row->flags & KFT_STREAM_ROW_HIDDEN);
	}
	kftrec_sched_text(call, unit, sched, sizeof(sched));
	kftrec_args_text(call, args, sizeof(args));
	kftrec_str_text(call, str);
	n = snprintf(buf, size, "%8llu %8lld %8s  0x%0*llx               0x%0*llx%s%s%s%s%s\n",
		     (unsigned long long)(row->entry_ns / unit), delta, pid, (int)addr_digits,
		     (unsigned long long)row->func, (int)addr_digits,
		     (unsigned long long)row->caller, comm, ret, sched, args, str);
	return n < 0 ? 0 : (size_t)n >= size ? (int)size - 1 : n;
}

/*
 * The first line: rows this reader reads (its version, their size, this
 * machine's byte order), the writer's address size in *addr_bytes and the
 * file's version in *version. 0, or -1 after saying why.
 */
static int kftrec_read_first_line(FILE *in, const char *name, FILE *warn,
				  unsigned int *addr_bytes, unsigned int *version)
{
	char line[KFTREC_LINE_MAX], order[32];
	unsigned int row_bytes;
	size_t len;
	enum line_status st = line_read(in, line, sizeof(line), &len);

	if (st == LINE_ERROR) {
		fprintf(warn, "%s: %s\n", name, strerror(errno));
		return -1;
	}
	if (st != LINE_WHOLE || len < 2 || (unsigned char)line[0] != KFTREC_FIRST_BYTE ||
	    sscanf(line + 1, "KFT record %u: %u-byte rows, %u-byte addresses, %31s",
		   version, &row_bytes, addr_bytes, order) != 4) {
		fprintf(warn, "%s: not a kft record file (its first line is no 'KFT record' "
			"line)\n", name);
		return -1;
	}
	if (*version < KFTREC_VERSION_PLAIN || *version > KFTREC_VERSION) {
		fprintf(warn, "%s: a kft record file of version %u: this kft reads versions %d "
			"to %d (a newer kft's file?)\n", name, *version, KFTREC_VERSION_PLAIN,
			KFTREC_VERSION);
		return -1;
	}
	if (row_bytes != sizeof(struct kft_stream_row) || (*addr_bytes != 4 && *addr_bytes != 8)) {
		fprintf(warn, "%s: a kft record file of another kind (version %u, %u-byte "
			"rows, %u-byte addresses): this kft reads %zu-byte rows, 4- or 8-byte "
			"addresses\n", name, *version, row_bytes, *addr_bytes,
			sizeof(struct kft_stream_row));
		return -1;
	}
	if (strcmp(order, kftrec_byte_order())) {
		fprintf(warn, "%s: written on a %s machine, read on a %s one: read it there "
			"(kft report)\n", name, order, kftrec_byte_order());
		return -1;
	}
	return 0;
}

/* The header's text could not be kept (its memory stream grows): -1, said. */
static int kftrec_header_unkept(const char *name, FILE *warn)
{
	fprintf(warn, "%s: its text: %s\n", name, strerror(ENOMEM));
	return -1;
}

/*
 * The header's lines to out (a memory stream), up to and including the
 * "--------" one; *unit the rows' (1: "Units: ns", else 1000), *rows the
 * header's count of them (-1: none, or one that is no number). 0, or -1
 * after saying why.
 */
static int kftrec_copy_header(FILE *in, FILE *out, const char *name, FILE *warn,
			      unsigned int *unit, long long *rows)
{
	char line[KFTLOG_LINE_MAX];
	size_t len, total = 0;
	enum line_status st;
	int in_part = 0;	/* the line read goes on a longer one */
	int blanks = 0, begun = 0;
	int said, bad_count = 0;	/* as kd: a count that is none stops the check */
	long long count;

	*unit = 1000;
	*rows = -1;
	for (;;) {
		st = line_read(in, line, sizeof(line), &len);
		if (st == LINE_ERROR) {
			fprintf(warn, "%s: %s\n", name, strerror(errno));
			return -1;
		}
		if (st == LINE_EOF || (st == LINE_WHOLE && line[len - 1] != '\n')) {
			fprintf(warn, "%s: the header ends before its '--------' line\n", name);
			return -1;
		}
		total += len;
		if (total > KFTREC_HEADER_MAX) {
			fprintf(warn, "%s: a header larger than kft reads (1 MiB)\n", name);
			return -1;
		}
		/* The header's room, blank lines before it: one, as the log has. */
		if (!begun && st == LINE_WHOLE && !strcmp(line, "\n")) {
			blanks = 1;
			continue;
		}
		if (!begun && blanks && fputc('\n', out) == EOF)
			return kftrec_header_unkept(name, warn);
		begun = 1;
		if (fwrite(line, 1, len, out) != len)
			return kftrec_header_unkept(name, warn);
		if (st == LINE_PART || in_part) {
			in_part = st == LINE_PART;
			continue;
		}
		if (!strcmp(line, KFTLOG_UNITS_NS_LINE "\n"))
			*unit = 1;
		said = kftlog_rows_line(line, len, &count);
		bad_count |= said < 0;
		if (said)
			*rows = bad_count ? -1 : count;
		if (!strncmp(line, "--------", 8))
			return 0;
	}
}

/*
 * The next call of in, checked: 1, 0 at the end of the file, 2 at a
 * call cut short by its end (warned of), or -1 after saying why. *row
 * counts the calls.
 */
static int kftrec_read_call(FILE *in, const char *name, FILE *warn, unsigned int version,
			    struct kftrec_call *call, unsigned long long *row)
{
	size_t n = fread(&call->row, 1, sizeof(call->row), in), extras = 0, got = 0;
	const char *why;

	if (n == sizeof(call->row)) {
		extras = kftrec_extras_size(call->row.flags);
		/*
		 * The times, the arguments, the string, in this order (a short
		 * read is the file's end: the next reads nothing).
		 */
		if (call->row.flags & KFT_STREAM_ROW_SCHED)
			got = fread(&call->sched, 1, sizeof(call->sched), in);
		if (call->row.flags & KFT_STREAM_ROW_ARGS)
			got += fread(&call->args, 1, sizeof(call->args), in);
		if (call->row.flags & KFT_STREAM_ROW_STR)
			got += fread(&call->str, 1, sizeof(call->str), in);
	}
	if (ferror(in)) {
		fprintf(warn, "%s: %s\n", name, strerror(errno));
		return -1;
	}
	if (n + got && n + got < sizeof(call->row) + extras) {
		fprintf(warn, "%s: warning: the file ends inside a row (%zu of its %zu bytes): "
			"cut short\n", name, n + got, n < sizeof(call->row) ?
			sizeof(call->row) : sizeof(call->row) + extras);
		return 2;
	}
	if (n + got < sizeof(call->row) + extras)
		return 0;
	++*row;
	why = kftrec_call_invalid(call, version);
	if (!why)
		return 1;
	fprintf(warn, "%s: row %llu is none kft writes (%s): a damaged file?\n", name, *row, why);
	return -1;
}

/*
 * A record file read as its text, a row at a time as its reader asks:
 * nothing of it is kept beyond the header's text and one row's, however
 * long the file (a reader that stops at its limit of rows reads no more).
 */
struct kftrec_text {
	FILE *in;
	char *name;		/* the caller's may go before the reads */
	FILE *warn;
	unsigned int addr_bytes, unit, version;
	long long counted;	/* the header's count of rows, or -1 */
	unsigned long long row;
	char *head;		/* the header's text */
	size_t head_len, head_at;
	char text[KFTREC_TEXT_MAX];	/* the row's */
	size_t len, at;
	int end;		/* 1: the rows are all read; -1: a damaged or unreadable one */
	int *cut_said;		/* set when a cut row has been warned of; NULL: none */
};

/* The next row's text into t->text: kftrec_read_call()'s result. */
static int kftrec_text_next(struct kftrec_text *t)
{
	struct kftrec_call call;
	int ret = kftrec_read_call(t->in, t->name, t->warn, t->version, &call, &t->row);

	if (ret == 1) {
		t->len = (size_t)kftrec_call_text(&call, t->unit, t->addr_bytes * 2, t->text,
						  sizeof(t->text));
		t->at = 0;
	}
	return ret;
}

/* Up to @size bytes from @from's @at on, into @buf: how many. */
static size_t kftrec_text_take(char *buf, size_t size, const char *from, size_t len, size_t *at)
{
	size_t n = len - *at < size ? len - *at : size;

	memcpy(buf, from + *at, n);
	*at += n;
	return n;
}

static ssize_t kftrec_text_read(void *cookie, char *buf, size_t size)
{
	struct kftrec_text *t = cookie;
	size_t done = 0;
	int ret;

	while (done < size) {
		if (t->head_at < t->head_len) {
			done += kftrec_text_take(buf + done, size - done, t->head, t->head_len,
						 &t->head_at);
		} else if (t->at < t->len) {
			done += kftrec_text_take(buf + done, size - done, t->text, t->len, &t->at);
		} else if (t->end) {
			break;
		} else {
			/*
			 * (Its reader checks the rows' count in the text, but
			 * need not after a cut row, which is said here.)
			 */
			ret = kftrec_text_next(t);
			if (ret == 2 && t->cut_said)
				*t->cut_said = 1;
			if (ret != 1)
				t->end = ret < 0 ? -1 : 1;
		}
	}
	/* EBADMSG: a damaged row, said already (kftrec.h). */
	if (!done && t->end < 0) {
		errno = EBADMSG;
		return -1;
	}
	return (ssize_t)done;
}

static int kftrec_text_close(void *cookie)
{
	struct kftrec_text *t = cookie;

	free(t->head);
	free(t->name);
	free(t);
	return 0;
}

/* The converter over @in, its header read; NULL after saying why. */
static struct kftrec_text *kftrec_text_open(FILE *in, const char *name, FILE *warn)
{
	struct kftrec_text *t = calloc(1, sizeof(*t));
	FILE *head;
	int failed;

	if (!t || !(t->name = strdup(name)) || !(head = open_memstream(&t->head, &t->head_len))) {
		fprintf(warn, "%s: its text: %s\n", name, strerror(errno));
		if (t)
			free(t->name);
		free(t);
		return NULL;
	}
	t->in = in;
	t->warn = warn;
	failed = kftrec_read_first_line(in, name, warn, &t->addr_bytes, &t->version) ||
		 kftrec_copy_header(in, head, name, warn, &t->unit, &t->counted);
	/* (A header's text that could not be kept: no memory.) */
	if ((fclose(head) || !t->head) && !failed)
		failed = kftrec_header_unkept(name, warn);
	if (failed) {
		kftrec_text_close(t);
		return NULL;
	}
	return t;
}

int kftrec__to_text(FILE *in, FILE *out, const char *name, FILE *warn)
{
	struct kftrec_text *t = kftrec_text_open(in, name, warn);
	int ret = -1;

	if (!t)
		return -1;
	if (fwrite(t->head, 1, t->head_len, out) != t->head_len)
		goto out;
	while ((ret = kftrec_text_next(t)) == 1) {
		if (fwrite(t->text, 1, t->len, out) != t->len) {
			ret = -1;
			goto out;
		}
	}
	/* A file cut at a row's end: as kd says of a log cut short. */
	if (!ret && t->counted >= 0 && t->row != (unsigned long long)t->counted)
		fprintf(warn, "%s: warning: %llu rows, but its header counts %lld%s\n", name, t->row,
			t->counted, t->row < (unsigned long long)t->counted ? ": cut short" : "");
out:
	kftrec_text_close(t);
	return ret < 0 ? -1 : 0;
}

FILE *kftrec__text_of(FILE *in, const char *name, FILE *warn, int *cut_said)
{
	static const cookie_io_functions_t io = {
		.read = kftrec_text_read,
		.close = kftrec_text_close,
	};
	struct kftrec_text *t;
	int c = getc(in);
	FILE *text;

	if (c == EOF && ferror(in)) {
		fprintf(warn, "%s: %s\n", name, strerror(errno));
		return NULL;
	}
	if (c != KFTREC_FIRST_BYTE)
		return c == EOF || ungetc(c, in) != EOF ? in : NULL;
	ungetc(c, in);
	t = kftrec_text_open(in, name, warn);
	if (!t)
		return NULL;
	t->cut_said = cut_said;
	text = fopencookie(t, "r", io);
	if (!text) {
		fprintf(warn, "%s: its text: %s\n", name, strerror(errno));
		kftrec_text_close(t);
	}
	return text;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kft record's file (userspace/lib/kftrec.c): a row's text to the byte of
 * the module's, offcpu's times and the arguments after it, the first line
 * and what is refused, a version 1 file, a file cut short, rows none kft
 * writes.
 */
#include <stdint.h>
#include <stdlib.h>
#include "unit.h"
#include "kftrec.h"

static struct kft_stream_row row_of(uint64_t entry, uint64_t dur, int32_t pid, uint16_t cpu,
				    uint16_t flags, uint64_t retval, const char *comm)
{
	struct kft_stream_row r = {
		.entry_ns = entry, .dur_ns = dur, .func = 0xffffffff81000200ULL,
		.caller = 0xffffffff81000108ULL, .retval = retval, .pid = pid, .cpu = cpu,
		.flags = flags,
	};

	strncpy(r.comm, comm, sizeof(r.comm));
	return r;
}

/* What /proc/kft_data writes for the same calls (module/kft_mode_trace.c). */
static void test_row_text(void)
{
	static const struct {
		struct kft_stream_row row;
		unsigned int unit;
		const char *text;
	} cases[] = {
		{ { 2500, 1500, 0xffffffff81000200ULL, 0xffffffff81000108ULL, 0x3, 42, 1, 0, "cat" },
		  1000, "       2        1     42.1  0xffffffff81000200               "
			"0xffffffff81000108 cat 0x3\n" },
		{ { 2500, 1500, 0xffffffff81000200ULL, 0, (uint64_t)-2, 42, 1, KFT_STREAM_ROW_ERROR,
		    "a b\\" },
		  1, "    2500     1500     42.1  0xffffffff81000200               "
		     "0x0000000000000000 a\\040b\\134 -2\n" },
		{ { 7, 0, 0, 0, 0, -1, 3, KFT_STREAM_ROW_OPEN, "" },
		  1, "       7       -1     -1.3  0x0000000000000000               "
		     "0x0000000000000000 - -\n" },
		{ { 7, 9, 0, 0, 0, 5, 0, KFT_STREAM_ROW_HIDDEN, "" },
		  1, "       7        9      5.0  0x0000000000000000               "
		     "0x0000000000000000 \\000 hidden\n" },
	};
	struct kftrec_call call = { 0 };
	char buf[KFTREC_TEXT_MAX];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		call.row = cases[i].row;
		kftrec_call_text(&call, cases[i].unit, 16, buf, sizeof(buf));
		CHECK_STR(buf, cases[i].text, "a row's text");
	}
	call.row = cases[0].row;
	call.row.func = 0xc0100200;
	call.row.caller = 0x100;
	kftrec_call_text(&call, 1000, 8, buf, sizeof(buf));
	CHECK(strstr(buf, "  0xc0100200               0x00000100 ") != NULL,
	      "32-bit addresses: 8 digits: %s", buf);
}

/*
 * offcpu's times and the arguments, as the module's kft_output_sched() and
 * kft_output_args() write them after the return value: the times in the
 * log's unit, an open call without them; each argument as a return value
 * (an error in decimal, "hidden", else hex), as many as the row has.
 */
static void test_call_extras_text(void)
{
	static const struct {
		uint16_t flags;
		unsigned int unit;
		struct kft_stream_sched sched;
		struct kft_stream_args args;
		const char *tail;
	} cases[] = {
		{ KFT_STREAM_ROW_SCHED, 1, { 700, 300, 500 }, { .nr = 0 },
		  " sh 0x3 oncpu=700 runnable=300 blocked=500\n" },
		{ KFT_STREAM_ROW_SCHED, 1000, { 1999, 1000, 0 }, { .nr = 0 },
		  " sh 0x3 oncpu=1 runnable=1 blocked=0\n" },
		{ KFT_STREAM_ROW_SCHED | KFT_STREAM_ROW_OPEN, 1, { 0, 0, 0 }, { .nr = 0 },
		  " sh -\n" },
		{ KFT_STREAM_ROW_ARGS, 1,  { 0, 0, 0 },
		  { { 0x11, (uint64_t)-22, 0, 0, 0, 0 }, 6, 0x2, 0x8, { 0 } },
		  " sh 0x3 args=0x11,-22,0x0,hidden,0x0,0x0\n" },
		{ KFT_STREAM_ROW_ARGS | KFT_STREAM_ROW_SCHED, 1, { 5, 0, 4 },
		  { { 1, 2, 3, 0xfffffff0 }, 4, 0, 0, { 0 } },
		  " sh 0x3 oncpu=5 runnable=0 blocked=4 args=0x1,0x2,0x3,0xfffffff0\n" },
		{ KFT_STREAM_ROW_ARGS, 1, { 0, 0, 0 },
		  { { 1, 2, 3, 4, 5, 6, 7, (uint64_t)-4095 }, 8, 0x80, 0, { 0 } },
		  " sh 0x3 args=0x1,0x2,0x3,0x4,0x5,0x6,0x7,-4095\n" },
	};
	struct kftrec_call call;
	char buf[KFTREC_TEXT_MAX];
	const char *tail;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&call, 0, sizeof(call));
		/* (An open call's duration and return value are 0, as kft writes them.) */
		call.row = row_of(2500, cases[i].flags & KFT_STREAM_ROW_OPEN ? 0 : 1500, 42, 1,
				  cases[i].flags, cases[i].flags & KFT_STREAM_ROW_OPEN ? 0 : 0x3, "sh");
		call.sched = cases[i].sched;
		call.args = cases[i].args;
		CHECK(kftrec_call_invalid(&call, 2) == NULL, "case %zu is a row kft writes: %s", i,
		      kftrec_call_invalid(&call, 2));
		kftrec_call_text(&call, cases[i].unit, 16, buf, sizeof(buf));
		tail = strstr(buf, " sh ");
		CHECK_STR(tail, cases[i].tail, "the row's words after its comm");
	}
}

/*
 * args string's word after the arguments, as the module's kft_str_show()
 * writes it: escapes, a cut string, a fault, hidden, a struct's bytes, no
 * copy at all.
 */
static void test_call_str_text(void)
{
	static const struct {
		struct kft_stream_str str;
		const char *tail;
	} cases[] = {
		{ { KFT_STREAM_STR_WHOLE, 2, 0, { 0 }, "/etc/passwd" },
		  " sh 0x3 args=0x1,0x2 str2=\"/etc/passwd\"\n" },
		{ { KFT_STREAM_STR_WHOLE, 1, 0, { 0 }, "a\tb\"c\\d e\001\n\x7f" },
		  " sh 0x3 args=0x1,0x2 str1=\"a\\tb\\\"c\\\\d\\x20e\\x01\\n\\x7f\"\n" },
		{ { KFT_STREAM_STR_CUT, 1, 0, { 0 },
		    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" },
		  " sh 0x3 args=0x1,0x2 str1=\"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		  "0123456789\"...\n" },
		{ { KFT_STREAM_STR_FAULT, 3, 0, { 0 }, "" }, " sh 0x3 args=0x1,0x2 str3=(fault)\n" },
		{ { KFT_STREAM_STR_HIDDEN, 3, 0, { 0 }, "" }, " sh 0x3 args=0x1,0x2 str3=hidden\n" },
		{ { KFT_STREAM_STR_MEM, 1, 4, { 0 }, "be\000a" },
		  " sh 0x3 args=0x1,0x2 mem1=62650061\n" },
		{ { KFT_STREAM_STR_HIDDEN, 1, 4, { 0 }, "" }, " sh 0x3 args=0x1,0x2 mem1=hidden\n" },
		{ { KFT_STREAM_STR_NONE, 1, 0, { 0 }, "" }, " sh 0x3 args=0x1,0x2\n" },
	};
	struct kftrec_call call;
	char buf[KFTREC_TEXT_MAX];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&call, 0, sizeof(call));
		call.row = row_of(2500, 1500, 42, 1, KFT_STREAM_ROW_ARGS | KFT_STREAM_ROW_STR, 0x3,
				  "sh");
		call.args = (struct kft_stream_args){ { 1, 2 }, 2, 0, 0, { 0 } };
		call.str = cases[i].str;
		CHECK(kftrec_call_invalid(&call, 3) == NULL, "case %zu is a row kft writes: %s", i,
		      kftrec_call_invalid(&call, 3));
		CHECK(kftrec_call_invalid(&call, 2) != NULL, "case %zu: not in a version 2 file",
		      i);
		kftrec_call_text(&call, 1, 16, buf, sizeof(buf));
		CHECK_STR(strstr(buf, " sh "), cases[i].tail, "the row's words after its comm");
	}
}

/* String extensions none kft writes. */
static void test_call_str_invalid(void)
{
	static const struct {
		struct kft_stream_str str;
		const char *why;
	} cases[] = {
		{ { 6, 1, 0, { 0 }, "" }, "its string's state is none kft writes" },
		{ { KFT_STREAM_STR_WHOLE, 0, 0, { 0 }, "x" }, "its string's argument is not 1 to 8" },
		{ { KFT_STREAM_STR_WHOLE, 9, 0, { 0 }, "x" }, "its string's argument is not 1 to 8" },
		{ { KFT_STREAM_STR_WHOLE, 1, 3, { 0 }, "x" },
		  "its string's length goes against its state" },
		{ { KFT_STREAM_STR_MEM, 1, 0, { 0 }, "x" },
		  "its string's length goes against its state" },
		{ { KFT_STREAM_STR_MEM, 1, 64, { 0 }, "x" },
		  "its string's length goes against its state" },
		{ { KFT_STREAM_STR_FAULT, 1, 0, { 0, 0, 1 }, "" }, "its string's padding is not zero" },
		{ { KFT_STREAM_STR_CUT, 1, 0, { 0 },
		    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789X" },
		  "its string is longer than kft keeps" },
		{ { KFT_STREAM_STR_FAULT, 1, 0, { 0 }, "x" },
		  "its string's room past its bytes is not zero" },
		{ { KFT_STREAM_STR_MEM, 1, 2, { 0 }, "abc" },
		  "its string's room past its bytes is not zero" },
	};
	struct kftrec_call call;
	const char *why;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&call, 0, sizeof(call));
		call.row = row_of(2500, 1500, 42, 1, KFT_STREAM_ROW_STR, 0x3, "sh");
		call.str = cases[i].str;
		why = kftrec_call_invalid(&call, 3);
		CHECK(why && !strcmp(why, cases[i].why), "case %zu: %s", i, why ? why : "(null)");
	}
}

static const char header[] = "\nKernel Instrumentation Run ID 3\nUnits: ns\n\n"
			     "Number of entries after filters = 2\n\n"
			     " Entry    Delta     PID        Function\n"
			     "-------- -------- -------- ----------------\n";

/* The header above, counting n rows. */
static void header_put(FILE *f, size_t n)
{
	fprintf(f, "\nKernel Instrumentation Run ID 3\nUnits: ns\n\n"
		"Number of entries after filters = %zu\n\n%s", n, strstr(header, " Entry"));
}

/* A record file of these rows (n of them, the last cut to cut bytes: 0 whole). */
static char *record_file(const char *first, const struct kft_stream_row *rows, size_t n,
			 size_t cut, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (first)
		fputs(first, f);
	else
		kftrec_write_first_line(f);
	fputs(header, f);
	fwrite(rows, sizeof(*rows), n, f);
	fclose(f);
	if (cut)
		*len -= sizeof(*rows) - cut;
	return text;
}

/* A record file of calls, each with the extensions its flags name. */
static char *record_file_calls(const char *first, const struct kftrec_call *calls, size_t n,
			       size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	size_t i;

	if (first)
		fputs(first, f);
	else
		kftrec_write_first_line(f);
	header_put(f, n);
	for (i = 0; i < n; i++) {
		fwrite(&calls[i].row, sizeof(calls[i].row), 1, f);
		if (calls[i].row.flags & KFT_STREAM_ROW_SCHED)
			fwrite(&calls[i].sched, sizeof(calls[i].sched), 1, f);
		if (calls[i].row.flags & KFT_STREAM_ROW_ARGS)
			fwrite(&calls[i].args, sizeof(calls[i].args), 1, f);
		if (calls[i].row.flags & KFT_STREAM_ROW_STR)
			fwrite(&calls[i].str, sizeof(calls[i].str), 1, f);
	}
	fclose(f);
	return text;
}

/* kftrec__to_text() of a file: its return, the text and the warnings. */
static int to_text(const char *file, size_t len, char **out, char **warnings)
{
	FILE *in = fmemopen((void *)file, len, "r");
	size_t olen = 0, wlen = 0;
	FILE *o = open_memstream(out, &olen), *w = open_memstream(warnings, &wlen);
	int ret = kftrec__to_text(in, o, "f", w);

	fclose(in);
	fclose(o);
	fclose(w);
	return ret;
}

static void test_file_to_text(void)
{
	struct kft_stream_row rows[2] = {
		row_of(30, 5, 7, 1, 0, 0, "sh"), row_of(10, 4, 7, 0, 0, 1, "sh"),
	};
	char *file, *out, *warnings, want[1024];
	size_t len;

	file = record_file(NULL, rows, 2, 0, &len);
	CHECK((unsigned char)file[0] == KFTREC_FIRST_BYTE, "the first byte");
	CHECK(to_text(file, len, &out, &warnings) == 0, "a record file reads");
	snprintf(want, sizeof(want), "%s%s%s", header,
		 "      30        5      7.1  0xffffffff81000200               0xffffffff81000108 sh 0x0\n",
		 "      10        4      7.0  0xffffffff81000200               0xffffffff81000108 sh 0x1\n");
	CHECK_STR(out, want, "its text: the header, then the rows as they came");
	CHECK_STR(warnings, "", "no warning");
	free(out);
	free(warnings);
	free(file);
	/* Cut inside its second row: the first, and a warning. */
	file = record_file(NULL, rows, 2, 20, &len);
	CHECK(to_text(file, len, &out, &warnings) == 0, "a file cut short reads");
	CHECK(strstr(out, " sh 0x0\n") && !strstr(out, " sh 0x1\n"), "the whole rows: %s", out);
	CHECK_STR(warnings, "f: warning: the file ends inside a row (20 of its 64 bytes): cut short\n",
		  "the warning");
	free(out);
	free(warnings);
	free(file);
	/* Cut at its second row's start: the header counts two. */
	file = record_file(NULL, rows, 1, 0, &len);
	CHECK(to_text(file, len, &out, &warnings) == 0, "a file cut at a row's end reads");
	CHECK_STR(warnings, "f: warning: 1 rows, but its header counts 2: cut short\n",
		  "the count's warning");
	free(out);
	free(warnings);
	free(file);
	/* kd reads the text, and counts the rows itself: no warning here. */
	file = record_file(NULL, rows, 1, 0, &len);
	{
		FILE *in = fmemopen(file, len, "r"), *text;
		char *w = NULL;
		size_t wlen = 0;
		FILE *wf = open_memstream(&w, &wlen);

		text = kftrec__text_of(in, "f", wf, NULL);
		CHECK(text && text != in, "the text of a file cut at a row's end");
		/* (Read to its end: the rows are converted as they are read.) */
		while (text && getc(text) != EOF)
			;
		CHECK(text && !ferror(text), "the text read to its end");
		if (text)
			fclose(text);
		fclose(wf);
		CHECK_STR(w, "", "no warning from the text's maker");
		fclose(in);
		free(w);
	}
	free(file);
}

/* The text of a file read to its end: whether it said it was cut inside a row. */
static int text_cut_said(const char *file, size_t len)
{
	FILE *in = fmemopen((void *)file, len, "r"), *w = fopen("/dev/null", "w"), *text;
	int said = 0;

	text = kftrec__text_of(in, "f", w, &said);
	while (text && getc(text) != EOF)
		;
	if (text)
		fclose(text);
	fclose(w);
	fclose(in);
	return said;
}

/*
 * A text that warned of a row cut short says so to its reader, which
 * need not say again that the rows are fewer than the header counts; a
 * file cut at a row's end, or whole, is left to the reader's count.
 */
static void test_text_cut_said(void)
{
	struct kft_stream_row rows[2] = {
		row_of(30, 5, 7, 1, 0, 0, "sh"), row_of(10, 4, 7, 0, 0, 1, "sh"),
	};
	char *file;
	size_t len;

	file = record_file(NULL, rows, 2, 20, &len);
	CHECK(text_cut_said(file, len) == 1, "cut inside its second row: said");
	free(file);
	file = record_file(NULL, rows, 1, 0, &len);
	CHECK(text_cut_said(file, len) == 0, "cut at a row's end: not said");
	free(file);
	file = record_file(NULL, rows, 2, 0, &len);
	CHECK(text_cut_said(file, len) == 0, "whole: not said");
	free(file);
}

/* A file of one row under a header of these count lines: its warnings. */
static char *count_warnings(const char *count_lines)
{
	struct kft_stream_row row = row_of(30, 5, 7, 1, 0, 0, "sh");
	char *file = NULL, *out, *warnings;
	size_t len = 0;
	FILE *f = open_memstream(&file, &len);

	kftrec_write_first_line(f);
	fprintf(f, "\nKernel Instrumentation Run ID 3\nUnits: ns\n\n%s\n%s", count_lines,
		strstr(header, " Entry"));
	fwrite(&row, sizeof(row), 1, f);
	fclose(f);
	CHECK(to_text(file, len, &out, &warnings) == 0, "a file under %s", count_lines);
	free(out);
	free(file);
	return warnings;
}

/* The header's count is read as kd reads it (kftlog_rows_line()). */
static void test_file_header_count(void)
{
	char *w;

	w = count_warnings("Number of entries after filters = 2  ");
	CHECK_STR(w, "f: warning: 1 rows, but its header counts 2: cut short\n",
		  "a count with spaces after it counts");
	free(w);
	w = count_warnings("Number of entries after filters = lots\n"
			   "Number of entries after filters = 2");
	CHECK_STR(w, "", "a count that is none stops the check, though another follows");
	free(w);
	w = count_warnings("Number of entries after filters = 2\n"
			   "Number of entries after filters = -1");
	CHECK_STR(w, "", "and after a good one");
	free(w);
}

static void test_refused(void)
{
	static const struct {
		const char *first, *warning;
	} cases[] = {
		{ "Kernel Instrumentation Run ID 3\n",
		  "f: not a kft record file (its first line is no 'KFT record' line)\n" },
		{ "\x7fKFT record 4: 64-byte rows, 8-byte addresses, little-endian\n",
		  "f: a kft record file of version 4: this kft reads versions 1 to 3 (a newer "
		  "kft's file?)\n" },
		{ "\x7fKFT record 0: 64-byte rows, 8-byte addresses, little-endian\n",
		  "f: a kft record file of version 0: this kft reads versions 1 to 3 (a newer "
		  "kft's file?)\n" },
		{ "\x7fKFT record 2: 40-byte rows, 8-byte addresses, little-endian\n",
		  "f: a kft record file of another kind (version 2, 40-byte rows, 8-byte "
		  "addresses): this kft reads 64-byte rows, 4- or 8-byte addresses\n" },
		{ "\x7fKFT record 1: 64-byte rows, 8-byte addresses, middle-endian\n",
		  NULL },
		{ "\x7f", "f: not a kft record file (its first line is no 'KFT record' line)\n" },
	};
	struct kft_stream_row row = row_of(1, 1, 1, 0, 0, 0, "x");
	char *file, *out, *warnings;
	size_t i, len;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		file = record_file(cases[i].first, &row, 1, 0, &len);
		CHECK(to_text(file, len, &out, &warnings) == -1, "case %zu refused", i);
		CHECK_STR(out, "", "nothing written");
		if (cases[i].warning)
			CHECK_STR(warnings, cases[i].warning, "why");
		else
			CHECK(strstr(warnings, "f: written on a middle-endian machine, read on a ") != NULL,
			      "another byte order: %s", warnings);
		free(out);
		free(warnings);
		free(file);
	}
	/* A header without its dashes. */
	file = strdup("\x7fKFT record 1: 64-byte rows, 8-byte addresses, little-endian\nKernel\n");
	CHECK(to_text(file, strlen(file), &out, &warnings) == -1, "no dashes: refused");
	CHECK_STR(warnings, "f: the header ends before its '--------' line\n", "why");
	free(out);
	free(warnings);
	free(file);
}

/*
 * Rows with offcpu's times and arguments, one of each kind: read whole,
 * each as its flags say; cut inside an extension, the whole rows before it
 * and a warning; a version 1 file (kft record before the extensions) reads
 * as it did.
 */
static void test_file_extras(void)
{
	struct kftrec_call calls[3];
	char *file, *out, *warnings;
	size_t len;

	memset(calls, 0, sizeof(calls));
	calls[0].row = row_of(10, 9, 7, 0, KFT_STREAM_ROW_SCHED | KFT_STREAM_ROW_ARGS, 1, "sh");
	calls[0].sched = (struct kft_stream_sched){ 5, 1, 3 };
	calls[0].args = (struct kft_stream_args){ { 1, 2 }, 6, 0, 0, { 0 } };
	calls[1].row = row_of(20, 4, 7, 0, KFT_STREAM_ROW_ARGS, 2, "sh");
	calls[1].args = (struct kft_stream_args){ { (uint64_t)-2 }, 6, 1, 0, { 0 } };
	calls[2].row = row_of(30, 4, 7, 0, KFT_STREAM_ROW_SCHED, 3, "sh");
	calls[2].sched = (struct kft_stream_sched){ 4, 0, 0 };
	file = record_file_calls(NULL, calls, 3, &len);
	CHECK(to_text(file, len, &out, &warnings) == 0, "a file with extensions reads");
	CHECK(strstr(out, " sh 0x1 oncpu=5 runnable=1 blocked=3 args=0x1,0x2,0x0,0x0,0x0,0x0\n") &&
	      strstr(out, " sh 0x2 args=-2,0x0,0x0,0x0,0x0,0x0\n") &&
	      strstr(out, " sh 0x3 oncpu=4 runnable=0 blocked=0\n"), "its rows: %s", out);
	CHECK_STR(warnings, "", "no warning");
	free(out);
	free(warnings);
	/* Cut 10 bytes into the second row's arguments. */
	len -= sizeof(calls[2].row) + sizeof(calls[2].sched) + sizeof(calls[1].args) - 10;
	CHECK(to_text(file, len, &out, &warnings) == 0, "cut inside an extension: reads");
	CHECK(strstr(out, " sh 0x1 ") && !strstr(out, " sh 0x2"), "the whole rows: %s", out);
	CHECK_STR(warnings, "f: warning: the file ends inside a row (74 of its 136 bytes): cut "
		  "short\n", "the warning");
	free(out);
	free(warnings);
	free(file);
	/* Version 1: rows of 64 bytes, read as before. */
	memset(calls, 0, sizeof(calls));
	calls[0].row = row_of(10, 9, 7, 0, 0, 1, "sh");
	file = record_file_calls("\x7fKFT record 1: 64-byte rows, 8-byte addresses, little-endian\n",
				 calls, 1, &len);
	CHECK(to_text(file, len, &out, &warnings) == 0, "a version 1 file reads");
	CHECK(strstr(out, "0xffffffff81000108 sh 0x1\n") != NULL, "its row: %s", out);
	free(out);
	free(warnings);
	free(file);
}

/*
 * A record file whose second row is case @i: read, without a warning, when
 * @why is NULL (a control); else refused, with row 2 and @why named. The
 * first row is read either way.
 */
static void check_row_two(const char *file, size_t len, const char *why, size_t i)
{
	char *out, *warnings, want[256];

	if (!why) {
		CHECK(to_text(file, len, &out, &warnings) == 0, "control: case %zu reads", i);
		CHECK_STR(warnings, "", "control: no warning");
	} else {
		CHECK(to_text(file, len, &out, &warnings) == -1, "case %zu refused", i);
		snprintf(want, sizeof(want), "f: row 2 is none kft writes (%s): a damaged file?\n",
			 why);
		CHECK_STR(warnings, want, why);
	}
	CHECK(strstr(out, " sh 0x1\n") != NULL, "case %zu: the row before: %s", i, out);
	free(out);
	free(warnings);
}

/*
 * Rows none kft writes: refused, with the row's number and why, after the
 * rows before it. (The control: the same file with a good second row reads.)
 */
static void test_file_malformed(void)
{
	static const char v1[] = "\x7fKFT record 1: 64-byte rows, 8-byte addresses, little-endian\n";
	static const struct {
		const char *first;
		uint16_t flags;
		struct kft_stream_args args;
		const char *why;
	} cases[] = {
		{ NULL, 0, { { 0 }, 0, 0, 0, { 0 } }, NULL },
		{ NULL, 0x40, { { 0 }, 0, 0, 0, { 0 } }, "flags kft does not know" },
		{ NULL, 0x8000, { { 0 }, 0, 0, 0, { 0 } }, "flags kft does not know" },
		{ v1, KFT_STREAM_ROW_SCHED, { { 0 }, 0, 0, 0, { 0 } },
		  "extensions, which a version 1 file has none of" },
		{ NULL, KFT_STREAM_ROW_ARGS, { { 0 }, 0, 0, 0, { 0 } },
		  "its count of arguments is not 1 to 8" },
		{ NULL, KFT_STREAM_ROW_ARGS, { { 0 }, 9, 0, 0, { 0 } },
		  "its count of arguments is not 1 to 8" },
		{ NULL, KFT_STREAM_ROW_ARGS, { { 0 }, 4, 0x10, 0, { 0 } },
		  "its arguments' error and hidden bits contradict each other or its count" },
		{ NULL, KFT_STREAM_ROW_ARGS, { { 0 }, 4, 1, 1, { 0 } },
		  "its arguments' error and hidden bits contradict each other or its count" },
		{ NULL, KFT_STREAM_ROW_ARGS, { { 0 }, 4, 0, 0, { 1 } },
		  "its arguments' padding is not zero" },
		{ NULL, KFT_STREAM_ROW_ARGS, { { 5 }, 4, 1, 0, { 0 } },
		  "an argument's value goes against its bits" },
		{ NULL, KFT_STREAM_ROW_ARGS, { { 5 }, 4, 0, 1, { 0 } },
		  "an argument's value goes against its bits" },
		{ NULL, KFT_STREAM_ROW_ARGS, { { 0, 0, 0, 0, 7 }, 4, 0, 0, { 0 } },
		  "an argument's value goes against its bits" },
	};
	struct kftrec_call calls[2];
	char *file;
	size_t i, len;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(calls, 0, sizeof(calls));
		calls[0].row = row_of(10, 9, 7, 0, 0, 1, "sh");
		calls[1].row = row_of(20, 9, 7, 0, cases[i].flags, 2, "sh");
		calls[1].args = cases[i].args;
		file = record_file_calls(cases[i].first, calls, 2, &len);
		check_row_two(file, len, cases[i].why, i);
		free(file);
	}
}

/*
 * Rows whose times, pid or return value are none kft writes: refused by
 * number and why, the row before them read. A time past INT64_MAX printed
 * as a negative delta, which kd reads as an open call or a stack
 * snapshot's row; an error's value out of -4095..-1, or an open or hidden
 * call's that is not 0, printed as a value kft never wrote. (The
 * controls: the largest times, an open call, a pid of -1, the bounds of
 * an error, a hidden value and any value without a flag read.)
 */
static void test_file_row_malformed(void)
{
	static const struct {
		uint64_t entry, dur;
		int32_t pid;
		uint16_t flags;
		uint64_t retval;
		const char *why;
	} cases[] = {
		{ INT64_MAX, INT64_MAX, 7, 0, 2, NULL },
		{ 20, 0, -1, KFT_STREAM_ROW_OPEN, 0, NULL },
		{ 20, 9, 7, KFT_STREAM_ROW_ERROR, (uint64_t)-1, NULL },
		{ 20, 9, 7, KFT_STREAM_ROW_ERROR, (uint64_t)-4095, NULL },
		{ 20, 9, 7, KFT_STREAM_ROW_HIDDEN, 0, NULL },
		{ 20, 9, 7, 0, (uint64_t)-22, NULL },
		{ 1ULL << 63, 9, 7, 0, 2, "its entry time is past 2^63 - 1 ns" },
		{ 20, 1ULL << 63, 7, 0, 2, "its duration is past 2^63 - 1 ns" },
		{ 20, UINT64_MAX - 1, 7, 0, 2, "its duration is past 2^63 - 1 ns" },
		{ 20, 9, 7, KFT_STREAM_ROW_OPEN, 0, "an open call with a duration" },
		{ 20, 9, -2, 0, 2, "its pid is below -1" },
		{ 20, 9, INT32_MIN, 0, 2, "its pid is below -1" },
		{ 20, 9, 7, KFT_STREAM_ROW_ERROR, 7, "its return value goes against its flags" },
		{ 20, 9, 7, KFT_STREAM_ROW_ERROR, 0, "its return value goes against its flags" },
		{ 20, 9, 7, KFT_STREAM_ROW_ERROR, (uint64_t)-4096,
		  "its return value goes against its flags" },
		{ 20, 9, 7, KFT_STREAM_ROW_HIDDEN, 7, "its return value goes against its flags" },
		{ 20, 0, 7, KFT_STREAM_ROW_OPEN, 7, "its return value goes against its flags" },
		{ 20, 9, 7, KFT_STREAM_ROW_ERROR | KFT_STREAM_ROW_HIDDEN, (uint64_t)-2,
		  "more than one of open, error and hidden" },
		{ 20, 0, 7, KFT_STREAM_ROW_OPEN | KFT_STREAM_ROW_ERROR, (uint64_t)-2,
		  "more than one of open, error and hidden" },
		{ 20, 0, 7, KFT_STREAM_ROW_OPEN | KFT_STREAM_ROW_HIDDEN, 0,
		  "more than one of open, error and hidden" },
	};
	struct kftrec_call calls[2];
	char *file;
	size_t i, len;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(calls, 0, sizeof(calls));
		calls[0].row = row_of(10, 9, 7, 0, 0, 1, "sh");
		calls[1].row = row_of(cases[i].entry, cases[i].dur, cases[i].pid, 0, cases[i].flags,
				      cases[i].retval, "sh");
		file = record_file_calls(NULL, calls, 2, &len);
		check_row_two(file, len, cases[i].why, i);
		free(file);
	}
}

/* Not a record file: given back as it is, its first byte still to read. */
static void test_text_of_a_log(void)
{
	static const char log[] = "Kernel Instrumentation Run ID 3\n";
	FILE *in = fmemopen((void *)log, sizeof(log) - 1, "r");
	char line[64];

	CHECK(kftrec__text_of(in, "f", stderr, NULL) == in, "a log is itself");
	CHECK(fgets(line, sizeof(line), in) && !strcmp(line, log), "read whole: %s", line);
	fclose(in);
}

UNIT_MAIN(test_row_text, test_call_extras_text, test_call_str_text, test_call_str_invalid,
	  test_file_to_text, test_text_cut_said, test_file_header_count, test_refused,
	  test_file_extras, test_file_malformed, test_file_row_malformed,
	  test_text_of_a_log)

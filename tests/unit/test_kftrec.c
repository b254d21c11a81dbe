// SPDX-License-Identifier: GPL-2.0
/*
 * kft record's file (userspace/lib/kftrec.c): a row's text to the byte of
 * the module's, the first line and what is refused, a file cut short.
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
	struct kft_stream_row row;
	char buf[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kftrec_row_text(&cases[i].row, cases[i].unit, 16, buf, sizeof(buf));
		CHECK_STR(buf, cases[i].text, "a row's text");
	}
	row = cases[0].row;
	row.func = 0xc0100200;
	row.caller = 0x100;
	kftrec_row_text(&row, 1000, 8, buf, sizeof(buf));
	CHECK(strstr(buf, "  0xc0100200               0x00000100 ") != NULL,
	      "32-bit addresses: 8 digits: %s", buf);
}

static const char header[] = "\nKernel Instrumentation Run ID 3\nUnits: ns\n\n"
			     "Number of entries after filters = 2\n\n"
			     " Entry    Delta     PID        Function\n"
			     "-------- -------- -------- ----------------\n";

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
}

static void test_refused(void)
{
	static const struct {
		const char *first, *warning;
	} cases[] = {
		{ "Kernel Instrumentation Run ID 3\n",
		  "f: not a kft record file (its first line is no 'KFT record' line)\n" },
		{ "\x7fKFT record 2: 64-byte rows, 8-byte addresses, little-endian\n",
		  "f: a kft record file of another kind (version 2, 64-byte rows, 8-byte "
		  "addresses): this kft reads version 1, 64-byte rows\n" },
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

/* Not a record file: given back as it is, its first byte still to read. */
static void test_text_of_a_log(void)
{
	static const char log[] = "Kernel Instrumentation Run ID 3\n";
	FILE *in = fmemopen((void *)log, sizeof(log) - 1, "r");
	char line[64];

	CHECK(kftrec__text_of(in, "f", stderr) == in, "a log is itself");
	CHECK(fgets(line, sizeof(line), in) && !strcmp(line, log), "read whole: %s", line);
	fclose(in);
}

UNIT_MAIN(test_row_text, test_file_to_text, test_refused, test_text_of_a_log)

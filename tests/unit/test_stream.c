// SPDX-License-Identifier: GPL-2.0
/*
 * Reading input in bounded memory: lines in parts, the string table and
 * its limit, what counts as a kft log, the row limit, maps that are no
 * symbol table, and symbolizing to a stream.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include "unit.h"
#include "array.h"
#include "kftlog.h"
#include "ksyms.h"
#include "linereader.h"
#include "strtab.h"
#include "symbolize.h"

static void test_line_read_parts(void)
{
	static const char text[] = "ab\nabcdefgh\nx\0y\nend";
	FILE *in = fmemopen((void *)text, sizeof(text) - 1, "r");
	static const struct { enum line_status st; size_t len; const char *s; } want[] = {
		{ LINE_WHOLE, 3, "ab\n" },
		{ LINE_PART, 4, "abcd" },	/* a 5-byte buffer: 4 bytes at a time */
		{ LINE_PART, 4, "efgh" },
		{ LINE_WHOLE, 1, "\n" },
		{ LINE_WHOLE, 4, "x" },		/* "x\0y\n": the NUL is counted */
		{ LINE_WHOLE, 3, "end" },	/* no newline at the end */
		{ LINE_EOF, 0, "" },
	};
	char buf[5];
	size_t i, len;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		enum line_status st = line_read(in, buf, sizeof(buf), &len);

		CHECK(st == want[i].st && len == want[i].len, "read %zu: status %d len %zu, "
		      "expected %d %zu", i, st, len, want[i].st, want[i].len);
		CHECK_STR(buf, want[i].s, "line text");
	}
	fclose(in);
}

static void test_strtab_interns_and_limits(void)
{
	struct strtab st = { .limit = 100 * 1024 };
	const char *a = strtab__intern(&st, "vfs_read+0x4", 8), *b;
	char big[70 * 1024];
	int i;

	/* Many distinct strings: the slots grow, earlier pointers stay. */
	for (i = 0; i < 5000; i++) {
		char name[16];

		snprintf(name, sizeof(name), "fn_%d", i);
		CHECK(strtab__intern(&st, name, strlen(name)), "intern %s", name);
	}
	b = strtab__intern(&st, "vfs_read", 8);
	CHECK(a == b && !strcmp(a, "vfs_read"), "one copy of vfs_read: %p %p", (void *)a, (void *)b);
	CHECK(strtab__add(&st, "a\0b", 3) && !strcmp(strtab__add(&st, "a\0b", 3), "a"),
	      "a string ends at a NUL byte");
	memset(big, 'x', sizeof(big));
	CHECK(!strtab__add(&st, big, sizeof(big)) && errno == EFBIG, "past the limit: errno %d", errno);
	strtab__free(&st);
}

/* Which inputs are kft logs (kd and addr2sym fail on the others). */
static void test_what_is_a_log(void)
{
	static const struct { const char *text; int is_log; } cases[] = {
		{ "", 0 },						/* empty: no header */
		{ "\n \n", 0 },
		{ "Run ID 1\n-------- --------\n", 1 },			/* no rows logged */
		{ "--------\n0 5 1.0 f c\n", 1 },
		{ "--------\n0 5 1.0 f c\nbad\n", 1 },			/* a row and a bad one */
		{ "--------\nbad\n", 0 },				/* only malformed rows */
		{ "ffffffff81000000 T outer\n", 0 },			/* a symbol table */
		{ "\x7f" "ELF\x01\x02\x80\n\xff\xfe", 0 },		/* binary */
		{ "0 5 1.0 f c\n", 0 },					/* rows but no header */
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kftlog *log = kftlog__parse(cases[i].text, strlen(cases[i].text), "t", NULL);

		CHECK(log && kftlog_scan_is_log(&log->scan) == cases[i].is_log,
		      "\"%s\": is a log %d, expected %d", cases[i].text,
		      log ? kftlog_scan_is_log(&log->scan) : -1, cases[i].is_log);
		kftlog__free(log);
	}
}

static void test_long_line_is_malformed(void)
{
	size_t len = KFTLOG_LINE_MAX * 3;
	char *text = malloc(len + 64);
	struct kftlog *log;

	strcpy(text, "--------\n0 5 1.0 f ");
	memset(text + strlen(text), 'x', len);
	strcpy(text + len, "\n1 2 1.0 g f+0x1\n");
	log = kftlog__parse(text, strlen(text), "t", NULL);
	CHECK(log && log->nr == 1 && log->scan.malformed == 1 && !strcmp(log->rows[0].func, "g"),
	      "rows %zu malformed %zu", log ? log->nr : 0, log ? log->scan.malformed : 0);
	kftlog__free(log);
	free(text);
}

/* A NUL byte in a row (found by fuzzing: an empty caller name). */
static void test_row_with_a_nul_is_malformed(void)
{
	static const char text[] = "--------\n0 5 1.0 f \0c\n1 2 1.0 g f\0\n2 1 1.0 h g\n";
	struct kftlog *log = kftlog__parse(text, sizeof(text) - 1, "t", NULL);

	CHECK(log && log->nr == 1 && log->scan.malformed == 2 && !strcmp(log->rows[0].func, "h"),
	      "rows %zu, malformed %zu", log ? log->nr : 0, log ? log->scan.malformed : 0);
	kftlog__free(log);
}

static void test_row_limit(void)
{
	static const char text[] = "--------\n0 5 1.0 f c\n1 2 1.0 g f\n2 1 1.0 h g\n";
	FILE *in = fmemopen((void *)text, sizeof(text) - 1, "r");
	struct kftlog *log = kftlog__read(in, "t", NULL, 2);

	CHECK(!log && errno == EFBIG, "3 rows with a limit of 2: errno %d", errno);
	kftlog__free(log);
	rewind(in);
	log = kftlog__read(in, "t", NULL, 3);
	CHECK(log && log->nr == 3 && log->rows[1].caller == log->rows[0].func,
	      "3 rows with a limit of 3, names interned");
	kftlog__free(log);
	fclose(in);
}

/*
 * The rows' array doubles, but never past the row limit: a log of 300
 * rows read with a limit of 300 has room for 300, not 1024 or 512.
 */
static void test_rows_room_within_limit(void)
{
	size_t n = 300, i, len = 0;
	char *text = NULL;
	FILE *f = open_memstream(&text, &len), *in;
	struct kftlog *log;

	fputs("--------\n", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%zu 1 1.0 f c\n", i);
	fclose(f);
	in = fmemopen(text, len, "r");
	log = kftlog__read(in, "t", NULL, n);
	CHECK(log && log->nr == n && log->cap <= n, "%zu rows with a limit of %zu: room for %zu",
	      log ? log->nr : 0, n, log ? log->cap : 0);
	kftlog__free(log);
	fclose(in);
	free(text);
}

/*
 * array_room() clamps its room to the limit, and refuses room whose bytes
 * a size_t cannot count: two elements of half a size_t and 8 bytes would
 * have asked realloc() for the product's remainder, 16 bytes.
 */
static void test_array_room_bounds(void)
{
	size_t cap = 0, half = (SIZE_MAX >> 1) + 9;
	char *v = array_room(NULL, &cap, 0, 1, 300), *w;

	CHECK(v && cap == 256, "first room: %zu, expected 256", cap);
	w = array_room(v, &cap, 256, 1, 300);
	CHECK(w && cap == 300, "room past 256 with a limit of 300: %zu", cap);
	v = w ? w : v;
	errno = 0;
	CHECK(!array_room(v, &cap, 300, 1, 300) && errno == EFBIG && cap == 300,
	      "at the limit: errno %d, room %zu", errno, cap);
	free(v);
	v = malloc(1);
	cap = 1;
	errno = 0;
	w = array_room(v, &cap, 1, half, 1000);
	CHECK(!w && errno == ENOMEM && cap == 1,
	      "2 elements of %zu bytes: %p, errno %d, room %zu", half, (void *)w, errno, cap);
	free(w ? w : v);
}

static void test_map_without_symbols(void)
{
	static const char log[] = "--------\n0 5 1.0 f c\n";
	char *huge = malloc(KSYMS_LINE_MAX * 2 + 64);
	struct ksyms *ks;

	CHECK(!ksyms__parse(log, strlen(log)) && errno == ENODATA, "a log as a map: errno %d", errno);
	CHECK(!strcmp(ksyms__strerror(ENODATA), "no symbols in it (not a System.map or /proc/kallsyms)"),
	      "message");
	/* An over-long line is skipped, the next one read. */
	memset(huge, 'f', KSYMS_LINE_MAX * 2);
	strcpy(huge + KSYMS_LINE_MAX * 2, " T x\nffffffff81000000 T outer\n");
	ks = ksyms__parse(huge, strlen(huge));
	CHECK(ks && ks->nr == 1 && ks->skipped == 1 && !strcmp(ks->syms[0].name, "outer"),
	      "long line skipped: %zu symbols, %zu skipped", ks ? ks->nr : 0, ks ? ks->skipped : 0);
	ksyms__free(ks);
	free(huge);
}

/* symbolize_fputs writes what symbolize_line would, however long. */
static void test_symbolize_to_a_stream(void)
{
	static const char map[] = "ffffffff81000000 T outer\nffffffffc0000000 t modfn\t[mymod]\n";
	struct ksyms *ks = ksyms__parse(map, strlen(map));
	size_t n = 3000, i, len = 0;
	char *line = malloc(n * 19 + 1), *out = NULL, *expect = malloc(n * 19 + 1);
	FILE *f = open_memstream(&out, &len);

	for (i = 0; i < n; i++) {
		memcpy(line + i * 19, i % 2 ? "0xffffffffc0000004 " : "0xffffffff81000010 ", 19);
		memcpy(expect + i * 19, i % 2 ? "mymod:modfn+0x4    " : "outer+0x10         ", 19);
	}
	line[n * 19] = expect[n * 19] = '\0';
	CHECK(symbolize_fputs(ks, line, f) == (int)n, "replaced");
	fclose(f);
	CHECK(len == n * 19 && !strcmp(out, expect), "%zu bytes, expected %zu", len, n * 19);
	free(out);
	free(line);
	free(expect);
	ksyms__free(ks);
}

#define CUT_HEADER "\nKernel Instrumentation Run ID 1\n\nNumber of entries after filters = 3\n\n" \
	"--------\n"
#define CUT_ROW "1 2 3.0 f g+0x1\n"

/* The warnings kftlog__read() gives text (named "log"), "" for none. */
static char *read_warnings(const char *text, struct kftlog_scan *scan)
{
	char *w = NULL;
	size_t len = 0;
	FILE *warn = open_memstream(&w, &len);
	struct kftlog *log = kftlog__parse(text, strlen(text), "log", warn);

	fclose(warn);
	if (log && scan)
		*scan = log->scan;
	kftlog__free(log);
	return w;
}

/* A log whose rows end before its header's count is said to be cut short. */
static void test_log_cut_short(void)
{
	static const struct {
		const char *text, *warning;
	} cases[] = {
		{ CUT_HEADER CUT_ROW CUT_ROW CUT_ROW, "" },
		{ CUT_HEADER CUT_ROW, "log: warning: the log is cut short: 1 of the 3 rows its "
		  "header counts\n" },
		{ CUT_HEADER, "log: warning: the log is cut short: 0 of the 3 rows its header "
		  "counts\n" },
		{ CUT_HEADER CUT_ROW CUT_ROW "1 2 3.0", "log:9: warning: malformed row skipped\n"
		  "log: warning: the log is cut short inside its last line\n" },
		{ CUT_HEADER CUT_ROW CUT_ROW "1 2 3.0 f g+0", "log: warning: the log is cut short "
		  "inside its last line\n" },
		{ CUT_HEADER CUT_ROW CUT_ROW CUT_ROW CUT_ROW, "log: warning: 4 rows, but its "
		  "header counts 3\n" },
		/* No count (a hand-made log): nothing to compare. */
		{ "--------\n" CUT_ROW, "" },
		/* A count that is no number: no check, and a warning that says so. */
		{ "\nNumber of entries after filters = 3x\n--------\n" CUT_ROW,
		  "log:2: warning: the header's count of rows is no number: the rows are not "
		  "checked against it\n" },
		{ "Number of entries after filters = -1\n--------\n" CUT_ROW,
		  "log:1: warning: the header's count of rows is no number: the rows are not "
		  "checked against it\n" },
		{ "Number of entries after filters = 99999999999999999999\n--------\n",
		  "log:1: warning: the header's count of rows is no number: the rows are not "
		  "checked against it\n" },
		{ "Number of entries after filters = 1 2\n--------\n" CUT_ROW,
		  "log:1: warning: the header's count of rows is no number: the rows are not "
		  "checked against it\n" },
		{ "Number of entries after filters = \n--------\n" CUT_ROW,
		  "log:1: warning: the header's count of rows is no number: the rows are not "
		  "checked against it\n" },
		/* A good count after a bad one: which is right is not known. */
		{ "Number of entries after filters = x\nNumber of entries after filters = 5\n"
		  "--------\n" CUT_ROW, "log:1: warning: the header's count of rows is no number: "
		  "the rows are not checked against it\n" },
		/* Without a count, a last line cut short is still said. */
		{ "Number of entries after filters = x\n--------\n" CUT_ROW "1 2 3.0 f g+0",
		  "log:1: warning: the header's count of rows is no number: the rows are not "
		  "checked against it\nlog: warning: the log is cut short inside its last line\n" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *w = read_warnings(cases[i].text, NULL);

		CHECK_STR(w, cases[i].warning, cases[i].text);
		free(w);
	}
}

/* The "Kernel:" line, and a map whose kernel is known checked against it. */
static void test_kernel_line_checked(void)
{
	struct kftlog_scan scan;
	struct utsname u;
	char *w, *out = NULL, log[256];
	size_t len = 0;
	FILE *warn;

	uname(&u);
	w = read_warnings("\nKernel Instrumentation Run ID 1\nKernel: 6.1.0-9-amd64\n\n--------\n", &scan);
	CHECK_STR(scan.kernel, "6.1.0-9-amd64", "the Kernel: line");
	free(w);
	warn = open_memstream(&out, &len);
	CHECK(symbolize_check_kernel("/boot/System.map-6.1.0-9-amd64", &scan, "t", "l", warn) == 0,
	      "System.map of the same release");
	CHECK(symbolize_check_kernel("kallsyms.txt", &scan, "t", "l", warn) == 0,
	      "a copy of kallsyms: nothing known");
	CHECK(symbolize_check_kernel("/boot/System.map-6.12.9-amd64", &scan, "t", "l", warn) == 1,
	      "System.map of another release");
	fclose(warn);
	CHECK_STR(out, "t: warning: l is a log of kernel 6.1.0-9-amd64, but "
		  "/boot/System.map-6.12.9-amd64 is of kernel 6.12.9-amd64: its symbols are not "
		  "the log's (give -m the traced kernel's kallsyms)\n", "the warning");
	free(out);
	/* /proc/kallsyms is the running kernel's: uname -r. */
	snprintf(log, sizeof(log), "Kernel: %s\n--------\n", u.release);
	free(read_warnings(log, &scan));
	CHECK(symbolize_check_kernel("/proc/kallsyms", &scan, "t", "l", NULL) == 0,
	      "/proc/kallsyms and a log of %s", u.release);
	free(read_warnings("Kernel: 0.0-none\n--------\n", &scan));
	CHECK(symbolize_check_kernel("/proc/kallsyms", &scan, "t", "l", NULL) == 1,
	      "/proc/kallsyms (%s) and a log of 0.0-none", u.release);
	/* A log from before the line names no kernel: nothing to check. */
	free(read_warnings("--------\n", &scan));
	CHECK(!scan.kernel[0] && symbolize_check_kernel("/proc/kallsyms", &scan, "t", "l", NULL) == 0,
	      "an old log");
}

/*
 * Two "Kernel:" lines: kft writes one, right after the run's ID, so the
 * first is the log's; the other is said, with its line, wherever a map is
 * checked against the log.
 */
static void test_kernel_line_twice(void)
{
	struct kftlog_scan scan;
	char *out = NULL;
	size_t len = 0;
	FILE *warn;

	free(read_warnings("\nKernel Instrumentation Run ID 1\nKernel: 6.1.0-9-amd64\n\n"
			   "Kernel: 6.12.9-amd64\n--------\n", &scan));
	CHECK_STR(scan.kernel, "6.1.0-9-amd64", "the first Kernel: line");
	warn = open_memstream(&out, &len);
	CHECK(symbolize_check_kernel("/boot/System.map-6.1.0-9-amd64", &scan, "t", "l", warn) == 1,
	      "a second Kernel: line is a warning");
	fclose(warn);
	CHECK_STR(out, "t: warning: l:5: a second 'Kernel:' line, ignored: l is taken as a log of "
		  "kernel 6.1.0-9-amd64 (line 3)\n", "the warning");
	free(out);
	/* The same release twice is said too: kft's header has one. */
	free(read_warnings("Kernel: 6.1.0-9-amd64\nKernel: 6.1.0-9-amd64\n--------\n", &scan));
	CHECK(symbolize_check_kernel("kallsyms.txt", &scan, "t", "l", NULL) == 1,
	      "the same release twice");
}

UNIT_MAIN(test_line_read_parts, test_strtab_interns_and_limits, test_what_is_a_log,
	  test_long_line_is_malformed, test_row_with_a_nul_is_malformed, test_row_limit,
	  test_rows_room_within_limit, test_array_room_bounds, test_map_without_symbols,
	  test_symbolize_to_a_stream, test_log_cut_short, test_kernel_line_checked,
	  test_kernel_line_twice)

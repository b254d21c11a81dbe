// SPDX-License-Identifier: GPL-2.0
/*
 * Saved consoles with kft's last calls (userspace/lib/kftcon.c): which
 * lines are a dump's whatever the console put before "kft: ", a dump's
 * rows in entry order (equal ones in their order), raw functions named by
 * the name their rows end with, the warnings held for the dump read only
 * and naming the console's lines, a log read as before, and kd's call
 * tree of a dump.
 */
#include <errno.h>
#include <stdlib.h>

#include "unit.h"
#include "kdrun.h"
#include "kftcon.h"

/* The dump's lines of a console: "kft: " and each line after it. */
#define START "kft: === last calls before an oops: run 1, each CPU's last 16, oldest first ===\n"
#define END "kft: === end of last calls ===\n"
#define HEAD "kft: | \n" \
	"kft: | Kernel Instrumentation Run ID 1\n" \
	"kft: | Number of entries after filters = 4\n" \
	"kft: | -------- -------- -------- ----------------                 ------------\n"

/* text read as kd reads it: the log, its warnings in *warnings (freed by the caller). */
static struct kftlog *read_text(const char *text, unsigned int dump, struct kftcon_info *info,
				char **warnings)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	size_t len = 0;
	FILE *warn = open_memstream(warnings, &len);
	struct kftlog *log = kftcon__read(in, "c", warn, KFTLOG_MAX_ROWS, dump, NULL, info);

	fclose(warn);
	fclose(in);
	return log;
}

static void test_lines_told_apart(void)
{
	static const struct {
		const char *line;
		enum kftcon_line kind;
		const char *text;	/* a TEXT line's text, a START's marker */
	} cases[] = {
		{ "kft: | Kernel: 6.12\n", KFTCON_TEXT, "Kernel: 6.12\n" },
		{ "[    3.485252] kft: |     7520 -1\n", KFTCON_TEXT, "    7520 -1\n" },
		{ "<0>kft: | x\r\n", KFTCON_TEXT, "x\r\n" },
		{ "Nov 29 08:56:47 kft kernel: kft: | y\n", KFTCON_TEXT, "y\n" },
		{ "kft: | \n", KFTCON_TEXT, "\n" },
		{ "kft: |\n", KFTCON_TEXT, "\n" },	/* trimmed by the capture */
		{ "kft: |", KFTCON_TEXT, "" },
		{ "kft: |x\n", KFTCON_BAD, NULL },
		{ "kft: ===\n", KFTCON_BAD, NULL },
		{ "[ 1.0] kft: === last calls before a panic: run 2 ===\n", KFTCON_START,
		  "a panic: run 2 ===\n" },
		{ "<0>kft: === end of last calls ===\r\n", KFTCON_END, NULL },
		{ "kft: loaded\n", KFTCON_OTHER, NULL },
		{ "kft_test: kft: | z\n", KFTCON_TEXT, "z\n" },
		{ "| 1 2 3\n", KFTCON_OTHER, NULL },
		{ "kft:| 1\n", KFTCON_OTHER, NULL },
		{ "", KFTCON_OTHER, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *text = NULL;
		size_t len = 0;
		enum kftcon_line kind = kftcon_line(cases[i].line, strlen(cases[i].line), &text,
						    &len);

		CHECK(kind == cases[i].kind, "\"%s\": %d, expected %d", cases[i].line, kind,
		      cases[i].kind);
		if (kind == cases[i].kind && cases[i].text)
			CHECK(len == strlen(cases[i].text) && !memcmp(text, cases[i].text, len),
			      "\"%s\": text \"%.*s\"", cases[i].line, (int)len, text);
	}
}

/*
 * CPU 1's rows after CPU 0's, equal times on both, oops lines between: in
 * entry order, ties in the console's order; functions named from their
 * rows' ends (a module's as addr2sym names it, an offset kept, a name
 * without one left raw).
 */
static void test_rows_sorted_and_named(void)
{
	static const char text[] =
		"[ 0.5] Linux version 6.12\n"
		"[ 3.1] " START
		"[ 3.1] " HEAD
		"[ 3.1] kft: | 30 5 7.0 0xffffffff81000100 0xffffffff81000010 sh 0x0 b+0x0/0x10\n"
		"[ 3.1] Oops: 0002 [#1] SMP\n"
		"[ 3.1] kft: | 20 -1 8.0 0xffffffffc0000000 0xffffffff81000020 t - f+0x0/0x8 [m]\n"
		"[ 3.1] kft: | 10 1 7.1 0xffffffff81000200 0xffffffff81000030 sh 0x1 c+0x4/0x10\n"
		"[ 3.1] kft: | 30 2 8.1 0xffffffff81000300 0xffffffff81000040 t 0x2 0xffffffff81000300\n"
		"[ 3.1] " END;
	static const char *const funcs[] = { "c+0x4", "m:f", "b", "0xffffffff81000300" };
	static const long long entries[] = { 10, 20, 30, 30 };
	struct kftcon_info info;
	char *warnings;
	struct kftlog *log = read_text(text, 0, &info, &warnings);
	size_t i;

	CHECK(log && log->nr == 4, "%zu rows, expected 4", log ? log->nr : 0);
	CHECK_STR(warnings, "", "no warning");
	CHECK(info.console && info.dumps == 1 && info.chosen == 1 && info.start_line == 2 &&
	      info.end_line == 12 && !strcmp(info.why, "an oops"),
	      "info: console %d, dumps %u, chosen %u, lines %u-%u, why '%s'", info.console,
	      info.dumps, info.chosen, info.start_line, info.end_line, info.why);
	for (i = 0; log && i < log->nr && i < 4; i++)
		CHECK(log->rows[i].entry == entries[i] && !strcmp(log->rows[i].func, funcs[i]),
		      "row %zu: %lld %s, expected %lld %s", i, log->rows[i].entry,
		      log->rows[i].func, entries[i], funcs[i]);
	if (log && log->nr == 4)
		CHECK(log->rows[2].cpu == 0 && log->rows[3].cpu == 1, "the tie: CPU %d, then %d",
		      log->rows[2].cpu, log->rows[3].cpu);
	kftlog__free(log);
	free(warnings);
}

/*
 * A call that moved to another CPU: its callees are on CPU 1, printed
 * after CPU 0's rows. kd's call tree nests them in it, the crash path
 * (the calls still open) as a stopped log shows it.
 */
static void test_calltree_of_a_dump(void)
{
	static const char text[] =
		START HEAD
		"kft: | 100 -1 9.0 0xffffffffc0000000 0x1 t - outer+0x0/0x10\n"
		"kft: | 50 20 9.0 0xffffffffc0000100 0x2 t 0x0 before+0x0/0x10\n"
		"kft: | 110 5 9.1 0xffffffffc0000200 0x3 t 0x0 leaf+0x0/0x10\n"
		"kft: | 120 -1 9.1 0xffffffffc0000300 0x4 t - inner+0x0/0x10\n"
		END;
	struct kd_params p = kd_params_of(KD_CALLTREE);
	struct kftcon_info info;
	struct kd_tree tree;
	char *warnings, *out = NULL;
	size_t len = 0;
	struct kftlog *log = read_text(text, 0, &info, &warnings);
	FILE *f = open_memstream(&out, &len);

	p.fields = "etp";
	CHECK(log && kd_tree_build(&tree, log, NULL) == 0, "the tree");
	if (log && tree.nr) {
		kd_output(f, &tree, &p);
		kd_tree_free(&tree);
	}
	fclose(f);
	CHECK_STR(out,
		" Entry      Duration       Pid Trace\n"
		"---------- ---------- -------- ---------------------------------\n"
		"== pid 9 (t) ==\n"
		"        50         20      9.0 before\n"
		"       100         -1      9.0 outer\n"
		"       110          5      9.1 |  leaf\n"
		"       120         -1      9.1 |  inner\n", "the call tree");
	CHECK_STR(warnings, "", "no warning");
	free(out);
	free(warnings);
	kftlog__free(log);
}

/* Several dumps: the last by default, the one asked for, or ENOENT past them. */
static void test_dump_chosen(void)
{
	static const char text[] =
		START HEAD "kft: | 1 1 1.0 one x+0x1\n" END
		"reboot\n"
		START HEAD "kft: | 2 1 1.0 two x+0x1\n" "kft: | bad row\n" END;
	struct kftcon_info info;
	char *warnings;
	struct kftlog *log = read_text(text, 0, &info, &warnings);

	CHECK(log && log->nr == 1 && !strcmp(log->rows[0].func, "two"), "the last dump");
	CHECK(info.dumps == 2 && info.chosen == 2 && info.start_line == 9, "dumps %u, chosen %u, line %u",
	      info.dumps, info.chosen, info.start_line);
	CHECK_STR(warnings, "c:15: warning: malformed row skipped\n"
		  "c: warning: the log is cut short: 2 of the 4 rows its header counts\n",
		  "the last dump's warnings");
	kftlog__free(log);
	free(warnings);
	/* The first dump's warnings are its own: none of the second's. */
	log = read_text(text, 1, &info, &warnings);
	CHECK(log && log->nr == 1 && !strcmp(log->rows[0].func, "one"), "the first dump");
	CHECK(info.chosen == 1 && info.dumps == 2 && info.end_line == 7, "chosen %u of %u, end %u",
	      info.chosen, info.dumps, info.end_line);
	CHECK_STR(warnings, "c: warning: the log is cut short: 1 of the 4 rows its header counts\n",
		  "the first dump's warnings");
	kftlog__free(log);
	free(warnings);
	errno = 0;
	log = read_text(text, 3, &info, &warnings);
	CHECK(!log && errno == ENOENT && info.dumps == 2, "no third dump: errno %d, dumps %u",
	      errno, info.dumps);
	CHECK_STR(warnings, "", "no warning");
	free(warnings);
}

/*
 * A log is read as before, its warnings as before; a console whose lines
 * before the dump look like a log's rows (a WARNING's cut-here line, with
 * no time before it) has none of the log's warnings.
 */
static void test_log_as_before(void)
{
	static const char log_text[] = "--------\n1 2 3\n5 1 1.0 f x+0x1\n";
	static const char console[] = "------------[ cut here ]------------\n"
		"WARNING: CPU: 0 PID: 1 at x+0x1/0x2\n" START HEAD
		"kft: | 5 1 1.0 g x+0x1\n";
	struct kftcon_info info;
	char *warnings;
	struct kftlog *log = read_text(log_text, 0, &info, &warnings);

	CHECK(log && log->nr == 1 && !info.console && !info.dumps, "a log");
	CHECK_STR(warnings, "c:2: warning: malformed row skipped\n", "the log's warning");
	kftlog__free(log);
	free(warnings);
	log = read_text(console, 0, &info, &warnings);
	CHECK(log && log->nr == 1 && !strcmp(log->rows[0].func, "g") && info.console,
	      "the console's dump");
	CHECK_STR(warnings, "c:8: warning: the last calls of line 3 have no end line "
		  "(=== end of last calls ===): the console was cut; read up to its end\n"
		  "c: warning: the log is cut short: 1 of the 4 rows its header counts\n",
		  "the dump's warnings, none of the lines before it");
	kftlog__free(log);
	free(warnings);
}

/* Lines of a dump with no line that begins it: counted, for kd to say. */
static void test_stray_lines(void)
{
	static const char text[] = "boot\n" HEAD "kft: | 1 1 1.0 f x+0x1\n" END;
	struct kftcon_info info;
	char *warnings;
	struct kftlog *log = read_text(text, 0, &info, &warnings);

	CHECK(log && !log->nr && !info.console && info.stray == 5 && info.stray_line == 2,
	      "stray %u from line %u", info.stray, info.stray_line);
	kftlog__free(log);
	free(warnings);
}

UNIT_MAIN(test_lines_told_apart, test_rows_sorted_and_named, test_calltree_of_a_dump,
	  test_dump_chosen, test_log_as_before, test_stray_lines)

// SPDX-License-Identifier: GPL-2.0
/*
 * kd on small hand-made logs whose answers are worked out by hand: nesting,
 * two pids with the same functions, an interrupt, open calls (-1), stack
 * watch rows (-2), a malformed line, ties at microsecond boundaries, raw
 * addresses with a map. Every mode and the option parser.
 */
#include <stdlib.h>
#include "unit.h"
#include "kdrun.h"

#define HEADER "\nKernel Instrumentation Run ID 1\n\nNumber of entries after filters = 7\n\n" \
	" Entry    Delta     PID        Function                        Caller\n" \
	"-------- -------- -------- ----------------                 ------------\n"

/* outer(0-100) > middle(5-55) > leaf(10-30); open_fn(60-) in outer; another
 * pid's other(12-42); irq_fn in interrupt context on CPU 0; a stack watch
 * snapshot of one row (stack_fn entered from open_fn, 512 bytes left). */
static const char log_basic[] = HEADER
	"       0      100     10.0  outer                            start_kernel+0x10\n"
	"       5       50     10.0  middle                           outer+0x5\n"
	"      10       20     10.0  leaf                             middle+0x8\n"
	"      12       30     20.1  other                            sys_x+0x3\n"
	"      30       10     -1.0  irq_fn                           common_irq+0x2\n"
	"\n"
	"this line is not a row\n"
	"      60       -1     10.0  open_fn                          outer+0x9\n"
	"      70       -2     10.0  stack_fn                         open_fn+0x4   left=512\n";

/* The summary's section on log_basic's snapshot: whatever the options. */
#define SNAPSHOT_SECTION "\nStack snapshots: 1\n" \
	"      Time      Pid     Left Depth Function\n" \
	"---------- -------- -------- ----- -----------------------------------\n" \
	"        70     10.0      512     2 stack_fn\n"

static void test_malformed_lines_are_counted(void)
{
	struct kftlog *log = kftlog__parse(log_basic, strlen(log_basic), "test", NULL);

	CHECK(log->nr == 7, "%zu rows, expected 7 (the blank line is no row)", log->nr);
	CHECK(log->scan.malformed == 1, "%zu malformed, expected 1", log->scan.malformed);
	CHECK(log->rows[4].pid == -1 && log->rows[4].cpu == 0, "irq row pid %d cpu %d",
	      log->rows[4].pid, log->rows[4].cpu);
	kftlog__free(log);
}

static void test_summary(void)
{
	struct kd_params p = kd_params_of(KD_SUMMARY);
	char *out = kd_run(log_basic, &p, NULL);

	CHECK_STR(out,
		"Function                            Count     Time  Average    Local\n"
		"----------------------------------- ----- -------- -------- --------\n"
		"outer                                   1      100      100       50\n"
		"middle                                  1       50       50       30\n"
		"other                                   1       30       30       30\n"
		"leaf                                    1       20       20       20\n"
		"irq_fn                                  1       10       10       10\n"
		"open_fn                                 1        0        0        0\n"
		"\n"
		"Stack snapshots: 1\n"
		"      Time      Pid     Left Depth Function\n"
		"---------- -------- -------- ----- -----------------------------------\n"
		"        70     10.0      512     2 stack_fn\n",
		"summary, default columns, then the snapshot");
	free(out);
}

static void test_summary_long_sorted_by_name_top(void)
{
	struct kd_params p = kd_params_of(KD_SUMMARY);
	char *out;

	p.long_fields = 1;
	p.sort = 'F';
	p.top = 3;
	out = kd_run(log_basic, &p, NULL);
	CHECK_STR(out,
		"Function                            Count     Time  Average    Local Sub-time Max-sub                             Ms count\n"
		"----------------------------------- ----- -------- -------- -------- -------- ----------------------------------- --------\n"
		"irq_fn                                  1       10       10       10        0 -                                          0\n"
		"leaf                                    1       20       20       20        0 -                                          0\n"
		"middle                                  1       50       50       30       20 leaf                                       1\n"
		SNAPSHOT_SECTION,
		"summary -l -s F -n 3");
	free(out);
}

static void test_summary_fields_and_threshold(void)
{
	struct kd_params p = kd_params_of(KD_SUMMARY);
	char *out;

	p.fields = "Fru";
	p.min_time = 25;
	out = kd_run(log_basic, &p, NULL);
	CHECK_STR(out,
		"Function                            Range             Sub-list\n"
		"----------------------------------- ----------------- --------\n"
		"outer                               100-100           middle,open_fn\n"
		"middle                              50-50             leaf\n"
		"other                               30-30             -\n"
		SNAPSHOT_SECTION,
		"summary -f Fru -t 25");
	free(out);
}

/*
 * A function with 300 distinct callees (the child index grows several
 * times): child_I is called I % 3 + 1 times, child_257 five times, each call
 * 1 us. The list keeps first-call order; the biggest child is child_257.
 */
static void test_summary_many_children(void)
{
	struct kd_params p = kd_params_of(KD_SUMMARY);
	size_t cap = 64 * 1024, len = 0;
	char *log_text = malloc(cap), *expect = malloc(cap), *out;
	size_t elen = 0;
	int i, pass, t = 1, calls = 0;

	len += snprintf(log_text + len, cap - len, "%s       0   100000     10.0  root  x+0x1\n", HEADER);
	for (pass = 0; pass < 5; pass++)
		for (i = 0; i < 300; i++) {
			if (pass > i % 3 && !(i == 257 && pass < 5))
				continue;
			len += snprintf(log_text + len, cap - len,
					"%8d        1     10.0  child_%d  root+0x4\n", t, i);
			t += 2;
			calls++;
		}
	CHECK(len < cap && calls == 300 + 200 + 100 + 2, "%d calls", calls);
	p.fields = "Fsmnu";
	p.top = 1;
	out = kd_run(log_text, &p, NULL);
	elen += snprintf(expect + elen, cap - elen,
			 "%-35s %8s %-35s %8s Sub-list\n"
			 "----------------------------------- -------- "
			 "----------------------------------- -------- --------\n"
			 "%-35s %8d %-35s %8d ",
			 "Function", "Sub-time", "Max-sub", "Ms count", "root", calls, "child_257", 5);
	for (i = 0; i < 300; i++)
		elen += snprintf(expect + elen, cap - elen, "%schild_%d", i ? "," : "", i);
	snprintf(expect + elen, cap - elen, "\n");
	CHECK_STR(out, expect, "summary -f Fsmnu of a function with 300 callees");
	free(out);
	free(expect);
	free(log_text);
}

static void test_calltree(void)
{
	struct kd_params p = kd_params_of(KD_CALLTREE);
	char *out;

	p.long_fields = 1;
	out = kd_run(log_basic, &p, NULL);
	CHECK_STR(out,
		" Entry      Duration   Local          Pid Trace\n"
		"---------- ---------- ---------- -------- ---------------------------------\n"
		"         0        100         50     10.0 outer\n"
		"         5         50         30     10.0 |  middle\n"
		"        10         20         20     10.0 |  |  leaf\n"
		"        60         -1          -     10.0 |  open_fn\n"
		"        70          -          -     10.0 |  |  == stack snapshot, 512 bytes left ==\n"
		"                                          |  |  #0 stack_fn\n"
		"                                          |  |  #1 open_fn+0x4\n"
		"        12         30         30     20.1 other\n"
		"        30         10         10     -1.0 irq_fn\n",
		"calltree -l");
	free(out);
}

static void test_calltree_depth_width_interlace(void)
{
	struct kd_params p = kd_params_of(KD_CALLTREE);
	char *out;

	p.max_depth = 2;
	p.name_width = 3;
	p.interlace = 1;
	out = kd_run(log_basic, &p, NULL);
	CHECK_STR(out,
		"Trace\n"
		"---------------------------------\n"
		"* out\n"
		"* |  mid\n"
		"+ oth\n"
		"----------- !!!! start --------------\n"
		"# irq\n"
		"----------- !!!! end ----------------\n"
		"* |  ope\n",
		"calltree -i -d 2 -m 3");
	free(out);
}

static void test_two_pids_same_function(void)
{
	/* pid 1's f contains pid 2's f in time: still not its parent. */
	static const char log[] = HEADER
		"       0      100      1.0  f                                x+0x1\n"
		"      10       20      2.1  f                                y+0x1\n"
		"      15        5      2.1  g                                f+0x4\n";
	struct kd_params p = kd_params_of(KD_SUMMARY);
	char *out;

	p.fields = "Fctsl";
	out = kd_run(log, &p, NULL);
	CHECK_STR(out,
		"Function                            Count     Time Sub-time    Local\n"
		"----------------------------------- ----- -------- -------- --------\n"
		"f                                       2      120        5      115\n"
		"g                                       1        5        0        5\n",
		"two pids");
	free(out);
}

static void test_microsecond_ties_use_the_caller(void)
{
	/* b starts as a ends (same us) and a is its caller: a's child.
	 * c starts as b ends, but its caller is x: not b's child, a's. */
	static const char log[] = HEADER
		"       0       10      5.0  a                                x+0x1\n"
		"       5        5      5.0  b                                a+0x3\n"
		"      10        0      5.0  c                                a+0x8\n";
	struct kd_params p = kd_params_of(KD_CALLTREE);
	char *out = kd_run(log, &p, NULL);

	CHECK_STR(out,
		"Trace\n---------------------------------\n"
		"a\n|  b\n|  c\n", "ties");
	free(out);
}

static void test_tail_call_keeps_time_nesting(void)
{
	/* h tail-calls k: k's return address is in h's caller. */
	static const char log[] = HEADER
		"       0       50      5.0  top                              x+0x1\n"
		"       1       40      5.0  h                                top+0x3\n"
		"       2       30      5.0  k                                top+0x3\n";
	struct kd_params p = kd_params_of(KD_CALLTREE);
	char *out = kd_run(log, &p, NULL);

	CHECK_STR(out, "Trace\n---------------------------------\ntop\n|  h\n|  |  k\n",
		  "tail call");
	free(out);
}

/* Times near LLONG_MAX (a corrupt or hand-made log) saturate, never wrap. */
static void test_huge_times_saturate(void)
{
	static const char log[] = HEADER
		"       0 9000000000000000000  1.0  f                         x+0x1\n"
		"       1 9000000000000000000  1.0  g                         f+0x1\n"
		"       9 9000000000000000000  2.0  f                         x+0x1\n";
	struct kd_params p = kd_params_of(KD_SUMMARY);
	char *out;

	p.fields = "Fts";
	out = kd_run(log, &p, NULL);
	CHECK_STR(out,
		"Function                                Time Sub-time\n"
		"----------------------------------- -------- --------\n"
		"f                                   9223372036854775807 9000000000000000000\n"
		"g                                   9000000000000000000        0\n",
		"summary of huge times");
	free(out);
	p = kd_params_of(KD_FOLDED);
	out = kd_run(log, &p, NULL);
	CHECK_STR(out, "f 9000000000000000000\nf;g 9000000000000000000\n", "folded");
	free(out);
	/* An open call at the largest time: the axis ends there. */
	p = kd_params_of(KD_SVG);
	out = kd_run(HEADER "9223372036854775807 -1 1.0 f x+0x1\n", &p, NULL);
	CHECK(out && strstr(out, ">9223372036854775807 us</text>"), "svg axis:\n%s", out);
	free(out);
	/* A call whose end is past the largest time: its bar ends at the axis's end. */
	out = kd_run(HEADER "9223372036854775807 9223372036854775807 1.0 f x+0x1\n", &p, NULL);
	CHECK(out && strstr(out, "width=\"0.50\""), "svg bar:\n%s", out);
	free(out);
}

/*
 * Lines sorted as strcmp() sorts them, as when kd sorted one string a call:
 * a name that another extends ("a", "a.b") sorts its own line before the
 * other's and its callees' ("a;x") after ('.' < ';'); a ';' in a name
 * becomes '_'; an open call has no line, its callee one under it; empty
 * names first in a stack add nothing to its line.
 */
static void folded_order(void)
{
	static const char log[] = HEADER
		"0 10 1.0 a x+0x1\n"
		"1 4 1.0 a.b a+0x1\n"
		"20 10 1.0 a x+0x1\n"
		"21 3 1.0 z a+0x1\n"
		"40 3 1.0 a.b x+0x1\n"
		"50 -1 1.0 open x+0x1\n"
		"51 2 1.0 c;d open+0x1\n"
		"60 0 2.0 a$ x+0x1\n";
	struct kd_params p = kd_params_of(KD_FOLDED);
	char *out = kd_run(log, &p, NULL);

	CHECK_STR(out,
		"a 13\n"
		"a$ 0\n"
		"a.b 3\n"
		"a;a.b 4\n"
		"a;z 3\n"
		"open;c_d 2\n",
		"folded order");
	free(out);
	/* "+0x4" through a map is an empty function: before b, it leaves no ';'. */
	out = kd_run(HEADER "0 10 1.0 +0x4 x+0x1\n1 2 1.0 b +0x4\n20 3 1.0 b x+0x1\n"
		     "30 1 1.0 +0x8 x+0x1\n", &p, "ffffffff81000000 T outer\n");
	CHECK_STR(out, " 9\nb 5\n", "empty outermost names");
	free(out);
}

static void test_folded(void)
{
	struct kd_params p = kd_params_of(KD_FOLDED);
	char *out = kd_run(log_basic, &p, NULL);

	CHECK_STR(out,
		"irq_fn 10\n"
		"other 30\n"
		"outer 50\n"
		"outer;middle 30\n"
		"outer;middle;leaf 20\n",
		"folded");
	free(out);
	folded_order();
}

static void test_raw_addresses_with_a_map(void)
{
	static const char map[] =
		"ffffffff81000000 T outer\n"
		"ffffffff81000100 T inner\n"
		"ffffffff81000200 T other\n";
	static const char raw[] = HEADER
		"       0      100     10.0  0xffffffff81000000               0xffffffff81000210\n"
		"       5       50     10.0  0xffffffff81000100               0xffffffff81000005\n";
	struct kd_params p = kd_params_of(KD_FOLDED);
	char *out = kd_run(raw, &p, map);

	CHECK_STR(out, "outer 50\nouter;inner 50\n", "raw log through a map");
	free(out);
	/* Without a map, names are the addresses. */
	out = kd_run(raw, &p, NULL);
	CHECK_STR(out, "0xffffffff81000000 50\n0xffffffff81000000;0xffffffff81000100 50\n",
		  "raw log, no map");
	free(out);
}

/*
 * kallsyms' names have up to 511 bytes since 6.1: a module's function of
 * 507 is named whole, its module before it, whatever its offset.
 */
static void test_long_names_with_a_map(void)
{
	static const char raw[] = HEADER
		"       0      100     10.0  0xffffffffc00001f4               0xffffffff81000000\n";
	char name[508], map[600], want[600], *out;
	struct kd_params p = kd_params_of(KD_FOLDED);

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(map, sizeof(map), "ffffffffc0000000 t %s\t[mymod]\n", name);
	snprintf(want, sizeof(want), "mymod:%s 100\n", name);
	out = kd_run(raw, &p, map);
	CHECK_STR(out, want, "a module's 507-byte name");
	free(out);
}

static void test_json_events(void)
{
	struct kd_params p = kd_params_of(KD_JSON);
	char *out = kd_run(log_basic, &p, NULL);

	CHECK(strstr(out, "{\"name\":\"outer\",\"ph\":\"X\",\"ts\":0,\"dur\":100,\"pid\":1,\"tid\":10,"
			  "\"args\":{\"cpu\":0,\"caller\":\"start_kernel+0x10\"}}") != NULL,
	      "outer event missing:\n%s", out);
	CHECK(strstr(out, "{\"name\":\"open_fn\",\"ph\":\"B\",\"ts\":60") != NULL, "open call as B");
	CHECK(strstr(out, "\"tid\":4194304,\"args\":{\"name\":\"irq cpu0\"}") != NULL, "irq lane");
	CHECK(!strstr(out, "stack_fn"), "a stack row became an event");
	free(out);
}

/*
 * An interrupt thread's tid is past every pid (PID_MAX_LIMIT, 2^22, and
 * up): pid 1000000 and pid 4194303 keep lanes of their own, apart from
 * CPU 0's and CPU 3's interrupts (1000000 + CPU was the interrupts' tid).
 */
static void test_json_irq_tid_no_pid(void)
{
	struct kd_params p = kd_params_of(KD_JSON);
	char *out = kd_run(HEADER "0 5 1000000.0 f c+0x1\n1 2 -1.0 g c+0x1\n"
			   "2 5 4194303.3 h c+0x1\n3 2 -1.3 k c+0x1\n", &p, NULL);

	CHECK(strstr(out, "\"tid\":1000000,\"args\":{\"name\":\"pid 1000000\"}") &&
	      strstr(out, "\"tid\":4194303,\"args\":{\"name\":\"pid 4194303\"}") &&
	      strstr(out, "\"tid\":4194304,\"args\":{\"name\":\"irq cpu0\"}") &&
	      strstr(out, "\"tid\":4194307,\"args\":{\"name\":\"irq cpu3\"}"),
	      "thread names:\n%s", out);
	CHECK(strstr(out, "{\"name\":\"g\",\"ph\":\"X\",\"ts\":1,\"dur\":2,\"pid\":1,"
			  "\"tid\":4194304,") != NULL, "irq event's tid:\n%s", out);
	free(out);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

static void test_svg_lanes_and_bars(void)
{
	struct kd_params p = kd_params_of(KD_SVG);
	char *out = kd_run(log_basic, &p, NULL);

	/* 6 calls (the stack row is none), 3 lanes: pid 10, pid 20, irq cpu0. */
	CHECK(count(out, "<rect x=") == 6, "%zu bars, expected 6", count(out, "<rect x="));
	CHECK(strstr(out, ">pid 10</text>") && strstr(out, ">pid 20</text>") &&
	      strstr(out, ">irq cpu0</text>"), "lane titles");
	CHECK(count(out, "stroke-dasharray") == 1, "one open call drawn dashed");
	CHECK(strstr(out, "<title>middle entry 5 us, 50 us</title>") != NULL, "tooltip");
	free(out);
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A command line, whether kd_parse_args() takes it, and its message if not. */
struct parse_case {
	const char *args[8];
	int ok;
	const char *err;
};

/* Each case parsed in turn: a parse after one that failed starts afresh. */
static void check_parse_cases(const struct parse_case *cases, size_t n)
{
	struct kd_params p;
	char err[128], line[128];
	size_t i;

	for (i = 0; i < n; i++) {
		char *argv[8] = { 0 };
		int argc = 0, ret, len = 0;

		while (cases[i].args[argc]) {
			argv[argc] = (char *)cases[i].args[argc];
			len += snprintf(line + len, sizeof(line) - len, "%s%s", argc ? " " : "",
					argv[argc]);
			argc++;
		}
		err[0] = '\0';
		ret = kd_parse_args(argc, argv, &p, err, sizeof(err));
		CHECK((ret == 0) == cases[i].ok, "%s: returned %d (%s)", line, ret, err);
		if (!cases[i].ok)
			CHECK_STR(err, cases[i].err, line);
	}
}

static void test_parse_args(void)
{
	static const struct parse_case cases[] = {
		{ { "kd", "-c", "-l", "-d", "5", NULL }, 1, "" },
		{ { "kd", "-m", "30", "-c", NULL }, 1, "" },
		{ { "kd", "-m", "kallsyms.txt", NULL }, 1, "" },
		{ { "kd", "-f", "Fx", NULL }, 0, "-f: no column 'x' in this mode (FctarslmnueoqbOQBS)" },
		{ { "kd", "-c", "-f", "etz", NULL }, 0, "-f: no column 'z' in this mode (etlpoqbr)" },
		{ { "kd", "-s", "m", NULL }, 0, "-s: cannot sort by 'm' (F c t a s l e o q b O Q B)" },
		{ { "kd", "-n", "x", NULL }, 0, "-n: bad number 'x'" },
		{ { "kd", "-c", "-d", "0", NULL }, 0, "-d: bad number '0'" },
		{ { "kd", "-c", "-d", "4294967297", NULL }, 0, "-d: bad number '4294967297'" },
		{ { "kd", "-c", "-d", "2147483648", NULL }, 0, "-d: bad number '2147483648'" },
		{ { "kd", "-c", "-d", "2147483647", NULL }, 1, "" },
		{ { "kd", "-m", "4294967336", NULL }, 0, "-m: bad number '4294967336'" },
		{ { "kd", "a", "b", NULL }, 0, "more than one FILE" },
		/* getopt's errors as every tool says them (test_opterr.c has the rest). */
		{ { "kd", "-c", "-lQi", NULL }, 0, "unknown option '-Q'" },
		{ { "kd", "--w", "3", NULL }, 0, "option '--w' is ambiguous: --weigh, --width" },
		{ { "kd", "a", "-c", NULL }, 0, "-c: options go before FILE" },
		{ { "kd", "--flamegraph", "--snapshots", "--title", "T", NULL }, 1, "" },
		{ { "kd", "--folded", "--snapshots", NULL }, 1, "" },
		{ { "kd", "-s", "B", "-f", "FoqbOQB", NULL }, 1, "" },
		{ { "kd", "--flamegraph", "--weigh", "oncpu", NULL }, 1, "" },
		{ { "kd", "--folded", "--weigh", "Wall", NULL }, 0,
		  "--weigh: wall, oncpu or offcpu, not 'Wall'" },
		{ { "kd", "--folded", "--snapshots", "--weigh", "wall", NULL }, 0,
		  "--weigh: not with --snapshots (a snapshot weighs 1)" },
		{ { "kd", "-c", "--types", "--btf", "v", NULL }, 1, "" },
		{ { "kd", "-c", "--dwarf", "d", NULL }, 1, "" },
		/* The unit tests link kd without libdw, as the guests' static kd. */
		{ { "kd", "-c", "--srcline", "vmlinux", NULL }, 0,
		  "--srcline: this kd was built without libdw (elfutils' DWARF reader): "
		  "build kd where libdw-dev is installed" },
	};
	struct kd_params p;
	char err[128];

	check_parse_cases(cases, ARRAY_SIZE(cases));
	/* --btf, --dwarf, --proto: each file kept, and --types implied. */
	{
		char a0[] = "kd", a1[] = "-c", a2[] = "--btf", a3[] = "v", a4[] = "--btf";
		char a5[] = "m";
		char *argv[] = { a0, a1, a2, a3, a4, a5, NULL };

		CHECK(!kd_parse_args(6, argv, &p, err, sizeof(err)) && p.types.wanted &&
		      p.types.nr[TYPEDLOG_BTF] == 2 && !strcmp(p.types.paths[TYPEDLOG_BTF][1], "m"),
		      "--btf v --btf m");
	}
	/* -m: a number is the width, anything else the map. */
	{
		char a0[] = "kd", a1[] = "-m", a2[] = "30", a3[] = "map.txt", a4[] = "-c";
		char *w[] = { a0, a4, a1, a2, NULL }, *m[] = { a0, a1, a3, NULL };

		CHECK(!kd_parse_args(4, w, &p, err, sizeof(err)) && p.name_width == 30 && !p.map,
		      "-c -m 30: width %d (%s)", p.name_width, err);
		CHECK(!kd_parse_args(3, m, &p, err, sizeof(err)) && p.map &&
		      !strcmp(p.map, "map.txt") && p.name_width == 40, "-m map.txt (%s)", err);
	}
	{
		char a0[] = "kd", a1[] = "--flamegraph", a2[] = "--title", a3[] = "<x>", a4[] = "f";
		char *v[] = { a0, a1, a2, a3, a4, NULL };

		CHECK(kd_parse_args(5, v, &p, err, sizeof(err)) == 0 && p.mode == KD_FLAMEGRAPH &&
		      !strcmp(p.title, "<x>") && !p.snapshots && !strcmp(p.file, "f"),
		      "--flamegraph --title '<x>' f");
	}
	{
		char a0[] = "kd", a1[] = "--version", a2[] = "-V";
		char *v[] = { a0, a1, NULL }, *verbose[] = { a0, a2, NULL };

		CHECK(kd_parse_args(2, v, &p, err, sizeof(err)) == 0 && p.version && !p.help,
		      "--version: version %d", p.version);
		CHECK(kd_parse_args(2, verbose, &p, err, sizeof(err)) == 0 && !p.version && p.verbose,
		      "-V is verbose, not the version");
	}
}

/*
 * An option of a mode given with another, which would ignore it, is
 * refused, naming both; so is a second mode. Each with the mode that
 * takes it is no error.
 */
static void test_parse_mode_bound_options(void)
{
	static const struct parse_case cases[] = {
		{ { "kd", "-c", "--json", NULL }, 0, "--json: not with -c (one mode at a time)" },
		{ { "kd", "--folded", "--flamegraph", NULL }, 0,
		  "--flamegraph: not with --folded (one mode at a time)" },
		{ { "kd", "-P", "--per-process", "-c", NULL }, 0, "-c: not with -P (one mode at a time)" },
		{ { "kd", "-P", "--per-process", "-n", "2", NULL }, 1, "" },
		{ { "kd", "--json", "-d", "3", NULL }, 0, "-d: only with -c, not with --json" },
		{ { "kd", "-i", NULL }, 0, "-i: only with -c" },
		{ { "kd", "--svg", "--width", "3", NULL }, 0,
		  "-m N (--width N): only with -c, not with --svg" },
		{ { "kd", "-m", "30", NULL }, 0, "-m N (--width N): only with -c" },
		{ { "kd", "--folded", "-f", "Fc", NULL }, 0,
		  "-f: only with -c or the summary, not with --folded" },
		{ { "kd", "--json", "-l", NULL }, 0, "-l: only with -c or the summary, not with --json" },
		{ { "kd", "--flamegraph", "-n", "3", NULL }, 0,
		  "-n: only with the summary or -P, not with --flamegraph" },
		{ { "kd", "-c", "-s", "t", NULL }, 0, "-s: only with the summary, not with -c" },
		{ { "kd", "-c", "-t", "0", NULL }, 0, "-t: only with the summary, not with -c" },
		{ { "kd", "-P", "-t", "0", NULL }, 0, "-P: no -f, -l, -s or -t (its columns are fixed)" },
		{ { "kd", "-P", "-i", NULL }, 0, "-i: only with -c, not with -P" },
		{ { "kd", "-c", "--snapshots", NULL }, 0,
		  "--snapshots: only with --folded or --flamegraph, not with -c" },
		{ { "kd", "--folded", "--title", "T", NULL }, 0,
		  "--title: only with --flamegraph, not with --folded" },
		{ { "kd", "-c", "--weigh", "wall", NULL }, 0,
		  "--weigh: only with --folded or --flamegraph, not with -c" },
		{ { "kd", "--weigh", "oncpu", NULL }, 0, "--weigh: only with --folded or --flamegraph" },
		{ { "kd", "--types", NULL }, 0, "--types, --btf, --dwarf, --proto: only with -c" },
		{ { "kd", "--json", "--proto", "p", NULL }, 0,
		  "--types, --btf, --dwarf, --proto: only with -c, not with --json" },
		{ { "kd", "-t", "5", "-s", "c", "-n", NULL }, 0, "option -n needs an argument" },
		{ { "kd", "-t", "5", "-s", "c", "-l", NULL }, 1, "" },
		{ { "kd", "-c", "-i", "-d", "2", "-m", NULL }, 0, "option -m needs an argument" },
		{ { "kd", "-c", "-i", "-d", "2", "-l", NULL }, 1, "" },
	};

	check_parse_cases(cases, ARRAY_SIZE(cases));
}

UNIT_MAIN(test_malformed_lines_are_counted, test_summary, test_summary_long_sorted_by_name_top,
	  test_summary_fields_and_threshold, test_summary_many_children, test_calltree, test_calltree_depth_width_interlace,
	  test_two_pids_same_function, test_microsecond_ties_use_the_caller,
	  test_tail_call_keeps_time_nesting, test_huge_times_saturate, test_folded, test_raw_addresses_with_a_map,
	  test_long_names_with_a_map,
	  test_json_events, test_json_irq_tid_no_pid, test_svg_lanes_and_bars, test_parse_args,
	  test_parse_mode_bound_options)

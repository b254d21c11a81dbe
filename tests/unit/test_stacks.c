// SPDX-License-Identifier: GPL-2.0
/*
 * Logs in stacks and profile mode (Documentation/stacks.rst, "/proc/kft_data
 * in these modes"): the blocks as parsed, malformed lines, the row limit, and kd
 * --folded's lines (comm first, functions only, [user], sums, events left
 * out), with and without a map for raw addresses.
 */
#include <errno.h>
#include <stdlib.h>
#include "unit.h"
#include "kd.h"

#define HEADER "\nKernel Instrumentation Run ID 3\n\n" \
	"Logging started at 1234 usec by user action\nLogging not stopped\n\n" \
	"Filter Counters:\n\nTotal entries filtered = 0\n\n" \
	"Counted until 5678 usec\nNumber of stacks counted = 6\nNumber of events counted = 1215\n" \
	"Events not counted, table full = 0\nEvents not counted, busy = 0\n" \
	"Stacks truncated at 127 frames = 0\nIdle samples skipped = 10\n" \
	"Samples per second per CPU = 49\n\n"

/*
 * Two stacks of bash that differ only in an offset (they fold the same),
 * a comm with a blank, a user-space sample, one not keyed by process (its
 * address hidden), one without the field names, and a snoop event (with
 * args' registers).
 */
static const char log_stacks[] = HEADER
	"stack 1000 pid 345 comm bash\n"
	"  0xffffffffc01a0010 kft_test_leaf+0x0/0x10 [kft_test]\n"
	"  0xffffffffc01a0085 kft_test_middle+0x15/0x40 [kft_test]\n"
	"  0xffffffff812345ab vfs_write+0xcb/0x3c0\n"
	"\n"
	"stack 200 pid 345 comm bash\n"
	"  0xffffffffc01a0010 kft_test_leaf+0x0/0x10 [kft_test]\n"
	"  0xffffffffc01a0085 kft_test_middle+0x25/0x40 [kft_test]\n"
	"  0xffffffff812345ab vfs_write+0xcb/0x3c0\n"
	"\n"
	"stack 7 pid 346 comm tmux: server\n"
	"  0xffffffffc01a0010 kft_test_leaf+0x0/0x10 [kft_test]\n"
	"\n"
	"stack 5 pid 400 comm top\n"
	"\n"
	"stack 3 pid -1 comm -\n"
	"  0x0000000000000000 kft_test_leaf+0x0/0x10 [kft_test]\n"
	"\n"
	"stack 2 401 cc1 plus\n"
	"  0xffffffff81000100 0xffffffff81000100\n"
	"\n"
	"event 123456 1 345 bash args=0xb,-22,hidden\n"
	"  0xffffffffc01a0010 kft_test_leaf+0x0/0x10 [kft_test]\n"
	"\n";

static char *fold(const char *text, const char *map_text, FILE *warn)
{
	struct ksyms *ks = map_text ? ksyms__parse(map_text, strlen(map_text)) : NULL;
	struct kftlog *log = kftlog__parse(text, strlen(text), "test", warn);
	struct kd_params p = { .mode = KD_FOLDED };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (log && log->scan.stacks_mode)
		kd_stacks_output(f, log, ks, &p);
	fclose(f);
	kftlog__free(log);
	ksyms__free(ks);
	return out;
}

static void test_blocks_parsed(void)
{
	struct kftlog *log = kftlog__parse(log_stacks, strlen(log_stacks), "test", NULL);
	const struct kftstacks *st = &log->stacks;
	const struct kftstacks_block *b = st->blocks;

	CHECK(log->scan.stacks_mode && !log->scan.count_mode && !kftlog_scan_is_log(&log->scan),
	      "a stacks-mode log, not one of calls");
	CHECK(log->nr == 0 && log->scan.malformed == 0, "%zu rows, %zu malformed", log->nr,
	      log->scan.malformed);
	CHECK(st->nr == 7 && st->nr_frames == 10, "%zu blocks, %zu frames", st->nr, st->nr_frames);
	if (st->nr != 7)
		goto out;
	CHECK(b[0].count == 1000 && b[0].pid == 345 && !strcmp(b[0].comm, "bash") &&
	      b[0].first == 0 && b[0].nr == 3 && !b[0].event, "block 0");
	CHECK_STR(st->frames[1].sym, "kft_test_middle+0x15/0x40", "frame 1's symbol");
	CHECK_STR(st->frames[1].module, "kft_test", "frame 1's module");
	CHECK(st->frames[2].module == NULL, "vfs_write is the kernel's");
	CHECK_STR(b[2].comm, "tmux: server", "a comm with a blank");
	CHECK(b[3].nr == 0 && b[3].count == 5, "a user-space sample: no frames");
	CHECK(b[4].pid == -1 && !strcmp(b[4].comm, "-"), "not keyed by process");
	CHECK(b[5].pid == 401 && !strcmp(b[5].comm, "cc1 plus") && b[5].count == 2,
	      "no field names: pid %d comm '%s'", b[5].pid, b[5].comm);
	CHECK(b[6].event && b[6].time == 123456 && b[6].cpu == 1 && b[6].pid == 345 &&
	      b[6].count == 1 && b[6].nr == 1, "the event");
	CHECK_STR(b[6].comm, "bash", "the event's comm, before its args word");
out:
	kftlog__free(log);
}

static void test_folded(void)
{
	char *out = fold(log_stacks, NULL, NULL);

	CHECK_STR(out,
		"bash;vfs_write;kft_test_middle;kft_test_leaf 1200\n"
		"cc1 plus;0xffffffff81000100 2\n"
		"kft_test_leaf 3\n"
		"tmux: server;kft_test_leaf 7\n"
		"top;[user] 5\n",
		"folded: comm first, offsets and modules dropped, bash's two summed");
	free(out);
}

static void test_folded_with_a_map(void)
{
	static const char map[] = "ffffffff81000000 T do_thing\n";
	char *out = fold(log_stacks, map, NULL);

	CHECK(out && strstr(out, "cc1 plus;do_thing 2\n"), "a raw address symbolized:\n%s", out);
	free(out);
}

static void test_malformed_lines(void)
{
	static const char text[] = HEADER
		"stack 5 pid 1 comm a\n"
		"  0x1 f+0x0/0x4\n"
		"garbage here\n"			/* no block, no frame */
		"stack x pid 1 comm b\n"		/* count not a number */
		"  0x2 g+0x0/0x4\n"			/* frame of nothing */
		"stack 5 pid 1\n"			/* no comm */
		"stack 5 pid 99999999999 comm c\n"	/* pid out of range */
		"event 1 cpu -3 pid 2 comm d\n"		/* cpu out of range */
		"\n"
		"  0x3 h+0x0/0x4\n"			/* after a blank line */
		"stack 6 pid 2 comm e\n"
		"  0x4 k+0x0/0x4\n";
	char *warnings = NULL, *out;
	size_t len = 0;
	FILE *warn = open_memstream(&warnings, &len);

	out = fold(text, NULL, warn);
	fclose(warn);
	CHECK_STR(out, "a;f 5\ne;k 6\n", "the good blocks");
	CHECK(warnings && strstr(warnings, "test:22: warning: malformed line skipped\n") &&
	      strstr(warnings, "test:29: warning: malformed line skipped\n") &&
	      !strstr(warnings, "test:21:") && !strstr(warnings, "test:30:"),
	      "warnings name the lines:\n%s", warnings);
	free(out);
	free(warnings);
}

/* Blocks and frames count against the row limit (--max-rows). */
static void test_row_limit(void)
{
	FILE *in = fmemopen((void *)log_stacks, sizeof(log_stacks) - 1, "r");
	struct kftlog *log = kftlog__read(in, "test", NULL, 16);

	CHECK(!log && errno == EFBIG, "17 blocks and frames over a limit of 16: %p", (void *)log);
	kftlog__free(log);
	rewind(in);
	log = kftlog__read(in, "test", NULL, 17);
	CHECK(log && log->stacks.nr == 7, "17 fit");
	kftlog__free(log);
	fclose(in);
}

/* The header line decides; a count-mode log stays one. */
static void test_modes_told_apart(void)
{
	static const char count[] = "\nNumber of calls counted = 7\nNumber of stacks counted = 1\n"
		"------------ ------\n           7 0xffffffff81000100 outer\n";
	struct kftlog *log = kftlog__parse(count, sizeof(count) - 1, "test", NULL);

	CHECK(log && log->scan.count_mode && !log->scan.stacks_mode, "count mode first");
	kftlog__free(log);
	log = kftlog__parse(HEADER, sizeof(HEADER) - 1, "test", NULL);
	CHECK(log && log->scan.stacks_mode && log->stacks.nr == 0, "a stacks log without stacks");
	kftlog__free(log);
}

UNIT_MAIN(test_blocks_parsed, test_folded, test_folded_with_a_map, test_malformed_lines,
	  test_row_limit, test_modes_told_apart)

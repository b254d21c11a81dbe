// SPDX-License-Identifier: GPL-2.0
/*
 * The kft command's stacks without the module: stacks- and profile-mode
 * logs (Documentation/stacks.rst, "/proc/kft_data in these modes") read from text, two
 * snapshots subtracted, and the stacks printed as bcc's stackcount,
 * profile and stacksnoop print them.
 */
#include <errno.h>
#include <stdlib.h>
#include "unit.h"
#include "kft.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define HEADER	"\nKernel Instrumentation Run ID 3\n\nLogging started at 1000000 usec by user " \
		"action\nLogging not stopped\n\nFilter Counters:\n\nTotal entries filtered = 0\n" \
		"\nCounted until 5678000 usec\nNumber of stacks counted = 3\n" \
		"Number of events counted = 1200\nEvents not counted, table full = 4\n" \
		"Events not counted, busy = 5\nStacks truncated at 127 frames = 6\n"

#define LEAF	"  0xffffffffc01a0010 kft_test_leaf+0x0/0x10 [kft_test]\n"
#define MID1	"  0xffffffffc01a0085 kft_test_middle+0x15/0x40 [kft_test]\n"
#define MID2	"  0xffffffffc01a0095 kft_test_middle+0x25/0x40 [kft_test]\n"
#define WRITE	"  0xffffffff812345ab vfs_write+0xcb/0x3c0\n"

static int stacks_of(const char *text, struct kft_stacks *s, int flags)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int ret = kft_stacks_read(s, in, flags);

	fclose(in);
	return ret;
}

/* A frame as "addr name+off", for messages and comparisons. */
static const char *frame_str(const struct kft_stacks *s, size_t i)
{
	static char buf[256];
	const struct kft_frame *f = &s->frames[i];

	snprintf(buf, sizeof(buf), "%llx %s+%llx", (unsigned long long)f->addr,
		 f->name ? f->name : "(none)", (unsigned long long)f->off);
	return buf;
}

static void test_stacks_read(void)
{
	static const char text[] = HEADER
		"\nstack 1000 345 bash\n" LEAF MID1 WRITE
		"\nstack 200 -1 -\n" LEAF "  0xffffffff81000000 0xffffffff81000000\n"
		"\nstack 7 77 my prog\n";
	struct kft_stacks s;
	const struct kft_stack *b;

	CHECK(stacks_of(text, &s, 0) == 0, "read: %s", strerror(errno));
	CHECK(s.head.registered == 1 && s.head.mode == KFT_DATA_STACKS && s.head.run_id == 3 &&
	      s.head.started && s.head.start_us == 1000000 && !s.head.stopped,
	      "head: registered %d mode %d id %u start %llu", s.head.registered, s.head.mode,
	      s.head.run_id, (unsigned long long)s.head.start_us);
	CHECK(s.table_full == 4 && s.busy == 5 && s.truncated == 6 && s.truncated_at == 127 &&
	      !s.events_lost && !s.malformed, "counters: full %llu busy %llu truncated %llu at %u "
	      "malformed %zu", (unsigned long long)s.table_full, (unsigned long long)s.busy,
	      (unsigned long long)s.truncated, s.truncated_at, s.malformed);
	CHECK(s.nr_stacks == 3 && s.nr_frames == 5 && !s.nr_events, "stacks %zu frames %zu",
	      s.nr_stacks, s.nr_frames);
	if (s.nr_stacks != 3 || s.nr_frames != 5)
		goto out;
	b = &s.stacks[0];
	CHECK(b->count == 1000 && b->pid == 345 && !strcmp(b->comm, "bash") && b->first == 0 &&
	      b->nr == 3, "stack 0: %llu %ld '%s' %zu+%zu", (unsigned long long)b->count, b->pid,
	      b->comm, b->first, b->nr);
	CHECK_STR(frame_str(&s, 0), "ffffffffc01a0010 kft_test:kft_test_leaf+0", "frame 0");
	CHECK_STR(frame_str(&s, 1), "ffffffffc01a0085 kft_test:kft_test_middle+15", "frame 1");
	CHECK_STR(frame_str(&s, 2), "ffffffff812345ab vfs_write+cb", "frame 2");
	b = &s.stacks[1];
	CHECK(b->count == 200 && b->pid == -1 && !strcmp(b->comm, "") && b->first == 3 &&
	      b->nr == 2, "stack 1 (not keyed): %ld '%s'", b->pid, b->comm);
	CHECK_STR(frame_str(&s, 4), "ffffffff81000000 (none)+0", "a frame without a symbol");
	/* The names are interned: one copy of kft_test:kft_test_leaf. */
	CHECK(s.frames[0].name == s.frames[3].name, "names not interned");
	b = &s.stacks[2];
	CHECK(b->count == 7 && b->pid == 77 && !strcmp(b->comm, "my prog") && !b->nr,
	      "a comm with a space, no frames: '%s' %zu", b->comm, b->nr);
out:
	kft_stacks_free(&s);
}

/* snoop: the events after the stacks; EVENTS_ONLY keeps no stack and none of their frames. */
static void test_stacks_read_events(void)
{
	static const char text[] = HEADER "Events in this read = 2\nEvents lost, ring full = 9\n"
		"\nstack 2 -1 -\n" LEAF MID1
		"\nevent 2500000 1 345 bash\n" LEAF MID1
		"\nevent 2500123 0 346 a b args=0xb,-22,hidden\n";
	struct kft_stacks s;
	const struct kft_stack *e;
	int flags;

	for (flags = 0; flags <= KFT_STACKS_EVENTS_ONLY; flags += KFT_STACKS_EVENTS_ONLY) {
		stacks_of(text, &s, flags);
		CHECK(s.nr_events == 2 && s.events_lost == 9 &&
		      s.nr_stacks == (flags ? 0u : 1u) && s.nr_frames == (flags ? 2u : 4u) &&
		      !s.malformed, "flags %d: events %zu lost %llu stacks %zu frames %zu "
		      "malformed %zu", flags, s.nr_events, (unsigned long long)s.events_lost,
		      s.nr_stacks, s.nr_frames, s.malformed);
		if (s.nr_events == 2) {
			e = &s.events[0];
			CHECK(e->time_us == 2500000 && e->cpu == 1 && e->pid == 345 &&
			      !strcmp(e->comm, "bash") && e->nr == 2 &&
			      !strcmp(s.frames[e->first].name, "kft_test:kft_test_leaf"),
			      "event 0: %llu %d %ld '%s' %zu", (unsigned long long)e->time_us,
			      e->cpu, e->pid, e->comm, e->nr);
			CHECK(!e->args, "event 0: no args word, args '%s'", e->args);
			e = &s.events[1];
			CHECK(e->cpu == 0 && e->pid == 346 && !strcmp(e->comm, "a b") && !e->nr,
			      "event 1: '%s' %zu", e->comm, e->nr);
			CHECK(e->args && !strcmp(e->args, "0xb,-22,hidden"),
			      "event 1: args '%s'", e->args ? e->args : "(none)");
		}
		kft_stacks_free(&s);
	}
}

/* A literal and its length: the text may hold a NUL byte. */
#define TEXT(s)	s, sizeof(s) - 1

/* What is not a stacks log says so, and lines out of place are counted, not taken. */
static void test_stacks_not_stacks_logs(void)
{
	static const struct {
		const char *text;
		size_t len;
		int registered;
		enum kft_data_mode mode;
		size_t nr_stacks, nr_frames, malformed;
	} cases[] = {
		{ TEXT("No logging run registered\n"), 0, KFT_DATA_TRACE, 0, 0, 0 },
		{ TEXT("\177ELF\n\n"), -1, KFT_DATA_TRACE, 0, 0, 0 },
		{ TEXT("\nKernel Instrumentation Run ID 4\n\n Entry    Delta\n--------\n"
		       "       0      120      33.1  0xffffffff810a2b40  0xffffffff81001234\n"),
		  1, KFT_DATA_TRACE, 0, 0, 0 },
		{ TEXT("\nKernel Instrumentation Run ID 4\nNumber of calls counted = 7\n"), 1,
		  KFT_DATA_COUNT, 0, 0, 0 },
		/* Before the first block, lines kft does not know are the header's. */
		{ TEXT(HEADER LEAF "Something new = 5\n"), 1, KFT_DATA_STACKS, 0, 0, 0 },
		/* After it: a frame after a blank line; a stack line with no count. */
		{ TEXT(HEADER "\nstack 1 -1 -\n" LEAF "\n" LEAF "\nstack x 1 a\n"), 1,
		  KFT_DATA_STACKS, 1, 1, 2 },
		/* A symbol that is no %pS: the block ends, the rest is out of place. */
		{ TEXT(HEADER "\nstack 1 -1 -\n" LEAF "  0xffffffff81000000 a b+0x1/0x2\n" WRITE),
		  1, KFT_DATA_STACKS, 1, 1, 2 },
		{ TEXT(HEADER "\nstack 1 -1 -\n" LEAF "  0xffffffff81000000 f+0xzz/0x2\n"),
		  1, KFT_DATA_STACKS, 1, 1, 1 },
		{ TEXT(HEADER "\nstack 1 -1 -\n" LEAF "  0xffffffff81000000 f+0x1/0x2 [m\n"),
		  1, KFT_DATA_STACKS, 1, 1, 1 },
		{ TEXT(HEADER "\nstack 1 -1 -\n" LEAF "  0xffffffff81000000 f+0x1/0x2 []\n"),
		  1, KFT_DATA_STACKS, 1, 1, 1 },
		{ TEXT(HEADER "\nstack 1 -1 -\n" LEAF "  0xffffffff81000000 +0x1/0x2\n"),
		  1, KFT_DATA_STACKS, 1, 1, 1 },
		{ TEXT(HEADER "\nstack 1 -1 -\n" LEAF "  0xzz f\n"), 1, KFT_DATA_STACKS, 1, 1, 1 },
		{ TEXT(HEADER "\nstack 1 -1 -\n" LEAF "  0xffffffff81000000 f+0x1/0x2 [m] x\n"),
		  1, KFT_DATA_STACKS, 1, 1, 1 },
		/* The module's name and offset forms that are frames. */
		{ TEXT(HEADER "\nstack 1 -1 -\n  0xffffffff81000000 f+0x1/0x2 [m]\n"
		       "  0xffffffff81000000 f.isra.0+0x1/0x2\n  0xffffffff81000000 f\n"
		       "  0x0000000000000000 0xffffffff81000000\n"), 1, KFT_DATA_STACKS, 1, 4, 0 },
		/* A NUL byte in a line. */
		{ TEXT(HEADER "\nstack 1 -1 -\n  0xffffffff81000000 f\0+0x1\n"), 1,
		  KFT_DATA_STACKS, 1, 0, 1 },
	};
	struct kft_stacks s;
	size_t i;
	FILE *in;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		in = fmemopen((void *)cases[i].text, cases[i].len, "r");
		CHECK(kft_stacks_read(&s, in, 0) == 0, "case %zu: %s", i, strerror(errno));
		fclose(in);
		CHECK(s.head.registered == cases[i].registered && s.head.mode == cases[i].mode &&
		      s.nr_stacks == cases[i].nr_stacks && s.nr_frames == cases[i].nr_frames &&
		      s.malformed == cases[i].malformed,
		      "case %zu: registered %d mode %d stacks %zu frames %zu malformed %zu", i,
		      s.head.registered, s.head.mode, s.nr_stacks, s.nr_frames, s.malformed);
		kft_stacks_free(&s);
	}
}

/* "Logging stopped": the run ended (by someone else, for a summary). */
static void test_stacks_stopped(void)
{
	struct kft_stacks s;

	stacks_of("\nKernel Instrumentation Run ID 3\nLogging stopped at 2000 usec by user "
		  "action\nNumber of stacks counted = 0\n", &s, 0);
	CHECK(s.head.stopped && s.head.mode == KFT_DATA_STACKS && !s.nr_stacks,
	      "stopped %d", s.head.stopped);
	kft_stacks_free(&s);
}

static char *rows_str(const struct kft_stack_row *r, size_t n)
{
	static char buf[1024];
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < n && o < sizeof(buf) - 64; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%llu:%s:%zu", i ? " " : "",
				      (unsigned long long)r[i].count, r[i].stack->comm,
				      r[i].stack->nr);
	return buf;
}

static void test_stacks_delta(void)
{
	static const char t1[] = HEADER
		"\nstack 20 345 bash\n" LEAF MID1 WRITE
		"\nstack 10 345 bash\n" LEAF MID2 WRITE
		"\nstack 5 346 sh\n" LEAF MID2 WRITE
		"\nstack 50 346 sh\n" LEAF MID2;
	static const char t2[] = HEADER
		"\nstack 35 345 bash\n" LEAF MID1 WRITE
		"\nstack 10 345 bash\n" LEAF MID2 WRITE
		"\nstack 8 345 sh\n" LEAF MID2 WRITE
		"\nstack 4 346 sh\n" LEAF MID2 WRITE
		"\nstack 51 346 sh\n" LEAF MID2;
	struct kft_stacks s1, s2;
	struct kft_stack_row *r;
	size_t n;

	stacks_of(t1, &s1, 0);
	stacks_of(t2, &s2, 0);
	/* Alone: every stack, ascending. */
	r = kft_stacks_delta(&s1, NULL, &n);
	CHECK_STR(rows_str(r, n), "5:sh:3 10:bash:3 20:bash:3 50:sh:2", "t1 alone");
	free(r);
	/*
	 * bash MID1 15 more; bash MID2 unchanged: left out; sh (pid 345) new: 8;
	 * sh (346) fewer than before: counting began again, 4; sh MID2 short: 1.
	 */
	r = kft_stacks_delta(&s2, &s1, &n);
	CHECK_STR(rows_str(r, n), "1:sh:2 4:sh:3 8:sh:3 15:bash:3", "t2 - t1");
	free(r);
	/* Nothing counted in between: no rows, and no error. */
	r = kft_stacks_delta(&s1, &s1, &n);
	CHECK(r && n == 0, "t1 - t1: %zu rows", n);
	free(r);
	kft_stacks_free(&s1);
	kft_stacks_free(&s2);
	stacks_of(HEADER, &s1, 0);
	r = kft_stacks_delta(&s1, NULL, &n);
	CHECK(!r && n == 0, "no stacks: %zu rows", n);
	kft_stacks_free(&s1);
}

/* Addresses hidden (zeros): stacks told apart by their names and offsets. */
static void test_stacks_delta_hidden(void)
{
	static const char t1[] = HEADER
		"\nstack 3 -1 -\n  0x0000000000000000 f+0x0/0x10\n  0x0000000000000000 g+0x5/0x10\n"
		"\nstack 3 -1 -\n  0x0000000000000000 f+0x0/0x10\n  0x0000000000000000 g+0x9/0x10\n";
	static const char t2[] = HEADER
		"\nstack 4 -1 -\n  0x0000000000000000 f+0x0/0x10\n  0x0000000000000000 g+0x5/0x10\n"
		"\nstack 9 -1 -\n  0x0000000000000000 f+0x0/0x10\n  0x0000000000000000 g+0x9/0x10\n";
	struct kft_stacks s1, s2;
	struct kft_stack_row *r;
	size_t n;

	stacks_of(t1, &s1, 0);
	stacks_of(t2, &s2, 0);
	r = kft_stacks_delta(&s2, &s1, &n);
	CHECK(n == 2 && r[0].count == 1 && r[1].count == 6 &&
	      s2.frames[r[1].stack->first + 1].off == 9, "hidden: %s", rows_str(r, n));
	free(r);
	kft_stacks_free(&s1);
	kft_stacks_free(&s2);
}

/* Many stacks: each finds its earlier count. */
static void test_stacks_many(void)
{
	size_t nr = 5000, i, o, n, bad = 0;
	char *t1 = malloc(sizeof(HEADER) + nr * 128), *t2 = malloc(sizeof(HEADER) + nr * 128);
	struct kft_stacks s1, s2;
	struct kft_stack_row *r;

	o = (size_t)sprintf(t1, "%s", HEADER);
	for (i = 0; i < nr; i++)
		o += (size_t)sprintf(t1 + o, "\nstack %zu %zu c%zu\n  0x%016llx f%zu+0x1/0x10\n",
				     i + 1, i % 7, i % 7, 0xffffffff81000000ULL + i * 16, i);
	o = (size_t)sprintf(t2, "%s", HEADER);
	for (i = nr; i-- > 0;)
		o += (size_t)sprintf(t2 + o, "\nstack %zu %zu c%zu\n  0x%016llx f%zu+0x1/0x10\n",
				     2 * (i + 1), i % 7, i % 7, 0xffffffff81000000ULL + i * 16, i);
	stacks_of(t1, &s1, 0);
	stacks_of(t2, &s2, 0);
	r = kft_stacks_delta(&s2, &s1, &n);
	for (i = 0; i < n; i++)
		bad += r[i].count != i + 1;
	CHECK(n == nr && !bad, "n %zu, %zu wrong", n, bad);
	free(r);
	kft_stacks_free(&s1);
	kft_stacks_free(&s2);
	free(t1);
	free(t2);
}

/* A style, and what the stacks of a text print with it. */
struct style_case {
	struct kft_stack_style style;
	const char *out;
};

/* The stacks of text, printed in each case's style. */
static void check_styles(const char *text, const struct style_case *cases, size_t n)
{
	struct kft_stack_row *r;
	struct kft_stacks s;
	char out[2048];
	size_t i, nr;
	FILE *f;

	stacks_of(text, &s, 0);
	r = kft_stacks_delta(&s, NULL, &nr);
	for (i = 0; i < n; i++) {
		f = fmemopen(out, sizeof(out), "w");
		kft_stacks_print(f, r, nr, &cases[i].style);
		fclose(f);
		CHECK(!strcmp(out, cases[i].out), "style %zu:\n%s\nexpected:\n%s", i, out,
		      cases[i].out);
	}
	free(r);
	kft_stacks_free(&s);
}

static void test_print_stackcount(void)
{
	static const char text[] = HEADER
		"\nstack 20 345 bash\n" LEAF MID1 WRITE
		"\nstack 10 345 bash\n" LEAF "  0xffffffff81000000 0xffffffff81000000\n";
	static const struct style_case cases[] = {
		{ { .comm = 0, .module = 1 },
		  "  kft_test:kft_test_leaf\n  [unknown]\n    10\n\n"
		  "  kft_test:kft_test_leaf\n  kft_test:kft_test_middle\n  vfs_write\n    20\n\n" },
		{ { .comm = 1, .module = 1 },
		  "  kft_test:kft_test_leaf\n  [unknown]\n    bash [345]\n    10\n\n"
		  "  kft_test:kft_test_leaf\n  kft_test:kft_test_middle\n  vfs_write\n"
		  "    bash [345]\n    20\n\n" },
		{ { .offsets = 1, .addresses = 1, .module = 1 },
		  "  ffffffffc01a0010 kft_test:kft_test_leaf+0x0\n  ffffffff81000000 [unknown]\n"
		  "    10\n\n"
		  "  ffffffffc01a0010 kft_test:kft_test_leaf+0x0\n"
		  "  ffffffffc01a0085 kft_test:kft_test_middle+0x15\n"
		  "  ffffffff812345ab vfs_write+0xcb\n    20\n\n" },
		{ { .folded = 1, .module = 1 },
		  "[unknown];kft_test:kft_test_leaf 10\n"
		  "vfs_write;kft_test:kft_test_middle;kft_test:kft_test_leaf 20\n" },
		/* bcc's names: a module's function bare, unless -M. */
		{ { .comm = 0 },
		  "  kft_test_leaf\n  [unknown]\n    10\n\n"
		  "  kft_test_leaf\n  kft_test_middle\n  vfs_write\n    20\n\n" },
		{ { .folded = 1 },
		  "[unknown];kft_test_leaf 10\nvfs_write;kft_test_middle;kft_test_leaf 20\n" },
		/* Folded ignores -s and -v, as bcc's. */
		{ { .folded = 1, .comm = 1, .offsets = 1, .addresses = 1, .module = 1 },
		  "bash;[unknown];kft_test:kft_test_leaf 10\n"
		  "bash;vfs_write;kft_test:kft_test_middle;kft_test:kft_test_leaf 20\n" },
	};

	check_styles(text, cases, ARRAY_SIZE(cases));
}

static void test_print_profile(void)
{
	static const char text[] = HEADER "Idle samples skipped = 10\n"
		"Samples per second per CPU = 49\n"
		"\nstack 40 345 bash\n  0xffffffffc01a0030 kft_test_hot_loop+0x20/0x60 [kft_test]\n"
		WRITE "\nstack 7 345 bash\n\nstack 3 0 swapper/1\n"
		"  0xffffffff81000000 default_idle+0x5/0x10\n";
	static const struct style_case cases[] = {
		{ { .profile = 1, .comm = 1, .module = 1 },
		  "    default_idle\n    -                swapper/1 (0)\n        3\n\n"
		  "    -                bash (345)\n        7\n\n"
		  "    kft_test:kft_test_hot_loop\n    vfs_write\n    -                bash (345)\n"
		  "        40\n\n" },
		{ { .profile = 1, .comm = 1, .folded = 1, .module = 1 },
		  "swapper/1;default_idle 3\nbash 7\nbash;vfs_write;kft_test:kft_test_hot_loop 40\n" },
		{ { .profile = 1, .comm = 1, .folded = 1, .annotate = 1, .module = 1 },
		  "swapper/1;default_idle_[k] 3\nbash 7\n"
		  "bash;vfs_write_[k];kft_test:kft_test_hot_loop_[k] 40\n" },
		{ { .profile = 1, .comm = 1, .folded = 1, .annotate = 1 },
		  "swapper/1;default_idle_[k] 3\nbash 7\n"
		  "bash;vfs_write_[k];kft_test_hot_loop_[k] 40\n" },
	};

	check_styles(text, cases, ARRAY_SIZE(cases));
}

static void test_print_snoop(void)
{
	static const char text[] = HEADER "Events in this read = 2\nEvents lost, ring full = 0\n"
		"\nevent 2500000 1 345 bash\n" LEAF MID1
		"\nevent 1000123 12 346 a_very_long_comm\n";
	static const struct kft_stack_style bare = { 0 };
	static const struct kft_stack_style verbose = { .comm = 1, .offsets = 1, .module = 1 };
	struct kft_stacks s;
	char out[1024];
	FILE *f;

	stacks_of(text, &s, KFT_STACKS_EVENTS_ONLY);
	f = fmemopen(out, sizeof(out), "w");
	kft_snoop_header(f, 0);
	kft_snoop_print(f, &s, &s.events[0], s.head.start_us, "leaf*", &bare);
	kft_snoop_print(f, &s, &s.events[1], s.head.start_us, "leaf*", &bare);
	fclose(f);
	CHECK_STR(out, "TIME(s)            FUNCTION\n"
		  "1.500000           kft_test_leaf\n"
		  "\tkft_test_leaf\n\tkft_test_middle\n\n"
		  "0.000123           leaf*\n\n", "stacksnoop");
	f = fmemopen(out, sizeof(out), "w");
	kft_snoop_header(f, 1);
	kft_snoop_print(f, &s, &s.events[0], 0, "leaf*", &verbose);
	kft_snoop_print(f, &s, &s.events[1], 2000000, "leaf*", &verbose);
	fclose(f);
	CHECK_STR(out, "TIME(s)            COMM         PID    CPU FUNCTION\n"
		  "2.500000           bash         345    1   kft_test:kft_test_leaf\n"
		  "\tkft_test:kft_test_leaf+0x0\n\tkft_test:kft_test_middle+0x15\n\n"
		  "0.000000           a_very_long_ 346    12  leaf*\n\n", "stacksnoop -v -s");
	kft_stacks_free(&s);
}

/* stacksnoop -a: the function as its call with the event's registers, untyped without -T. */
static void test_print_snoop_args(void)
{
	static const char text[] = HEADER "Events in this read = 2\nEvents lost, ring full = 0\n"
		"\nevent 2500000 1 345 bash args=0xb,-22,hidden,0x0\n" LEAF MID1
		"\nevent 2500001 1 345 bash\n" LEAF;
	static const struct kft_stack_style args = { .args = 1 };
	static const struct kft_stack_style no_args = { 0 };
	struct kft_stacks s;
	char out[1024];
	FILE *f;

	stacks_of(text, &s, KFT_STACKS_EVENTS_ONLY);
	f = fmemopen(out, sizeof(out), "w");
	kft_snoop_print(f, &s, &s.events[0], 0, "leaf*", &args);
	kft_snoop_print(f, &s, &s.events[1], 0, "leaf*", &args);
	kft_snoop_print(f, &s, &s.events[0], 0, "leaf*", &no_args);
	fclose(f);
	CHECK_STR(out, "2.500000           kft_test_leaf(0xb, -22, hidden, 0x0)\n"
		  "\tkft_test_leaf\n\tkft_test_middle\n\n"
		  "2.500001           kft_test_leaf\n\tkft_test_leaf\n\n"
		  "2.500000           kft_test_leaf\n\tkft_test_leaf\n\tkft_test_middle\n\n",
		  "stacksnoop -a");
	kft_stacks_free(&s);
}

UNIT_MAIN(test_stacks_read, test_stacks_read_events, test_stacks_not_stacks_logs,
	  test_stacks_stopped, test_stacks_delta, test_stacks_delta_hidden, test_stacks_many,
	  test_print_stackcount, test_print_profile, test_print_snoop, test_print_snoop_args)

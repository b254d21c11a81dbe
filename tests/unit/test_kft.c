// SPDX-License-Identifier: GPL-2.0
/*
 * The kft command without the module: its options, the funccount
 * configuration, /proc/kft's status, count-mode logs, their differences
 * and funccount's table.
 */
#include <errno.h>
#include <stdlib.h>
#include "unit.h"
#include "kft.h"
#include "kftargs.h"
#include "ksyms.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A command line, what kft_parse_args() returns and the start of its message. */
struct parse_case {
	const char *line;
	int ret;
	enum kft_subcmd sub;
	const char *err;
};

static void check_parse(const struct parse_case *cases, size_t n)
{
	struct kft_params p;
	char err[256];
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		err[0] = '\0';
		ret = kft_parse_line(cases[i].line, &p, err, sizeof(err));
		CHECK(ret == cases[i].ret && p.sub == cases[i].sub &&
		      !strncmp(err, cases[i].err, strlen(cases[i].err)) && (ret || !err[0]),
		      "'%s': ret %d sub %d err '%s', expected %d %d '%s'", cases[i].line, ret,
		      p.sub, err, cases[i].ret, cases[i].sub, cases[i].err);
	}
}

static void test_parse_args(void)
{
	static const struct parse_case cases[] = {
		{ "kft", -1, KFT_SUB_NONE, "no command" },
		{ "kft -h", 0, KFT_SUB_NONE, "" },
		{ "kft help", 0, KFT_SUB_NONE, "" },
		{ "kft nosuch", -1, KFT_SUB_NONE, "unknown command 'nosuch'" },
		{ "kft status", 0, KFT_SUB_STATUS, "" },
		{ "kft stop x", -1, KFT_SUB_STOP, "stop: unexpected 'x'" },
		{ "kft clear --help", 0, KFT_SUB_CLEAR, "" },
		{ "kft trace", -1, KFT_SUB_TRACE, "trace: no CONFIG" },
		{ "kft trace a b", -1, KFT_SUB_TRACE, "trace: more than one CONFIG" },
		{ "kft trace -o out -", 0, KFT_SUB_TRACE, "" },
		{ "kft trace -x cfg", -1, KFT_SUB_TRACE, "trace: unknown option '-x'" },
		{ "kft trace -a -T --btf v --dwarf d --proto p -", 0, KFT_SUB_TRACE, "" },
		{ "kft funccount", -1, KFT_SUB_FUNCCOUNT, "funccount: no PATTERN" },
		{ "kft funccount -i 0 x", -1, KFT_SUB_FUNCCOUNT, "-i: not a number" },
		{ "kft funccount -d 1s x", -1, KFT_SUB_FUNCCOUNT, "-d: not a number" },
		{ "kft funccount -d nan x", -1, KFT_SUB_FUNCCOUNT, "-d: not a number" },
		{ "kft funccount -t 0 x", -1, KFT_SUB_FUNCCOUNT, "-t: not a positive" },
		{ "kft funccount -t 99999999999999999999 x", -1, KFT_SUB_FUNCCOUNT, "-t: not" },
		{ "kft funccount -T -i 0.5 -d 5 -t 3 vfs_* tcp_*", 0, KFT_SUB_FUNCCOUNT, "" },
		{ "kft funccount -A 0 x", -1, KFT_SUB_FUNCCOUNT, "-A: not an argument (1..8) '0'" },
		{ "kft funccount -A 9 x", -1, KFT_SUB_FUNCCOUNT, "-A: not an argument (1..8) '9'" },
		{ "kft funccount --per-arg one x", -1, KFT_SUB_FUNCCOUNT, "-A: not an argument" },
		{ "kft funccount x -A", -1, KFT_SUB_FUNCCOUNT,
		  "funccount: -A: options go before PATTERN" },
		{ "kft funccount -A", -1, KFT_SUB_FUNCCOUNT, "funccount: option -A needs an argument" },
		{ "kft funccount --per-arg 2 -i 1 x", 0, KFT_SUB_FUNCCOUNT, "" },
		{ "kft last-boot", 0, KFT_SUB_LAST_BOOT, "" },
		{ "kft last-boot --forget", 0, KFT_SUB_LAST_BOOT, "" },
		{ "kft last-boot -h", 0, KFT_SUB_LAST_BOOT, "" },
		{ "kft last-boot now", -1, KFT_SUB_LAST_BOOT, "last-boot: unexpected 'now'" },
		{ "kft last-boot -o f", -1, KFT_SUB_LAST_BOOT, "last-boot: unknown option '-o'" },
		/* A kft without libdw (the unit tests') refuses --srcline in each command. */
		{ "kft slowtrace -e --srcline vmlinux f", -1, KFT_SUB_SLOWTRACE,
		  "--srcline: this kft was built without libdw" },
		{ "kft trace -T --srcline vmlinux -", -1, KFT_SUB_TRACE,
		  "--srcline: this kft was built without libdw" },
	};
	struct kft_params p;
	char err[256];

	check_parse(cases, ARRAY_SIZE(cases));
	kft_parse_line("kft funccount -T -i 0.5 -d 5 -t 3 vfs_* tcp_*", &p, err, sizeof(err));
	CHECK(p.timestamps && p.interval == 0.5 && p.duration == 5 && p.top == 3 &&
	      p.nr_patterns == 2 && !strcmp(p.patterns[1], "tcp_*") &&
	      !strcmp(p.duration_arg, "5"), "funccount options: T %d i %g d %g t %ld n %d",
	      p.timestamps, p.interval, p.duration, p.top, p.nr_patterns);
	CHECK(!p.per_arg, "funccount without -A: per_arg %ld", p.per_arg);
	kft_parse_line("kft funccount -A 3 f", &p, err, sizeof(err));
	CHECK(p.per_arg == 3 && p.nr_patterns == 1, "funccount -A 3: per_arg %ld", p.per_arg);
	kft_parse_line("kft trace -o out -", &p, err, sizeof(err));
	CHECK(!strcmp(p.output, "out") && !strcmp(p.config, "-"), "trace -o out -");
	kft_parse_line("kft trace -a --proto p cfg", &p, err, sizeof(err));
	CHECK(p.args && p.types.wanted && p.types.nr[TYPEDLOG_PROTO] == 1 &&
	      !strcmp(p.config, "cfg"), "trace -a --proto p cfg");
	CHECK(!kft_parse_line("kft --version", &p, err, sizeof(err)) && p.version && !p.help,
	      "kft --version: version %d help %d", p.version, p.help);
	CHECK(!kft_parse_line("kft status", &p, err, sizeof(err)) && !p.version, "kft status: no version");
	CHECK(!kft_parse_line("kft last-boot --forget", &p, err, sizeof(err)) && p.forget,
	      "last-boot --forget: forget %d", p.forget);
	CHECK(!kft_parse_line("kft last-boot", &p, err, sizeof(err)) && !p.forget,
	      "last-boot: forget %d", p.forget);
}

static void test_funccount_config(void)
{
	static const struct { const char *line, *config; } cases[] = {
		{ "kft funccount vfs_*", "new begin mode count filter funclist vfs_* fend end\n" },
		{ "kft funccount a ext4:b 0xffffffff81000000",
		  "new begin mode count filter funclist a ext4:b 0xffffffff81000000 fend end\n" },
		{ "kft funccount a#b", NULL },
		{ "kft funccount -A 1 __kmalloc",
		  "new begin mode count per-arg 1 filter funclist __kmalloc fend end\n" },
	};
	struct kft_params p;
	char err[256], *text;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		kft_parse_line(cases[i].line, &p, err, sizeof(err));
		text = kft_funccount_config(&p, err, sizeof(err));
		if (cases[i].config)
			CHECK_STR(text, cases[i].config, cases[i].line);
		else
			CHECK(!text && strstr(err, "not a function pattern"), "'%s' accepted",
			      cases[i].line);
		free(text);
	}
	/* White space in a pattern (one argv word) would end it. */
	{
		char *argv[] = { "kft", "funccount", "a fend end prime", NULL };

		kft_parse_args(3, argv, &p, err, sizeof(err));
		text = kft_funccount_config(&p, err, sizeof(err));
		CHECK(!text, "a pattern with spaces accepted: %s", text);
		free(text);
	}
}

/*
 * Every number of seconds is at least a millisecond: an interval of
 * 1e-300 added nothing to the clock, and funccount -i looped for ever.
 * The message names the option (or profile, for its operand).
 */
static void test_seconds_least(void)
{
	static const struct parse_case cases[] = {
		{ "kft funccount -i 1e-300 -d 0.05 vfs_read", -1, KFT_SUB_FUNCCOUNT,
		  "-i: less than 0.001 seconds, the least kft takes: '1e-300'" },
		{ "kft funccount -d 0.0009 x", -1, KFT_SUB_FUNCCOUNT,
		  "-d: less than 0.001 seconds" },
		{ "kft funccount -i 1e-400 x", -1, KFT_SUB_FUNCCOUNT,
		  "-i: less than 0.001 seconds" },
		{ "kft funccount -i 0.001 -d 0.05 x", 0, KFT_SUB_FUNCCOUNT, "" },
		{ "kft funclatency -i 1e-9 f", -1, KFT_SUB_FUNCLATENCY,
		  "-i: less than 0.001 seconds" },
		{ "kft stackcount -i 0.0001 x", -1, KFT_SUB_STACKCOUNT,
		  "-i: less than 0.001 seconds" },
		{ "kft stackcount -D 1e-5 x", -1, KFT_SUB_STACKCOUNT,
		  "-D: less than 0.001 seconds" },
		{ "kft errtrace -d 1e-300 f", -1, KFT_SUB_ERRTRACE, "-d: less than 0.001 seconds" },
		{ "kft profile 1e-300", -1, KFT_SUB_PROFILE, "profile: less than 0.001 seconds" },
		{ "kft profile 0.001", 0, KFT_SUB_PROFILE, "" },
	};

	check_parse(cases, ARRAY_SIZE(cases));
}

/* stackcount, stacksnoop, profile: bcc's options, every error with its message. */
static void test_parse_stacks_args(void)
{
	static const struct parse_case cases[] = {
		{ "kft stackcount", -1, KFT_SUB_STACKCOUNT, "stackcount: no PATTERN" },
		{ "kft stackcount -h", 0, KFT_SUB_STACKCOUNT, "" },
		{ "kft stackcount --help", 0, KFT_SUB_STACKCOUNT, "" },
		{ "kft stackcount -p 185 -c 1 -i 5 -D 10 -T -r -s -P -K -v -d -f --debug a b", 0,
		  KFT_SUB_STACKCOUNT, "" },
		{ "kft stackcount -sv -Ti 5 x", 0, KFT_SUB_STACKCOUNT, "" },
		{ "kft stackcount --pid 1 --cpu 0 --interval 1 --duration 2 --timestamp --regexp "
		  "--offset --perpid --kernel-stacks-only --verbose --delimited --folded x", 0,
		  KFT_SUB_STACKCOUNT, "" },
		{ "kft stackcount -p 0 x", -1, KFT_SUB_STACKCOUNT,
		  "-p: not a process id (1..4194304): '0'" },
		{ "kft stackcount -p 4194305 x", -1, KFT_SUB_STACKCOUNT, "-p: not a process id" },
		{ "kft stackcount -p 12ab x", -1, KFT_SUB_STACKCOUNT, "-p: not a process id" },
		{ "kft stackcount -c -1 x", -1, KFT_SUB_STACKCOUNT,
		  "-c: not a CPU number (0..16383): '-1'" },
		{ "kft stackcount -c 16384 x", -1, KFT_SUB_STACKCOUNT, "-c: not a CPU number" },
		{ "kft stackcount -i 0 x", -1, KFT_SUB_STACKCOUNT, "-i: not a number of seconds '0'" },
		{ "kft stackcount -D x y", -1, KFT_SUB_STACKCOUNT, "-D: not a number of seconds 'x'" },
		{ "kft stackcount -U x", -1, KFT_SUB_STACKCOUNT,
		  "-U: user stacks are not supported: the kernel exports no user-stack walker" },
		{ "kft stackcount --user-stacks-only x", -1, KFT_SUB_STACKCOUNT, "-U: user stacks" },
		{ "kft stackcount -x y", -1, KFT_SUB_STACKCOUNT, "stackcount: unknown option '-x'" },
		{ "kft stackcount --nosuch y", -1, KFT_SUB_STACKCOUNT,
		  "stackcount: unknown option '--nosuch'" },
		{ "kft stackcount -L 5 x", -1, KFT_SUB_STACKCOUNT, "stackcount: unknown option '-L'" },
		{ "kft stackcount -p", -1, KFT_SUB_STACKCOUNT, "stackcount: option -p needs an argument" },
		{ "kft stackcount --pid", -1, KFT_SUB_STACKCOUNT,
		  "stackcount: option --pid needs an argument" },
		{ "kft stacksnoop", -1, KFT_SUB_STACKSNOOP, "stacksnoop: no FUNCTION" },
		{ "kft stacksnoop a b", -1, KFT_SUB_STACKSNOOP, "stacksnoop: one FUNCTION only" },
		{ "kft stacksnoop -p 5 -s -v f", 0, KFT_SUB_STACKSNOOP, "" },
		{ "kft stacksnoop --pid 5 --offset --verbose f", 0, KFT_SUB_STACKSNOOP, "" },
		{ "kft stacksnoop -h", 0, KFT_SUB_STACKSNOOP, "" },
		{ "kft stacksnoop -f x", -1, KFT_SUB_STACKSNOOP, "stacksnoop: unknown option '-f'" },
		{ "kft stacksnoop -p -1 x", -1, KFT_SUB_STACKSNOOP, "-p: not a process id" },
		/* The unit tests link kft without libdw, as the guests' static kft. */
		{ "kft stackcount --srcline vmlinux x", -1, KFT_SUB_STACKCOUNT,
		  "--srcline: this kft was built without libdw" },
		{ "kft stacksnoop --srcline vmlinux x", -1, KFT_SUB_STACKSNOOP,
		  "--srcline: this kft was built without libdw" },
		{ "kft profile --srcline vmlinux", -1, KFT_SUB_PROFILE,
		  "--srcline: this kft was built without libdw" },
		{ "kft profile", 0, KFT_SUB_PROFILE, "" },
		{ "kft profile 5", 0, KFT_SUB_PROFILE, "" },
		{ "kft profile --help", 0, KFT_SUB_PROFILE, "" },
		{ "kft profile 0", -1, KFT_SUB_PROFILE, "profile: not a number of seconds '0'" },
		{ "kft profile 5s", -1, KFT_SUB_PROFILE, "profile: not a number of seconds '5s'" },
		{ "kft profile 5 6", -1, KFT_SUB_PROFILE, "profile: unexpected '6' after the duration" },
		{ "kft profile -p 1 -L 2", -1, KFT_SUB_PROFILE, "profile: -p and -L exclude each other" },
		{ "kft profile -p 1,2", -1, KFT_SUB_PROFILE, "-p: one process id, not a list: '1,2'" },
		{ "kft profile -L 1,2", -1, KFT_SUB_PROFILE, "-L: one thread id, not a list: '1,2'" },
		{ "kft profile -L 0", -1, KFT_SUB_PROFILE, "-L: not a thread id (1..4194304): '0'" },
		{ "kft profile -F 0", -1, KFT_SUB_PROFILE,
		  "-F: not a frequency in Hertz (1..10000): '0'" },
		{ "kft profile -F 10001", -1, KFT_SUB_PROFILE, "-F: not a frequency in Hertz" },
		{ "kft profile -C 16384", -1, KFT_SUB_PROFILE, "-C: not a CPU number" },
		{ "kft profile -c 1000", -1, KFT_SUB_PROFILE,
		  "-c 1000: sampling every COUNT events needs perf events" },
		{ "kft profile -U", -1, KFT_SUB_PROFILE, "-U: user stacks are not supported" },
		{ "kft profile --hash-storage-size 5", -1, KFT_SUB_PROFILE,
		  "--hash-storage-size: kft keeps stacks and processes in one table" },
		{ "kft profile --cgroupmap /m", -1, KFT_SUB_PROFILE, "--cgroupmap: BPF maps" },
		{ "kft profile --mntnsmap /m", -1, KFT_SUB_PROFILE, "--mntnsmap: BPF maps" },
		{ "kft profile --stack-storage-size 0", -1, KFT_SUB_PROFILE,
		  "--stack-storage-size: not a number of stacks (1..1048576): '0'" },
		{ "kft profile --stack-storage-size 1048577", -1, KFT_SUB_PROFILE,
		  "--stack-storage-size: not" },
		{ "kft profile -i 1", -1, KFT_SUB_PROFILE, "profile: unknown option '-i'" },
		{ "kft profile -F", -1, KFT_SUB_PROFILE, "profile: option -F needs an argument" },
		{ "kft profile -a -I -f -K -d -C 1 -F 99 --stack-storage-size 100 -L 7 2.5", 0,
		  KFT_SUB_PROFILE, "" },
		{ "kft funccount -d", -1, KFT_SUB_FUNCCOUNT, "funccount: option -d needs an argument" },
		/*
		 * getopt's errors name the option in question: a long option by
		 * its name, the one of short options together without its
		 * argument, the candidates of an abbreviation, a byte that is no
		 * character by the argument it is in.
		 */
		{ "kft funccount --module=1 vfs_read", -1, KFT_SUB_FUNCCOUNT,
		  "funccount: option --module takes no argument" },
		{ "kft funccount --types=1 -A 1 vfs_read", -1, KFT_SUB_FUNCCOUNT,
		  "funccount: option --types takes no argument" },
		{ "kft funccount -MA", -1, KFT_SUB_FUNCCOUNT, "funccount: option -A needs an argument" },
		{ "kft errtrace --str 2 f", -1, KFT_SUB_ERRTRACE,
		  "errtrace: option '--str' is ambiguous: --string, --struct" },
		{ "kft trace -\xc3\xa9 cfg", -1, KFT_SUB_TRACE, "trace: unknown option in '-\xc3\xa9'" },
		{ "kft report --help=1 f", -1, KFT_SUB_REPORT, "report: option --help takes no argument" },
		{ "kft last-boot --forget=now", -1, KFT_SUB_LAST_BOOT,
		  "last-boot: option --forget takes no argument" },
		{ "kft stacksnoop --pi", -1, KFT_SUB_STACKSNOOP, "stacksnoop: option --pid needs an argument" },
		/* An option after an operand: getopt took it as one. */
		{ "kft trace cfg -a", -1, KFT_SUB_TRACE, "trace: -a: options go before CONFIG" },
		{ "kft report f -h", -1, KFT_SUB_REPORT, "report: -h: options go before FILE" },
		{ "kft stackcount f -p 5", -1, KFT_SUB_STACKCOUNT,
		  "stackcount: -p: options go before PATTERN" },
		{ "kft profile 5 -F 99", -1, KFT_SUB_PROFILE, "profile: -F: options go before duration" },
		{ "kft errtrace f -a", -1, KFT_SUB_ERRTRACE, "errtrace: -a: options go before FUNCTION" },
		{ "kft funccount -- x -y", 0, KFT_SUB_FUNCCOUNT, "" },
	};

	check_parse(cases, ARRAY_SIZE(cases));
}

/* What each option sets; what is left alone has its default. */
static void test_parse_stacks_fields(void)
{
	struct kft_params p;
	char err[256];

	kft_parse_line("kft stackcount x", &p, err, sizeof(err));
	CHECK(!p.pid && p.cpu == -1 && p.frequency == 49 && p.stack_storage == 16384 &&
	      !p.interval && !p.duration && !p.timestamps && !p.regexp && !p.offsets &&
	      !p.per_process && !p.verbose && !p.delimited && !p.folded && !p.debug &&
	      p.nr_patterns == 1, "stackcount defaults: pid %ld cpu %ld F %ld storage %ld",
	      p.pid, p.cpu, p.frequency, p.stack_storage);
	kft_parse_line("kft stackcount -p 185 -c 1 -i 5 -D 10 -T -r -s -P -K -v -d -f --debug a b", &p,
	      err, sizeof(err));
	CHECK(p.pid == 185 && p.cpu == 1 && p.interval == 5 && p.duration == 10 &&
	      !strcmp(p.duration_arg, "10") && p.timestamps && p.regexp && p.offsets &&
	      p.per_process && p.verbose && p.delimited && p.folded && p.debug &&
	      p.nr_patterns == 2 && !strcmp(p.patterns[1], "b"),
	      "stackcount options: pid %ld cpu %ld i %g D %g n %d", p.pid, p.cpu, p.interval,
	      p.duration, p.nr_patterns);
	kft_parse_line("kft stacksnoop -p 5 -s -v f", &p, err, sizeof(err));
	CHECK(p.pid == 5 && p.offsets && p.verbose && p.nr_patterns == 1 &&
	      !strcmp(p.patterns[0], "f"), "stacksnoop options");
	kft_parse_line("kft profile -a -I -f -K -d -C 1 -F 99 --stack-storage-size 100 -L 7 2.5", &p,
	      err, sizeof(err));
	CHECK(p.annotate && p.include_idle && p.folded && p.delimited && p.cpu == 1 &&
	      p.frequency == 99 && p.stack_storage == 100 && p.tid == 7 && !p.pid &&
	      p.duration == 2.5 && !strcmp(p.duration_arg, "2.5") && !p.nr_patterns,
	      "profile options: C %ld F %ld storage %ld L %ld duration %g", p.cpu, p.frequency,
	      p.stack_storage, p.tid, p.duration);
	kft_parse_line("kft profile", &p, err, sizeof(err));
	CHECK(!p.duration && !p.duration_arg && p.frequency == 49 && p.cpu == -1,
	      "profile defaults");
}

/* The configurations written: each option's statement, and the regexp translation. */
static void test_stacks_configs(void)
{
	static const struct { const char *line, *config, *err; } cases[] = {
		{ "kft stackcount vfs_read",
		  "new begin mode stacks filter funclist vfs_read fend end\n", NULL },
		{ "kft stackcount -p 185 -c 2 a ext4:b",
		  "new begin mode stacks filter funclist a ext4:b fend filter pid 185 filter cpu 2 "
		  "per-process end\n", NULL },
		{ "kft stackcount -P -c 0 a",
		  "new begin mode stacks filter funclist a fend filter cpu 0 per-process end\n", NULL },
		{ "kft stacksnoop -p 9 ext4_sync_fs", "new begin mode stacks filter funclist "
		  "ext4_sync_fs fend filter pid 9 snoop 65536 end\n", NULL },
		{ "kft stacksnoop f", "new begin mode stacks filter funclist f fend snoop 65536 end\n",
		  NULL },
		{ "kft profile", "new begin mode profile sample 49 logentries 16384 end\n", NULL },
		{ "kft profile -p 5 3", "new begin mode profile sample 49 filter pid 5 "
		  "logentries 16384 end\n", NULL },
		{ "kft profile -I -L 7 -C 3 -F 99 --stack-storage-size 100", "new begin mode profile "
		  "sample 99 include idle filter tid 7 filter cpu 3 logentries 100 end\n", NULL },
		{ "kft stackcount -r ^tcp_send.*",
		  "new begin mode stacks filter funclist tcp_send* fend end\n", NULL },
		{ "kft stackcount -r tcp_send",
		  "new begin mode stacks filter funclist tcp_send* fend end\n", NULL },
		{ "kft stackcount -r ^vfs_read$",
		  "new begin mode stacks filter funclist vfs_read fend end\n", NULL },
		{ "kft stackcount -r vfs_read$|^vfs_write$",
		  "new begin mode stacks filter funclist vfs_read vfs_write fend end\n", NULL },
		{ "kft stackcount -r ^ext4_.*_write$ a.b",
		  "new begin mode stacks filter funclist ext4_*_write a?b* fend end\n", NULL },
		{ "kft stackcount -r x\\.isra\\..+$ [a-c]x_[^0-9]y$",
		  "new begin mode stacks filter funclist x.isra.?* [a-c]x_[!0-9]y fend end\n", NULL },
		{ "kft stackcount -r .*", "new begin mode stacks filter funclist * fend end\n", NULL },
		{ "kft stackcount -r ^vfs_(read|write)$", NULL,
		  "-r: no glob says what '^vfs_(read|write)$' says: a group, a repeat or an anchor" },
		{ "kft stackcount -r tcp_send*", NULL,
		  "-r: no glob says what 'tcp_send*' says: a repeated character" },
		{ "kft stackcount -r \\d+", NULL, "-r: no glob says what '\\d+' says: an escape" },
		{ "kft stackcount -r a|", NULL, "-r: no glob says what 'a|' says: an empty alternative" },
		{ "kft stackcount -r ^$", NULL, "-r: no glob says what '^$' says: it matches an empty" },
		{ "kft stackcount -r [a", NULL, "-r: no glob says what '[a' says: a class" },
		{ "kft stackcount -r [^] x", NULL, "-r: no glob says what '[^]' says: a class" },
		{ "kft stackcount -r a$b", NULL, "-r: no glob says what 'a$b' says: a group" },
		{ "kft stackcount -r a.?", NULL, "-r: no glob says what 'a.?' says: a repeated" },
		{ "kft stackcount t:sched:sched_switch", NULL,
		  "'t:sched:sched_switch': tracepoints, USDT probes and user functions are not" },
		{ "kft stacksnoop u:lib:probe", NULL, "'u:lib:probe': tracepoints" },
		{ "kft stackcount a#b", NULL, "not a function pattern: 'a#b'" },
	};
	struct kft_params p;
	char err[256], *text;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		err[0] = '\0';
		if (kft_parse_line(cases[i].line, &p, err, sizeof(err))) {
			CHECK(0, "'%s': %s", cases[i].line, err);
			continue;
		}
		text = p.sub == KFT_SUB_PROFILE ? kft_profile_config(&p, err, sizeof(err)) :
		       p.sub == KFT_SUB_STACKSNOOP ? kft_stacksnoop_config(&p, err, sizeof(err)) :
		       kft_stackcount_config(&p, err, sizeof(err));
		if (cases[i].config)
			CHECK_STR(text, cases[i].config, cases[i].line);
		else
			CHECK(!text && !strncmp(err, cases[i].err, strlen(cases[i].err)),
			      "'%s': '%s', expected the error '%s'", cases[i].line,
			      text ? text : err, cases[i].err);
		free(text);
	}
}

/* Patterns longer than the module takes: refused, not cut. */
static void test_config_too_long(void)
{
	size_t n = KFT_CONFIG_MAX;
	char *big = malloc(n + 1), *text, err[256];
	char *argv[] = { "kft", "stackcount", big, NULL };
	struct kft_params p;

	memset(big, 'a', n);
	big[n] = '\0';
	kft_parse_args(3, argv, &p, err, sizeof(err));
	text = kft_stackcount_config(&p, err, sizeof(err));
	CHECK(!text && strstr(err, "longer than kft takes"), "a %zu-byte pattern: %s", n,
	      text ? "accepted" : err);
	free(text);
	big[n - 100] = '\0';
	text = kft_stackcount_config(&p, err, sizeof(err));
	CHECK(text && strlen(text) < KFT_CONFIG_MAX, "a pattern that fits: %s", err);
	free(text);
	free(big);
}

static int status_of(const char *text, struct kft_status *st)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int ret = kft_status_parse(in, st);

	fclose(in);
	return ret;
}

static void test_status(void)
{
	static const struct {
		const char *text;
		int ret, registered, id, active, start_trigger;
		const char *error;
	} cases[] = {
		{ "No logging run registered\n", 0, 0, 0, 0, 0, "" },
		{ "No logging run registered\nerror: line 1, column 1: no run configured\n",
		  0, 0, 0, 0, 0, "line 1, column 1: no run configured" },
		{ "status: run id 3, primed, triggered, not complete\n\nconfig:\n"
		  "  trigger start entry vfs_read\n  trigger stop not set\n", 0, 1, 3, 1, 1, "" },
		{ "status: run id 7, primed, not triggered, not complete\n\nconfig:\n"
		  "  trigger start not set\n", 0, 1, 7, 1, 0, "" },
		{ "status: run id 2, primed, triggered, complete\n", 0, 1, 2, 0, 0, "" },
		{ "status: run id 2, not primed, not triggered, not complete\n", 0, 1, 2, 0, 0, "" },
		{ "status: run id 2, not primed, not triggered, not complete\nerror: line 3, "
		  "column 10: missing 'end'\n", 0, 1, 2, 0, 0, "line 3, column 10: missing 'end'" },
		{ "something else\n", -1, 0, 0, 0, 0, "" },
		{ "", -1, 0, 0, 0, 0, "" },
	};
	struct kft_status st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int ret = status_of(cases[i].text, &st);

		CHECK(ret == cases[i].ret && st.registered == cases[i].registered &&
		      st.id == (unsigned int)cases[i].id &&
		      kft_status_active(&st) == cases[i].active &&
		      st.start_trigger == cases[i].start_trigger &&
		      !strcmp(st.error, cases[i].error),
		      "status '%s': ret %d registered %d id %u active %d start %d error '%s'",
		      cases[i].text, ret, st.registered, st.id, kft_status_active(&st),
		      st.start_trigger, st.error);
	}
}

#define HEADER	"\nKernel Instrumentation Run ID 3\n\nLogging started at 1000 usec by user action\n" \
		"Logging not stopped\n\nNumber of functions counted = 3\n" \
		"Number of calls counted = 1251\n\n       Count Function           Symbol\n" \
		"------------ ------------------ ------\n"

static int counts_of(const char *text, struct kft_counts *c)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int ret = kft_counts_read(c, in);

	fclose(in);
	return ret;
}

static void test_counts_read(void)
{
	static const char text[] = HEADER
		"        1234 0xffffffff810a2b40 vfs_read\n"
		"           7 0xffffffffa0000080 kft_test_leaf [kft_test]\n"
		"          10 0xffffffffa0000100 [weird] [mod]\n"
		"           2 0xffffffffa0000200 kft_test_outer [kft_test] (unloaded)\n"
		"this is no row\n"
		"          12 0xffffffffa0000100\n"
		"          -1 0xffffffffa0000100 x\n";
	struct kft_counts c;
	const struct kft_count *e;

	CHECK(counts_of(text, &c) == 0, "read: %s", strerror(errno));
	CHECK(c.head.registered == 1 && c.head.mode == KFT_DATA_COUNT && c.head.run_id == 3 &&
	      !c.head.stopped && c.head.started && c.head.start_us == 1000 && c.nr == 4 &&
	      c.malformed == 3, "header: registered %d mode %d id %u stopped %d nr %zu "
	      "malformed %zu", c.head.registered, c.head.mode, c.head.run_id, c.head.stopped,
	      c.nr, c.malformed);
	e = kft_counts_find(&c, 0xffffffffa0000080ULL, "kft_test:kft_test_leaf");
	CHECK(e && e->count == 7, "module function as module:name");
	e = kft_counts_find(&c, 0xffffffffa0000100ULL, "mod:[weird]");
	CHECK(e && e->count == 10, "a name in brackets");
	e = kft_counts_find(&c, 0xffffffffa0000200ULL, "kft_test:kft_test_outer(unloaded)");
	CHECK(e && e->count == 2, "an unloaded module's function");
	CHECK(!kft_counts_find(&c, 0xffffffff810a2b40ULL, "vfs_write"), "wrong name found");
	kft_counts_free(&c);
}

/* Addresses hidden (zeros): functions told apart by name; one name twice sums. */
static void test_counts_hidden_addresses(void)
{
	static const char text[] = HEADER
		"           5 0x0000000000000000 vfs_read\n"
		"           3 0x0000000000000000 helper [ext4]\n"
		"           2 0x0000000000000000 helper [ext4]\n";
	struct kft_counts c;
	const struct kft_count *e;

	counts_of(text, &c);
	e = kft_counts_find(&c, 0, "ext4:helper");
	CHECK(c.nr == 2 && e && e->count == 5, "nr %zu, ext4:helper %llu", c.nr,
	      e ? (unsigned long long)e->count : 0ULL);
	kft_counts_free(&c);
}

static void test_counts_not_count_logs(void)
{
	struct kft_counts c;

	counts_of("No logging run registered\n", &c);
	CHECK(c.head.registered == 0, "no run: registered %d", c.head.registered);
	kft_counts_free(&c);
	counts_of("\nKernel Instrumentation Run ID 4\n\n Entry    Delta\n--------\n"
		  "       0      120      33.1  0xffffffff810a2b40  0xffffffff81001234\n", &c);
	CHECK(c.head.registered == 1 && c.head.mode == KFT_DATA_TRACE, "a trace log taken as counts");
	kft_counts_free(&c);
	counts_of("\177ELF\n\n", &c);
	CHECK(c.head.registered == -1, "binary data: registered %d", c.head.registered);
	kft_counts_free(&c);
	counts_of(HEADER "Logging stopped at 5 usec by user action\n", &c);
	CHECK(c.malformed == 1, "a header line after the dashes is no row");
	kft_counts_free(&c);
	counts_of("\nLogging stopped at 2000 usec by user action\n", &c);
	CHECK(c.head.stopped, "stopped not seen");
	kft_counts_free(&c);
}

/* Many functions: the index grows and finds each. */
static void test_counts_many(void)
{
	size_t n = 5000, i, o;
	char *text = malloc(sizeof(HEADER) + n * 64);
	struct kft_counts c;
	const struct kft_count *e;
	char name[32];
	int missing = 0;

	o = (size_t)sprintf(text, "%s", HEADER);
	for (i = 0; i < n; i++)
		o += (size_t)sprintf(text + o, "%12zu 0x%016llx f%zu\n", i + 1,
				     0xffffffff81000000ULL + i * 16, i);
	counts_of(text, &c);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		e = kft_counts_find(&c, 0xffffffff81000000 + i * 16, name);
		missing += !e || e->count != i + 1;
	}
	CHECK(c.nr == n && !missing, "nr %zu, %d missing", c.nr, missing);
	kft_counts_free(&c);
	free(text);
}

static void test_delta_and_print(void)
{
	static const char t1[] = HEADER
		"           5 0xffffffffa0000080 kft_test_leaf [kft_test]\n"
		"         100 0xffffffff810a2b40 vfs_read\n";
	static const char t2[] = HEADER
		"           5 0xffffffffa0000080 kft_test_leaf [kft_test]\n"
		"         150 0xffffffff810a2b40 vfs_read\n"
		"           3 0xffffffff810a2c00 vfs_write\n"
		"          50 0xffffffff810a2d00 b_same\n";
	struct kft_counts c1, c2;
	struct kft_delta *d;
	char out[1024];
	FILE *f;
	size_t n;

	counts_of(t1, &c1);
	counts_of(t2, &c2);
	d = kft_counts_delta(&c2, &c1, &n);
	f = fmemopen(out, sizeof(out), "w");
	kft_funccount_print(f, d, n, 0, 0, NULL);
	fclose(f);
	/* leaf did not move: no row; ties by name. */
	CHECK_STR(out, "\nFUNC                              COUNT\n"
		  "vfs_write                             3\n"
		  "b_same                               50\n"
		  "vfs_read                             50\n", "delta t2 - t1");
	f = fmemopen(out, sizeof(out), "w");
	kft_funccount_print(f, d, n, 1, 0, "Mon Jan  5 10:00:00 UTC 2026");
	fclose(f);
	CHECK_STR(out, "\nMon Jan  5 10:00:00 UTC 2026\nFUNC                              COUNT\n"
		  "vfs_read                             50\n", "top 1, stamped");
	free(d);
	/* Counts that went down (counting began again) count from zero. */
	d = kft_counts_delta(&c1, &c2, &n);
	CHECK(n == 1 && d[0].count == 100, "reset: n %zu count %llu", n,
	      n ? (unsigned long long)d[0].count : 0ULL);
	free(d);
	kft_counts_free(&c1);
	kft_counts_free(&c2);
}

#define VALUE_HEADER	"\nKernel Instrumentation Run ID 3\n\nLogging started at 1000 usec by user action\n" \
		"Logging not stopped\n\nNumber of functions counted = 3\n" \
		"Number of calls counted = 16\nCounted per value of argument 1\n" \
		"Calls not counted, table full = 7\n\n       Count Function           Symbol\n" \
		"------------ ------------------ ------\n"

/*
 * A run per value of an argument: each row's last word is the value (hex,
 * an error in decimal, hidden), kept in decimal; the header's table-full
 * count; a row without the value word is malformed.
 */
static void test_counts_per_value(void)
{
	static const char t1[] = VALUE_HEADER
		"           5 0xffffffffa0000080 kft_test_args [kft_test] arg1=0x5\n"
		"           2 0xffffffffa0000080 kft_test_args [kft_test] arg1=0x7\n";
	static const char t2[] = VALUE_HEADER
		"           9 0xffffffffa0000080 kft_test_args [kft_test] arg1=0x5\n"
		"           2 0xffffffffa0000080 kft_test_args [kft_test] arg1=0x7\n"
		"           3 0xffffffffa0000080 kft_test_args [kft_test] arg1=-22\n"
		"           1 0xffffffff810a2b40 vfs_read arg1=0xffffffffffffffff\n"
		"           4 0x0000000000000000 vfs_read arg1=hidden\n"
		"           1 0xffffffff810a2b40 vfs_read\n"
		"           1 0xffffffff810a2b40 vfs_read arg2=0x1\n"
		"           1 0xffffffff810a2b40 vfs_read arg1=0xzz\n"
		"           1 0xffffffff810a2b40 vfs_read arg1=-0\n";
	struct kft_counts c1, c2;
	const struct kft_count *e;
	struct kft_delta *d;
	char out[1024];
	FILE *f;
	size_t n;

	CHECK(counts_of(t2, &c2) == 0, "read: %s", strerror(errno));
	CHECK(c2.head.per_arg == 1 && c2.head.not_counted == 7 && c2.nr == 5 && c2.malformed == 4,
	      "per_arg %u not_counted %llu nr %zu malformed %zu", c2.head.per_arg,
	      (unsigned long long)c2.head.not_counted, c2.nr, c2.malformed);
	e = kft_counts_find_value(&c2, 0xffffffffa0000080ULL, "kft_test:kft_test_args", "5");
	CHECK(e && e->count == 9, "arg1=0x5 as 5: %llu", e ? (unsigned long long)e->count : 0ULL);
	e = kft_counts_find_value(&c2, 0xffffffffa0000080ULL, "kft_test:kft_test_args", "-22");
	CHECK(e && e->count == 3, "arg1=-22");
	e = kft_counts_find_value(&c2, 0xffffffff810a2b40ULL, "vfs_read", "18446744073709551615");
	CHECK(e && e->count == 1, "arg1=0xffffffffffffffff in decimal");
	e = kft_counts_find_value(&c2, 0, "vfs_read", "hidden");
	CHECK(e && e->count == 4, "arg1=hidden");
	CHECK(!kft_counts_find(&c2, 0xffffffffa0000080ULL, "kft_test:kft_test_args"),
	      "a row without its value found");
	counts_of(t1, &c1);
	d = kft_counts_delta(&c2, &c1, &n);
	f = fmemopen(out, sizeof(out), "w");
	kft_funccount_print(f, d, n, 3, 1, NULL);
	fclose(f);
	/* 0x7 did not move: no row; ties by name, then value. */
	CHECK_STR(out, "\nFUNC                                           ARG1    COUNT\n"
		  "kft_test:kft_test_args                          -22        3\n"
		  "kft_test:kft_test_args                            5        4\n"
		  "vfs_read                                     hidden        4\n",
		  "per-arg delta t2 - t1, top 3");
	free(d);
	kft_counts_free(&c1);
	kft_counts_free(&c2);
}

/* A call of the chain tests: entry, delta (ns), pid, cpu, function, error. */
#define CALL(e, d, p, c, f, x) { .entry = (e), .delta = (d), .pid = (p), .cpu = (c), \
				 .func = (f), .err = (x) }

/* The chain of root in calls, its links found first (8 calls at most). */
static size_t errchain_of(const struct kft_errcall *calls, size_t n, size_t root, size_t *chain,
			  size_t max)
{
	size_t next[8];

	if (n > 8 || kft_errchain_links(calls, n, next))
		return 99;
	return kft_errchain(next, n, root, chain, max);
}

static void test_errchain(void)
{
	/* By entry: root 0; two tries at level 1 (the second wins, ending
	 * last), its child; another task's and an interrupt's errors inside
	 * the root's time; another error inside the winner. */
	static const struct kft_errcall calls[] = {
		CALL(100, 1000, 5, 0, 0xa, -2),		/* 0: root */
		CALL(110, 100, 5, 0, 0xb, -2),		/* 1: first try */
		CALL(150, 50, 6, 1, 0xc, -2),		/* 2: another task */
		CALL(300, 600, 5, 0, 0xb, -2),		/* 3: second try, ends last */
		CALL(310, 20, -1, 0, 0xd, -2),		/* 4: an interrupt */
		CALL(400, 100, 5, 0, 0xe, -2),		/* 5: in 3 */
		CALL(600, 100, 5, 0, 0xf, -22),		/* 6: in 3, another error */
		CALL(1200, 10, 5, 0, 0xa, -2),		/* 7: after the root */
	};
	/* Two that end together: the outer (entered first) is the one beneath. */
	static const struct kft_errcall ties[] = {
		CALL(0, 100, 1, 0, 0x1, -5),
		CALL(10, 90, 1, 0, 0x2, -5),
		CALL(20, 80, 1, 0, 0x3, -5),
	};
	/* An interrupt's chain stays on its CPU. */
	static const struct kft_errcall irqs[] = {
		CALL(0, 100, -1, 0, 0x1, -4),
		CALL(10, 80, -1, 1, 0x2, -4),
		CALL(20, 10, -1, 0, 0x3, -4),
	};
	/* Calls of the same times: the later in the log is beneath. */
	static const struct kft_errcall same[] = {
		CALL(0, 100, 1, 0, 0x1, -5),
		CALL(0, 100, 1, 0, 0x2, -5),
		CALL(0, 100, 1, 0, 0x3, -5),
	};
	size_t chain[8], len;

	len = errchain_of(calls, 8, 0, chain, 8);
	CHECK(len == 3 && chain[0] == 5 && chain[1] == 3 && chain[2] == 0,
	      "chain of 0: len %zu [%zu %zu %zu]", len, chain[0], len > 1 ? chain[1] : 99,
	      len > 2 ? chain[2] : 99);
	len = errchain_of(calls, 8, 3, chain, 8);
	CHECK(len == 2 && chain[0] == 5 && chain[1] == 3, "chain of 3: len %zu", len);
	len = errchain_of(calls, 8, 7, chain, 8);
	CHECK(len == 1 && chain[0] == 7, "a call with nothing beneath: len %zu", len);
	len = errchain_of(calls, 8, 0, chain, 2);
	CHECK(len == 2 && chain[0] == 3 && chain[1] == 0, "at most max: len %zu", len);
	CHECK(errchain_of(calls, 8, 8, chain, 8) == 0, "no such root");
	len = errchain_of(ties, 3, 0, chain, 8);
	CHECK(len == 3 && chain[0] == 2 && chain[1] == 1, "ties: len %zu", len);
	len = errchain_of(irqs, 3, 0, chain, 8);
	CHECK(len == 2 && chain[0] == 2, "interrupts: len %zu first %zu", len, chain[0]);
	len = errchain_of(same, 3, 0, chain, 8);
	CHECK(len == 3 && chain[0] == 2 && chain[1] == 1, "same times: len %zu", len);
	len = errchain_of(same, 3, 2, chain, 8);
	CHECK(len == 1, "same times, the last: len %zu", len);
	CHECK(errchain_of(same, 0, 0, chain, 8) == 0, "no calls");
}

/*
 * Wide and deep logs, every call a root (errtrace '*'): each chain found
 * in steps that do not grow with the calls beside or beneath it. Walking
 * a root's time for each step of each chain took the square of the calls.
 */
#define WIDE_CALLS	200000

static void test_errchain_wide(void)
{
	struct kft_errcall *calls = calloc(WIDE_CALLS, sizeof(*calls));
	size_t *next = calloc(WIDE_CALLS, sizeof(*next));
	size_t i, len, chain[KFT_ERRCHAIN_MAX], bad = 0;

	CHECK(calls && next, "no memory for %d calls", WIDE_CALLS);
	if (!calls || !next)
		goto out;
	/* One call of each of WIDE_CALLS tasks, all at once. */
	for (i = 0; i < WIDE_CALLS; i++)
		calls[i] = (struct kft_errcall)CALL((long long)i, 10LL * WIDE_CALLS, (int)i + 1, 0,
						    0xa, -2);
	CHECK(!kft_errchain_links(calls, WIDE_CALLS, next), "wide: links");
	for (i = 0; i < WIDE_CALLS; i++) {
		len = kft_errchain(next, WIDE_CALLS, i, chain, KFT_ERRCHAIN_MAX);
		bad += len != 1 || chain[0] != i;
	}
	CHECK(bad == 0, "wide: %zu chains not their root alone", bad);
	/* One task's calls, each inside the one before. */
	for (i = 0; i < WIDE_CALLS; i++)
		calls[i] = (struct kft_errcall)CALL((long long)i, 2LL * (WIDE_CALLS - (long long)i),
						    1, 0, 0xa, -2);
	CHECK(!kft_errchain_links(calls, WIDE_CALLS, next), "deep: links");
	for (i = 0; i < WIDE_CALLS; i++) {
		len = kft_errchain(next, WIDE_CALLS, i, chain, KFT_ERRCHAIN_MAX);
		bad += len != (WIDE_CALLS - i < KFT_ERRCHAIN_MAX ? WIDE_CALLS - i : KFT_ERRCHAIN_MAX) ||
		       chain[len - 1] != i || (len > 1 && chain[len - 2] != i + 1);
	}
	CHECK(bad == 0, "deep: %zu chains not down the nest", bad);
out:
	free(next);
	free(calls);
}

static void test_errseen(void)
{
	struct kft_errseen seen = { 0 };
	struct kft_errcall c = CALL(1, 2, 3, 0, 0xa, -2);
	int i, added = 0;

	CHECK(kft_errseen_add(&seen, &c) == 1, "first add");
	CHECK(kft_errseen_add(&seen, &c) == 0, "again");
	c.cpu = 1;
	CHECK(kft_errseen_add(&seen, &c) == 1, "another CPU is another call");
	/* Grown many times, every key still found. */
	for (i = 0; i < 5000; i++) {
		c.entry = 100 + i;
		added += kft_errseen_add(&seen, &c);
	}
	for (i = 0; i < 5000; i++) {
		c.entry = 100 + i;
		added -= kft_errseen_add(&seen, &c) == 0;
	}
	CHECK(added == 0 && seen.nr == 5002, "5000 added and found: %d, nr %zu", added, seen.nr);
	kft_errseen_free(&seen);
}

static void test_errtrace_args(void)
{
	static const struct parse_case cases[] = {
		{ "kft errtrace do_sys_openat2", 0, KFT_SUB_ERRTRACE, "" },
		{ "kft errtrace -e ENOENT -e 22 -e -2 -d 1 -p 1 -c sh -n 5 f", 0, KFT_SUB_ERRTRACE, "" },
		{ "kft errtrace", -1, KFT_SUB_ERRTRACE, "errtrace: no FUNCTION" },
		{ "kft errtrace -e 0 f", -1, KFT_SUB_ERRTRACE, "-e: not an error number" },
		{ "kft errtrace -e 4096 f", -1, KFT_SUB_ERRTRACE, "-e: not an error number" },
		{ "kft errtrace -e enoent f", -1, KFT_SUB_ERRTRACE, "-e: not an error number" },
		{ "kft errtrace -c end f", -1, KFT_SUB_ERRTRACE, "-c: not a task's name" },
		{ "kft errtrace -c 0123456789abcdef f", -1, KFT_SUB_ERRTRACE, "-c: not a task's name" },
		{ "kft errtrace -c a#b f", -1, KFT_SUB_ERRTRACE, "-c: not a task's name" },
		{ "kft errtrace -n 16777217 f", -1, KFT_SUB_ERRTRACE, "-n: not a number of calls" },
		{ "kft errtrace -p 0 f", -1, KFT_SUB_ERRTRACE, "-p: not a process id" },
		{ "kft errtrace -d -1 f", -1, KFT_SUB_ERRTRACE, "-d: not a number of seconds" },
		{ "kft errtrace -x f", -1, KFT_SUB_ERRTRACE, "errtrace: unknown option '-x'" },
		{ "kft errtrace --fast -d 1 f", 0, KFT_SUB_ERRTRACE, "" },
		{ "kft errtrace --fast=1 f", -1, KFT_SUB_ERRTRACE, "errtrace: option --fast takes no argument" },
		{ "kft errtrace -a -T --btf b --dwarf d --proto p f", 0, KFT_SUB_ERRTRACE, "" },
		{ "kft errtrace -T f", -1, KFT_SUB_ERRTRACE,
		  "errtrace: -T, --btf, --dwarf and --proto type the arguments -a keeps: add -a" },
		{ "kft errtrace --proto p f", -1, KFT_SUB_ERRTRACE, "errtrace: -T, --btf" },
		{ "kft errtrace -T -h", 0, KFT_SUB_ERRTRACE, "" },
		/* The unit tests link kft without libdw, as the guests' static kft. */
		{ "kft errtrace --srcline vmlinux f", -1, KFT_SUB_ERRTRACE,
		  "--srcline: this kft was built without libdw (elfutils' DWARF reader): "
		  "build kft where libdw-dev is installed" },
	};
	struct kft_params p;
	char err[256], *cfg;

	check_parse(cases, ARRAY_SIZE(cases));
	kft_parse_line("kft errtrace -e ENOENT -p 9 -c sh -n 5 f g", &p, err, sizeof(err));
	CHECK(p.errnum == -2 && p.pid == 9 && !strcmp(p.comm, "sh") && p.entries == 5 &&
	      p.nr_patterns == 2, "errtrace's params: errnum %lld", p.errnum);
	kft_parse_line("kft errtrace -e 22 f", &p, err, sizeof(err));
	CHECK(p.errnum == -22 && p.entries == KFT_ERRTRACE_ENTRIES, "-e 22: %lld", p.errnum);
	cfg = kft_errtrace_config(&p, err, sizeof(err));
	CHECK_STR(cfg, "new begin mode trace filter errors units ns logentries 65536 end\n",
		  "errtrace config: the module's default hooks");
	free(cfg);
	kft_parse_line("kft errtrace --fast f", &p, err, sizeof(err));
	cfg = kft_errtrace_config(&p, err, sizeof(err));
	CHECK_STR(cfg, "new begin mode trace hooks fast filter errors units ns logentries 65536 end\n",
		  "errtrace config, --fast");
	free(cfg);
	kft_parse_line("kft errtrace -a f", &p, err, sizeof(err));
	cfg = kft_errtrace_config(&p, err, sizeof(err));
	CHECK_STR(cfg, "new begin mode trace filter errors units ns args logentries 65536 end\n",
		  "errtrace config, -a");
	free(cfg);
}

#define HIST_HEADER "\nKernel Instrumentation Run ID 3\n\nLogging started at 1000 usec by user action\n" \
		"Logging not stopped\n\nTimed until 2000 usec\nUnits: us\n" \
		"Number of functions timed = 2\nNumber of calls timed = 12\n\n" \
		"       Count Function           Symbol\n------------ ------------------ ------\n"

static void test_hists(void)
{
	static const char t1[] = HIST_HEADER
		"           3 0xffffffffa0000080 kft_test_busy_us [kft_test]\n"
		"                  16 -> 31                   : 3\n"
		"           2 0xffffffff810a2b40 vfs_read\n"
		"                   0 -> 1                    : 2\n";
	static const char t2[] = HIST_HEADER
		"           9 0xffffffffa0000080 kft_test_busy_us [kft_test]\n"
		"                  16 -> 31                   : 5\n"
		"                1024 -> 2047                 : 4\n"
		"           2 0xffffffff810a2b40 vfs_read\n"
		"                   0 -> 1                    : 2\n"
		"                   2 -> 4                    : 1\n"
		"  549755813888 -> 18446744073709551615 : 1\n";
	struct kft_counts c1, c2;
	struct kft_hist_row *rows;
	uint64_t sum[KFT_HIST_BUCKETS];
	char out[4096];
	FILE *f;
	size_t n;

	CHECK(!counts_of(t1, &c1) && c1.head.mode == KFT_DATA_HISTOGRAM &&
	      !strcmp(c1.head.units, "us") && c1.nr == 2 && !c1.malformed,
	      "t1: mode %d units '%s' nr %zu malformed %zu", c1.head.mode, c1.head.units, c1.nr,
	      c1.malformed);
	CHECK(!counts_of(t2, &c2) && c2.nr == 2 && c2.malformed == 1,
	      "t2: nr %zu malformed %zu (2 -> 4 is no bucket)", c2.nr, c2.malformed);
	CHECK(c2.buckets[KFT_HIST_BUCKETS - 1] == 0 && c2.buckets[KFT_HIST_BUCKETS + 39] == 1,
	      "the last bucket, open-ended, is vfs_read's");
	rows = kft_hists_delta(&c2, &c1, &n);
	CHECK(n == 2 && rows[0].count == 1 && !strcmp(rows[0].name, "vfs_read") &&
	      rows[1].count == 6 && rows[1].buckets[4] == 2 && rows[1].buckets[10] == 4,
	      "delta: n %zu", n);
	kft_hists_sum(rows, n, sum);
	CHECK(sum[4] == 2 && sum[10] == 4 && sum[39] == 1 && sum[0] == 0, "sum");
	f = fmemopen(out, sizeof(out), "w");
	kft_hist_print(f, rows[1].buckets, "usec");
	fclose(f);
	CHECK_STR(out, "     usec                : count    distribution\n"
		  "         0 -> 1          : 0        |                                        |\n"
		  "         2 -> 3          : 0        |                                        |\n"
		  "         4 -> 7          : 0        |                                        |\n"
		  "         8 -> 15         : 0        |                                        |\n"
		  "        16 -> 31         : 2        |********************                    |\n"
		  "        32 -> 63         : 0        |                                        |\n"
		  "        64 -> 127        : 0        |                                        |\n"
		  "       128 -> 255        : 0        |                                        |\n"
		  "       256 -> 511        : 0        |                                        |\n"
		  "       512 -> 1023       : 0        |                                        |\n"
		  "      1024 -> 2047       : 4        |****************************************|\n",
		  "libbpf-tools' print_log2_hist()");
	/* Past bucket 32: the wide layout, 20 stars. */
	f = fmemopen(out, sizeof(out), "w");
	kft_hist_print(f, rows[0].buckets, "nsec");
	fclose(f);
	CHECK(!strncmp(out, "               nsec                          : count    distribution\n"
		       "                   0 -> 1                    : 0        |                    |\n",
		       140), "wide: %.160s", out);
	free(rows);
	/* Nothing: nothing printed. */
	memset(sum, 0, sizeof(sum));
	{
		char *buf = NULL;
		size_t len = 0;

		f = open_memstream(&buf, &len);
		kft_hist_print(f, sum, "nsec");
		fclose(f);
		CHECK(len == 0, "empty: %zu bytes", len);
		free(buf);
	}
	kft_counts_free(&c1);
	kft_counts_free(&c2);
}

#define HIST_VALUE_HEADER "\nKernel Instrumentation Run ID 3\n\n" \
		"Logging started at 1000 usec by user action\nLogging not stopped\n\n" \
		"Timed until 2000 usec\nUnits: us\nNumber of functions timed = 3\n" \
		"Number of calls timed = 12\nTimed per value of argument 1\n" \
		"Calls not counted, table full = 5\n\n" \
		"       Count Function           Symbol\n------------ ------------------ ------\n"

/*
 * A histogram run per value of an argument: a histogram per function and
 * value (the row's last word, kept in decimal), subtracted pair by pair;
 * the header's argument and table-full count.
 */
static void test_hists_per_value(void)
{
	static const char t1[] = HIST_VALUE_HEADER
		"           2 0xffffffffa0000080 kft_test_busy_us [kft_test] arg1=0x18\n"
		"                  16 -> 31                   : 2\n"
		"           1 0xffffffffa0000080 kft_test_busy_us [kft_test] arg1=0x5dc\n"
		"                1024 -> 2047                 : 1\n";
	static const char t2[] = HIST_VALUE_HEADER
		"           5 0xffffffffa0000080 kft_test_busy_us [kft_test] arg1=0x18\n"
		"                  16 -> 31                   : 4\n"
		"                  32 -> 63                   : 1\n"
		"           3 0xffffffffa0000080 kft_test_busy_us [kft_test] arg1=0x5dc\n"
		"                1024 -> 2047                 : 3\n"
		"           1 0xffffffffa0000080 kft_test_busy_us [kft_test] arg1=-22\n"
		"                   0 -> 1                    : 1\n"
		"           1 0xffffffffa0000080 kft_test_busy_us [kft_test]\n"
		"                   0 -> 1                    : 1\n";
	struct kft_counts c1, c2;
	struct kft_hist_row *rows;
	size_t n;

	CHECK(!counts_of(t2, &c2) && c2.head.mode == KFT_DATA_HISTOGRAM && c2.head.per_arg == 1 &&
	      c2.head.not_counted == 5 && c2.nr == 3,
	      "t2: mode %d per_arg %u not_counted %llu nr %zu malformed %zu", c2.head.mode,
	      c2.head.per_arg, (unsigned long long)c2.head.not_counted, c2.nr, c2.malformed);
	/* (The row without its value, and its bucket, are no pair's.) */
	CHECK(c2.malformed == 2, "t2: malformed %zu", c2.malformed);
	counts_of(t1, &c1);
	rows = kft_hists_delta(&c2, &c1, &n);
	CHECK(n == 3, "delta: n %zu", n);
	if (n == 3) {
		CHECK(rows[0].count == 1 && !strcmp(rows[0].value, "-22") && rows[0].buckets[0] == 1,
		      "-22: %s %llu", rows[0].value, (unsigned long long)rows[0].count);
		CHECK(rows[1].count == 2 && !strcmp(rows[1].value, "1500") &&
		      rows[1].buckets[10] == 2, "1500: %s %llu", rows[1].value,
		      (unsigned long long)rows[1].count);
		CHECK(rows[2].count == 3 && !strcmp(rows[2].value, "24") && rows[2].buckets[4] == 2 &&
		      rows[2].buckets[5] == 1 && !strcmp(rows[2].name, "kft_test:kft_test_busy_us"),
		      "24: %s %s %llu", rows[2].name, rows[2].value,
		      (unsigned long long)rows[2].count);
	}
	free(rows);
	kft_counts_free(&c1);
	kft_counts_free(&c2);
}

static void test_funclatency_args(void)
{
	static const struct parse_case cases[] = {
		{ "kft funclatency do_sys_openat2", 0, KFT_SUB_FUNCLATENCY, "" },
		{ "kft funclatency -uFT -i 1 -d 2 -p 5 a b", 0, KFT_SUB_FUNCLATENCY, "" },
		{ "kft funclatency", -1, KFT_SUB_FUNCLATENCY, "funclatency: no PATTERN" },
		{ "kft funclatency -u -m f", -1, KFT_SUB_FUNCLATENCY, "funclatency: -u and -m exclude" },
		{ "kft funclatency -i 0 f", -1, KFT_SUB_FUNCLATENCY, "-i: not a number of seconds" },
		{ "kft funclatency -p x f", -1, KFT_SUB_FUNCLATENCY, "-p: not a process id" },
		{ "kft funclatency -r f", -1, KFT_SUB_FUNCLATENCY, "funclatency: unknown option '-r'" },
		{ "kft funclatency -A 2 -u f", 0, KFT_SUB_FUNCLATENCY, "" },
		{ "kft funclatency --per-arg 1 f", 0, KFT_SUB_FUNCLATENCY, "" },
		{ "kft funclatency -A 0 f", -1, KFT_SUB_FUNCLATENCY, "-A: not an argument (1..8) '0'" },
		{ "kft funclatency -A 9 f", -1, KFT_SUB_FUNCLATENCY, "-A: not an argument (1..8) '9'" },
		{ "kft funclatency -A", -1, KFT_SUB_FUNCLATENCY, "funclatency: option -A needs an argument" },
	};
	struct kft_params p;
	char err[256], *cfg;

	check_parse(cases, ARRAY_SIZE(cases));
	kft_parse_line("kft funclatency -m -p 7 'vfs_*' do_sys_openat2", &p, err, sizeof(err));
	cfg = kft_funclatency_config(&p, err, sizeof(err));
	CHECK_STR(cfg, "new begin mode histogram units ms filter funclist 'vfs_*' do_sys_openat2 fend "
		  "filter pid 7 end\n", "funclatency config");
	free(cfg);
	kft_parse_line("kft funclatency f", &p, err, sizeof(err));
	CHECK(!p.per_arg, "funclatency without -A: per_arg %ld", p.per_arg);
	cfg = kft_funclatency_config(&p, err, sizeof(err));
	CHECK_STR(cfg, "new begin mode histogram units ns filter funclist f fend end\n",
		  "funclatency config, ns");
	free(cfg);
	kft_parse_line("kft funclatency -A 3 -u -p 7 f", &p, err, sizeof(err));
	cfg = kft_funclatency_config(&p, err, sizeof(err));
	CHECK_STR(cfg, "new begin mode histogram units us per-arg 3 filter funclist f fend "
		  "filter pid 7 end\n", "funclatency -A 3 config");
	free(cfg);
}

/* -M, --module: module:name in the bcc commands' output; errtrace has no -M. */
static void test_module_option(void)
{
	static const char *const lines[] = {
		"kft funccount -M f", "kft funccount --module f", "kft funclatency -FM f",
		"kft stackcount -M f", "kft stacksnoop --module f", "kft profile -M",
	};
	struct kft_params p;
	char err[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		err[0] = '\0';
		CHECK(!kft_parse_line(lines[i], &p, err, sizeof(err)) && p.module, "'%s': module %d, err '%s'",
		      lines[i], p.module, err);
	}
	CHECK(!kft_parse_line("kft funccount f", &p, err, sizeof(err)) && !p.module, "no -M: %d", p.module);
	CHECK(kft_parse_line("kft errtrace -M f", &p, err, sizeof(err)), "errtrace -M accepted");
	CHECK_STR(kft_bcc_name("kft_test:kft_test_leaf", 0), "kft_test_leaf", "bare");
	CHECK_STR(kft_bcc_name("kft_test:kft_test_leaf", 1), "kft_test:kft_test_leaf", "-M");
	CHECK_STR(kft_bcc_name("vfs_read", 0), "vfs_read", "no module");
}

/*
 * kft trace -T's listing names a call's function by its symbol: a name of
 * 507 bytes (kallsyms has them up to 511 since 6.1) at +0x1f4 is whole.
 */
static void test_typed_calls_long_name(void)
{
	static const char log[] = "--------\n"
		"       5       10      1.0  0xffffffff810001f4               0xffffffff81000000 sh\n";
	char name[508], map[600], want[600], *text = NULL;
	size_t len = 0;
	struct ksyms *ks;
	FILE *in = fmemopen((void *)log, sizeof(log) - 1, "r"), *out = open_memstream(&text, &len);

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(map, sizeof(map), "ffffffff81000000 T %s\n", name);
	ks = ksyms__parse(map, strlen(map));
	CHECK(!kft_typed_calls(in, "log", out, ks, NULL, NULL), "kft_typed_calls failed");
	fclose(out);
	fclose(in);
	snprintf(want, sizeof(want), " %s+0x1f4\n", name);
	CHECK(len > strlen(want) && !strcmp(text + len - strlen(want), want),
	      "expected a line ending '%s', got '%s'", want, text);
	free(text);
	ksyms__free(ks);
}

UNIT_MAIN(test_parse_args, test_seconds_least, test_parse_stacks_args, test_parse_stacks_fields,
	  test_funccount_config, test_stacks_configs, test_config_too_long, test_status,
	  test_counts_read, test_counts_hidden_addresses, test_counts_not_count_logs,
	  test_counts_many, test_delta_and_print, test_counts_per_value, test_errchain, test_errchain_wide,
	  test_errseen,
	  test_errtrace_args, test_hists, test_hists_per_value, test_funclatency_args,
	  test_module_option, test_typed_calls_long_name)

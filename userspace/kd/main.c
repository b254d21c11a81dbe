// SPDX-License-Identifier: GPL-2.0
/*
 * kd ("KFT dump"): summaries, call trees, flame-graph stacks and flame
 * graphs, trace JSON and timelines from a kft log. Options as the original
 * kd's, its flaws fixed (see Documentation/man/kd.1).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "kd.h"
#include "opterr.h"
#include "srcline/srcline.h"

static const char *const kd_usage_text[] = {
	"usage: kd [options] [FILE]",
	"",
	"Analyzes a kft log (/proc/kft_data; FILE or standard input), raw or",
	"passed through addr2sym. Stack watch snapshots (-2 rows) are no calls:",
	"the summary lists them, the call tree shows their frames. Nor are wake",
	"sets (-3 rows): the call tree shows who woke a call that slept. A log",
	"with fewer rows than its header counts (cut short) is read with a",
	"warning. A kft record file (kft record -o FILE) is read as the log it",
	"holds, its rows in entry order.",
	"",
	"A saved console (serial capture, dmesg, journalctl -k) with kft's last",
	"calls before an oops or a panic (a run with log ring) is read as a log:",
	"its 'kft: | ' lines, whatever comes before 'kft: ', other lines between",
	"them skipped, the rows in entry order. Open calls (delta -1) are the",
	"calls the crash was in. Of several dumps the last is read, and said:",
	"  --dump N       read a console's Nth dump of last calls instead",
	"",
	"Modes (default: summary, one row per function, by total time):",
	"  -c             call tree: one line per call, indented by depth; a",
	"                 thread's calls under a line naming it (pid and comm);",
	"                 '= -22 EINVAL': the call returned that error",
	"  -P, --per-process  a line per task (pid and comm, or a CPU's",
	"                 interrupts): calls, time in traced functions (outermost",
	"                 calls), first entry and last exit, most time first",
	"  --folded       flame-graph stacks: 'root;child;leaf LOCAL_US'; of a",
	"                 stacks- or profile-mode log: 'comm;outer;...;inner COUNT';",
	"                 past 1023 frames, the deeper calls are one '[deeper]'",
	"  --flamegraph   an interactive SVG flame graph of the same stacks (click",
	"                 to zoom, Ctrl-F to search); FILE may be folded stacks too",
	"                 ('a;b;c N' lines: kd --folded, bcc -f, perf, bpftrace)",
	"  --json         Chrome trace events (Perfetto UI, chrome://tracing)",
	"  --svg          a timeline picture: a lane per thread, a bar per call",
	"One mode at a time. An option under a mode's heading below is refused",
	"with another mode, which would ignore it (-n takes -P's lines too).",
	"Summary:",
	"  -f LETTERS     columns: F function, c count, t time, a average,",
	"                 r range, s sub-time, l local, m max child, n its calls,",
	"                 u children, e error returns; o on the CPU, q runnable,",
	"                 b blocked (offcpu's times, summed), O Q B the same per",
	"                 call on average, S source line (--srcline) (default",
	"                 Fctal, then oqb when the log has offcpu's times, e when",
	"                 it has return values, S with --srcline)",
	"  -l             long: -f Fctalsmn (and oqb, e)",
	"  -n N           the first N functions only",
	"  -t T           only functions with a total time over T (us; ns in a",
	"                 log of units ns, as all of kd's times then)",
	"  -s X           sort by column X (F ascending; c t a s l e o q b O Q B",
	"                 descending)",
	"Call tree:",
	"  -f LETTERS     columns: e entry, t duration, l local, p pid (none);",
	"                 o on the CPU, q runnable, b blocked (a log with",
	"                 offcpu's times); r: every call's return value, not",
	"                 only errors",
	"  -l             all five: -f etlpr",
	"  -i             interlace threads by entry time; interrupt trees framed",
	"  -d N           deepest level shown (default 20)",
	"  -m N, --width N   longest function name shown (default 40)",
	"Folded stacks and flame graphs:",
	"  --snapshots    a trace log's stack watch snapshots, one each, instead",
	"                 of its calls",
	"  --title TEXT   the flame graph's title (default: Flame Graph)",
	"  --weigh HOW    a log with offcpu's times: split each call's local time",
	"                 (a sleep counts in the innermost call it fell in only):",
	"                 wall: on-CPU on the call, its runnable and blocked time",
	"                 on frames '[runnable]' and '[blocked]' under it; oncpu:",
	"                 on-CPU only; offcpu: the two frames only",
	"All:",
	"  -m MAP, --map MAP  symbolize raw addresses with MAP (System.map or",
	"                 /proc/kallsyms); -m with a number is the width (-m ./30:",
	"                 a map named 30). A warning if MAP is known to be",
	"                 another kernel's than the log's 'Kernel:' line",
	"                 (/proc/kallsyms: uname -r; System.map-RELEASE: RELEASE);",
	"                 a second 'Kernel:' line is a warning too (the first is",
	"                 the log's)",
	"  --srcline FILE with -c, --json or the summary: each call's source",
	"                 line and its caller's (with the inlined calls it lies",
	"                 in), from FILE's DWARF: a vmlinux, or a module's .ko,",
	"                 built with debug information; again for more files",
	"                 (one vmlinux, a .ko per module). Raw addresses need",
	"                 -m MAP under KASLR (the log's boot's kallsyms)",
	"  --types        with -c: each call printed as its function's types say,",
	"                 'do_sys_openat2(dfd=-100, filename=0x7ffd5c3b1e40,",
	"                 how=0xffffc90000b2fe40) = 3' (a log of a run with args;",
	"                 without them, its return value typed: none for a void",
	"                 function); a string the run kept (args string N)",
	"                 as the parameter's value, filename=\"/etc/passwd\";",
	"                 a struct it kept (args struct N LEN) as its members,",
	"                 how={.flags=32768, .mode=0, .resolve=0};",
	"                 pointers 'hidden' without CAP_SYSLOG; a",
	"                 function no source knows in hex. The types: this",
	"                 kernel's /sys/kernel/btf/vmlinux, and a module's",
	"                 /sys/kernel/btf/MODULE, unless --btf says otherwise",
	"  --btf FILE     (implies --types) BTF: a vmlinux's (raw, as",
	"                 /sys/kernel/btf/vmlinux, or an ELF file's .BTF); again",
	"                 for modules' BTF, read as split over the first",
	"  --dwarf FILE   (implies --types) the DWARF of a vmlinux or module",
	"                 built with debug information, for functions no BTF has",
	"  --proto FILE   (implies --types) prototypes, a line each, for",
	"                 functions neither has: 'int my_fn(unsigned int flags,",
	"                 const char *name)' (Documentation/types.rst)",
	"  --max-rows N   keep at most N rows (default 16777216, the largest log",
	"                 kft keeps); a longer log is an error",
	"  -V             verbose: say what was read",
	"  -h, --help     this help",
	"  --version      kft's version",
	"",
	"Examples:",
	"  kd kft.log                         top functions by total time",
	"  kd -l -n 20 -s l kft.log           20 functions with most local time",
	"  kd -c -l -m kallsyms.txt kft.log   call tree, raw log, guest symbols",
	"  kd --flamegraph kft.log >kft.svg   open it in a browser",
	"  kd --flamegraph --snapshots --title 'Deepest stacks' kft.log >s.svg",
	"  kd --folded kft.log | flamegraph.pl >kft.svg",
	"  kd --flamegraph --weigh wall kft.log >wall.svg  offcpu's: time asleep too",
	"  kd -f Fctbq -s b kft.log           offcpu's: most time blocked first",
	"  kd --json kft.log >kft.json        then open it in ui.perfetto.dev",
	"  kd --svg kft.log >kft-timeline.svg open it in a browser",
	"  kd -c -l console.txt               the calls an oops interrupted",
	"  kd -c -m kallsyms --srcline vmlinux --srcline kft_test.ko kft.log",
	"                                     each call's source line, its caller's",
	"  kd -c -m /proc/kallsyms --types /proc/kft_data  calls of a run with args, typed",
	NULL,
};

void kd_usage(FILE *out)
{
	int i;

	for (i = 0; kd_usage_text[i]; i++)
		fprintf(out, "%s\n", kd_usage_text[i]);
}

static int kd_number(const char *s, long long min, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno || end == s || *end || *v < min ? -1 : 0;
}

static int kd_all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static const char *const kd_weigh_names[] = {
	[KD_WEIGH_WALL] = "wall", [KD_WEIGH_ONCPU] = "oncpu", [KD_WEIGH_OFFCPU] = "offcpu",
};

static int kd_parse_weigh(const char *s, struct kd_params *p, char *err, size_t errlen)
{
	size_t i;

	for (i = KD_WEIGH_WALL; i < sizeof(kd_weigh_names) / sizeof(kd_weigh_names[0]); i++) {
		if (!strcmp(s, kd_weigh_names[i])) {
			p->weigh = (enum kd_weigh)i;
			return 0;
		}
	}
	snprintf(err, errlen, "--weigh: wall, oncpu or offcpu, not '%s'", s);
	return -1;
}

#define KD_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The options that choose a mode, each as kd's messages name its mode. */
static const struct kd_mode_opt {
	int opt;		/* getopt_long's value */
	enum kd_mode mode;
	const char *name;
} kd_mode_opts[] = {
	{ 'c', KD_CALLTREE, "-c" }, { 'P', KD_TASKS, "-P" }, { 'F', KD_FOLDED, "--folded" },
	{ 'L', KD_FLAMEGRAPH, "--flamegraph" }, { 'J', KD_JSON, "--json" }, { 'G', KD_SVG, "--svg" },
};

/* The option that chose @mode; NULL for the summary, which none chooses. */
static const char *kd_mode_name(enum kd_mode mode)
{
	size_t i;

	for (i = 0; i < KD_ARRAY_SIZE(kd_mode_opts); i++)
		if (kd_mode_opts[i].mode == mode)
			return kd_mode_opts[i].name;
	return NULL;
}

/*
 * The mode option @opt: its mode into p, unless another option chose
 * another mode already, which this one would silently replace: -1 then.
 */
static int kd_set_mode(struct kd_params *p, int opt, char *err, size_t errlen)
{
	const struct kd_mode_opt *m = kd_mode_opts;

	while (m->opt != opt)
		m++;
	if (p->mode != KD_SUMMARY && p->mode != m->mode) {
		snprintf(err, errlen, "%s: not with %s (one mode at a time)", m->name,
			 kd_mode_name(p->mode));
		return -1;
	}
	p->mode = m->mode;
	return 0;
}

#define KD_IN(mode)	(1u << (mode))

/*
 * The options that only some modes take. Any other mode would ignore
 * such an option, so kd refuses it there and names both options.
 */
static const struct kd_mode_bound {
	unsigned int given;	/* enum kd_given */
	unsigned int modes;	/* KD_IN() of each mode that takes it */
	const char *name;
	const char *modes_text;	/* those modes, as the message names them */
} kd_mode_bound[] = {
	{ KD_GIVEN_FIELDS, KD_IN(KD_SUMMARY) | KD_IN(KD_CALLTREE), "-f", "-c or the summary" },
	{ KD_GIVEN_LONG, KD_IN(KD_SUMMARY) | KD_IN(KD_CALLTREE), "-l", "-c or the summary" },
	{ KD_GIVEN_TOP, KD_IN(KD_SUMMARY) | KD_IN(KD_TASKS), "-n", "the summary or -P" },
	{ KD_GIVEN_MIN_TIME, KD_IN(KD_SUMMARY), "-t", "the summary" },
	{ KD_GIVEN_SORT, KD_IN(KD_SUMMARY), "-s", "the summary" },
	{ KD_GIVEN_INTERLACE, KD_IN(KD_CALLTREE), "-i", "-c" },
	{ KD_GIVEN_DEPTH, KD_IN(KD_CALLTREE), "-d", "-c" },
	{ KD_GIVEN_WIDTH, KD_IN(KD_CALLTREE), "-m N (--width N)", "-c" },
	{ KD_GIVEN_SNAPSHOTS, KD_IN(KD_FOLDED) | KD_IN(KD_FLAMEGRAPH), "--snapshots",
	  "--folded or --flamegraph" },
	{ KD_GIVEN_WEIGH, KD_IN(KD_FOLDED) | KD_IN(KD_FLAMEGRAPH), "--weigh",
	  "--folded or --flamegraph" },
	{ KD_GIVEN_TITLE, KD_IN(KD_FLAMEGRAPH), "--title", "--flamegraph" },
	{ KD_GIVEN_SRCLINE, KD_IN(KD_SUMMARY) | KD_IN(KD_CALLTREE) | KD_IN(KD_JSON), "--srcline",
	  "-c, --json or the summary" },
	{ KD_GIVEN_TYPES, KD_IN(KD_CALLTREE), "--types, --btf, --dwarf, --proto", "-c" },
};

/* getopt_long's value @opt: the bit of kd_params.given it sets (0: none). */
static unsigned int kd_given_of(int opt)
{
	switch (opt) {
	case 'f': return KD_GIVEN_FIELDS;
	case 'l': return KD_GIVEN_LONG;
	case 'n': return KD_GIVEN_TOP;
	case 't': return KD_GIVEN_MIN_TIME;
	case 's': return KD_GIVEN_SORT;
	case 'i': return KD_GIVEN_INTERLACE;
	case 'd': return KD_GIVEN_DEPTH;
	case 'W': return KD_GIVEN_WIDTH;	/* (-m N: kd_parse_map_or_width()) */
	case 'S': return KD_GIVEN_SNAPSHOTS;
	case 'w': return KD_GIVEN_WEIGH;
	case 'T': return KD_GIVEN_TITLE;
	case SRCLINE_OPT: return KD_GIVEN_SRCLINE;
	case 'Y': case 'B': case 'E': case 'O': return KD_GIVEN_TYPES;
	default: return 0;
	}
}

/* Each option given with a mode that takes it; -1 with a message naming both if not. */
static int kd_check_modes(const struct kd_params *p, char *err, size_t errlen)
{
	const char *mode = kd_mode_name(p->mode);
	size_t i;

	if (p->mode == KD_TASKS &&
	    (p->given & (KD_GIVEN_FIELDS | KD_GIVEN_LONG | KD_GIVEN_SORT | KD_GIVEN_MIN_TIME))) {
		snprintf(err, errlen, "-P: no -f, -l, -s or -t (its columns are fixed)");
		return -1;
	}
	for (i = 0; i < KD_ARRAY_SIZE(kd_mode_bound); i++) {
		const struct kd_mode_bound *b = &kd_mode_bound[i];

		if (!(p->given & b->given) || (b->modes & KD_IN(p->mode)))
			continue;
		/* (The summary has no option to name.) */
		snprintf(err, errlen, "%s: only with %s%s%s", b->name, b->modes_text,
			 mode ? ", not with " : "", mode ? mode : "");
		return -1;
	}
	if (p->weigh && p->snapshots) {
		snprintf(err, errlen, "--weigh: not with --snapshots (a snapshot weighs 1)");
		return -1;
	}
	return 0;
}

/* -f's letters and -s's letter, in the mode that takes them (kd_check_modes()). */
static int kd_check_fields(const struct kd_params *p, char *err, size_t errlen)
{
	const char *allowed = p->mode == KD_CALLTREE ? "etlpoqbr" : "FctarslmnueoqbOQBS";
	const char *f;

	for (f = p->fields; f && *f; f++) {
		if (!strchr(allowed, *f)) {
			snprintf(err, errlen, "-f: no column '%c' in this mode (%s)", *f, allowed);
			return -1;
		}
	}
	if (p->sort && !strchr("FctasleoqbOQB", p->sort)) {
		snprintf(err, errlen, "-s: cannot sort by '%c' (F c t a s l e o q b O Q B)", p->sort);
		return -1;
	}
	return 0;
}

/* -n, -t, -d and --width (@opt 'W'): their numbers into p; 0, or -1 with a message. */
static int kd_parse_number(struct kd_params *p, int opt, char *err, size_t errlen)
{
	long long v;

	/* (A depth or a width is an int: no larger one wraps.) */
	if (kd_number(optarg, opt == 'd' || opt == 'W' ? 1 : 0, &v) ||
	    ((opt == 'd' || opt == 'W') && v > INT_MAX)) {
		snprintf(err, errlen, "-%c: bad number '%s'", opt == 'W' ? 'm' : opt, optarg);
		return -1;
	}
	if (opt == 'n')
		p->top = v;
	else if (opt == 't')
		p->min_time = v;
	else if (opt == 'd')
		p->max_depth = (int)v;
	else
		p->name_width = (int)v;
	return 0;
}

/* -m: a number is the call tree's width (as the original kd's), anything else the map. */
static int kd_parse_map_or_width(struct kd_params *p, char *err, size_t errlen)
{
	long long v;

	if (!kd_all_digits(optarg) || kd_number(optarg, 1, &v)) {
		p->map = optarg;
		return 0;
	}
	if (v > INT_MAX) {
		snprintf(err, errlen, "-m: bad number '%s'", optarg);
		return -1;
	}
	p->name_width = (int)v;
	p->given |= KD_GIVEN_WIDTH;
	return 0;
}

/* --max-rows (@opt 'R') and --dump ('D'): their numbers into p; 0, or -1 with a message. */
static int kd_parse_limit(struct kd_params *p, int opt, char *err, size_t errlen)
{
	long long v;

	if (opt == 'R' && kd_number(optarg, 1, &v)) {
		snprintf(err, errlen, "--max-rows: bad number '%s'", optarg);
		return -1;
	}
	if (opt == 'D' && (kd_number(optarg, 1, &v) || v > 0x7fffffff)) {
		snprintf(err, errlen, "--dump: bad number '%s' (1 for the first)", optarg);
		return -1;
	}
	if (opt == 'R')
		p->max_rows = (size_t)v;
	else
		p->dump = (unsigned int)v;
	return 0;
}

/* The options with nothing to check: getopt_long's value @opt (and optarg) into p. */
static void kd_parse_plain(struct kd_params *p, int opt)
{
	switch (opt) {
	case 'S':
		p->snapshots = 1;
		break;
	case 'T':
		p->title = optarg;
		break;
	case 'Y':
		p->types.wanted = true;
		break;
	case 'f':
		p->fields = optarg;
		break;
	case 'l':
		p->long_fields = 1;
		break;
	case 'i':
		p->interlace = 1;
		break;
	case 'V':
		p->verbose = 1;
		break;
	case 'M':
		p->map = optarg;
		break;
	}
}

/*
 * getopt_long's value @opt (and optarg) into p: 0, 1 when the parse ends
 * there (-h, --version), or -1 with a message.
 */
static int kd_parse_opt(struct kd_params *p, int opt, char *err, size_t errlen)
{
	switch (opt) {
	case 'c': case 'P': case 'F': case 'J': case 'G': case 'L':
		return kd_set_mode(p, opt, err, errlen);
	case 'w':
		return kd_parse_weigh(optarg, p, err, errlen);
	case SRCLINE_OPT:
		return srcline_files__add(&p->srcline, "kd", optarg, err, errlen);
	case 'B': case 'E': case 'O':
		return typedlog_files__option(&p->types, opt, optarg, err, errlen);
	case 'n': case 't': case 'd': case 'W':
		return kd_parse_number(p, opt, err, errlen);
	case 'm':
		return kd_parse_map_or_width(p, err, errlen);
	case 'R': case 'D':
		return kd_parse_limit(p, opt, err, errlen);
	case 's':
		if (strlen(optarg) != 1) {
			snprintf(err, errlen, "-s takes one column letter");
			return -1;
		}
		p->sort = optarg[0];
		return 0;
	case 'h': case 'v':
		p->help = opt == 'h';
		p->version = opt == 'v';
		return 1;
	default:
		kd_parse_plain(p, opt);
		return 0;
	}
}

/* No side effects beyond getopt's state: fills p, or -1 with a message. */
int kd_parse_args(int argc, char **argv, struct kd_params *p, char *err, size_t errlen)
{
	static const struct option longs[] = {
		{ "folded", no_argument, NULL, 'F' },
		{ "per-process", no_argument, NULL, 'P' },
		{ "json", no_argument, NULL, 'J' },
		{ "svg", no_argument, NULL, 'G' },
		{ "flamegraph", no_argument, NULL, 'L' },
		{ "snapshots", no_argument, NULL, 'S' },
		{ "title", required_argument, NULL, 'T' },
		{ "weigh", required_argument, NULL, 'w' },
		{ "map", required_argument, NULL, 'M' },
		{ "width", required_argument, NULL, 'W' },
		{ "max-rows", required_argument, NULL, 'R' },
		{ "dump", required_argument, NULL, 'D' },
		SRCLINE_LONG_OPTION,
		{ "types", no_argument, NULL, 'Y' },
		TYPEDLOG_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, at, ret;

	memset(p, 0, sizeof(*p));
	p->max_depth = 20;
	p->name_width = 40;
	p->max_rows = KFTLOG_MAX_ROWS;
	/* 0, not 1: glibc forgets the rest of an earlier parse (the tests parse many). */
	optind = 0;
	while ((opt = opterr_next(argc, argv, "+:cPf:ln:t:s:id:m:Vh", longs, &at)) != -1) {
		if (opt == '?' || opt == ':')
			return opterr_message(NULL, longs, opt, argv[at], err, errlen);
		p->given |= kd_given_of(opt);
		ret = kd_parse_opt(p, opt, err, errlen);
		if (ret)
			return ret < 0 ? -1 : 0;
	}
	if (opterr_operands(NULL, argc, argv, "FILE", err, errlen))
		return -1;
	if (argc - optind > 1) {
		snprintf(err, errlen, "more than one FILE");
		return -1;
	}
	p->file = argc > optind ? argv[optind] : NULL;
	return kd_check_modes(p, err, errlen) || kd_check_fields(p, err, errlen) ? -1 : 0;
}

int kd_output(FILE *out, const struct kd_tree *t, const struct kd_params *p)
{
	switch (p->mode) {
	case KD_CALLTREE: return kd_calltree(out, t, p);
	case KD_FOLDED: return kd_folded(out, t, p);
	case KD_FLAMEGRAPH: return kd_flamegraph(out, t, p);
	case KD_JSON: return kd_json(out, t);
	case KD_SVG: return kd_svg(out, t);
	case KD_TASKS: return kd_tasks(out, t, p);
	default: return kd_summary(out, t, p);
	}
}

/* The program proper: the unit tests link the rest without it. */
#ifndef KD_NO_MAIN
#include <sys/stat.h>

#include "closeout.h"
#include "kftrec.h"
#include "symbolize.h"
#include "version.h"

/* A console's dump: whether it has rows, and what was read, as -V says it. */
static int kd_check_dump(const struct kftlog *log, const char *name,
			 const struct kftcon_info *info, const struct kd_params *p)
{
	if (!kftlog_scan_is_log(&log->scan)) {
		fprintf(stderr, "kd: %s:%u: the last calls before %s have no rows (no "
			"'kft: | --------' line, or no row after it)\n", name, info->start_line,
			info->why);
		return -1;
	}
	if (p->verbose)
		fprintf(stderr, "kd: %s: a console: the last calls before %s, line %u, dump "
			"%u of %u: %zu rows, %zu skipped\n", name, info->why, info->start_line,
			info->chosen, info->dumps, log->nr, log->scan.malformed);
	return 0;
}

/* Whether kd has an output for log in p's mode; if not, says why. */
static int kd_check_log(const struct kftlog *log, const char *name,
			const struct kftcon_info *info, const struct kd_params *p)
{
	if (info->console)
		return kd_check_dump(log, name, info, p);
	if (p->dump) {
		fprintf(stderr, "kd: %s: --dump: no last calls in it (no 'kft: === last "
			"calls before' line): it is no saved console\n", name);
		return -1;
	}
	if (log->scan.count_mode) {
		fprintf(stderr, "kd: %s is a count-mode log (mode count): its rows are "
			"already a summary; kd analyzes trace logs\n", name);
		return -1;
	}
	if (log->scan.stacks_mode && p->weigh) {
		fprintf(stderr, "kd: %s is a stacks-mode log (mode stacks or profile): its "
			"stacks are counted, not timed; --weigh splits a trace log's times\n", name);
		return -1;
	}
	if (log->scan.stacks_mode && p->mode != KD_FOLDED && p->mode != KD_FLAMEGRAPH) {
		fprintf(stderr, "kd: %s is a stacks-mode log (mode stacks or profile): its "
			"blocks are counted stacks, not calls; kd --folded and kd --flamegraph "
			"draw them\n", name);
		return -1;
	}
	if (!log->scan.stacks_mode && kftlog_scan_empty(&log->scan)) {
		fprintf(stderr, "kd: %s %s: no kft log (a log starts with its header)\n", name,
			kftlog_scan_empty(&log->scan));
		return -1;
	}
	if (!log->scan.stacks_mode && !kftlog_scan_is_log(&log->scan) && info->stray) {
		fprintf(stderr, "kd: no kft log rows found in %s: its line %u is one of kft's "
			"last calls ('kft: | '), but no line begins them ('kft: === last calls "
			"before'): the console lost it\n", name, info->stray_line);
		return -1;
	}
	if (!log->scan.stacks_mode && !kftlog_scan_is_log(&log->scan)) {
		fprintf(stderr, "kd: no kft log rows found in %s\n", name);
		return -1;
	}
	if (p->verbose && log->scan.stacks_mode)
		fprintf(stderr, "kd: %s: %zu blocks (stacks and events), %zu frames, %zu lines "
			"skipped\n", name, log->stacks.nr, log->stacks.nr_frames,
			log->scan.malformed);
	else if (p->verbose)
		fprintf(stderr, "kd: %s: %zu rows, %zu skipped\n", name, log->nr,
			log->scan.malformed);
	return 0;
}

/* --weigh splits the times that only a run with offcpu logs: not there, it says so. */
static int kd_check_weigh(const struct kd_tree *t, const char *name, const struct kd_params *p)
{
	if (!p->weigh || t->has_sched)
		return 0;
	fprintf(stderr, "kd: %s: --weigh %s: the log has no offcpu times (oncpu= runnable= "
		"blocked=, which a run with offcpu writes)\n", name, kd_weigh_names[p->weigh]);
	return -1;
}

/*
 * Why reading failed (errno: EFBIG is the row limit, ENOENT no such dump,
 * flame.h's its own; EBADMSG from a record file's text, @converted, a
 * damaged row that kftrec__text_of() said already).
 */
static void kd_read_error(const char *name, const struct kftcon_info *info,
			  const struct kd_params *p, bool converted)
{
	if (converted && errno == EBADMSG)
		return;
	if (errno == ENOENT && info->console)
		fprintf(stderr, "kd: %s: --dump %u: it has %u dump%s of last calls\n", name,
			p->dump, info->dumps, info->dumps == 1 ? "" : "s");
	else if (errno == EFBIG)
		fprintf(stderr, "kd: %s: over kd's limit of %zu rows (or of %zu bytes of "
			"distinct names): --max-rows N raises it\n", name, p->max_rows,
			p->max_rows * KFTLOG_NAME_BYTES_PER_ROW);
	else
		fprintf(stderr, "kd: %s: %s\n", name, flame__strerror(errno));
}

/* Which of a console's dumps is read, when it has several and none was asked for. */
static void kd_say_dump(const char *name, const struct kftcon_info *info,
			const struct kd_params *p)
{
	if (info->console && info->dumps > 1 && !p->dump)
		fprintf(stderr, "kd: %s: %u dumps of last calls: the last is read, of line %u "
			"(before %s); --dump N reads the Nth\n", name, info->dumps,
			info->start_line, info->why);
	if (info->console && info->stray)
		fprintf(stderr, "kd: warning: %s:%u: %u of kft's lines of last calls ('kft: | ') "
			"outside any dump, ignored (its first line lost?)\n", name,
			info->stray_line, info->stray);
}

/* p's output of log (checked), to standard output; 0 or 1, as kd exits. */
static int kd_run_log(const struct kd_params *p, const struct kftlog *log, const char *name,
		      const struct kftcon_info *info, const struct ksyms *ks, struct srcline *sl,
		      struct typedlog *types)
{
	struct kd_tree tree;
	int ret;

	kd_say_dump(name, info, p);
	if (kd_check_log(log, name, info, p))
		return 1;
	/* A warning, as for a log cut short: the user may know better. */
	if (p->map)
		symbolize_check_kernel(p->map, &log->scan, "kd", name, stderr);
	if (types)
		typedlog__check_kernel(types, log->scan.kernel, "kd", name, stderr);
	if (log->scan.stacks_mode) {
		ret = kd_stacks_output(stdout, log, ks, p);
	} else {
		if (kd_tree_build(&tree, log, ks)) {
			fprintf(stderr, "kd: out of memory\n");
			return 1;
		}
		if (sl && kd_srclines(&tree, sl, ks)) {
			fprintf(stderr, "kd: out of memory\n");
			kd_tree_free(&tree);
			return 1;
		}
		tree.types = types;
		/* 1: said already; -1: errno says why. */
		ret = kd_check_weigh(&tree, name, p) ? 1 : kd_output(stdout, &tree, p);
		kd_tree_free(&tree);
	}
	if (ret < 0)
		fprintf(stderr, "kd: %s: %s\n", name, flame__strerror(errno));
	return ret ? 1 : 0;
}

/*
 * kd --flamegraph: of a log, or of folded stacks (@converted, @cut_said:
 * a record file's text, kd_text_of()).
 */
static int kd_run_flame(const struct kd_params *p, FILE *in, const char *name,
			const struct ksyms *ks, bool converted, const int *cut_said)
{
	struct kftcon_info info;
	struct kftlog *log = NULL;
	struct flame f;
	int ret = 1;

	if (flame__init(&f, "samples")) {
		fprintf(stderr, "kd: out of memory\n");
		return 1;
	}
	if (kd_read_flame_input(in, name, stderr, p->max_rows, p->dump, cut_said, &log, &info,
				&f))
		kd_read_error(name, &info, p, converted);
	else if (log)
		ret = kd_run_log(p, log, name, &info, ks, NULL, NULL);
	else if (p->dump)
		fprintf(stderr, "kd: %s: --dump: no last calls in it (no 'kft: === last "
			"calls before' line): it is no saved console\n", name);
	else if (p->weigh)
		fprintf(stderr, "kd: %s: --weigh: folded stacks have no offcpu times to split; "
			"give kd the kft log\n", name);
	else if (!f.lines && f.malformed)
		fprintf(stderr, "kd: no folded stacks (nor a kft log) found in %s\n", name);
	else if (flame__svg(stdout, &f, p->title))
		fprintf(stderr, "kd: out of memory\n");
	else
		ret = 0;
	kftlog__free(log);
	flame__free(&f);
	return ret;
}

/* The log of p's FILE (or its console's dump: info), or NULL after saying why. */
static struct kftlog *kd_read_log(const struct kd_params *p, FILE *in, const char *name,
				  struct kftcon_info *info, bool converted, const int *cut_said)
{
	struct kftlog *log = kftcon__read(in, name, stderr, p->max_rows, p->dump, cut_said, info);

	if (!log)
		kd_read_error(name, info, p, converted);
	return log;
}

/*
 * in, or the text of the kft record file it is, which sets *cut_said
 * when it has said that the file ends inside a row; NULL after saying why.
 */
static FILE *kd_text_of(FILE *in, const char *name, int *cut_said)
{
	char kd_name[PATH_MAX + 8];

	snprintf(kd_name, sizeof(kd_name), "kd: %s", name);
	return kftrec__text_of(in, kd_name, stderr, cut_said);
}

/* The DWARF of --srcline's files, into *sl (NULL without the option); -1 after saying why. */
static int kd_load_srcline(const struct kd_params *p, struct srcline **sl)
{
	char err[PATH_MAX + 256];

	*sl = NULL;
	if (!p->srcline.nr)
		return 0;
	*sl = srcline_files__open(&p->srcline, err, sizeof(err));
	if (!*sl)
		fprintf(stderr, "kd: %s\n", err);
	return *sl ? 0 : -1;
}

/*
 * --types' sources, into *types (NULL without the option), for a log of a
 * kernel of @word_bytes (0: not known, this machine's): -1 after saying why.
 */
static int kd_load_types(const struct kd_params *p, unsigned int word_bytes,
			 struct typedlog **types)
{
	char err[PATH_MAX + 256];

	*types = NULL;
	if (!p->types.wanted)
		return 0;
	*types = typedlog__open(&p->types, TYPEDLOG_BTF_DIR, word_bytes, err, sizeof(err));
	if (!*types)
		fprintf(stderr, "kd: %s\n", err);
	return *types ? 0 : -1;
}

/*
 * Whether @path, the file of option @opt, is a directory: said, naming
 * both, before its reader's own error says less ("invalid file descriptor").
 */
static bool kd_is_directory(const char *opt, const char *path)
{
	struct stat st;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return false;
	fprintf(stderr, "kd: %s %s: %s\n", opt, path, strerror(EISDIR));
	return true;
}

/* The files the options name: -1 after saying so if one is a directory. */
static int kd_check_option_files(const struct kd_params *p)
{
	static const char *const opts[TYPEDLOG_NR_KINDS] = {
		[TYPEDLOG_BTF] = "--btf", [TYPEDLOG_DWARF] = "--dwarf", [TYPEDLOG_PROTO] = "--proto",
	};
	int i, k;

	if (p->map && kd_is_directory("-m", p->map))
		return -1;
	for (i = 0; i < p->srcline.nr; i++)
		if (kd_is_directory("--srcline", p->srcline.paths[i]))
			return -1;
	for (k = 0; k < TYPEDLOG_NR_KINDS; k++)
		for (i = 0; i < p->types.nr[k]; i++)
			if (kd_is_directory(opts[k], p->types.paths[k][i]))
				return -1;
	return 0;
}

static int kd_run(const struct kd_params *p)
{
	const char *name = p->file ? p->file : "(stdin)";
	struct kftcon_info info = { 0 };
	struct typedlog *types = NULL;
	struct srcline *sl = NULL;
	struct ksyms *ks = NULL;
	struct kftlog *log;
	FILE *in, *text;
	int ret = 1, cut_said = 0;

	if (kd_check_option_files(p))
		return 1;
	if (p->map && !(ks = ksyms__load(p->map))) {
		fprintf(stderr, "kd: %s: %s\n", p->map, ksyms__strerror(errno));
		return 1;
	}
	if (ks)
		ksyms__say_skipped(ks, "kd", p->map, stderr);
	if (ks && ksyms__hidden(ks)) {
		ksyms__say_hidden("kd", p->map, stderr);
		ksyms__free(ks);
		return 1;
	}
	if (kd_load_srcline(p, &sl)) {
		srcline__free(sl);
		ksyms__free(ks);
		return 1;
	}
	in = p->file ? fopen(p->file, "r") : stdin;
	if (!in)
		fprintf(stderr, "kd: %s: %s\n", name, strerror(errno));
	/* A kft record file is read as its text. */
	text = in ? kd_text_of(in, name, &cut_said) : NULL;
	if (!text) {
		/* (Said.) */
	} else if (p->mode == KD_FLAMEGRAPH) {
		ret = kd_run_flame(p, text, name, ks, text != in, &cut_said);
	} else if ((log = kd_read_log(p, text, name, &info, text != in, &cut_said))) {
		/* (After the log: a 32-bit kernel's is typed with its words.) */
		if (!kd_load_types(p, log->scan.word_bytes, &types))
			ret = kd_run_log(p, log, name, &info, ks, sl, types);
		kftlog__free(log);
	}
	if (text && text != in)
		fclose(text);
	if (in && in != stdin)
		fclose(in);
	if (close_stdout("kd"))
		ret = 1;
	typedlog__free(types);
	srcline__free(sl);
	ksyms__free(ks);
	return ret;
}

int main(int argc, char **argv)
{
	struct kd_params p;
	char err[256];

	if (kd_parse_args(argc, argv, &p, err, sizeof(err))) {
		fprintf(stderr, "kd: %s\nkd: kd --help lists the options\n", err);
		return 2;
	}
	if (p.help) {
		kd_usage(stdout);
		return close_stdout("kd") ? 1 : 0;
	}
	if (p.version)
		return print_version("kd");
	return kd_run(&p);
}
#endif

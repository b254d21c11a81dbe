// SPDX-License-Identifier: GPL-2.0
/*
 * kft's usage texts, a string array per subcommand (with an Examples
 * block each), and the table of subcommands by name.
 */
#include <string.h>

#include "kft.h"

static const char *const kft_usage_main[] = {
	"usage: kft COMMAND [options]",
	"",
	"Drives the kft kernel module (/proc/kft, /proc/kft_data); needs root.",
	"",
	"Commands:",
	"  trace [-o FILE] CONFIG|-   run a configuration (a file, or standard",
	"                             input) to its end or Ctrl-C, then save the",
	"                             log, symbolized with /proc/kallsyms",
	"  funccount [-hMT] [-i secs] [-d secs] [-t top] PATTERN...",
	"                             count the calls of kernel functions",
	"  stackcount [options] PATTERN...",
	"                             count the kernel stacks that call them",
	"  stacksnoop [-hM] [-p PID] [-s] [-v] FUNCTION",
	"                             print the kernel stack of each call",
	"  profile [options] [duration]",
	"                             sample the kernel stacks on the CPUs",
	"  funclatency [-hFMTmu] [-i secs] [-d secs] [-p PID] PATTERN...",
	"                             histograms of the functions' durations",
	"  errtrace [-h] [--fast] [-d secs] [-e ERRNO] [-p PID] [-c COMM] [-n calls]",
	"           FUNCTION...",
	"                             where the errors the functions return",
	"                             come from",
	"  status                     print the state of the run (/proc/kft)",
	"  stop                       stop the run",
	"  clear                      drop the run and free its memory",
	"  --version                  kft's version (of the tools; the module's",
	"                             is in kft status)",
	"",
	"'kft COMMAND -h' shows a command's options. stackcount, stacksnoop and",
	"profile take the options of bcc's tools of those names. funccount,",
	"funclatency and those name functions as bcc does, a module's too",
	"(-M: module:name, as trace and errtrace name them). All but status,",
	"stop and clear refuse to replace a run that is primed or running, and",
	"hold a lock (an flock on /proc/kft) so that two kft commands cannot race.",
	"",
	"Environment:",
	"  KFT_PROC=DIR   read kft, kft_data, kallsyms (and, for trace's globs,",
	"                 available_filter_functions) in DIR, not /proc and",
	"                 tracefs (tests on fake files; writes to DIR/kft are",
	"                 appended, the lock is on DIR/kft); a setuid kft ignores it",
	"",
	"Examples:",
	"  kft trace -o kft.log open.cfg     trace as open.cfg says, save the log",
	"  kft funccount 'vfs_*'             count vfs_* calls until Ctrl-C",
	"  kft funccount -i 1 -t 5 'tcp_*'   the top 5 tcp_* functions every second",
	"  kft stackcount -P submit_bio      the stacks to submit_bio, per process",
	"  kft profile -f 10 | kd --flamegraph >p.svg   10 s of samples, a flame graph",
	"  kft errtrace -e ENOENT do_sys_openat2   where open()'s ENOENTs come from",
	"  kft status                        what the module is doing",
	"  kft stop; kft clear               end the run; free its memory",
	NULL,
};

static const char *const kft_usage_trace[] = {
	"usage: kft trace [-o FILE] CONFIG|-",
	"",
	"Writes the configuration CONFIG (a file; '-': standard input; at most",
	"65536 bytes, the language of Documentation/kft.rst) to /proc/kft, primes",
	"the run (or starts it, when it has no start trigger), waits until it is",
	"complete (a stop trigger, a full log) or Ctrl-C (which stops it), and",
	"writes /proc/kft_data with its addresses symbolized by /proc/kallsyms",
	"(as addr2sym does). The run stays, for kft status; kft clear frees it.",
	"Where the module refuses globs (kretprobes, kernel 6.1), kft names each",
	"glob's functions from /proc/kallsyms and available_filter_functions",
	"(at most 512 functions) and writes the configuration again.",
	"",
	"  -o FILE  write the log to FILE (default: standard output); FILE is",
	"           emptied only when the log is there: a command that fails",
	"           before keeps what FILE had",
	"  -h       this help",
	"",
	"Examples:",
	"  kft trace -o kft.log open.cfg && kd -c kft.log",
	"  printf 'new begin filter funclist vfs_* fend end' | kft trace - | kd",
	NULL,
};

static const char *const kft_usage_funccount[] = {
	"usage: kft funccount [-hMT] [-i secs] [-d secs] [-t top] PATTERN...",
	"",
	"Counts the calls of the kernel functions that match the PATTERNs (names,",
	"globs such as 'vfs_*', module:name) in the kernel, per CPU, until",
	"Ctrl-C or the end of -d, then prints FUNC and COUNT, ascending by count",
	"(the largest last). Functions are named as bcc names them, those of",
	"modules too; -M names those module:name.",
	"",
	"  -d seconds   total duration of the count",
	"  -h           this usage message",
	"  -i seconds   a summary every interval, of the calls in that interval",
	"  -M, --module module functions as module:name",
	"  -t top       show the top num entries only",
	"  -T           include a timestamp (for -i)",
	"",
	"Seconds may have decimals (-i 0.5). Counts are the module's, summed over",
	"the CPUs; -i summaries are differences of its counts, so no call is",
	"lost or counted twice between two of them. When another writer of",
	"/proc/kft primes the run again (its counts begin again), kft says so",
	"and exits 1, leaving the run to it, instead of subtracting across that.",
	"",
	"Examples:",
	"  kft funccount 'vfs*'              trace all funcs that match \"vfs*\"",
	"  kft funccount -d 5 'tcp*'         trace \"tcp*\" funcs for 5 seconds",
	"  kft funccount -t 10 'ext4*'       show top 10 \"ext4*\" funcs",
	"  kft funccount -i 1 'ext4*'        summary every 1 second",
	"  kft funccount -i 1 -d 5 'ext4*'   5 x 1 second summaries",
	"  kft funccount vfs_read ext4:ext4_file_read_iter",
	NULL,
};

static const char *const kft_usage_stackcount[] = {
	"usage: kft stackcount [-h] [-p PID] [-c CPU] [-i INTERVAL] [-D DURATION] [-T]",
	"                      [-r] [-s] [-P] [-K] [-M] [-U] [-v] [-d] [-f] [--debug]",
	"                      PATTERN...",
	"",
	"Counts the distinct kernel stacks at each call of the kernel functions",
	"that match the PATTERNs (names, globs such as 'vfs_*', module:name), as",
	"bcc's stackcount does, until Ctrl-C or the end of -D; then prints each",
	"stack, innermost frame first, and its count, the least counted first (the",
	"largest last). Functions are named as bcc names them, those of modules",
	"too; -M names those module:name.",
	"",
	"  -c, --cpu CPU             trace this CPU only",
	"  -d, --delimited           accepted: kft has kernel stacks only, so there",
	"                            is nothing to delimit (as bcc's -K -d)",
	"  -D, --duration SECONDS    total duration of trace",
	"  -f, --folded              output folded format: [comm;]outer;...;inner COUNT",
	"  -h, --help                this help",
	"  -i, --interval SECONDS    summary interval: the stacks counted in each",
	"  -K, --kernel-stacks-only  kernel stacks only (the default: kft's only ones)",
	"  -M, --module              module functions as module:name",
	"  -p, --pid PID             trace this process only",
	"  -P, --perpid              display stacks separately for each process",
	"  -r, --regexp              the PATTERNs are regular expressions (see below)",
	"  -s, --offset              show address offsets",
	"  -T, --timestamp           include timestamp on output",
	"  -U, --user-stacks-only    refused: the kernel lets modules walk no user stack",
	"  -v, --verbose             show raw addresses",
	"      --debug               print the configuration written to /proc/kft",
	"",
	"Seconds may have decimals. -i summaries are differences of the module's",
	"counts, which only grow during a run: no call is lost or counted twice",
	"between two of them (a run primed again by another writer of /proc/kft",
	"ends kft with exit 1, saying so). A regular expression (-r) matches from",
	"the start of a name, as bcc's does; kft writes it as globs when one can",
	"say the same (name characters, '\\.', '.', '.*', '.+', [classes], '^',",
	"'$', '|'), and refuses it, saying why, otherwise.",
	"",
	"Examples:",
	"  kft stackcount submit_bio         count kernel stack traces for submit_bio",
	"  kft stackcount -s ip_output       show symbol offsets",
	"  kft stackcount -sv ip_output      show offsets and raw addresses (verbose)",
	"  kft stackcount 'tcp_send*'        count stacks for funcs matching tcp_send*",
	"  kft stackcount -r '^tcp_send.*'   same as above, using regular expressions",
	"  kft stackcount -Ti 5 ip_output    output every 5 seconds, with timestamps",
	"  kft stackcount -p 185 ip_output   count ip_output stacks for PID 185 only",
	"  kft stackcount -c 1 put_prev_entity   count its stacks for CPU 1 only",
	"  kft stackcount -Pf vfs_read | kd --flamegraph >s.svg   per process, a flame graph",
	NULL,
};

static const char *const kft_usage_stacksnoop[] = {
	"usage: kft stacksnoop [-h] [-M] [-p PID] [-s] [-v] FUNCTION",
	"",
	"Prints the kernel stack of every call of FUNCTION (a name, a glob,",
	"module:name), as bcc's stacksnoop did, as the calls happen (kft reads",
	"them ten times a second) until Ctrl-C: the time in seconds since the",
	"start and the function, then its stack innermost frame first, a frame a",
	"line after a tab, then a blank line. Calls that come faster than kft",
	"keeps between two reads (65536) are lost, and their number is printed on",
	"standard error at the end: for frequent functions, use kft stackcount.",
	"",
	"  -h, --help     this help",
	"  -M, --module   module functions as module:name (bcc: the bare name)",
	"  -p, --pid PID  trace this process only",
	"  -s, --offset   show address offsets",
	"  -v, --verbose  print more fields: COMM, PID, CPU",
	"",
	"Examples:",
	"  kft stacksnoop ext4_sync_fs          print kernel stack traces for ext4_sync_fs",
	"  kft stacksnoop -s ext4_sync_fs       ... also show symbol offsets",
	"  kft stacksnoop -v ext4_sync_fs       ... show extra columns",
	"  kft stacksnoop -p 185 ext4_sync_fs   ... only for PID 185",
	NULL,
};

static const char *const kft_usage_profile[] = {
	"usage: kft profile [-h] [-p PID | -L TID] [-K] [-U] [-F FREQUENCY] [-a] [-I]",
	"                   [-f] [-C CPU] [-d] [-M] [--stack-storage-size N] [duration]",
	"",
	"Samples the kernel stack of what runs on each CPU FREQUENCY times a second",
	"(kft's profile mode: a timer per CPU), as bcc's profile does, for duration",
	"seconds or until Ctrl-C; then prints each distinct stack (innermost frame",
	"first), its process and its number of samples, the least sampled first.",
	"A sample taken in user space has no kernel stack: its process line alone",
	"(folded: the comm alone). Idle CPUs are not sampled unless -I.",
	"",
	"  -a, --annotations          add _[k] annotations to kernel frames (-f)",
	"  -C, --cpu CPU              sample this CPU only",
	"  -d, --delimited            accepted: kernel stacks only, nothing to delimit",
	"  -f, --folded               output folded format, one line per stack",
	"  -F, --frequency FREQUENCY  sample frequency, Hertz (default 49, at most 10000)",
	"  -h, --help                 this help",
	"  -I, --include-idle         include CPU idle stacks",
	"  -K, --kernel-stacks-only   kernel stacks only (the default: kft's only ones)",
	"  -L, --tid TID              profile this thread only",
	"  -M, --module               module functions as module:name (bcc: bare)",
	"  -p, --pid PID              profile this process only",
	"  -U, --user-stacks-only     refused: the kernel lets modules walk no user stack",
	"      --stack-storage-size N the most distinct stacks kept (default 16384)",
	"",
	"Refused, saying why: -c COUNT (kft samples by time, not by events),",
	"--hash-storage-size (one table: --stack-storage-size), --cgroupmap and",
	"--mntnsmap (BPF maps), lists of PIDs or TIDs (one of each).",
	"",
	"Examples:",
	"  kft profile             profile stack traces at 49 Hertz until Ctrl-C",
	"  kft profile -F 99       profile stack traces at 99 Hertz",
	"  kft profile 5           profile at 49 Hertz for 5 seconds only",
	"  kft profile -f 5        output in folded format for flame graphs",
	"  kft profile -p 185      only profile process with PID 185",
	"  kft profile -L 185      only profile thread with TID 185",
	"  kft profile -af 10 | kd --flamegraph >profile.svg",
	NULL,
};

static const char *const kft_usage_errtrace[] = {
	"usage: kft errtrace [-h] [--fast] [-d secs] [-e ERRNO] [-p PID] [-c COMM]",
	"                    [-n calls] FUNCTION...",
	"",
	"Traces every kernel function, keeping only the calls that return an error",
	"(-4095..-1: the run's filter errors), and for each error a FUNCTION (a",
	"name, module:name or glob of /proc/kallsyms) returns, prints once the",
	"chain of calls beneath it that returned the same error, down to the",
	"deepest: where the error came from. Innermost first, each call with its",
	"duration and its caller (name+offset), then the task, its pid, the CPU",
	"and the time (seconds since boot, CLOCK_MONOTONIC). Beneath a call, the",
	"chain follows the call with the same error that returned last. Until",
	"Ctrl-C or -d. The run gets the module's default hooks (its parameter",
	"hooks: the kernel's own unless it was loaded with hooks=fast, or the",
	"kernel has none, as riscv64); --fast asks for kft's own",
	"(Documentation/kft.rst, \"hooks\"). The kernel's cannot trace every",
	"function where they are kretprobes (x86-64's 6.1, arm64's 6.12, 32-bit",
	"ARM's 6.1): errtrace says so, and that --fast can. It",
	"names calls by their addresses, which the log hides from a reader",
	"without CAP_SYSLOG: it says so too, and exits 1.",
	"",
	"  -d SECS   trace for SECS seconds (default: until Ctrl-C)",
	"  -e ERRNO  only this error: a name (ENOENT, EINVAL, ERESTARTSYS) or a",
	"            number (2 or -2)",
	"  -p PID    only the calls of this process (filter pid)",
	"  -c COMM   only the calls of tasks of this name (filter comm)",
	"  -n CALLS  the log's size (default 65536, 40 bytes each): the errors",
	"            of every function are kept, a full log is shown and",
	"            started again (errors while it restarts are lost: said)",
	"  --fast    kft's own exit hooks (hooks fast; every kernel kft",
	"            supports but 5.10): every call costs far less, but while a call",
	"            is timed, stack traces of its task stop at kft, and rmmod",
	"            waits for kft clear",
	"  -h        this help",
	"",
	"Examples:",
	"  kft errtrace do_sys_openat2                  the origins of open()'s errors",
	"  kft errtrace -e EINVAL -d 10 '__x64_sys_*'   system calls' EINVALs, 10 s",
	"  kft errtrace --fast do_sys_openat2           the same at less cost a call",
	"  kft errtrace -c mount path_mount             mount's errors",
	NULL,
};

static const char *const kft_usage_funclatency[] = {
	"usage: kft funclatency [-hFMTmu] [-i secs] [-d secs] [-p PID] PATTERN...",
	"",
	"Times the calls of the kernel functions PATTERN (names, module:name, globs)",
	"with the module's histogram mode (each call counted in its function's",
	"log2 bucket of duration) and prints their histogram as libbpf-tools'",
	"funclatency does (LOW -> HIGH : COUNT |stars|, in nanoseconds unless -u",
	"or -m), at Ctrl-C or the end of -d, or every -i seconds: the calls since",
	"the previous histogram (the difference of two reads: when another writer",
	"of /proc/kft primes the run again, kft says so and exits 1 instead).",
	"",
	"  -d SECS   trace for SECS seconds (default: until Ctrl-C)",
	"  -i SECS   a histogram every SECS seconds",
	"  -p PID    only the calls of this process (filter pid)",
	"  -u        microseconds",
	"  -m        milliseconds",
	"  -F        a histogram per function (Function = NAME before each)",
	"  -M        -F's module functions as module:name (bcc: the bare name)",
	"  -T        the time (HH:MM:SS) before each histogram",
	"  -h        this help",
	"",
	"Examples:",
	"  kft funclatency do_sys_openat2          open()'s time, in ns, until Ctrl-C",
	"  kft funclatency -u -i 1 'vfs_r*'        every second, in us",
	"  kft funclatency -mF -d 10 'ext4_*'      10 s, a histogram per function, ms",
	NULL,
};

static const char *const kft_usage_status[] = {
	"usage: kft status",
	"",
	"Prints /proc/kft: the run's state, configuration, counters and the last",
	"error of a write.",
	"",
	"Examples:",
	"  kft status",
	"  kft status | head -n 1",
	NULL,
};

static const char *const kft_usage_stop[] = {
	"usage: kft stop",
	"",
	"Stops the run: its log (or counts) stays readable, its hooks come off",
	"the kernel's functions. Stopping a run that is not running is no error.",
	"",
	"Examples:",
	"  kft stop",
	NULL,
};

static const char *const kft_usage_clear[] = {
	"usage: kft clear",
	"",
	"Drops the run and frees its memory: kft is then attached to nothing.",
	"",
	"Examples:",
	"  kft stop; kft clear",
	NULL,
};

static const struct {
	const char *name;
	enum kft_subcmd sub;
	const char *const *usage;
} kft_subcmds[] = {
	{ NULL, KFT_SUB_NONE, kft_usage_main },
	{ "trace", KFT_SUB_TRACE, kft_usage_trace },
	{ "funccount", KFT_SUB_FUNCCOUNT, kft_usage_funccount },
	{ "stackcount", KFT_SUB_STACKCOUNT, kft_usage_stackcount },
	{ "stacksnoop", KFT_SUB_STACKSNOOP, kft_usage_stacksnoop },
	{ "profile", KFT_SUB_PROFILE, kft_usage_profile },
	{ "errtrace", KFT_SUB_ERRTRACE, kft_usage_errtrace },
	{ "funclatency", KFT_SUB_FUNCLATENCY, kft_usage_funclatency },
	{ "status", KFT_SUB_STATUS, kft_usage_status },
	{ "stop", KFT_SUB_STOP, kft_usage_stop },
	{ "clear", KFT_SUB_CLEAR, kft_usage_clear },
};

#define KFT_NR_SUBCMDS	(sizeof(kft_subcmds) / sizeof(kft_subcmds[0]))

void kft_usage(FILE *out, enum kft_subcmd sub)
{
	const char *const *text = kft_usage_main;
	size_t i;

	for (i = 0; i < KFT_NR_SUBCMDS; i++)
		if (kft_subcmds[i].sub == sub)
			text = kft_subcmds[i].usage;
	for (i = 0; text[i]; i++)
		fprintf(out, "%s\n", text[i]);
}

const char *kft_subcmd_name(enum kft_subcmd sub)
{
	size_t i;

	for (i = 1; i < KFT_NR_SUBCMDS; i++)
		if (kft_subcmds[i].sub == sub)
			return kft_subcmds[i].name;
	return "kft";
}

enum kft_subcmd kft_subcmd_named(const char *name)
{
	size_t i;

	for (i = 1; i < KFT_NR_SUBCMDS; i++)
		if (!strcmp(name, kft_subcmds[i].name))
			return kft_subcmds[i].sub;
	return KFT_SUB_NONE;
}

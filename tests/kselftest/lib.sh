# Helpers sourced by the in-guest tests (busybox sh, run with -e).
KFT_KO=/kft/kft.ko

fail() {
	echo "FAIL: $*"
	exit 1
}

# The test needs a kernel feature this kernel lacks: skip, with the reason.
unsupported() {
	echo "$*"
	exit 4
}

# The exit hooks trace runs get by default, as the runner chose them
# (kft.hooks= on the kernel command line, from scripts/vm/run's
# KFT_VM_HOOKS): fast or safe; empty for the module's default (safe).
KFT_HOOKS=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^kft\.hooks=//p')

# Whether the kernel's exit hooks (hooks safe: fprobe or kretprobes) can be
# had: not on riscv64, whose kprobes cannot share ftrace's call site at a
# function's start (Debian 13's 6.12 has no KPROBES_ON_FTRACE, no fprobe).
# There every run gets fast hooks (bad_input checks the refusal of safe ones).
safe_hooks_here() {
	[ "$(uname -m)" != riscv64 ]
}
safe_hooks_here || KFT_HOOKS=fast

kft_load() {
	insmod "$KFT_KO" ${KFT_HOOKS:+hooks=$KFT_HOOKS} "$@" || fail "insmod $KFT_KO $*"
	grep -q '^kft ' /proc/modules || fail "kft not in /proc/modules after insmod"
}

# rmmod_when_drained SECONDS: rmmod kft, retried while it is busy. With
# fast hooks kft stays in use until the calls they timed have returned
# (Documentation/kft.rst, "hooks"): the writer of the last command may still
# be returning from them.
rmmod_when_drained() {
	# Not i: callers count with it (sh has no local variables).
	_kft_tries=0
	while ! rmmod kft 2>/dev/null; do
		_kft_tries=$((_kft_tries + 1))
		if [ $_kft_tries -ge $(($1 * 10)) ]; then
			rmmod kft
			return
		fi
		sleep 0.1
	done
}

# wait_in_call PID FUNCTION SECONDS: until the task's kernel stack shows it
# inside FUNCTION (a fixed sleep is not enough on a slow guest); false when
# it has not within SECONDS.
# (32-bit ARM's SMP kernel unwinds no other task: the stack file is empty
# there, and /proc/PID/wchan, the function it sleeps in, says it.)
wait_in_call() {
	_kft_polls=0
	until { cat "/proc/$1/stack" && echo " $(cat "/proc/$1/wchan")+"; } 2>/dev/null | grep -q " $2+"; do
		_kft_polls=$((_kft_polls + 1))
		[ $_kft_polls -lt $(($3 * 20)) ] || return 1
		sleep 0.05
	done
}

# wait_logged ADDR SECONDS: until the log has a row of the function at ADDR.
# Without a time filter a call is logged at its entry (delta -1 until it
# returns): a task running inside a call shows there, where its kernel
# stack does not (a task on another CPU has none in /proc/PID/stack).
# False when no row came within SECONDS.
wait_logged() {
	_kft_polls=0
	until kft_rows /tmp/.kft_logged && [ -n "$(rows_of /tmp/.kft_logged "$1")" ]; do
		_kft_polls=$((_kft_polls + 1))
		[ $_kft_polls -lt $(($2 * 20)) ] || return 1
		sleep 0.05
	done
}

# kft_rmmod_running: rmmod kft with a run attached. Fast hooks pin kft while
# attached: rmmod must say busy, and works after a clear.
kft_rmmod_running() {
	if grep -q '^hooks: fast' /proc/kft; then
		! rmmod kft 2>/dev/null || fail "rmmod with fast hooks attached succeeded"
		kft_write clear >/dev/null
		rmmod_when_drained 10
		return
	fi
	rmmod kft
}

kft_unload() {
	grep -q '^hooks: fast' /proc/kft && kft_write clear >/dev/null
	rmmod_when_drained 2 || fail "rmmod kft"
	! grep -q '^kft ' /proc/modules || fail "kft still in /proc/modules after rmmod"
}

# assert_eq WHAT EXPECTED ACTUAL
assert_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
}

# Octal mode of a file, e.g. 600.
file_mode() {
	stat -c %a "$1"
}

# The guest's first memmap= range (scripts/vm/run, x86-64: kft's; a
# guest that resets has ftrace's after it) as kft's region= parameter,
# SIZE@ADDR; nothing without one.
memmap_region() {
	tr ' ' '\n' </proc/cmdline | sed -n 's/^memmap=\([0-9]*[KMG]\)\$\(0x[0-9a-f]*\)$/\1@\2/p' |
		head -n 1
}

# The guest's device tree node for the kft region (scripts/vm/run, the ARM
# guests: reserved-memory, compatible with "kft,region", no-map) as kft's
# region= parameter, BYTES@ADDR (its reg, in its parent's cells); nothing
# without one.
dt_region() {
	local dir=/proc/device-tree/reserved-memory node reg ac
	for node in "$dir"/*; do
		grep -qs 'kft,region' "$node/compatible" || continue
		reg=$(od -An -v -tx1 "$node/reg" | tr -d ' \n')
		ac=$(($(od -An -v -tu1 "$dir/#address-cells" | awk '{ print $NF }') * 8))
		echo "$((0x$(echo "$reg" | cut -c$((ac + 1))-)))@0x$(echo "$reg" | cut -c1-$ac | sed 's/^0*//')"
		return
	done
}

# kft and the test module (functions of known duration, tests/modules).
kft_load_all() {
	kft_load "$@"
	insmod /kft/kft_test.ko || fail "insmod kft_test.ko"
}

kft_unload_all() {
	rmmod kft_test || fail "rmmod kft_test"
	kft_unload
}

# kft_write TEXT: one write() to /proc/kft; prints "ok" or "write: ERRNO"
# (kftio's one line: no pipe, a process less a write), and succeeds either way.
kft_write() {
	kftio write /proc/kft "$1" || :
}

# kft_config TEXT: a configuration that must be accepted.
kft_config() {
	r=$(kft_write "$1")
	[ "$r" = ok ] || fail "configuration rejected ($r): $(grep '^error:' /proc/kft)"
}

# kft_cmd WORD: a command that must succeed.
kft_cmd() {
	r=$(kft_write "$1")
	# (A run that stopped itself says why in its log's header.)
	[ "$r" = ok ] || fail "command '$1' failed ($r): $(grep '^error:' /proc/kft)" \
		"$(grep -m 1 '^Logging stopped' /proc/kft_data 2>/dev/null)"
}

# The test module's functions by name: globs need fprobe (not on 6.1).
KFT_TEST_FUNCS="kft_test_leaf kft_test_busy_20us kft_test_busy_2ms kft_test_middle kft_test_outer kft_test_start_marker kft_test_stop_marker"

# call NAME [COUNT]: run a test function (see tests/modules/kft_test.c).
call() {
	echo "$1 ${2:-1}" >/proc/kft_test || fail "call $1 $2"
}

# poke_out: a call of kft_test_spin_poked poked out of its spin and then
# its sleep, if kft_test is still there: a test's EXIT trap, so that a
# test that fails before its own pokes leaves no task inside the call.
poke_out() {
	[ ! -e /proc/kft_test ] || { echo poke >/proc/kft_test; echo poke >/proc/kft_test; }
}

# sleep_blocked WHAT ON RUNNABLE BLOCKED: a call of msleep(300)'s times
# (offcpu, ns) say it slept: at least half of it blocked, and less
# runnable than blocked (a sleep counted as runnable would be the other
# way round). Not that the three reach 300 ms: under QEMU's TCG on a
# loaded host, kft's clock and the jiffies msleep() waits on do not agree
# that closely (a msleep(30) of 29.70 ms was seen on 6.12), and a stall of
# the host between msleep() arming its timer and the task leaving the CPU
# shortens the sleep by as much (by all of a 20 ms one, once, on the debug
# kernel): 300 ms leaves room for a stall of 150.
sleep_blocked() {
	[ "$4" -ge 150000000 ] && [ "$3" -lt "$4" ] ||
		fail "$1: msleep(300) blocked only $4 ns ($2 on the CPU, $3 runnable)"
}

# uptime_us: the guest's CLOCK_BOOTTIME in microseconds, 10 ms steps.
# (print int(): busybox awk's printf "%d" stops at 2^31 - 1, 2147 s of
# microseconds, which a long guest passes.)
uptime_us() { awk '{ print int($1 * 1000000) }' /proc/uptime; }

# timed_call NAME [COUNT]: call, and $call_us is how long the calls took
# on the guest's clock, rounded up: the most any one of them can have
# lasted. A bound of a call's duration that is a constant fails the day a
# busy host stops the guest in the middle of it; this one cannot.
timed_call() {
	local t0
	t0=$(uptime_us)
	call "$@"
	call_us=$(( $(uptime_us) - t0 + 20000 ))
}

# spinner_start: a shell of its own that does nothing but spin in
# kft_test_hot_loop, 2 s a write, until killed; $spinner is its pid: the
# process a profile test samples. Not the test's shell: what that shell
# does besides spinning (its forks to wait for a state, its reads of
# /proc/kft) is a fixed amount of work, which takes more guest time the
# slower the host runs the guest, while a spin takes its guest time
# whatever the host: on the debug kernel with a CPU hog beside three
# guests, kft_profile's shell's waits and reads came to 47 of its 517
# samples and the hot loop to 89% (90% wanted).
# It returns once the spinner is past its exec: a sample taken before could
# show another comm (busybox's re-exec: "exe", seen once in kft_profile's
# -p check).
spinner_start() {
	rm -f /tmp/.spinning
	sh -c ': >/tmp/.spinning; while :; do echo "hot_ms 2000" >/proc/kft_test; done' &
	spinner=$!
	_i=0
	until [ -e /tmp/.spinning ]; do
		_i=$((_i + 1))
		[ $_i -lt 200 ] || fail "the spinner did not start in 10 s"
		sleep 0.05
	done
}

# spinner_stop: $spcomm, its comm (read before it goes: by then it runs
# sh, no longer this shell's fork), and its end. Killed, it leaves the hot
# loop at once (kft_test.ko stops on a fatal signal); before, it finished
# its write, up to 2 s.
spinner_stop() {
	spcomm=$(cat /proc/$spinner/comm)
	kill $spinner
	wait $spinner 2>/dev/null || true
}

# read_events: $events, the run's "events counted" in /proc/kft (stacks
# and profile mode), read by this shell itself: a fork here would be a
# process of its own in the samples.
read_events() {
	events=0
	while read -r _kft_w1 _kft_w2 _kft_w3; do
		[ "$_kft_w1 $_kft_w2" != "events counted" ] || events=$_kft_w3
	done </proc/kft
}

# spin_until_events N: this shell spins in kft_test_hot_loop, 100 ms a
# call, until the run has counted N samples more than when it began (at
# most 300 calls): those before (the shell waiting for the run, a
# loaded host's slow commands) are not the spin's; $spins is the number
# of calls it made. Samples come from hrtimers: on a busy
# host a guest that QEMU could not run for a while gets one late expiry
# where it missed several, so a fixed spin holds anywhere from 250
# samples a second to a few dozen (44 where 50 were wanted in 500 ms, a
# make check on a busy machine). A test waits for the samples it needs.
spin_until_events() {
	local want

	spins=0
	read_events
	want=$((events + $1))
	while [ "$events" -lt "$want" ]; do
		[ $spins -lt 300 ] || fail "$events samples counted in 300 spins of 100 ms, $want wanted"
		call hot_ms 100
		spins=$((spins + 1))
		read_events
	done
}

# kallsyms: the path of a copy of /proc/kallsyms (155,000 lines on 6.12
# with the test module), read again only when /proc/modules changed (a
# module loaded, unloaded or moved: as root it shows each module's
# address) or kptr_restrict did: 0.3 s of a TCG guest saved per lookup,
# and the tests look up symbols a few hundred times a pass. Kept in /tmp
# for the tests after: the core kernel's symbols never move. (Not for what
# comes and goes without a module: BPF programs, ftrace trampolines; read
# /proc/kallsyms for those.) Lookups grep -F first: busybox's awk takes
# 0.9 s over the whole table, grep -F 0.2 s (the time ledger,
# Documentation/testing.rst).
kallsyms() {
	cat /proc/modules /proc/sys/kernel/kptr_restrict >/tmp/.kallsyms.modules.new
	if [ ! -s /tmp/.kallsyms ] || ! cmp -s /tmp/.kallsyms.modules.new /tmp/.kallsyms.modules; then
		cat /proc/kallsyms >/tmp/.kallsyms.new
		mv /tmp/.kallsyms.new /tmp/.kallsyms
		mv /tmp/.kallsyms.modules.new /tmp/.kallsyms.modules
	fi
	echo /tmp/.kallsyms
}

# The address of a function, as /proc/kft_data prints it.
ksym() {
	_kft_map=$(kallsyms)
	a=$(grep -F " $1" "$_kft_map" | awk -v n="$1" '$3 == n { print "0x" $1; exit }')
	[ -n "$a" ] || fail "no symbol $1 in /proc/kallsyms"
	echo "$a"
}

# The log's rows (after the dashed line), into a file. (sed: busybox awk
# took 7.7 s of a TCG guest over 27,000 rows under all_functions' load,
# sed 1.2 s. The header comes first: line 1 is never the dashed line.)
kft_rows() {
	sed '1,/^--------/d' /proc/kft_data >"$1"
}

# stream_text FILE [-S]: a stream run's calls taken through
# /proc/kft_stream's binary rows, as kft record takes them (kftio; -S:
# without CAP_SYSLOG), made a record file with /proc/kft_data's header
# (the stream drained: its rows are all in the binary), written by kft
# report: its rows, as /proc/kft_data writes rows, into FILE. Every
# architecture kft runs on is little-endian.
stream_text() {
	# (kftio's failure is said below, with its step and errno.)
	kftio ${2:-} read /proc/kft_stream >/tmp/.stream.bin || true
	[ "$(tail -c 3 /tmp/.stream.bin)" = ok ] ||
		fail "read /proc/kft_stream: $(tail -c 40 /tmp/.stream.bin)"
	_n=$(($(wc -c </tmp/.stream.bin) - 3))
	{
		printf '\177KFT record 3: 64-byte rows, %d-byte addresses, little-endian\n' \
			$((addr_digits / 2))
		sed '/^--------/q' /proc/kft_data
		dd if=/tmp/.stream.bin bs=1 count=$_n 2>/dev/null
	} >/tmp/.stream.rec
	kft report /tmp/.stream.rec >/tmp/.stream.txt 2>/tmp/.stream.err ||
		fail "kft report of /proc/kft_stream's rows: $(cat /tmp/.stream.err)"
	sed '1,/^--------/d' /tmp/.stream.txt >"$1"
}

# What the architecture changes in the stacks the tests expect.
# outer_frames: of kft_test_outer's two calls of middle, how many show
# outer's frame. On x86-64 GCC makes the second a tail call (a jmp: outer's
# frame is gone); Debian builds arm64 kernels and modules with
# -mbranch-protection=pac-ret, and GCC 12 keeps outer's frame there
# (paciasp ... autiasp around two plain calls). tail_calls: the others.
# regs_unwind: whether kft unwinds from the traced function's registers
# (x86-64; 32-bit ARM and riscv64, by their own walks) or from its own frame (arm64
# exports no unwinder that starts at registers: every stack counts as
# unwound from kft's own frame).
case $(uname -m) in
x86_64) outer_frames=1 tail_calls=1 regs_unwind=yes ;;
aarch64) outer_frames=2 tail_calls=0 regs_unwind=no ;;
# riscv64 (Debian 13's GCC 14): outer keeps its frame, as on arm64; kft
# walks the frame pointers from the traced function's registers itself
riscv64) outer_frames=2 tail_calls=0 regs_unwind=yes ;;
# 32-bit ARM (GCC 12, no pac-ret): the tail call as on x86-64; but
# Debian 11's 5.10 is built with frame pointers (UNWINDER_FRAME_POINTER),
# which turn sibling calls off (-fno-optimize-sibling-calls), in its
# modules too: outer keeps its frame, as on arm64
*)
	case $(uname -r) in
	5.10.*) outer_frames=2 tail_calls=0 regs_unwind=yes ;;
	*) outer_frames=1 tail_calls=1 regs_unwind=yes ;;
	esac ;;
esac

# An address as the kernel writes it (/proc/kallsyms, /proc/kft_data): 16
# hex digits, 8 on a 32-bit kernel; zero_addr is the log's hidden one.
addr_digits=$(awk '{ print length($1); exit }' /proc/kallsyms)
zero_digits=$(printf "%0${addr_digits}d" 0)
zero_addr=0x$zero_digits

# rows_of FILE ADDR: the rows of one function.
# (String comparison: awk would compare hex numbers as doubles. The rows
# with the address anywhere first, grep -F: awk over every row is slow.)
rows_of() {
	grep -F "$2" "$1" | awk -v a="$2" '$4 "" == a ""'
}

# in_function ADDR FUNCTION: ADDR lies within FUNCTION (first 4 KiB).
in_function() {
	f=$(ksym "$2")
	d=$(($1 - f))
	[ $d -ge 0 ] && [ $d -lt 4096 ]
}

# A header line of /proc/kft_data that starts with $1.
log_line() {
	grep "^$1" /proc/kft_data || true
}

# A counter line of /proc/kft ("  NAME N"): prints N.
counter() {
	awk -v n="$1" '{ line = $0; sub(/^ +/, "", line) } index(line, n " ") == 1 { print $NF }' /proc/kft
}

# retval_text HEX: a return register as the log's RETURN column shows it
# (function_graph's funcgraph-retval rule, kft_retval_error()): an error
# (-4095..-1 as a long, or as an int with the upper half zero) in decimal,
# anything else in hex. (The shell's arithmetic is 64-bit; printf %x of a
# negative number prints its 64-bit two's complement.)
retval_text() {
	_v=$(($1))
	if [ $(((_v >> 32) & 0xffffffff)) -eq 0 ]; then
		_e=$((_v >= 0x80000000 ? _v - 0x100000000 : _v))
	else
		_e=$_v
	fi
	if [ $_e -lt 0 ] && [ $_e -ge -4095 ]; then
		echo $_e
	else
		printf '0x%x\n' $_v
	fi
}

kft_status() {
	head -n 1 /proc/kft
}

# until_status TEXT SECONDS: until the status line is TEXT (a run's timer
# has stopped it, say), polled; at most SECONDS, then the caller's assert
# says what came instead.
until_status() {
	_kft_polls=0
	while [ "$(kft_status)" != "$1" ] && [ $_kft_polls -lt $(($2 * 10)) ]; do
		sleep 0.1
		_kft_polls=$((_kft_polls + 1))
	done
}

# kft hooks exits with fprobe where the kernel has it, kretprobes otherwise.
has_fprobe() {
	grep -F " register_fprobe" "$(kallsyms)" | grep -qw register_fprobe
}

# kft's own exit hooks (hooks fast): its trampoline is on every
# architecture kft builds for, and needs ftrace to pass the traced
# function's registers (DYNAMIC_FTRACE_WITH_ARGS: x86-64 from 5.11 on, not
# Debian 11's 5.10; on 32-bit ARM DYNAMIC_FTRACE_WITH_REGS and 5.18 on).
# Elsewhere "hooks fast" is a configuration error (fast_hooks_refusal).
fast_hooks_here() {
	case $(uname -r) in 5.10.*) return 1 ;; esac
}

# Whether the kernel's unwinder goes on past kretprobe_trampoline, which a
# kretprobe puts in place of a return address: x86-64's learned to from
# 5.14 on; 5.10's stops there (also in /proc/PID/stack), so under hooks
# safe there a stack taken in a function whose caller is hooked too ends
# at the caller's frame.
unwinds_past_kretprobes() {
	case $(uname -r) in 5.10.*) return 1 ;; esac
}

# fast_hooks_refusal: the error line of a run that asks for hooks fast
# where there are none, "hooks" at column 11 of "new begin hooks fast end".
fast_hooks_refusal() {
	case $(uname -m) in
	armv7l)
		_kft_why="hooks fast needs ftrace to save the traced function's registers and the unwinder to say where a return address is (DYNAMIC_FTRACE_WITH_REGS and ARM_UNWIND, Linux 5.18 on), which this kernel lacks" ;;
	*) _kft_why="hooks fast needs ftrace to pass the traced function's registers (DYNAMIC_FTRACE_WITH_ARGS: x86-64 from 5.11 on, arm64 from 6.2 on), which this kernel lacks" ;;
	esac
	echo "error: line 1, column 11: $_kft_why 'hooks'"
}

# fast_hooks_require: a test of hooks fast runs where they are; elsewhere
# it checks that kft refuses a run that asks for them, with
# fast_hooks_refusal's error, and skips.
fast_hooks_require() {
	fast_hooks_here && return 0
	kft_load
	assert_eq "write of: new begin hooks fast end" "write: EINVAL" "$(kft_write "new begin hooks fast end")"
	assert_eq "error for hooks fast" "$(fast_hooks_refusal)" "$(grep '^error:' /proc/kft)"
	kft_unload
	unsupported "no hooks fast on this kernel: a run that asks is refused ($(fast_hooks_refusal))"
}

# Globs and every function: with fprobe, or with fast hooks on any kernel
# (an ftrace_ops matches them); not with kretprobes.
hooks_any_function() {
	has_fprobe || { [ "$KFT_HOOKS" = fast ] && fast_hooks_here; }
}

# fprobe rebuilt on the function-graph tracer (6.14 on): one glob per
# registration, so kft takes one glob per funclist there.
fprobe_on_fgraph() {
	grep -F " fprobe_fgraph_entry" "$(kallsyms)" | grep -qw fprobe_fgraph_entry
}

# The peer guest: tests with a line "# requires: bpftrace" run where the
# runner put bpftrace and its libraries in the initramfs (scripts/vm/run).
# No bpftrace there is a failure (the test would prove nothing); a kernel
# without BTF or BPF is a skip.
bpftrace_require() {
	command -v bpftrace >/dev/null || fail "no bpftrace in this guest (scripts/vm/run puts it in for '# requires: bpftrace')"
	[ -e /sys/kernel/btf/vmlinux ] || unsupported "no BTF in this kernel (/sys/kernel/btf/vmlinux)"
	bpftrace -e 'BEGIN { exit(); }' >/tmp/bpftrace-check 2>&1 ||
		fail "bpftrace cannot run a program: $(cat /tmp/bpftrace-check)"
}

# Whether bpftrace takes kfunc (fentry) probes on this kernel: Debian 12's
# bpftrace 0.17 refuses them on 5.10 ("kfunc/kretfunc not available for
# your kernel version"). Its reason in /tmp/bpftrace-kfunc.
bpftrace_kfunc_here() {
	bpftrace -e 'kfunc:vmlinux:vfs_read { } BEGIN { exit(); }' >/tmp/bpftrace-kfunc 2>&1
}

# wait_kprobes FUNCTION N: until N kprobes (or kretprobes) are on
# FUNCTION (at +0x0, or at ftrace's call after an endbr64), as a peer that
# uses them registers them (60 s at most).
wait_kprobes() {
	_i=0
	until [ "$(grep -c " $1+0x" /sys/kernel/debug/kprobes/list)" -ge "$2" ]; do
		_i=$((_i + 1))
		[ $_i -lt 600 ] || fail "not $2 kprobes on $1 after 60 s: $(cat /sys/kernel/debug/kprobes/list)"
		sleep 0.1
	done
}

# wait_kprobes_gone FUNCTION: until no kprobe is on FUNCTION (60 s at most).
wait_kprobes_gone() {
	_i=0
	while grep -q " $1+0x" /sys/kernel/debug/kprobes/list; do
		_i=$((_i + 1))
		[ $_i -lt 600 ] || fail "kprobes still on $1 after 60 s: $(cat /sys/kernel/debug/kprobes/list)"
		sleep 0.1
	done
}

# bpftrace_counts OUT PROGRAM WORKLOAD: run the bpftrace PROGRAM while a
# shell runs the script file WORKLOAD (started once the probes are attached;
# bpftrace ends with it and prints its maps). The map's "@[KEY]: N" lines
# go to OUT as "KEY N", keys without their probe type: "kprobe:f" and
# "kfunc:MODULE:f" are "f". The whole output is in OUT.log.
bpftrace_counts() {
	bpftrace -e "$2" -c "/bin/sh $3" >"$1.log" 2>&1 ||
		fail "bpftrace -e '$2' failed: $(cat "$1.log")"
	sed -n 's/^@\[\(.*\)\]: \([0-9][0-9]*\)$/\1 \2/p' "$1.log" |
		sed 's/^kprobe://; s/^kfunc:[^:]*://' | sort >"$1"
}

# map_count FILE KEY: the count of KEY in a "KEY N" file, 0 when absent.
map_count() {
	awk -v k="$2" '$1 == k { n = $2 } END { print n + 0 }' "$1"
}

# kft_counts OUT: count mode's rows of /proc/kft_data as "SYMBOL N" lines
# (the symbol without its " [module]"), sorted by symbol.
kft_counts() {
	awk 'f && NF >= 3 { print $3, $1 } /^--------/ { f = 1 }' /proc/kft_data | sort >"$1"
}

# Count mode: the count of the function at ADDR in /proc/kft_data (0 when
# it has no row: functions never called are left out).
count_of() {
	awk -v a="$1" 'f && $2 "" == a "" { print $1; n = 1 } /^------------ / { f = 1 }
		END { if (!n) print 0 }' /proc/kft_data
}

# Count mode: the rows (count, address, symbol), into a file.
count_rows() {
	awk 'f { print } /^------------ / { f = 1 }' /proc/kft_data >"$1"
}

# func_size NAME MODULE: the bytes from function NAME to the next symbol of
# MODULE in /proc/kallsyms (its size, padding included).
func_size() {
	s=$(ksym "$1") best=
	# (Not the symbols the kernel's is_mapping_symbol() skips: riscv64
	# lists a module's local labels, .LFB..., inside its functions.)
	for a in $(grep -F "[$2]" "$(kallsyms)" |
		awk -v m="[$2]" '$4 == m && $3 !~ /^([$]|[.]L|L0)/ { print "0x" $1 }'); do
		d=$((a - s))
		[ $d -gt 0 ] && { [ -z "$best" ] || [ $d -lt $best ]; } && best=$d
	done
	[ -n "$best" ] || fail "no symbol after $1 in $2"
	echo "$best"
}

# Stacks and profile mode: each stack block of /proc/kft_data as one line
# "COUNT PID COMM|frame;frame;..." (innermost first, names without their
# +offset/size and [module]), into a file. COMM may not contain '|'.
stack_lines() {
	awk '
	function flush() { if (have) print head "|" frames; have = 0 }
	/^stack [0-9]/ { flush(); have = 1; frames = ""; c = $2; p = $3
		comm = $0; sub(/^stack [0-9]+ -?[0-9]+ /, "", comm)
		head = c " " p " " comm; next }
	/^event / { flush(); next }
	have && /^  0x/ { name = $2; sub(/\+.*/, "", name)
		frames = frames (frames == "" ? "" : ";") name; next }
	/^$/ { flush() }
	END { flush() }' /proc/kft_data >"$1"
}

# Snoop: the events of one read of /proc/kft_data, one line each
# "TIME CPU PID COMM|frame;frame;...", into a file (the read consumes them).
snoop_lines() {
	awk '
	function flush() { if (have) print head "|" frames; have = 0 }
	/^event [0-9]/ { flush(); have = 1; frames = ""; head = $2 " " $3 " " $4 " " $5; next }
	/^stack / { flush(); next }
	have && /^  0x/ { name = $2; sub(/\+.*/, "", name)
		frames = frames (frames == "" ? "" : ";") name; next }
	/^$/ { flush() }
	END { flush() }' /proc/kft_data >"$1"
}

# Stack watch snapshots of the trace log (rows file from kft_rows): one line
# per snapshot "LEFT PID.CPU FRAMES ADDR ADDR ...", the first address the
# traced function's, then return addresses, innermost first.
watch_snapshots() {
	awk '$2 == "-2" && $NF ~ /^left=/ { if (s != "") print s; l = $NF; sub(/^left=/, "", l)
		s = l " " $3 " N " $4; n = 1; next }
	$2 == "-2" { s = s " " $4; n++; next }
	END { if (s != "") print s }' "$1" |
	awk '{ n = NF - 3; $3 = n; print }' >"$2"
}

# The peer's stacks, and kft's, as lines "COUNT|frame;frame;..." (innermost
# first), each frame "name+0xOFF": the symbol and the offset in hex as kft
# prints them, without kft's "/0xSIZE" and " [module]"; bpftrace's decimal
# offsets in hex. A frame without an offset stays as printed.
# kft_stack_frames OUT: the stack blocks of /proc/kft_data (stacks and
# profile mode; the key's pid and comm left out).
kft_stack_frames() {
	awk '
	function flush() { if (have) print c "|" frames; have = 0 }
	/^stack [0-9]/ { flush(); have = 1; frames = ""; c = $2; next }
	/^event / { flush(); next }
	have && /^  0x/ { f = $2; sub(/\/.*/, "", f)
		frames = frames (frames == "" ? "" : ";") f; next }
	/^$/ { flush() }
	END { flush() }' /proc/kft_data >"$1"
}

# bpftrace_stack_frames IN OUT: the same from bpftrace's output (IN) of a
# map keyed by kstack alone: a line "@NAME[", a frame a line ("name+DEC"),
# "]: COUNT"; an empty stack (a sample in user space) is "@NAME[]: COUNT".
bpftrace_stack_frames() {
	awk '
	/^@[A-Za-z0-9_]*\[\]: [0-9]+$/ { n = $0; sub(/.*: /, "", n); print n "|"; next }
	/^@[A-Za-z0-9_]*\[$/ { inb = 1; frames = ""; next }
	inb && /^\]: [0-9]+$/ { print $2 "|" frames; inb = 0; next }
	inb && NF { f = $1
		if (match(f, /\+[0-9]+$/))
			f = substr(f, 1, RSTART - 1) sprintf("+0x%x", substr(f, RSTART + 1) + 0)
		frames = frames (frames == "" ? "" : ";") f }' "$1" >"$2"
}

# innermost_share FILE FUNCTION: of the samples of a "COUNT|frames" file,
# "TOTAL HOT PERMILLE": all of them, those whose innermost frame is in
# FUNCTION, and that share in thousandths.
innermost_share() {
	awk -F'|' -v fn="$2" '{ t += $1; f = $2; sub(/[+;].*/, "", f); if (f == fn) h += $1 }
		END { printf "%d %d %d\n", t, h, t ? int(h * 1000 / t) : 0 }' "$1"
}

# btf_names NAME: whether this kernel's BTF has the string NAME. A
# function's name is there when its FUNC is, and a kernel's BTF need not
# have every function: the pahole that made it may have left some out.
btf_names() {
	[ -r /sys/kernel/btf/vmlinux ] && tr '\0' '\n' </sys/kernel/btf/vmlinux | grep -qxF "$1"
}

#!/bin/sh
# The overhead benchmark, inside the guest (booted by scripts/bench with
# -icount shift=0,sleep=off -smp 1: a guest nanosecond is one instruction).
#
# For each mechanism, in one boot: switch it on for kft_bench_target(), let
# /proc/kft_bench time rounds of calls, check that the mechanism really saw
# the calls (or really rejected them), switch it off. Prints
#	cost KEY MIN MEDIAN MAX		instructions per call
#	sample KEY PER_SAMPLE SAMPLES BASE_NS WITH_NS	a sampling profiler's
#					instructions per sample (see spins)
#	switch KEY MIN MEDIAN MAX	instructions per context switch
#	scale KEY VALUE			the scale measurements (kernels with fprobe)
#	info TEXT
# and "bench: failed: WHY" (then stops) when a check fails: a figure from a
# mechanism that did not fire would be a lie. bpftrace's rows only where
# bpftrace is (scripts/vm/run -b puts it in the guest).
CALLS=${CALLS:-10000}		# calls per round
ROUNDS=${ROUNDS:-11}		# rounds; the median is reported
SCALE=${SCALE:-1}		# 0: skip memory and every-function scale
# 1: the in-guest tests' smoke run (bench_smoke, peer_bench_smoke), without
# -icount: the guest's clock is the host's, and a busy host stalls the
# guest, so that a profiler's samples cannot be held to its rate there
# (bpftrace's 74 where 76 were due, four guests on two cores).
SMOKE=${SMOKE:-0}
# 0: no kft rows of the context switches, only switch_none and the
# peer's (peer_bench_smoke: bench_smoke ran kft's on the same kernel).
SWITCH_KFT=${SWITCH_KFT:-1}
TOTAL=$((CALLS * (ROUNDS + 1)))	# with the warm-up round
# The streaming rows (issue 42: kft record against trace-cmd record, each
# reader running): STREAM_ROUNDS rounds of STREAM_CALLS calls, after a
# warm-up round, with interrupts on and the CPU offered every 64 calls
# ("yield": kft_bench.c), so that a reader woken by its timer runs
# meanwhile; then Ctrl-C to the recorder and until it is gone: its last
# reads and its file's writing count too, less what a run of 2 calls
# costs (stream_row).
STREAM_CALLS=${STREAM_CALLS:-$((CALLS * 20))}
STREAM_ROUNDS=${STREAM_ROUNDS:-3}
STREAM_TOTAL=$((STREAM_CALLS * (STREAM_ROUNDS + 1)))
# kft record's buffer (-e, a CPU): every call. On one CPU its reader, with
# its fair share of the CPU, falls behind calls made back to back (262144
# lost 804223 of 1200000 calls on 6.12): what it has not read by the end
# of the rounds it reads after, inside the figure.
STREAM_ENTRIES=${STREAM_ENTRIES:-$STREAM_TOTAL}
# Sampling profilers: spins of SPIN loop turns (3 instructions each) at HZ
# samples per second, PROFILE_ROUNDS of them per profiler.
SPIN=${SPIN:-$((CALLS * 10000))}
[ "$SPIN" -ge 20000000 ] || SPIN=20000000
PROFILE_ROUNDS=${PROFILE_ROUNDS:-5}
[ "$PROFILE_ROUNDS" -le "$ROUNDS" ] || PROFILE_ROUNDS=$ROUNDS
HZ=${HZ:-1000}
. /kft/bench-lib.sh

bench() {
	echo "$*" >/proc/kft_bench || die "echo $* >/proc/kft_bench"
}

# measure KEY [run|clock]: time the rounds; the result line, and the hits
# in $hits.
measure() {
	bench "${2:-run} $CALLS $ROUNDS"
	set -- "$1" $(cat /proc/kft_bench)
	# rounds R calls K ns/call min MIN median MED max MAX hits H
	echo "cost $1 $8 ${10} ${12}"
	hits=${14}
}

# stack_depth FRAMES FUNCTION: the frames of the first stack of a
# "COUNT|frame;..." file (lib.sh), from FUNCTION's on, and all of them
# ("9" or "9 of 11": the peer's own frames above the function).
stack_depth() {
	awk -F'|' -v fn="$2" 'NR == 1 { k = split($2, f, ";")
		for (i = 1; i <= k; i++) { n = f[i]; sub(/\+.*/, "", n); if (n == fn) break }
		print (i == 1 ? k - i + 1 : (k - i + 1) " of " k) }' "$1"
}

# wait_for WHAT PID COMMAND...: until COMMAND succeeds (at most 60 s),
# while PID (a tracer started in the background) lives.
wait_for() {
	_what=$1 _pid=$2
	shift 2
	_i=0
	until "$@"; do
		kill -0 "$_pid" 2>/dev/null || die "$_what exited before it was recording"
		_i=$((_i + 1))
		[ $_i -lt 600 ] || die "$_what was not recording after 60 s"
		sleep 0.1
	done
}

# idle_ns: the guest's idle time (/proc/uptime: in 10 ms steps).
idle_ns() {
	awk '{ printf "%.0f\n", $2 * 1e9 }' /proc/uptime
}

# stream_busy PID CALLS ROUNDS: the rounds ("yield"), then Ctrl-C to PID (a
# recorder started in the background; none: nothing attached) and until
# it has exited: the guest ns of all that less the idle ones (the
# recorders' sleeps: -icount counts an idle CPU's time too), in $busy;
# the idle ones in $idle.
stream_busy() {
	_i0=$(idle_ns)
	_e=$(elapsed sh -c "echo 'yield $2 $3' >/proc/kft_bench || exit 1
		[ -n '$1' ] || exit 0
		kill -INT $1
		while [ -e /proc/$1 ] && [ \"\$(awk '{ print \$3 }' /proc/$1/stat)\" != Z ]; do sleep 0.01; done" 2>&1 |
		sed -n 's/^elapsed_ns //p')
	_i1=$(idle_ns)
	[ -n "$_e" ] || die "the streaming rounds failed"
	idle=$((_i1 - _i0))
	busy=$((_e - idle))
}

# stream_row KEY [START CHECK]: a streaming row. START starts a recorder
# in the background (its pid in $pid); CHECK N waits for it and checks
# that it wrote N calls. Twice: with 2 calls ("yield 1 1": what starting
# the rounds, stopping, exiting cost whatever the calls), then with the
# STREAM_TOTAL calls; the figure is what the second adds per added call:
# the loop, the hooks, and all the reader did for each call, from the
# call to its row in the file (kft record reads after the Ctrl-C what it
# could not read during the rounds). The result line (the one figure
# thrice); the two runs and the rounds' own figures (what the reader did
# inside them) on an info line.
stream_row() {
	pid=
	[ -z "${2:-}" ] || $2
	stream_busy "$pid" 1 1
	_f=$busy
	[ -z "${3:-}" ] || $3 2
	[ -z "${2:-}" ] || $2
	stream_busy "$pid" "$STREAM_CALLS" "$STREAM_ROUNDS"
	[ -z "${3:-}" ] || $3 "$STREAM_TOTAL"
	_c=$(awk -v t="$busy" -v f="$_f" -v n="$((STREAM_TOTAL - 2))" 'BEGIN { printf "%.3f", (t - f) / n }')
	echo "cost $1 $_c $_c $_c"
	set -- "$1" $(cat /proc/kft_bench)
	echo "info stream $1: $STREAM_TOTAL calls $busy ns busy ($idle idle), 2 calls $_f; the rounds: min $8 median ${10} max ${12}"
	hits=${14}
}

kft_row_count() {
	awk 'f { n++ } /^--------/ { f = 1 } END { print n + 0 }' /proc/kft_data
}

tracer() {
	echo "$1" >$T/current_tracer || die "current_tracer $1"
}

# kft_measure KEY CONFIG: a kft run with this configuration (what goes
# between begin and end) around the measurement.
kft_measure() {
	kft "new begin $2 end"
	kft start
	measure "$1"
	# What is hooked, seen while running: a complete run detaches. (Where
	# kprobes are no ftrace ops, arm64, a kretprobe shows only in kprobes'
	# list.)
	cat $T/enabled_functions /sys/kernel/debug/kprobes/list >/tmp/kft-hooked 2>/dev/null || true
	kft stop
}

# kft_roots_measure KEY HOOKS: filter roots (issue 41), the benchmark's
# run the root call, every call of the target inside it held, then
# dropped with it (no root call lasts 1000 s): what a held call costs.
kft_roots_measure() {
	kft_measure "$1" "$2 filter roots kft_bench:kft_bench_run fend filter mintime 1000000000 holdtasks 1 holdentries $((TOTAL + 1000)) filter funclist kft_bench_target fend"
	[ "$(kft_row_count)" = 0 ] || die "$1: rows recorded"
	n=$(sed -n 's/^roots: \([0-9]*\) subtrees kept, \([0-9]*\) calls cut.*/\1 \2/p' /proc/kft)
	[ "$n" = "0 0" ] || die "$1: kept and cut: '$n', not '0 0'"
	n=$(counter "filtered by time")
	[ "$n" = 1 ] || die "$1: $n root calls dropped, not 1"
	kft clear
}

insmod /kft/kft_bench.ko || die "insmod kft_bench"
[ -d $T/events ] || die "no tracefs at $T"
echo "info kernel $(uname -r)"
echo "info calls per round $CALLS, rounds $ROUNDS"

measure bare
[ "$hits" = 0 ] || die "bare: $hits hits"
measure clock clock
# The streaming rows' loop, nothing attached.
stream_row stream_bare
[ "$hits" = 0 ] || die "stream_bare: $hits hits"

bench "ops on"
measure ftrace_ops_noop
bench "ops off"
[ "$hits" = "$TOTAL" ] || die "ftrace_ops: $hits hits for $TOTAL calls"

# kft's count mode (entry only, per-CPU counters), where the module has it.
insmod /kft/kft.ko || die "insmod kft"
if [ "$(kftio write /proc/kft "new begin mode count filter funclist kft_bench_target fend end" | tail -n 1)" = ok ]; then
	kft start
	measure kft_count
	kft stop
	n=$(awk '$3 == "kft_bench_target" { print $1 }' /proc/kft_data)
	[ "$n" = "$TOTAL" ] || die "kft count: $n counted for $TOTAL calls"
	kft clear
else
	echo "info kft without count mode: no kft_count row"
fi

# kft's mode stacks (issue 11): at each entry the stack is captured
# (stack_trace_save: the whole stack is unwound, kft's and ftrace's frames
# too, then trimmed to start at the function) and counted in a table of
# distinct stacks. The cost grows with the depth: the frames of the target's
# stack are printed.
if [ "$(kftio write /proc/kft "new begin mode stacks filter funclist kft_bench_target fend end" | tail -n 1)" = ok ]; then
	kft start
	measure kft_stacks
	kft stop
	n=$(sed -n 's/^Number of events counted = //p' /proc/kft_data)
	[ "$n" = "$TOTAL" ] || die "kft stacks: $n counted for $TOTAL calls: $(head -n 20 /proc/kft_data)"
	kft_stack_frames /tmp/kft-stacks.frames
	echo "scale stacks_depth_kft $(stack_depth /tmp/kft-stacks.frames kft_bench_target)"
	kft clear
else
	echo "info kft without mode stacks: no kft_stacks row"
fi

# bpftrace (the peer guest: scripts/vm/run -b puts it in), the smallest
# counting program: @ = count() on the function's entry, by a kprobe (on
# ftrace's site) and by a kfunc (BPF trampoline, needs the module's BTF:
# 6.12 only). bpftrace starts the rounds itself once attached (-c), and
# prints the map at its exit.
# bpftrace_rounds NAME PROGRAM: the rounds under bpftrace running PROGRAM
# (its output in /tmp/bpftrace.out), and NAME's cost row.
bpftrace_rounds() {
	echo "echo 'run $CALLS $ROUNDS' >/proc/kft_bench" >/tmp/bench-run
	bpftrace -e "$2" -c "/bin/sh /tmp/bench-run" >/tmp/bpftrace.out 2>&1 ||
		die "bpftrace $2: $(cat /tmp/bpftrace.out)"
	set -- "$1" $(cat /proc/kft_bench)
	echo "cost $1 $8 ${10} ${12}"
}
bpftrace_measure() {
	bpftrace_rounds "$1" "$2 { @ = count(); }"
	n=$(sed -n 's/^@: //p' /tmp/bpftrace.out)
	[ "$n" = "$TOTAL" ] || die "$1: bpftrace counted '$n' for $TOTAL calls: $(cat /tmp/bpftrace.out)"
}
bpftrace_stacks_measure() {
	bpftrace_rounds "$1" "$2 { @[kstack] = count(); }"
	bpftrace_stack_frames /tmp/bpftrace.out /tmp/bpftrace.frames
	n=$(awk -F'|' '{ n += $1 } END { print n + 0 }' /tmp/bpftrace.frames)
	[ "$n" = "$TOTAL" ] || die "$1: bpftrace counted '$n' stacks for $TOTAL calls: $(cat /tmp/bpftrace.out)"
	echo "scale stacks_depth_$1 $(stack_depth /tmp/bpftrace.frames kft_bench_target)"
}
# bpftrace_hist_measure KEY PROGRAM: a histogram program (its own map @h);
# every call in it.
bpftrace_hist_measure() {
	bpftrace_rounds "$1" "$2"
	# ("[0]  N |...|" and "[1]": one word before the count; "[2, 4)  N": two.)
	n=$(awk '/^@h:/ { f = 1; next } f && /^\[/ { n += ($1 ~ /\]$/) ? $2 : $3 }
		END { print n + 0 }' /tmp/bpftrace.out)
	[ "$n" = "$TOTAL" ] || die "$1: bpftrace's hist() has '$n' calls for $TOTAL: $(cat /tmp/bpftrace.out)"
}
if command -v bpftrace >/dev/null; then
	if [ -e /sys/kernel/btf/kft_bench ]; then
		bpftrace_measure bpftrace_kfunc kfunc:kft_bench:kft_bench_target
	else
		echo "info no BTF for kft_bench: no bpftrace kfunc row"
	fi
	bpftrace_measure bpftrace_kprobe kprobe:kft_bench_target
	# The peer of mode stacks: @[kstack] = count(), bpf_get_stackid()
	# into a stack map, the map's count per stack id.
	if [ -e /sys/kernel/btf/kft_bench ]; then
		bpftrace_stacks_measure bpftrace_kfunc_kstack kfunc:kft_bench:kft_bench_target
	fi
	bpftrace_stacks_measure bpftrace_kprobe_kstack kprobe:kft_bench_target
	# The peer of mode histogram: entry and exit, hist() of the difference.
	bpftrace_hist_measure bpftrace_kprobe_hist \
		'kprobe:kft_bench_target { @s[tid] = nsecs; } kretprobe:kft_bench_target /@s[tid]/ { @h = hist(nsecs - @s[tid]); delete(@s[tid]); }'
	if [ -e /sys/kernel/btf/kft_bench ]; then
		bpftrace_hist_measure bpftrace_kfunc_hist \
			'kfunc:kft_bench:kft_bench_target { @s[tid] = nsecs; } kretfunc:kft_bench:kft_bench_target /@s[tid]/ { @h = hist(nsecs - @s[tid]); delete(@s[tid]); }'
	fi
else
	echo "info no bpftrace in this guest: no bpftrace rows"
fi

# libbpf-tools' funclatency (the peer guest has it), the peer of kft
# funclatency: a BPF log2 histogram in ns, printed at its exit. It attaches
# fentry and fexit (one BPF trampoline, an ftrace direct call) where
# vmlinux's BTF describes the function, else (kft_bench_target, a module's)
# a kprobe and a kretprobe, at ftrace's call (+0x4 after an endbr64 on 6.12
# and 7.3): on once they are there.
funclatency_hooks() {
	if grep -A2 '^kft_bench_target ' $T/enabled_functions | grep -q 'direct'; then
		echo fentry
	elif [ "$(grep -c ' kft_bench_target+0x' /sys/kernel/debug/kprobes/list)" -ge 2 ]; then
		echo kprobe
	fi
}
if [ -x /usr/sbin/funclatency ]; then
	/usr/sbin/funclatency kft_bench_target >/tmp/funclatency.out 2>&1 &
	fl=$!
	i=0
	until [ -n "$(funclatency_hooks)" ]; do
		i=$((i + 1))
		[ $i -lt 600 ] || die "funclatency did not attach: $(cat /tmp/funclatency.out)"
		sleep 0.1
	done
	measure libbpf_funclatency_$(funclatency_hooks)
	kill -INT $fl
	wait $fl || die "funclatency: $(cat /tmp/funclatency.out)"
	n=$(awk '$2 == "->" && $4 == ":" { n += $5 } END { print n + 0 }' /tmp/funclatency.out)
	[ "$n" = "$TOTAL" ] || die "funclatency counted '$n' calls for $TOTAL: $(cat /tmp/funclatency.out)"
else
	echo "info no libbpf-tools in this guest: no funclatency row"
fi

# ring_check KEY: a ring run kept or wrote over every call: its rows and
# the calls it overwrote add up to TOTAL.
ring_check() {
	_rows=$(kft_row_count)
	_over=$(sed -n 's/^Calls overwritten = //p' /proc/kft_data)
	[ $((_rows + _over)) = "$TOTAL" ] || die "$1: $_rows rows + $_over overwritten for $TOTAL calls"
}

# The kernel's exit hooks (fprobe or kretprobes, kft's hooks safe), where
# it has them: not on riscv64's 6.12 (safe_hooks_here: tests/lib.sh), whose
# kprobes cannot share ftrace's call site at a function's start.
if safe_hooks_here; then
bench "exit on"
if has_fprobe; then key=fprobe_noop; else key=kretprobe_noop; fi
measure $key
bench "exit off"
[ "$hits" = $((2 * TOTAL)) ] || die "$key: $hits hits for $TOTAL calls"

# kft: rejecting every call by time (no call lasts 1 s) and by context (the
# calls come from a task: rejected at entry, exit not hooked), recording
# every call, and a function outside its traced set.
kft_measure kft_mintime_reject "filter mintime 1000000 filter funclist kft_bench_target fend"
n=$(counter "filtered by time")
[ "$n" = "$TOTAL" ] || die "kft mintime: $n calls filtered for $TOTAL"
[ "$(kft_row_count)" = 0 ] || die "kft mintime: rows recorded"

# filter errors rejecting every call (kft_bench_target returns a small
# positive number): judged at the exit, before the clock is read.
kft_measure kft_errors_reject "filter errors filter funclist kft_bench_target fend"
n=$(counter "filtered by return value")
[ "$n" = "$TOTAL" ] || die "kft errors: $n calls filtered for $TOTAL"
[ "$(kft_row_count)" = 0 ] || die "kft errors: rows recorded"

# filter arg rejecting every call (kft_bench_target's argument counts up
# from 0 in each round): judged at entry, exit not hooked.
kft_measure kft_argf_reject "filter arg 1 int < 0 filter funclist kft_bench_target fend"
n=$(counter "filtered by argument")
[ "$n" = "$TOTAL" ] || die "kft filter arg: $n calls filtered for $TOTAL"
[ "$(kft_row_count)" = 0 ] || die "kft filter arg: rows recorded"

kft_measure kft_context_reject "filter onlyints filter funclist kft_bench_target fend"
n=$(counter "filtered by context")
[ "$n" = "$TOTAL" ] || die "kft onlyints: $n calls filtered for $TOTAL"

kft_measure kft_record "logentries $((TOTAL + 1000)) filter funclist kft_bench_target fend"
n=$(kft_row_count)
[ "$n" = "$TOTAL" ] || die "kft record: $n rows for $TOTAL calls"

# log ring (issue 42): a ring smaller than the calls, so that most of them
# write over an older one, as a flight recorder does all day.
kft_measure kft_ring_record "log ring logentries 1024 filter funclist kft_bench_target fend"
ring_check kft_ring_record
# log stream: a buffer that holds every call, read once after the stop.
kft_measure kft_stream_record "log stream logentries $((TOTAL + 1000)) filter funclist kft_bench_target fend"
n=$(kft_row_count)
[ "$n" = "$TOTAL" ] || die "kft stream record: $n rows for $TOTAL calls"

# kft record (issue 42), the command: a stream run (the one above, in
# units ns) that its reader drains into a file each 0.1 s during the
# rounds (its reads of /proc/kft_stream's binary rows, the file) and
# after the Ctrl-C (stream_row): every call written, none lost.
# REC_FAST: --fast (hooks fast) for the next rec_start.
rec_running() {
	case $(head -n 1 /proc/kft) in "status: run id "*", primed, triggered, not complete") return 0 ;; esac
	return 1
}
rec_start() {
	kft clear
	command kft record -o /tmp/rec.log -e "$STREAM_ENTRIES" ${REC_FAST:+--fast} kft_bench_target \
		>/tmp/rec.out 2>/tmp/rec.err &
	pid=$!
	wait_for "kft record" $pid rec_running
}
rec_check() {
	wait $pid || die "kft record: $(cat /tmp/rec.out /tmp/rec.err)"
	line=$(grep '^kft record: ' /tmp/rec.out) || die "kft record: no last line: $(cat /tmp/rec.out /tmp/rec.err)"
	written=$(echo "$line" | sed -n 's/^kft record: \([0-9]*\) calls\{0,1\} written to .*/\1/p')
	lost=$(echo "$line" | sed -n 's/.*; \([0-9]*\) lost.*/\1/p')
	[ -n "$written" ] && [ -n "$lost" ] || die "kft record: last line: $line"
	[ $((written + lost)) = "$1" ] || die "kft record: $written written + $lost lost for $1 calls"
	[ "$lost" = 0 ] || die "kft record: $lost of $1 calls lost (-e $STREAM_ENTRIES): a figure without them"
	command kft report /tmp/rec.log >/tmp/rec.txt || die "kft report failed"
	grep -qx "Number of entries after filters = $written" /tmp/rec.txt ||
		die "kft record: the file's count: $(grep '^Number of entries' /tmp/rec.txt)"
	[ "$(sed '1,/^--------/d' /tmp/rec.txt | wc -l)" = "$written" ] ||
		die "kft record: the file's rows are not its $written calls"
	echo "info kft record: $line, $(wc -c </tmp/rec.log) bytes"
	rm -f /tmp/rec.txt
	rm -f /tmp/rec.log
}
stream_row kft_record_stream rec_start rec_check
kft clear

kft_measure kft_outside "logentries 1000 filter funclist kft_bench_other fend"
grep -q kft_bench_other /tmp/kft-hooked || die "kft outside: kft_bench_other not hooked"
kft clear
kft_roots_measure kft_roots_dropped ""
fi

# mode histogram (issue 24): every call counted in its bucket, where the
# module has the mode.
# hist_calls: the calls counted in kft_bench_target's buckets.
hist_calls() {
	awk '/^ *[0-9]+ 0x[0-9a-f]+ kft_bench_target / { f = 1; next } /^ *[0-9]+ 0x/ { f = 0 }
		f && / -> / { n += $5 } END { print n + 0 }' /proc/kft_data
}
if [ "$(kftio write /proc/kft "new begin mode histogram filter funclist kft_bench_target fend end" | tail -n 1)" = ok ]; then
	if safe_hooks_here; then
		kft_measure kft_histogram "mode histogram filter funclist kft_bench_target fend"
		[ "$(hist_calls)" = "$TOTAL" ] || die "kft histogram: $(hist_calls) calls for $TOTAL"
		kft clear
	fi
	hist_modes="histogram"
else
	echo "info kft without histogram mode: no kft_histogram row"
	hist_modes=
fi
safe_hooks_here || echo "info no safe hooks here (no fprobe, no kprobes at ftrace's call sites): no rows of fprobe, kretprobes, kft's hooks safe or kprobe events"

# The same with kft's own exit hook (hooks fast, issue 13), on every x86-64,
# arm64 and riscv64 kernel (fast_hooks_here: tests/lib.sh).
if fast_hooks_here; then
kft_measure kft_fast_mintime_reject "hooks fast filter mintime 1000000 filter funclist kft_bench_target fend"
n=$(counter "filtered by time")
[ "$n" = "$TOTAL" ] || die "kft fast mintime: $n calls filtered for $TOTAL"
[ "$(kft_row_count)" = 0 ] || die "kft fast mintime: rows recorded"
kft_measure kft_fast_errors_reject "hooks fast filter errors filter funclist kft_bench_target fend"
n=$(counter "filtered by return value")
[ "$n" = "$TOTAL" ] || die "kft fast errors: $n calls filtered for $TOTAL"
[ "$(kft_row_count)" = 0 ] || die "kft fast errors: rows recorded"
kft_measure kft_fast_argf_reject "hooks fast filter arg 1 int < 0 filter funclist kft_bench_target fend"
n=$(counter "filtered by argument")
[ "$n" = "$TOTAL" ] || die "kft fast filter arg: $n calls filtered for $TOTAL"
[ "$(kft_row_count)" = 0 ] || die "kft fast filter arg: rows recorded"
kft_measure kft_fast_record "hooks fast logentries $((TOTAL + 1000)) filter funclist kft_bench_target fend"
n=$(kft_row_count)
[ "$n" = "$TOTAL" ] || die "kft fast record: $n rows for $TOTAL calls"
kft_measure kft_fast_ring_record "hooks fast log ring logentries 1024 filter funclist kft_bench_target fend"
ring_check kft_fast_ring_record
kft_measure kft_fast_stream_record "hooks fast log stream logentries $((TOTAL + 1000)) filter funclist kft_bench_target fend"
n=$(kft_row_count)
[ "$n" = "$TOTAL" ] || die "kft fast stream record: $n rows for $TOTAL calls"
REC_FAST=1 stream_row kft_fast_record_stream rec_start rec_check
kft clear
kft_measure kft_fast_outside "hooks fast logentries 1000 filter funclist kft_bench_other fend"
grep -q kft_bench_other /tmp/kft-hooked || die "kft fast outside: kft_bench_other not hooked"
kft clear
kft_roots_measure kft_fast_roots_dropped "hooks fast"
if [ -n "$hist_modes" ]; then
	kft_measure kft_fast_histogram "mode histogram hooks fast filter funclist kft_bench_target fend"
	[ "$(hist_calls)" = "$TOTAL" ] || die "kft fast histogram: $(hist_calls) calls for $TOTAL"
	kft clear
fi
fi

# Context switches (issue 41): the writer and a kernel thread hand turns
# back and forth on one CPU, SCHED_FIFO (kft_bench_switch.ko), each inside
# a call that lasts the round: what a switch costs with nothing, with kft
# running on another function, with kft timing the two calls but no
# scheduler probe, with offcpu's probe and no task followed, with offcpu following both, with wakers, and with
# libbpf-tools' offcputime. Prints "switch KEY MIN MEDIAN MAX":
# instructions per switch.
TURNS=$((CALLS / 10))
[ "$TURNS" -ge 10 ] || TURNS=10
insmod /kft/kft_bench_switch.ko || die "insmod kft_bench_switch"
# (riscv64 has no safe hooks: kft's fast ones there.)
sw_hooks=$(safe_hooks_here || echo "hooks fast")
# switch_measure KEY: the rounds, the writer on CPU 0 (the thread is bound
# to the writer's CPU); the result line. The writer leaves its CPU once a
# turn: more than 1% more (and a few) would be other tasks' switches in
# the figure.
switch_measure() {
	taskset -c 0 sh -c "echo '$TURNS $ROUNDS' >/proc/kft_bench_switch" || die "$1: the ping-pong failed"
	set -- "$1" $(cat /proc/kft_bench_switch)
	# rounds R turns N ns/switch min MIN median MED max MAX out O
	echo "switch $1 $8 ${10} ${12}"
	[ "${14}" -ge $((TURNS * ROUNDS)) ] && [ "${14}" -le $((TURNS * ROUNDS * 101 / 100 + 5)) ] ||
		die "$1: the writer left its CPU ${14} times in $((TURNS * ROUNDS)) turns"
}
# switch_rows FUNCTION: kft's rows of FUNCTION (one a round, and the warm-up's).
switch_rows() {
	kft_rows /tmp/switch.rows
	rows_of /tmp/switch.rows "$(ksym "$1")"
}
# switch_followed KEY: offcpu's status after the run: no task left followed,
# none of the calls without its times.
switch_followed() {
	grep -q '^offcpu: [0-9]* tasks, 0 followed now, 0 calls' /proc/kft || die "$1: $(grep '^offcpu' /proc/kft)"
}
switch_measure switch_none

if [ "$SWITCH_KFT" = 1 ]; then
# kft running, without offcpu, on a function never called: nothing of kft
# runs at a switch.
kft "new begin $sw_hooks filter funclist kft_bench_other fend end"
kft start
switch_measure switch_kft_outside
cat $T/enabled_functions /sys/kernel/debug/kprobes/list 2>/dev/null | grep -q kft_bench_other ||
	die "switch_kft_outside: kft_bench_other not hooked"
kft stop
kft clear

# kft timing both calls without offcpu: no scheduler probe.
kft "new begin $sw_hooks filter funclist kft_bench_ping kft_bench_pong fend end"
kft start
switch_measure switch_kft_trace
kft stop
for f in kft_bench_ping kft_bench_pong; do
	[ "$(switch_rows $f | wc -l)" = $((ROUNDS + 1)) ] || die "switch_kft_trace: $(switch_rows $f | wc -l) rows of $f"
done
! grep -q 'oncpu=' /proc/kft_data || die "switch_kft_trace: offcpu's times without offcpu"
kft clear

# offcpu with no task followed (kft times a function never called): the
# probe reads the count of tasks followed and returns.
kft "new begin $sw_hooks filter funclist kft_bench_other fend offcpu end"
kft start
switch_measure switch_kft_offcpu_idle
kft stop
switch_followed switch_kft_offcpu_idle
kft clear

# offcpu following both tasks: each switch finds both in the table.
kft "new begin $sw_hooks filter funclist kft_bench_ping kft_bench_pong fend offcpu end"
kft start
switch_measure switch_kft_offcpu
kft stop
for f in kft_bench_ping kft_bench_pong; do
	n=$(switch_rows $f | awk '{ s = 0; for (i = 1; i <= NF; i++) if ($i ~ /^(runnable|blocked)=/) { split($i, a, "="); s += a[2] }
		if (s > 0) n++ } END { print n + 0 }')
	[ "$n" = $((ROUNDS + 1)) ] || die "switch_kft_offcpu: $n rows of $f off the CPU, for $((ROUNDS + 1)) calls: $(switch_rows $f | head -n 3)"
done
switch_followed switch_kft_offcpu
kft clear

# wakers, both calls roots: each wakeup of either task unwinds its waker's
# stack; each root call keeps its longest sleep's waker, the other task.
kft "new begin $sw_hooks filter roots kft_bench_ping kft_bench_pong fend filter funclist kft_bench_ping kft_bench_pong fend wakers end"
kft start
switch_measure switch_kft_wakers
kft stop
switch_followed switch_kft_wakers
n=$(sed -n 's/^wakers: \([0-9]*\) wakeups held.*/\1/p' /proc/kft)
[ "$n" = $((2 * (ROUNDS + 1))) ] || die "switch_kft_wakers: '$n' wakeups held for $((2 * (ROUNDS + 1))) root calls"
n=$(grep -c ' waker=[0-9]* wcomm=kft_bench_pong ' /proc/kft_data || true)
[ "$n" = $((ROUNDS + 1)) ] || die "switch_kft_wakers: $n wakeups by kft_bench_pong for $((ROUNDS + 1)) rounds"
kft clear
else
	echo "info SWITCH_KFT=0: no kft rows of the context switches"
fi

# libbpf-tools' offcputime (the peer guest has it), every task: each switch
# saves the stacks of the task switched out, and ends the interval of the
# one switched in. On once it holds its BPF link; its stacks printed at exit.
if [ -x /usr/sbin/offcputime ]; then
	/usr/sbin/offcputime >/tmp/offcputime.out 2>&1 &
	oc=$!
	i=0
	until ls -l /proc/$oc/fd 2>/dev/null | grep -q 'anon_inode:bpf_link'; do
		i=$((i + 1))
		[ $i -lt 600 ] || die "offcputime did not attach: $(cat /tmp/offcputime.out)"
		sleep 0.1
	done
	switch_measure switch_offcputime
	kill -INT $oc
	wait $oc || die "offcputime: $(cat /tmp/offcputime.out)"
	# (A stack whose bucket in its stack map another holds is lost: either.)
	grep -q '^ *kft_bench_p[io]ng$' /tmp/offcputime.out ||
		die "offcputime saw no switch in kft_bench_ping or kft_bench_pong: $(head -n 40 /tmp/offcputime.out)"
else
	echo "info no libbpf-tools in this guest: no offcputime row"
fi
rmmod kft_bench_switch || die "rmmod kft_bench_switch"

# Sampling profilers (issue 11): what one sample costs. PROFILE_ROUNDS
# spins of a fixed loop (kft_bench_spin, interrupts on), with no profiler,
# under kft's mode profile and under bpftrace's profile probe, both with
# the interrupted kernel stack counted, at HZ. Guest ns are instructions
# (-icount), so what a profiler adds to the spins is what its samples
# cost: the interrupt, the handler, the unwinding, the count. Divided by
# the samples that hit the spins: those with kft_bench_spin in their stack
# (by each profiler's own count).
# spins FILE: the spins; their guest ns, one a line, into FILE.
spins() {
	: >"$1"
	i=0
	while [ $i -lt "$PROFILE_ROUNDS" ]; do
		bench "spin $SPIN"
		sed -n 's/.* spin_ns //p' /proc/kft_bench >>"$1"
		i=$((i + 1))
	done
}
sum() {
	awk '{ n += $1 } END { printf "%.0f\n", n }' "$1"
}
# spin_samples FRAMES: the samples of a "COUNT|frame;..." file in the spins.
spin_samples() {
	awk -F'|' '$2 ~ /(^|;)kft_bench_spin\+/ { n += $1 } END { print n + 0 }' "$1"
}
# profile_result KEY BASE_NS WITH_NS SAMPLES
profile_result() {
	# The spins took at least WITH_NS * HZ / 1e9 sampling periods: a rate
	# held only under -icount (the smoke run, SMOKE=1, asks for samples).
	[ "$4" -gt 0 ] || die "$1: no sample in $3 ns of spins at $HZ Hz"
	[ "$SMOKE" = 1 ] || [ $(($4 * 2000000000 / $3)) -ge "$HZ" ] ||
		die "$1: $4 samples in $3 ns of spins at $HZ Hz"
	echo "sample $1 $(awk -v b="$2" -v w="$3" -v n="$4" 'BEGIN { printf "%.1f", (w - b) / n }') $4 $2 $3"
}
spins /tmp/spins-base
base=$(sum /tmp/spins-base)
echo "info spins: $PROFILE_ROUNDS of $SPIN turns, $base ns in all with no profiler"
kft "new begin mode profile sample $HZ end"
kft start
spins /tmp/spins-kft
kft stop
kft_stack_frames /tmp/kft-profile.frames
n=$(spin_samples /tmp/kft-profile.frames)
echo "info kft profile: $(log_line 'Number of events counted'), $(log_line 'Idle samples skipped'), $n in the spins"
sort -t'|' -k1,1nr /tmp/kft-profile.frames | grep -m 1 'kft_bench_spin+' >/tmp/kft-profile.top || true
echo "scale profile_depth_kft $(stack_depth /tmp/kft-profile.top kft_bench_spin)"
profile_result kft_profile "$base" "$(sum /tmp/spins-kft)" "$n"
kft clear
if command -v bpftrace >/dev/null; then
	cat >/tmp/spin-run <<END
i=0
while [ \$i -lt $PROFILE_ROUNDS ]; do
	echo "spin $SPIN" >/proc/kft_bench
	sed -n 's/.* spin_ns //p' /proc/kft_bench >>/tmp/spins-bpftrace
	i=\$((i + 1))
done
END
	: >/tmp/spins-bpftrace
	bpftrace -e "profile:hz:$HZ { @[kstack] = count(); }" -c "/bin/sh /tmp/spin-run" >/tmp/bpftrace.out 2>&1 ||
		die "bpftrace profile: $(cat /tmp/bpftrace.out)"
	[ "$(wc -l </tmp/spins-bpftrace)" = "$PROFILE_ROUNDS" ] || die "bpftrace profile: the spins did not run: $(cat /tmp/bpftrace.out)"
	bpftrace_stack_frames /tmp/bpftrace.out /tmp/bpftrace.frames
	n=$(spin_samples /tmp/bpftrace.frames)
	sort -t'|' -k1,1nr /tmp/bpftrace.frames | grep -m 1 'kft_bench_spin+' >/tmp/bpftrace.top || true
	echo "scale profile_depth_bpftrace $(stack_depth /tmp/bpftrace.top kft_bench_spin)"
	profile_result bpftrace_profile "$base" "$(sum /tmp/spins-bpftrace)" "$n"
fi
rmmod kft || die "rmmod kft"

# ftrace's function_graph: with tracing_thresh (records nothing), then
# recording every call; the function tracer; kprobe events.
echo 1 >$T/tracing_on
echo kft_bench_target >$T/set_ftrace_filter || die "set_ftrace_filter"
echo 1000000 >$T/tracing_thresh
tracer function_graph
measure fgraph_thresh
# (Changing the tracer empties the trace: look before.)
grep -q kft_bench_target $T/trace && die "fgraph thresh: calls recorded"
grep -q kft_bench_target $T/enabled_functions || die "fgraph thresh: not hooked"
tracer nop
echo 0 >$T/tracing_thresh
echo >$T/trace
tracer function_graph
measure fgraph_record
# (On 32-bit ARM only because the target saves its link register there:
# kft_bench.c.)
grep -q kft_bench_target $T/trace || die "fgraph record: nothing in the trace"

tracer nop
echo >$T/trace
tracer function
measure function
grep -q kft_bench_target $T/trace || die "function: nothing in the trace"
tracer nop
echo >$T/set_ftrace_filter
echo >$T/trace

# trace-cmd record (the peer guest has it), the peer of kft record: the
# function tracer on the function, its recorder (a process a CPU, splicing
# the CPU's ring buffer into a file, each 1 ms by default) running during
# the rounds and after the Ctrl-C (stream_row). Recording once
# tracing_on is back on (trace-cmd sets the tracer and its filter first);
# every call an event in its file.
tc_recording() {
	[ "$(cat $T/tracing_on)" = 1 ] && [ "$(cat $T/current_tracer)" = function ] &&
		grep -q '^kft_bench_target' $T/set_ftrace_filter
}
tc_start() {
	echo 0 >$T/tracing_on
	trace-cmd record -p function -l kft_bench_target -o /tmp/tc.dat >/tmp/tc.out 2>&1 &
	pid=$!
	wait_for "trace-cmd record" $pid tc_recording
}
tc_check() {
	wait $pid || die "trace-cmd record: $(cat /tmp/tc.out)"
	# (Its last lines: each CPU's ring buffer counters at the end.)
	echo "info trace-cmd record: $(tail -n 12 /tmp/tc.out | tr -s '\n\t ' ' ')"
	# The report's lines of the function, and those that say events were
	# lost (its first lines kept, to show).
	set -- "$1" $(trace-cmd report -i /tmp/tc.dat 2>/tmp/tc.report.err | awk 'NR <= 20 { print >"/tmp/tc.head" }
		/function: *kft_bench_target/ { n++ } /EVENTS DROPPED|LOST/ { l++ } END { print n + 0, l + 0 }')
	[ "$2" = "$1" ] ||
		die "trace-cmd record: $2 events for $1 calls, $3 lines of lost events: $(cat /tmp/tc.out /tmp/tc.report.err /tmp/tc.head)"
	rm -f /tmp/tc.dat
	tracer nop
	echo >$T/set_ftrace_filter
	echo 1 >$T/tracing_on
	echo >$T/trace
}
if command -v trace-cmd >/dev/null; then
	stream_row tracecmd_record tc_start tc_check
else
	echo "info no trace-cmd in this guest: no trace-cmd row"
fi

if safe_hooks_here; then
echo 'p:kftb_entry kft_bench:kft_bench_target' >>$T/kprobe_events || die "kprobe event"
echo 1 >$T/events/kprobes/kftb_entry/enable
measure kprobe_event
n=$(awk '$1 == "kftb_entry" { print $2 }' $T/kprobe_profile)
[ "$n" = "$TOTAL" ] || die "kprobe event: $n hits for $TOTAL calls"
echo 'r:kftb_exit kft_bench:kft_bench_target' >>$T/kprobe_events || die "kretprobe event"
echo 1 >$T/events/kprobes/kftb_exit/enable
measure kprobe_kretprobe_events
echo 0 >$T/events/kprobes/kftb_entry/enable
echo 0 >$T/events/kprobes/kftb_exit/enable
n=$(awk '$1 == "kftb_exit" { print $2 }' $T/kprobe_profile)
[ "$n" = "$TOTAL" ] || die "kretprobe event: $n hits for $TOTAL calls"
echo >$T/kprobe_events
echo >$T/trace
fi
rmmod kft_bench || die "rmmod kft_bench"

[ "$SCALE" = 1 ] || exit 0

# Memory: a record's size as kft reports it, and what hooking functions
# costs (slab + vmalloc + percpu, before and after, less the log).
kmem_kb() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1		# RCU-freed objects
	awk '/^(Slab|VmallocUsed|Percpu):/ { kb += $2 } END { print kb }' /proc/meminfo
}
insmod /kft/kft.ko || die "insmod kft"
kft "new begin logentries 1000 filter funclist vfs_read fend end"
echo "scale record_bytes $(sed -n 's/^log: .*entries used, \([0-9]*\) bytes each.*/\1/p' /proc/kft)"
kft clear
# (6.1 takes no globs: the vfs_* functions by name, module ones left out.
# riscv64's runs have fast hooks, which take globs.)
if has_fprobe || ! safe_hooks_here; then
	funcs='*'
else
	funcs=$(awk '$1 ~ /^vfs_/ && NF == 1 { print $1 }' $T/available_filter_functions | sort -u | tr '\n' ' ')
fi
m0=$(kmem_kb)
kft "new begin filter mintime 1000 logentries 1000 filter funclist $funcs fend end"
m1=$(kmem_kb)
if has_fprobe || ! safe_hooks_here; then
	n=$(grep -c . $T/enabled_functions)
else
	# kft's kretprobes ("ADDR r SYMBOL+OFF [FTRACE]": no [FTRACE] on arm64)
	n=$(awk '$2 == "r" { n++ } END { print n + 0 }' /sys/kernel/debug/kprobes/list)
fi
kft clear
echo "scale memory_funcs $n"
echo "scale memory_kb $((m1 - m0 - 32))"	# less the 32 KB log
rmmod kft || die "rmmod kft"

# Scale: every traceable function on a fixed workload.
workload() {
	elapsed sh -c 'i=0; while [ $i -lt 20 ]; do /bin/true; cat /proc/version >/dev/null; ls / >/dev/null; i=$((i + 1)); done' 2>&1 |
		sed -n 's/^elapsed_ns //p'
}
elapsed_of() {
	"$@" 2>&1 | sed -n 's/^elapsed_ns //p'
}
workload >/dev/null	# page cache, dentries
echo "scale workload_none $(workload)"

# Count mode on every function (both kernels: entry only). Its stop takes
# the hooks off (detach_complete), so the stop is the detach.
insmod /kft/kft.ko || die "insmod kft"
echo "new begin mode count end" >/tmp/count.cfg
echo "scale count_attach_ns $(elapsed_of elapsed kftio write /proc/kft @/tmp/count.cfg)"
kft start
echo "scale workload_count $(workload)"
echo "scale count_detach_ns $(elapsed_of elapsed kftio write /proc/kft stop)"
echo "scale count_functions $(counter 'functions counted')"
echo "scale count_table_full $(counter 'not counted, table full')"
rmmod kft || die "rmmod kft"

# kft with fast hooks on every function (any x86-64 kernel), mintime 1000.
if fast_hooks_here; then
insmod /kft/kft.ko || die "insmod kft"
echo "new begin hooks fast filter mintime 1000 logentries 100000 end" >/tmp/allfast.cfg
echo "scale kft_fast_attach_ns $(elapsed_of elapsed kftio write /proc/kft @/tmp/allfast.cfg)"
echo "scale kft_fast_hooked $(wc -l <$T/enabled_functions)"
kft start
echo "scale workload_kft_fast $(workload)"
echo "scale kft_fast_detach_ns $(elapsed_of elapsed kftio write /proc/kft stop)"
echo "scale kft_fast_missed $(counter missed)"
kft clear
# Busy while calls it timed return (the shell's, just after the clear).
rmmod_when_drained 5 || die "rmmod kft (fast)"
fi

# function_graph with tracing_thresh 1000 (us), every function (any kernel).
echo 1000 >$T/tracing_thresh
echo "scale fgraph_attach_ns $(elapsed_of elapsed sh -c "echo function_graph >$T/current_tracer")"
echo "scale workload_fgraph $(workload)"
echo "scale fgraph_detach_ns $(elapsed_of elapsed sh -c "echo nop >$T/current_tracer")"
echo 0 >$T/tracing_thresh

has_fprobe || { echo "info no fprobe: kft cannot trace every function here"; exit 0; }

# kft with mintime 1000 (1 ms) against function_graph with tracing_thresh
# 1000 (us).

insmod /kft/kft.ko || die "insmod kft"
echo "scale traceable_functions $(wc -l <$T/available_filter_functions)"
echo "new begin filter mintime 1000 logentries 100000 end" >/tmp/all.cfg
echo "scale kft_attach_ns $(elapsed_of elapsed kftio write /proc/kft @/tmp/all.cfg)"
echo "scale kft_hooked $(wc -l <$T/enabled_functions)"
kft start
echo "scale workload_kft $(workload)"
# The stop of a complete run takes its hooks off (detach_complete).
echo "scale kft_detach_ns $(elapsed_of elapsed kftio write /proc/kft stop)"
echo "scale kft_missed $(counter missed)"
kft clear
rmmod kft || die "rmmod kft"


#!/bin/sh
# The overhead benchmark, inside the guest (booted by scripts/bench with
# -icount shift=0,sleep=off -smp 1: a guest nanosecond is one instruction).
#
# For each mechanism, in one boot: switch it on for kft_bench_target(), let
# /proc/kft_bench time rounds of calls, check that the mechanism really saw
# the calls (or really rejected them), switch it off. Prints
#	cost KEY MIN MEDIAN MAX		instructions per call
#	scale KEY VALUE			the scale measurements (kernels with fprobe)
#	info TEXT
# and "bench: failed: WHY" (then stops) when a check fails: a figure from a
# mechanism that did not fire would be a lie. bpftrace's rows only where
# bpftrace is (scripts/vm/run -b puts it in the guest).
CALLS=${CALLS:-10000}		# calls per round
ROUNDS=${ROUNDS:-11}		# rounds; the median is reported
SCALE=${SCALE:-1}		# 0: skip memory and every-function scale
TOTAL=$((CALLS * (ROUNDS + 1)))	# with the warm-up round
T=/sys/kernel/tracing
export PATH=/kft/bin:$PATH
# The tests' helpers: counter (a /proc/kft counter), has_fprobe.
. /kft/tests/lib.sh

die() {
	echo "bench: failed: $*"
	exit 1
}

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

kft() {
	r=$(kftio write /proc/kft "$1" | tail -n 1)
	[ "$r" = ok ] || die "kft: '$1': $r: $(grep '^error:' /proc/kft)"
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
	# What is hooked, seen while running: a complete run detaches.
	cat $T/enabled_functions >/tmp/kft-hooked
	kft stop
}

insmod /kft/kft_bench.ko || die "insmod kft_bench"
[ -d $T/events ] || die "no tracefs at $T"
echo "info kernel $(uname -r)"
echo "info calls per round $CALLS, rounds $ROUNDS"

measure bare
[ "$hits" = 0 ] || die "bare: $hits hits"
measure clock clock

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

# bpftrace (the peer guest: scripts/vm/run -b puts it in), the smallest
# counting program: @ = count() on the function's entry, by a kprobe (on
# ftrace's site) and by a kfunc (BPF trampoline, needs the module's BTF:
# 6.12 only). bpftrace starts the rounds itself once attached (-c), and
# prints the map at its exit.
bpftrace_measure() {
	echo "echo 'run $CALLS $ROUNDS' >/proc/kft_bench" >/tmp/bench-run
	bpftrace -e "$2 { @ = count(); }" -c "/bin/sh /tmp/bench-run" >/tmp/bpftrace.out 2>&1 ||
		die "bpftrace $2: $(cat /tmp/bpftrace.out)"
	set -- "$1" $(cat /proc/kft_bench)
	echo "cost $1 $8 ${10} ${12}"
	n=$(sed -n 's/^@: //p' /tmp/bpftrace.out)
	[ "$n" = "$TOTAL" ] || die "$1: bpftrace counted '$n' for $TOTAL calls: $(cat /tmp/bpftrace.out)"
}
if command -v bpftrace >/dev/null; then
	if [ -e /sys/kernel/btf/kft_bench ]; then
		bpftrace_measure bpftrace_kfunc kfunc:kft_bench:kft_bench_target
	else
		echo "info no BTF for kft_bench: no bpftrace kfunc row"
	fi
	bpftrace_measure bpftrace_kprobe kprobe:kft_bench_target
else
	echo "info no bpftrace in this guest: no bpftrace rows"
fi

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

kft_measure kft_context_reject "filter onlyints filter funclist kft_bench_target fend"
n=$(counter "filtered by context")
[ "$n" = "$TOTAL" ] || die "kft onlyints: $n calls filtered for $TOTAL"

kft_measure kft_record "logentries $((TOTAL + 1000)) filter funclist kft_bench_target fend"
n=$(kft_row_count)
[ "$n" = "$TOTAL" ] || die "kft record: $n rows for $TOTAL calls"

kft_measure kft_outside "logentries 1000 filter funclist kft_bench_other fend"
grep -q kft_bench_other /tmp/kft-hooked || die "kft outside: kft_bench_other not hooked"
kft clear
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
grep -q kft_bench_target $T/trace || die "fgraph record: nothing in the trace"
tracer nop
echo >$T/trace
tracer function
measure function
grep -q kft_bench_target $T/trace || die "function: nothing in the trace"
tracer nop
echo >$T/set_ftrace_filter
echo >$T/trace

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
# (6.1 takes no globs: the vfs_* functions by name, module ones left out.)
if has_fprobe; then
	funcs='*'
else
	funcs=$(awk '$1 ~ /^vfs_/ && NF == 1 { print $1 }' $T/available_filter_functions | sort -u | tr '\n' ' ')
fi
m0=$(kmem_kb)
kft "new begin filter mintime 1000 logentries 1000 filter funclist $funcs fend end"
m1=$(kmem_kb)
if has_fprobe; then
	n=$(grep -c . $T/enabled_functions)
else
	n=$(grep -c '\[FTRACE\]' /sys/kernel/debug/kprobes/list)
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

echo 1000 >$T/tracing_thresh
echo "scale fgraph_attach_ns $(elapsed_of elapsed sh -c "echo function_graph >$T/current_tracer")"
echo "scale workload_fgraph $(workload)"
echo "scale fgraph_detach_ns $(elapsed_of elapsed sh -c "echo nop >$T/current_tracer")"
echo 0 >$T/tracing_thresh

#!/bin/sh
# What kft costs a real-time system, inside the guest (booted by
# scripts/bench-rt on a PREEMPT_RT kernel with -icount shift=0,sleep=off
# -smp 1: a guest nanosecond is one instruction, so a latency is the
# instructions between the timer's expiry and cyclictest running again).
#
# cyclictest (rt-tests) wakes every INTERVAL us at SCHED_FIFO priority 95
# while a load (dd between /dev/zero and /dev/null: read and write system
# calls without end) runs at SCHED_OTHER on the same CPU. Each job runs the
# same cyclictest with a tracer doing one job on every CPU: nothing, kft,
# or ftrace's function_graph doing the same job. Prints
#	rt KEY LOOPS MIN AVG P999 MAX	latencies in us (1000 instructions)
#	info TEXT
# and "bench: failed: WHY" (then stops) when a tracer did not do its job:
# a latency beside a tracer that saw nothing would be a lie.
# (scripts/bench-rt passes them on the kernel command line)
cmdline_arg() {
	sed -n "s/.*\<kft\.$1=\([0-9]*\).*/\1/p" /proc/cmdline
}
LOOPS=$(cmdline_arg loops)
LOOPS=${LOOPS:-10000}		# wakeups per job
INTERVAL=$(cmdline_arg interval)
INTERVAL=${INTERVAL:-1000}	# us between them
. /kft/bench-lib.sh

# latency KEY [COMMAND]: cyclictest beside the load (and COMMAND, run in
# the background once cyclictest runs: an attach, a detach), its row.
latency() {
	dd if=/dev/zero of=/dev/null bs=512 2>/dev/null &
	load=$!
	cyclictest -q -m -p 95 -i "$INTERVAL" -l "$LOOPS" -h 10000 >/tmp/cyclictest.out 2>&1 &
	ct=$!
	if [ -n "${2:-}" ]; then
		sleep 0.2
		sh -c "$2" || die "$1: $2"
	fi
	wait $ct || die "$1: cyclictest: $(tail -n 5 /tmp/cyclictest.out)"
	kill $load
	wait $load 2>/dev/null
	# Buckets "US COUNT" (one thread), then "# Min Latencies: N" etc.;
	# latencies past the histogram's last bucket are overflows (and make
	# the 99.9th percentile unknown: reported as the maximum).
	# (Busybox's awk reads a number with leading zeros as octal: num().)
	awk -v key="$1" -v loops="$LOOPS" '
		function num(s) { sub(/^0+/, "", s); return s + 0 }
		/^[0-9]+[ \t]+[0-9]+$/ { us[n] = num($1); c[n++] = num($2); total += num($2) }
		/^# Min Latencies:/ { min = num($4) }
		/^# Avg Latencies:/ { avg = num($4) }
		/^# Max Latencies:/ { max = num($4) }
		/^# Histogram Overflows:/ { over = num($4) }
		END {
			if (total + over != loops) {
				print "bench: failed: " key ": " total + over " cyclictest samples for " loops " loops"
				exit
			}
			need = 0.999 * (total + over); p = max
			for (i = 0; i < n; i++) { sum += c[i]; if (sum >= need) { p = us[i]; break } }
			printf "rt %s %d %d %d %d %d\n", key, total + over, min, avg, p, max
		}' /tmp/cyclictest.out
}

# kft_filtered KEY CONFIG: the latencies under a kft run whose time filter
# rejects every call (CONFIG: what goes between begin and end); it must
# have rejected some.
kft_filtered() {
	kft "new begin $2 end"
	kft start
	latency "$1"
	n=$(counter 'filtered by time')
	kft clear
	[ "${n:-0}" -gt 0 ] || die "$1: no call filtered ($n)"
}

echo "info kernel $(uname -r)"
case $(uname -v) in *PREEMPT_RT*) ;; *) echo "info not a PREEMPT_RT kernel: $(uname -v)" ;; esac
echo "info $LOOPS wakeups every $INTERVAL us per job"
command -v cyclictest >/dev/null || die "no cyclictest in the guest (scripts/vm/mkpeer)"
[ -d $T/events ] || die "no tracefs at $T"
insmod /kft/kft.ko || die "insmod kft"

latency no_tracer

# The load's own functions, by name (6.1's safe hooks take no globs).
list='vfs_read vfs_write ksys_read ksys_write read_iter_zero write_null'
kft_filtered kft_list "filter mintime 1000 filter funclist $list fend"
echo "$list" | tr ' ' '\n' >$T/set_ftrace_filter
echo 1000 >$T/tracing_thresh
echo function_graph >$T/current_tracer
latency fgraph_list
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter

# Every function with the safe hooks needs fprobe (kretprobes are refused
# for it: 6.1's).
if has_fprobe; then
	kft_filtered kft_all "filter mintime 1000 logentries 100000"
else
	echo "info no fprobe: kft's safe hooks (kretprobes) cannot trace every function here"
fi
if fast_hooks_here; then
	kft_filtered kft_fast_all "hooks fast filter mintime 1000 logentries 100000"
	# (busy while the calls it timed return: the shell's, just after)
	rmmod_when_drained 5 || die "rmmod kft (fast)"
	insmod /kft/kft.ko || die "insmod kft"
fi
echo function_graph >$T/current_tracer
latency fgraph_all
echo nop >$T/current_tracer
echo 0 >$T/tracing_thresh

kft "new begin mode count end"
kft start
latency kft_count
kft stop
[ "$(counter 'functions counted')" -gt 0 ] || die "kft_count: nothing counted"
kft clear

kft "new begin mode profile sample 1000 end"
kft start
latency kft_profile
kft stop
grep -q '^Number of events counted = [1-9]' /proc/kft_data || die "kft_profile: no samples"
kft clear

# Reads of a full log of 100000 rows and a prime (which empties it) while
# cyclictest runs: they hold kft's mutex, not the CPU.
kft "new begin logentries 100000 filter funclist $list fend end"
kft start
i=0
log_used() {
	sed -n 's/^log: \([0-9]*\) of .*/\1/p' /proc/kft
}
while [ "$(log_used)" != 100000 ] && [ $i -lt 100 ]; do
	dd if=/dev/zero of=/dev/null bs=512 count=20000 2>/dev/null
	i=$((i + 1))
done
[ "$(log_used)" = 100000 ] || die "kft_read: the log did not fill: $(grep entries /proc/kft)"
latency kft_read "cat /proc/kft_data >/dev/null && cat /proc/kft_data >/dev/null && kftio write /proc/kft prime >/dev/null"
kft clear
# The kernel's own cost of one kretprobe, without kft (kprobe_events): what
# kft's kretprobes pay at each attach where there is no fprobe (6.1).
latency kprobe_event "echo 'r:kft_rt_peer vfs_read' >>$T/kprobe_events"
echo >$T/kprobe_events

# An attach and a detach of every function while cyclictest runs: what the
# module holds preemption off for there shows as the worst case. The first
# since insmod looks up the names it keeps out of its hooks (kft.rst, "Real-
# time kernels"), the second does not.
if has_fprobe || fast_hooks_here; then
	all_hooks=
	has_fprobe || { all_hooks="hooks fast "; echo "info kft_attach_all: hooks fast (no fprobe)"; }
	echo "new begin ${all_hooks}filter mintime 1000 logentries 100000 end" >/tmp/all.cfg
	attach_all="kftio write /proc/kft @/tmp/all.cfg >/dev/null && kftio write /proc/kft start >/dev/null && kftio write /proc/kft clear >/dev/null"
	latency kft_attach_all_first "$attach_all"
	latency kft_attach_all "$attach_all"
fi
echo 1000 >$T/tracing_thresh
latency fgraph_attach_all "echo function_graph >$T/current_tracer && echo nop >$T/current_tracer"
echo 0 >$T/tracing_thresh
rmmod kft || die "rmmod kft"

#!/bin/sh
# What the benchmarks' guest scripts share (bench/guest.sh, bench/rt.sh),
# sourced from /kft/bench-lib.sh: the tests' helpers (counter, has_fprobe,
# fast_hooks_here: tests/kselftest/lib.sh), a failure that stops the
# benchmark, and a write to /proc/kft that must succeed.
T=/sys/kernel/tracing
export PATH=/kft/bin:$PATH
. /kft/tests/lib.sh

# A figure from a mechanism that did not fire would be a lie: say why, stop.
die() {
	echo "bench: failed: $*"
	exit 1
}

kft() {
	r=$(kftio write /proc/kft "$1" | tail -n 1)
	[ "$r" = ok ] || die "kft: '$1': $r: $(grep '^error:' /proc/kft)"
}

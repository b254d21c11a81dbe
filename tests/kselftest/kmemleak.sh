#!/bin/sh
# Debug kernels (CONFIG_DEBUG_KMEMLEAK): look for leaks, once a guest.
# scripts/vm/guest-init runs it once everything ran; tests/kselftest/run
# before a test marked "# kmemleak: scan first" (lockdown, which closes
# debugfs, and so kmemleak, for good: the guest of a debug kernel that
# runs it with other tests is scanned first, every other test of the
# guest done: lockdown is the last of the tests marked "# order: last").
# usage: sh kmemleak.sh CONSOLE
# An object is reported only once it is 5 s old and was unreferenced in two
# scans: scan, wait, scan again. The report goes to CONSOLE, where the
# host's runner fails on it, and to stdout (the results). A kernel locked
# down: it says so; a scan that fails otherwise fails the run.
k=/sys/kernel/debug/kmemleak
[ -e $k ] || exit 0
[ ! -e /tmp/kmemleak-scanned ] || exit 0
: >/tmp/kmemleak-scanned
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
level=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/security/lockdown 2>/dev/null)
if [ -n "$level" ] && [ "$level" != none ]; then
	echo "# kmemleak: not scanned: the kernel is locked down ($level)"
elif echo scan >$k && sleep 6 && echo scan >$k && leaks=$(cat $k); then
	if [ -n "$leaks" ]; then
		{
			echo "kmemleak: suspected memory leaks:"
			echo "$leaks"
		} >"$1"
		echo "$leaks" | sed 's/^/# kmemleak: /'
	else
		echo "# kmemleak: no leaks"
	fi
else
	echo "kmemleak: scan failed" >"$1"
	echo "# kmemleak: scan failed"
fi

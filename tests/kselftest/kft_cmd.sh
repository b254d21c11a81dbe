# Helpers for the tests of the kft command (sourced after lib.sh).

# kft_bg OUT CMD...: runs a kft command in the background, its output in
# OUT and OUT.err; its pid in $kft_pid.
kft_bg() {
	o=$1
	shift
	"$@" >"$o" 2>"$o.err" &
	kft_pid=$!
}

# wait_state PATTERN: waits (at most 60 s) until /proc/kft's first line
# matches the shell pattern: a kft command in the background got there.
wait_state() {
	i=0
	while :; do
		case $(head -n 1 /proc/kft) in $1) return 0 ;; esac
		i=$((i + 1))
		[ $i -lt 600 ] || fail "status never matched '$1': $(head -n 1 /proc/kft)"
		sleep 0.1
	done
}

# wait_open PATH: waits (at most 60 s) until the background kft holds PATH
# open: a command that opens its file after the run's start (kft record's
# /proc/kft_stream) is reading it, not about to open it.
wait_open() {
	i=0
	while :; do
		for fd in /proc/$kft_pid/fd/*; do
			[ "$(readlink "$fd" 2>/dev/null)" != "$1" ] || return 0
		done
		kill -0 $kft_pid 2>/dev/null || fail "kft (pid $kft_pid) ended before it opened $1: $(cat "$o.err")"
		i=$((i + 1))
		[ $i -lt 600 ] || fail "kft (pid $kft_pid) never opened $1: $(ls -l /proc/$kft_pid/fd 2>&1)"
		sleep 0.1
	done
}

# kft_stop: stops the background kft (SIGSTOP) and waits until it is
# stopped (state T), not only signalled.
kft_stop() {
	kill -STOP $kft_pid
	i=0
	until [ "$(awk '{ print $3 }' /proc/$kft_pid/stat 2>/dev/null)" = T ]; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "kft (pid $kft_pid) never stopped: $(cat /proc/$kft_pid/stat 2>&1)"
		sleep 0.1
	done
}

# kft_end OUT: Ctrl-C to the background kft, which must exit 0 within
# 120 s. One that does not fails the test with what it was doing (its
# kernel stack, kft's status), where a bare wait would hang the guest
# until its timeout, without a word.
kft_end() {
	kill -INT $kft_pid
	_i=0
	while kill -0 $kft_pid 2>/dev/null && [ -z "$(awk '$3 == "Z"' /proc/$kft_pid/stat 2>/dev/null)" ]; do
		_i=$((_i + 1))
		if [ $_i -ge 1200 ]; then
			echo "kft (pid $kft_pid) still running 120 s after its Ctrl-C; its kernel stack:"
			cat /proc/$kft_pid/stack 2>/dev/null || true
			head -n 3 /proc/kft 2>/dev/null || true
			kill -KILL $kft_pid 2>/dev/null || true
			fail "kft did not end after its Ctrl-C: $(cat "$1.err")"
		fi
		sleep 0.1
	done
	kft_wait "$1"
}

# kft_wait OUT: the background kft must exit 0.
kft_wait() {
	rc=0
	wait $kft_pid || rc=$?
	[ $rc -eq 0 ] || fail "kft exited $rc: $(cat "$1.err")"
}

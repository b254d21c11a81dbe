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

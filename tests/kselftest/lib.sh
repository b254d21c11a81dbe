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

kft_load() {
	insmod "$KFT_KO" "$@" || fail "insmod $KFT_KO $*"
	grep -q '^kft ' /proc/modules || fail "kft not in /proc/modules after insmod"
}

kft_unload() {
	rmmod kft || fail "rmmod kft"
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

# The guests of make check, make check-quick and scripts/census: which
# tests each one runs, on which kernel, with what. Sourced (bash) by them;
# $top is the tree's top. (Documentation/testing.rst, "The matrix".)
#
# A job is one guest, named KERNEL[-PASS][@KofN]:
#   KERNEL  5.10, 6.1, 6.12, latest (Debian's kernels, scripts/kernels/fetch),
#           rt (Debian's 6.12-rt, PREEMPT_RT) or debug (6.12-debug:
#           config/debug.config, scripts/kernels/build)
#   PASS    none: the main pass, every test of tests/kselftest but the
#           peer's (and on debug, debug_skip and debug_full_only below;
#           on rt, rt_skip);
#           peer: the tests that need bpftrace (a line "# requires:
#           bpftrace"), in a guest of their own (65 MB more to boot);
#           icount: those that also compare durations exactly ("# requires:
#           bpftrace icount"): one CPU under -icount (scripts/vm/run);
#           fast: the trace-mode tests with hooks fast as the default
#           (KFT_VM_HOOKS=fast), each on one Debian kernel (fast_kernel);
#           lockdown: the lockdown test, on the Debian kernels (it forbids
#           loading modules for good, which log_ring_oops' panic at the
#           guest's end needs), after last_boot, whose first two boots
#           end in a panic and a reset (KFT_VM_REBOOTS: the guest boots
#           three times, lockdown runs in the third), where the fast
#           pass cannot have them (5.10 has none; 6.1's has
#           log_ring_oops): on 6.12 and latest both run in the fast
#           pass's guest (lockdown_in_fast); on debug lockdown runs
#           last in the main pass's shard without log_ring_oops
#           (lockdown_joins)
#           tsc: the tests of durations and time filters (tsc_tests) in
#           a guest whose kernel marks the TSC unstable (KFT_VM_TSC),
#           where kft's time filters leave the TSC for the ns clock
#           full: on debug only, the main pass and debug_full_only
#           (make check-debug: scripts/check-debug)
#           quick: make check-quick's: the main pass's cheapest tests,
#           up to quick_budget guest-seconds (quick_tests)
#   @KofN   shard K of N of the pass's tests (split by their times:
#           shard_of), so that a long pass runs in several lanes at once;
#           K may be a list (@1,3of3: shards 1 and 3 in one guest)
# and boot: tests/boot/run (the boot kernel, config/boot.config).

kselftests=$top/tests/kselftest

# The peer's tests: bpftrace in the guest; those that also compare durations
# exactly run under -icount (scripts/vm/run), in a pass of their own.
icount_tests=$(cd "$kselftests" && grep -l '^# requires: .*\<icount\>' *.tc | sed 's/\.tc$//')
peer_tests=$(cd "$kselftests" && grep -l '^# requires: .*\<bpftrace\>' *.tc | sed 's/\.tc$//' |
	grep -vxF $(printf -- '-e %s ' $icount_tests x))

# The tsc pass's tests: tsc_unstable checks that the kernel marked the TSC
# unstable (it skips everywhere else), the others time calls in ns and us.
tsc_tests='tsc_unstable units_ns histogram_mode filter_mintime funclist_durations'

# tests_but NAME...: every in-guest test but these.
tests_but() {
	(cd "$kselftests" && ls *.tc | sed 's/\.tc$//' | grep -vxF $(printf -- '-e %s ' "$@"))
}

# On 6.12's main pass only (Documentation/testing.rst, "One kernel's
# tests"): the tests of what is kft's own code above the module's /proc
# files, the same whatever the kernel: the userspace commands over
# modes and runs whose kernel paths the module's tests check on every
# kernel (kft_*, errtrace*, tools_*: a command writes a configuration,
# reads the log or the stream, and prints; errtrace's every function is
# all_functions' and fast_*'s there, its filter errors retval's, its args
# args' and types'), the language's errors and a configuration in many
# writes (the parser, which the fuzzers run under ASan and UBSan on the
# host: bad_input, multi_write), the samples of the original's language
# (their every function all_functions', their triggers trigger_*'s) and
# the stack table's default size (stacks_capacity: stacks_mode's table).
# What a command does differently where the kernel differs stays on
# every kernel: kft_trace_glob (6.1 takes no glob), kft_refuse and
# kft_errors (cheap), and so do the permissions (unprivileged,
# opener_cap, proc_modes, addresses_hidden, lockdown). kft_slowtrace is
# of these too, with its fast pass (some_kernels_tests).
one_kernel_tests="samples bad_input multi_write kft_record tools_pipeline tools_stacks errtrace errtrace_args kft_funccount kft_funccount_interval kft_funclatency kft_stackcount kft_stacksnoop kft_stacksnoop_rate kft_profile kft_trace stacks_capacity"

# Not on the debug kernel (Documentation/testing.rst, "The debug kernel"):
# reload_cycles measures slab growth, which KASAN's quarantine inflates
# (kmemleak checks for leaks there instead); lockdown runs at the end of
# the shard without log_ring_oops (lockdown_joins); last_boot needs sysrq,
# which it lacks; the peer's tests need BTF, which it lacks;
# bench_smoke runs the benchmark, which runs on the Debian kernels only,
# and its kft paths (reject, record, count, stacks, profile) are the
# trace, count and stack tests' here (34 s); kft_slowtrace traces every
# function for minutes there, and its kernel paths (filter roots, with
# every function too, and offcpu) are filter_roots' and offcpu's here.
# roots_offcpu_load is filter roots and offcpu under load on every
# function, whose paths filter_roots and offcpu check there (33 s), and
# filter_roots_wide one root over every function, whose attach of every
# function all_functions and replace_wide check there (25 s).
# And one_kernel_tests.
debug_skip="reload_cycles lockdown last_boot bench_smoke kft_slowtrace roots_offcpu_load filter_roots_wide $one_kernel_tests"

# Not in make check's debug guests, only in make check-debug's (the pass
# full, scripts/check-debug): the tests whose kernel paths other tests of
# those guests run, on a kernel that takes 4 to 8 times 6.12's time
# (Documentation/testing.rst, "The debug kernel"): argfilter_string (a
# filter on an argument at entry is argfilter's, the nofault string read
# under its guard argstr's; its kprobe peers are 6.12's), count_reads_grow
# (every function again: count_all's table, read), attach_lookups (the
# lookups a module load makes, 6.12's source, checked on 6.12),
# durations_fgraph (function_graph's durations against kft's: a peer's
# check, 6.12's), types (userspace's printing of the args run's
# registers, args' here) and kft_refuse and kft_trace_glob (the kft
# command's refusals and globs: a start and a stop here). And variants of
# what the guests check once there, which a loaded machine took 2.1 times
# as long to run as an idle one, past what CI's 90 minutes leave: the
# other ways to capture arguments (argstr, argstr_roots, argstruct,
# count_per_arg, hist_per_arg, snoop_args: args, argfilter and
# argstr_exit run the capture, the filter and the copy), stacks_snoop_new
# (stacks_snoop's reads), count_module_unload (module_unload's, in count
# mode), fast_denylist (every function with fast hooks is
# fast_cpu_offline's), the other triggers (trigger_exit, trigger_time,
# count_triggers: trigger_entry's path), comm_column, funclist_durations,
# units_ns, and the language's and the status's tests (config_status,
# commands, version, kft_errors, autorepeat, addresses_hidden).
debug_full_only="argfilter_string count_reads_grow attach_lookups durations_fgraph types kft_refuse kft_trace_glob"
debug_full_only+=" argstr argstr_roots argstruct count_per_arg hist_per_arg snoop_args stacks_snoop_new count_module_unload fast_denylist"
debug_full_only+=" trigger_exit trigger_time count_triggers comm_column funclist_durations units_ns config_status commands version kft_errors autorepeat addresses_hidden"

# debug_tests PASS: the debug kernel's main pass ('') or its full one.
debug_tests() {
	if [ "$1" = full ]; then
		tests_but $debug_skip $peer_tests $icount_tests
	else
		tests_but $debug_skip $debug_full_only $peer_tests $icount_tests
	fi
}

# Not on the real-time kernel (Documentation/testing.rst, "PREEMPT_RT"):
# what PREEMPT_RT changes (threaded interrupts and irq_works, soft hrtimers,
# sleeping spinlocks, preemptible RCU, cond_resched() empty) is met by
# kft's kernel paths: hooks, timers, interrupts, teardown, concurrency,
# every mode. Left out are the tests of what runs the same there as on
# 6.12, whose source RT's kernel is: one_kernel_tests, the language's
# other errors, the /proc files' permissions and the status text
# (kft_errors .. proc_modes, addresses_hidden, lockdown), the other
# userspace commands (kft_*, comm_*), reload_cycles' slab growth,
# bench_smoke, fgraph_index0 (fprobe on fgraph only: 6.14 on),
# attach_lookups (6.1's and 6.12's), and the tests that repeat over every
# function what others check there once: replace_wide (a run over every
# function replaced by another: kft's order of detach and attach, whose
# every-function detach under load all_functions runs, with PREEMPT_RT's
# preemptible teardown), fast_denylist (the fast hooks' deny list of the
# same source's names, 6.12's; every function with fast hooks is
# fast_cpu_offline's here), and some_kernels_tests' count_reads_grow and
# filter_roots_wide. And the arguments' tests but two, args (the capture
# at entry, in every mode) and argstr_exit (a string's nofault copy as the
# call returns): the others parse, compare, copy and print more over the
# same hook code, which takes no lock, never waits and arms no timer, so
# RT changes nothing in it that those two do not meet; 6.12's job runs
# them on this source (argfilter, argfilter_string, argfilter_head,
# argstr, argstr_roots, argstr_pages, argstruct, count_per_arg,
# hist_per_arg, snoop_args, types).
rt_skip="attach_lookups replace_wide fast_denylist count_reads_grow filter_roots_wide reload_cycles bench_smoke lockdown last_boot kft_errors kft_refuse config_status generation version commands unprivileged opener_cap proc_modes addresses_hidden kft_slowtrace kft_trace_glob comm_escaped comm_column fgraph_index0 $one_kernel_tests"
rt_skip+=" argfilter argfilter_string argfilter_head argstr argstr_roots argstr_pages argstruct count_per_arg hist_per_arg snoop_args types"

# On some Debian kernels' main passes only, TEST=KERNEL,...:
# kft_slowtrace on 6.12 (and in the fast pass, on the kernel fast_kernel
# gives it), a userspace command over every function (22 to 36 s a
# kernel), whose kernel paths, filter roots and offcpu, filter_roots and
# offcpu check on every kernel; reload_cycles on 6.1 and latest, 100
# loads and unloads of kft with no run, whose kernel-dependent code is
# the workqueue's flags (KFT_WQ_PERCPU: 7.x's, the others' as 6.1's) and
# on 5.10 IRQ_WORK_INIT_HARD, a constant initializer (the rest of
# kft_init() and kft_exit() is the same code on every kernel; every
# test loads and unloads kft, load_unload checks the /proc files go, and
# kmemleak watches it all on the debug kernel); attach_lookups on 6.1 and
# 6.12 (and the debug kernel), the names looked up once per module load,
# code without a kernel-version difference beyond what every fast attach
# of the other tests runs (10 to 17 s a kernel).
# bench_smoke and peer_bench_smoke (in the peer pass) on 6.12: they run
# the benchmark with few calls, a tool of ours whose kft paths (reject,
# record, count, stacks, profile, the scheduler probes) the module's
# tests check on every kernel; scripts/bench runs it on the others (28 s
# of 6.1's and 7.3's main passes, 84 s of 6.1's peer pass: bpftrace
# starts once a row). count_reads_grow and filter_roots_wide on 6.12 (and
# count_reads_grow on the debug kernel): every function again for what is
# kft's own code above the hooks, the same on every kernel, whose kernel
# paths other tests run on each (count_reads_grow: the count table's
# view as functions keep coming, over count mode's every function,
# count_all's; filter_roots_wide: one root over every function, filter
# roots being filter_roots' and every function all_functions'). And
# one_kernel_tests, on 6.12.
some_kernels_tests="kft_slowtrace=6.12 reload_cycles=6.1,latest attach_lookups=6.1,6.12 bench_smoke=6.12 peer_bench_smoke=6.12 count_reads_grow=6.12 filter_roots_wide=6.12 $(printf '%s=6.12 ' $one_kernel_tests)"

# not_on KERNEL: the tests of some_kernels_tests whose kernels are others.
not_on() {
	local t
	for t in $some_kernels_tests; do
		case ,${t#*=}, in
		*,"$1",*) ;;
		*) echo "${t%%=*}" ;;
		esac
	done
}

# The fast pass: the tests that time calls in trace mode, with fast hooks
# as the default. Not: count, stacks and profile mode (no exit hooks); the
# tests of the language, the /proc files' permissions and the status (no
# call timed); stack_watch (a watch takes hooks safe); the tests that name
# their hooks themselves in every run they make, which the default changes
# nothing in, so that the fast pass would run them again as the main pass
# does on the same kernel (livepatch_fast, retval, errtrace, errtrace_args, argfilter, argfilter_head,
# argfilter_string, histogram_mode, durations_fgraph, last_boot, replace_wide (hooks safe),
# stack_truncation (safe, then fast), suspend_resume (safe, then fast),
# hibernate_resume (fast, or safe where there are none), and every fast_* test: each names
# hooks fast); comm_escaped (stacks, snoop and profile modes);
# fgraph_index0 (a kernel bug shown without kft); attach_lookups (names
# both hook kinds).
fast_skip='attach_lookups|last_boot|suspend_resume|hibernate_resume|retval|errtrace|errtrace_args|argfilter|argfilter_string|argfilter_head|histogram_mode|durations_fgraph|replace_wide|stack_truncation|bad_input|kft_errors|kft_refuse|commands|version|unprivileged|opener_cap|proc_modes|config_status|addresses_hidden|generation|multi_write|concurrent_writes|reload_cycles|lockdown|bench_smoke|stack_watch|livepatch_fast|fast_.*|comm_escaped|fgraph_index0'
fast_tests() {
	tests_but $peer_tests $icount_tests $one_kernel_tests | grep -Ev '^(count_|counts_|stacks_|profile_|kft_profile|kft_stackcount|kft_stacksnoop|kft_funccount|tools_stacks)' |
		grep -Evx "$fast_skip"
}

# test_hash NAME MOD: a number below MOD, the same for a name on every
# machine (cksum), so that a test keeps its fast kernel when others are
# added.
test_hash() {
	local sum
	read -r sum _ < <(printf '%s' "$1" | cksum)
	echo $((sum % $2))
}

# The fast pass's kernel of each test: one of the three Debian kernels,
# by its name's hash. Each trace-mode test runs with fast hooks on one of
# them (on 6.1 and 6.12 both, before issue 26: 464 s of make check); every
# kernel runs a third of them with fast hooks, and every main pass runs
# the fast_* tests, which exercise what differs between kernels there
# (ftrace_regs, the unwinder through kft's trampoline, the task-exit
# tracepoints, function_graph and livepatch beside kft).
fast_kernels=(6.1 6.12 latest)
fast_kernel() {
	echo "${fast_kernels[$(test_hash "$1" ${#fast_kernels[@]})]}"
}

# fast_tests_of KERNEL: the fast pass's tests on KERNEL, one a line.
fast_tests_of() {
	local t
	for t in $(fast_tests); do
		[ "$(fast_kernel "$t")" != "$1" ] || echo "$t"
	done
}

# lockdown_in_fast KERNEL: whether KERNEL's fast pass runs last_boot and
# lockdown too, after its own tests, instead of a guest of their own
# (KERNEL-lockdown: 41 and 50 s of make check on 6.12 and latest, three
# boots each, 2.2 s of it the tests): where its tests leave log_ring_oops
# out, whose panic at the guest's end loads kft, which lockdown forbids.
# Both name the hooks their runs take (last_boot: the hang safe hooks, the
# crash fast ones; lockdown: safe), so the fast pass's default changes
# neither. The guest then boots three times, as the lockdown guest did,
# and where the kft region is reserve_mem's (6.11 on) without KASLR
# (job_guest): the fast pass's tests too there, which the main pass runs
# with KASLR, and its fast_* tests, retval and errtrace with fast hooks.
lockdown_in_fast() {
	case " ${fast_kernels[*]} " in *" $1 "*) ;; *) return 1 ;; esac
	! fast_tests_of "$1" | grep -qx log_ring_oops
}

# lockdown_jobs: the Debian kernels' lockdown guests (KERNEL-lockdown),
# one a line: those whose fast pass does not take them, 6.1's and 5.10's
# today (make check's queue).
lockdown_jobs() {
	local k
	for k in 6.12 latest 6.1 5.10; do
		lockdown_in_fast $k || echo $k-lockdown
	done
}

# make check-quick's guest-seconds (tests/kselftest/weights): its tests
# are the main pass's cheapest, each in turn while their times add up to
# no more, so that the inner loop stays near 5 minutes as tests are added
# (Documentation/testing.rst, "make check-quick"). What it leaves out, the
# longest tests (every function attached, a userspace command over all of
# them, minutes of load), make check runs.
quick_budget=450

# quick_tests KERNEL: the quick pass's tests on KERNEL, one a line.
quick_tests() {
	local all
	all=$(job_tests "$1") || return 1
	printf '%s\n' $all | awk -v weights="$kselftests/weights" '
		BEGIN { while ((getline line <weights) > 0) { split(line, f, " "); w[f[1]] = f[2] } }
		{ print (($1 in w) ? w[$1] : 5), $1 }' |
		sort -k1,1n -k2,2 | awk -v budget=$quick_budget '(sum += $1) <= budget { print $2 }' | sort
}

# job_kernel JOB, job_pass JOB, job_shard JOB: the parts of a job's name.
job_kernel() {
	local j=${1%@*}
	echo "${j%%-*}"
}
job_pass() {
	local j=${1%@*}
	case $j in *-*) echo "${j#*-}" ;; esac
}
job_shard() {
	case $1 in *@*) echo "${1##*@}" ;; esac
}

# lockdown_joins JOB: whether JOB's guest runs lockdown too, after its
# tests ("# order: last"), instead of a guest of its own (debug-lockdown:
# 19 s in make check, 2 s of it the test). Lockdown forbids loading
# modules until the next boot: a guest whose tests include log_ring_oops,
# whose panic at the guest's end loads kft, cannot have it. On debug, the
# highest shard of the main pass without log_ring_oops has it, where
# kmemleak's scan then runs before lockdown closes debugfs
# (tests/kselftest/kmemleak.sh); an unsharded debug pass has none:
# debug-lockdown. (The Debian kernels' lockdown guests also run
# last_boot, which reboots the guest: KERNEL-lockdown.)
lockdown_joins() {
	local shard n k x t= all
	case $1 in
	debug@* | debug-full@*) ;;
	*) return 1 ;;
	esac
	shard=$(job_shard "$1")
	n=${shard#*of} k=,${shard%of*},
	all=$(debug_tests "$(job_pass "$1")")
	for ((x = n; x >= 1; x--)); do
		if ! printf '%s\n' $all | shard_of "$n" "$x" debug | grep -qx log_ring_oops; then
			t=$x
			break
		fi
	done
	[ -n "$t" ] && [[ $k == *,$t,* ]] &&
		! printf '%s\n' $all | shard_of "$n" "${shard%of*}" debug | grep -qx log_ring_oops
}

# job_tests JOB: the tests a job runs, one a line.
job_tests() {
	local kernel pass shard all t
	kernel=$(job_kernel "$1") pass=$(job_pass "$1") shard=$(job_shard "$1")
	case $pass in
	'')
		if [ "$kernel" = debug ]; then
			all=$(debug_tests '')
		elif [ "$kernel" = rt ]; then
			all=$(tests_but $rt_skip $peer_tests $icount_tests)
		else
			all=$(tests_but $peer_tests $icount_tests $(not_on "$kernel") lockdown last_boot)
		fi
		;;
	peer) all=$(printf '%s\n' $peer_tests | grep -vxF $(printf -- '-e %s ' $(not_on "$kernel") x)) ;;
	icount) all=$icount_tests ;;
	tsc) all=$tsc_tests ;;
	quick) all=$(quick_tests "$kernel") || return 1 ;;
	full)
		if [ "$kernel" != debug ]; then
			echo "jobs: job $1: the pass full is the debug kernel's" >&2
			return 1
		fi
		all=$(debug_tests full)
		;;
	fast)
		all=$(fast_tests_of "$kernel")
		! lockdown_in_fast "$kernel" || all="$all last_boot lockdown"
		;;
	lockdown)
		if lockdown_in_fast "$kernel"; then
			echo "jobs: job $1: lockdown runs in $kernel-fast's guest (lockdown_in_fast)" >&2
			return 1
		fi
		all=lockdown
		[ "$kernel" = debug ] || all="last_boot lockdown"
		;;
	*) echo "jobs: unknown pass '$pass' in job $1" >&2; return 1 ;;
	esac
	[ -z "$shard" ] || all=$(printf '%s\n' $all | shard_of "${shard#*of}" "${shard%of*}" "$kernel")
	if lockdown_joins "$1"; then
		if printf '%s\n' $all | grep -qx log_ring_oops; then
			echo "jobs: job $1 runs log_ring_oops, whose panic lockdown forbids" >&2
			return 1
		fi
		all="$all lockdown"
	fi
	printf '%s\n' $all
}

# shard_of N K KERNEL: of the tests on stdin, those of shard K of N (K may
# list several, "1,3": one guest runs them, one boot for both). Longest
# first, each to the shard with the least time so far, so that the shards
# take about as long; the same split on every machine. The times are the
# kernel's own guest seconds where it has them (tests/kselftest/weights.
# KERNEL: the debug kernel slows some tests far more than others, so
# 6.12's times cut it into uneven shards), else 6.12's
# (tests/kselftest/weights), from a ledger with scripts/ledger -w; 5 s
# for a test not there yet.
shard_of() {
	local weights=$kselftests/weights

	[ ! -e "$weights.$3" ] || weights=$weights.$3
	awk -v n="$1" -v k=",$2," -v weights="$weights" '
		BEGIN { while ((getline line <weights) > 0) { split(line, f, " "); w[f[1]] = f[2] } }
		{ t[NR] = $1; s[NR] = ($1 in w) ? w[$1] : 5 }
		END {
			for (i = 1; i <= NR; i++) {	# longest first (then by name)
				m = 0
				for (j = 1; j <= NR; j++)
					if (!(j in done) && (!m || s[j] > s[m] || (s[j] == s[m] && t[j] < t[m])))
						m = j
				done[m] = 1
				b = 1
				for (x = 2; x <= n; x++)
					if (sum[x] < sum[b])
						b = x
				sum[b] += s[m]
				if (index(k, "," b ","))
					print t[m]
			}
		}' | sort
}

# job_flavour JOB: scripts/vm/run's flavour.
job_flavour() {
	case $(job_kernel "$1") in
	debug) echo 6.12-debug ;;
	rt) echo 6.12-rt ;;
	*) job_kernel "$1" ;;
	esac
}

# job_label JOB RELEASE: the job's line in make check's summary.
job_label() {
	local pass shard
	pass=$(job_pass "$1") shard=$(job_shard "$1")
	printf 'vm %s (%s)' "$(job_flavour "$1")" "$2"
	case $pass in
	fast) printf ' hooks fast' ;;
	?*) printf ' %s' "$pass" ;;
	esac
	[ -z "$shard" ] || printf ' %s/%s' "${shard%of*}" "${shard#*of}"
	echo
}

# job_guest JOB [INSTANCE]: run the job's guest, its KTAP on stdout;
# scripts/vm/run's status. Each job (and INSTANCE: scripts/census runs one
# job several times at once) keeps its console and results apart
# (KFT_VM_TAG).
job_guest() {
	local pass shard tests tag= vars=()
	pass=$(job_pass "$1") shard=$(job_shard "$1")
	tests=$(job_tests "$1") || return 1
	[ -n "$tests" ] || { echo "jobs: job $1 has no tests" >&2; return 1; }
	case $pass in
	fast) vars+=(KFT_VM_HOOKS=fast) ;; # (scripts/vm/run keeps its files apart)
	tsc) vars+=(KFT_VM_TSC=unstable) tag=$pass ;;
	?*) tag=$pass ;;
	esac
	# last_boot: the reset keeps the guest's RAM. Where the region is
	# reserve_mem's (6.11 on), the kernel stays where it was: KASLR could
	# put it over the region the next boot reserves again (memmap='s
	# range it avoids, and kft moves the dead boot's addresses).
	if printf '%s\n' $tests | grep -qx last_boot; then
		vars+=(KFT_VM_REBOOTS=2)
		case $(job_kernel "$1") in 5.10 | 6.1) ;; *) vars+=(KFT_VM_APPEND=nokaslr) ;; esac
	fi
	tag=$tag${shard:+${tag:+-}$shard}${2:+${tag:+-}i$2}
	[ -z "$tag" ] || vars+=(KFT_VM_TAG="$tag")
	env "${vars[@]}" "$top/scripts/vm/run" "$(job_flavour "$1")" $tests
}

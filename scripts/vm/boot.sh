# The guest half of `make boot` (kft.mode=boot): the boot's trace, taken by
# kft's static run (a kernel with CONFIG_KFT_STATIC_RUN), and what the host
# needs to read it, sent back as files ("==> NAME <==" ... "==> end <==").
send() {
	echo "==> $1 <=="
	cat "$2"
	echo "==> end <=="
}
echo "# boot: user space at $(cut -d' ' -f1 /proc/uptime) s"
send kft-status /proc/kft
send kft.log /proc/kft_data
send kallsyms /proc/kallsyms
send cmdline /proc/cmdline
# kft_boot_reboot on the command line (tests/boot/run's persistent boot,
# KFT_VM_REBOOTS=1): the first boot, whose run kept its calls in the kft
# region (kft.static_log=persistent), sends its log aside and reboots
# (a warm reset: QEMU keeps the RAM); the second sends what kft read
# from the region at its load.
if grep -qw kft_boot_reboot /proc/cmdline; then
	if ! grep -q '^Last boot: run ' /proc/kft_last_boot; then
		send kft-first.log /proc/kft_data
		send kft-first-status /proc/kft
		reboot -f
	fi
	send kft_last_boot /proc/kft_last_boot
fi

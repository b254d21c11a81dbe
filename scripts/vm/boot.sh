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

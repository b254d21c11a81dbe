# The demo, run in the guest by scripts/vm/run -d: trace every kernel
# function called while one file is opened (one openat system call), and
# send the log and the symbol table back to the host.
#
# Files go back between "==> NAME <==" and "==> end <==" lines; the host
# runner saves them under build/vm/RELEASE/files/.
grep -qw register_fprobe /proc/kallsyms && fprobe=1
echo "== kernel $(uname -r), exits hooked with $([ -n "$fprobe" ] && echo fprobe || echo kretprobes)"
insmod /kft/kft.ko
if [ -n "$fprobe" ]; then
	set -- "# every function (fprobe)"
else
	# Without fprobe, tracing every function is refused: the VFS instead.
	set -- "filter funclist vfs_* do_sys_openat2 do_filp_open path_openat fend"
fi
config="new
begin
  trigger start entry do_sys_openat2
  trigger stop exit do_sys_openat2
  filter noints
  $1
end"
echo "== the configuration"
echo "$config"
echo "$config" >/proc/kft
echo prime >/proc/kft
echo "== the workload: one open"
read -r host </etc/passwd
echo "== cat /proc/kft"
cat /proc/kft
echo "== cat /proc/kft_data"
cat /proc/kft_data >/tmp/kft.log
cat /tmp/kft.log
echo "==> kft.log <=="
cat /tmp/kft.log
echo "==> end <=="
echo "==> kallsyms <=="
cat /proc/kallsyms
echo "==> end <=="
echo clear >/proc/kft
rmmod kft

# The demo, run in the guest by scripts/vm/run -d: load kft, show its state.
echo "== kernel $(uname -r)"
insmod /kft/kft.ko
echo "== lsmod"
grep '^kft ' /proc/modules
echo "== ls -l /proc/kft*"
ls -l /proc/kft /proc/kft_data
echo "== cat /proc/kft"
cat /proc/kft
rmmod kft

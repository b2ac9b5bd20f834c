#!/bin/sh
# t_partition_bound.sh - a partition whose filesystem says it is larger than
# the partition (a partition shrunk without resize2fs, a mistyped table):
# -w is refused, naming both sizes, whether the partition was chosen with
# --partition, by IMG?offset= at its start, or (as root) through the
# kernel's partition node of a loop device, so that no write can land in
# the partition after it; read-only it opens with a warning.  Before, a
# journal_relocate --goal past the partition's end wrote the journal over
# the next partition's filesystem.
. "$(dirname "$0")/../lib/testlib.sh"
command -v sfdisk >/dev/null 2>&1 || skip "sfdisk is not installed"
export MKE2FS_CONFIG=/dev/null
disk=$T/disk.img
truncate -s 80M "$disk"
printf 'label: gpt\n,20M,L\n,20M,L\n,,L\n' | sfdisk -q "$disk" >/dev/null 2>&1 ||
	fail "sfdisk"
start() { sfdisk -d "$disk" | sed -n "s|^$disk$1 : start= *\([0-9]*\),.*|\1|p"; }
s1=$(start 1) s2=$(start 2)
[ -n "$s1" ] && [ -n "$s2" ] || fail "no partition starts from sfdisk"
# partition 1 (20 MiB) holds a filesystem made for 40 MiB; 2 its own
truncate -s 40M "$T/big.img"
mke2fs -q -F -T default -O extent,has_journal -b 4096 -L big "$T/big.img" \
	>/dev/null 2>&1 || fail "mke2fs big"
dd if="$T/big.img" of="$disk" bs=512 seek="$s1" count=40960 conv=notrunc \
	2>/dev/null
truncate -s 20M "$T/p2.img"
mke2fs -q -F -T default -O extent,has_journal -L second "$T/p2.img" \
	>/dev/null 2>&1 || fail "mke2fs second"
dd if="$T/p2.img" of="$disk" bs=512 seek="$s2" conv=notrunc 2>/dev/null
cp "$disk" "$T/orig.img"

refused() {	# LABEL TARGET [OPTS]
	label=$1 target=$2; shift 2
	"$E2LAYOUT" "$@" -w -R "journal_relocate --goal 7000" "$target" \
		> "$T/out" 2>&1 && fail "$label: -w was not refused"
	grep -q "says it has 10240 blocks of 4096 bytes (41943040 bytes), but .* holds 20971520 bytes" "$T/out" ||
		fail "$label: no sizes given: $(cat "$T/out")"
	cmp -s "$disk" "$T/orig.img" || fail "$label: the disk changed"
}
refused "--partition 1" "$disk" --partition 1
refused "?offset=" "$disk?offset=$((s1 * 512))"
# read-only: opens, and says so
"$E2LAYOUT" --partition 1 -R stats "$disk" > "$T/out" 2> "$T/err" ||
	fail "read-only: $(cat "$T/err")"
grep -q "^Filesystem volume name: *big$" "$T/out" || fail "read-only: not read"
grep -q "warning: .* says it has 10240 blocks" "$T/err" ||
	fail "read-only: no warning: $(cat "$T/err")"
# a filesystem that fits is written as before
"$E2LAYOUT" --partition 2 -w -R "mkdir /made" "$disk" > "$T/out" 2>&1 ||
	fail "partition 2: $(cat "$T/out")"

# the kernel's partition node (a loop device with partitions)
[ "$(id -u)" = 0 ] || exit 0
loop=$(losetup -f --show -P "$disk" 2>/dev/null) || exit 0
cleanup() { losetup -d "$loop" 2>/dev/null; }
# the kernel scans the table in the ioctl; devtmpfs makes the node soon after
[ -e "/sys/class/block/${loop#/dev/}p1" ] &&
	[ "$(stat -f -c %T /dev 2>/dev/null)" = tmpfs ] || exit 0
wait_until 10 "no node ${loop}p1" test -b "${loop}p1"
cp "$disk" "$T/orig.img"
refused "${loop}p1" "${loop}p1"
refused "$loop --partition 1" "$loop" --partition 1
exit 0

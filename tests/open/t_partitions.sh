#!/bin/sh
# t_partitions.sh - disk images with a partition table (GPT and MBR, made
# here with sfdisk) holding one and two ext4 filesystems (mke2fs -E
# offset): one opens by itself, saying which partition; two are listed and
# --partition N opens N; IMG?offset=BYTES opens the same; a wrong number
# and --partition on a plain filesystem are clear errors; -w on a partition
# writes only inside it (the other partition is unchanged, e2fsck clean).
. "$(dirname "$0")/../lib/testlib.sh"
command -v sfdisk >/dev/null 2>&1 || skip "sfdisk (util-linux's fdisk package) is not installed"
export MKE2FS_CONFIG=/dev/null E2FSPROGS_FAKE_TIME=1700000000
mkfs() {	# IMG START_SECTOR LABEL
	mke2fs -q -F -T default -t ext4 -O extent,flex_bg,has_journal \
		-L "$3" -E offset=$(($2 * 512)) "$1" 12M >/dev/null 2>&1 ||
		fail "mke2fs $3"
}
for label in gpt dos; do
	one=$T/$label-1.img two=$T/$label-2.img
	truncate -s 40M "$one" "$two"
	printf 'label: %s\n,12M,L\n' "$label" | sfdisk -q "$one" ||
		fail "sfdisk $label one"
	printf 'label: %s\n,12M,L\n,12M,L\n' "$label" | sfdisk -q "$two" ||
		fail "sfdisk $label two"
	s1=$(sfdisk -d "$two" | sed -n 's/.*1 : start= *\([0-9]*\),.*/\1/p')
	s2=$(sfdisk -d "$two" | sed -n 's/.*2 : start= *\([0-9]*\),.*/\1/p')
	[ -n "$s1" ] && [ -n "$s2" ] || fail "no start sectors from sfdisk -d"
	mkfs "$one" "$s1" only
	mkfs "$two" "$s1" first
	mkfs "$two" "$s2" second
	case $label in gpt) words="a GPT" ;; dos) words="an MBR partition table" ;; esac

	# one ext4 partition: opened, and named
	"$E2LAYOUT" -R stats "$one" > "$T/out" 2> "$T/err" ||
		fail "$label: one partition did not open: $(cat "$T/err")"
	grep -q "^Filesystem volume name: *only$" "$T/out" ||
		fail "$label: the wrong filesystem opened"
	grep -q "this disk has $words; opening partition 1 (ext4, offset $((s1 * 512)) bytes)" "$T/err" ||
		fail "$label: not said which partition: $(cat "$T/err")"

	# two: listed, and the open fails with the list
	"$E2LAYOUT" -R stats "$two" > "$T/out" 2> "$T/err" &&
		fail "$label: two partitions opened without --partition"
	grep -q "this disk has $words with 2 partitions:" "$T/err" ||
		fail "$label: no list: $(cat "$T/err")"
	grep -q "partition 2: offset $((s2 * 512)) bytes, 12.0 MiB, ext4 labelled 'second'" "$T/err" ||
		fail "$label: the list lacks partition 2: $(cat "$T/err")"
	grep -q -- "--partition N" "$T/err" || fail "$label: no hint"

	# --partition 2, and IMG?offset=, read the same filesystem
	"$E2LAYOUT" --partition 2 -R "stats" "$two" > "$T/p2" 2>/dev/null ||
		fail "$label: --partition 2 failed"
	grep -q "^Filesystem volume name: *second$" "$T/p2" ||
		fail "$label: --partition 2 opened the wrong one"
	"$E2LAYOUT" -R "stats" "$two?offset=$((s2 * 512))" > "$T/off" 2>&1 ||
		fail "$label: ?offset= failed"
	cmp -s "$T/p2" "$T/off" || fail "$label: ?offset= and --partition differ"
	debugfs -R stats "$two?offset=$((s2 * 512))" > "$T/dfs" 2>/dev/null
	cmp -s "$T/dfs" "$T/off" || fail "$label: stats differ from debugfs's"

	# --partition 3: no such partition
	"$E2LAYOUT" --partition 3 -R stats "$two" > "$T/out" 2> "$T/err" &&
		fail "$label: --partition 3 opened"
	grep -q -- "--partition 3: .* has $words with 2 partitions:" "$T/err" ||
		fail "$label: --partition 3: $(cat "$T/err")"

	# -w on partition 2 leaves partition 1 alone
	dd if="$two" of="$T/p1.before" bs=512 skip="$s1" count=24576 2>/dev/null
	"$E2LAYOUT" --partition 2 -w -R "mkdir /made" "$two" >/dev/null 2>&1 ||
		fail "$label: -w on partition 2 failed"
	dd if="$two" of="$T/p1.after" bs=512 skip="$s1" count=24576 2>/dev/null
	cmp -s "$T/p1.before" "$T/p1.after" || fail "$label: partition 1 changed"
	dd if="$two" of="$T/p2.img" bs=512 skip="$s2" count=24576 2>/dev/null
	fsck_clean "$T/p2.img" || fail "$label: partition 2 not clean after -w"
	debugfs -R "ls /" "$T/p2.img" 2>/dev/null | grep -q made ||
		fail "$label: the directory was not made"
done

# a whole-disk block device (a loop device, as root) opens the same way
if [ "$(id -u)" = 0 ] && loop=$(losetup -f --show "$T/gpt-2.img" 2>/dev/null); then
	"$E2LAYOUT" --partition 2 -R stats "$loop" > "$T/blk" 2> "$T/blk.err"
	rc=$?
	losetup -d "$loop"
	[ $rc = 0 ] || fail "--partition 2 on $loop: $(cat "$T/blk.err")"
	grep -q "^Filesystem volume name: *second$" "$T/blk" ||
		fail "the block device's partition 2 is not 'second'"
fi

# the TUI's header names the partition
if command -v tmux >/dev/null 2>&1; then
	tm="tmux -L e2l-part-$$ -f /dev/null"
	trap '$tm kill-server 2>/dev/null; rm -rf "$T"' EXIT INT TERM
	$tm new-session -d -s s -x 120 -y 30 \
		"$E2LAYOUT --partition 2 $T/gpt-2.img" || fail "tmux"
	i=0
	until $tm capture-pane -p -t s 2>/dev/null |
		grep -q "partition 2 (GPT, offset $((s2 * 512)))"; do
		i=$((i + 1))
		[ $i -lt 150 ] || { $tm capture-pane -p -t s;
			$tm kill-server; fail "TUI header"; }
		sleep 0.1
	done
	$tm kill-server
fi

# --partition on a filesystem, and a disk with no ext2/3/4 partition
"$E2LAYOUT" --partition 1 -R stats "$E2L_IMAGES/ext4.img" > "$T/out" 2>&1 &&
	fail "--partition on a plain filesystem opened"
grep -q "is a filesystem, not a partitioned disk" "$T/out" ||
	fail "--partition on a filesystem: $(cat "$T/out")"
truncate -s 8M "$T/empty.img"
printf 'label: gpt\n,2M,L\n' | sfdisk -q "$T/empty.img"
"$E2LAYOUT" -R stats "$T/empty.img" > "$T/out" 2>&1 && fail "opened nothing"
grep -q "with 1 partition, none of them ext2/3/4:" "$T/out" ||
	fail "no-ext disk: $(cat "$T/out")"
exit 0

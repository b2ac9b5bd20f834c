#!/bin/sh
# t_groups_speed.sh - `groups --json` on a 131,072-group filesystem stays
# within 2x of `dumpe2fs -g` (best of 3 runs each), and lists every group.
set -u
case "$E2L_BUILD" in
*asan*) echo "sanitizer build: timings would mean nothing"; exit 77 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
img=$tmp/big.img
# 4 TiB sparse, 8192 blocks per group; sparse_super2 without backups keeps
# mke2fs from writing 8 MiB of descriptors into dozens of backup groups.
if ! MKE2FS_CONFIG=/dev/null mke2fs -q -F -T default -t ext4 \
	-O ^has_journal,extent,flex_bg,64bit,^resize_inode,sparse_super2,metadata_csum \
	-E lazy_itable_init=1,nodiscard,num_backup_sb=0 -g 8192 -N 131072 \
	"$img" 4T >/dev/null 2>&1; then
	echo "cannot make a 4 TiB sparse image here"
	exit 77
fi

# Best wall time of three runs, in milliseconds.
best() {
	min=
	for i in 1 2 3; do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1 || return 1
		e=$(date +%s%N)
		d=$(( (e - s) / 1000000 ))
		if [ -z "$min" ] || [ "$d" -lt "$min" ]; then min=$d; fi
	done
	echo "$min"
}

rows=$("$E2LAYOUT" --json -R groups "$img" | grep -o '\],\[' | wc -l)
if [ "$rows" -ne 131071 ]; then
	echo "groups --json listed $((rows + 1)) groups, want 131072"
	exit 1
fi
ours=$(best "$E2LAYOUT" --json -R groups "$img") || { echo "e2layout failed"; exit 1; }
theirs=$(best dumpe2fs -g "$img") || { echo "dumpe2fs failed"; exit 1; }
echo "groups --json: ${ours} ms, dumpe2fs -g: ${theirs} ms"
# 30 ms of slack: both are short and the machine is shared.
if [ "$ours" -gt $((2 * theirs + 30)) ]; then
	echo "groups --json is more than twice as slow as dumpe2fs -g"
	exit 1
fi
exit 0

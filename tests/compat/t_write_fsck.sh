#!/bin/sh
# t_write_fsck.sh - every tests/compat/writes/*.script marked "# fsck: clean"
# leaves, run by e2layout -w -f, a filesystem e2fsck -fn finds clean on each
# of its images (the byte comparison with debugfs is t_write_compat.sh).
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
command -v e2fsck >/dev/null || { echo "skip: no e2fsck"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
bad=0 runs=0
for script in "$top"/tests/compat/writes/*.script; do
	[ -f "$script" ] || continue
	grep -q '^# fsck: clean' "$script" || continue
	images=$(sed -n 's/^# images: *//p' "$script" | head -1)
	for img in ${images:-ext4 ext2-1k}; do
		[ -f "$E2L_IMAGES/$img.img" ] || continue
		runs=$((runs + 1))
		cp "$E2L_IMAGES/$img.img" "$t/fs.img"
		(cd "$t" && "$E2LAYOUT" -w -f "$script" fs.img >/dev/null 2>&1)
		rc=$?
		if [ $rc -gt 1 ]; then
			echo "$(basename "$script") on $img: e2layout exit $rc"
			bad=$((bad + 1))
		elif ! e2fsck -fn "$t/fs.img" > "$t/fsck" 2>&1; then
			echo "$(basename "$script") on $img: e2fsck -fn not clean"
			tail -8 "$t/fsck"
			bad=$((bad + 1))
		fi
	done
done
echo "$runs runs, $bad not clean"
[ $bad -eq 0 ]

#!/bin/sh
# t_owner_bigalloc_slack.sh - bigalloc: a block past a file's last one in
# its last cluster (the cluster's slack) is the file's for `owner`, asked
# alone, after other blocks in ascending order (one lookup's runs iterator
# moved on from an earlier block), scanning alone and from the index.
. "$(dirname "$0")/../lib/testlib.sh"

command -v mke2fs >/dev/null || skip "no mke2fs"
command -v debugfs >/dev/null || skip "no debugfs"

# 40 files of 1-15 KiB: each ends inside a 16-block cluster
mkdir -p "$T/src"
i=1
while [ $i -le 40 ]; do
	head -c $((i % 15 * 1024 + 1000)) /dev/zero | tr '\0' y \
		> "$T/src/f$i"
	i=$((i + 1))
done
mke2fs -q -F -t ext4 -O bigalloc -C 16384 -b 1024 -d "$T/src" \
	"$T/fs.img" 64M >/dev/null 2>&1 || fail "mke2fs -d"
# "INO SLACK FIRST" for each file: its last block's next one in the
# cluster, and that cluster's first block
for f in $(ls "$T/src"); do
	ino=$(debugfs -R "stat /$f" "$T/fs.img" 2>/dev/null |
	      sed -n 's/^Inode: \([0-9]*\).*/\1/p')
	last=$(debugfs -R "blocks /$f" "$T/fs.img" 2>/dev/null |
	       tr ' ' '\n' | grep . | tail -1)
	[ -n "$ino" ] && [ -n "$last" ] || fail "no inode or blocks for $f"
	s=$((last + 1))
	[ $((s % 16)) -ne 0 ] && echo "$ino $s $((s - s % 16))"
done | sort -k2n > "$T/slack"
[ "$(wc -l < "$T/slack")" -ge 20 ] || fail "too few slack blocks"
# each slack block after its cluster's first: ascending, the iterator
# positioned at an aligned block, then asked for one inside a cluster
blocks=$(awk '{ printf "%s %s ", $3, $2 }' "$T/slack")
"$E2LAYOUT" -R "owner $blocks" "$T/fs.img" > "$T/probe" 2>&1 ||
	fail "owner failed: $(tail -1 "$T/probe")"
printf 'map 0-0\nowner %s\n' "$blocks" > "$T/script"
"$E2LAYOUT" -f "$T/script" "$T/fs.img" > "$T/index" 2>&1 ||
	fail "owner after map failed: $(tail -1 "$T/index")"
for how in probe index; do
	while read -r ino s c; do
		grep -q "^$s: file data, group 0, inode $ino " "$T/$how" ||
			check "$how: slack block $s is not inode $ino's:" \
			      "$(grep "^$s: " "$T/$how")"
	done < "$T/slack"
done
checks_done
echo "ok: $(wc -l < "$T/slack") slack blocks named their file's, both ways"

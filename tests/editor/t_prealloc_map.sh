#!/bin/sh
# t_prealloc_map.sh - the prealloc preview's map: prealloc keeps the file's
# extents, so the "after" strip draws them as this inode's (X), as well as
# the new run (it drew them free).  Checked cell by cell against the file's
# extents (debugfs) and the plan's new run.
. "$(dirname "$0")/lib.sh"

img=$T/p.img
mke2fs -q -F -t ext4 -O ^has_journal "$img" 16M >/dev/null 2>&1 || fail "mke2fs"
head -c 300000 /dev/urandom > "$T/pf"
debugfs -w -R "write $T/pf pf" "$img" >/dev/null 2>&1
# cells CELL_LINE LO PER FIRST LAST: the letters of the cells over blocks
# FIRST-LAST
cells() {
	echo "$1" | awk -v lo="$2" -v per="$3" -v a="$4" -v b="$5" '{
		s = $2; for (c = int((a - lo) / per); c <= int((b - lo) / per); c++)
			printf "%s", substr(s, c + 1, 1); print "" }'
}
check_map() {	# REQUEST
	"$E2LAYOUT" -R "$1" "$img" > "$T/out" 2>&1 || { cat "$T/out"; fail "$1"; }
	hdr=$(sed -n 's/^Map of blocks \([0-9]*\)-[0-9]*, \([0-9]*\) blocks\{0,1\} per cell.*/\1 \2/p' "$T/out")
	[ -n "$hdr" ] || { cat "$T/out"; fail "$1: no map"; }
	set -- "$1" "" $hdr
	before=$(grep '^  before: ' "$T/out"); after=$(grep '^  after: ' "$T/out")
	run=$(sed -n 's/^  new run: blocks \([0-9]*\)-\([0-9]*\) .*/\1 \2/p' "$T/out")
	# shellcheck disable=SC2086
	c=$(cells "$after" "$3" "$4" $run)
	case $c in *[!X]*) fail "$1: the new run is not all X after: $c" ;; esac
	debugfs -R "ex pf" "$img" 2>/dev/null | awk 'NR > 1 { print $8, $10 }' > "$T/ext"
	[ -s "$T/ext" ] || fail "no extents for pf"
	while read -r a b; do
		c=$(cells "$before" "$3" "$4" "$a" "$b")
		case $c in *[!X]*) fail "$1: the file's extent $a-$b is not X before: $c" ;; esac
		c=$(cells "$after" "$3" "$4" "$a" "$b")
		case $c in *[!X]*) fail "$1: the kept extent $a-$b is not X after: $c" ;; esac
	done < "$T/ext"
}
check_map "prealloc /pf 2M"
echo "ok: prealloc's after strip draws the kept extents and the new run as the file's"
exit 0

#!/bin/sh
# t_owner_icheck.sh - `owner B...` answered by the pruned scan (no index in
# the session) names the inode debugfs icheck names for every block, a path
# debugfs ncheck lists for it, and the very answers the full index gives
# (the same blocks asked again after `map` has built the index).
. "$(dirname "$0")/../lib/testlib.sh"

command -v debugfs >/dev/null || skip "no debugfs"
n=0
for img in "$E2L_IMAGES"/*.img; do
	name=$(basename "$img")
	cp "$img" "$T/i.img"
	nb=$(dumpe2fs -h "$T/i.img" 2>/dev/null |
	     awk -F: '/^Block count/ {print $2 + 0}')
	[ -n "$nb" ] || fail "$name: no block count"
	# every block up to 2000, then about 4000 more spread evenly
	awk -v n="$nb" 'BEGIN { st = int((n - 2000) / 4000); if (st < 7) st = 7
				 for (b = 0; b < n; b += (b < 2000 ? 1 : st))
				 print b }' > "$T/blocks"
	blocks=$(tr '\n' ' ' < "$T/blocks")
	"$E2LAYOUT" -R "owner $blocks" "$T/i.img" > "$T/probe" 2>&1 ||
		fail "$name: owner failed: $(tail -1 "$T/probe")"
	[ "$(wc -l < "$T/probe")" -eq "$(wc -l < "$T/blocks")" ] ||
		fail "$name: $(wc -l < "$T/probe") answers for" \
		     "$(wc -l < "$T/blocks") blocks"
	# (script lines are bounded: 200 blocks a line)
	{ echo "map 0-0"; xargs -n 200 echo owner < "$T/blocks"; } \
		> "$T/script"
	"$E2LAYOUT" -f "$T/script" "$T/i.img" 2>&1 |
		grep '^[0-9]*: ' > "$T/index"
	cmp -s "$T/probe" "$T/index" ||
		fail "$name: the pruned scan and the index differ:" \
		     "$(diff "$T/probe" "$T/index" | head -5)"
	# icheck: block -> inode, for blocks some inode maps (not the
	# resize inode, whose blocks are the reserved GDT)
	debugfs -R "icheck $blocks" "$T/i.img" 2>/dev/null |
		awk 'NR > 1 && $2 ~ /^[0-9]+$/ && $2 != 7 { print $1, $2 }' |
		sort > "$T/icheck"
	sed -n 's/^\([0-9]*\): .*, inode \([0-9]*\).*/\1 \2/p' "$T/probe" |
		awk '$2 != 7' | sort > "$T/ours"
	if dumpe2fs -h "$T/i.img" 2>/dev/null | grep -q '^Cluster size'; then
		# bigalloc: owner also names the owner of a cluster's slack,
		# icheck only the blocks mapped; every icheck answer holds
		extra=$(comm -23 "$T/icheck" "$T/ours" | head -3)
		[ -z "$extra" ] ||
			fail "$name: icheck says $extra, owner does not"
	else
		cmp -s "$T/icheck" "$T/ours" ||
			fail "$name: owner and icheck disagree:" \
			     "$(diff "$T/icheck" "$T/ours" | head -5)"
	fi
	# paths: each one printed is one debugfs ncheck gives the inode
	sed -n 's/^[0-9]*: .*, inode \([0-9]*\) (\(.*\)),.*/\1 \2/p' \
		"$T/probe" | sort -u > "$T/paths"
	if [ -s "$T/paths" ]; then
		inos=$(cut -d' ' -f1 "$T/paths" | sort -un | tr '\n' ' ')
		debugfs -R "ncheck $inos" "$T/i.img" 2>/dev/null |
			awk 'NR > 1 { print $1, $2 }' | sort -u > "$T/ncheck"
		while read -r ino path; do
			[ "$ino $path" = "2 /" ] && continue	# the root
			grep -qxF "$ino $path" "$T/ncheck" ||
			grep -qxF "$ino /$path" "$T/ncheck" ||
				fail "$name: inode $ino: path $path not in" \
				     "ncheck"
		done < "$T/paths"
	fi
	n=$((n + $(wc -l < "$T/icheck")))
done
[ $n -gt 1000 ] || fail "only $n blocks checked against icheck"
echo "ok: $n file blocks agree with icheck"

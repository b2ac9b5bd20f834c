#!/bin/sh
# t_owner_early.sh - `owner B` stops its inode scan once every asked block
# has an owner: a file block asked alone, a few together, or with a free
# block (which makes the scan read every inode) are answered as the full
# index answers them; a block two inodes claim (e2fsprogs's f_dup images)
# names the inode debugfs icheck names, the first in inode order.
. "$(dirname "$0")/../lib/testlib.sh"

command -v debugfs >/dev/null || skip "no debugfs"
n=0
for img in "$E2L_IMAGES"/*.img; do
	name=$(basename "$img")
	# the full index's answers for the first 3000 blocks
	{ echo "map 0-0"; awk 'BEGIN { for (b = 0; b < 3000; b += 200) {
		s = "owner"; for (i = b; i < b + 200; i++) s = s " " i
		print s } }'; } > "$T/script"
	"$E2LAYOUT" -f "$T/script" "$img" 2>/dev/null |
		grep '^[0-9]*: ' > "$T/index"
	grep ', inode [0-9]* (' "$T/index" | grep -v ', inode 7 ' |
		awk 'NR % 37 == 1' | head -8 > "$T/files"
	free=$(grep -m1 '^[0-9]*: free' "$T/index" | cut -d: -f1)
	[ -s "$T/files" ] || continue
	while IFS=: read -r b rest; do
		"$E2LAYOUT" -R "owner $b" "$img" > "$T/one" 2>&1
		echo "$b:$rest" | cmp -s - "$T/one" ||
			check "$name: owner $b alone: $(cat "$T/one")," \
			      "the index: $b:$rest"
		n=$((n + 1))
	done < "$T/files"
	set -- $(cut -d: -f1 "$T/files")
	"$E2LAYOUT" -R "owner $*" "$img" > "$T/many" 2>&1
	cmp -s "$T/files" "$T/many" ||
		check "$name: owner $*: $(diff "$T/files" "$T/many" | head -4)"
	"$E2LAYOUT" -R "owner $* $free" "$img" > "$T/many" 2>&1
	{ cat "$T/files"; grep "^$free: " "$T/index"; } > "$T/want"
	[ -z "$free" ] || cmp -s "$T/want" "$T/many" ||
		check "$name: owner $* $free:" \
		      "$(diff "$T/want" "$T/many" | head -4)"
done
[ "$n" -gt 20 ] || fail "only $n file blocks asked alone"

top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${E2L_CORPUS:-$top/../shared/corpus/e2fsprogs-tests}
for x in "f_dup 25 26" "f_dup2 25 57"; do
	set -- $x
	src=$corpus/$1.img.gz
	[ -f "$src" ] || continue
	gzip -dc "$src" > "$T/dup.img" || fail "$1: gunzip"
	shift
	for b in "$@"; do
		want=$(debugfs -R "icheck $b" "$T/dup.img" 2>/dev/null |
		       awk 'NR == 2 { print $2 }')
		got=$("$E2LAYOUT" -R "owner $b" "$T/dup.img" 2>&1 |
		      sed -n 's/.*, inode \([0-9]*\).*/\1/p')
		[ "$want" = "$got" ] ||
			check "shared block $b: owner names inode '$got'," \
			      "icheck '$want'"
	done
done
checks_done
echo "ok: $n file blocks asked alone answer as the index"

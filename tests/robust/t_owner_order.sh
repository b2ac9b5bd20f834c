#!/bin/sh
# t_owner_order.sh - `owner` without -a (the scan in its own group order,
# stopping once each block has an owner, the paths from parent chains)
# answers as the full index does, text and --json, on a filesystem whose
# files and inodes are spread over all its groups; on a damaged image
# with cross-links `owner -a` answers as the index, and plain `owner`
# names one of the claimants, without the "claimed by" note.
. "$(dirname "$0")/../lib/testlib.sh"

command -v mke2fs >/dev/null || skip "no mke2fs"
command -v debugfs >/dev/null || skip "no debugfs"

# 32 groups of 1 MiB, 16 inodes a group: 400 files in 20 directories
# fill inode tables and data over the whole device
mkdir -p "$T/src"
d=0
while [ $d -lt 20 ]; do
	mkdir "$T/src/d$d"
	f=0
	while [ $f -lt 20 ]; do
		head -c $(((d * 20 + f) % 7 * 9000 + 3000)) /dev/zero |
			tr '\0' x > "$T/src/d$d/f$f"
		f=$((f + 1))
	done
	d=$((d + 1))
done
mke2fs -q -F -t ext4 -b 1024 -g 1024 -N 512 -I 256 -d "$T/src" \
	"$T/fs.img" 32M >/dev/null 2>&1 || fail "mke2fs -d"
used=$(dumpe2fs "$T/fs.img" 2>/dev/null |
       awk '/^Group [0-9]+:/ { g++ } /[0-9]+ free inodes/ &&
            $0 !~ /16 free inodes/ { u++ } END { print u + 0 }')
[ "$used" -ge 20 ] || fail "inodes in only $used groups"

# every seventh block, asked 60 at a time, and some alone
awk 'BEGIN { for (b = 1; b < 32768; b += 7) print b }' > "$T/blocks"
split -l 60 "$T/blocks" "$T/part."
for p in "$T"/part.*; do
	set -- $(cat "$p")
	"$E2LAYOUT" -R "owner $*" "$T/fs.img" > "$T/probe" 2>&1 ||
		fail "owner $1...: $(tail -1 "$T/probe")"
	printf 'map 0-0\nowner %s\n' "$*" | "$E2LAYOUT" -f - "$T/fs.img" \
		2>/dev/null | grep '^[0-9]*: ' > "$T/index"
	cmp -s "$T/probe" "$T/index" ||
		check "owner $1...: $(diff "$T/index" "$T/probe" | head -4)"
	cat "$T/probe" >> "$T/answers"
	"$E2LAYOUT" --json -R "owner $*" "$T/fs.img" > "$T/pj" 2>&1
	printf 'map 0-0\nowner %s\n' "$*" | "$E2LAYOUT" --json -f - \
		"$T/fs.img" 2>/dev/null | grep '"blocks"' > "$T/ij"
	grep '"blocks"' "$T/pj" | cmp -s - "$T/ij" ||
		check "owner --json $1...: the probe and the index differ"
done
nf=$(grep -c ', inode [0-9]* (/d[0-9]*/f' "$T/answers")
ng=$(grep ', inode [0-9]* (/d[0-9]*/f' "$T/answers" |
     sed 's/.*, group \([0-9]*\),.*/\1/' | sort -u | wc -l)
[ "$nf" -ge 100 ] && [ "$ng" -ge 12 ] ||
	fail "$nf file blocks asked, in $ng groups"
n=0
for b in $(awk 'NR % 97 == 5' "$T/blocks"); do
	"$E2LAYOUT" -R "owner $b" "$T/fs.img" > "$T/one" 2>&1
	printf 'map 0-0\nowner %s\n' "$b" | "$E2LAYOUT" -f - "$T/fs.img" \
		2>/dev/null | grep '^[0-9]*: ' | cmp -s - "$T/one" ||
		check "owner $b alone: $(cat "$T/one")"
	grep -q '(/d[0-9]*/f[0-9]*)' "$T/one" && n=$((n + 1))
done
[ "$n" -ge 5 ] || check "only $n file blocks asked alone"

# cross-links: -a is the index's answer, plain owner one claimant
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${E2L_CORPUS:-$top/../shared/corpus/e2fsprogs-tests}
if [ -f "$corpus/f_dup.img.gz" ]; then
	gzip -dc "$corpus/f_dup.img.gz" > "$T/dup.img" || fail "gunzip"
	q="owner 25 26 30 40"
	"$E2LAYOUT" -R "owner -a 25 26 30 40" "$T/dup.img" > "$T/all" 2>&1
	printf 'map\n%s\n' "$q" | "$E2LAYOUT" -f - "$T/dup.img" 2>/dev/null |
		sed -n '/^debugfs: owner/,$p' | sed 1d > "$T/index"
	cmp -s "$T/all" "$T/index" ||
		check "f_dup: owner -a and the index differ:" \
		      "$(diff "$T/index" "$T/all" | head -4)"
	grep -q '^25: .*claimed by 2 inodes' "$T/all" ||
		check "f_dup: owner -a 25 tells no second claimant"
	"$E2LAYOUT" -R "owner 25" "$T/dup.img" > "$T/one" 2>&1
	{ grep '^25: ' "$T/all" | sed 's/; claimed by.*//'
	  grep '^25: also ' "$T/all" | sed 's/^25: also /25: /'; } |
		grep -qxF "$(cat "$T/one")" ||
		check "f_dup: owner 25 is no claimant: $(cat "$T/one")"
	[ "$(wc -l < "$T/one")" -eq 1 ] ||
		check "f_dup: owner 25 printed $(wc -l < "$T/one") lines"
fi
checks_done

#!/bin/sh
# t_owner_dup.sh - a block two inodes claim (e2fsprogs's f_dup, f_dup2 and
# f_dupsuper images) is told by `owner -a` with every claimant, the same
# whether it scans alone or answers from the index `map` built: the inodes debugfs's
# `stat` maps it in, the one `icheck` names among them, a "claimed by N"
# note, and in --json an owners array of N.
. "$(dirname "$0")/../lib/testlib.sh"

command -v debugfs >/dev/null || skip "no debugfs"
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${E2L_CORPUS:-$top/../shared/corpus/e2fsprogs-tests}
[ -f "$corpus/f_dup.img.gz" ] || skip "no corpus at $corpus"

# "B INO LBLK" (LBLK -: a mapping block) for each block of each inode's map (data and indirect blocks), as
# debugfs stat lists it: (0-11):25-36, (IND):37, ...
claims() {
	n=$(dumpe2fs -h "$1" 2>/dev/null | awk -F: '/^Inode count/ {
		print $2 + 0 }')
	i=2
	: > "$T/stat.cmd"
	while [ "$i" -le "$n" ]; do
		[ "$i" -eq 2 ] || [ "$i" -ge 11 ] &&
			echo "stat <$i>" >> "$T/stat.cmd"
		i=$((i + 1))
	done
	debugfs -f "$T/stat.cmd" "$1" 2>/dev/null | awk '
	/^Inode: / { ino = $2; links = 0 }
	/Links: / { for (f = 1; f <= NF; f++) if ($f == "Links:")
		links = $(f + 1) + 0 }
	/^BLOCKS:/ { inb = 1; next }
	/^TOTAL:/ { inb = 0 }
	inb && links > 0 {
		gsub(",", " ")
		for (f = 1; f <= NF; f++) {
			split($f, kv, ":")
			if (kv[2] == "") continue
			l = kv[1]; gsub("[()]", "", l)
			split(l, lr, "-")
			if (lr[1] !~ /^[0-9]+$/) lr[1] = "-"
			if (split(kv[2], r, "-") == 2) {
				for (b = r[1]; b <= r[2]; b++)
					print b, ino, lr[1] == "-" ? "-" : \
					      lr[1] + b - r[1]
			} else print kv[2], ino, lr[1]
		}
	}' | sort -n -k1,1 -k2,2 -u
}

# "B meta -" for each block of group metadata dumpe2fs lists
meta() {
	dumpe2fs "$1" 2>/dev/null | tr ',' '\n' | awk '
	/superblock at|descriptors at|GDT blocks at|bitmap at|table at/ {
		sub(/.* at /, ""); sub(/ .*/, "")
		if (split($0, r, "-") == 2) {
			for (b = r[1]; b <= r[2]; b++) print b, "meta", "-"
		} else print r[1], "meta", "-"
	}'
}

n=0
for img in f_dup f_dup2 f_dupsuper; do
	gzip -dc "$corpus/$img.img.gz" > "$T/$img.img" || fail "$img: gunzip"
	{ claims "$T/$img.img"; meta "$T/$img.img"; } > "$T/claims"
	# the blocks two or more owners claim (inodes, group metadata)
	awk '!s[$1 " " $2]++ { c[$1]++ } END { for (b in c) if (c[b] > 1) print b }' \
		"$T/claims" | sort -n > "$T/dups"
	[ -s "$T/dups" ] || fail "$img: debugfs stat shows no shared block"
	while read -r b; do
		want=$(awk -v b="$b" '$1 == b && $2 != "meta" { print $2 }' \
		       "$T/claims" | sort -n -u | tr '\n' ' ')
		nwant=$(awk -v b="$b" '$1 == b { print $2 }' "$T/claims" |
			sort -u | wc -l)
		word=inodes
		grep -q "^$b meta " "$T/claims" && word=owners
		"$E2LAYOUT" -R "owner -a $b" "$T/$img.img" > "$T/alone" 2>&1 ||
			check "$img: owner $b failed: $(cat "$T/alone")"
		printf 'map\nowner %s\n' "$b" |
			"$E2LAYOUT" -f /dev/stdin "$T/$img.img" 2>&1 |
			grep "^$b: " > "$T/after"
		cmp -s "$T/alone" "$T/after" ||
			check "$img: owner $b alone and after map differ:" \
			      "$(diff "$T/alone" "$T/after" | head -6)"
		got=$(sed -n "s/^$b: .*inode \([0-9]*\).*/\1/p" "$T/alone" |
		      sort -n -u | tr '\n' ' ')
		[ "$got" = "$want" ] ||
			check "$img: owner $b names inodes '$got'," \
			      "debugfs stat maps it in '$want'"
		grep -q "^$b: .*; claimed by $nwant $word$" "$T/alone" ||
			check "$img: owner $b: no 'claimed by $nwant $word'" \
			      "note: $(head -1 "$T/alone")"
		first=$(sed -n 's/.*, inode \([0-9]*\).*/\1/p' "$T/alone" |
			head -1)
		ic=$(debugfs -R "icheck $b" "$T/$img.img" 2>/dev/null |
		     awk 'NR == 2 { print $2 }')
		[ "$first" = "$ic" ] ||
			check "$img: owner $b tells inode '$first' first," \
			      "icheck names '$ic'"
		# each claimant's logical block, as its stat map says
		awk -v b="$b" '$1 == b && $2 != "meta" { print $2, $3 }' \
			"$T/claims" |
		while read -r ino lb; do
			if [ "$lb" = - ]; then
				pat="inode $ino .*, mapping for logical block"
			else
				pat="inode $ino .*, logical block $lb\(;\|$\)"
			fi
			grep -q "^$b: .*$pat" "$T/alone" ||
				echo "$img: owner $b: no '$pat' in" \
				     "$(cat "$T/alone")"
		done > "$T/lbad"
		[ -s "$T/lbad" ] && check "$(cat "$T/lbad")"
		"$E2LAYOUT" --json -R "owner -a $b" "$T/$img.img" > "$T/json" \
			2>&1 || check "$img: owner --json $b failed"
		jn=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
try:
    import jsonschema
    jsonschema.validate(d["result"], json.load(open(sys.argv[2])))
except ImportError:
    pass
r = d["result"]["blocks"][0]
o = r.get("owners", [])
print(r.get("claimed_by"), len(o),
      " ".join(str(x["inode"]) for x in o if "inode" in x))' "$T/json" \
			"$top/help/schema/result/owner.json" 2>&1)
		want=${want% }
		[ "$jn" = "$nwant $nwant $want" ] ||
			check "$img: owner --json $b: '$jn'," \
			      "want '$nwant $nwant $want'"
		n=$((n + 1))
	done < "$T/dups"
done
checks_done
echo "ok: $n shared blocks name every claimant, alone and after map"

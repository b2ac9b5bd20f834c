#!/bin/sh
# t_frag_top_lines.sh - frag --top's list of fragmented files, written a batch of lines at a
# time, has every line once and whole: more lines than one batch holds,
# and a path (36 KB, 140 directories deep) longer than a batch, each line
# the file's inode, extent count, block count and the path debugfs's
# ncheck gives; text and the JSON "text" alike.
. "$(dirname "$0")/../lib/testlib.sh"

img=$T/i.img
mke2fs -q -F -t ext4 -b 4096 -N 2048 "$img" 32M >/dev/null ||
	fail "mke2fs failed"
head -c 4096 /dev/urandom > "$T/data"
long=$(printf '%0200d' 0 | tr 0 n)
deep=$(printf '%0250d' 0 | tr 0 d)
{
	echo "mkdir /many"
	echo "cd /many"
	i=0
	while [ $i -lt 400 ]; do
		echo "write $T/data $long$i"
		echo "write $T/data s$i"
		i=$((i + 1))
	done
	echo "cd /"
	i=0
	while [ $i -lt 140 ]; do
		echo "mkdir $deep$i"
		echo "cd $deep$i"
		i=$((i + 1))
	done
	echo "write $T/data bottom"
	echo "write $T/data sbottom"
	# each listed file's second block after all the others: two extents
	echo "fallocate bottom 1 1"
	echo "write $T/data sbottom2"
	echo "fallocate bottom 2 2"	# three extents: listed first
	echo "cd /many"
	i=0
	while [ $i -lt 400 ]; do
		echo "fallocate $long$i 1 1"
		i=$((i + 1))
	done
} > "$T/build"
debugfs -w -f "$T/build" "$img" >/dev/null 2>&1 || fail "debugfs build failed"
e2fsck -fn "$img" >/dev/null 2>&1 || fail "the built image is not clean"

"$E2LAYOUT" -R "frag --top 1000" "$img" > "$T/out" 2>&1 ||
	fail "frag --top 1000 failed: $(tail -1 "$T/out")"
awk 'f { print } /^ +Inode +Extents +Ideal +Blocks +Path$/ { f = 1 }
     f && /^$/ { exit }' "$T/out" | sed '/^$/d' > "$T/list"
n=$(wc -l < "$T/list")
# the 401 files and /many, the directory their entries fragmented
[ "$n" -eq 402 ] || fail "expected 402 listed files, got $n"
[ "$(wc -c < "$T/list")" -gt 131072 ] ||
	fail "the list is shorter than four batches: $(wc -c < "$T/list") bytes"
# every line: ino extents ideal blocks path, the path as ncheck gives it
awk '{ print $1 }' "$T/list" | sort -u > "$T/inos"
[ "$(wc -l < "$T/inos")" -eq 402 ] || fail "an inode is listed twice"
# ncheck cuts a long path to "..." and its tail: the deep one is built
deep_path=$(i=0; while [ $i -lt 140 ]; do printf '/%s%d' "$deep" $i
	i=$((i + 1)); done; echo /bottom)
debugfs -R "ncheck $(tr '\n' ' ' < "$T/inos")" "$img" 2>/dev/null |
	awk -v deep="$deep_path" 'NR > 1 { ino = $1; sub(/^[0-9]+\t/, "")
		sub(/^\/\//, "/")	# ncheck names a directory "//many"
		if (substr($0, 1, 3) == "...") $0 = deep
		print ino "\t" $0 }' | sort > "$T/want"
awk '{ ino = $1; blocks = $4; p = $0
       sub(/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+  /, "", p)
       want = (p ~ /\/bottom$/) ? 3 : 2
       if (p != "/many" && (blocks != want || $2 != want)) { print "bad blocks: " $0 > "/dev/stderr"; exit 1 }
       print ino "\t" p }' "$T/list" | sort > "$T/got" ||
	fail "a line with the wrong extent or block count"
cmp -s "$T/want" "$T/got" ||
	fail "the listed paths differ from ncheck's: $(diff "$T/want" "$T/got" |
		cut -c1-120 | head -4)"
bottom=$(grep -c "/bottom\$" "$T/got")
[ "$bottom" -eq 1 ] || fail "the 36 KB path is not listed whole"
[ "$(grep /bottom "$T/got" | wc -c)" -gt 35000 ] ||
	fail "the deep path is cut short"
head -2 "$T/list" | grep -q "/bottom\$" ||
	fail "the deep path is not among the first (after /many's 22 extents):" \
	     "the lines after it test the last batch"

# JSON: the same lines in the document's text
"$E2LAYOUT" --json -R "frag --top 1000" "$img" > "$T/j" 2>&1 ||
	fail "frag --json failed"
jq -r '.text' "$T/j" > "$T/jt" 2>/dev/null || fail "frag --json is not JSON"
awk 'f { print } /^ +Inode +Extents +Ideal +Blocks +Path$/ { f = 1 }
     f && /^$/ { exit }' "$T/jt" | sed '/^$/d' > "$T/jlist"
cmp -s "$T/list" "$T/jlist" || fail "the JSON text's list differs"
[ "$(jq '.result.files.worst | length' "$T/j")" -eq 402 ] ||
	fail "JSON worst has $(jq '.result.files.worst | length' "$T/j") entries"
echo "ok: $n lines, $(wc -c < "$T/list") bytes"

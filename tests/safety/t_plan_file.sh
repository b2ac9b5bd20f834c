#!/bin/sh
# t_plan_file.sh - saved plans are untrusted input: real plans saved with
# `plan save`, then edited with sed (a free of block 0, blocks past the end,
# huge and negative numbers, a free of another file's blocks, truncation,
# duplicated lines, a wrong kind, binary garbage, a long line, 100 MB of
# junk, an inode changed since, a damaged chain, an edited repack plan, a
# bad name to create): each refused by `apply FILE` (and `plan load`) with
# its line number, without a crash, the image unchanged.  The unedited
# plans still apply and verify.
. "$(dirname "$0")/lib.sh"

mk_files "$T/base.img"
img=$T/img
cp "$T/base.img" "$img"
v0=$(first_blk "$img" V)
save() {	# PLAN-REQUEST FILE: a plan made read-only and saved
	printf 'plan %s\nplan save %s\n' "$1" "$2" |
		"$E2LAYOUT" -f - "$img" > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "plan $1"; }
	[ -s "$2" ] || fail "plan $1 saved nothing"
}
save "defrag big" "$T/p.plan"
# the defrag plan's lines, as plan save writes them (checked: the edits
# below name lines by number)
[ "$(sed -n 2p "$T/p.plan")" = "kind defrag" ] &&
	[ "$(sed -n 10p "$T/p.plan" | cut -d' ' -f1)" = old ] &&
	[ "$(sed -n 15p "$T/p.plan" | cut -d' ' -f1-2)" = "step copy" ] &&
	[ "$(sed -n 24p "$T/p.plan" | cut -d' ' -f1-2)" = "step free" ] &&
	[ "$(sed -n 25p "$T/p.plan")" = end ] ||
	{ cat "$T/p.plan"; fail "the defrag plan is not laid out as expected"; }

# bad NAME WANT FILE [REQUEST]: REQUEST (apply FILE) refused, WANT shown.
bad() {
	cp "$img" "$T/before.img"
	"$E2LAYOUT" -w -R "${4:-apply $3 --no-fsck}" "$img" > "$T/out" 2>&1 \
		< /dev/null && { cat "$T/out"; fail "$1: accepted"; }
	grep -Eq "$2" "$T/out" || { cat "$T/out"; fail "$1: no \"$2\""; }
	grep -Eq "Segmentation|AddressSanitizer|runtime error|applied" \
		"$T/out" && { cat "$T/out"; fail "$1: crashed or applied"; }
	cmp -s "$img" "$T/before.img" || fail "$1: the image changed"
	echo "ok: $1"
}
ed() {	# SED-SCRIPT: the defrag plan edited
	sed "$1" "$T/p.plan" > "$T/e.plan"
}

ed '25i step free 0 0 27'
bad "step free 0 0 27" "line 25: the step's source 0-26 is outside the filesystem" "$T/e.plan"
bad "the same, plan load" "line 25: .*outside" "$T/e.plan" "plan load $T/e.plan"
ed '25i step free 1 0 27'
bad "step free 1 0 27 (the superblock)" "line 25: a step more than the plan" "$T/e.plan"
ed 's/^target [0-9]* /target 99999999 /'
bad "target past the end" "line 5: the target run 99999999-.* is outside the filesystem" "$T/e.plan"
ed '14s/^new 0 [0-9]* /new 0 40000 /'
bad "new run past the end" "line 14: the new run 40000-.*outside" "$T/e.plan"
ed '15s/^step copy \([0-9]*\) \([0-9]*\) [0-9]*/step copy \1 \2 99999999999999999999/'
bad "huge count" "line 15: copy: number 99999999999999999999 is too large" "$T/e.plan"
ed '15s/^step copy \([0-9]*\) \([0-9]*\) [0-9]*/step copy \1 \2 281474976710655/'
bad "a run wrapping past 2^48" "line 15: the step ends past the largest block number" "$T/e.plan"
ed '10s/^old 0 /old 0 -/'
bad "negative number" "line 10: old: bad number \"-[0-9]*\"" "$T/e.plan"
ed '10s/^old 0 \([0-9]*\) /old 0 0x\1 /'
bad "hex number" "line 10: old: bad number" "$T/e.plan"
ed '15s/^step copy \([0-9]*\) \([0-9]*\) 98/step copy \1 \2 0/'
bad "length 0" "line 15: a step of length 0" "$T/e.plan"
ed "24s/^step free [0-9]* /step free $v0 /"
bad "step free of V's blocks" "line 24: step 10 should be \"step free" "$T/e.plan"
ed "24a step free $v0 0 97"
bad "an extra step free of V's blocks" "line 25: a step more than the plan" "$T/e.plan"
ed "15s/^step copy [0-9]* /step copy $v0 /"
bad "a copy from V's blocks" "line 15: step 1 should be" "$T/e.plan"
ed '15d'
bad "a copy step deleted" "line 15: step 1 should be" "$T/e.plan"
ed '19s/^step allocate 0 \([0-9]*\) [0-9]*/step allocate 0 \1 1/'
bad "a shorter allocate" "line 19: step 5 should be" "$T/e.plan"
head -n 20 "$T/p.plan" > "$T/e.plan"
bad "truncated" "line 20: the file ends without its \"end\" line" "$T/e.plan"
: > "$T/e.plan"
bad "empty file" "line 1: not an e2layout plan" "$T/e.plan"
ed '2p'
bad "duplicated kind" "line 3: a second \"kind\" line \(the first is line 2\)" "$T/e.plan"
ed '10p'
bad "duplicated old run" "line 11: runs out of logical order, or overlapping" "$T/e.plan"
ed '15p'
bad "duplicated copy step" "line 16: step 2 should be" "$T/e.plan"
ed '25,$d' && cat "$T/p.plan" >> "$T/e.plan"
bad "a second header" "line 25: unknown line \"e2layout-plan\"" "$T/e.plan"
ed '$a end'
bad "lines after end" "line 26: more lines after \"end\" \(line 25\)" "$T/e.plan"
ed 's/^kind defrag/kind journal_relocate/'
bad "wrong kind (journal)" "line 3: a journal_relocate plan for inode [0-9]*, which is not the internal journal" "$T/e.plan"
ed 's/^kind defrag/kind frobnicate/'
bad "unknown kind" "line 2: unknown plan kind \"frobnicate\"" "$T/e.plan"
ed 's/^kind defrag/kind prealloc/'
bad "kind prealloc without its size" "line 25: set_size and create lines belong to prealloc" "$T/e.plan"
ed 's/^ino .*/ino 5000000/'
bad "inode past the end" "line 3: inode 5000000 does not exist" "$T/e.plan"
ed 's/^ino .*/ino 2/'
bad "another inode (the root directory)" "line 3: a defrag plan for inode 2, which is not a regular file" "$T/e.plan"
ed 's/^step switch 0 \([0-9]*\) 0/step switch 0 \1 5/'
bad "a switch with a length" "line 20: a switch step has no source and no length" "$T/e.plan"
ed 's/^step free \([0-9]*\) 0 /step free \1 7 /'
bad "a free with a destination" "line 21: a free step has no destination block" "$T/e.plan"
ed 's/^step copy /step teleport /'
bad "unknown step kind" "line 15: unknown step kind \"teleport\"" "$T/e.plan"
ed 's/^fp \(.*\) [0-9a-f]*$/fp \1 0123456789abcdef0123456789abcdef/'
bad "another filesystem's plan" "line 9: the plan was made for another filesystem" "$T/e.plan"
ed 's/^fp \(.*\) [0-9a-f]*$/fp \1 xyz/'
bad "a bad UUID" "line 9: bad UUID" "$T/e.plan"
ed '/^chained/d'
bad "a line missing" "line 24: the plan that ends here has no \"chained\" line" "$T/e.plan"

# binary garbage, NUL bytes, a long line
head -c 8192 /dev/urandom > "$T/e.plan"
bad "binary garbage" "line 1: (not an e2layout plan|binary data|longer than)" "$T/e.plan"
{ sed -n 1,9p "$T/p.plan"; head -c 3000 /dev/urandom; } > "$T/e.plan"
bad "garbage after the header" "line (10|11): (binary data|longer than|unknown line)" "$T/e.plan"
{ sed -n 1,9p "$T/p.plan"; printf 'old 0 3\000813 98 0\n'; } > "$T/e.plan"
bad "a NUL byte" "line 10: binary data \(byte 0x00 at column 8\)" "$T/e.plan"
{ sed -n 1,9p "$T/p.plan"; printf 'old%0600d\n' 0; } > "$T/e.plan"
bad "a 600-byte line" "line 10: longer than 511 bytes" "$T/e.plan"

# 100 MB of junk, and 100 MB of well-formed entries: memory stays bounded
rss() {	# REQUEST: the peak resident size (KiB) of e2layout running it
	/usr/bin/time -f "%M" -o "$T/rss" "$E2LAYOUT" -w -R "$1" "$img" \
		> "$T/out" 2>&1 < /dev/null
	tail -1 "$T/rss"
}
{ echo "e2layout-plan 1"; yes "junk junk junk junk junk junk junk" |
	head -c 100000000; } > "$T/e.plan"
bad "100 MB of junk lines" "line 2: unknown line \"junk\"" "$T/e.plan"
{ sed -n 1,9p "$T/p.plan"; yes "oldmeta 5" | head -c 100000000; } > "$T/e.plan"
bad "100 MB of entries" "line 4194314: more than 4194304 entries" "$T/e.plan"
case $E2L_BUILD in *asan*) ;; *)	# (ASan's shadow memory would count)
	[ -x /usr/bin/time ] || skip "no /usr/bin/time to measure memory"
	kb=$(rss "apply $T/e.plan --no-fsck")
	[ "$kb" -lt 262144 ] || fail "100 MB of entries took $kb KiB"
	echo "ok: peak memory $kb KiB"
esac
rm -f "$T/e.plan"

# an old plan whose inode has changed since (punch frees some of its blocks)
cp "$img" "$T/keep.img"
dfs "$img" "punch big 300 310"
bad "the inode changed since" "line 13: inode [0-9]* does not map logical block 294 at block [0-9]* \(97 blocks\) as the plan records; the filesystem changed since the plan was made" "$T/p.plan"
cp "$T/keep.img" "$img"

# a chain (evacuate: one plan per inode), damaged
save "evacuate 2328-3900" "$T/ev.plan"
n=$(grep -c '^next$' "$T/ev.plan")
[ "$n" -ge 2 ] || { cat "$T/ev.plan"; fail "evacuate made a chain of $((n + 1))"; }
sed '0,/^chained 1/s//chained 0/' "$T/ev.plan" > "$T/e.plan"
l=$(grep -n '^next$' "$T/ev.plan" | sed -n 2p | cut -d: -f1)
bad "chained flag cleared" "line $l: \"chained 0\" on plan 2 of the chain" "$T/e.plan"
first_ino=$(sed -n 's/^ino //p' "$T/ev.plan" | head -1)
awk -v i="$first_ino" '/^ino / && ++k == 2 {print "ino " i; next} {print}' \
	"$T/ev.plan" > "$T/e.plan"
bad "a chain moving one inode twice" "line [0-9]+: inode $first_ino does not map|moves inode $first_ino twice" "$T/e.plan"
sed 's/^kind evacuate/kind defrag/' "$T/ev.plan" > "$T/e.plan"
bad "a defrag plan inside a chain" "line 2: a defrag plan inside a chain" "$T/e.plan"

# prealloc: a name to create
save "prealloc newfile 100K" "$T/pn.plan"
sed 's/^create newfile/create ..\/x/' "$T/pn.plan" > "$T/e.plan"
bad "a name with a slash" "line 11: bad file name to create" "$T/e.plan"
sed 's/^create newfile/create small/' "$T/pn.plan" > "$T/e.plan"
bad "a name that exists" "line 11: the directory already holds small" "$T/e.plan"
sed 's/^ino 2$/ino 12/' "$T/pn.plan" > "$T/e.plan"
bad "create in a file" "line 3: a prealloc plan creating a file in inode 12, which is not a directory" "$T/e.plan"

# The honest path: plans saved, then applied by another process, verify.
file_sums "$img" > "$T/sums.want"
for req in "defrag big" "evacuate V" "prealloc newfile 100K" \
	   "journal relocate --size 1100"; do
	case $req in
	"evacuate V") req="evacuate $(first_blk "$img" V)-$(last_blk "$img" V)"
	esac
	save "$req" "$T/ok.plan"
	"$E2LAYOUT" -w -R "apply $T/ok.plan --no-fsck" "$img" > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "the saved plan \"$req\" did not apply"; }
	grep -q "^verified" "$T/out" || { cat "$T/out"; fail "$req: not verified"; }
	fsck_clean "$img" || { cat "$T/fsck.out"; fail "$req: e2fsck"; }
done
file_sums "$img" | grep -v " ./newfile$" > "$T/sums.now"
cmp -s "$T/sums.want" "$T/sums.now" || fail "file contents changed"
echo "ok: the saved plans applied and verified"

# repack-flex plans (no flex_bg; the island evacuated first)
mk_files "$img" -O ^flex_bg
"$E2LAYOUT" -R "repack-flex 0" "$img" > "$T/out" 2>&1
range=$(sed -n 's/.*evacuate \([0-9]*-[0-9]*\).*/\1/p' "$T/out")
"$E2LAYOUT" -w -R "evacuate $range --no-undo" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "evacuate $range"; }
save "repack-flex 0" "$T/r.plan"
grep -q '^ritem 0 2 [0-9]* [1-9]' "$T/r.plan" ||
	{ cat "$T/r.plan"; fail "group 0's inode table has no temporary place"; }
l=$(grep -n '^ritem 0 2 ' "$T/r.plan" | cut -d: -f1)
sed "${l}s/^ritem 0 2 \([0-9]*\) [0-9]* /ritem 0 2 \1 0 /" "$T/r.plan" > "$T/e.plan"
bad "an item in the island's way without its temporary place" "line $l: group 0's inode table is in the island's way but has no temporary place" "$T/e.plan"
sed "${l}s/^ritem 0 2 /ritem 99999 2 /" "$T/r.plan" > "$T/e.plan"
bad "an item of a group past the end" "line $l: no group 99999" "$T/e.plan"
sed "${l}s/^ritem 0 2 /ritem 0 7 /" "$T/r.plan" > "$T/e.plan"
bad "an item of an unknown kind" "line $l: ritem: number 7 is too large" "$T/e.plan"
sed "${l}s/^ritem 0 2 /ritem 0 -2 /" "$T/r.plan" > "$T/e.plan"
bad "a negative item kind" "line $l: ritem: bad number \"-2\"" "$T/e.plan"
sed 's/^repack \([0-9]*\) \([0-9]*\) \([0-9]*\) [0-9]* /repack \1 \2 \3 40 /' "$T/r.plan" > "$T/e.plan"
bad "s_log_groups_per_flex 40" "line [0-9]*: repack: number 40 is too large" "$T/e.plan"
sed '/^ritem/p' "$T/r.plan" > "$T/e.plan"
bad "ritem lines doubled" "line [0-9]*: more ritem lines than" "$T/e.plan"
file_sums "$img" > "$T/sums.want"
"$E2LAYOUT" -w -R "apply $T/r.plan --no-fsck" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "the saved repack plan did not apply"; }
grep -q "^verified: flex group 0" "$T/out" || { cat "$T/out"; fail "not verified"; }
fsck_clean "$img" || { cat "$T/fsck.out"; fail "e2fsck after repack"; }
file_sums "$img" | cmp -s - "$T/sums.want" || fail "repack changed files"
echo "ok: the saved repack plan applied and verified"
exit 0

#!/bin/sh
# t_repack_all.sh - repack-flex --all and --groups-per-flex G on ext4 made
# without flex_bg (1 KiB blocks, a resize inode, files in every island): one
# job that evacuates each island and packs each flex group under one undo
# file.  Read-only it is shown and nothing is written; a fault sweep leaves
# files intact and e2fsck clean or with leaked blocks only; applied, every
# flex group is packed as mke2fs -G lays it out (dumpe2fs), the flex size is
# set, e2fsck -fn is clean, files are unchanged, e2undo restores the image
# byte for byte; --groups-per-flex for one flex group the same; --all with
# the default 16 saved as a plan file and applied from another process
# (with its own fault sweep); run again it has nothing to do.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/d/sub"
i=1
while [ $i -le 10 ]; do
	head -c $((120000 * i)) /dev/urandom > "$T/d/f$i"
	head -c $((3000 * i)) /dev/urandom > "$T/d/sub/s$i"
	i=$((i + 1))
done
mkimg() {	# IMG INODE_SIZE SIZE
	mke2fs -q -F -t ext4 -O ^flex_bg -b 1024 -I "$2" -d "$T/d" "$1" "$3" \
		>/dev/null 2>&1 || fail "mke2fs"
}
# packed IMG FIRST N: groups FIRST..FIRST+N-1 packed after FIRST's own
# superblock/descriptors (if any): N block bitmaps, N inode bitmaps, tables.
packed() {
	dumpe2fs "$1" 2>/dev/null | awk -v f="$2" -v n="$3" '
	/^Group [0-9]+:/ { g = $2 + 0; l = $0; sub(/.*Blocks /, "", l)
		split(l, b, "-"); gs[g] = b[1] + 0 }
	/Reserved GDT blocks at/ { l = $0; sub(/.*at /, "", l); split(l, d, "-"); after[g] = d[2] + 1 }
	/Group descriptors at/ && !(g in after) { l = $0; sub(/.*at /, "", l); split(l, d, "-"); after[g] = d[2] + 1 }
	/Block bitmap at/ { bb[g] = $4 + 0 }
	/Inode bitmap at/ { ib[g] = $4 + 0 }
	/Inode table at/ { split($4, t, "-"); it[g] = t[1] + 0; itb = t[2] - t[1] + 1 }
	END {
		start = (f in after) ? after[f] : gs[f]
		for (i = 0; i < n; i++) {
			if (bb[f + i] != start + i) { print "bb", f + i, bb[f + i], "want", start + i; exit 1 }
			if (ib[f + i] != start + n + i) { print "ib", f + i; exit 1 }
			if (it[f + i] != start + 2 * n + i * itb) { print "it", f + i; exit 1 }
		}
	}'
}
flexsize() { dumpe2fs -h "$1" 2>/dev/null | sed -n 's/^Flex block group size: *//p'; }
rsv() { dumpe2fs "$1" 2>/dev/null | grep "Reserved GDT blocks at"; }

# 1. --groups-per-flex 4 on 8 groups: two flex groups, both islands hold
# files (the root directory and f1.. in group 0; files Orlov put in group 4).
img=$T/a.img
mkimg "$img" 256 64M
sums "$img" "$T/want.md5"
rsv "$img" > "$T/rsv.want"
cp "$img" "$T/fresh.img"
"$E2LAYOUT" -R "repack-flex --all --groups-per-flex 4" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "repack-flex --all plan"; }
grep -q "repack_flex --all: 2 flex groups to pack, [1-9][0-9]* files\? to move" "$T/out" ||
	{ cat "$T/out"; fail "no job summary"; }
grep -q "Plan: evacuate of inode 2 " "$T/out" || { cat "$T/out"; fail "the root directory is not moved out of island 0"; }
grep -q "chose 4, and sets flex_bg and s_log_groups_per_flex=2" "$T/out" ||
	{ cat "$T/out"; fail "flex size not stated"; }
grep -q "Nothing is written" "$T/out" || { cat "$T/out"; fail "no preview"; }
cmp -s "$img" "$T/fresh.img" || fail "a read-only session wrote"

# 2. Fault sweep on copies: crashes anywhere in the job (moves, then each
# repack) leave the files intact and e2fsck clean or with leaked blocks.
fault_points "$img" "repack-flex --all --groups-per-flex 4 --no-undo" \
	"--all --groups-per-flex 4" 1 3 7 15 30 60 100 150 200 260 330 400 480 \
	560 650 800 1000 1500 3000
[ $rc -eq 0 ] || fail "the job never completed in the sweep"
[ $crashes -ge 8 ] || fail "only $crashes crash points were exercised"
echo "ok: fault sweep: $crashes crash points, files intact, e2fsck clean or leaked blocks only"

# 3. Applied with one undo file.
"$E2LAYOUT" -w -R "repack-flex --all --groups-per-flex 4 --undo $T/u.e2undo" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "repack-flex --all apply"; }
[ "$(grep -c '^verified: flex group [01] packed' "$T/out")" = 2 ] ||
	{ cat "$T/out"; fail "not both flex groups verified"; }
grep "^verified" "$T/out" | grep -qv "agree$" && { cat "$T/out"; fail "a plan not verified"; }
[ "$(ls "$T"/*.e2undo | wc -l)" = 1 ] || fail "more than one undo file: $(ls "$T"/*.e2undo)"
applied_check "$img" "--all --groups-per-flex 4"
packed "$img" 0 4 || fail "flex group 0 is not packed"
packed "$img" 4 4 || fail "flex group 1 is not packed"
[ "$(flexsize "$img")" = 4 ] || fail "flex size $(flexsize "$img"), not 4"
rsv "$img" | cmp -s - "$T/rsv.want" || fail "the reserved GDT blocks moved"
"$E2LAYOUT" -R "repack-flex --all" "$img" > "$T/out" 2>&1 || { cat "$T/out"; fail "second run"; }
grep -q "already packed" "$T/out" || { cat "$T/out"; fail "a packed filesystem was not left alone"; }
e2undo "$T/u.e2undo" "$img" >/dev/null 2>&1 || fail "e2undo"
cmp -s "$img" "$T/fresh.img" || fail "e2undo did not restore the image"
echo "ok: --all --groups-per-flex 4: two flex groups packed in one job, undo restores"

# 3b. --groups-per-flex 4 for one flex group (1: groups 4-7, its island
# holding files): a fault sweep, then applied, checked and undone.
img=$T/a.img
sums "$img" "$T/want.md5"
fault_points "$img" "repack-flex 1 --groups-per-flex 4 --no-undo" \
	"1 --groups-per-flex 4" 1 5 20 60 150 300 600 1200 3000
[ $rc -eq 0 ] && [ $crashes -ge 4 ] || fail "1 --groups-per-flex 4: sweep (rc $rc, $crashes crashes)"
"$E2LAYOUT" -w -R "repack-flex 1 --groups-per-flex 4 --undo $T/u1.e2undo" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "repack-flex 1 --groups-per-flex 4"; }
grep -q '^verified: flex group 1 packed' "$T/out" || { cat "$T/out"; fail "flex group 1 not verified"; }
applied_check "$img" "1 --groups-per-flex 4"
packed "$img" 4 4 || fail "flex group 1 of 4 groups is not packed"
[ "$(flexsize "$img")" = 4 ] || fail "flex size $(flexsize "$img"), not 4 (1 of 4)"
e2undo "$T/u1.e2undo" "$img" >/dev/null 2>&1 || fail "e2undo (1 of 4)"
cmp -s "$img" "$T/fresh.img" || fail "e2undo did not restore the image (1 of 4)"
echo "ok: repack-flex 1 --groups-per-flex 4: crash sweep ($crashes), packed, undo restores"

# 4. --all with the default 16 groups per flex (20 groups: flex groups of 16
# and 4), saved and applied from another process.
img=$T/b.img
mkimg "$img" 128 160M
sums "$img" "$T/want.md5"
cp "$img" "$T/pre.img"
printf 'repack-flex --all\nplan save %s\n' "$T/r.plan" | "$E2LAYOUT" -f - "$img" \
	> "$T/out" 2>&1 || { cat "$T/out"; fail "plan save of repack-flex --all"; }
grep -c '^next$' "$T/r.plan" | grep -q '^[1-9]' || fail "the saved plan is not a chain"
# crashes while the saved chain is applied
fault_points "$img" "apply $T/r.plan --no-undo" "saved chain" \
	2 10 40 120 300 700 1500 4000
[ $rc -eq 0 ] && [ $crashes -ge 4 ] || fail "saved chain: sweep (rc $rc, $crashes crashes)"
"$E2LAYOUT" -w -R "apply $T/r.plan --undo $T/u2.e2undo" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "apply of the saved chain"; }
applied_check "$img" "saved chain"
packed "$img" 0 16 || fail "flex group 0 of 16 is not packed"
packed "$img" 16 4 || fail "flex group 1 (4 groups) is not packed"
[ "$(flexsize "$img")" = 16 ] || fail "flex size $(flexsize "$img"), not 16"
"$E2LAYOUT" -w -R "apply $T/r.plan" "$img" > "$T/out" 2>&1 && fail "a chain applied twice"
e2undo "$T/u2.e2undo" "$img" >/dev/null 2>&1 || fail "e2undo (b)"
cmp -s "$img" "$T/pre.img" || fail "e2undo did not restore the image (b)"
echo "ok: --all (16 per flex) saved and applied from another process"

# 5. Arguments.
for a in "--all 0" "--groups-per-flex 3" "--groups-per-flex 1" "--groups-per-flex x" "--bogus"; do
	"$E2LAYOUT" -R "repack-flex $a" "$img" > "$T/out" 2>&1 && fail "repack-flex $a accepted"
done
"$E2LAYOUT" -R "repack-flex 9 --groups-per-flex 4" "$img" > "$T/out" 2>&1 && fail "flex group 9 of 5 accepted"
grep -q "no flex group 9" "$T/out" || { cat "$T/out"; fail "no clear message for flex group 9"; }
exit 0

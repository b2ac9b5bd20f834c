#!/bin/sh
# t_owner_meta_overlap.sh - metadata placed inside other metadata (a damaged
# image: debugfs set_bg moves group 2's block bitmap into group 0's inode
# table and group 3's inode bitmap into the journal): the blocks of the long
# run after the intruder are still the long run's in the map (where dumpe2fs
# and debugfs stat <8> put them), and `owner` of the intruder's block names
# both owners, scanning alone or from the index map built.
. "$(dirname "$0")/../lib/testlib.sh"

command -v debugfs >/dev/null || skip "no debugfs"
command -v mke2fs >/dev/null || skip "no mke2fs"

img=$T/x.img
mke2fs -q -F -t ext4 -O ^flex_bg,^resize_inode,^metadata_csum -b 1024 \
	-g 1024 -N 512 -J size=1 "$img" 8192 >/dev/null 2>&1 ||
	fail "mke2fs"
# group 0's inode table and the journal's first extent, before the damage
it=$(dumpe2fs "$img" 2>/dev/null |
     awk '/^Group 0:/ { g = 1 } /^Group 1:/ { g = 0 }
	  g && /Inode table at/ { split($4, r, "-"); print r[1], r[2] }')
set -- $it
[ $# -eq 2 ] || fail "no inode table for group 0 in dumpe2fs: $it"
it0=$1 it1=$2
jr=$(debugfs -R "stat <8>" "$img" 2>/dev/null |
     sed -n 's/^(0-[0-9]*):\([0-9]*\)-\([0-9]*\).*/\1 \2/p')
set -- $jr
[ $# -eq 2 ] || fail "no journal extent in debugfs stat <8>: $jr"
j0=$1 j1=$2
# the intruders: one block into each long run, 30 blocks of it after them
bb=$((it0 + 5)) ib=$((j0 + 100))
[ $((bb + 10)) -le "$it1" ] && [ $((ib + 31)) -le "$j1" ] ||
	fail "the runs are too short: $it0-$it1, $j0-$j1"
printf 'set_bg 2 block_bitmap %s\nset_bg 3 inode_bitmap %s\n' "$bb" "$ib" |
	debugfs -w -f - "$img" >/dev/null 2>&1 || fail "debugfs set_bg"
dumpe2fs "$img" 2>/dev/null | grep -q "Block bitmap at $bb\$" ||
	fail "dumpe2fs does not show group 2's block bitmap at $bb"
dumpe2fs "$img" 2>/dev/null | grep -q "Inode bitmap at $ib\$" ||
	fail "dumpe2fs does not show group 3's inode bitmap at $ib"

# map over the rest of the inode table and 30 journal blocks after the
# intruder, one block per cell: every cell the long run's
n1=$((it1 - bb))
"$E2LAYOUT" -R "map $((bb + 1))-$it1" "$img" > "$T/map1" 2>&1 ||
	fail "map exit $?: $(cat "$T/map1")"
grep -q "^ *$((bb + 1)) I\{$n1\}\$" "$T/map1" ||
	check "blocks $((bb + 1))-$it1 are not all inode table:
$(cat "$T/map1")"
grep -q "^  I  inode table  *$n1\$" "$T/map1" ||
	check "the legend does not count $n1 inode table blocks"
"$E2LAYOUT" -R "map $((ib + 1))-$((ib + 30))" "$img" > "$T/map2" 2>&1 ||
	fail "map exit $?: $(cat "$T/map2")"
grep -q "^ *$((ib + 1)) J\{30\}\$" "$T/map2" ||
	check "journal blocks after $ib are not all journal:
$(cat "$T/map2")"

# owner: both claimants of each intruder's block, and the long run's
# blocks after it, alone and after map built the index
want="$bb: block bitmap, group 2; claimed by 2 owners
$bb: also inode table, group 0
$((bb + 1)): inode table, group 0
$it1: inode table, group 0
$ib: inode bitmap, group 3; claimed by 2 owners
$ib: also journal, group 2, inode 8, logical block $((ib - j0))
$((ib + 1)): journal, group 2, inode 8, logical block $((ib + 1 - j0))"
q="owner -a $bb $((bb + 1)) $it1 $ib $((ib + 1))"
"$E2LAYOUT" -R "$q" "$img" > "$T/own1" 2>&1 || fail "owner exit $?"
[ "$(cat "$T/own1")" = "$want" ] ||
	check "owner alone:
$(cat "$T/own1")
wanted:
$want"
printf 'map\n%s\n' "$q" | "$E2LAYOUT" -f - "$img" 2>&1 |
	sed -n "/^debugfs: owner/,\$p" | sed 1d > "$T/own2"
[ "$(cat "$T/own2")" = "$want" ] ||
	check "owner from the index:
$(cat "$T/own2")
wanted:
$want"
checks_done

#!/bin/sh
# t_undo_z.sh - the session undo file (-w -z FILE) restores the image byte
# for byte with the real e2undo after every plan operation (defrag,
# prealloc, evacuate, journal relocation with and without a new size,
# repack-flex --all with a new --groups-per-flex), on the demo image (4 KiB
# blocks) and a 1 KiB-block ext4, and repack-flex turning flex_bg on (4 KiB
# and 1 KiB); and a -z session that writes nothing leaves a file e2undo
# accepts (or none), the image unchanged.
. "$(dirname "$0")/../lib/testlib.sh"
command -v e2undo >/dev/null 2>&1 || skip "e2undo is not installed: no oracle"
[ -f "$E2L_IMAGES/demo.img" ] || skip "no demo image in $E2L_IMAGES"

# undo_z IMG REQUEST: -w -z on a copy of IMG, then e2undo must give IMG back.
undo_z() {
	cp --sparse=always "$1" "$T/c.img"
	rm -f "$T/u.e2undo"
	"$E2LAYOUT" -w -z "$T/u.e2undo" -R "$2" "$T/c.img" > "$T/out" 2>&1 ||
		{ cat "$T/out"; check "$2 on $1: exit $?"; return; }
	cmp -s "$T/c.img" "$1" &&
		{ check "$2 on $1: the image did not change"; return; }
	e2undo "$T/u.e2undo" "$T/c.img" > "$T/undo.out" 2>&1 ||
		{ cat "$T/undo.out"; check "$2 on $1: e2undo refused"; return; }
	fsck_clean "$T/c.img" ||
		{ cat "$T/fsck.out"; check "$2 on $1: not clean after e2undo"; }
	cmp "$T/c.img" "$1" > "$T/cmp.out" 2>&1 ||
		{ cat "$T/cmp.out"; check "$2 on $1: not restored byte for byte"
		  return; }
	echo "ok: $2 on $(basename "$1"): restored exactly"
}

# A 1 KiB-block ext4 with flex groups of 4 (packed by mke2fs already: a
# plain repack-flex has nothing to do there), a journal and fragmented files.
mke2fs -q -F -t ext4 -b 1024 -G 4 "$T/k.img" 64M >/dev/null 2>&1 ||
	fail "mke2fs 1 KiB"
i=1
while [ $i -le 10 ]; do
	head -c $((300000 + i * 1000)) /dev/urandom > "$T/p$i"
	echo "write $T/p$i f$i"
	i=$((i + 1))
done | debugfs -w "$T/k.img" >/dev/null 2>&1
printf 'rm f%s\n' 1 3 5 7 9 | debugfs -w "$T/k.img" >/dev/null 2>&1
cat "$T/p1" "$T/p3" "$T/p5" > "$T/big"
debugfs -w -R "write $T/big big" "$T/k.img" >/dev/null 2>&1
fsck_clean "$T/k.img" || fail "the generated 1 KiB image is not clean"

cp --sparse=always "$E2L_IMAGES/demo.img" "$T/demo.img"
d="$T/demo.img"
b=$(debugfs -R "bmap /var/log/syslog 0" "$d" 2>/dev/null)
[ -n "$b" ] || fail "no block of /var/log/syslog in the demo image"
undo_z "$d" "defrag /var/log/syslog"
undo_z "$d" "prealloc /srv/new.log 2M"
undo_z "$d" "evacuate $b-$b"
undo_z "$d" "journal_relocate --start"
undo_z "$d" "journal_relocate --size 8M"
undo_z "$d" "repack-flex --all --groups-per-flex 32"
undo_z "$d" "repack-flex --all --groups-per-flex 64"

k="$T/k.img"
b=$(debugfs -R "bmap /big 0" "$k" 2>/dev/null)
[ -n "$b" ] || fail "no block of /big in the 1 KiB image"
undo_z "$k" "defrag /big"
undo_z "$k" "prealloc /new 200K"
undo_z "$k" "evacuate $b-$b"
undo_z "$k" "journal_relocate --start"
undo_z "$k" "journal_relocate --size 2M"
undo_z "$k" "repack-flex --all --groups-per-flex 32"
undo_z "$k" "repack-flex --all --groups-per-flex 64"

# repack-flex turning flex_bg on (files moved out of the islands first),
# 4 KiB and 1 KiB blocks.
mkdir "$T/d"
for i in 1 2 3 4; do head -c $((150000 * i)) /dev/urandom > "$T/d/f$i"; done
mke2fs -q -F -t ext4 -O ^flex_bg -b 4096 -d "$T/d" "$T/n4.img" 512M \
	>/dev/null 2>&1 || fail "mke2fs without flex_bg, 4 KiB"
mke2fs -q -F -t ext4 -O ^flex_bg -b 1024 -d "$T/d" "$T/n1.img" 64M \
	>/dev/null 2>&1 || fail "mke2fs without flex_bg, 1 KiB"
undo_z "$T/n4.img" "repack-flex --all"
undo_z "$T/n1.img" "repack-flex --all"

# A -z session that writes nothing: no file that e2undo refuses.
for img in "$d" "$k"; do
	cp --sparse=always "$img" "$T/c.img"
	rm -f "$T/u.e2undo"
	"$E2LAYOUT" -w -z "$T/u.e2undo" -R "stats" "$T/c.img" \
		> "$T/out" 2>&1 || { cat "$T/out"; check "stats -w -z: exit"; }
	cmp -s "$T/c.img" "$img" || check "stats -w -z changed the image"
	[ -e "$T/u.e2undo" ] || { echo "ok: no unused -z file left"; continue; }
	e2undo "$T/u.e2undo" "$T/c.img" > "$T/undo.out" 2>&1 ||
		{ cat "$T/undo.out"; check "an unused -z file: e2undo refused it"
		  continue; }
	cmp -s "$T/c.img" "$img" ||
		{ check "e2undo of an unused -z file changed the image"; continue; }
	echo "ok: an unused -z file on $(basename "$img") is valid"
done
checks_done
exit 0

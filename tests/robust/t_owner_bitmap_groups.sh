#!/bin/sh
# t_owner_bitmap_groups.sh - `owner B` with no bitmap loaded reads the block
# bitmaps of B's groups only, as a load of the whole bitmap would see them:
# a damaged bitmap (bad checksum) in another group does not stop it, one in
# B's group fails as the whole load fails; on every group's edges, bitmaps,
# inode tables and free blocks (BLOCK_UNINIT groups included), with and
# without metadata_csum, its answers are the full index's.
. "$(dirname "$0")/../lib/testlib.sh"

command -v dumpe2fs >/dev/null || skip "no dumpe2fs"
img=$T/fs.img
for feat in metadata_csum ^metadata_csum,uninit_bg; do
	rm -f "$img"
	mke2fs -q -F -t ext4 -O "$feat" -b 4096 -g 8192 -N 2048 "$img" 256M \
		>/dev/null 2>&1 || fail "mke2fs -O $feat"
	dumpe2fs "$img" 2>/dev/null > "$T/dump"
	grep -q 'BLOCK_UNINIT' "$T/dump" ||
		fail "$feat: no BLOCK_UNINIT group to test"
	# every group's first, second and last blocks, its bitmaps and the
	# first and last blocks of its inode table, then a few free ones
	awk '/^Group [0-9]*:/ { split($4, r, "[-)]"); sub(/\(Blocks /, "")
			        print r[1]; print r[1] + 1; print r[2] }
	     /Block bitmap at|Inode bitmap at/ { print $4 + 0 }
	     /Inode table at/ { split($4, r, "-"); print r[1]; print r[2] + 0 }
	     /^  Free blocks: [0-9]/ { split($3, r, "[-,]"); print r[1] }' \
		"$T/dump" | sort -nu > "$T/blocks"
	[ "$(wc -l < "$T/blocks")" -ge 40 ] ||
		fail "$feat: only $(wc -l < "$T/blocks") blocks to ask"
	blocks=$(tr '\n' ' ' < "$T/blocks")
	"$E2LAYOUT" -R "owner $blocks" "$img" > "$T/probe" 2>&1 ||
		fail "$feat: owner failed: $(tail -1 "$T/probe")"
	printf 'map 0-0\nowner %s\n' "$blocks" > "$T/script"
	"$E2LAYOUT" -f "$T/script" "$img" 2>&1 | grep '^[0-9]*: ' \
		> "$T/index"
	cmp -s "$T/probe" "$T/index" ||
		check "$feat: owner without the bitmap and the index differ:" \
		      "$(diff "$T/probe" "$T/index" | head -4)"
	grep -q 'free (uninit group)\|uninit' "$T/probe" ||
		check "$feat: no block of a BLOCK_UNINIT group answered"
done

# metadata_csum: group 0's block bitmap made to fail its checksum
mke2fs -q -F -t ext4 -O metadata_csum -b 4096 -g 8192 -N 2048 "$img" 256M \
	>/dev/null 2>&1 || fail "mke2fs"
bb=$(dumpe2fs "$img" 2>/dev/null | awk '/Block bitmap at/ { print $4 + 0; exit }')
last=$(dumpe2fs -h "$img" 2>/dev/null |
       awk -F: '/^Block count/ { print $2 - 1 }')
[ -n "$bb" ] && [ -n "$last" ] || fail "no bitmap location or block count"
"$E2LAYOUT" -R "owner $last" "$img" > "$T/good" 2>&1 ||
	fail "owner $last on the good image: $(cat "$T/good")"
# a bit of the bitmap's last byte (blocks 8184-8191 of group 0) flipped
off=$((bb * 4096 + 1023))
byte=$(od -An -tu1 -j "$off" -N1 "$img" | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 1)))" |
	dd of="$img" bs=1 seek="$off" conv=notrunc status=none ||
	fail "dd"
debugfs -R "testb 8191" "$img" 2>&1 | grep -q 'checksum does not match' ||
	check "the flipped bit does not fail group 0's checksum for debugfs"
"$E2LAYOUT" -R "owner $last" "$img" > "$T/other" 2>&1
rc=$?
[ "$rc" -eq 0 ] && cmp -s "$T/good" "$T/other" ||
	check "owner $last (group 7) with group 0's bitmap damaged:" \
	      "exit $rc, '$(cat "$T/other")', not '$(cat "$T/good")'"
"$E2LAYOUT" -R "owner 8000" "$img" > "$T/bad" 2>&1 &&
	check "owner 8000 (in the damaged group 0) succeeded: $(cat "$T/bad")"
grep -q '^owner: .*checksum.* while reading allocation bitmaps$' "$T/bad" ||
	check "owner 8000: '$(cat "$T/bad")', not the bitmap load's error"
# a session that loads the whole bitmap first fails as before
printf 'ffb\nowner %s\n' "$last" > "$T/script"
"$E2LAYOUT" -f "$T/script" "$img" > "$T/load" 2>&1 &&
	check "owner after a whole load of a damaged bitmap succeeded"
# catastrophic mode: no bitmap at all, as debugfs says
"$E2LAYOUT" -c -R "owner $last" "$img" > "$T/cat" 2>&1 &&
	check "owner in catastrophic mode succeeded"
grep -q 'owner: Filesystem bitmaps not loaded' "$T/cat" ||
	check "owner -c: '$(cat "$T/cat")'"
checks_done
echo "ok: owner reads only its groups' bitmaps"

#!/bin/sh
# t_bitmap_backend.sh - a session that loaded its bitmaps for one of
# e2layout's own requests (a bit array) answers a later debugfs request as
# debugfs does (its rbtree), and back: on e2fsprogs's images with damaged
# bitmaps the two backends answer `ffb` differently.  A -w session keeps
# its unwritten bitmap changes across the change of backend.
. "$(dirname "$0")/../lib/testlib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${E2L_CORPUS:-$top/../shared/corpus/e2fsprogs-tests}
[ -d "$corpus" ] || skip "skip: no e2fsprogs test-image corpus at $corpus"
command -v debugfs >/dev/null 2>&1 || skip "skip: no debugfs"

printf 'frag\nffb\n' > "$T/frag_ffb"
printf 'ffb\nfrag\n' > "$T/ffb_frag"
printf 'map 0-0\nffb\n' > "$T/owner_ffb"
n=0
# images whose damaged block bitmaps make the rbtree's ffb fail where the
# bit array finds a block
for name in f_illbbitmap f_journal f_miss_blk_bmap f_preen f_zero_group; do
	[ -f "$corpus/$name.img.gz" ] || continue
	img=$T/$name.img
	gzip -dc "$corpus/$name.img.gz" > "$img" || fail "$name: gunzip"
	debugfs -R ffb "$img" > "$T/d.ffb" 2>/dev/null
	# ffb alone (it loads the bitmap itself, after its arguments)
	"$E2LAYOUT" -R ffb "$img" > "$T/e.ffb" 2>/dev/null
	cmp -s "$T/d.ffb" "$T/e.ffb" ||
		check "$name: -R ffb: '$(cat "$T/e.ffb")', debugfs '$(cat "$T/d.ffb")'"
	# e2layout's frag first, then debugfs's ffb: the part after the
	# echoed request is debugfs's answer
	"$E2LAYOUT" -f "$T/frag_ffb" "$img" > "$T/e.out" 2>/dev/null
	sed '1,/^debugfs: ffb$/d' "$T/e.out" > "$T/e.ffb"
	cmp -s "$T/d.ffb" "$T/e.ffb" ||
		check "$name: ffb after frag: '$(cat "$T/e.ffb")', debugfs '$(cat "$T/d.ffb")'"
	# frag and owner read the bitmap group by group when none is loaded:
	# map's owner index loads e2layout's bit array, which ffb must see as
	# debugfs's rbtree
	"$E2LAYOUT" -f "$T/owner_ffb" "$img" > "$T/e.out" 2>/dev/null
	sed '1,/^debugfs: ffb$/d' "$T/e.out" > "$T/e.ffb"
	cmp -s "$T/d.ffb" "$T/e.ffb" ||
		check "$name: ffb after map: '$(cat "$T/e.ffb")', debugfs '$(cat "$T/d.ffb")'"
	# and back: frag after ffb answers as frag alone
	"$E2LAYOUT" -R frag "$img" > "$T/e.frag" 2>/dev/null
	"$E2LAYOUT" -f "$T/ffb_frag" "$img" > "$T/e.out" 2>/dev/null
	sed '1,/debugfs: frag$/d' "$T/e.out" > "$T/e.frag2"
	[ -s "$T/e.frag" ] || check "$name: frag said nothing"
	cmp -s "$T/e.frag" "$T/e.frag2" ||
		check "$name: frag after ffb differs from frag alone"
	n=$((n + 1))
	rm -f "$img"
done
[ "$n" -gt 0 ] || skip "skip: none of the damaged-bitmap images in $corpus"

# A change made in memory (setb, not written) survives both conversions.
img=$T/w.img
mke2fs -q -F -t ext4 "$img" 8M >/dev/null 2>&1 || fail "mke2fs"
free=$(debugfs -R 'ffb 1 1000' "$img" 2>/dev/null | sed 's/.*: //;s/ .*//')
[ -n "$free" ] || fail "no free block found by debugfs"
printf 'setb %s\nfrag\ntestb %s\nfreeb %s\nfrag\ntestb %s\n' \
	"$free" "$free" "$free" "$free" > "$T/w"
"$E2LAYOUT" -w -f "$T/w" "$img" > "$T/w.out" 2>&1
grep -q "^Block $free marked in use" "$T/w.out" ||
	check "setb's change lost across the backends: $(cat "$T/w.out")"
grep -q "^Block $free not in use" "$T/w.out" ||
	check "freeb's change lost across the backends: $(cat "$T/w.out")"
checks_done
echo "ok: $n damaged-bitmap images answer ffb as debugfs after frag"

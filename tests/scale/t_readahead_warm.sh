#!/bin/sh
# t_readahead_warm.sh - the readahead hints (posix_fadvise WILLNEED) of
# frag (block bitmaps 256 groups ahead, the directories before naming the
# worst files) and of owner of more than 8 files' blocks (the directories
# the walk of the tree reads): none for bitmaps or directories when the
# page cache already holds them (a run after a run), and all of them again
# once the image's pages are dropped (cold).  What may remain warm: the
# scan's (a group's inode table, a deep extent tree's index blocks, as it
# reaches them) and the group descriptors' (one hint before the open): not
# bitmaps, not directories.
# e2l: serial - drops its image's pages from the page cache (not on tmpfs)
. "$(dirname "$0")/../lib/testlib.sh"
export MKE2FS_CONFIG=/dev/null
for t in mke2fs debugfs dumpe2fs truncate dd fincore strace; do
	command -v $t >/dev/null 2>&1 || skip "$t not installed"
done
strace -o /dev/null true 2>/dev/null || skip "strace not usable here"
case "$(df -PT "$T" 2>/dev/null | awk 'NR == 2 { print $2 }')" in
tmpfs|ramfs|"") skip "$T is not on a disk: its page cache cannot go cold" ;;
esac
img=$T/a.img
truncate -s 75G "$img" || skip "no sparse 75 GiB file here"
# 600 groups of 32768 blocks (more than two batches of 256), 16 to a flex
# group; groups up to 300 and on written (as in t_bitmap_readahead.sh)
mke2fs -q -F -b 4096 -O extent,64bit,flex_bg,metadata_csum,sparse_super \
	-G 16 -E lazy_itable_init=1 "$img" >/dev/null 2>&1 || fail "mke2fs"
{
	echo "write /dev/null g"
	echo "fallocate /g 0 9830400"
	for d in 1 2 3 4 5 6 7 8 9 10 11 12; do
		echo "mkdir d$d"
		echo "cd /d$d"
		for f in a b; do
			echo "write /dev/null $f"
			echo "fallocate $f 0 3"
		done
		echo "cd /"
	done
} | debugfs -w -f - "$img" >/dev/null 2>&1 || fail "debugfs"
# 24 files' first blocks; the directories' blocks
blks=""
for d in 1 2 3 4 5 6 7 8 9 10 11 12; do
	for f in a b; do
		b=$(debugfs -R "bmap /d$d/$f 0" "$img" 2>/dev/null)
		b=${b%% *}	# "N (uninit)": fallocated
		case "$b" in ''|*[!0-9]*) fail "no block for /d$d/$f" ;; esac
		blks="$blks $b"
	done
done > "$T/kinds"
for d in / /lost+found /d1 /d2 /d3 /d4 /d5 /d6 /d7 /d8 /d9 /d10 /d11 /d12; do
	debugfs -R "blocks $d" "$img" 2>/dev/null | tr ' ' '\n' |
		grep . | sed 's/$/ dir/'
done >> "$T/kinds"
dumpe2fs "$img" 2>/dev/null | awk '
	/Group descriptors at/ && !gd { gd = 1; s = $0
		sub(/.*Group descriptors at /, "", s); sub(/[^0-9-].*/, "", s)
		split(s, r, "-"); for (b = r[1]; b <= r[2]; b++) print b, "gdt" }
	/Block bitmap at/ { s = $0; sub(/.*Block bitmap at /, "", s)
		sub(/ .*/, "", s); print s, "bitmap" }
	/Inode bitmap at/ { s = $0; sub(/.*Inode bitmap at /, "", s)
		sub(/ .*/, "", s); print s, "bitmap" }
	/Inode table at/ { s = $0; sub(/.*Inode table at /, "", s)
		sub(/ .*/, "", s); print s, "itable" }' >> "$T/kinds"
# /g's extent tree blocks (the scan asks for a deep tree's blocks)
debugfs -R "stat /g" "$img" 2>/dev/null | grep -o "(ETB[0-9]*):[0-9]*" |
	sed 's/.*://; s/$/ tree/' >> "$T/kinds"
grep -q " dir$" "$T/kinds" || fail "no directory block found"
grep -q " tree$" "$T/kinds" || fail "/g has no extent tree block"
[ "$(grep -c " itable$" "$T/kinds")" = 600 ] || fail "not 600 groups"

# run NAME REQUEST [OPTION...]: the request under strace; "$T/NAME.hints"
# counts its WILLNEED hints by what they cover (bitmap, dir, itable, tree,
# gdt, other)
run() {
	rn=$1 rq=$2
	shift 2
	# LeakSanitizer cannot run under ptrace: off for the traced run only
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -o "$T/$rn.trace" -e trace=fadvise64,preadv2 "$E2LAYOUT" \
		"$@" -R "$rq" "$img" > "$T/$rn.out" 2>&1 ||
		{ tail -3 "$T/$rn.out"; fail "$rn: $rq"; }
	set -- "$rn"
	sed -n 's/.*fadvise64([0-9]*, \([0-9]*\), \([0-9]*\), POSIX_FADV_WILLNEED).*/\1 \2/p' \
		"$T/$1.trace" | awk -v bs=4096 '
		FNR == NR { n = split($1, r, "-")
			a[++k] = r[1]; e[k] = n > 1 ? r[2] : r[1]; c[k] = $2
			next }
		{ s = $1 / bs; t = ($1 + $2) / bs - 1; what = "other"
		  for (i = 1; i <= k; i++)
			if (a[i] <= t && e[i] >= s) { what = c[i]; break }
		  cnt[what]++ }
		END { for (w in cnt) print w, cnt[w] }' "$T/kinds" - > "$T/$1.hints"
}
# hints NAME KIND: how many of NAME's hints cover KIND
hints() { awk -v w="$2" '$1 == w { n = $2 } END { print n + 0 }' "$T/$1.hints"; }
# cold_run NAME REQUEST [OPTION...]: run, the image's pages dropped first
# (this file's alone); again (up to 3 times) while a sample of the
# program's finds a page back in the page cache (brought in by some other
# reader, the machine's or the kernel's own readahead): then no hint is
# the right answer, and the run tells nothing
cold_run() {
	for cr in 1 2 3; do
		page_cache_drop "$img" ||
			skip "the image's pages stay in the page cache here"
		run "$@"
		grep -q 'RWF_NOWAIT) = 1$' "$T/$1.trace" || return 0
	done
	skip "the image's pages come back into the page cache here"
}

owner="owner$blks"
# warm: each request twice, the second asks for no bitmap, no directory
for r in frag owner; do
	req=frag
	[ $r = owner ] && req=$owner
	run $r-1 "$req"
	# again while a sample finds the cache cold (another reader's drop)
	for wr in 1 2 3; do
		run $r-2 "$req"
		grep -q 'RWF_NOWAIT) = -1 EAGAIN' "$T/$r-2.trace" || break
		[ "$wr" -lt 3 ] || skip "the page cache does not stay warm here"
	done
	cmp -s "$T/$r-1.out" "$T/$r-2.out" || fail "$r: two runs differ"
	[ "$(hints $r-2 bitmap)" = 0 ] ||
		check "$r warm: $(hints $r-2 bitmap) bitmap hint(s)"
	[ "$(hints $r-2 dir)" = 0 ] ||
		check "$r warm: $(hints $r-2 dir) directory hint(s)"
	[ "$(hints $r-2 other)" = 0 ] ||
		check "$r warm: $(hints $r-2 other) other hint(s)"
	[ "$(hints $r-2 gdt)" -le 1 ] ||
		check "$r warm: $(hints $r-2 gdt) descriptor hint(s)"
done
grep -q "^$(echo "$blks" | awk '{ print $1 }'): .*inode" "$T/owner-2.out" ||
	fail "owner did not name a file: $(head -2 "$T/owner-2.out")"
# cold: the hints are all there again, and the answers the same
for r in frag owner; do
	req=frag
	[ $r = owner ] && req=$owner
	cold_run $r-cold "$req"
	cmp -s "$T/$r-1.out" "$T/$r-cold.out" || fail "$r: cold run differs"
	[ "$(hints $r-cold dir)" -gt 0 ] ||
		check "$r cold: no directory hint"
done
# frag's bitmaps: one hint per flex group's bitmaps in each batch
[ "$(hints frag-cold bitmap)" -gt 1 ] ||
	check "frag cold: $(hints frag-cold bitmap) bitmap hint(s)"
# a load of the whole bitmap asks for it cold, and not under direct I/O
# (its reads skip the page cache the hints fill)
cold_run testb-cold "testb 100"
[ "$(hints testb-cold bitmap)" -gt 1 ] ||
	check "testb cold: $(hints testb-cold bitmap) bitmap hint(s)"
cold_run testb-direct "testb 100" -D
cmp -s "$T/testb-cold.out" "$T/testb-direct.out" ||
	fail "testb -D: $(cat "$T/testb-direct.out")"
[ "$(hints testb-direct bitmap)" = 0 ] ||
	check "testb -D: $(hints testb-direct bitmap) bitmap hint(s)"
checks_done
echo "ok: warm runs ask for no bitmap or directory, cold ones do"

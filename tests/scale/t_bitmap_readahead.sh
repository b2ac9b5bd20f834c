#!/bin/sh
# t_bitmap_readahead.sh - frag's free-space histogram, read from the block
# bitmaps a group at a time, asks the kernel for the bitmaps ahead of its
# reads (strace): every bitmap block it reads was asked for first through
# a descriptor of its own, adjacent bitmaps (flex_bg) in one call, and
# BLOCK_UNINIT groups' bitmaps neither asked for nor read, on a cold cache
# (the image's pages dropped first).  The output is the same as without
# strace.
. "$(dirname "$0")/../lib/testlib.sh"
export MKE2FS_CONFIG=/dev/null
for t in mke2fs debugfs dumpe2fs truncate; do
	command -v $t >/dev/null 2>&1 || skip "$t not installed"
done
img=$T/a.img
truncate -s 75G "$img" || skip "no sparse 75 GiB file here"
# 600 groups of 32768 blocks (more than one batch of 256 asked for ahead),
# bitmaps packed 16 to a flex group
mke2fs -q -F -b 4096 -O extent,64bit,flex_bg,metadata_csum,sparse_super \
	-G 16 -E lazy_itable_init=1 "$img" \
	>/dev/null 2>&1 || fail "mke2fs"
# the first 40 or so groups written (not BLOCK_UNINIT), and 20 from group
# 300 on (the second batch): files over them
debugfs -w -f - "$img" >/dev/null 2>&1 <<EOS || fail "debugfs"
write /dev/null f
fallocate /f 0 1300000
write /dev/null g
fallocate /g 0 9830400
EOS
"$E2LAYOUT" -R frag "$img" > "$T/out" 2>&1 || { cat "$T/out"; fail "frag"; }
command -v strace >/dev/null 2>&1 || skip "strace not installed"
strace -o /dev/null true 2>/dev/null || skip "strace not usable here"
# cold: the image's pages dropped (a warm cache gets no hint: its sample
# of each batch, a read that would not wait, finds the last bitmap there);
# again (up to 3 times) while a sample finds a page back in the cache
for try in 1 2 3; do
	# on tmpfs: not dropped, and the sample cannot tell (hints sent)
	page_cache_drop "$img" || [ $? = 2 ] ||
		skip "the image's pages stay in the page cache here"
	# LeakSanitizer cannot run under ptrace: off for the traced run only
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -o "$T/trace" -e trace=openat,pread64,preadv2,fadvise64 \
		"$E2LAYOUT" -R frag "$img" > "$T/out2" 2>&1 ||
		fail "frag under strace"
	grep -q 'RWF_NOWAIT) = 1$' "$T/trace" || break
	[ "$try" -lt 3 ] ||
		skip "the image's pages come back into the page cache here"
done
cmp -s "$T/out" "$T/out2" || fail "the output differs under strace"
# the block bitmaps that are read from the disk, and the uninit ones
dumpe2fs "$img" 2>/dev/null | awk '
	/^Group [0-9]+:/ { u = ($0 ~ /BLOCK_UNINIT/) }
	/Block bitmap at/ { sub(/.*Block bitmap at /, ""); sub(/ .*/, "");
			    print $0, u }' > "$T/bitmaps"
[ "$(wc -l < "$T/bitmaps")" = 600 ] || fail "not 600 groups"
# an initialised group's bitmap in the second batch of 256
awk 'NR > 300 && $2 == 0 { f = 1 } END { exit !f }' "$T/bitmaps" ||
	fail "no initialised group past group 300"
grep -q " 1$" "$T/bitmaps" || fail "no BLOCK_UNINIT group to test"
grep -q " 0$" "$T/bitmaps" || fail "no initialised group to test"
# the trace as "A fd off len" (asked for) and "R fd off len" (read)
sed -n -e 's/^fadvise64(\([0-9]*\), \([0-9]*\), \([0-9]*\), POSIX_FADV_WILLNEED).*/A \1 \2 \3/p' \
	-e 's/^pread64(\([0-9]*\), .*, \([0-9]*\), \([0-9]*\)) = [0-9]*$/R \1 \3 \2/p' \
	"$T/trace" > "$T/io"
awk -v bs=4096 '
	FNR == NR { bm[$1] = 1; un[$1] = $2; next }
	{ f = $2; off = $3 / bs; len = $4 / bs }
	!(off in bm) { next }
	$1 == "A" {
		calls++
		if (len > 1) multi = 1
		for (b = off; b < off + len; b++) {
			if (un[b]) { print "asked for an uninit bitmap", b; bad = 1 }
			asked[b] = f
		}
		next
	}
	$1 == "R" && len == 1 {
		reads++
		if (un[off]) { print "read an uninit bitmap", off; bad = 1 }
		if (!(off in asked)) { print "read before asked", off; bad = 1 }
		else if (asked[off] == f) { print "asked through the reading fd", off; bad = 1 }
	}
	END {
		if (!reads) { print "no bitmap read"; bad = 1 }
		if (!multi) { print "no call covered adjacent bitmaps"; bad = 1 }
		if (calls >= reads) { print calls " calls for " reads " reads"; bad = 1 }
		exit bad
	}' "$T/bitmaps" "$T/io" > "$T/why" ||
	{ head -20 "$T/why"; fail "bitmaps not asked for ahead of their reads"; }
echo "ok: bitmaps asked for ahead, in runs, uninit ones skipped, same output"

#!/bin/sh
# t_e2image_readahead.sh - an e2image file (-i) of a filesystem of 64
# groups and more gets no readahead hint (posix_fadvise WILLNEED, strace)
# when a request loads its bitmaps: its blocks do not lie at block x block
# size, so a hint there asks for the wrong bytes (or past its end).
. "$(dirname "$0")/../lib/testlib.sh"
export MKE2FS_CONFIG=/dev/null
for t in mke2fs e2image truncate strace; do
	command -v $t >/dev/null 2>&1 || skip "$t not installed"
done
strace -o /dev/null true 2>/dev/null || skip "strace not usable here"
img=$T/a.img
truncate -s 512M "$img" || fail "truncate"
# 64 groups of 2048 blocks, bitmaps 16 to a flex group: the last ones lie
# far past the end of the e2image file
mke2fs -q -F -b 4096 -g 2048 -N 4096 -G 16 \
	-O extent,64bit,flex_bg,metadata_csum,sparse_super,^resize_inode \
	"$img" >/dev/null 2>&1 || fail "mke2fs"
e2image "$img" "$T/a.e2i" 2>/dev/null || fail "e2image"
"$E2LAYOUT" -R groups "$img" 2>/dev/null | grep -c '^ *[0-9]' > "$T/n"
[ "$(cat "$T/n")" -ge 64 ] || fail "$(cat "$T/n") groups, not 64"
# stats, and requests that load the block or the inode bitmap
for r in stats "testb 100" "testi <11>" freefrag; do
	"$E2LAYOUT" -i -R "$r" "$T/a.e2i" > "$T/want" 2>&1 ||
		fail "-i -R $r: $(head -3 "$T/want")"
	# LeakSanitizer cannot run under ptrace: off for the traced run only
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -o "$T/trace" -e trace=fadvise64 "$E2LAYOUT" -i \
		-R "$r" "$T/a.e2i" > "$T/got" 2>&1 || fail "$r under strace"
	cmp -s "$T/want" "$T/got" || fail "$r: the output differs under strace"
	n=$(grep -c 'fadvise64(' "$T/trace")
	[ "$n" = 0 ] || {
		grep 'fadvise64(' "$T/trace" | head -3
		check "-i -R $r: $n fadvise64 call(s)"
	}
done
checks_done
echo "ok: no readahead hint on an e2image file"

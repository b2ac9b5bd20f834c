#!/bin/sh
# t_itable_readahead.sh - the inode scan asks the kernel for the inode
# tables ahead of its reads (strace) by bytes, not only by groups: on 600
# groups of 32 inodes (8 KiB of table each, packed 16 to a flex group),
# every table it reads was asked for first through a descriptor of its
# own, adjacent tables in one call (a call a flex group, not a group), and
# before its second table is read most of the 600 are asked for (the old
# 16 groups ahead kept a cold disk waiting on each small read).
. "$(dirname "$0")/../lib/testlib.sh"
export MKE2FS_CONFIG=/dev/null
for t in mke2fs dumpe2fs truncate; do
	command -v $t >/dev/null 2>&1 || skip "$t not installed"
done
command -v strace >/dev/null 2>&1 || skip "strace not installed"
strace -o /dev/null true 2>/dev/null || skip "strace not usable here"
img=$T/a.img
truncate -s 75G "$img" || skip "no sparse 75 GiB file here"
# no group checksums: every table is in use (the scan reads all of them)
mke2fs -q -F -b 4096 -I 256 -N 19200 -G 16 \
	-O extent,flex_bg,64bit,filetype,sparse_super,^uninit_bg,^metadata_csum \
	"$img" >/dev/null 2>&1 || fail "mke2fs"
dumpe2fs "$img" 2>/dev/null |
	sed -n 's/^  Inode table at \([0-9]*\)-\([0-9]*\).*/\1 \2/p' > "$T/tables"
[ "$(wc -l < "$T/tables")" = 600 ] || fail "not 600 inode tables"
"$E2LAYOUT" -R frag "$img" > "$T/out" 2>&1 || { cat "$T/out"; fail "frag"; }
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -o "$T/trace" -e trace=pread64,fadvise64 \
	"$E2LAYOUT" -R frag "$img" > "$T/out2" 2>&1 || fail "frag under strace"
cmp -s "$T/out" "$T/out2" || fail "the output differs under strace"
sed -n -e 's/^fadvise64(\([0-9]*\), \([0-9]*\), \([0-9]*\), POSIX_FADV_WILLNEED).*/A \1 \2 \3/p' \
	-e 's/^pread64(\([0-9]*\), .*, \([0-9]*\), \([0-9]*\)) = [0-9]*$/R \1 \3 \2/p' \
	"$T/trace" > "$T/io"
awk -v bs=4096 '
	FNR == NR { for (b = $1; b <= $2; b++) grp[b] = FNR - 1; next }
	{ f = $2; off = $3 / bs; len = $4 / bs }
	$1 == "A" {
		hit = 0
		for (b = off; b < off + len; b++)
			if (b in grp) {
				hit = 1; asked[b] = f
				if (!(grp[b] in g_asked)) { g_asked[grp[b]]; ng++ }
			}
		calls += hit
		next
	}
	$1 == "R" && (off in grp) {
		reads++
		if (grp[off] > 0 && !second) { second = 1; ahead = ng }
		# group 0 first block: read at the open (the root, the
		# journal inode), before any scan
		for (b = off; b < off + len; b++) {
			if (grp[b] == 0 && !(b in asked)) continue
			if (!(b in asked)) { print "read before asked", b; bad = 1 }
			else if (asked[b] == f) { print "asked through the reading fd", b; bad = 1 }
		}
	}
	END {
		if (reads < 600) { print reads " table reads, not 600"; bad = 1 }
		if (calls > 600 / 8) { print calls " calls for 600 tables"; bad = 1 }
		if (ahead < 500) { print ahead " groups asked before the second table read"; bad = 1 }
		exit bad
	}' "$T/tables" "$T/io" > "$T/why" ||
	{ head -20 "$T/why"; fail "inode tables not asked for ahead"; }

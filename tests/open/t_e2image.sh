#!/bin/sh
# t_e2image.sh - e2image normal-format dumps (made here by the real e2image)
# of the test images, 1 KiB and 4 KiB blocks, flex_bg, bigalloc, meta_bg,
# quota: every read request of the compat harness's request files gives
# output byte-identical to debugfs -i; e2layout's own views (groups,
# journal, map, owner) read the descriptors right and say which blocks the
# image does not hold, instead of showing their content.
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
command -v e2image >/dev/null 2>&1 || skip "e2image is not installed"
case "$(debugfs -V 2>&1 | head -1)" in
*" 1.47.0 "*) ;;
*) skip "the oracle must be debugfs 1.47.0" ;;
esac
req=$(dirname "$0")/../compat/requests
TZ=GMT; export TZ
# the read requests, less those that open, close, write or quit
grep -h -v '^#' "$req"/inode.req "$req"/dirs.req "$req"/freefrag.req \
	"$req"/htree.req "$req"/dfs_ro.req | grep -v '^[[:space:]]*$' |
	grep -Ev '^(quit|q|mi|modify_inode|open|close|close_filesys|init_filesys|set_mmp_value|smmp|eo|dump_unused)( |$)' \
	> "$T/reqs"
[ "$(wc -l < "$T/reqs")" -gt 100 ] || fail "too few requests in $req"

for n in ext2-1k ext4 bigalloc metabg dfs1k; do
	img=$E2L_IMAGES/$n.img
	[ -f "$img" ] || fail "no test image $img"
	e2image "$img" "$T/$n.e2i" 2>/dev/null || fail "e2image $n"
	debugfs -i -f "$T/reqs" "$T/$n.e2i" 2>&1 |
		sed '1{/^debugfs [0-9.]* (.*)$/d;}' > "$T/$n.d"
	"$E2LAYOUT" -i -f "$T/reqs" "$T/$n.e2i" > "$T/$n.e" 2>&1
	[ $? -lt 98 ] || fail "$n: crashed (sanitizer) on the e2image file"
	cmp -s "$T/$n.d" "$T/$n.e" || {
		diff "$T/$n.d" "$T/$n.e" | head -20
		fail "$n: output differs from debugfs -i"
	}
	# the descriptors, as debugfs -i reads them, on every group
	debugfs -i -R stats "$T/$n.e2i" 2>/dev/null |
		sed -n 's/^ Group *\([0-9]*\): block bitmap at \([0-9]*\).*/\1 \2/p' \
		> "$T/bb.d"
	"$E2LAYOUT" -i --json -R groups "$T/$n.e2i" > "$T/g.json" ||
		fail "$n: groups failed on the e2image file"
	jq -r '.result.groups[] | "\(.[0]) \(.[8])"' "$T/g.json" \
		> "$T/bb.e" 2>/dev/null || fail "$n: groups --json unreadable"
	[ -s "$T/bb.d" ] && cmp -s "$T/bb.d" "$T/bb.e" ||
		fail "$n: groups' block bitmaps differ from debugfs -i's"
	"$E2LAYOUT" -i -R journal "$T/$n.e2i" > "$T/j.out" 2>&1 ||
		fail "$n: journal failed on the e2image file: $(cat "$T/j.out")"
	if [ "$n" != ext2-1k ]; then
		grep -q "not in this e2image file" "$T/j.out" ||
			fail "$n: journal does not say its superblock is not held"
	fi
	"$E2LAYOUT" -i -R map "$T/$n.e2i" > "$T/m.out" 2>&1 ||
		fail "$n: map failed"
	grep -q "content is not in it" "$T/m.out" ||
		fail "$n: map does not say the image holds no data"
	# ext2-1k's big files map through indirect blocks, not in the image
	if [ "$n" = ext2-1k ]; then
		grep -q "inode(s) keep their block map in blocks it does not hold" "$T/m.out" ||
			fail "ext2-1k: map does not say which maps are absent"
	fi
done

# owner: a file block is placed from its inode (in the image) and said to
# be absent; a bitmap block is held.  ext4's /home/user/blob has its
# extents in the inode.
img=$E2L_IMAGES/ext4.img
b=$(debugfs -R "bmap /home/user/blob 10" "$img" 2>/dev/null)
bb=$(debugfs -R "stats" "$img" 2>/dev/null |
	sed -n 's/^ Group  0: block bitmap at \([0-9]*\).*/\1/p')
"$E2LAYOUT" -i -R "owner $b $bb" "$T/ext4.e2i" > "$T/o.out" 2>&1 ||
	fail "owner failed: $(cat "$T/o.out")"
ino=$(debugfs -R "stat /home/user/blob" "$img" 2>/dev/null |
	sed -n 's/^Inode: \([0-9]*\).*/\1/p')
grep -q "^$b: file data, group 0, inode $ino, logical block 10 (its content is not in this e2image file)$" "$T/o.out" ||
	fail "owner of a data block: $(cat "$T/o.out")"
grep -q "^$bb: block bitmap, group 0$" "$T/o.out" ||
	fail "owner of a bitmap block: $(cat "$T/o.out")"

# -d: the data source makes the image whole again: reads equal those of
# the original image, file contents come back, nothing is said absent.
# (debugfs 1.47.0 reads its data source in 1 KiB blocks, so on 4 KiB
# blocks every data block it reads is the wrong one; its personality keeps
# that, e2layout's own does not.)
printf 'cat /etc/conf7\nstat /home/user/blob\nls -l /etc\nncheck 12 13\n' > "$T/dreq"
"$E2LAYOUT" -f "$T/dreq" "$img" > "$T/dd" 2>&1
"$E2LAYOUT" -i -d "$img" -f "$T/dreq" "$T/ext4.e2i" > "$T/de" 2>&1
cmp -s "$T/dd" "$T/de" || { diff "$T/dd" "$T/de" | head; fail "-d differs"; }
grep -q "^file 7$" "$T/de" || fail "-d: the file's content did not come back"
debugfs -i -d "$img" -f "$T/dreq" "$T/ext4.e2i" 2>&1 |
	sed '1{/^debugfs [0-9.]* (.*)$/d;}' > "$T/dd"
"$E2LAYOUT" --debugfs -i -d "$img" -f "$T/dreq" "$T/ext4.e2i" 2>&1 |
	sed '1{/^debugfs [0-9.]* (.*)$/d;}' > "$T/de"
cmp -s "$T/dd" "$T/de" || fail "--debugfs -i -d differs from debugfs"
"$E2LAYOUT" -i -d "$img" -R "owner $b" "$T/ext4.e2i" > "$T/o2" 2>&1
grep -q "^$b: file data, group 0, inode $ino (/home/user/blob), logical block 10$" "$T/o2" ||
	fail "owner with -d: $(cat "$T/o2")"
"$E2LAYOUT" -i -d "$img" -R map "$T/ext4.e2i" | grep -q "content is not in it" &&
	fail "map with -d says the content is absent"

# -d naming another filesystem (a mistyped data source): refused, naming
# both UUIDs, instead of showing that filesystem's blocks as this one's
# (the test images share one UUID: another is made here)
mke2fs -q -F -t ext4 "$T/other.img" 8M >/dev/null 2>&1 || fail "mke2fs other"
"$E2LAYOUT" -i -d "$T/other.img" -R "cat /etc/conf7" "$T/ext4.e2i" \
	> "$T/dw" 2>&1 && fail "-d with another filesystem was taken"
u1=$(dumpe2fs -h "$T/other.img" 2>/dev/null | sed -n 's/^Filesystem UUID: *//p')
u2=$(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Filesystem UUID: *//p')
grep -q "is not this filesystem's data source: its superblock has UUID $u1, the e2image file's is $u2" "$T/dw" ||
	fail "-d with another filesystem: $(cat "$T/dw")"

# -i on what is not an e2image file says what it is; --partition does
# not apply to one
"$E2LAYOUT" -i -R stats "$img" > "$T/ni" 2>&1 && fail "-i on an image opened"
grep -q "this is an ext2/3/4 filesystem image, not an e2image file: open it without -i" "$T/ni" ||
	fail "-i on a filesystem image: $(cat "$T/ni")"
e2image -Q "$img" "$T/ext4.qcow2" 2>/dev/null || fail "e2image -Q"
"$E2LAYOUT" -i -R stats "$T/ext4.qcow2" > "$T/ni" 2>&1 && fail "-i on a qcow2 opened"
grep -q "this is a qcow2 image (e2image -Q), not an e2image file: open it without -i" "$T/ni" ||
	fail "-i on a qcow2 image: $(cat "$T/ni")"
"$E2LAYOUT" -i --partition 1 -R stats "$T/ext4.e2i" > "$T/ni" 2>&1 &&
	fail "-i with --partition opened"
grep -q -- "--partition does not apply to an e2image file" "$T/ni" ||
	fail "-i --partition: $(cat "$T/ni")"

# a raw dump (e2image -r) is an ordinary sparse image: metadata reads equal
e2image -r "$img" "$T/ext4.raw" 2>/dev/null || fail "e2image -r"
for r in stats "ls -l /etc" "stat /home/user/blob" groups journal; do
	"$E2LAYOUT" -R "$r" "$img" > "$T/want" 2>&1
	"$E2LAYOUT" -R "$r" "$T/ext4.raw" > "$T/got" 2>&1 ||
		fail "raw dump: $r failed"
	cmp -s "$T/want" "$T/got" || fail "raw dump: $r differs"
done
exit 0

#!/bin/sh
# t_journal_replay.sh - transactions written by e2layout's journal_write are
# replayed by the real e2fsck (-E journal_only) as intended: the logged
# blocks land with their contents (also a block that begins with the jbd2
# magic, escaped in the log), a revoked block keeps its old contents, for
# 32- and 64-bit tags and checksums none, v1, v2 and v3; the filesystem is
# clean afterwards, and the three blocks hold what they hold after the same
# requests through debugfs and the same recovery.  (With v1 checksums
# debugfs's commit crc32 covers the revoke block, which jbd2 recovery does
# not count, so that transaction fails its checksum and the revoke is not
# applied: the same for both.)
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
. "$(dirname "$0")/../lib/testlib.sh"
command -v e2fsck >/dev/null || skip "no e2fsck"
t=$T

blk() {	# IMG BLOCK BS -> md5 of that block
	dd if="$1" bs="$3" skip="$2" count=1 2>/dev/null | md5sum | cut -c1-32
}

n=0
for case in "ext4:" "ext4:-c" "ext4:-c -v 2" "ext3:" "ext3:-c"; do
	img=${case%%:*}; opt=${case#*:}
	cp "$E2L_IMAGES/$img.img" "$t/fs.img"
	bs=$(dumpe2fs -h "$t/fs.img" 2>/dev/null | sed -n 's/^Block size: *//p')
	set -- $(debugfs -R "ffb 3 2000" "$t/fs.img" 2>/dev/null |
		sed -n 's/^Free blocks found: //p')
	[ $# -eq 3 ] || fail "$img: no three free blocks"
	b1=$1; b2=$2; b3=$3
	# three blocks of data, the second one beginning with the jbd2 magic
	{ head -c "$bs" /dev/urandom; printf '\300\073\071\230'
	  head -c $((bs * 2 - 4)) /dev/urandom; } > "$t/data"
	old2=$(blk "$t/fs.img" "$b2" "$bs")
	printf 'jo %s\njw -b %s,%s,%s %s\njw -r %s\njc\n' "$opt" \
		"$b1" "$b2" "$b3" "$t/data" "$b3" > "$t/script"
	cp "$t/fs.img" "$t/d.img"
	debugfs -w -f "$t/script" "$t/d.img" >/dev/null 2>&1
	e2fsck -E journal_only -y "$t/d.img" >/dev/null 2>&1
	"$E2LAYOUT" -w -f "$t/script" "$t/fs.img" > "$t/out" 2>&1 ||
		{ cat "$t/out"; fail "$img $opt: e2layout"; }
	dumpe2fs -h "$t/fs.img" 2>/dev/null | grep -q '^Filesystem features:.*needs_recovery' ||
		fail "$img $opt: needs_recovery not set"
	e2fsck -E journal_only -y "$t/fs.img" > "$t/fsck" 2>&1
	grep -q "recovering journal" "$t/fsck" || { cat "$t/fsck"; fail "$img $opt: no recovery"; }
	e2fsck -fn "$t/fs.img" > "$t/fsck" 2>&1 || { cat "$t/fsck"; fail "$img $opt: not clean"; }
	n=$((n + 1))
	want1=$(dd if="$t/data" bs="$bs" count=1 2>/dev/null | md5sum | cut -c1-32)
	want2=$(dd if="$t/data" bs="$bs" skip=1 count=1 2>/dev/null | md5sum | cut -c1-32)
	[ "$(blk "$t/fs.img" "$b1" "$bs")" = "$want1" ] || fail "$img $opt: block $b1 not replayed"
	[ "$(blk "$t/fs.img" "$b2" "$bs")" = "$want2" ] || fail "$img $opt: block $b2 (escaped) not replayed"
	for b in "$b1" "$b2" "$b3"; do
		[ "$(blk "$t/fs.img" "$b" "$bs")" = "$(blk "$t/d.img" "$b" "$bs")" ] ||
			fail "$img $opt: block $b differs from debugfs's replay"
	done
	case $opt in *-c*) [ "$img" = ext3 ] && continue ;; esac	# v1: see above
	[ "$(blk "$t/fs.img" "$b3" "$bs")" != "$(dd if="$t/data" bs="$bs" skip=2 count=1 2>/dev/null | md5sum | cut -c1-32)" ] ||
		fail "$img $opt: revoked block $b3 was replayed"
	[ "$old2" != "$want2" ] || fail "$img $opt: test data equals the old block"
done
echo "ok: $n journals replayed by e2fsck as written"

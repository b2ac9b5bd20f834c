#!/bin/sh
# t_demo.sh - `e2layout mkdemo`: the image is clean for e2fsck, laid out as
# mke2fs -G 512 would, its journal and some files are fragmented, the same
# seed gives the same bytes, and the files hold what help/cmd/mkdemo.txt
# promises (rebuilt here with awk, independently of the C generator).
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
. "$(dirname "$0")/../lib/testlib.sh"
tmp=$T

# The shared demo image must exist once mkdemo is in.
[ -f "$E2L_IMAGES/demo.img" ] || check "$E2L_IMAGES/demo.img is missing"

img=$tmp/a.img
"$E2LAYOUT" mkdemo --seed 1 "$img" > "$tmp/out" 2> "$tmp/err" ||
	{ cat "$tmp/out" "$tmp/err"; echo "FAIL: mkdemo failed"; exit 1; }
grep -q "^mkdemo: wrote $img: .*journal in [0-9]* extents" "$tmp/out" ||
	check "unexpected closing line: $(cat "$tmp/out")"
[ -s "$tmp/err" ] && check "mkdemo wrote to stderr: $(cat "$tmp/err")"
[ "$(stat -c %s "$img")" -eq 1073741824 ] || check "image is not 1 GiB"
used=$(du -k "$img" | cut -f1)
[ "$used" -lt 200000 ] || check "image is not sparse ($used KiB used)"

e2fsck -fn "$img" > "$tmp/fsck" 2>&1 || { cat "$tmp/fsck"; check "e2fsck -fn"; }

# The journal: >= 8 extents on debugfs's EXTENTS line, as mkdemo reported.
debugfs -R "stat <8>" "$img" 2>/dev/null > "$tmp/j"
jext=$(sed -n '/^EXTENTS:/{n;p;}' "$tmp/j" | tr ',' '\n' | grep -c '^ *([0-9]')
[ "$jext" -ge 8 ] || check "journal has $jext extents, want >= 8"
grep -q "journal in $jext extents" "$tmp/out" ||
	check "mkdemo said $(cat "$tmp/out"), debugfs counts $jext"

# mke2fs -t ext4 -G 512's superblock.
dumpe2fs -h "$img" 2>/dev/null > "$tmp/sb"
grep -q '^Flex block group size: *512$' "$tmp/sb" || check "flex size not 512"
for f in has_journal ext_attr resize_inode dir_index filetype extent 64bit \
	 flex_bg sparse_super large_file huge_file dir_nlink extra_isize \
	 metadata_csum; do
	grep '^Filesystem features:' "$tmp/sb" | grep -qw "$f" ||
		check "feature $f missing"
done
grep -q '^Block size: *4096$' "$tmp/sb" || check "block size not 4096"
grep -q '^Inode size:.*256$' "$tmp/sb" || check "inode size not 256"

# Sizes (from help/cmd/mkdemo.txt).
sizes="/etc/hostname=17 /etc/motd=0 /etc/fstab=310 /etc/passwd=1210
/etc/ssh/sshd_config=3300 /usr/share/doc/README=40000
/var/log/syslog=3146962 /var/log/auth.log=1048653 /var/log/dmesg=90000
/home/alice/notes.txt=2500 /home/alice/photos/img_0001.jpg=350000
/home/alice/photos/img_0002.jpg=1228805 /home/alice/archive.tar=25165824
/home/bob/.profile=800 /srv/db/table-a.db=2097152 /srv/db/table-b.db=2097152
/srv/db/table-c.db=1572864 /srv/db/table-d.db=1048576 /srv/db/big.db=8388608
/srv/db/sparse.idx=81936384"
for e in $sizes; do
	p=${e%=*}; want=${e#*=}
	got=$(debugfs -R "stat $p" "$img" 2>/dev/null |
	      sed -n 's/.*Size: \([0-9]*\)$/\1/p' | head -1)
	[ "$got" = "$want" ] || check "$p: size '$got', want $want"
done

# Contents: the line stream, rebuilt with awk, compared byte for byte.
gen() {	# gen SEED PATH SIZE
	awk -v t="e2layout-demo seed=$1 $2" -v n=$(($3 / 20 + 1)) \
	    'BEGIN { for (i = 0; i < n; i++) printf "%s %010d\n", t, i }' |
		head -c "$3"
}
check_content() {	# check_content IMG SEED PATH SIZE
	rm -f "$tmp/dump"
	debugfs -R "dump $3 $tmp/dump" "$1" 2>/dev/null
	gen "$2" "$3" "$4" > "$tmp/want"
	cmp -s "$tmp/dump" "$tmp/want" ||
		check "$3 (seed $2): content differs from the generator's rule"
	[ "$(cksum < "$tmp/dump")" = "$(cksum < "$tmp/want")" ] ||
		check "$3 (seed $2): checksum differs"
}
check_content "$img" 1 /etc/passwd 1210
check_content "$img" 1 /etc/hostname 17
check_content "$img" 1 /var/log/auth.log 1048653
check_content "$img" 1 /srv/db/table-b.db 2097152
check_content "$img" 1 /home/alice/photos/img_0002.jpg 1228805

# Fragmented files: many leaf extents in `debugfs ex`.
leaves() {
	debugfs -R "ex $1" "$img" 2>/dev/null |
		awk 'NR > 1 { l = $1; sub("/", "", l); if (l == $2) n++ }
		     END { print n + 0 }'
}
for p in /var/log/syslog /var/log/auth.log /srv/db/table-a.db \
	 /srv/db/table-b.db /srv/db/table-c.db; do
	n=$(leaves "$p")
	[ "$n" -ge 8 ] || check "$p has $n extents, want many"
done
n=$(leaves /var/cache/wedged.bin)	# one per filler kept between journal runs
[ "$n" -ge 4 ] || check "/var/cache/wedged.bin has $n extents, want >= 4"
n=$(leaves /srv/db/table-a.db)
[ "$n" -ge 20 ] || check "/srv/db/table-a.db has only $n extents"
n=$(leaves /srv/db/sparse.idx)
[ "$n" -eq 4 ] || check "/srv/db/sparse.idx has $n extents, want 4"
debugfs -R "stat /home/alice/todo" "$img" 2>/dev/null |
	grep -q 'Fast link dest: "notes.txt"' || check "symlink todo"

# Determinism: same seed, same bytes (a second apart); other seed differs.
sleep 1
"$E2LAYOUT" mkdemo --seed 1 "$tmp/b.img" > "$tmp/out2" 2>&1 ||
	check "second mkdemo failed"
cmp -s "$img" "$tmp/b.img" || check "seed 1 twice gave different images"
# Another seed over the same path: replaced with --force only (and said
# so), and different.
"$E2LAYOUT" mkdemo --seed 2 --force "$tmp/b.img" > "$tmp/out3" 2>&1 ||
	check "mkdemo --seed 2 --force failed"
grep -q "replaced the existing file" "$tmp/out3" || check "no overwrite notice"
cmp -s "$img" "$tmp/b.img" && check "seeds 1 and 2 gave the same image"
e2fsck -fn "$tmp/b.img" > "$tmp/fsck" 2>&1 || check "e2fsck -fn on seed 2"
check_content "$tmp/b.img" 2 /etc/passwd 1210
rm -f "$img" "$tmp/b.img"

# Errors: a clear message and a non-zero status.
"$E2LAYOUT" mkdemo "$tmp" > "$tmp/o" 2>&1 && check "mkdemo on a directory"
grep -q "not a regular file" "$tmp/o" || check "no message for a directory"
"$E2LAYOUT" mkdemo "$tmp/no/such/dir.img" > "$tmp/o" 2>&1 &&
	check "mkdemo into a missing directory"
grep -q "No such file or directory" "$tmp/o" || check "no message: $(cat "$tmp/o")"
"$E2LAYOUT" mkdemo --seed x "$tmp/x.img" > /dev/null 2>&1
[ $? -eq 2 ] || check "bad seed is not a usage error"

checks_done
echo "mkdemo ok: journal in $jext extents"

#!/bin/sh
# t_long_names.sh - directory entry names: 255 bytes are accepted and 256
# refused, before libext2fs sees them, by every request that makes an entry
# (mkdir, write, symlink, link, ln, mknod, undelete, prealloc's new file).
# A refusal exits 1 with "File name too long", leaves the image byte for
# byte as it was and e2fsck -fn clean (debugfs 1.47.0, and e2layout before,
# overflowed a buffer in libext2fs: SIGSEGV, or a damaged directory).
. "$(dirname "$0")/../lib/testlib.sh"

img=$T/fs.img
n255=$(printf '%0255d' 0 | tr 0 b)
n256=$(printf '%0256d' 0 | tr 0 a)
printf 'payload\n' > "$T/src"
cp "$E2L_IMAGES/ext4.img" "$T/base.img"
# a deleted inode for undelete to bring back
debugfs -w -R "write $T/src victim" "$T/base.img" >/dev/null 2>&1
vino=$(debugfs -R "stat /victim" "$T/base.img" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
[ -n "$vino" ] || fail "no victim inode"
debugfs -w -R "rm /victim" "$T/base.img" >/dev/null 2>&1
fsck_clean "$T/base.img" || fail "the base image is not clean"

# run NAME REQUEST...: one request on a fresh copy; status in $rc
run() {
	cp "$T/base.img" "$img"
	"$E2LAYOUT" -w -R "$1" "$img" > "$T/out" 2>&1
	rc=$?
}

n=0
# (@N@ stands for the name: a plain N could be in $T's random part)
for req in "mkdir @N@" "write $T/src @N@" "symlink @N@ /etc/conf1" \
	   "link /etc/conf1 @N@" "ln /etc/conf1 @N@" "mknod @N@ p" \
	   "undelete <$vino> @N@" "prealloc /@N@ 64K"; do
	what=${req%% *}
	# 255 bytes: made, and found under that name
	run "$(echo "$req" | sed "s|@N@|$n255|")"
	[ $rc -eq 0 ] || { cat "$T/out"; fail "$what with a 255-byte name: exit $rc"; }
	debugfs -R "stat /$n255" "$img" 2>/dev/null | grep -q '^Inode:' ||
		fail "$what: no entry with the 255-byte name"
	case $what in
	link|ln) ;;	# debugfs's link leaves the link count as it was
	*) fsck_clean "$img" || { cat "$T/fsck.out"; fail "$what 255: e2fsck -fn"; } ;;
	esac
	# 256 bytes: refused, nothing changed
	run "$(echo "$req" | sed "s|@N@|$n256|")"
	[ $rc -eq 1 ] || { cat "$T/out"; fail "$what with a 256-byte name: exit $rc, not 1"; }
	grep -q "File name too long" "$T/out" || { cat "$T/out"; fail "$what 256: no 'File name too long'"; }
	grep -q "Allocated inode" "$T/out" && fail "$what 256: an inode was allocated first"
	cmp -s "$img" "$T/base.img" || fail "$what 256: the image changed"
	fsck_clean "$img" || { cat "$T/fsck.out"; fail "$what 256: e2fsck -fn not clean"; }
	n=$((n + 1))
done
echo "ok: $n requests take 255-byte names and refuse 256-byte ones"
exit 0

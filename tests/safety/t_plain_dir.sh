#!/bin/sh
# t_plain_dir.sh - only a mount point is a mount point: a directory that is
# not one is an error (exit 3) naming the mount point and the device to give
# instead, and the device below it is never opened (strace, when present).
# On a loop mount (when possible) the mount point itself still opens its
# filesystem; else the directory under test is one on the disk holding $T.
. "$(dirname "$0")/../lib/testlib.sh"
mnt=""
loop=""
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

# plain DIR MNT DEV: DIR is refused, naming MNT and DEV, DEV not opened.
plain() {
	"$E2LAYOUT" -R stats "$1" > "$T/out" 2>&1
	rc=$?
	[ $rc = 3 ] || { cat "$T/out"; fail "$1: exit $rc, not 3"; }
	grep -q "$1 is a directory but not a mount point; give the mount point $2 or the device $3" "$T/out" ||
		{ cat "$T/out"; fail "$1: the message"; }
	grep -q "Block count:" "$T/out" && fail "$1: a filesystem was opened"
	"$E2LAYOUT" -w -R stats "$1" > "$T/out" 2>&1
	[ $? = 3 ] || { cat "$T/out"; fail "$1 with -w: not exit 3"; }
	rm -f "$T/trace"
	command -v strace >/dev/null 2>&1 &&
		strace -f -o "$T/trace" -e trace=open,openat "$E2LAYOUT" \
			-R stats "$1" > /dev/null 2>&1
	# (a trace that shows the mountinfo read is usable)
	if grep -q 'open.*"/proc/self/mountinfo"' "$T/trace" 2>/dev/null; then
		grep -q "\"$3\"" "$T/trace" &&
			{ grep "\"$3\"" "$T/trace"; fail "$1: $3 was opened"; }
		echo "ok: $1: refused, $3 never opened (strace)"
	else
		echo "ok: $1: refused (strace not usable here: the message is the check)"
	fi
}

if command -v mke2fs >/dev/null 2>&1 &&
   mke2fs -q -F -t ext4 "$T/img" 8M >/dev/null 2>&1 &&
   mkdir -p "$T/mnt" && mount -o loop "$T/img" "$T/mnt" 2>/dev/null; then
	mnt=$T/mnt
	dev=$(awk -v m="$mnt" '$2 == m { print $1 }' /proc/mounts | tail -1)
	mkdir "$mnt/sub" || fail "mkdir in the mount"
	plain "$mnt/sub" "$mnt" "$dev"
	# the mount point itself opens, read-only, as before
	"$E2LAYOUT" -R stats "$mnt" > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "the mount point $mnt did not open"; }
	grep -q "Block count:" "$T/out" || { cat "$T/out"; fail "$mnt: stats"; }
	echo "ok: the mount point $mnt still opens"
else
	echo "note: no loop mount here; the directory is one on the disk of $T"
fi

mkdir "$T/x"
line=$(awk -v d="$(df -P "$T/x" | awk 'NR == 2 { print $6 }')" \
	'$2 == d { print $1, $2, $3 }' /proc/mounts | tail -1)
set -- $line
case "${3:-}" in
ext2|ext3|ext4)
	plain "$T/x" "$2" "$1" ;;
*)
	"$E2LAYOUT" -R stats "$T/x" > "$T/out" 2>&1
	[ $? = 3 ] || { cat "$T/out"; fail "$T/x: not exit 3"; }
	grep -q "on no mounted ext2/3/4 filesystem" "$T/out" ||
		{ cat "$T/out"; fail "$T/x: the message"; }
	echo "ok: $T/x (on ${3:-an unknown filesystem}): refused" ;;
esac
exit 0

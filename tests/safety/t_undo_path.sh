#!/bin/sh
# t_undo_path.sh - an undo file can never hurt: apply (--undo FILE) and -z
# refuse, before the first write and naming the undo file, the image itself
# under other names (absolute path, symbolic link, hard link, ../,
# /proc/self/fd/N), a dangling symbolic link, device nodes, an existing
# file (left as it was), a missing directory (no crash), a directory that
# is a file, a read-only directory and a filesystem without room; the image
# stays byte-identical each time.  The default name is never an existing
# file, and an applied undo file restores the image byte for byte.
. "$(dirname "$0")/../lib/testlib.sh"
mnt=
trap '[ -n "$mnt" ] && umount "$T/ro" "$T/small" 2>/dev/null; rm -rf "$T"' EXIT INT TERM

img=$T/a.img
cp "$E2L_IMAGES/ext4.img" "$img"
cp "$img" "$T/orig.img"
# an operation with something to do on the shared ext4 image
req="journal_relocate --start"

# refused UNDO [WHY]: apply --undo UNDO fails, says which undo file, and
# nothing changed.
refused() {
	"$E2LAYOUT" -w -R "$req --undo $1" "$img" > "$T/out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || { cat "$T/out"; fail "--undo $1: exit $rc, not 1"; }
	grep -qF "Unsafe undo file path $1: ${2:-}" "$T/out" ||
		{ cat "$T/out"; fail "--undo $1: the message does not name the undo file (${2:-})"; }
	cmp -s "$img" "$T/orig.img" || fail "--undo $1: the image changed"
	grep -q "applied the" "$T/out" && fail "--undo $1: applied anyway"
	return 0
}
# the same for -z at open (exit 3: nothing opened)
refused_z() {
	"$E2LAYOUT" -w -z "$1" -R stats "$img" > "$T/out" 2>&1
	rc=$?
	[ $rc -eq 3 ] || { cat "$T/out"; fail "-z $1: exit $rc, not 3"; }
	grep -qF "Unsafe undo file path $1: ${2:-}" "$T/out" ||
		{ cat "$T/out"; fail "-z $1: no message naming the undo file"; }
	cmp -s "$img" "$T/orig.img" || fail "-z $1: the image changed"
	return 0
}

cd "$T" || fail "cd $T"
refused "$img" "it is the filesystem image"
refused a.img "it is the filesystem image"
mkdir "$T/sub"
refused sub/../a.img "it is the filesystem image"
ln -s a.img "$T/link"
refused link "it is a symbolic link to the filesystem image"
ln "$img" "$T/hard"
refused hard "it is the filesystem image"
# the image open on a descriptor of the shell that runs e2layout
exec 9<"$img"
refused /proc/self/fd/9 "it is a symbolic link to the filesystem image"
exec 9<&-
ln -s "$T/nowhere" "$T/dangling"
refused dangling "it is a symbolic link to nothing"
[ -e "$T/nowhere" ] && fail "a file was created through the dangling link"
refused /dev/null "it is a character device"
if mknod "$T/node" b 7 200 2>/dev/null; then
	refused node "it is a block device"
	[ -b "$T/node" ] || fail "the device node was replaced"
fi
mkfifo "$T/fifo"
refused fifo "it is a FIFO"
printf 'keep me\n' > "$T/keep"
cp "$T/keep" "$T/keep.orig"
refused keep "a file of 8 bytes exists there"
cmp -s "$T/keep" "$T/keep.orig" || fail "the existing file changed"
refused missing/u.e2undo "its directory missing does not exist"
refused keep/u.e2undo "Not a directory"
refused sub/ "it names a directory"

refused_z "$img" "it is the filesystem image"
refused_z link "it is a symbolic link to the filesystem image"
refused_z keep "a file of 8 bytes exists there"
cmp -s "$T/keep" "$T/keep.orig" || fail "-z: the existing file changed"
refused_z missing/u.e2undo "its directory missing does not exist"

# A read-only directory and a filesystem without room for the worst case.
if [ "$(id -u)" != 0 ]; then
	mkdir "$T/rodir"; chmod 555 "$T/rodir"
	refused rodir/u.e2undo "its directory rodir is not writable"
	mounted=0
elif mkdir "$T/ro" "$T/small" &&
     mount -t tmpfs -o ro,size=1m tmpfs "$T/ro" 2>/dev/null; then
	mnt=1
	refused ro/u.e2undo "its directory ro is on a read-only filesystem"
	mounted=1
else
	echo "note: cannot mount a read-only tmpfs here; read-only case not run"
	mounted=0
fi
if [ "$mounted" = 1 ] &&
   mount -t tmpfs -o size=64k tmpfs "$T/small" 2>/dev/null; then
	refused small/u.e2undo "it may grow to"
	grep -q "small has [0-9]* KiB free" "$T/out" || fail "the room is not said"
	[ -e "$T/small/u.e2undo" ] && fail "an undo file was left in the full filesystem"
	full=ok
else
	full="not run (no tmpfs mount)"
fi

# The default name is never an existing file: every name apply could pick
# in the next seconds exists already, holding something else.
now=$(date +%s)
for i in 0 1 2 3 4 5; do
	stamp=$(date -d "@$((now + i))" +%Y%m%d-%H%M%S)
	printf 'other %s\n' "$i" > "$T/e2layout-a.img-$stamp.e2undo"
done
ls "$T"/e2layout-a.img-*.e2undo | sort > "$T/taken"
cat "$T"/e2layout-a.img-*.e2undo > "$T/taken.sums"
"$E2LAYOUT" -w -R "$req" "$img" > "$T/out" 2>&1 || { cat "$T/out"; fail "apply with the default undo name"; }
cat $(cat "$T/taken") | cmp -s - "$T/taken.sums" || fail "an existing file under a default name changed"
undo=$(sed -n 's/^undo file: \([^ ]*\) .*/\1/p' "$T/out")
case $undo in *-[0-9].e2undo) ;; *) fail "the default name was not made unique: $undo" ;; esac
grep -qxF "$undo" "$T/taken" && fail "the default name is a file that existed: $undo"
[ -f "$undo" ] || fail "no undo file at $undo"
fsck_clean "$img" || { cat "$T/fsck.out"; fail "e2fsck -fn after the apply"; }
e2undo "$undo" "$img" > "$T/undo.out" 2>&1 || { cat "$T/undo.out"; fail "e2undo"; }
cmp -s "$img" "$T/orig.img" || fail "e2undo did not restore the image byte for byte"

# -z: a new file, written whole, restores too.
"$E2LAYOUT" -w -z "$T/z.e2undo" -R "$req" "$img" > "$T/out" 2>&1 || { cat "$T/out"; fail "-z apply"; }
grep -q "undo file written to $T/z.e2undo" "$T/out" || fail "no -z note"
e2undo "$T/z.e2undo" "$img" > "$T/undo.out" 2>&1 || { cat "$T/undo.out"; fail "e2undo of -z"; }
cmp -s "$img" "$T/orig.img" || fail "the -z undo file did not restore the image"
echo "ok: every unsafe undo path refused, image unchanged; full filesystem: $full"
exit 0

#!/bin/sh
# t_journal_dev.sh - external journals: a journal device made by mke2fs -O
# journal_dev (on a loop device, as mke2fs -J device= needs a block device)
# and a filesystem using it.  Opening the journal device tells what it is
# and who uses it; `journal` on the filesystem finds the device by UUID
# (libblkid) and with --journal-dev (the image file, loop detached) shows
# where its superblock and log lie, as dumpe2fs reads them; a device that
# is not the journal is named as such; journal_relocate says why not.
. "$(dirname "$0")/../lib/testlib.sh"
[ "$(id -u)" = 0 ] || skip "needs root for a loop device"
command -v losetup >/dev/null 2>&1 || skip "losetup is not installed"
export MKE2FS_CONFIG=/dev/null
jd=$T/jdev.img fs=$T/fs.img
mke2fs -q -F -T default -O journal_dev -b 4096 -L jlabel "$jd" 8M \
	>/dev/null 2>&1 || fail "mke2fs -O journal_dev"
loop=$(losetup -f --show "$jd" 2>/dev/null) || skip "no loop device here"
floop=""
trap 'tmux -L "e2l-jdev-$$" kill-server 2>/dev/null; umount "$T/mnt" 2>/dev/null; [ -n "$floop" ] && losetup -d "$floop"; losetup -d "$loop" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
mke2fs -q -F -T default -O extent,has_journal -b 4096 -J device="$loop" \
	"$fs" 32M >/dev/null 2>&1 || fail "mke2fs -J device=$loop"
fsuuid=$(dumpe2fs -h "$fs" 2>/dev/null | sed -n 's/^Filesystem UUID: *//p')
juuid=$(dumpe2fs -h "$fs" 2>/dev/null | sed -n 's/^Journal UUID: *//p')
[ -n "$fsuuid" ] && [ -n "$juuid" ] || fail "no UUIDs from dumpe2fs"

# found by UUID while the loop device holds it
blkid -p "$loop" >/dev/null 2>&1	# (the cache learns it on lookup)
"$E2LAYOUT" -R journal "$fs" > "$T/j1" 2>&1 || fail "journal: $(cat "$T/j1")"
grep -q "^External journal: UUID $juuid" "$T/j1" || fail "no UUID: $(cat "$T/j1")"
grep -q "^Device $loop (found by its UUID)$" "$T/j1" ||
	fail "not found by UUID: $(cat "$T/j1")"
grep -q "^  blocks 2-2047: the log (2046 blocks, bytes 8192-8388607)$" "$T/j1" ||
	fail "no log layout: $(cat "$T/j1")"
grep -q "^    $fsuuid  (this filesystem)$" "$T/j1" ||
	fail "this filesystem not among the users: $(cat "$T/j1")"
# the journal superblock's own listing matches dumpe2fs's of the device
dumpe2fs "$jd" 2>/dev/null | grep -E '^(Journal features|Total journal blocks|Journal first block|Journal sequence):' > "$T/dump"
[ -s "$T/dump" ] || fail "dumpe2fs shows nothing of the journal device"
while IFS= read -r line; do
	grep -qF "$line" "$T/j1" || fail "journal lacks dumpe2fs's: $line"
done < "$T/dump"
"$E2LAYOUT" --json -R journal "$fs" | jq -e '.result.device_path == "'"$loop"'" and .result.superblock.length == 2048' >/dev/null ||
	fail "journal --json lacks the device"
# live: mounted (the kernel finds the journal by its device number)
if command -v mount >/dev/null 2>&1 && floop=$(losetup -f --show "$fs") &&
   mkdir -p "$T/mnt" && mount -t ext4 "$floop" "$T/mnt" 2>/dev/null; then
	"$E2LAYOUT" -R "live status" "$T/mnt" > "$T/live" 2>&1
	grep -q "^Journal: *external on $loop, superblock at block 1, log blocks 2-2047$" "$T/live" ||
		fail "live status: $(cat "$T/live")"
	umount "$T/mnt"
else
	echo "note: could not mount the filesystem; live status not checked"
fi
[ -n "$floop" ] && losetup -d "$floop"
floop=""
losetup -d "$loop"

# named with --journal-dev: the file itself
"$E2LAYOUT" --journal-dev "$jd" -R journal "$fs" > "$T/j2" 2>&1 ||
	fail "--journal-dev: $(cat "$T/j2")"
grep -q "^Device $jd (--journal-dev)$" "$T/j2" || fail "--journal-dev: $(cat "$T/j2")"
grep -q "^    $fsuuid  (this filesystem)$" "$T/j2" || fail "--journal-dev users"
# the TUI's journal view (4) shows the same
tm="tmux -L e2l-jdev-$$ -f /dev/null"
if command -v tmux >/dev/null 2>&1; then
	$tm new-session -d -s s -x 120 -y 30 \
		"$E2LAYOUT --journal-dev $jd $fs" || fail "tmux"
	wait_until 15 "no TUI" pane_has "$tm" "1 Overview"
	$tm send-keys -t s 4
	wait_until 15 "TUI journal view" pane_has "$tm" \
		"^Journal superblock at block 1; log blocks 2-2047 (2046 blocks)"
	$tm kill-server
fi

# not found: said so; another file: refused with the reason
"$E2LAYOUT" -R journal "$fs" > "$T/j3" 2>&1
grep -q "journal-dev PATH" "$T/j3" || fail "not found, not said: $(cat "$T/j3")"
"$E2LAYOUT" --journal-dev "$fs" -R journal "$fs" > "$T/j4" 2>&1 &&
	fail "a filesystem was taken as the journal device"
grep -q "is not this filesystem's journal (it wants the journal device with UUID $juuid)" "$T/j4" ||
	fail "wrong device: $(cat "$T/j4")"

# the journal device itself
"$E2LAYOUT" -R stats "$jd" > "$T/d.out" 2> "$T/d.err" &&
	fail "a journal device opened as a filesystem"
grep -q "this is an ext4 journal device used by UUID $fsuuid (mke2fs -O journal_dev)" "$T/d.err" ||
	fail "journal device not named: $(cat "$T/d.err")"
grep -q "^Journal device: $jd (2048 blocks of 4096 bytes, 8388608 bytes), label \"jlabel\"$" "$T/d.out" ||
	fail "journal device layout: $(cat "$T/d.out")"

# a journal device no filesystem uses yet: said so, not "UUID no filesystem"
mke2fs -q -F -T default -O journal_dev -b 4096 "$T/free.img" 8M \
	>/dev/null 2>&1 || fail "mke2fs -O journal_dev (unused)"
"$E2LAYOUT" -R stats "$T/free.img" > "$T/d.out" 2> "$T/d.err" &&
	fail "an unused journal device opened as a filesystem"
grep -q "this is an ext4 journal device used by no filesystem (mke2fs -O journal_dev)" "$T/d.err" ||
	fail "unused journal device not named: $(cat "$T/d.err")"

# a damaged user count (s_nr_users at byte 64 of the journal superblock,
# block 1): said to be damaged, not "and 4294967294 more"
cp "$jd" "$T/bad.img"
printf '\377\377\377\377' | dd of="$T/bad.img" bs=1 seek=$((4096 + 64)) \
	conv=notrunc 2>/dev/null
"$E2LAYOUT" -R stats "$T/bad.img" > "$T/d.out" 2> "$T/d.err"
grep -q "used by UUID $fsuuid and others (a damaged count of 4294967295 users)" "$T/d.err" ||
	fail "damaged user count: $(cat "$T/d.err")"
grep -q "4294967295 users (damaged: a journal superblock lists at most 48; those 48 follow):" "$T/d.out" ||
	fail "damaged user count: $(head -8 "$T/d.out")"
[ "$(grep -c '^    [0-9a-f-]\{36\}' "$T/d.out")" -eq 48 ] ||
	fail "not 48 users listed: $(grep -c '^    ' "$T/d.out")"

# journal_relocate refuses, saying why
"$E2LAYOUT" -R journal_relocate "$fs" > "$T/r" 2>&1 && fail "relocate ran"
grep -q "the journal is external (on the journal device with UUID $juuid)" "$T/r" ||
	fail "relocate: $(cat "$T/r")"
exit 0

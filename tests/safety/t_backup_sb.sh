#!/bin/sh
# t_backup_sb.sh - -w with -s (a backup superblock) is refused before
# anything is opened, on the command line (exit 2) and by the open request,
# with a pointer to e2fsck -b; the image stays byte-identical (opened that
# way, libext2fs would rewrite the primary superblock and descriptors from
# the backup on close).  Read-only -s still works.
. "$(dirname "$0")/../lib/testlib.sh"
command -v mke2fs >/dev/null 2>&1 || skip "mke2fs is missing"

# ext4 with 1 KiB blocks: the first backup superblock is block 8193
mke2fs -q -F -t ext4 -b 1024 "$T/img" 16M >/dev/null 2>&1 || fail "mke2fs"
cp "$T/img" "$T/img.before"

"$E2LAYOUT" -w -s 8193 -b 1024 -R stats "$T/img" > "$T/out" 2>&1
rc=$?
[ $rc = 2 ] || { cat "$T/out"; fail "-w -s: exit $rc, not 2"; }
grep -q "e2fsck -b 8193 -B 1024 $T/img" "$T/out" ||
	{ cat "$T/out"; fail "-w -s: no pointer to e2fsck -b"; }
grep -q "Block count:" "$T/out" && fail "-w -s: the request ran"
cmp -s "$T/img" "$T/img.before" || fail "-w -s: the image changed"
echo "ok: -w -s refused on the command line, image unchanged"

# the same in the shell's open request (after close)
printf 'close\nopen -w -s 8193 -b 1024 %s\nstats\n' "$T/img" |
	"$E2LAYOUT" -f - "$T/img" > "$T/out" 2>&1
grep -q "e2fsck -b 8193 -B 1024" "$T/out" ||
	{ cat "$T/out"; fail "open -w -s: no refusal"; }
grep -q "Block count:" "$T/out" && fail "open -w -s: opened"
cmp -s "$T/img" "$T/img.before" || fail "open -w -s: the image changed"
echo "ok: open -w -s refused, image unchanged"

# read-only from the backup still works, and writes nothing
"$E2LAYOUT" -s 8193 -b 1024 -R stats "$T/img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "-s read-only"; }
grep -q "Block count: *16384" "$T/out" || { cat "$T/out"; fail "-s: stats"; }
cmp -s "$T/img" "$T/img.before" || fail "-s read-only: the image changed"
echo "ok: -s read-only still opens the backup"
exit 0

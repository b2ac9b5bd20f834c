#!/bin/sh
# t_editor_refuse.sh - the editor refuses to write when it must: a read-only
# session, an error state, a journal needing recovery, a filesystem not
# cleanly unmounted, a mounted filesystem (when loop mounts are possible),
# bad arguments; each with a clear message and the image left untouched.
. "$(dirname "$0")/lib.sh"

NFILES=12
mk_frag "$T/base.img" ext4 32M 4096 4

try() {	# NAME EXPECTED-MESSAGE E2LAYOUT-ARGS... (requests on stdin)
	name=$1; msg=$2; shift 2
	cp "$T/img" "$T/img.before"
	"$E2LAYOUT" "$@" > "$T/out" 2>&1 && { cat "$T/out"; fail "$name: not refused"; }
	grep -q "$msg" "$T/out" || { cat "$T/out"; fail "$name: message"; }
	cmp -s "$T/img" "$T/img.before" || fail "$name: image modified"
	echo "ok: $name"
}

req='journal_relocate
apply'
cp "$T/base.img" "$T/img"
echo "$req" | try "read-only session" "reopen it with -w" -f - "$T/img"

cp "$T/base.img" "$T/img"
debugfs -w -R "ssv state 2" "$T/img" >/dev/null 2>&1
echo "$req" | try "errors flag" "has errors" -w -f - "$T/img"

cp "$T/base.img" "$T/img"
debugfs -w -R "ssv state 0" "$T/img" >/dev/null 2>&1
echo "$req" | try "not cleanly unmounted" "not cleanly unmounted" -w -f - "$T/img"

cp "$T/base.img" "$T/img"
debugfs -w -R "feature needs_recovery" "$T/img" >/dev/null 2>&1
echo "$req" | try "needs_recovery (-w)" "needs journal recovery" -w -f - "$T/img"
echo "journal_relocate" | try "needs_recovery (plan)" "needs recovery" -f - "$T/img"

cp "$T/base.img" "$T/img"
echo "defrag /" | try "defrag a directory" "not a regular file" -f - "$T/img"
echo "defrag /nonexistent" | try "defrag a missing file" "nonexistent" -f - "$T/img"
echo "journal_relocate --group 99" | try "bad group" "no group 99" -f - "$T/img"
echo "apply" | try "apply without plan" "no current plan" -w -f - "$T/img"
echo "garbage" > "$T/bad.plan"
echo "apply $T/bad.plan" | try "damaged plan file" "not an e2layout plan" -w -f - "$T/img"

# A loop-mounted image must be refused (needs root and loop devices).
mkdir -p "$T/mnt"
if mount -o loop "$T/img" "$T/mnt" 2>/dev/null; then
	echo "$req" | "$E2LAYOUT" -w -f - "$T/img" > "$T/out" 2>&1
	rc=$?
	umount "$T/mnt"
	[ $rc -ne 0 ] || fail "a mounted filesystem was changed"
	grep -q "mounted" "$T/out" || { cat "$T/out"; fail "mounted: message"; }
	echo "ok: mounted"
else
	echo "note: mount -o loop is not possible here; mounted case skipped"
fi
exit 0

#!/bin/sh
# t_needs_recovery.sh - a filesystem whose journal needs recovery opens with
# -w (debugfs's journal_run is what recovers it): jr replays it exactly as
# the real debugfs does (the same image afterwards, on a fixed clock; the
# replayed blocks hold the data; e2fsck finds nothing), in both
# personalities; while e2layout's layout plans (journal relocate, defrag)
# still refuse such a filesystem and leave it byte for byte unchanged.
. "$(dirname "$0")/../lib/testlib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v debugfs >/dev/null 2>&1 || skip "no debugfs to compare with"
cc -shared -fPIC -o "$T/clock.so" "$top/tests/compat/fixed_clock.c" -ldl \
	2>/dev/null || skip "no C compiler for the fixed clock"
export TZ=GMT LC_ALL=C
# the fixed clock is preloaded: an ASan build must accept a library first
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"

# An ext4 image with a fragmented file (/frag: two extents around /keep)
# and one committed transaction in its journal: blocks 3000-3001 of data.
E2FSPROGS_FAKE_TIME=1700000000 MKE2FS_CONFIG=/dev/null mke2fs -q -F \
	-t ext4 -b 1024 -O extent,has_journal -J size=1 "$T/base.img" 16M \
	>/dev/null 2>&1 || fail "mke2fs"
head -c 10240 /dev/urandom > "$T/ten"
head -c 20480 /dev/urandom > "$T/twenty"
head -c 2048 /dev/urandom > "$T/data"
printf 'write %s a\nwrite %s keep\nrm a\nwrite %s frag\n' \
	"$T/ten" "$T/ten" "$T/twenty" > "$T/mk.f"
debugfs -w -f "$T/mk.f" "$T/base.img" >/dev/null 2>&1
[ "$(debugfs -R "ex /frag" "$T/base.img" 2>/dev/null | grep -c '^ *[0-9]/')" \
	-ge 2 ] || fail "could not make a fragmented file"
printf 'jo\njw -b 3000,3001 %s\njc\n' "$T/data" > "$T/jw.f"
debugfs -w -f "$T/jw.f" "$T/base.img" >/dev/null 2>&1
dumpe2fs -h "$T/base.img" 2>/dev/null | grep -q needs_recovery ||
	fail "the image does not need recovery"

# jr: the real debugfs, then e2layout as debugfs and as itself, each from
# the same copy on the fixed clock.
img=$T/img
jr() {	# OUTDIR PROGRAM ARGS...
	d=$1; shift
	mkdir -p "$d"
	cp "$T/base.img" "$img"
	LD_PRELOAD=$T/clock.so "$@" -w -R jr "$img" > "$d/out" 2> "$d/err"
	echo $? > "$d/rc"
	cp "$img" "$d/img"
}
jr "$T/d" debugfs
jr "$T/p" "$E2LAYOUT" --debugfs
jr "$T/e" "$E2LAYOUT"
for f in out err rc img; do
	cmp -s "$T/d/$f" "$T/p/$f" ||
		fail "jr (debugfs personality): $f differs from debugfs's"
done
[ "$(cat "$T/e/rc")" = 0 ] || fail "e2layout -w -R jr: exit $(cat "$T/e/rc"): $(cat "$T/e/err")"
cmp -s "$T/d/img" "$T/e/img" || fail "e2layout -w -R jr: image differs from debugfs's"
cmp -s "$T/d/out" "$T/e/out" || fail "e2layout -w -R jr: stdout differs"
dd if="$T/e/img" bs=1024 skip=3000 count=2 2>/dev/null | cmp -s - "$T/data" ||
	fail "jr: blocks 3000-3001 do not hold the journalled data"
fsck_clean "$T/e/img" || fail "jr: e2fsck -fn finds problems: $(head -5 "$T/fsck.out")"
echo "ok: -w opens it and jr recovers it as debugfs does"

# Layout plans refuse it, and nothing is written.
plan_refused() {	# DESCRIPTION REQUEST
	cp "$T/base.img" "$img"
	"$E2LAYOUT" -w -R "$2" "$img" > "$T/out" 2> "$T/err"
	rc=$?
	[ $rc -ne 0 ] || fail "$1: applied on a filesystem needing recovery"
	grep -q "recovery" "$T/err" || fail "$1: refused without naming recovery: $(cat "$T/err")"
	cmp -s "$T/base.img" "$img" || fail "$1: the image changed"
	ls "$T"/*.e2undo >/dev/null 2>&1 && fail "$1: an undo file was written"
	echo "ok: $1 refused (exit $rc), image unchanged"
}
plan_refused "journal relocate" "journal relocate --start"
plan_refused "defrag" "defrag /frag"
# and with the journal recovered the same plan goes ahead
cp "$T/e/img" "$img"
"$E2LAYOUT" -w -R "defrag /frag" "$img" > "$T/out" 2> "$T/err" ||
	fail "defrag after recovery: $(cat "$T/err")"
fsck_clean "$img" || fail "defrag after recovery: e2fsck finds problems"
[ "$(debugfs -R "ex /frag" "$img" 2>/dev/null | grep -c '^ *[0-9]/')" -eq 1 ] ||
	fail "defrag after recovery: /frag is not one extent"
echo "ok: after jr the plan applies"

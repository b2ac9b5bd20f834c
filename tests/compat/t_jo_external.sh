#!/bin/sh
# t_jo_external.sh - journal_open -f EXTERNAL_JOURNAL (a journal device in
# a file, as e2fsprogs's j_ext_long_trans uses): transactions written with
# jw, revoked with jw -r, closed with jc; through the real debugfs and
# e2layout from the same files on a fixed clock, stdout, stderr, exit
# status, the filesystem and the journal file must be byte-identical; then
# e2fsck replays the journal and the blocks hold the data.  The refusals
# (the wrong journal, no journal found) say what debugfs says.
. "$(dirname "$0")/../lib/testlib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v debugfs >/dev/null 2>&1 || skip "no debugfs to compare with"
cc -shared -fPIC -o "$T/clock.so" "$top/tests/compat/fixed_clock.c" -ldl \
	2>/dev/null || skip "no C compiler for the fixed clock"
export TZ=GMT LC_ALL=C
# the fixed clock is preloaded: an ASan build must accept a library first
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" MKE2FS_CONFIG=/dev/null E2FSPROGS_FAKE_TIME=1700000000
uuid=1db3f677-6832-4adb-bafc-8e4059c30a34

# The journal device and a filesystem naming it (as j_ext_long_trans does).
mke2fs -q -F -o Linux -b 1024 -O journal_dev -U $uuid "$T/base.jnl" 4096 \
	>/dev/null 2>&1 || fail "mke2fs -O journal_dev"
mke2fs -q -F -o Linux -b 1024 -O ^has_journal,extent,metadata_csum \
	"$T/base.img" 16384 >/dev/null 2>&1 || fail "mke2fs"
printf 'feature has_journal\nssv journal_dev 0x9999\nssv journal_uuid %s\n' \
	$uuid > "$T/attach.f"
debugfs -w -f "$T/attach.f" "$T/base.img" >/dev/null 2>&1
e2fsck -fy -j "$T/base.jnl" "$T/base.img" >/dev/null 2>&1
unset E2FSPROGS_FAKE_TIME
# another journal device, not this filesystem's
mke2fs -q -F -o Linux -b 1024 -O journal_dev "$T/other.jnl" 4096 \
	>/dev/null 2>&1 || fail "mke2fs -O journal_dev (other)"
head -c 65536 /dev/urandom > "$T/data"

img=$T/img
jnl=$T/jnl
# both CASE REQUESTS [BASE]: a -f script through both programs from fresh
# copies of BASE (default: the filesystem with the external journal)
both() {
	desc=$1 base=${3:-$T/base.img}
	printf '%s\n' "$2" > "$T/cmd"
	for p in d e; do
		mkdir -p "$T/$p"
		cp "$base" "$img"
		cp "$T/base.jnl" "$jnl"
		if [ $p = d ]; then set -- debugfs; else set -- "$E2LAYOUT" --debugfs; fi
		LD_PRELOAD=$T/clock.so "$@" -w -f "$T/cmd" "$img" \
			> "$T/$p/out" 2> "$T/$p/err"
		echo $? > "$T/$p/rc"
		cp "$img" "$T/$p/img"
		cp "$jnl" "$T/$p/jnl"
	done
	for f in out err rc img jnl; do
		cmp -s "$T/d/$f" "$T/e/$f" || {
			diff "$T/d/$f" "$T/e/$f" 2>/dev/null | head -6
			fail "$desc: $f differs from debugfs's"
		}
	done
	echo "ok: $desc"
}
both "jw -b into the external journal" \
	"jo -f $jnl
jw -b 2000-2063 $T/data
jc"
both "a second transaction, then revokes" \
	"jo -f $jnl
jw -b 2000-2031 $T/data
jc
jo -f $jnl
jw -b 2100-2131 $T/data
jw -r 2000-2015
jc"
both "uncommitted transaction (jw -c)" \
	"jo -f $jnl
jw -b 2000-2009 -c $T/data
jc"
both "the wrong journal device" "jo -f $T/other.jnl
jc"
both "no -f: looked for by UUID, not found" "jo
jc"
both "journal_run finds no external journal" "jr"
MKE2FS_CONFIG=/dev/null mke2fs -q -F -o Linux -b 1024 -O has_journal \
	"$T/int.img" 16384 >/dev/null 2>&1 || fail "mke2fs (internal journal)"
both "-f on a filesystem with an internal journal" "jo -f $jnl
jw -b 2000-2003 $T/data
jc" "$T/int.img"

# What e2layout wrote, replayed by e2fsck: the blocks hold the data.
both "jw -b into the external journal (again, for e2fsck)" \
	"jo -f $jnl
jw -b 2000-2063 $T/data
jc"
printf 'logdump -c -f %s\n' "$T/e/jnl" > "$T/ld.f"
debugfs -f "$T/ld.f" "$T/e/img" > "$T/ld.d" 2>&1
"$E2LAYOUT" --debugfs -f "$T/ld.f" "$T/e/img" > "$T/ld.e" 2>&1
cmp -s "$T/ld.d" "$T/ld.e" || fail "logdump -c -f of the journal differs"
grep -q "commit block" "$T/ld.d" || fail "logdump: no commit block in the journal"
e2fsck -fy -j "$T/e/jnl" "$T/e/img" > "$T/fsck1" 2>&1
grep -q "recovering journal" "$T/fsck1" || fail "e2fsck did not replay the journal"
dd if="$T/e/img" bs=1024 skip=2000 count=64 2>/dev/null | cmp -s - "$T/data" ||
	fail "after replay, blocks 2000-2063 do not hold the data"
echo "ok: e2fsck replays what e2layout journalled"

#!/bin/sh
# t_owner_dir_ahead.sh - `owner` of many file blocks (their paths from one
# walk of the tree) asks the kernel for the directory blocks its scan saw,
# once, before the walk reads them one by one (strace: a hint covers each
# directory's data); a few blocks (their parent chains) ask for none; the
# answers are the same under strace and with or without the hints.
. "$(dirname "$0")/../lib/testlib.sh"

command -v mke2fs >/dev/null || skip "no mke2fs"
command -v debugfs >/dev/null || skip "no debugfs"

# 12 directories of 10 files, spread over 16 groups
mkdir -p "$T/src"
d=0
while [ $d -lt 12 ]; do
	mkdir "$T/src/d$d"
	f=0
	while [ $f -lt 10 ]; do
		head -c $(((d * 10 + f) % 5 * 3000 + 2000)) /dev/zero |
			tr '\0' y > "$T/src/d$d/f$f"
		f=$((f + 1))
	done
	d=$((d + 1))
done
mke2fs -q -F -t ext4 -b 1024 -g 1024 -N 256 -I 256 -d "$T/src" \
	"$T/fs.img" 16M >/dev/null 2>&1 || fail "mke2fs -d"
# the first data block of each file and of each directory
files=""
d=0
while [ $d -lt 12 ]; do
	f=0
	while [ $f -lt 10 ]; do
		files="$files $(debugfs -R "bmap /d$d/f$f 0" "$T/fs.img" \
			2>/dev/null | tail -1)"
		f=$((f + 1))
	done
	d=$((d + 1))
done
dirs=""
for d in 0 5 11; do
	dirs="$dirs $(debugfs -R "bmap /d$d 0" "$T/fs.img" 2>/dev/null |
		tail -1)"
done
"$E2LAYOUT" -R "owner$files" "$T/fs.img" > "$T/out" 2>&1 ||
	fail "owner: $(tail -1 "$T/out")"
n=$(grep -c ', inode [0-9]* (/d[0-9]*/f[0-9]*), logical block 0$' "$T/out")
[ "$n" = 120 ] || { head "$T/out"; fail "$n of 120 files named"; }

command -v strace >/dev/null 2>&1 || skip "strace not installed"
strace -o /dev/null true 2>/dev/null || skip "strace not usable here"
# LeakSanitizer cannot run under ptrace: the sanitizer build's leak check
# off for the traced run only
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -o "$T/trace" -e trace=fadvise64 "$E2LAYOUT" -R "owner$files" \
	"$T/fs.img" > "$T/out2" 2>&1 || fail "owner under strace"
cmp -s "$T/out" "$T/out2" || fail "the output differs under strace"
# hints TRACE BLOCK: how many WILLNEED hints of TRACE cover BLOCK
hints() {
	awk -v at=$(($2 * 1024)) -F'[(,)]' '
		/POSIX_FADV_WILLNEED/ && $3 + 0 <= at && at < $3 + $4 { h++ }
		END { print h + 0 }' "$1"
}
# a hint over the first block of each of the three directories
for b in $dirs; do
	[ "$(hints "$T/trace" "$b")" = 1 ] ||
		{ cat "$T/trace"; fail "directory block $b: not asked for once"; }
done

# three files: their parent chains, no directory asked for
set -- $files
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -o "$T/trace3" -e trace=fadvise64 "$E2LAYOUT" \
	-R "owner $1 $2 $3" "$T/fs.img" > "$T/out3" 2>&1 || fail "owner of three"
head -3 "$T/out" | cmp -s - "$T/out3" ||
	fail "owner of three: $(cat "$T/out3")"
for b in $dirs; do
	[ "$(hints "$T/trace3" "$b")" = 0 ] ||
		{ cat "$T/trace3"; fail "owner of three asked for directory $b"; }
done
echo "ok: the directories asked for once before the walk; not for three"

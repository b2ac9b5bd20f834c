#!/bin/sh
# t_debugfs_personality.sh - run under the name debugfs (a link) or with
# --debugfs, e2layout is debugfs 1.47.0 on its command line: each case runs
# the real debugfs and then e2layout from the same image, under the same
# name and paths, and stdout, stderr (banner included), the exit status and
# the image left behind must be identical.  The cases are the differences
# the e2fsprogs suite found (exit 0 after a failed request, 1 or a count
# for requests that do not exist, the listener's two-space echo and its
# readline echo of a long line, messages naming debugfs, every command-line
# option, the blkid line after a bad magic number); then e2layout's own
# personality keeps its names and exit statuses.
. "$(dirname "$0")/../lib/testlib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
real=$(command -v debugfs) || skip "no debugfs to compare with"
case "$(debugfs -V 2>&1 | head -1)" in
*" 1.47.0 "*) ;;
*) skip "the oracle must be debugfs 1.47.0" ;;
esac
export TZ=GMT LC_ALL=C
# the fixed clock is preloaded: an ASan build must accept a library first
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"
mkdir -p "$T/real" "$T/ours" "$T/d" "$T/e"
ln -s "$real" "$T/real/debugfs"
ln -s "$E2LAYOUT" "$T/ours/debugfs"
# a fixed clock for both programs, so that the images they write agree
clock=
if cc -shared -fPIC -o "$T/clock.so" "$top/tests/compat/fixed_clock.c" \
	-ldl 2>/dev/null; then
	clock=$T/clock.so
fi

# The image: two groups, a directory, a file, an extended attribute.
mkdir -p "$T/src/dir"
echo hello > "$T/src/dir/file"
E2FSPROGS_FAKE_TIME=1700000000 MKE2FS_CONFIG=/dev/null mke2fs -q -F \
	-t ext4 -b 1024 -O extent,metadata_csum,^has_journal -d "$T/src" \
	"$T/base.img" 16M >/dev/null 2>&1 || fail "mke2fs"
debugfs -w -R "ea_set / user.moo cow" "$T/base.img" >/dev/null 2>&1
img=$T/img

fails=0
# same DESC [STDIN] -- ARGS...: the real debugfs, then `debugfs` (a link to
# e2layout), then `e2layout --debugfs`, each from a fresh copy of the image
# at the same path; every output, status and image must be identical.
same() {
	desc=$1; shift
	input=/dev/null
	if [ "$1" != -- ]; then input=$1; shift; fi
	shift
	run_one "$T/d" real "$@"
	before=$fails
	for how in link flag; do
		run_one "$T/e" "$how" "$@"
		for f in out err rc img; do
			if ! cmp -s "$T/d/$f" "$T/e/$f"; then
				echo "FAIL: $desc ($how): $f differs"
				case $f in
				out|err|rc) diff "$T/d/$f" "$T/e/$f" | head -8 ;;
				esac
				fails=$((fails + 1))
			fi
		done
	done
	[ $fails -eq $before ] && echo "ok: $desc (exit $(cat "$T/d/rc"))"
	return 0
}
run_one() {	# DIR real|link|flag ARGS...
	dir=$1; how=$2; shift 2
	cp "$T/base.img" "$img"
	rm -f "$T/u.undo"
	(
		[ -n "$clock" ] && export LD_PRELOAD="$clock"
		[ -n "${libext2fs_leaks:-}" ] &&
			export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
		case $how in
		real) PATH=$T/real:$PATH debugfs "$@" ;;
		link) PATH=$T/ours:$PATH debugfs "$@" ;;
		flag) "$E2LAYOUT" --debugfs "$@" ;;
		esac < "$input" > "$dir/out" 2> "$dir/err"
		echo $? > "$dir/rc"
	)
	if [ -n "$clock" ]; then cp "$img" "$dir/img"; else : > "$dir/img"; fi
}

# --- exit statuses: requests that fail, requests that do not exist ---
same "unknown request (-R)" -- -R foo "$img"
same "unknown request, blanks kept" -- -R "  foo   bar baz" "$img"
printf 'foo\nbar\npwd\n  # not a comment\nquit\npwd\n' > "$T/cmds"
same "-f: unknown requests counted, quit does not stop it" -- \
	-f "$T/cmds" "$img"
same "stat of a missing file" -- -R "stat nosuch" "$img"
same "ea_get of a missing attribute" -- -R "ea_get / nosuchea" "$img"
same "symlink name too long (-w)" -- -w -R \
	"symlink /l_1500 $(printf '%01500d' 0 | tr 0 x)" "$img"
same "set_bg value out of range (-w)" -- -w -R \
	"set_bg 1 free_blocks_count 65536" "$img"
same "request needing a filesystem, none named" -- -R stats
same "unbalanced quotes" -- -R 'stat "abc' "$img"
same "shell escape" -- -R '!echo hi from the shell' "$img"
same "help is debugfs's list" -- -R help "$img"
same "help TOPIC" -- -R "help stat" "$img"
same "help with two words" -- -R "help a b" "$img"

# --- the listener: a pipe on standard input ---
printf 'pwd\nstat nosuch\n\n# hi\n  ls -l dir\nfoo bar\nls' > "$T/in1"
same "piped requests: echo after the prompt, last prompt" "$T/in1" -- "$img"
printf 'symlink foo2 %s\nmknod pipe p\nstat foo2\n' \
	"$(printf '%080d' 0 | tr 0 7)" > "$T/in2"
same "a line wider than the terminal, echoed by readline" "$T/in2" -- \
	-w "$img"
printf 'eo <12>\nroot\ncurrent\nec\npwd\n' > "$T/in3"
same "the extent sub-mode's prompt" "$T/in3" -- "$img"
SS_READLINE_PATH=none
export SS_READLINE_PATH
same "piped requests without readline (SS_READLINE_PATH=none)" "$T/in1" -- \
	"$img"
unset SS_READLINE_PATH
printf 'pwd\nquit\npwd\n' > "$T/in4"
same "quit ends the listener" "$T/in4" -- "$img"
printf 'set_current_time 20130115140000\nmkdir newdir\nwrite %s f2\n' \
	"$T/src/dir/file" > "$T/in5"
same "writes from a pipe (-w)" "$T/in5" -- -w "$img"

# --- the command line, option by option ---
same "bad option" -- -Q "$img"
same "bad block size" -- -b xyz "$img"
same "bad superblock" -- -s abc "$img"
same "superblock without block size" -- -s 8193 -R pwd "$img"
same "backup superblock" -- -s 8193 -b 1024 -R "stats" "$img"
same "version" -- -V
same "missing command file" -- -f "$T/no/such/file" "$img"
same "options after the device" -- "$img" -R "ls -l"
same "catastrophic mode keeps -w" -- -c -w -R params "$img"
same "-d without -i" -- -d "$T/cmds" -R params "$img"
# libext2fs 1.47.0 itself leaks on these paths (ext2fs_open2 keeps a
# reference to the image's I/O channel when the e2image header is wrong;
# the undo manager never frees its bitmap of written blocks): the
# sanitizer build does not look for leaks there
libext2fs_leaks=1
same "-i on a filesystem that is no e2image" -- -i -R params "$img"
same "-n and -D" -- -n -D -R "stat dir/file" "$img"
same "-z: the undo file announced" -- -w -z "$T/u.undo" -R "mkdir zz" "$img"
same "-z read-only" -- -z "$T/u.undo" -R params "$img"
libext2fs_leaks=

# --- a device that is no ext2/3/4 ---
head -c 1048576 /dev/zero > "$T/zero"
same "bad magic number" -- -R pwd "$T/zero"
if mkswap -L swaplabel "$T/zero" >/dev/null 2>&1; then
	same "blkid names what it is" -- -R pwd "$T/zero"
	grep -q "contains a swap file system labelled 'swaplabel'" "$T/e/out" ||
		{ echo "FAIL: no blkid line"; fails=$((fails + 1)); }
else
	echo "note: no mkswap; the blkid line is checked by the suite's f_detect_xfs"
fi

# --- e2layout's own personality keeps its names and exit statuses ---
cp "$T/base.img" "$img"
"$E2LAYOUT" -R foo "$img" > "$T/out" 2> "$T/err"
[ $? -eq 1 ] || fail "e2layout -R foo: exit status is not 1"
grep -qx "e2layout: Command not found foo" "$T/err" ||
	fail "e2layout -R foo: $(cat "$T/err")"
"$E2LAYOUT" -R "stat nosuch" "$img" > /dev/null 2>&1
[ $? -eq 1 ] || fail "e2layout: a failed request does not exit 1"
printf 'pwd\nstat nosuch\n' | "$E2LAYOUT" "$img" > "$T/out" 2>/dev/null
[ $? -eq 1 ] || fail "e2layout, piped: a failed request does not exit 1"
[ "$(grep -c '^e2layout: ' "$T/out")" -eq 3 ] &&
	[ "$(tail -c 10 "$T/out")" = "e2layout: " ] ||
	fail "e2layout, piped: not its own prompt before each request and at the end"
grep -q "debugfs" "$T/err" 2>/dev/null && fail "e2layout names debugfs"
"$E2LAYOUT" -n -D -R "stat dir/file" "$img" > "$T/out" 2>&1 ||
	fail "e2layout -n -D: exit $?"
debugfs -n -D -R "stat dir/file" "$img" 2>/dev/null | cmp -s - "$T/out" ||
	fail "e2layout -n -D: not debugfs's output"
ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
	"$E2LAYOUT" -i -R params "$img" > /dev/null 2> "$T/err"
[ $? -eq 3 ] || fail "e2layout -i on an ordinary image: not exit 3"
"$E2LAYOUT" -d "$T/cmds" -R params "$img" > /dev/null 2> "$T/err"
grep -q "The -d option is only valid when reading an e2image file" "$T/err" ||
	fail "e2layout -d without -i: $(cat "$T/err")"
"$E2LAYOUT" -R pwd --debugfs "$img" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--debugfs after other options is not a usage error"

[ $fails -eq 0 ] || fail "$fails difference(s) from debugfs 1.47.0"
echo "the debugfs personality matched debugfs 1.47.0 in every case"

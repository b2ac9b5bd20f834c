#!/bin/sh
# t_line_bound.sh - a request line has debugfs's bound (8191 bytes, its
# fgets into BUFSIZ) on every input path: an endless line on standard input
# or in a -f file (f_mmp feeds `cat /dev/zero` to `debugfs -w`) leaves the
# memory where it was, and past the bound a line is read as several
# requests, exactly as `debugfs -f` reads it.
. "$(dirname "$0")/../lib/testlib.sh"
[ -r /proc/self/io ] || skip "no /proc/PID/io to see how much was read"
real=$(command -v debugfs) || skip "no debugfs to compare with"
export TZ=GMT LC_ALL=C
# peak memory is e2layout's own: no room for ASan's quarantine of freed
# blocks (256 MiB by default) in an ASan build
ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=0"
export ASAN_OPTIONS="$ASAN_OPTIONS:thread_local_quarantine_size_kb=0"
MKE2FS_CONFIG=/dev/null mke2fs -q -F -t ext4 -b 1024 "$T/img" 8M \
	>/dev/null 2>&1 || fail "mke2fs"

# rchar PID / hwm PID: bytes the process has read, its peak memory in KiB
rchar() { awk '/^rchar:/ { print $2 }' "/proc/$1/io" 2>/dev/null; }
hwm() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
# wait_read PID BYTES: until the process has read BYTES (false when it ends
# first or takes more than 60 s)
wait_read() {
	i=0
	while [ $i -lt 600 ]; do
		r=$(rchar "$1")
		[ -n "$r" ] || return 1
		[ "$r" -ge "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# bounded DESC SOURCE STDIN FROM TO LIMIT E2LAYOUT-ARGS...: e2layout reads
# SOURCE's endless output from $T/fifo (its standard input when STDIN is
# the fifo, else a -f file named in its arguments); its peak memory may not
# grow by LIMIT KiB between reading FROM and TO bytes.
bounded() {
	desc=$1 src=$2 input=$3 from=$4 to=$5 limit=$6; shift 6
	rm -f "$T/fifo"
	mkfifo "$T/fifo" || fail "mkfifo"
	# (under ASan freed memory waits in its quarantine, which is the
	# sanitizer's memory, not e2layout's: none, so that the peak is ours)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0" \
		"$E2LAYOUT" "$@" < "$input" > /dev/null 2>&1 &
	pid=$!
	sh -c "$src" > "$T/fifo" 2>/dev/null &
	feeder=$!
	wait_read $pid $from || fail "$desc: e2layout ended or read nothing"
	base=$(hwm $pid)
	wait_read $pid $to || fail "$desc: e2layout stopped reading"
	peak=$(hwm $pid)
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	kill $feeder 2>/dev/null
	wait $feeder 2>/dev/null
	[ $((peak - base)) -lt $limit ] ||
		fail "$desc: peak memory went from $base KiB to $peak KiB"
	echo "ok: $desc: peak memory $base -> $peak KiB, $((to >> 10)) KiB read"
}
mib=1048576
fifo=$T/fifo
line="yes abcdefghijklmno | tr -d '\\n'"
# e2layout's readers: 64 MiB may not add 32 MiB (a reader that kept what
# it read would grow by 63 MiB; more bytes would only cost time)
big="$mib $((64 * mib)) 32768"
bounded "NULs on a pipe, -w" "exec cat /dev/zero" "$fifo" $big -w "$T/img"
bounded "one endless line on a pipe" "$line" "$fifo" $big -w "$T/img"
bounded "an endless -f file" "exec cat /dev/zero" /dev/null $big \
	-f "$fifo" "$T/img"
bounded "an endless -f - (standard input)" "exec cat /dev/zero" "$fifo" \
	$big -f - "$T/img"
# the debugfs personality reads a pipe through readline, a byte at a time
# (as debugfs does, about 250 KiB/s): 2 MiB of one line may not add 1.5
# MiB, which a reader keeping it would (debugfs's own readline grows by some
# 7 MiB there; under ASan, with readline loaded by dlopen, 1.1 MiB was seen)
bounded "one endless line, debugfs personality" "$line" "$fifo" \
	65536 $((2 * mib)) 1536 --debugfs -w "$T/img"

# Past the bound: a -f line of 20000 bytes is three requests, as debugfs
# reads it (stdout and stderr identical in the debugfs personality; e2layout
# names itself on stderr).
{ echo pwd; printf '%020000d\n' 0 | tr 0 a; echo pwd; } > "$T/long"
debugfs -f "$T/long" "$T/img" > "$T/d.out" 2> "$T/d.err"
drc=$?
"$E2LAYOUT" --debugfs -f "$T/long" "$T/img" > "$T/e.out" 2> "$T/e.err"
erc=$?
cmp -s "$T/d.out" "$T/e.out" || fail "-f long line: stdout differs from debugfs"
cmp -s "$T/d.err" "$T/e.err" || fail "-f long line: stderr differs from debugfs"
[ $drc -eq $erc ] || fail "-f long line: exit $erc, debugfs $drc"
[ "$(grep -c 'Command not found aaa' "$T/e.err")" -eq 3 ] ||
	fail "-f long line: not read as three requests"
"$E2LAYOUT" -f "$T/long" "$T/img" > "$T/o.out" 2> "$T/o.err"
cmp -s "$T/d.out" "$T/o.out" || fail "-f long line (e2layout): stdout differs"
[ "$(grep -c '^e2layout: Command not found aaa' "$T/o.err")" -eq 3 ] ||
	fail "-f long line (e2layout): not three requests"
echo "ok: a 20000-byte -f line is three requests, as in debugfs (exit $drc)"

# The same on a pipe, in both personalities (debugfs's readline would take
# the line whole: e2layout keeps its bound there too).
"$E2LAYOUT" --debugfs "$T/img" < "$T/long" > /dev/null 2> "$T/e.err"
[ "$(grep -c 'Unknown request "aaa' "$T/e.err")" -eq 3 ] ||
	fail "piped long line (debugfs personality): not three requests"
"$E2LAYOUT" "$T/img" < "$T/long" > /dev/null 2> "$T/o.err"
[ "$(grep -c '^e2layout: Command not found aaa' "$T/o.err")" -eq 3 ] ||
	fail "piped long line (e2layout): not three requests"
echo "ok: a 20000-byte line on a pipe is three requests"
echo "request lines are bounded on every input path"

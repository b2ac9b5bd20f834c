# gate_lib.sh - helpers of the apply-gate tests (sourced after
# tests/lib/testlib.sh, not run): a small fragmented ext4 image made with
# the real mke2fs and debugfs, and an e2fsck wrapper that records its calls.

# mk_small IMG: 16 MiB ext4, 1 KiB blocks, a journal, flex groups of 4;
# files f1..f12 of about 60 KB written one after another, every other one
# removed, then "big" (about 300 KB) written into the holes (fragmented).
# mke2fs's clock is set back (its s_lastcheck is then in 2020), so that
# debugfs -w leaves s_wtime newer than s_lastcheck even within one second.
mk_small() {
	E2FSPROGS_FAKE_TIME=1600000000 mke2fs -q -F -t ext4 -b 1024 -G 4 \
		-J size=1 "$1" 16M >/dev/null 2>&1 || fail "mke2fs $1"
	mkdir -p "$T/payload"
	i=1
	while [ $i -le 12 ]; do
		[ -f "$T/payload/f$i" ] ||
			head -c $((60000 + i * 100)) /dev/urandom > "$T/payload/f$i"
		echo "write $T/payload/f$i f$i"
		i=$((i + 1))
	done | debugfs -w "$1" >/dev/null 2>&1
	i=1
	while [ $i -le 12 ]; do
		echo "rm f$i"
		i=$((i + 2))
	done | debugfs -w "$1" >/dev/null 2>&1
	[ -f "$T/payload/big" ] || head -c 300000 /dev/urandom > "$T/payload/big"
	debugfs -w -R "write $T/payload/big big" "$1" >/dev/null 2>&1
	fsck_clean "$1" || { cat "$T/fsck.out"; fail "the generated $1 is not clean"; }
}

# Extents of a file per the real debugfs (leaf lines of "ex").
extents_of() {
	debugfs -R "ex $2" "$1" 2>/dev/null | awk 'NR > 1 && $1 ~ /\/$/ {
		if ($1 + 0 == $2 + 0) n++ } END { print n + 0 }'
}

# mk_wrapper: $T/e2fsck-wrap runs the real e2fsck after appending its
# arguments to $T/fsck.calls; export E2LAYOUT_E2FSCK=$T/e2fsck-wrap to use it.
mk_wrapper() {
	real=$(command -v e2fsck) || skip "e2fsck is missing"
	cat > "$T/e2fsck-wrap" <<EOF
#!/bin/sh
echo "\$*" >> "$T/fsck.calls"
exec "$real" "\$@"
EOF
	chmod +x "$T/e2fsck-wrap"
	: > "$T/fsck.calls"
}

# calls: how many times the wrapper ran.
calls() { wc -l < "$T/fsck.calls" | tr -d ' '; }

# wait_for FILE PATTERN WHAT: polls FILE for PATTERN (up to ~30 s).
wait_for() {
	i=0
	while ! grep -q -- "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -le 300 ] || { cat "$1"; fail "never saw: $3"; }
		sleep 0.1
	done
}

# req REQUEST: sends REQUEST to the first writer and waits until it has
# run: the comment line sent after it is copied through (and flushed, as
# debugfs -f does) when the session reads it, after REQUEST's output.
nreq=0
req() {
	nreq=$((nreq + 1))
	printf '%s\n# sent %d: %s\n' "$1" $nreq "$1" >&3
	wait_for "$T/first.out" "^# sent $nreq: " "the end of request $1"
}

# first DEVICE: starts a -w session (the first writer) on DEVICE, its
# requests from fd 3 (a fifo), its output in $T/first.out.
first() {
	rm -f "$T/in" "$T/first.out"
	mkfifo "$T/in" || fail "mkfifo"
	"$E2LAYOUT" -w -f "$T/in" "$1" > "$T/first.out" 2>&1 &
	first_pid=$!
	exec 3> "$T/in"
	req "stats"
	grep -q "Block count:" "$T/first.out" ||
		{ cat "$T/first.out"; fail "the first writer did not open $1"; }
}
# done_first [STATUS]: ends the first writer; its exit status must be
# STATUS (0 by default).
done_first() {
	echo "quit" >&3
	exec 3>&-
	wait $first_pid
	rc=$?
	[ $rc = "${1:-0}" ] ||
		{ cat "$T/first.out"; fail "the first writer exited $rc"; }
}

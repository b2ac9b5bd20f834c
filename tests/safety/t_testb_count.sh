#!/bin/sh
# t_testb_count.sh - the command-line fuzzer's hang (tests/fuzz/corpus_cmdline/
# hang-testb-negative-count: "testb 100 -6", a count strtoul reads as
# 2^64 - 6) and its relatives finish at once: testb/setb/freeb and
# seti/freei refuse a negative count and stop at the end of the filesystem
# when the count is larger than the filesystem, saying so; a count that
# runs only a little past the end stays byte for byte what debugfs prints.
. "$(dirname "$0")/../lib/testlib.sh"
here=$(cd "$(dirname "$0")" && pwd)
img=$T/fs.img
cp "$E2L_IMAGES/ext4.img" "$img"
cp "$img" "$T/orig.img"
last=$(($(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Block count: *//p') - 1))
inodes=$(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Inode count: *//p')

# e2l EXPECTED-STATUS ARGS...: e2layout, which must finish within 20 s
e2l() {
	want=$1; shift
	timeout 20 "$E2LAYOUT" "$@" > "$T/out" 2> "$T/err"
	rc=$?
	[ $rc -ne 124 ] || fail "$*: still running after 20 s"
	[ $rc -eq "$want" ] || { cat "$T/out" "$T/err"; fail "$*: exit $rc, not $want"; }
}

# The fuzzer's input, as a command file on a read-write session.
e2l 1 -w -f "$here/../fuzz/corpus_cmdline/hang-testb-negative-count" "$img"
grep -qx "testb: Bad count - -6" "$T/err" || fail "testb 100 -6: $(cat "$T/err")"
for r in "setb 100 -6" "freeb 100 -1" "seti <20> -6" "freei <20> -1"; do
	e2l 1 -w -R "$r" "$img"
	grep -q "Bad \(count\|length\) - -" "$T/err" || fail "$r: $(cat "$T/err")"
	cmp -s "$img" "$T/orig.img" || fail "$r: the image changed"
done

# Larger than the filesystem: up to its last block, then one line.
e2l 0 -R "testb 100 99999999999999" "$img"
[ "$(wc -l < "$T/out")" -eq $((last - 99)) ] || fail "testb 100 99999999999999: $(wc -l < "$T/out") lines"
tail -1 "$T/out" | grep -qx "Block $last .*" || fail "testb did not stop at block $last"
grep -qx "testb: the count runs past the last block of the filesystem ($last); stopping there" "$T/err" ||
	fail "testb: $(cat "$T/err")"
e2l 0 -w -R "freeb 16000 18446744073709551615" "$img"
grep -q "stopping there" "$T/err" || fail "freeb: $(cat "$T/err")"
e2l 0 -w -R "seti <8000> 4294967296" "$img"
grep -qx "seti: the count runs past the last inode of the filesystem ($inodes); stopping there" "$T/err" ||
	fail "seti: $(cat "$T/err")"

# Past the end by less than the filesystem: what debugfs prints, byte for
# byte (same path).
cp "$T/orig.img" "$img"
for r in "testb $((last - 1)) 3" "testb $last 1" "testb 5 2" "testb $((last - 1)) 1000"; do
	debugfs -R "$r" "$img" > "$T/d.out" 2> "$T/d.err"
	sed -i '/^debugfs [0-9]/d' "$T/d.err"
	e2l 0 -R "$r" "$img"
	cmp -s "$T/d.out" "$T/out" && cmp -s "$T/d.err" "$T/err" ||
		{ diff "$T/d.err" "$T/err"; fail "$r differs from debugfs"; }
done
echo "ok: negative counts refused, huge ones stopped at the end, small ones as debugfs"
exit 0

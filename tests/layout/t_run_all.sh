#!/bin/sh
# t_run_all.sh - the test runner on a tree of its own (E2L_TEST_ROOT): with
# E2L_JOBS=3 three tests that each wait for the other two run at once;
# tests marked "# e2l: serial" overlap no other test; every line it prints
# is a whole result line, a failure's indented log, or the summary; the
# summary counts, the "failed:" line and the exit status say what failed;
# E2L_TESTS picks tests; a unit binary runs beside the scripts; test-times
# keeps each test's wall and CPU seconds.
. "$(dirname "$0")/../lib/testlib.sh"
runner=$(cd "$(dirname "$0")/.." && pwd)/run_all.sh
root=$T/tests; build=$T/build; ev=$T/events
mkdir -p "$root/a" "$root/b" "$root/unit" "$build/tests"

# mk NAME BODY [MARK]: a script test that logs its start and end to $ev.
mk() {
	{
		echo '#!/bin/sh'
		echo "# $1 - a test of the runner's own"
		[ -n "${3:-}" ] && echo "$3"
		echo "echo \"start $1 \$(date +%s%N)\" >> $ev"
		printf '(\n%s\n)\n' "$2"
		echo "rc=\$?; echo \"end $1 \$(date +%s%N)\" >> $ev; exit \$rc"
	} > "$root/$1.sh"
}
# the three that meet: each waits (up to 20 s) until all three started
meet='i=0; while [ "$(grep -c "^start a/t_meet" '"$ev"')" -lt 3 ]; do
	i=$((i + 1)); [ $i -le 200 ] || { echo "alone"; exit 1; }; sleep 0.1
done; seq 1 2000
j=0; while [ $j -lt 100000 ]; do j=$((j + 1)); done'
mk a/t_meet1 "$meet"; mk a/t_meet2 "$meet"; mk a/t_meet3 "$meet"
mk b/t_ser1 'sleep 0.5; echo serial one' '# e2l: serial - a runner test'
mk b/t_ser2 'sleep 0.5; echo serial two' '# e2l: serial - a runner test'
mk b/t_fail 'seq 1 5 | sed "s/^/log line /"; exit 3'
mk b/t_skip 'echo "skip: nothing to do here"; exit 77'
printf '#!/bin/sh\necho unit ran >> %s\n' "$ev" > "$build/tests/test_one"
chmod +x "$build/tests/test_one"

E2L_TESTS= E2L_TEST_ROOT=$root E2L_BUILD=$build E2L_IMAGES=$T E2L_JOBS=3 \
	TMPDIR=$T sh "$runner" > "$T/out" 2>&1
rc=$?
on_fail() { cat "$T/out"; cat "$ev"; }
[ $rc -ne 0 ] || fail "a failing test, yet the runner exits 0"
tail -1 "$T/out" | grep -qx "6 passed, 1 failed, 1 skipped" ||
	fail "the summary: $(tail -1 "$T/out")"
grep -qx "failed: b/t_fail" "$T/out" || fail "no failed: line naming b/t_fail"
for n in a/t_meet1 a/t_meet2 a/t_meet3 b/t_ser1 b/t_ser2 unit/test_one; do
	grep -q "^PASS  $n ([0-9]*s, [0-9]*\.[0-9]s CPU)$" "$T/out" || fail "no PASS line for $n"
done
grep -q "^FAIL  b/t_fail (exit 3, [0-9]*s, [0-9]*\.[0-9]s CPU)$" "$T/out" || fail "no FAIL line"
grep -q "^      log line 5$" "$T/out" || fail "the failure's log is not shown"
grep -q "^SKIP  b/t_skip: skip: nothing to do here$" "$T/out" ||
	fail "no SKIP line with the reason"
grep -q "unit ran" "$ev" || fail "the unit binary did not run"
# nothing but whole lines: results, indented logs, the phase line, summary
grep -v -e '^PASS  ' -e '^FAIL  ' -e '^SKIP  ' -e '^      ' -e '^--- serial' -e '^--- times: ' \
	-e '^failed: ' -e '^[0-9]* passed, ' "$T/out" | grep -q . &&
	fail "a line that is no result: $(grep -v -e '^PASS' -e '^FAIL' -e '^SKIP' -e '^      ' "$T/out" | head -1)"
# serial tests overlap nothing: no other test starts or ends inside one
awk '$1 == "start" { s[$2] = $3 } $1 == "end" { e[$2] = $3 }
     END { for (a in s) if (a ~ /t_ser/) for (b in s) if (b != a &&
	     s[b] < e[a] && e[b] > s[a]) { print a, "overlaps", b; bad = 1 }
	   exit bad }' "$ev" > "$T/overlap" || fail "$(cat "$T/overlap")"
grep -q "^--- times: parallel (3 at a time): [0-9]*s wall, [0-9]*s CPU$" "$T/out" ||
	fail "no parallel section's times"
grep -q "^--- times: serial: [0-9]*s wall, [0-9]*s CPU$" "$T/out" ||
	fail "no serial section's times"
[ -s "$build/test-times" ] || fail "no test-times kept for the next run"
# each line: wall seconds, name, CPU seconds (user+sys, the children too):
# t_meet1's seq and loop are counted, though they run in a child
awk 'NF != 3 || $1 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+\.[0-9]$/ { bad = 1 }
     END { exit bad }' "$build/test-times" ||
	fail "test-times lines are not WALL NAME CPU: $(head -3 "$build/test-times")"
awk '$2 == "a/t_meet1" && $3 > 0 { ok = 1 } END { exit !ok }' \
	"$build/test-times" || fail "no CPU counted for a/t_meet1: $(cat "$build/test-times")"

# E2L_TESTS: only the matching tests
: > "$ev"
E2L_TESTS=t_ser E2L_TEST_ROOT=$root E2L_BUILD=$build E2L_IMAGES=$T \
	E2L_JOBS=3 TMPDIR=$T sh "$runner" > "$T/out" 2>&1 || fail "E2L_TESTS=t_ser run failed"
tail -1 "$T/out" | grep -qx "2 passed, 0 failed, 0 skipped" ||
	fail "E2L_TESTS=t_ser ran: $(tail -1 "$T/out")"
grep -q -e meet -e "unit ran" "$ev" && fail "E2L_TESTS ran a test that does not match"
E2L_JOBS=x E2L_TEST_ROOT=$root E2L_BUILD=$build E2L_IMAGES=$T \
	sh "$runner" > "$T/out" 2>&1 && fail "E2L_JOBS=x accepted"
grep -q "E2L_JOBS must be" "$T/out" || fail "E2L_JOBS=x: no message"
echo "ok: parallel, serial apart, whole lines, summary, E2L_TESTS"
exit 0

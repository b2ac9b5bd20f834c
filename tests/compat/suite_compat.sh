#!/bin/sh
# suite_compat.sh - e2fsprogs 1.47.0's own debugfs tests with e2layout in
# debugfs's place (../shared/e2fsprogs-suite/run.sh).
#   suite_compat.sh [--tests]   the suite with the real debugfs (the
#       control) and with e2layout: fails unless every test that passes
#       with debugfs passes with e2layout
#   suite_compat.sh --calls     every debugfs call of the suite through both
#       programs from the same files (tests/compat/dfs_pair.sh, on a fixed
#       clock): stdout, stderr, exit status and the files each call leaves
#       compared; fails on any difference that tests/compat/suite_known.txt
#       does not list as deliberate
# Needs E2LAYOUT; E2L_SUITE (default ../shared/e2fsprogs-suite beside the
# checkout) and E2L_SUITE_WORK (default a directory under $TMPDIR, removed
# afterwards unless set).  Exit 77 when the suite or debugfs is missing.
set -u
: "${E2LAYOUT:?}"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
mode=${1:---tests}
suite=${E2L_SUITE:-$top/../shared/e2fsprogs-suite}
if [ ! -x "$suite/run.sh" ] && [ ! -f "$suite/run.sh" ]; then
	echo "skip: no e2fsprogs suite at $suite (it lives beside the checkout, in ../shared)"
	exit 77
fi
real=$(command -v debugfs 2>/dev/null) ||
	{ echo "skip: no debugfs to compare with"; exit 77; }
command -v bash >/dev/null 2>&1 || { echo "skip: run.sh needs bash"; exit 77; }
case "$(debugfs -V 2>&1 | head -1)" in
*" 1.47.0 "*) ;;
*) echo "skip: the suite is 1.47.0's; debugfs here is $(debugfs -V 2>&1 | head -1)"
   exit 77 ;;
esac
if [ -n "${E2L_SUITE_WORK:-}" ]; then
	work=$E2L_SUITE_WORK
	mkdir -p "$work" || exit 1
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/e2l-suite.XXXXXX") || exit 1
	trap 'rm -rf "$work"' EXIT INT TERM
fi
jobs=${E2L_JOBS:-2}

# run.sh STANDIN NAME: one run; its summary in $work/NAME/results/SUMMARY
run() {
	t0=$(date +%s)
	bash "$suite/run.sh" "$1" "$work/$2" "$jobs" > "$work/$2.log" 2>&1
	echo "$2: $(tail -1 "$work/$2.log") ($(($(date +%s) - t0)) s)"
}

if [ "$mode" = --tests ]; then
	# The control run depends on the installed e2fsprogs and the suite
	# only: kept in $E2L_BUILD/compat for the next run while both stay.
	key=$( { debugfs -V 2>&1; ls -lR "$suite"; } | cksum)
	cache=${E2L_BUILD:+$E2L_BUILD/compat/suite-debugfs.ok}
	if [ -n "$cache" ] && [ -f "$cache" ] &&
	   [ "$(head -1 "$cache")" = "$key" ]; then
		sed 1d "$cache" > "$work/want"
		echo "debugfs: $(wc -l < "$work/want") tests pass (the control" \
		     "run kept in $cache)"
	else
		run "$real" debugfs
		grep ' ok$' "$work/debugfs/results/SUMMARY" | cut -d' ' -f1 |
			sort > "$work/want"
		if [ -n "$cache" ] && mkdir -p "${cache%/*}"; then
			{ echo "$key"; cat "$work/want"; } > "$cache"
		fi
	fi
	run "$E2LAYOUT" e2layout
	grep ' ok$' "$work/e2layout/results/SUMMARY" | cut -d' ' -f1 | sort \
		> "$work/got"
	[ -s "$work/want" ] || { echo "FAIL: no test passed with debugfs"; exit 1; }
	missing=$(comm -23 "$work/want" "$work/got")
	if [ -n "$missing" ]; then
		for t in $missing; do
			echo "FAIL: $t passes with debugfs, not with e2layout:"
			sed 's/^/    /' "$work/e2layout/results/$t.failed" \
				2>/dev/null | head -20
		done
		exit 1
	fi
	echo "every test that passes with debugfs 1.47.0 passes with e2layout" \
	     "($(wc -l < "$work/want") tests)"
	exit 0
fi

[ "$mode" = --calls ] || { echo "usage: $0 [--tests|--calls]"; exit 2; }
cc -shared -fPIC -O2 -o "$work/fixed_clock.so" "$here/fixed_clock.c" -ldl ||
	{ echo "FAIL: could not build fixed_clock.so"; exit 1; }
rm -rf "$work/pairs"
E2L_PAIR_E2L=$E2LAYOUT E2L_PAIR_LOG=$work/pairs E2L_PAIR_REAL=$real \
E2L_PAIR_PRELOAD=$work/fixed_clock.so
export E2L_PAIR_E2L E2L_PAIR_LOG E2L_PAIR_REAL E2L_PAIR_PRELOAD
run "$here/dfs_pair.sh" pairs-run
calls=$work/pairs/calls.tsv
[ -s "$calls" ] || { echo "FAIL: no debugfs call was recorded"; exit 1; }
# suite_known.txt: "TEST<TAB>VERDICT<TAB>why" lines, deliberate differences
known=$here/suite_known.txt
bad=0
total=0 same=0 deliberate=0
tab=$(printf '\t')
while IFS="$tab" read -r t n verdict secs args; do
	total=$((total + 1))
	# the image's random name is no part of the verdict
	v=$(printf '%s' "$verdict" | sed 's/\(file\|dir\):e2fsprogs-tmp-[^. ]*\.[^ .]*/\1:IMG/g')
	if [ "$verdict" = same ]; then
		same=$((same + 1))
	elif grep -q "^$t$tab$v$tab" "$known" 2>/dev/null; then
		deliberate=$((deliberate + 1))
	else
		bad=$((bad + 1))
		echo "DIFFERS: $t call $n: $v   (debugfs $(printf '%.150s' "$args"))"
		[ -f "$work/pairs/diffs/$t.$n" ] &&
			sed -n '3,30s/^/    /p' "$work/pairs/diffs/$t.$n"
	fi
done < "$calls"
echo "$total debugfs calls: $same identical, $deliberate deliberate" \
     "differences (suite_known.txt), $bad other"
[ $bad -eq 0 ]

#!/bin/sh
# run_all.sh - runs every test tier: the cmocka unit binaries, then each
# tests/*/t_*.sh script (exit 0 pass, 77 skip, anything else fail).
# Needs E2LAYOUT, E2L_IMAGES and E2L_BUILD (the Makefile sets them).
# Set E2L_TESTS to a pattern to run only matching tests.
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}" "${E2L_BUILD:?}"
export E2LAYOUT E2L_IMAGES E2L_BUILD
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=99}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=98}"
pattern=${E2L_TESTS:-}
pass=0; fail=0; skip=0; failed=""
top=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp -d)

for t in "$E2L_BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	case "$name" in *"$pattern"*) ;; *) continue ;; esac
	if "$t" > "$log/$name.out" 2>&1; then
		pass=$((pass + 1)); echo "PASS  unit/$name"
	else
		fail=$((fail + 1)); failed="$failed unit/$name"
		echo "FAIL  unit/$name"; sed 's/^/      /' "$log/$name.out" | tail -40
	fi
done

for t in "$top"/tests/*/t_*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$(dirname "$t")")/$(basename "$t" .sh)
	case "$name" in *"$pattern"*) ;; *) continue ;; esac
	start=$(date +%s)
	sh "$t" > "$log/out" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); echo "PASS  $name (${secs}s)"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1)); echo "SKIP  $name: $(tail -1 "$log/out")"
	else
		fail=$((fail + 1)); failed="$failed $name"
		echo "FAIL  $name (exit $rc)"; sed 's/^/      /' "$log/out" | tail -60
	fi
done
rm -rf "$log"
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]

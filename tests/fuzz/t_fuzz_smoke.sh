#!/bin/sh
# t_fuzz_smoke.sh - a short libFuzzer run (10 s per harness) and a replay of
# every committed crash input, as part of `make check-asan` only (the
# harnesses need clang and the sanitizer build).
set -u
: "${E2L_BUILD:?}"
case "$E2L_BUILD" in
*build-asan) ;;
*)	echo "skip: fuzz smoke runs only under make check-asan"; exit 77 ;;
esac
if ! command -v clang >/dev/null 2>&1; then
	echo "skip: clang is not installed (make deps installs it)"
	exit 77
fi
top=$(cd "$(dirname "$0")/../.." && pwd)
make -s -C "$top" BUILD="$E2L_BUILD" SAN=1 fuzz-build >"$E2L_BUILD/fuzz-build.log" 2>&1 || {
	tail -20 "$E2L_BUILD/fuzz-build.log"
	echo "fuzz harnesses failed to build"
	exit 1
}
exec sh "$top/tests/fuzz/run_fuzz.sh" "$E2L_BUILD/fuzz" "${FUZZ_SMOKE_SECONDS:-5}"

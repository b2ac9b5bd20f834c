#!/bin/sh
# t_corpus.sh - robustness: every image of e2fsprogs's regression corpus
# (mostly deliberately corrupted filesystems) goes through the inspection
# requests; e2layout must answer 0, 1 or 3 with sentences on stderr, never
# hang, crash or trip a sanitizer.  The corpus is ../shared/corpus/
# e2fsprogs-tests beside the clone (E2L_CORPUS overrides); absent, we skip.
set -u
: "${E2LAYOUT:?}"
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${E2L_CORPUS:-$top/../shared/corpus/e2fsprogs-tests}
if [ ! -d "$corpus" ]; then
	echo "skip: no e2fsprogs test-image corpus at $corpus"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/fail" "$tmp/ok"
cat > "$tmp/requests" <<'REQ'
stats
groups
flex
journal
frag
map
stat <2>
stat <8>
ls -l /
REQ

# A batch of images: decompress each alone, run the requests, judge.
cntrl=$(printf '[\001-\010\013-\037\177]')
export cntrl
cat > "$tmp/batch.sh" <<'ONE'
#!/bin/sh
set -u
tmp=$1; shift
work="$tmp/w.$$"
for src in "$@"; do
	name=${src##*/}
	rm -rf "$work"; mkdir "$work"
	case "$src" in
	*.tar.bz2) tar -xjf "$src" -C "$work" 2>/dev/null ;;
	*.bz2) bzip2 -dc "$src" > "$work/image" 2>/dev/null ;;
	*.gz) gzip -dc "$src" > "$work/image" 2>/dev/null ;;
	esac
	for img in "$work"/*; do
		[ -f "$img" ] || continue
		label=$name
		[ "$img" = "$work/image" ] || label="$name:${img##*/}"
		timeout -k 5 20 "$E2LAYOUT" -f "$tmp/requests" "$img" \
			> "$work/out" 2> "$work/err" < /dev/null
		rc=$?
		why=""
		case $rc in
		0|1|3) ;;
		124|137) why="timed out (exit $rc)" ;;
		98|99) why="sanitizer report (exit $rc)" ;;
		*) if [ $rc -ge 128 ]; then
			why="killed by signal $((rc - 128))"
		   else why="unexpected exit status $rc"; fi ;;
		esac
		if grep -q -e AddressSanitizer -e LeakSanitizer \
			-e 'runtime error' "$work/err"; then
			why="${why:+$why; }sanitizer report on stderr"
		elif [ $rc -ne 0 ] && [ ! -s "$work/err" ]; then
			why="${why:+$why; }exit $rc without a message on stderr"
		elif LC_ALL=C grep -q "$cntrl" "$work/err"; then
			why="${why:+$why; }control characters on stderr"
		fi
		if [ -n "$why" ]; then
			{
				echo "FAIL $label: $why"
				echo "  --- stdout (tail)"
				tail -n 8 "$work/out" | cut -c1-200 |
					sed 's/^/  | /'
				echo "  --- stderr (tail)"
				tail -n 12 "$work/err" | cut -c1-200 |
					sed 's/^/  | /'
			} > "$tmp/fail/$label"
		else
			echo "$rc" > "$tmp/ok/$label"
		fi
	done
done
rm -rf "$work"
ONE

start=$(date +%s)
find "$corpus" -maxdepth 1 -type f \( -name '*.gz' -o -name '*.bz2' \) |
	sort | xargs -P2 -n 20 sh "$tmp/batch.sh" "$tmp"
secs=$(( $(date +%s) - start ))
nok=$(ls "$tmp/ok" | wc -l)
nfail=$(ls "$tmp/fail" | wc -l)
n0=$(grep -l '^0$' "$tmp/ok"/* 2>/dev/null | wc -l)
n3=$(grep -l '^3$' "$tmp/ok"/* 2>/dev/null | wc -l)
if [ "$nfail" -gt 0 ]; then
	cat "$tmp/fail"/*
	echo "$nfail of $((nok + nfail)) images failed (${secs}s)"
	exit 1
fi
if [ "$nok" -lt 100 ]; then
	echo "only $nok images ran; is the corpus complete?"
	exit 1
fi
echo "$nok images: $n0 all requests ok, $((nok - n0 - n3)) some failed" \
     "cleanly, $n3 not openable (${secs}s)"

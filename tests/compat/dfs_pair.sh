#!/bin/bash
# dfs_pair.sh - a debugfs stand-in for e2fsprogs's suite (run.sh) that runs
# every call twice from the same starting files, once through the real
# debugfs and once through e2layout's debugfs personality, and records
# every difference in stdout, stderr, exit status and the files the call
# left behind; then it runs e2layout once more on the test's own terminal
# streams (so stdout and stderr interleave as the test expects) and leaves
# that result for the test.  bash: debugfs's messages carry argv[0], which
# only `exec -a` sets.
# Environment: E2L_PAIR_E2L (the e2layout binary), E2L_PAIR_LOG (a
# directory: calls.tsv gets "TEST<TAB>N<TAB>VERDICT<TAB>SECONDS<TAB>ARGS"
# per call, diffs/TEST.N the details), E2L_PAIR_REAL (default: debugfs on
# PATH), E2L_PAIR_PRELOAD (a fixed_clock.so for the two compared runs, so
# that the times they stamp agree).
set -u
e2l=${E2L_PAIR_E2L:?}
log=${E2L_PAIR_LOG:?}
real=${E2L_PAIR_REAL:-$(command -v debugfs || echo /sbin/debugfs)}
maxin=$((4 * 1024 * 1024))	# more standard input than this: not compared

w=$(mktemp -d "${TMPDIR:-/tmp}/dfs-pair.XXXXXX") || exit 1
trap 'rm -rf "$w"' EXIT

# The test calling us: the test_one process up the tree names it.
test_name() {
	local pid=$PPID cmd i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -r "/proc/$pid/cmdline" ] || break
		cmd=$(tr '\0' ' ' < "/proc/$pid/cmdline")
		case "$cmd" in
		*test_one*) cmd=${cmd% }; echo "${cmd##*/}"; return ;;
		esac
		pid=$(awk '{ print $4 }' "/proc/$pid/stat" 2>/dev/null)
		[ -n "$pid" ] && [ "$pid" -gt 1 ] || break
	done
	echo unknown
}
tname=$(test_name)

start=$(date +%s)
run_e2l() { (exec -a debugfs "$e2l" "$@"); }
# the two compared runs, on the fixed clock when there is one
fixed() {
	[ -n "${E2L_PAIR_PRELOAD:-}" ] || return 0
	export LD_PRELOAD=$E2L_PAIR_PRELOAD
	# an ASan build must accept a preloaded library before its runtime
	export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"
}
cmp_e2l() { (fixed; exec -a debugfs "$e2l" "$@"); }
cmp_real() { (fixed; exec -a debugfs "$real" "$@"); }

# Standard input, kept so that both programs read the same.
: > "$w/in"
if [ ! -t 0 ]; then
	head -c $((maxin + 1)) > "$w/in"
	if [ "$(stat -c %s "$w/in")" -gt $maxin ]; then
		# endless input (f_mmp's cat /dev/zero): e2layout alone
		mkdir -p "$log"
		printf '%s\t-\tnot compared (endless input)\t-\t%s\n' \
			"$tname" "$*" >> "$log/calls.tsv"
		{ cat "$w/in"; rm -f "$w/in"; exec cat; } | run_e2l "$@"
		exit $?
	fi
fi

# Every word of the arguments, of a -R request, of a -f file and of the
# standard input that could name a file here or under /tmp: the files a
# call may read, change or create.
words() {
	local a prev=
	for a in "$@"; do
		printf '%s\n' "$a"
		case "$prev" in
		-R) printf '%s\n' "$a" | tr ' \t' '\n\n' ;;
		-f) [ "$a" != - ] && [ -f "$a" ] && tr ' \t' '\n\n' < "$a" ;;
		esac
		prev=$a
	done
	[ "$(stat -c %s "$w/in")" -lt 1048576 ] && tr ' \t\0' '\n\n\n' < "$w/in"
}
n=0
: > "$w/paths"
words "$@" | tr -d '"' | sort -u | while IFS= read -r p; do
	case "$p" in
	""|-*|"<"*) continue ;;
	/tmp/*|/var/tmp/*) abs=$p ;;
	/*) continue ;;
	*) abs=$PWD/$p ;;
	esac
	printf '%s\n' "$abs"
done > "$w/paths"
# Does the call open anything read-write?  (Without -w libext2fs writes
# nothing to the image; a large image is then not copied at all.)
rw=
words "$@" | grep -qx -e -w -e init_filesys && rw=1
mkdir -p "$w/s" "$w/d"
i=0
while IFS= read -r p; do	# snapshot: N<TAB>existed<TAB>path
	i=$((i + 1))
	if [ -f "$p" ] && [ -z "$rw" ] &&
	   [ "$(stat -c %s "$p")" -gt $((64 * 1024 * 1024)) ]; then
		continue
	elif [ -f "$p" ]; then
		cp --sparse=always "$p" "$w/s/$i" 2>/dev/null || continue
		printf '%s\t1\t%s\n' $i "$p"
	elif [ ! -e "$p" ]; then
		printf '%s\t0\t%s\n' $i "$p"
	fi
done < "$w/paths" > "$w/files"

# Puts every file back as it was before the call; keeps what the call
# left in $1/N first (when $1 is given).
restore() {
	local keep=${1:-} k e p
	while IFS="$(printf '\t')" read -r k e p; do
		if [ -n "$keep" ]; then
			if [ -f "$p" ]; then
				cp --sparse=always "$p" "$keep/$k"
			elif [ -d "$p" ]; then
				mkdir -p "$keep/$k.dir"
				cp -a "$p/." "$keep/$k.dir/" 2>/dev/null
			fi
		fi
		if [ "$e" = 1 ]; then
			cmp -s "$w/s/$k" "$p" || cp --sparse=always "$w/s/$k" "$p"
		else
			rm -rf "$p" 2>/dev/null
		fi
	done < "$w/files"
}

cmp_real "$@" < "$w/in" > "$w/d.out" 2> "$w/d.err"
drc=$?
restore "$w/d"
mkdir -p "$w/e"
cmp_e2l "$@" < "$w/in" > "$w/e.out" 2> "$w/e.err"
erc=$?
restore "$w/e"

# The verdict: what differs.
what=
cmp -s "$w/d.out" "$w/e.out" || what="$what stdout"
cmp -s "$w/d.err" "$w/e.err" || what="$what stderr"
[ $drc = $erc ] || what="$what status($drc/$erc)"
while IFS="$(printf '\t')" read -r k e p; do
	if [ -f "$w/d/$k" ] || [ -f "$w/e/$k" ]; then
		cmp -s "$w/d/$k" "$w/e/$k" 2>/dev/null ||
			what="$what file:${p##*/}"
	elif [ -d "$w/d/$k.dir" ] || [ -d "$w/e/$k.dir" ]; then
		diff -r "$w/d/$k.dir" "$w/e/$k.dir" >/dev/null 2>&1 ||
			what="$what dir:${p##*/}"
	fi
done < "$w/files"
mkdir -p "$log/diffs"
num=$(ls "$log/diffs" 2>/dev/null | grep -c "^$tname\.") || num=0
num=$((num + 1))
verdict=${what:-same}
verdict=${verdict# }
printf '%s\t%s\t%s\t%s\t%s\n' "$tname" "$num" "$verdict" \
	$(($(date +%s) - start)) "$*" >> "$log/calls.tsv"
{
	echo "call: debugfs $*   (test $tname)"
	echo "verdict: $verdict"
	for ch in out err; do
		cmp -s "$w/d.$ch" "$w/e.$ch" && continue
		echo "std$ch (--- debugfs, +++ e2layout):"
		diff -u "$w/d.$ch" "$w/e.$ch" | sed -n '3,40p'
	done
	while IFS="$(printf '\t')" read -r k e p; do
		[ -f "$w/d/$k" ] || [ -f "$w/e/$k" ] || continue
		cmp -s "$w/d/$k" "$w/e/$k" 2>/dev/null && continue
		echo "file $p: $(cmp -l "$w/d/$k" "$w/e/$k" 2>&1 | wc -l) bytes differ; first:"
		cmp -l "$w/d/$k" "$w/e/$k" 2>&1 | head -5
	done < "$w/files"
} > "$log/diffs/$tname.$num"

# The test's own run: e2layout from the same start, on its streams.
run_e2l "$@" < "$w/in"

#!/bin/sh
# t_write_compat.sh - runs each tests/compat/writes/*.script through
# `debugfs -w -f` and `e2layout -w -f` on copies of the same image and
# compares the output and the resulting images byte for byte.
#
# Script header comments (any line of the script):
#   # images: NAME...    the $E2L_IMAGES/NAME.img to run on (default: ext4
#                        ext2-1k); "-" runs it on none (e.g. a helper script)
#   # equivalent: WHY    the images may legitimately differ (say why, e.g. a
#                        time debugfs takes from the real clock); then the
#                        images must be equivalent: the same dumpe2fs output
#                        (times and checksums aside), the same e2fsck -fn
#                        report and the same file contents (rdump + md5sum)
#   # stdin: FILE        the runs' standard input is writes/FILE (modify_inode
#                        reads its answers there); "script" runs the script
#                        itself as `-f -` from the standard input, where the
#                        answers are the lines after the request.  Default:
#                        /dev/null
# A complete run (no pattern) leaves its per-request results in
# $E2L_BUILD/compat/write.results and regenerates debugfs-compat/STATUS.md
# with the read harness's (tests/compat/gen_status.sh).
# When e2layout has set_current_time, both runs start with
# "set_current_time 20240101000000" and byte identity is expected.  Without
# it, images that differ only in s_wtime (and the superblock checksum that
# covers it) count as identical: libext2fs stamps the superblock with the
# real clock when it writes it.
# Usage: t_write_compat.sh [SCRIPT-NAME-PATTERN]   (E2L_WRITES also works)
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
command -v debugfs >/dev/null || { echo "no debugfs"; exit 77; }
command -v dumpe2fs >/dev/null || { echo "no dumpe2fs"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
pattern=${1:-${E2L_WRITES:-}}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/d" "$t/e"

prefix=
if "$E2LAYOUT" -R "help set_current_time" "$E2L_IMAGES/ext4.img" \
	>/dev/null 2>&1; then
	prefix="set_current_time 20240101000000"
fi

# Bytes (1-based, as cmp -l counts) that may differ when the clock is real:
# s_wtime, s_wtime_hi and s_checksum of the primary superblock.
only_wtime() {	# CMP-L-OUTPUT-FILE
	[ -z "$prefix" ] || return 1
	awk '{ o = $1 - 1025
	       if (!((o >= 48 && o < 52) || o == 0x274 ||
		     (o >= 1020 && o < 1024))) bad = 1 }
	     END { exit bad }' "$1"
}

# The things an equivalent image must share, written to $2.
describe() {	# DIR OUT
	(
	cd "$1" || exit 1
	dumpe2fs fs.img 2>&1 |
		sed -e '/^Last write time:/d' -e '/^Checksum:/d' \
		    -e '/^Last mount time:/d' -e '/^Last checked:/d' \
		    -e '/^Filesystem created:/d' \
		    -e 's/csum 0x[0-9a-f]*//g' -e '/^dumpe2fs 1\./d'
	echo "== e2fsck"	# (bounded: a half-made filesystem can keep it busy)
	timeout 60 e2fsck -fn fs.img > e2fsck.out 2>&1
	echo "e2fsck exit $?"
	# (its messages may quote an inode's mtime: a time, set aside too)
	sed 's/mod time [^)]*)/mod time)/' e2fsck.out
	rm -f e2fsck.out
	echo "== files"
	rm -rf files
	mkdir files
	debugfs -R "rdump / files" fs.img 2>&1 | sed '/^debugfs 1\./d'
	(cd files && find . -print | sort | while IFS= read -r f; do
		if [ -f "$f" ] && [ ! -L "$f" ]; then
			printf '%s %s\n' "$f" "$(md5sum < "$f" | cut -c1-32)"
		else
			printf '%s %s\n' "$f" "$(stat -c %F "$f")"
		fi
	done)
	rm -rf files
	) > "$2"
}

case "${E2L_BUILD:-}" in *asan*) san=1 ;; *) san= ;; esac
results=$t/results	# "REQUEST<TAB>1|0<TAB>CASE", one per request a case used
: > "$results"
tab=$(printf '\t')

total=0 bad=0
printf '%-28s %-10s %s\n' SCRIPT IMAGE RESULT
for script in "$top"/tests/compat/writes/*.script; do
	[ -f "$script" ] || continue
	name=$(basename "$script" .script)
	case "$name" in *"$pattern"*) ;; *) continue ;; esac
	images=$(sed -n 's/^# images: *//p' "$script" | head -1)
	[ -n "$images" ] || images="ext4 ext2-1k"
	[ "$images" = "-" ] && continue
	equiv=$(sed -n 's/^# equivalent: *//p' "$script" | head -1)
	stdin=$(sed -n 's/^# stdin: *//p' "$script" | head -1)
	{ [ -n "$prefix" ] && echo "$prefix"; cat "$script"; } > "$t/script"
	case "$stdin" in
	"")	in=/dev/null; f=$t/script ;;
	script)	in=$t/script; f=- ;;
	*)	in=$top/tests/compat/writes/$stdin; f=$t/script ;;
	esac
	reqs=$(sed -e 's/^[[:space:]]*//' -e '/^#/d' -e '/^$/d' "$t/script" |
		awk '{ print $1 }' | sort -u)
	for img in $images; do
		[ -f "$E2L_IMAGES/$img.img" ] || {
			printf '%-28s %-10s %s\n' "$name" "$img" "no image"
			continue
		}
		total=$((total + 1))
		cp "$E2L_IMAGES/$img.img" "$t/d/fs.img"
		cp "$E2L_IMAGES/$img.img" "$t/e/fs.img"
		(cd "$t/d" && debugfs -w -f "$f" fs.img < "$in" \
			> "$t/d.out" 2> "$t/d.err0")
		sed '1{/^debugfs 1\./d}' "$t/d.err0" > "$t/d.err"
		(cd "$t/e" && "$E2LAYOUT" -w -f "$f" fs.img < "$in" \
			> "$t/e.out" 2> "$t/e.err")
		rc=$?
		res=
		if [ $rc -gt 1 ]; then
			res="differs (e2layout exit $rc)"
		elif ! cmp -s "$t/d.out" "$t/e.out"; then
			res="differs (stdout)"
		elif ! cmp -s "$t/d.err" "$t/e.err"; then
			res="differs (stderr)"
		fi
		if [ -z "$res" ]; then
			cmp -l "$t/d/fs.img" "$t/e/fs.img" > "$t/cmp" 2>/dev/null
			if [ ! -s "$t/cmp" ]; then
				res="identical bytes"
			elif only_wtime "$t/cmp"; then
				res="identical bytes (but s_wtime)"
			else
				describe "$t/d" "$t/d.desc"
				describe "$t/e" "$t/e.desc"
				if ! cmp -s "$t/d.desc" "$t/e.desc"; then
					res="differs (image)"
				elif [ -n "$equiv" ]; then
					res="equivalent"
				else
					res="differs (bytes; equivalent but no '# equivalent:' reason)"
				fi
			fi
		fi
		printf '%-28s %-10s %s\n' "$name" "$img" "$res"
		case "$res" in differs*) ok=0 ;; *) ok=1 ;; esac
		printf '%s\n' "$reqs" | sed "s/\$/$tab$ok$tab$name @ $img/" \
			>> "$results"
		case "$res" in
		differs*)
			bad=$((bad + 1))
			diff "$t/d.out" "$t/e.out" | head -20
			diff "$t/d.err" "$t/e.err" | head -20
			[ -f "$t/d.desc" ] && diff "$t/d.desc" "$t/e.desc" |
				head -20
			head -5 "$t/cmp" 2>/dev/null
			;;
		esac
		rm -f "$t/d.desc" "$t/e.desc" "$t/cmp"
	done
done
echo "$total runs, $bad differ${prefix:+ (with $prefix)}"
if [ -z "$pattern" ] && [ -n "${E2L_BUILD:-}" ]; then
	mkdir -p "$E2L_BUILD/compat" &&
		cp "$results" "$E2L_BUILD/compat/write.results"
	[ -n "$san" ] || sh "$top/tests/compat/gen_status.sh" --check ||
		bad=$((bad + 1))
fi
[ "$bad" -eq 0 ]

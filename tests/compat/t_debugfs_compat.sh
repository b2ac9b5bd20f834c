#!/bin/sh
# t_debugfs_compat.sh - the debugfs compatibility harness: every request of
# tests/compat/requests/*.req (one per line) and every requests/*.script
# (a -f file) runs under the real debugfs and under e2layout on every test
# image; stdout and stderr must be byte-identical (debugfs's banner aside).
# Prints a table per command and regenerates debugfs-compat/STATUS.md.
# In a .req file, "#@ images: ext4 inline" limits the lines after it to those
# images ("#@ images: all" lifts the limit); "#@ images: none" runs them with
# no filesystem open (debugfs with no device, e2layout as debugfs, the only
# way it runs without one).  Needs E2LAYOUT and E2L_IMAGES;
# E2L_KEEP_ODD=PATH keeps a copy of the extra odd.img it makes.
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
reqdir=${E2L_COMPAT_REQUESTS:-$here/requests}	# another set, for trying
TZ=GMT
export TZ

if ! command -v debugfs >/dev/null 2>&1; then
	echo "debugfs is not installed: no oracle"
	exit 77
fi
ver=$(debugfs -V 2>&1 | head -1)
case "$ver" in
*" 1.47.0 "*) ;;
*)	echo "the oracle must be debugfs 1.47.0, found: $ver"; exit 77 ;;
esac
images=$(ls "$E2L_IMAGES"/*.img 2>/dev/null)
# Under the sanitizer build the point is memory errors, not identity, which
# the plain build proves on every image: a few images keep it quick
# (E2L_COMPAT_ALL=1 runs them all), and STATUS.md is left alone.
case "${E2L_BUILD:-}" in *asan*) san=1 ;; *) san= ;; esac
if [ -n "$san" ] && [ -z "${E2L_COMPAT_ALL:-}" ]; then
	images=$(for n in ext4 ext2-1k bigalloc inline; do
		ls "$E2L_IMAGES/$n.img" 2>/dev/null; done)
	san=subset
fi
if [ -z "$images" ]; then
	echo "no test images in $E2L_IMAGES"
	exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# One more image, made here with the real mke2fs and debugfs, for what the
# shared images lack: hard links, deleted entries, odd bytes in names, a
# 255-byte name, a cleared inode still named, a wrong file type, inline
# directories next to block ones, and checksum tails with 1 KiB blocks.
mkodd() {
	o=$tmp/oddsrc
	mkdir -p "$o/d/sub" "$o/d/e" "$tmp/img" || return 1
	echo a > "$o/d/f"; ln "$o/d/f" "$o/d/hl"; ln "$o/d/f" "$o/hl2"
	echo b > "$o/g"; echo c > "$o/d/gone"; echo t > "$o/typ"
	printf x > "$o/back\\slash"
	printf x > "$o/ctl$(printf '\001\177')x"
	printf x > "$o/$(printf 'caf\303\251')"
	printf x > "$o/$(printf '%0255d' 0 | tr 0 n)"
	echo z > "$o/cleared"; ln "$o/cleared" "$o/d/cleared2"
	E2FSPROGS_FAKE_TIME=1700000000 MKE2FS_CONFIG=/dev/null mke2fs -q -F \
		-T default -t ext4 -b 1024 -I 256 -d "$o" \
		-O metadata_csum,inline_data,extent,^has_journal \
		"$tmp/img/odd.img" 4M >/dev/null 2>&1 || return 1
	printf 'rm /g\nrm /d/gone\nsif /typ mode 0120644\nclri /cleared\n' \
		> "$tmp/mkodd.f"
	debugfs -w -f "$tmp/mkodd.f" "$tmp/img/odd.img" >/dev/null 2>&1
	[ -n "${E2L_KEEP_ODD:-}" ] && cp "$tmp/img/odd.img" "$E2L_KEEP_ODD"
	return 0
}
# And a corrupt one: a directory entry naming inode 99999 (out of range).
mkcorrupt() {
	c=$tmp/badsrc
	mkdir -p "$c" && echo a > "$c/victim" && echo b > "$c/other" || return 1
	MKE2FS_CONFIG=/dev/null mke2fs -q -F -T default -t ext2 -b 1024 \
		-d "$c" "$tmp/img/corrupt.img" 2M >/dev/null 2>&1 || return 1
	off=$(grep -boa victim "$tmp/img/corrupt.img" | head -1 | cut -d: -f1)
	[ -n "$off" ] || return 1
	printf '\237\206\001\000' | dd of="$tmp/img/corrupt.img" bs=1 \
		seek=$((off - 8)) conv=notrunc 2>/dev/null
}
# And hash-indexed directories with 250-byte names on 1 KiB blocks, two
# index levels deep (e2fsck -D builds the index): without metadata_csum
# (libext2fs finds no room for a checksum), with it, and with the root's
# checksum zapped (debugfs prints what it expected).
mkhtree() {
	h=$tmp/htsrc
	mkdir -p "$h/d" "$tmp/img" || return 1
	long=$(printf '%0246d' 0 | tr 0 y)
	i=0
	while [ $i -lt 400 ]; do
		echo "$i" > "$h/d/$long.$i"
		i=$((i + 1))
	done
	for v in "" _csum; do
		f=$tmp/img/htree$v.img
		feat=^metadata_csum
		[ -n "$v" ] && feat=metadata_csum
		MKE2FS_CONFIG=/dev/null mke2fs -q -F -T default -t ext4 -b 1024 \
			-O "dir_index,extent,$feat,^has_journal" -E no_copy_xattrs \
			-d "$h" -N 900 "$f" 2M >/dev/null 2>&1 || return 1
		e2fsck -fyD "$f" >/dev/null 2>&1
	done
	cp "$tmp/img/htree_csum.img" "$tmp/img/htree_badcsum.img"
	debugfs -w -R "zap_block -f /d -o 1020 -l 4 -p 0x55 0" \
		"$tmp/img/htree_badcsum.img" >/dev/null 2>&1
}
if mkhtree; then
	images="$images
$tmp/img/htree.img
$tmp/img/htree_csum.img
$tmp/img/htree_badcsum.img"
else
	echo "FAIL: could not make the htree images (mke2fs -d, e2fsck -D)"
	exit 1
fi
if mkodd; then
	images="$images
$tmp/img/odd.img"
else
	echo "note: could not make the extra odd.img; going on without it"
fi
if mkcorrupt; then
	images="$images
$tmp/img/corrupt.img"
else
	echo "note: could not make the extra corrupt.img; going on without it"
fi
results=$tmp/results	# lines "COMMAND<TAB>0|1"
: > "$results"
cases=$tmp/cases	# lines "LABEL<TAB>SHOW<TAB>IMG<TAB>OPT<TAB>ARG"
: > "$cases"

# A case's result lines: one per request it used (LABEL: names, blank
# separated), "NAME<TAB>1<TAB>CASE" when identical, "NAME<TAB>0<TAB>CASE"
# when not (CASE names the case: its request or script, and the image).
verdict() {	# LABEL 0|1 CASE
	printf '%s\n' "$1" | tr ' ' '\n' | grep -v '^$' |
		awk -v ok="$2" -v c="$3" '{ printf "%s\t%s\t%s\n", $0, ok, c }'
}

# The requests a -f script uses (first words of its request lines).
script_requests() {	# FILE
	sed -e 's/^[[:space:]]*//' -e '/^#/d' -e '/^$/d' "$1" |
		awk '{ print $1 }' | sort -u | tr '\n' ' '
}

# Runs one case in work directory $1 and appends its verdict to $1/results
# (and any difference to $1/report).  Usage: run_case DIR LABEL SHOW IMG OPT ARG
run_case() {
	w=$1; label=$2; show=$3; img=$4; opt=$5; arg=$6
	if [ "$img" = none ]; then
		debugfs "$opt" "$arg" > "$w/d.out" 2> "$w/d.err0"
		"$E2LAYOUT" --debugfs "$opt" "$arg" > "$w/e.out" 2> "$w/e.err0"
		erc=$?
		sed '1{/^debugfs [0-9][0-9.]* (.*)$/d;}' "$w/e.err0" > "$w/e.err"
	else
		debugfs "$opt" "$arg" "$img" > "$w/d.out" 2> "$w/d.err0"
		"$E2LAYOUT" "$opt" "$arg" "$img" > "$w/e.out" 2> "$w/e.err"
		erc=$?
	fi
	sed '1{/^debugfs [0-9][0-9.]* (.*)$/d;}' "$w/d.err0" > "$w/d.err"
	if [ $erc -ge 98 ]; then
		{ echo "SANITIZER/CRASH (exit $erc): $show on ${img##*/}"
		  sed 's/^/    /' "$w/e.err" | head -20; } >> "$w/report"
		verdict "$label" 0 "$show @ ${img##*/}" >> "$w/results"
		return
	fi
	if cmp -s "$w/d.out" "$w/e.out" && cmp -s "$w/d.err" "$w/e.err"
	then
		verdict "$label" 1 "$show @ ${img##*/}" >> "$w/results"
		return
	fi
	verdict "$label" 0 "$show @ ${img##*/}" >> "$w/results"
	{ echo "DIFFERS: $show   image: ${img##*/}"
	  for ch in out err; do
		cmp -s "$w/d.$ch" "$w/e.$ch" && continue
		echo "  std$ch (--- debugfs, +++ e2layout):"
		diff -u "$w/d.$ch" "$w/e.$ch" | sed -n '3,14s/^/    /p'
	  done; } >> "$w/report"
}

# Is image $1 selected by the current "#@ images:" list ($sel)?
selected() {
	[ "$sel" = all ] && return 0
	b=$(basename "$1" .img)
	for w in $sel; do [ "$w" = "$b" ] && return 0; done
	return 1
}

tab=$(printf '\t')
for f in "$reqdir"/*.req; do
	[ -f "$f" ] || continue
	sel=all
	while IFS= read -r req || [ -n "$req" ]; do
		case "$req" in
		"#@ images:"*)
			sel=$(echo "${req#\#@ images:}" | sed 's/^ *//;s/ *$//')
			[ -n "$sel" ] || sel=all
			continue ;;
		\#*|"") continue ;;
		esac
		trimmed=$(echo "$req" | sed 's/^[[:space:]]*//')
		case "$trimmed" in \#*|"") continue ;; esac
		cmd=${trimmed%%[[:space:]]*}
		if [ "$sel" = none ]; then
			printf '%s\t%s\t%s\t-R\t%s\n' "$cmd" \
				"$(basename "$f"): $req" none "$req" >> "$cases"
			continue
		fi
		for img in $images; do
			selected "$img" || continue
			printf '%s\t%s\t%s\t-R\t%s\n' "$cmd" \
				"$(basename "$f"): $req" "$img" "$req" >> "$cases"
		done
	done < "$f"
done
for f in "$reqdir"/*.script; do
	[ -f "$f" ] || continue
	for img in $images; do
		printf '%s\t%s\t%s\t-f\t%s\n' "$(script_requests "$f")" \
			"-f $(basename "$f")" "$img" "$f" >> "$cases"
	done
done

# The cases are independent: run them in E2L_JOBS shards (default: one per
# processor), each in its own work directory, then gather in case order.
jobs=${E2L_JOBS:-$(nproc 2>/dev/null || echo 2)}
i=0
while [ $i -lt "$jobs" ]; do
	mkdir -p "$tmp/w$i"
	: > "$tmp/w$i/results"
	awk -v n="$jobs" -v k=$i 'NR % n == k' "$cases" > "$tmp/w$i/cases"
	( while IFS="$tab" read -r label show img opt arg; do
		run_case "$tmp/w$i" "$label" "$show" "$img" "$opt" "$arg"
	  done < "$tmp/w$i/cases" ) &
	i=$((i + 1))
done
wait
i=0
while [ $i -lt "$jobs" ]; do
	cat "$tmp/w$i/results" >> "$results"
	[ -f "$tmp/w$i/report" ] && cat "$tmp/w$i/report"
	i=$((i + 1))
done
ndiff=$(awk -F '\t' '$2 == 0 { print $3 }' "$results" | sort -u | wc -l)

echo
awk -F '\t' '
	{ run[$1]++; same[$1] += $2; if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
	END {
		printf "%-28s %6s %9s\n", "command", "cases", "identical"
		for (i = 0; i < n; i++) {
			c = order[i]
			printf "%-28s %6d %9d%s\n", c, run[c], same[c],
			       run[c] == same[c] ? "" : "  <-- differs"
			tr += run[c]; ts += same[c]
		}
		printf "%-28s %6d %9d\n", "total", tr, ts
	}' "$results"

# This run's results, for STATUS.md (tests/compat/gen_status.sh merges them
# with t_write_compat.sh's): only from a run over the real request files on
# every image.
if [ "$reqdir" = "$here/requests" ] && [ "$san" != subset ] &&
   [ -n "${E2L_BUILD:-}" ]; then
	mkdir -p "$E2L_BUILD/compat" &&
		cp "$results" "$E2L_BUILD/compat/read.results"
	[ -n "$san" ] || sh "$here/gen_status.sh" --check || ndiff=$((ndiff + 1))
fi

if [ $ndiff -ne 0 ]; then
	echo "$ndiff problem(s): cases differing from debugfs 1.47.0, or claims not proven"
	exit 1
fi
echo "all cases identical to debugfs 1.47.0"
exit 0

#!/bin/sh
# t_debugfs_compat.sh - the debugfs compatibility harness: every request of
# tests/compat/requests/*.req (one per line) and every requests/*.script
# (a -f file) runs under the real debugfs and under e2layout on every test
# image; stdout and stderr must be byte-identical (debugfs's banner aside).
# Prints a table per command and regenerates debugfs-compat/STATUS.md.
# In a .req file, "#@ images: ext4 inline" limits the lines after it to those
# images ("#@ images: all" lifts the limit).  Needs E2LAYOUT and E2L_IMAGES;
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
ndiff=0

# Runs one case: $1 = label for the table, $2 = how to show the case, then
# the arguments given to both programs after the image-independent part.
# Compares and records.  Usage: run_case LABEL SHOW IMG OPT ARG
run_case() {
	label=$1; show=$2; img=$3; opt=$4; arg=$5
	debugfs "$opt" "$arg" "$img" > "$tmp/d.out" 2> "$tmp/d.err0"
	sed '1{/^debugfs [0-9][0-9.]* (.*)$/d;}' "$tmp/d.err0" > "$tmp/d.err"
	"$E2LAYOUT" "$opt" "$arg" "$img" > "$tmp/e.out" 2> "$tmp/e.err"
	erc=$?
	if [ $erc -ge 98 ]; then
		echo "SANITIZER/CRASH (exit $erc): $show on $(basename "$img")"
		sed 's/^/    /' "$tmp/e.err" | head -20
		printf '%s\t0\n' "$label" >> "$results"
		ndiff=$((ndiff + 1))
		return
	fi
	if cmp -s "$tmp/d.out" "$tmp/e.out" && cmp -s "$tmp/d.err" "$tmp/e.err"
	then
		printf '%s\t1\n' "$label" >> "$results"
		return
	fi
	printf '%s\t0\n' "$label" >> "$results"
	ndiff=$((ndiff + 1))
	echo "DIFFERS: $show   image: $(basename "$img")"
	for ch in out err; do
		cmp -s "$tmp/d.$ch" "$tmp/e.$ch" && continue
		echo "  std$ch (--- debugfs, +++ e2layout):"
		diff -u "$tmp/d.$ch" "$tmp/e.$ch" | sed -n '3,14s/^/    /p'
	done
}

# Is image $1 selected by the current "#@ images:" list ($sel)?
selected() {
	[ "$sel" = all ] && return 0
	b=$(basename "$1" .img)
	for w in $sel; do [ "$w" = "$b" ] && return 0; done
	return 1
}

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
		for img in $images; do
			selected "$img" || continue
			run_case "$cmd" "$(basename "$f"): $req" "$img" -R "$req"
		done
	done < "$f"
done

for f in "$reqdir"/*.script; do
	[ -f "$f" ] || continue
	for img in $images; do
		run_case "script:$(basename "$f" .script)" \
			"-f $(basename "$f")" "$img" -f "$f"
	done
done

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

# STATUS.md: generated from what this run proved, never by hand (and only
# from a run over the real request files).
update_status() {
	status=$top/debugfs-compat/STATUS.md
	first=$(echo "$images" | head -1)
	if ! sh "$here/gen_status.sh" "$results" "$first" "$tmp/STATUS.md"; then
		echo "gen_status.sh failed"
		exit 1
	fi
	if [ -f "$status" ]; then
		# Anything the committed file claims that this run does not prove?
		grep '| supported |' "$status" | cut -d'|' -f2 | sort > "$tmp/claimed"
		grep '| supported |' "$tmp/STATUS.md" | cut -d'|' -f2 | sort > "$tmp/proven"
		unproven=$(comm -23 "$tmp/claimed" "$tmp/proven")
		if [ -n "$unproven" ]; then
			echo "STATUS.md claimed support the harness does not prove:"
			echo "$unproven" | sed 's/^/   /'
			ndiff=$((ndiff + 1))
		fi
	fi
	if ! cmp -s "$tmp/STATUS.md" "$status"; then
		if cp "$tmp/STATUS.md" "$status" 2>/dev/null; then
			echo "debugfs-compat/STATUS.md regenerated (commit it)"
		else
			echo "could not update $status"
		fi
	fi
	grep -c '| supported |' "$status" | sed 's/$/ debugfs requests proven identical (see debugfs-compat\/STATUS.md)/'
}
[ "$reqdir" = "$here/requests" ] && update_status

if [ $ndiff -ne 0 ]; then
	echo "$ndiff problem(s): cases differing from debugfs 1.47.0, or claims not proven"
	exit 1
fi
echo "all cases identical to debugfs 1.47.0"
exit 0

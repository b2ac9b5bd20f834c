#!/bin/sh
# gen_status.sh - the debugfs compatibility status: every request of the
# installed debugfs (its `lr` list, and the extent sub-mode's after
# `extent_open`) with its state in e2layout and the harness cases that used
# it, merged from what both harnesses recorded in $E2L_BUILD/compat/
# (read.results from t_debugfs_compat.sh, write.results from
# t_write_compat.sh: lines "REQUEST<TAB>1<TAB>CASE" for an identical case,
# 0 for one that differs).  Nothing is called supported unless a
# byte-identical case proves it.
# Usage: gen_status.sh          regenerate debugfs-compat/STATUS.md when both
#                               result sets are fresh (newer than e2layout and
#                               than their cases); fails when the committed
#                               file claims support this run does not prove
#                               (only `make compat` runs this mode)
#        gen_status.sh --check  the same check, writing nothing: says when
#                               the committed file is out of date (what the
#                               harnesses run under `make check`)
#        gen_status.sh --table  print the table; fail when a case differs or
#                               a result set is missing or stale
# Needs $E2LAYOUT and $E2L_BUILD.
set -uf	# -f: "?" (list_requests's alias) is no glob
: "${E2LAYOUT:?}" "${E2L_BUILD:?}"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
mode=${1:-update}
res=$E2L_BUILD/compat
status=$top/debugfs-compat/STATUS.md
notes=$top/debugfs-compat/status-notes.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Are both result sets there and newer than the binary and their cases?
stale=
for h in read:requests write:writes; do
	f=$res/${h%%:*}.results
	if [ ! -f "$f" ]; then
		stale="$stale ${h%%:*} (missing)"
	elif [ -n "$(find "$E2LAYOUT" "$here/${h#*:}" -newer "$f" 2>/dev/null |
		     head -1)" ]; then
		stale="$stale ${h%%:*} (older than e2layout or its cases)"
	fi
done
if [ -n "$stale" ]; then
	echo "STATUS.md not regenerated: harness results$stale; \`make compat\` runs both"
	[ "$mode" = --table ] && exit 1
	exit 0
fi
cat "$res/read.results" "$res/write.results" > "$tmp/results"

# debugfs's requests, one row per line ("name, alias, alias"): the main
# table from `lr`, the extent sub-mode's from `lr` after extent_open on a
# tiny image made here.
rows() { sed -n '/^Available debugfs requests:/,$p' | sed -n '3,$p' |
	 grep -v '^ ' | grep -v '^debugfs: ' | sed 's/  .*//'; }
debugfs -R lr 2>/dev/null | rows > "$tmp/main"
MKE2FS_CONFIG=/dev/null mke2fs -q -F -O extent "$tmp/tiny.img" 1M \
	>/dev/null 2>&1
printf 'extent_open <2>\nlr\n' > "$tmp/eo.f"
debugfs -f "$tmp/eo.f" "$tmp/tiny.img" 2>/dev/null | rows > "$tmp/all"
grep -vxF -f "$tmp/main" "$tmp/all" > "$tmp/extent"
if [ "$(wc -l < "$tmp/main")" -lt 50 ] || [ ! -s "$tmp/extent" ]; then
	echo "gen_status: could not read debugfs's request lists" >&2
	exit 1
fi

# e2layout's commands and aliases, one per line: "NAME<TAB>1" for those
# meant to give debugfs's output, "NAME<TAB>0" for its own (help): a
# request of its own that no case uses is "e2layout's own", not "unproven".
"$E2LAYOUT" --json -R help "$tmp/tiny.img" 2>/dev/null |
	grep -o '"name":"[^"]*","aliases":\[[^]]*\]\|"debugfs":[a-z]*' |
	awk '/^"debugfs":/ { d = ($0 ~ /true/); for (i = 1; i <= n; i++)
				print w[i] "\t" d; n = 0; next }
	     { gsub(/"name":|"aliases":|[][]|"/, ""); n = split($0, w, ",") }' |
	sort -u > "$tmp/ours"
[ -s "$tmp/ours" ] || { echo "gen_status: no e2layout command list" >&2; exit 1; }

# One line per row: NAMES<TAB>STATUS<TAB>RUN<TAB>SAME, where a case (the
# results' third column) counts once for a row however many of its names
# it used.
classify() {	# ROWS-FILE
	awk -F '\t' '
		FILENAME == ours { if ($2) impl[$1] = 1; else own[$1] = 1
				   next }
		FILENAME == res { key = $1 SUBSEP $3
				  if (!(key in seen) || $2 == 0) seen[key] = $2
				  next }
		{ nrow++; row[nrow] = $0
		  k = split($0, a, /, /)
		  for (i = 1; i <= k; i++) { rowof[a[i]] = nrow
					     if (a[i] in impl) im[nrow] = dfs[nrow] = 1
					     if (a[i] in own) im[nrow] = 1 } }
		END {
			for (key in seen) {
				split(key, b, SUBSEP)
				if (!(b[1] in rowof)) continue
				r = rowof[b[1]]; ck = r SUBSEP b[2]
				if (ck in cs) { if (!seen[key]) cs[ck] = 0; continue }
				cs[ck] = seen[key]
			}
			for (ck in cs) { split(ck, b, SUBSEP); run[b[1]]++
					 same[b[1]] += cs[ck] }
			for (r = 1; r <= nrow; r++) {
				if (im[r] && run[r] && run[r] == same[r])
					st = "supported"
				else if (im[r] && run[r])
					st = "implemented, differs from debugfs"
				else if (im[r] && dfs[r])
					st = "implemented, not proven by the harness"
				else if (im[r])
					st = "e2layout'"'"'s own (by design)"
				else
					st = "not yet"
				printf "%s\t%s\t%d\t%d\n", row[r], st, run[r], same[r]
			}
		}' ours="$tmp/ours" res="$tmp/results" "$tmp/ours" \
		"$tmp/results" "$1"
}
classify "$tmp/main" > "$tmp/main.st"
classify "$tmp/extent" > "$tmp/extent.st"
cat "$tmp/main.st" "$tmp/extent.st" > "$tmp/all.st"

if [ "$mode" = --table ]; then
	awk -F '\t' '
		BEGIN { printf "%-36s %6s %9s  %s\n", "debugfs request", "cases",
			"identical", "status" }
		{ printf "%-36s %6d %9d  %s%s\n", $1, $3, $4, $2,
			($3 == $4 ? "" : "  <-- differs")
		  n++; r += $3; s += $4; if ($2 == "supported") sup++
		  if ($3 != $4) bad++ }
		END { printf "%d debugfs requests, %d supported (every case identical), %d not; %d request cases (a script counts for each request it uses), %d identical\n",
			n, sup, n - sup, r, s
		  exit bad > 0 }' "$tmp/all.st"
	exit $?
fi

table() {	# STATUS-FILE
	echo "| request | status | identical / cases |"
	echo "|---|---|---|"
	awk -F '\t' '{ printf "| %s | %s | %s |\n", $1, $2,
		($3 > 0 ? $4 " / " $3 : "-") }' "$1"
}
count() { awk -F '\t' -v s="$2" '$2 == s' "$1" | wc -l; }
{
	echo "# debugfs 1.47.0 requests in e2layout"
	echo
	echo "Generated by tests/compat/gen_status.sh from the results of both"
	echo "compatibility harnesses (\`make compat\`, \`make check\`); do not edit"
	echo "by hand.  The request lists are the installed debugfs's own (\`lr\`,"
	echo "and \`lr\` inside the extent sub-mode).  A request is *supported* only"
	echo "when e2layout implements it and every harness case that uses it gave"
	echo "output byte-identical to debugfs 1.47.0 on stdout and stderr (and, for"
	echo "tests/compat/writes/*.script, the same image afterwards) on every test"
	echo "image.  A case is one request line of tests/compat/requests/*.req on one"
	echo "image, or one script (requests/*.script, writes/*.script) on one image,"
	echo "counted for every request the script uses."
	echo
	echo "## Main requests"
	echo
	table "$tmp/main.st"
	echo
	echo "## Extent sub-mode (after extent_open)"
	echo
	table "$tmp/extent.st"
	echo
	n=$(wc -l < "$tmp/all.st")
	echo "$n requests: $(count "$tmp/all.st" supported) supported," \
	     "$(count "$tmp/all.st" "implemented, not proven by the harness")" \
	     "implemented but not proven," \
	     "$(count "$tmp/all.st" "implemented, differs from debugfs") differing," \
	     "$(count "$tmp/all.st" "e2layout's own (by design)") e2layout's own," \
	     "$(count "$tmp/all.st" "not yet") not yet."
	if [ -f "$notes" ]; then
		echo
		cat "$notes"
	fi
} > "$tmp/STATUS.md"

rc=0
if [ -f "$status" ]; then
	# Anything the committed file claims that these results do not prove?
	grep '| supported |' "$status" | cut -d'|' -f2 | sort > "$tmp/claimed"
	grep '| supported |' "$tmp/STATUS.md" | cut -d'|' -f2 | sort > "$tmp/proven"
	unproven=$(comm -23 "$tmp/claimed" "$tmp/proven")
	if [ -n "$unproven" ]; then
		echo "STATUS.md claimed support the harnesses do not prove:"
		echo "$unproven" | sed 's/^/   /'
		rc=1
	fi
fi
if ! cmp -s "$tmp/STATUS.md" "$status"; then
	if [ "$mode" = --check ]; then
		echo "debugfs-compat/STATUS.md is out of date (\`make compat\` regenerates it)"
	elif cp "$tmp/STATUS.md" "$status" 2>/dev/null; then
		echo "debugfs-compat/STATUS.md regenerated (commit it)"
	else
		echo "could not update $status"
	fi
fi
grep -c '| supported |' "$status" |
	sed 's/$/ debugfs requests proven identical (see debugfs-compat\/STATUS.md)/'
exit $rc

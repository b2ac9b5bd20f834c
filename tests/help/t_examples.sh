#!/bin/sh
# t_examples.sh - every example in help/cmd/*.txt and help/topics/*.txt runs
# as written and succeeds (exit 0), each on a fresh copy of the demo image
# (`e2layout mkdemo`), the stand-in for every image a command line names
# (demo.img, disk.img, fs.img); request lines without a command line (a
# session's requests, as typed at the prompt) run together in a copy of the
# test image reqimage() names, with -w when one of them writes.  An example without -w leaves the image as it
# was; one of e2layout's own requests with -w leaves it clean (e2fsck -fn)
# with an undo file.  /tmp/ in a command line is a directory of the test's.
# Examples that need a mounted filesystem, root or a terminal are skipped,
# saying why.  The plan operations also list the options they apply with.
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
top=$(cd "$(dirname "$0")/../.." && pwd)
demo=$E2L_IMAGES/demo.img
[ -f "$demo" ] || fail "no $demo"
bindir=$(cd "$(dirname "$E2LAYOUT")" && pwd)
mkdir "$T/bin" "$T/ex"
ln -s "$bindir/$(basename "$E2LAYOUT")" "$T/bin/e2layout"

for op in defrag evacuate journal_relocate prealloc; do
	for o in --no-undo --undo --no-fsck; do
		grep -q -- "^  $o " "$top/help/cmd/$op.txt" ||
			check "help $op does not list $o"
	done
done

# the requests that write, and debugfs's (help --json)
"$E2LAYOUT" --json -R help "$demo" > "$T/help.json" 2>&1 || fail "help --json failed"
python3 -c '
import json, sys
for c in json.loads(sys.stdin.readline())["result"]["commands"]:
    for n in [c["name"]] + c["aliases"]:
        print(n, int(c["writes"]), int(c["debugfs"]), c["name"])' < "$T/help.json" > "$T/reqs" ||
	fail "help --json does not parse"

# Each example block becomes files EX.N.sh, one for each group of command
# lines (with their continuations: a trailing \ or |, a here-document) that
# no description or comment separates, run in order on one copy, and EX.req,
# the block's request lines together.  Lines indented deeper
# than the block's commands are descriptions; "# ..." and a trailing
# "   (note)" or "   # note" are comments.
for f in "$top"/help/cmd/*.txt "$top"/help/topics/*.txt; do
	awk -v d="$T/ex" -v src="$(basename "$(dirname "$f")")/$(basename "$f" .txt)" '
		function out(kind, s) {
			if (kind == "sh") {
				if (newgrp) { n++; newgrp = 0 }
				file = d "/" fn "." n ".sh"
			}
			else file = d "/" fn ".req"
			print s >> file
			close(file)
			if (!(file in seen)) { seen[file] = 1; print src > (file ".src"); close(file ".src") }
		}
		BEGIN { fn = src; gsub(/\//, "_", fn) }
		/^(Live )?[Ee]xamples?( \(.*\))?:$/ { inb = 1; ind = -1; newgrp = 1; next }
		inb && /^$/ { inb = 0; next }
		inb && /^[^ ]/ { inb = 0; next }
		!inb { next }
		{
			line = $0
			if (heredoc != "") {
				sub("^" substr("                ", 1, ind), "", line)
				print line >> file; close(file)
				if (line ~ "^ *" heredoc "$") heredoc = ""
				next
			}
			if (cont) {
				sub(/^ +/, "", line); print line >> file; close(file)
				cont = line ~ /(\\|\|)$/
				next
			}
			match(line, /^ */); i = RLENGTH
			if (ind < 0) ind = i
			if (i > ind) { newgrp = 1; next }	# a description
			sub(/^ +/, "", line)
			if (line ~ /^#/) { newgrp = 1; next }
			sub(/   +(\(.*\)|#.*)$/, "", line)
			if (line ~ /^(e2layout|printf|e2undo|dd|sh) /) {
				out("sh", line)
				cont = line ~ /(\\|\|)$/
				if (match(line, /<<[A-Z]+$/))
					heredoc = substr(line, RSTART + 2)
			} else
				out("req", line)
		}' "$f"
done
ls "$T/ex" | grep -q '\.sh$' || fail "no examples found"

# reqimage PAGE: the stand-in a page's request lines run in: the test
# images' common tree (ext4.img: /etc/conf1../etc/conf39, /home/user/blob,
# /home/user/sparse, /usr/share/doc/big.txt, /var/log/messages), else the
# image with what the request needs (tests/lib/mkimages.sh): MMP; quota,
# xattrs (/x/small), deleted inodes, an htree (/big), a journal with
# transactions, an extent tree of depth 1 (/x/frag): dfs1k.img
reqimage() {
	case $1 in
	cmd/dump_mmp | cmd/set_mmp_value) echo mmp64k.img ;;
	cmd/open_filesys) echo demo.img ;;	# a backup superblock at 32768
	cmd/get_quota | cmd/list_quota | cmd/list_deleted_inodes | \
	cmd/set_current_time | cmd/htree_dump | cmd/ea_get | cmd/ea_list | \
	cmd/logdump | cmd/undelete | cmd/inode_dump | cmd/journal_* | \
	cmd/extent_* | cmd/current_node | cmd/down_node | cmd/up_node | \
	cmd/root_node | cmd/*_leaf | cmd/*_sibling | cmd/next | \
	cmd/previous | cmd/goto_block | cmd/info | cmd/print_all) echo dfs1k.img ;;
	*) echo ext4.img ;;
	esac
}

# run EXAMPLE: on a fresh copy, in $T/w; prints the failure, returns 1
ran=0 skipped=0
run() {
	ex=$1; src=$(cat "$ex.src")
	case $ex in *.req) kind=req ;; *) kind=sh ;; esac
	text=$(cat "$ex")
	# needs: a mounted filesystem (live mode), root and mounts, a terminal
	why=""
	case $text in
	*" /mnt"* | *" /srv"* | *" /dev/sd"* | *"'/mnt"* | *'"/mnt'*)
		why="needs a mounted filesystem" ;;
	*"e2layout experiment"*) why="needs root, loop devices and mounts" ;;
	esac
	if [ $kind = sh ] && [ -z "$why" ] &&
	   printf '%s\n' "$text" | grep -Eq 'e2layout( -w)? [^-][^ ]*\.img$'; then
		why="opens the TUI (needs a terminal)"
	fi
	if [ -n "$why" ]; then
		echo "skip: $src: $(head -1 "$ex"): $why"
		skipped=$((skipped + 1))
		return 0
	fi
	rm -rf "$T/w" "$T/tmp" "$T"/e2layout-*.e2undo
	mkdir "$T/w" "$T/tmp" || return 1
	# the images it names (a request file runs on demo.img); a write
	# changes the copy's mtime, set to the epoch here
	imgs=demo base=$demo
	if [ $kind = req ]; then
		imgs=disk
		base=$E2L_IMAGES/$(reqimage "$src")
		[ -f "$base" ] || { echo "FAIL: $src: no stand-in $base"; return 1; }
	fi
	[ $kind = sh ] && imgs=$(grep -o '\<\(demo\|disk\|fs\)\.img\>' "$ex" |
		sed 's/\.img$//' | sort -u)
	for i in $imgs; do
		cp "$base" "$T/w/$i.img" && touch -d @0 "$T/w/$i.img" || return 1
	done
	ro=1 own=1
	if [ $kind = req ]; then
		w=""
		# -w when a request writes (the table's flag, or a Writes:
		# section in its help: extent sub-mode edits, feature NAME)
		while read -r r rest; do
			set -- $(awk -v r="$r" '$1 == r { print $2, $3, $4 }' "$T/reqs")
			[ "${1:-0}" = 1 ] && w=-w
			[ "${2:-1}" = 1 ] && own=0
			h=$top/help/cmd/${3:-none}.txt
			[ -f "$h" ] && grep -Eq '(^|\. +)Writes:' "$h" && w=-w
			[ -f "$h" ] && [ -n "$rest" ] &&
				grep -Eq '(^|\. +)Writes \(with arguments\):' "$h" && w=-w
		done < "$ex"
		[ -n "$w" ] && ro=0
		(cd "$T/w" && "$T/bin/e2layout" $w -f "$ex" disk.img) > "$T/out" 2>&1 \
			< /dev/null
	else
		grep -q -- ' -w ' "$ex" && ro=0
		own=0
		grep -Eq 'defrag|evacuate|journal_relocate|prealloc|repack|apply' "$ex" && own=1
		sed "s|/tmp/|$T/tmp/|g" "$ex" > "$T/ex.sh"
		(cd "$T/w" && PATH="$T/bin:$PATH" sh -e "$T/ex.sh") > "$T/out" 2>&1 \
			< /dev/null
	fi
	rc=$?
	ran=$((ran + 1))
	if [ $rc -ne 0 ]; then
		echo "FAIL: $src: the example exits $rc: $text"
		tail -5 "$T/out" | sed 's/^/      /'
		return 1
	fi
	for i in $imgs; do
		img=$T/w/$i.img
		if [ $ro = 1 ]; then
			[ "$(stat -c %Y "$img")" = 0 ] || {
				echo "FAIL: $src: $text: wrote $i.img without -w"; return 1; }
		elif [ $own = 1 ] && [ "$(stat -c %Y "$img")" != 0 ]; then
			fsck_clean "$img" || {
				echo "FAIL: $src: $text: $i.img not clean: $(head -3 "$T/fsck.out")"
				return 1; }
			ls "$E2LAYOUT_UNDO_DIR"/e2layout-$i.img-*.e2undo >/dev/null 2>&1 ||
				{ echo "FAIL: $src: $text: no undo file"; return 1; }
		fi
	done
	return 0
}

bad=0
for ex in $(ls "$T/ex" | grep -v '\.src$' | sort); do
	run "$T/ex/$ex" || bad=$((bad + 1))
done
echo "$ran examples ran, $skipped skipped, $bad failed"
[ $bad -eq 0 ] || fail "$bad help examples fail"
checks_done
echo "ok: every help example runs as written"

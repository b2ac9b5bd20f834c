#!/bin/sh
# t_json_data.sh - the requests whose output is data give it as JSON too
# (stat, ex, blocks, ls, icheck, ncheck, freefrag, filefrag, logdump,
# ea_list), and what the JSON says is what the real debugfs prints: each
# value below is taken from debugfs's text on the same image.
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
. "$(dirname "$0")/../lib/testlib.sh"
command -v jq >/dev/null 2>&1 || skip "jq is not installed (make deps)"
img=$E2L_IMAGES/demo.img
[ -f "$img" ] || skip "no $img"
tmp=$T

# jreq REQUEST JQ-FILTER: the filter applied to the request's result.
jreq() {
	"$E2LAYOUT" --json -R "$1" "$img" > "$tmp/j" 2> "$tmp/e" ||
		{ cat "$tmp/e"; fail "--json -R \"$1\" failed"; }
	jq -r ".result | $2" "$tmp/j" 2>/dev/null || fail "\"$1\": no $2 in $(head -c 300 "$tmp/j")"
}
dfs() { debugfs -R "$1" "$img" 2>/dev/null; }
same() {	# same WHAT GOT WANT
	[ "$2" = "$3" ] || fail "$1: JSON says '$2', debugfs '$3'"
	[ -n "$2" ] || fail "$1: empty on both sides"
}

# A file with data, and one of its blocks.
path=$(dfs "ls -p /etc" | awk -F/ '$3 ~ /^100/ && $7 > 0 { print "/etc/" $6; exit }')
[ -n "$path" ] || fail "no regular file with data in /etc"
ino=$(dfs "stat $path" | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
blk=$(dfs "blocks $path" | awk '{ print $1 }')

same "stat size" "$(jreq "stat $path" .size)" "$(dfs "stat $path" | sed -n 's/.*Size: \([0-9]*\).*/\1/p' | head -1)"
same "stat links" "$(jreq "stat $path" .links)" "$(dfs "stat $path" | sed -n 's/.*Links: \([0-9]*\).*/\1/p')"
same "ex <8> leaves" "$(jreq "ex <8>" '[.extents[] | select(.leaf)] | length')" \
	"$(dfs "ex <8>" | awk 'NR > 1 && $1 ~ /^1\// { n++ } END { print n }')"
same "ex <8> first leaf" "$(jreq "ex <8>" '[.extents[] | select(.leaf)][0].physical')" \
	"$(dfs "ex <8>" | awk 'NR > 1 && $1 == "1/" { print $8; exit }')"
same "blocks" "$(jreq "blocks $path" '[.blocks[] | select(.kind == "data") | range(.physical; .physical + .length)] | map(tostring) | join(" ")')" \
	"$(dfs "blocks $path" | sed 's/ *$//')"
same "ls names" "$(jreq "ls -l /etc" '[.entries[].name] | join(",")')" \
	"$(dfs "ls -l /etc" | awk 'NF { print $NF }' | paste -sd, -)"
same "icheck" "$(jreq "icheck $blk" '.blocks[0].inode')" "$(dfs "icheck $blk" | awk 'NR == 2 { print $2 }')"
same "ncheck" "$(jreq "ncheck $ino" '.names[0].path')" "$(dfs "ncheck $ino" | awk 'NR == 2 { print $2 }')"
same "freefrag free extents" "$(jreq freefrag .free_extents)" "$(dfs freefrag | sed -n 's/^Num. free extent: //p')"
same "freefrag histogram" "$(jreq freefrag '[.histogram[].extents] | map(tostring) | join(",")')" \
	"$(dfs freefrag | awk '/\.\.\./ { print $(NF-2) }' | paste -sd, -)"
same "filefrag" "$(jreq "filefrag $path" '.files[0].contiguous_extents')" \
	"$(dfs "filefrag $path" | sed -n 's/.*: \([0-9]*\) contiguous extents.*/\1/p')"
# logdump: a journal holding one transaction written by debugfs itself.
jimg=$tmp/journal.img
mke2fs -q -F -t ext4 "$jimg" 8M >/dev/null 2>&1 || fail "mke2fs"
head -c 4096 /dev/urandom > "$tmp/blk"
printf 'jo\njw -b 300,301 %s\njc\n' "$tmp/blk" | debugfs -w -f - "$jimg" >/dev/null 2>&1
img=$jimg
same "logdump blocks" "$(jreq logdump '[.blocks[] | "\(.journal_block):\(.type)"] | join(",")')" \
	"$(dfs logdump | sed -n 's/^Found expected sequence [0-9]*, type [0-9]* (\(.*\)) at block \([0-9]*\)$/\2:\1/p' | paste -sd, -)"
same "logdump logged" "$(jreq logdump '[.blocks[].logged[].fs_block] | map(tostring) | join(",")')" "300,301"
img=$E2L_IMAGES/demo.img
same "ea_list" "$(jreq "ea_list <2>" '.xattrs | length')" "$(dfs "ea_list <2>" | grep -c '=')"
echo "JSON of 10 data requests agrees with debugfs on $(basename "$img")"

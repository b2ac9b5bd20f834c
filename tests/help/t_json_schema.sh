#!/bin/sh
# t_json_schema.sh - --json output is always valid: every document of a
# spread of requests, on the shared images, on one whose file names are
# not UTF-8, and of an editing session (-w on a copy of the demo image:
# plans made, shown, saved, applied, refused), is strict UTF-8 JSON with
# no key twice, valid against help/schema/envelope.json and its result
# against help/schema/result/NAME.json (python3-jsonschema); every request
# of the registry that declares a JSON result (CMD_JSON) has its schema
# and every other one is in help/schema/no_result.txt with the reason;
# every schema is met by at least one real document here (those of the
# live requests in tests/live and tests/experiment, which need a mount);
# and the non-UTF-8 names come back byte for byte through Python's
# surrogateescape, as help json says.
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/help
python3 -c 'import jsonschema' 2>/dev/null ||
	skip "python3-jsonschema is not installed (make deps)"

"$E2LAYOUT" --json -R help "$E2L_IMAGES/ext4.img" > "$T/help.json" ||
	fail "--json -R help failed"

# The shared images: exit status may be 1 (a request that does not apply to
# an image), the output must still be valid.
for i in demo ext4 ext3 ext2-1k bigalloc metabg inline noflex mmp64k dfs1k; do
	img=$E2L_IMAGES/$i.img
	[ -f "$img" ] || fail "no $img"
	"$E2LAYOUT" --json -f "$here/json_requests.txt" "$img" \
		> "$T/$i.jl" 2>/dev/null
	[ -s "$T/$i.jl" ] || fail "$i: no output"
done

# An image whose names are Latin-1, cut UTF-8 and a lone 0xff, next to
# well-formed UTF-8, and a directory big enough for a hash index.
src=$T/src
mkdir -p "$src/names" "$src/big"
for n in "$(printf 'caf\351')" "$(printf '\303\244\303\266')" \
	 "$(printf 'cut\303')" "$(printf '\377')" "$(printf 'tab\there')"; do
	printf 'x' > "$src/names/$n"
done
i=0
while [ $i -lt 300 ]; do
	printf 'file %d\n' $i > "$src/big/f$i"
	i=$((i + 1))
done
head -c 300000 /dev/urandom > "$src/big/f1"
img=$T/names.img
mke2fs -q -F -t ext4 -d "$src" "$img" 16M >/dev/null 2>&1 || fail "mke2fs -d"
e2fsck -fyD "$img" >/dev/null 2>&1
fsck_clean "$img" || fail "e2fsck after -D: $(cat "$T/fsck.out")"
"$E2LAYOUT" --json -f "$here/json_names.txt" "$img" > "$T/names.jl" \
	2>/dev/null
[ -s "$T/names.jl" ] || fail "names: no output"

# The editor: a read-write session on a copy, its plans applied with
# undo files in $T, and its refusals (results null, errors said).
cp "$E2L_IMAGES/demo.img" "$T/edit.img"
sed "s|@T@|$T|g" "$here/json_edit.txt" > "$T/edit.txt"
E2LAYOUT_UNDO_DIR=$T "$E2LAYOUT" --json -w -f "$T/edit.txt" "$T/edit.img" \
	> "$T/edit.jl" 2>/dev/null
[ "$(wc -l < "$T/edit.jl")" -eq "$(wc -l < "$T/edit.txt")" ] ||
	fail "edit: $(wc -l < "$T/edit.jl") documents for $(wc -l < "$T/edit.txt") requests"
fsck_clean "$T/edit.img" || fail "e2fsck after the edits: $(cat "$T/fsck.out")"

# Requests that need a mounted filesystem: their documents are checked by
# the live tests (tests/live, tests/experiment).
python3 "$top/tests/lib/json_schema_check.py" --registry --cover \
	--elsewhere alloc,bench,experiment,live "$top/help/schema" \
	"$T/help.json" "$T/help.json" "$T"/*.jl > "$T/check" 2>&1 ||
	fail "$(head -20 "$T/check")"

# The names, decoded with surrogateescape, are the bytes on disk: the
# same list, in the same order, as the real debugfs gives.
python3 - "$T/names.jl" > "$T/ours" <<'PY' || fail "decoding the names"
import json, sys
for line in open(sys.argv[1], "rb"):
    d = json.loads(line.decode("utf-8"))
    if d["command"] == "ls" and d["args"] == ["-l", "/names"]:
        for e in d["result"]["entries"]:
            sys.stdout.buffer.write(
                e["name"].encode("utf-8", "surrogateescape") + b"\n")
PY
debugfs -R "ls -p /names" "$img" 2>/dev/null |
	awk -F/ 'NF > 5 { print $6 }' > "$T/theirs"
[ "$(wc -l < "$T/theirs")" -eq 7 ] || fail "debugfs lists $(cat "$T/theirs")"
cmp "$T/ours" "$T/theirs" ||
	fail "names differ: $(od -c "$T/ours" | head -5) / $(od -c "$T/theirs" | head -5)"
echo "ok: $(cat "$T"/*.jl | wc -l) documents valid; non-UTF-8 names round-trip"

#!/bin/sh
# t_index.sh - INDEX.md is current (what `make index` would write now), and
# lists exactly the requests of the command table the build generated.
. "$(dirname "$0")/../lib/testlib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
sh "$top/tests/lib/gen_index.sh" "$top" > "$T/INDEX.md" ||
	fail "tests/lib/gen_index.sh failed"
if ! cmp -s "$T/INDEX.md" "$top/INDEX.md"; then
	diff -u "$top/INDEX.md" "$T/INDEX.md" | head -40
	fail "INDEX.md is stale: run make index and commit it"
fi
table="$E2L_BUILD/gen/cmd_table.c"
[ -f "$table" ] || fail "no generated command table at $table"
sed -n 's/^	&cmd_\([A-Za-z0-9_]*\),$/\1/p' "$table" | sort > "$T/table"
[ -s "$T/table" ] || fail "no entries read from $table"
# entry symbols are cmd_NAME for every request; the index names them
sed -n 's/^| `\([^`]*\)` |.*/\1/p' "$T/INDEX.md" | sort > "$T/index"
if ! cmp -s "$T/table" "$T/index"; then
	diff "$T/table" "$T/index"
	fail "INDEX.md's requests differ from the command table's"
fi
exit 0

#!/bin/sh
# t_check_deps.sh - the layering check (tests/lib/check_deps.sh) refuses a
# reference across the rule, naming the object, the symbol and where it is
# defined, and accepts the references the rule allows; then the built tree
# itself passes it.
. "$(dirname "$0")/../lib/testlib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
chk="$top/tests/lib/check_deps.sh"
CC=${CC:-cc}
command -v nm >/dev/null 2>&1 || skip "no nm"
command -v "$CC" >/dev/null 2>&1 || skip "no C compiler ($CC)"

# user.o calls e2l_probe_sym, which provider.o defines
printf 'void e2l_probe_sym(void);\nvoid e2l_probe_user(void);\n%s\n' \
	'void e2l_probe_user(void) { e2l_probe_sym(); }' > "$T/user.c"
printf 'void e2l_probe_sym(void);\nvoid e2l_probe_sym(void) { }\n' \
	> "$T/provider.c"
"$CC" -c -o "$T/user.o" "$T/user.c" || fail "cannot compile user.c"
"$CC" -c -o "$T/provider.o" "$T/provider.c" || fail "cannot compile provider.c"

# refused: core on anything but core; debugfs-compat and labs on each
# other; tui on debugfs-compat; help on tui
for pair in core:labs core:dfs core:tui core:help core:front dfs:labs \
	    labs:dfs tui:dfs help:tui; do
	from=${pair%:*}; to=${pair#*:}
	sh "$chk" "$from:" "$T/user.o" "$to:" "$T/provider.o" \
		> "$T/out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || { cat "$T/out"; fail "$from on $to: exit $rc, not 1"; }
	grep -q "user.o ($from) uses e2l_probe_sym, defined in .*provider.o ($to)" \
		"$T/out" || { cat "$T/out"; fail "$from on $to: not named"; }
done

# allowed: everything on core, tui and help on labs, the front ends on all
for pair in core:core dfs:core labs:core tui:core tui:labs help:labs \
	    front:dfs front:tui front:labs; do
	from=${pair%:*}; to=${pair#*:}
	sh "$chk" "$from:" "$T/user.o" "$to:" "$T/provider.o" \
		> "$T/out" 2>&1 || { cat "$T/out"; fail "$from on $to refused"; }
done

# usage errors are not passes
sh "$chk" bogus: "$T/user.o" > "$T/out" 2>&1
[ $? -eq 2 ] || fail "an unknown layer is not a usage error"
sh "$chk" core: "$T/missing.o" > "$T/out" 2>&1
[ $? -eq 2 ] || fail "a missing object is not a usage error"

# the tree as built: the Makefile's own check, on its objects
[ -f "$E2L_BUILD/deps.ok" ] || fail "the build did not pass the layering check"
exit 0

# jsonlib.sh - schema_check [--doc NAME] FILE...: the e2layout --json
# documents in FILE... are valid against help/schema/ (envelopes and
# results, or with --doc whole documents of help/schema/NAME.json, as lab
# check --json writes), through tests/lib/json_schema_check.py; the test
# fails naming the first problems.  Without python3-jsonschema it says so
# and checks nothing.  Source it after testlib.sh.
schema_check() {
	_sc_top=$(cd "$(dirname "$0")/../.." && pwd)
	_sc_opts=
	while [ "${1#--}" != "$1" ]; do
		_sc_opts="$_sc_opts $1 $2"
		shift 2
	done
	if ! python3 -c 'import jsonschema' 2>/dev/null; then
		echo "note: python3-jsonschema is not installed: not checked against help/schema"
		return 0
	fi
	"$E2LAYOUT" --json -R help "${E2L_IMAGES:?}/ext4.img" \
		> "$T/schema-help.json" 2>/dev/null || fail "help --json failed"
	# shellcheck disable=SC2086
	python3 "$_sc_top/tests/lib/json_schema_check.py" $_sc_opts \
		"$_sc_top/help/schema" "$T/schema-help.json" "$@" \
		> "$T/schema.out" 2>&1 ||
		fail "not valid against help/schema: $(head -10 "$T/schema.out")"
}

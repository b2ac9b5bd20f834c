#!/bin/sh
# check_deps.sh - the dependency rule between e2layout's layers, checked on
# the objects with nm: core/ uses nothing of debugfs-compat/, labs/, tui/,
# help/ or the front ends; debugfs-compat/ and labs/ use core only; tui/ and
# help/ use core and labs.  The generated command and help tables (gen/) are
# the registry's data: every layer may use them, the program links them in.
# Usage: check_deps.sh LAYER: OBJ... [LAYER: OBJ...]...
#   LAYER is core, dfs, labs, tui, help or front (main.c, the shells).
# Prints each offending reference (object, symbol, where it is defined) and
# exits 1 when there is one; exits 2 on a usage error.
set -eu
NM=${NM:-nm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

layer=""
for a in "$@"; do
	case $a in
	core: | dfs: | labs: | tui: | help: | front:)
		layer=${a%:}; : >> "$tmp/$layer.objs" ;;
	*:)
		echo "check_deps: unknown layer '$a'" >&2; exit 2 ;;
	*)
		[ -n "$layer" ] || { echo "check_deps: object before a layer" >&2
			exit 2; }
		[ -f "$a" ] || { echo "check_deps: $a: no such object" >&2
			exit 2; }
		echo "$a" >> "$tmp/$layer.objs" ;;
	esac
done

# symbol -> defining object, per layer; undefined references per layer
for f in "$tmp"/*.objs; do
	l=$(basename "$f" .objs)
	: > "$tmp/$l.def"; : > "$tmp/$l.und"
	while read -r o; do
		"$NM" -g --defined-only "$o" |
			awk -v o="$o" 'NF >= 3 { print $3, o }' >> "$tmp/$l.def"
		"$NM" -u "$o" | awk -v o="$o" '{ print $NF, o }' >> "$tmp/$l.und"
	done < "$f"
done

# LAYER FORBIDDEN...: what each layer must not use
bad=0
rule() {
	l=$1; shift
	[ -f "$tmp/$l.und" ] || return 0
	for f in "$@"; do
		[ -f "$tmp/$f.def" ] || continue
		awk -v l="$l" -v f="$f" '
			NR == FNR { def[$1] = $2; next }
			($1 in def) {
				printf "check_deps: %s (%s) uses %s, defined in %s (%s)\n",
					$2, l, $1, def[$1], f
			}' "$tmp/$f.def" "$tmp/$l.und"
	done > "$tmp/out"
	if [ -s "$tmp/out" ]; then cat "$tmp/out" >&2; bad=1; fi
}
rule core dfs labs tui help front
rule dfs labs tui help front
rule labs dfs tui help front
rule tui dfs help front
rule help dfs tui front
if [ $bad -ne 0 ]; then
	echo "check_deps: the layering rule is broken (see DEVELOPERS.md)" >&2
	exit 1
fi
exit 0

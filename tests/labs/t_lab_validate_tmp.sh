#!/bin/sh
# t_lab_validate_tmp.sh - lab validate leaves nothing in $TMPDIR: its
# trainees' directories go whole, whatever the lab left in them (images,
# state, the fresh-scenario copies of [start] facts), also when a
# scenario fails to build or a claim is false.
. "$(dirname "$0")/../lib/testlib.sh"
mkdir -p "$T/tmp" "$T/labs"
cat > "$T/labs/good.lab" <<'EOT'
title: good
goal: none
recipe: mkfs size={64..128:16}M blocksize=4096 flex=16
recipe: file /etc/motd size=100
claim: file(/etc/motd).sum == [start]file(/etc/motd).sum
check: file(/nothing).exists == 1
EOT
# a scenario that does not build: a file bigger than the filesystem
sed 's/^recipe: file .*/recipe: file \/big size=1G/' "$T/labs/good.lab" > "$T/labs/nobuild.lab"
# a false claim
sed 's/^claim: .*/claim: groups > 1000/' "$T/labs/good.lab" > "$T/labs/false.lab"
for l in good nobuild false; do
	TMPDIR=$T/tmp "$E2LAYOUT" lab validate "$T/labs/$l.lab" --seeds 2 > "$T/$l.out" 2>&1
	rc=$?
	case $l in
	good) [ $rc -eq 0 ] || { cat "$T/$l.out"; fail "validate $l exits $rc"; } ;;
	*) [ $rc -eq 1 ] || { cat "$T/$l.out"; fail "validate $l exits $rc, not 1"; } ;;
	esac
	left=$(find "$T/tmp" -mindepth 1 | head -5)
	[ -z "$left" ] || { cat "$T/$l.out"; fail "lab validate ($l) left in TMPDIR: $left"; }
	echo "ok: validate $l (exit $rc) leaves TMPDIR empty"
done
grep -q "does not build" "$T/nobuild.out" || { cat "$T/nobuild.out"; fail "the unbuildable scenario is not named"; }
echo "lab validate cleanup test passed"
exit 0

#!/bin/sh
# t_exp_args.sh - experiment refuses bad command lines clearly: a missing
# or mounted image, a directory or a control character for a path, an
# unknown workload or option, --runs 0 or 1, options that do not apply,
# hostile mount options and event specs; each exits non-zero with a
# sentence saying what is wrong, and leaves nothing mounted, attached or
# behind in the directory.
. "$(dirname "$0")/../lib/testlib.sh"

mkfs.ext4 -q -F -E nodiscard "$T/a.img" 32M >/dev/null 2>&1 || fail "mkfs.ext4"
before_m=$(grep -c "$T" /proc/mounts)
before_l=$(losetup -a 2>/dev/null | grep -c "$T")

# refuse ARGS... PATTERN: exit 1, PATTERN on stderr
n=0
refuse() {
	pat=$1; shift
	n=$((n + 1))
	"$E2LAYOUT" experiment "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -ne 0 ] || fail "case $n ($*) succeeded"
	[ $rc -ne 139 ] && [ $rc -ne 134 ] || fail "case $n ($*) crashed ($rc)"
	grep -q -- "$pat" "$T/err" || fail "case $n ($*): no \"$pat\" in: $(cat "$T/err")"
	[ -s "$T/out" ] && fail "case $n ($*) printed a result: $(head -3 "$T/out")"
	return 0
}
A=$T/a.img
refuse "no image named" --workload smallcreate
refuse "no workload" "$A" "$A"
refuse "No such file" "$T/missing.img" "$A" --workload smallcreate
refuse "No such file" "$A" "$T/missing.img" --workload smallcreate
refuse "not a regular file" "$T" "$A" --workload smallcreate
refuse "control character" "$(printf '%s/a\nb.img' "$T")" "$A" --workload smallcreate
refuse 'unknown workload "bogus"' "$A" "$A" --workload bogus
refuse "bad --runs 0" "$A" "$A" --workload smallcreate --runs 0
refuse "bad --runs 1" "$A" "$A" --workload smallcreate --runs 1
refuse "bad --runs x" "$A" "$A" --workload smallcreate --runs x
refuse "bad --runs" "$A" "$A" --workload smallcreate --runs 99999999999999999999
refuse "unknown option --frobnicate" "$A" "$A" --workload smallcreate --frobnicate 1
refuse "needs a value" "$A" "$A" --workload
refuse "one workload at a time" "$A" "$A" --workload smallcreate --dbench 2
refuse "one image needs --change" "$A" --workload smallcreate
refuse "name one image, not two" "$A" "$A" --change "journal relocate" --workload smallcreate
refuse "too many images" "$A" "$A" "$A" --workload smallcreate
refuse "--ops does not apply" "$A" "$A" --workload smallcreate --ops 5
refuse "--overwrite does not apply" "$A" "$A" --workload parallel --overwrite
refuse "bad value for --size" "$A" "$A" --workload randwrite --size 1K
refuse "bad value for --size" "$A" "$A" --workload smallcreate --size 12Q
refuse "bad --threads" "$A" "$A" --workload parallel --threads 65
refuse "mount option ro is refused" "$A" "$A" --workload smallcreate --mount-opts ro
refuse "space or a control character" "$A" "$A" --workload smallcreate --mount-opts "sync, data=journal"
# options that would make the kernel write a device outside the copy, or
# stop the machine on an error in a copy
refuse "mount option journal_path=/dev/sda is refused (it names a device" "$A" "$A" --workload smallcreate --mount-opts data=journal,journal_path=/dev/sda
refuse "mount option journal_dev=2049 is refused" "$A" "$A" --workload smallcreate --mount-opts-b journal_dev=2049
refuse "mount option errors=panic is refused (an error in a copy would stop" "$A" "$A" --workload smallcreate --mount-opts errors=panic
refuse "bad --count" "$A" "$A" --workload smallcreate --count "ext4:../../x"
refuse "bad --count" "$A" "$A" --workload smallcreate --count "ext4"
refuse "not a regular file" "$A" "$A" --fio "$T"
printf '[x]\nrw=write\nsize=1m\nfilename=/dev/sda\n' > "$T/bad.fio"
refuse "line 4: filename must stay inside" "$A" "$A" --fio "$T/bad.fio"
printf '[x]\nrw=write\n directory = ../../etc\n' > "$T/bad2.fio"
refuse "line 3: directory must stay inside" "$A" "$A" --fio "$T/bad2.fio"
# fio's filename= is a list split at ':': each part is a file
printf '[x]\nrw=write\nsize=1m\nfilename=data:/dev/vda\n' > "$T/bad3.fio"
refuse "line 4: filename must stay inside" "$A" "$A" --fio "$T/bad3.fio"
printf '[x]\nrw=write\nfilename=a${HOME}b\n' > "$T/bad4.fio"
refuse "line 3: filename must stay inside" "$A" "$A" --fio "$T/bad4.fio"
# an include pulls in options this check never read
printf 'include /etc/x.fio\n[x]\nrw=write\n' > "$T/bad5.fio"
refuse "line 1: include is refused" "$A" "$A" --fio "$T/bad5.fio"
# logs and replays that write a path of their own
printf '[x]\nrw=write\nwrite_bw_log=/etc/bw\n' > "$T/bad6.fio"
refuse "line 3: write_bw_log must stay inside" "$A" "$A" --fio "$T/bad6.fio"
printf '[x]\nread_iolog=t.log\nreplay_redirect=/dev/vda\n' > "$T/bad7.fio"
refuse "line 3: replay_redirect must stay inside" "$A" "$A" --fio "$T/bad7.fio"
refuse "are the experiment's" "$A" "$A" --bonnie "-s 0 -d /"

refuse "bad dbench client count" "$A" "$A" --dbench 0
refuse "is not a directory" "$A" "$A" --workload smallcreate --workdir "$T/none"

refuse "--keep-b keeps the B that --change makes" "$A" "$A" --workload smallcreate --keep-b "$T/kb.img"
refuse "must not exist" "$A" --change "journal relocate" --workload smallcreate --keep-b "$A"
"$E2LAYOUT" experiment --help > "$T/help" || fail "experiment --help failed"
grep -q "^Synopsis: experiment A.img" "$T/help" || fail "experiment --help shows no synopsis"

if [ "$(id -u)" = 0 ]; then
	# a mounted image is refused before anything is copied
	mkdir "$T/m"
	if mount -o loop "$A" "$T/m" 2>/dev/null; then
		refuse "is mounted" "$A" "$A" --workload smallcreate
		umount "$T/m" || fail "umount"
	else
		echo "note: loop mount refused here; the mounted-image case is not run"
	fi
	# a change that cannot be made: the experiment stops before any run
	refuse "could not be made" "$A" --change "no_such_request" --workload smallcreate --quiet
else
	echo "note: not root; the mounted-image and --change cases are not run"
fi

[ "$(grep -c "$T" /proc/mounts)" = "$before_m" ] || fail "something is left mounted: $(grep "$T" /proc/mounts)"
[ "$(losetup -a 2>/dev/null | grep -c "$T")" = "$before_l" ] || fail "a loop device is left: $(losetup -a | grep "$T")"
ls -a "$T" | grep -q e2layout-exp && fail "a work directory is left: $(ls -a "$T")"
echo "experiment argument checks passed ($n cases)"

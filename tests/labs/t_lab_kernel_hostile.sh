#!/bin/sh
# t_lab_kernel_hostile.sh - a hostile .lab's kernel steps (loaded with
# --labs, run as root): the image is mounted nosuid,nodev,noexec; a
# corrupted or dirty image is never mounted; more than 1 GiB of kernel
# writes, control bytes in a path and a bad step are refused before
# anything is mounted; SIGTERM/SIGINT during a write still unmounts, frees
# the loop device and leaves no image.  A stand-in mount first in PATH logs
# each mount (then runs the real one).  Skips where loop mounts are refused.
. "$(dirname "$0")/../lib/testlib.sh"

real=$(command -v mount) || skip "no mount(8)"
mkdir "$T/bin" "$T/labs" "$T/tmp"
cat > "$T/bin/mount" <<EOS
#!/bin/sh
echo "\$*" >> "$T/mount.log"
exec "$real" "\$@"
EOS
chmod +x "$T/bin/mount"
PATH=$T/bin:$PATH; TMPDIR=$T/tmp; USER=alice; E2LAYOUT_LABS=$T/labs
export PATH TMPDIR USER E2LAYOUT_LABS

# mklab NAME SIZE STEP...: a lab NAME whose recipe ends with the steps
mklab() {
	name=$1 size=$2; shift 2
	{
		echo "name: $name"
		echo "title: hostile $name"
		echo "needs: mount"
		echo "goal: none"
		echo "step: none"
		echo "recipe: mkfs size=$size blocksize=4096"
		for s in "$@"; do echo "recipe: $s"; done
		echo "claim: groups > 0 -- the goal"
	} > "$T/labs/$name.lab"
}
start() {
	rm -rf "$T/out"; : > "$T/mount.log"
	"$E2LAYOUT" lab start "$1" "$T/out" </dev/null \
		> "$T/start.out" 2>&1
}
nomounts() {
	! grep -q "$T" /proc/self/mounts ||
		fail "$1: a mount is left: $(grep "$T" /proc/self/mounts)"
	[ -z "$(losetup -j "$T/out/$2.img" 2>/dev/null)" ] ||
		fail "$1: a loop device is left"
	[ -z "$(ls "$T/tmp")" ] || fail "$1: left in TMPDIR: $(ls "$T/tmp")"
}

# a good lab: mounted nosuid,nodev,noexec
mklab good 64M "kernel mkdir /a" "kernel write /a/f size=4096"
start good
if [ $? -ne 0 ]; then
	grep -q "need root and a loop mount" "$T/start.out" &&
		skip "kernel steps need root and a loop mount here"
	cat "$T/start.out"; fail "lab start good"
fi
for o in nosuid nodev noexec; do
	grep -q "$o" "$T/mount.log" ||
		fail "mounted without $o: mount $(cat "$T/mount.log")"
done
fsck_clean "$T/out/good.img" || fail "good: not clean"
nomounts good good

# refused before any mount: each leaves no image
refused() {
	start "$1" && fail "$1: lab start succeeded"
	grep -q "$2" "$T/start.out" || { cat "$T/start.out"; fail "$1: no \"$2\""; }
	[ -s "$T/mount.log" ] && fail "$1: mounted anyway: $(cat "$T/mount.log")"
	[ -e "$T/out/$1.img" ] && fail "$1: a half-built image is left"
	nomounts "$1" "$1"
}
mklab corrupt 64M "file /x size=8192" "corrupt free_blocks 7" "kernel mkdir /a"
refused corrupt "clean image"
mklab dirty 64M "journal size=1024" "file /x size=8192" "dirty_journal /x" \
	"kernel mkdir /a"
refused dirty "clean image"
mklab huge 4G "kernel write /a size=1073741824" "kernel write /b size=1"
refused huge "1 GiB"
esc=$(printf 'kernel mkdir /a\033]0;pwned\007')
mklab ctl 64M "kernel mkdir /ok" "$esc"
refused ctl "kernel step is"
mklab bad 64M "kernel mkdir /ok" "kernel write /x size=12k"
refused bad "kernel step is"

# a signal during a long write: unmounted, loop freed, no image
mklab slow 2G "kernel write /a size=1073741824"
for sig in TERM INT; do
	rm -rf "$T/out"; : > "$T/mount.log"
	# a background job of sh ignores SIGINT: perl restores its default
	if [ $sig = INT ]; then
		command -v perl >/dev/null || continue
		perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' "$E2LAYOUT" \
			lab start slow "$T/out" </dev/null > "$T/start.out" 2>&1 &
	else
		"$E2LAYOUT" lab start slow "$T/out" \
			</dev/null > "$T/start.out" 2>&1 &
	fi
	pid=$!
	i=0
	until grep -q "$T/tmp" /proc/self/mounts; do
		i=$((i + 1))
		[ $i -lt 600 ] || { kill $pid; fail "$sig: never mounted"; }
		kill -0 $pid 2>/dev/null ||
			{ cat "$T/start.out"; fail "$sig: ended unmounted"; }
		sleep 0.05
	done
	kill -$sig $pid
	wait $pid
	rc=$?
	[ $rc -gt 128 ] || fail "$sig: lab start exits $rc, not by the signal"
	grep -q "Interrupted" "$T/start.out" ||
		{ cat "$T/start.out"; fail "$sig: not interrupted in a write"; }
	nomounts "SIG$sig" slow
	[ -e "$T/out/slow.img" ] && fail "$sig: a half-built image is left"
done
echo "hostile kernel steps test passed"
exit 0

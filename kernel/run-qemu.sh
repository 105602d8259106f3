#!/usr/bin/env bash
# kernel/run-qemu.sh - run built litmus-test modules inside a QEMU guest.
#
#   kernel/run-qemu.sh [options] OUTDIR
#
# OUTDIR is what "lkmmc --kmod OUTDIR" wrote, after "make -C OUTDIR
# KDIR=..." built the .ko files.  Builds an initramfs from busybox-static
# with the modules and an /init that, for each module, loads it with its
# iteration count and time budget (insmod MOD.ko iters=N budget_ms=B),
# prints /proc/<test> to the
# serial console between "@@LKMMC-BEGIN MOD" and "@@LKMMC-END MOD ok" lines,
# unloads it, and at the end powers the guest off.  Boots Debian's
# linux-image-amd64 kernel (the version of the installed headers, never the
# host's uname -r) with qemu-system-x86_64 -accel tcg,thread=multi -smp 2.
# A guest is watched while it runs: one whose console stays silent for
# --stall seconds (a module prints a progress line every 5 s while its
# count moves) is stuck, one still running the same module (or still
# booting) --timeout seconds after it began is slow; either is killed and
# reported, with the tail of its console, as what it is; the module it
# was running is marked failed and the guest is booted again for the
# modules after it.
#
# Options:
#   --plan FILE      lines "MODULE ITERS [BUDGET_MS [PARAM=V...]]": which
#                    modules, in this order, with their iteration count,
#                    time budget ("-": the module's default, 10 s) and
#                    more module parameters (default: every module under
#                    OUTDIR, its test.info iteration count)
#   --timeout SECS   wall-clock limit per module, and for booting (default
#                    600)
#   --stall SECS     a guest silent this long is stuck (default 120)
#   --log FILE       the whole console output (default OUTDIR/console.log)
#   --accel tcg|kvm|auto   auto tries KVM first, with a short boot probe
#                    (default tcg: KVM does not boot on these machines)
#   --smp N          guest CPUs (default 2)
#   --append ARGS    more kernel command-line arguments, e.g.
#                    rcupdate.rcu_expedited=1 (synchronize_rcu() and
#                    synchronize_srcu() then take their expedited paths:
#                    the same guarantees, far fewer milliseconds under TCG)
#
# Writes OUTDIR/results/MODULE.out (the /proc file) for every module that
# ran, and OUTDIR/results/MODULE.fail (the reason) for every one that did
# not.  Exit status: 0 every module ran, 1 some did not, 2 usage or setup
# error.
#
# Never loads anything into the host's kernel: the only insmod is in the
# guest's /init, which refuses to run unless it is PID 1 of a kernel booted
# with lkmmc_guest=1.
set -u
here=$(cd "$(dirname "$0")" && pwd)
plan="" timeout=600 stall=120 log="" accel=tcg smp=2 append=""
die() { echo "run-qemu: $*" >&2; exit 2; }
while [ $# -gt 1 ]; do
	case $1 in
	--plan) plan=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--stall) stall=$2; shift ;;
	--log) log=$2; shift ;;
	--accel) accel=$2; shift ;;
	--smp) smp=$2; shift ;;
	--append) append=$2; shift ;;
	--insmod|--load|--host) die "refusing: test modules are loaded only inside the QEMU guest" ;;
	*) die "unknown option $1 (see the header of $0)" ;;
	esac
	shift
done
[ $# -eq 1 ] || die "usage: $0 [--plan FILE] [--timeout SECS] [--log FILE] OUTDIR"
out=$(cd "$1" && pwd) || die "no folder $1"
log=${log:-$out/console.log}

kver=$("$here/kernel-version.sh") || die "cannot tell the version of Debian's linux-image-amd64 / linux-headers-amd64"
vmlinuz=/boot/vmlinuz-$kver
[ -r "$vmlinuz" ] || die "$vmlinuz missing: apt-get install linux-image-amd64"
busybox=$(command -v busybox) || die "busybox missing: apt-get install busybox-static"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	[ -x /bin/busybox ] || die "busybox is not static: apt-get install busybox-static"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: apt-get install qemu-system-x86"
command -v cpio >/dev/null || die "cpio missing: apt-get install cpio"

# The plan: module, test name, iterations.
work=$(mktemp -d /tmp/lkmmc-qemu.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ -z "$plan" ]; then
	plan=$work/plan.in
	for info in "$out"/*/test.info; do
		[ -f "$info" ] || continue
		echo "$(sed -n 's/^module=//p' "$info") $(sed -n 's/^iters=//p' "$info")"
	done > "$plan"
fi
mkdir -p "$out/results"
: > "$work/todo"
: > "$work/planned"
while read -r mod iters budget extra; do
	[ -n "$mod" ] || continue
	echo "$mod" >> "$work/planned"
	info=$out/$mod/test.info
	ko=$out/$mod/$mod.ko
	rm -f "$out/results/$mod.out" "$out/results/$mod.fail"
	if [ ! -f "$info" ] || [ ! -f "$ko" ]; then
		echo "not built: $ko missing" > "$out/results/$mod.fail"
		continue
	fi
	magic=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
	if [ "$magic" != "$kver" ]; then
		echo "built for kernel '$magic', the guest runs $kver" > "$out/results/$mod.fail"
		continue
	fi
	name=$(sed -n 's/^proc=//p' "$info")
	echo "$mod $name $iters ${budget:--} $extra" >> "$work/todo"
done < "$plan"

# KVM only when it really boots (on these machines it hangs).
probe_kvm() {
	[ -w /dev/kvm ] || return 1
	mkdir -p "$work/probe/bin"
	cp "$busybox" "$work/probe/bin/busybox"
	printf '#!/bin/busybox sh\n/bin/busybox echo @@LKMMC-KVM-OK\n/bin/busybox poweroff -f\n' > "$work/probe/init"
	chmod +x "$work/probe/init"
	(cd "$work/probe" && find . | cpio -o -H newc --quiet) > "$work/probe.cpio"
	timeout --signal=KILL 20 qemu-system-x86_64 -accel kvm -smp "$smp" -m 512 -nographic \
		-no-reboot -kernel "$vmlinuz" -initrd "$work/probe.cpio" \
		-append "console=ttyS0 panic=-1 quiet" < /dev/null 2>&1 | grep -q '@@LKMMC-KVM-OK'
}
case $accel in
tcg) accel_opt="tcg,thread=multi" ;;
kvm) accel_opt="kvm" ;;
auto) if probe_kvm; then accel_opt=kvm; else accel_opt="tcg,thread=multi"; fi ;;
*) die "--accel tcg|kvm|auto" ;;
esac

# The guest's /init.
cat > "$work/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox mkdir -p /proc /sys /dev /bin /sbin
/bin/busybox mount -t proc proc /proc
/bin/busybox --install -s /bin
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
# Only ever as PID 1 of the QEMU guest booted by kernel/run-qemu.sh.
if [ "$$" != 1 ] || ! grep -q 'lkmmc_guest=1' /proc/cmdline; then
	echo "lkmmc: refusing to load test modules outside the QEMU guest" >&2
	exit 1
fi
echo "@@LKMMC-GUEST $(uname -r) cpus=$(nproc)"
while read -r mod name iters budget extra; do
	echo "@@LKMMC-BEGIN $mod"
	set -- iters="$iters"
	[ "$budget" = - ] || set -- "$@" budget_ms="$budget"
	# shellcheck disable=SC2086 # extra: more parameters, word by word
	if insmod "/m/$mod.ko" "$@" $extra; then
		cat "/proc/$name"
		rmmod "$mod"
		echo "@@LKMMC-END $mod ok"
	else
		echo "@@LKMMC-END $mod insmod-failed"
	fi
done < /plan
echo "@@LKMMC-DONE"
poweroff -f
EOF

: > "$log"
boot=0
status=0
while [ -s "$work/todo" ]; do
	boot=$((boot + 1))
	rm -rf "$work/root"
	mkdir -p "$work/root/bin" "$work/root/m"
	cp "$busybox" "$work/root/bin/busybox"
	cp "$work/init" "$work/root/init"
	chmod +x "$work/root/init"
	cp "$work/todo" "$work/root/plan"
	while read -r mod _; do
		strip --strip-debug -o "$work/root/m/$mod.ko" "$out/$mod/$mod.ko" 2>/dev/null ||
			cp "$out/$mod/$mod.ko" "$work/root/m/$mod.ko"
	done < "$work/todo"
	(cd "$work/root" && find . | cpio -o -H newc --quiet) | gzip -1 > "$work/initrd.gz"
	echo "run-qemu: boot $boot: $(wc -l < "$work/todo") module(s), $accel_opt, $smp CPUs, limit ${timeout}s a module, ${stall}s of silence" >&2
	start=$(date +%s)
	# loglevel=5 lets the modules' progress lines (warning level) out
	qemu-system-x86_64 -accel "$accel_opt" -smp "$smp" -m 1024 \
		-nographic -no-reboot -kernel "$vmlinuz" -initrd "$work/initrd.gz" \
		-append "console=ttyS0 panic=-1 loglevel=5 lkmmc_guest=1 $append" \
		< /dev/null > "$work/console" 2>&1 &
	qpid=$!
	# The watch: silent for $stall s is stuck, on one module (or booting)
	# for $timeout s is slow (budget by time: a loaded host only makes a
	# guest slower, and a long plan takes as many limits as modules)
	killed="" size=-1 moved=$start begun=0 since=$start
	while kill -0 "$qpid" 2>/dev/null; do
		sleep 1
		now=$(date +%s)
		s=$(stat -c %s "$work/console" 2>/dev/null || echo 0)
		if [ "$s" != "$size" ]; then
			size=$s moved=$now
			b=$(grep -c '@@LKMMC-BEGIN ' "$work/console")
			[ "$b" != "$begun" ] && { begun=$b; since=$now; }
		fi
		if [ $((now - since)) -ge "$timeout" ]; then killed=slow
		elif [ $((now - moved)) -ge "$stall" ]; then killed=stuck
		else continue
		fi
		kill -KILL "$qpid" 2>/dev/null
		break
	done
	{ wait "$qpid"; } 2>/dev/null # no "Killed" line from bash
	rc=$?
	tr -d '\r' < "$work/console" >> "$log"
	tr -d '\r' < "$work/console" > "$work/console.txt"
	echo "run-qemu: boot $boot ended after $(( $(date +%s) - start ))s (qemu exit $rc)" >&2
	# Split the console into per-module results.
	awk -v dir="$out/results" '
		/@@LKMMC-PROGRESS / { next }
		/^@@LKMMC-BEGIN / { mod = $2; f = dir "/" mod ".part"; printf "" > f; next }
		/^@@LKMMC-END / { if (mod != "") { close(f); if ($3 == "ok") system("mv \"" f "\" \"" dir "/" $2 ".out\"");
				  else { print "insmod failed in the guest (see the console log)" > (dir "/" $2 ".fail"); system("rm -f \"" f "\"") } }
				  mod = ""; next }
		mod != "" { print >> f }' "$work/console.txt"
	: > "$work/next"
	hung=""
	while read -r mod name iters budget extra; do
		if [ -f "$out/results/$mod.out" ] || [ -f "$out/results/$mod.fail" ]; then
			continue
		fi
		if [ -z "$hung" ] && [ -f "$out/results/$mod.part" ]; then
			hung=$mod
			rm -f "$out/results/$mod.part"
			{
				count=$(grep -o "@@LKMMC-PROGRESS $name [0-9]*" "$work/console.txt" | tail -n 1 | awk '{ print $3 }')
				count=${count:+$count instances done}
				if [ "$killed" = stuck ]; then
					echo "guest stuck running $mod: no output for ${stall}s (${count:-no progress line}), killed"
				elif [ "$killed" = slow ]; then
					echo "guest still running $mod at the limit of ${timeout}s, killed: a slow guest, not a stuck one (${count:-no progress line yet; its output never stopped for ${stall}s})"
				else
					echo "guest stopped (qemu exit $rc) while running $mod"
				fi
				echo "console tail:"
				tail -n 25 "$work/console.txt"
			} > "$out/results/$mod.fail"
			echo "run-qemu: $mod: $(head -1 "$out/results/$mod.fail")" >&2
			tail -n 25 "$work/console.txt" | sed 's/^/  | /' >&2
			continue
		fi
		echo "$mod $name $iters $budget $extra" >> "$work/next"
	done < "$work/todo"
	if [ -z "$hung" ] && [ -s "$work/next" ]; then
		# Nothing started and nothing finished: the guest never got going.
		echo "run-qemu: the guest did not run the modules (qemu exit $rc); console tail:" >&2
		tail -n 25 "$work/console.txt" | sed 's/^/  | /' >&2
		while read -r mod _; do
			echo "guest failed before running it (qemu exit $rc)" > "$out/results/$mod.fail"
		done < "$work/next"
		: > "$work/next"
	fi
	mv "$work/next" "$work/todo"
	[ $boot -lt 20 ] || { echo "run-qemu: giving up after $boot boots" >&2; break; }
done
while read -r mod; do
	[ -f "$out/results/$mod.fail" ] && status=1
done < "$work/planned"
exit $status

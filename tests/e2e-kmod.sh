#!/usr/bin/env bash
# e2e-kmod.sh - end-to-end checks of "lkmmc --kmod" (kernel modules):
#  1. every tests/kmod/NAME.litmus with a NAME.expect cannot run as a
#     module: lkmmc --kmod exits 1 and prints exactly that located line;
#  2. on litmus-tests/*.litmus and the kernel's 34, lkmmc --kmod exits 1
#     with exactly the lines of tests/kmod/litmus-tests.expect (the tests
#     that cannot run, and why); every other test gets a module source, a
#     Kbuild Makefile and a test.info;
#  3. the generated code uses the real kernel primitive for each IR
#     primitive (spot checks across the families);
#  4. when Debian's linux-headers-amd64 is installed: a sample of modules
#     covering every family (and tests/kmod/ok-*.litmus) compiles without a
#     warning (make check-kernel compiles and runs them all);
#  5. kernel/run-qemu.sh refuses to load anything on the host.
# Prints "N passed, N failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
LKMM_DIR=${LKMM_DIR:-build/linux/tools/memory-model}
scratch e2e-kmod

# 1. tests that cannot run, with their messages
for t in tests/kmod/*.litmus; do
	exp=${t%.litmus}.expect
	[ -f "$exp" ] || continue
	"$LKMMC" --kmod "$tmp/err" "$t" > /dev/null 2> "$tmp/stderr"
	rc=$?
	if [ $rc -ne 1 ]; then
		bad "$t: exit $rc, expected 1"
	elif ! diff -u "$exp" "$tmp/stderr" > "$tmp/diff"; then
		bad "$t: message differs"; cat "$tmp/diff"
	elif [ -n "$(ls "$tmp/err" | grep -v '^Makefile$')" ]; then
		bad "$t: a module was written for a test that cannot run"
	else
		ok
	fi
	rm -rf "$tmp/err"
done

# 2. all our tests and the kernel's
out=$tmp/mods
"$LKMMC" --kmod "$out" litmus-tests/*.litmus "$LKMM_DIR"/litmus-tests/*.litmus \
	tests/kmod/ok-*.litmus > /dev/null 2> "$tmp/stderr"
rc=$?
if [ $rc -ne 1 ] || ! diff -u tests/kmod/litmus-tests.expect "$tmp/stderr"; then
	bad "lkmmc --kmod on litmus-tests/ and the kernel's tests: exit $rc, or other messages than tests/kmod/litmus-tests.expect"
else
	ok
fi
nexp=$(( $(ls litmus-tests/*.litmus "$LKMM_DIR"/litmus-tests/*.litmus tests/kmod/ok-*.litmus | wc -l) -
	$(wc -l < tests/kmod/litmus-tests.expect) ))
ngen=0
for d in "$out"/lk_*/; do
	m=$(basename "$d")
	if [ -s "$d/$m.c" ] && [ -s "$d/Makefile" ] && grep -q '^name=' "$d/test.info"; then
		ngen=$((ngen + 1))
	else
		bad "$m: incomplete module folder"
	fi
done
[ "$ngen" -eq "$nexp" ] && ok || bad "$ngen modules generated, expected $nexp"
grep -q 'obj-m' "$out/Makefile" && ok || bad "no top-level Kbuild Makefile"

# 3. primitives
expect_code() { # MODULE REGEX
	if grep -Eq -- "$2" "$out/$1/$1.c"; then ok; else bad "$1: no match for '$2'"; fi
}
expect_code lk_SB_pos 'WRITE_ONCE\(in->v_x, 1L\);'
# a corpus-style name with a folder: /proc/auto@..., never a '/' in it
expect_code lk_auto_C_MP_wmb_rmb '^#define LK_PROC_NAME "auto@C-MP\+wmb\+rmb"$'
grep -qx 'proc=auto@C-MP+wmb+rmb' "$out/lk_auto_C_MP_wmb_rmb/test.info" && ok ||
	bad "lk_auto_C_MP_wmb_rmb: test.info has no proc=auto@C-MP+wmb+rmb"
expect_code lk_SB_pos 'R0 = \(long\)READ_ONCE\(in->v_y\);'
expect_code lk_MP_rel_acq 'smp_store_release\(&in->v_y, 1L\);'
expect_code lk_MP_rel_acq 'smp_load_acquire\(&in->v_y\)'
expect_code lk_MP_wmb_xchgacq 'xchg_acquire\(&in->v_y, 2L\)'
expect_code lk_MP_wmb_xchgrelaxed 'xchg_relaxed\('
expect_code lk_MP_xchgrel_acq 'xchg_release\('
expect_code lk_SB_xchgs '= \(long\)xchg\(&in->v_'
expect_code lk_cmpxchg_ok_fail 'cmpxchg\(&in->v_x, 0L, 1L\)'
expect_code lk_MP_fetchaddrel_readacq 'atomic_fetch_add_release\(1L, &in->v_y\)'
expect_code lk_MP_fetchaddrel_readacq 'atomic_read_acquire\(&in->v_y\)'
expect_code lk_atomic_add_return 'atomic_add_return\('
expect_code lk_add_unless 'atomic_add_unless\(&in->v_x, 1L, 2L\)'
expect_code lk_SB_beforeatomic_inc_mb 'smp_mb__before_atomic\(\);'
expect_code lk_SB_inc_afteratomic_mb 'smp_mb__after_atomic\(\);'
expect_code lk_SB_lock_afterspinlock_mb 'smp_mb__after_spinlock\(\);'
expect_code lk_MP_wmb_rmb 'smp_rmb\(\);'
expect_code lk_trylock_trylock 'spin_trylock\(&in->v_s\)'
expect_code lk_islocked_self 'spin_is_locked\(&in->v_s\)'
expect_code lk_MP_locks 'spin_lock\(&in->v_'
expect_code lk_RCU_gp 'synchronize_rcu\(\);'
expect_code lk_RCU_gp 'rcu_read_lock\(\);'
expect_code lk_SRCU_gp 'static struct srcu_struct lk_srcu_s;'
expect_code lk_SRCU_gp 'init_srcu_struct\(&lk_srcu_s\)'
expect_code lk_SRCU_gp 'srcu_read_lock\(&lk_srcu_s\)'
expect_code lk_SRCU_gp 'synchronize_srcu\(&lk_srcu_s\)'
expect_code lk_MP_onceassign_derefonce 'READ_ONCE\(\(\*\(long \*\)R0\)\)'
expect_code lk_SB_mbs_filter 'static int lk_filter\(const long \*v\)'
expect_code lk_SB_poonceonces '#define LK_COND_TEXT "exists \(0:r0=0 /\\\\ 1:r0=0\)"'
expect_code lk_SB_poonceonces 'lk_col_label\[LK_NCOLS \+ 1\] = \{"0:r0", "1:r0", NULL \}'

# 4. compile a sample against the headers
if kver=$(kernel/kernel-version.sh 2> /dev/null); then
	mkdir -p "$tmp/sample"
	for m in lk_SB_pos lk_MP_onceassign_derefonce lk_SB_xchgs lk_MP_fetchaddrel_readacq \
		lk_add_unless lk_dec_and_test_mp lk_trylock_trylock lk_RCU_MP_cond_rscs_z0 \
		lk_SRCU_gp lk_LB_unlocklock_mb lk_MP_wmb_rmb_filter lk_cond_lock; do
		cp -r "$out/$m" "$tmp/sample/"
	done
	cp "$out/Makefile" "$tmp/sample/"
	# (a make of its own: under "make -j2 check" the inherited jobserver
	# flags would make the kernel build warn "-j forced in submake")
	if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$tmp/sample" KDIR="/lib/modules/$kver/build" -j"$(nproc)" > "$tmp/build.log" 2>&1 &&
	   ! grep -E 'warning:|error:' "$tmp/build.log" && [ "$(ls "$tmp"/sample/*/*.ko | wc -l)" -eq 12 ]; then
		ok
	else
		bad "the sample modules do not build cleanly against $kver:"; tail -20 "$tmp/build.log"
	fi
else
	echo "skipped: compiling modules (no linux-headers-amd64; make kernel-deps)"
fi

# 5. never on the host
if kernel/run-qemu.sh --insmod "$out" > /dev/null 2> "$tmp/stderr"; [ $? -eq 2 ] &&
   grep -q 'refusing: test modules are loaded only inside the QEMU guest' "$tmp/stderr"; then
	ok
else
	bad "kernel/run-qemu.sh --insmod did not refuse"
fi

report

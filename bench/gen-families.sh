#!/usr/bin/env bash
# bench/gen-families.sh - generate the scaling families of litmus tests that
# bench/bench.sh times: one test per family and process count N, each with
# its expected answer in a "Result:" comment (derived below from the LKMM's
# rules, never from running a checker). It does not run anything.
#
# usage: bench/gen-families.sh [options]
#   --out DIR          where the .litmus files go (default build/bench/families)
#   --n LIST           process counts: "2-24", "2-24/2" (every 2nd), "2,3,8"
#                      or a mix "2-8,12,16-24/4" (default 2-24)
#   --families LIST    comma-separated subset of the families (default all;
#                      "locks" stands for the lock programs)
#   --list             print the families and exit (--list-locks: the locks)
# Prints the paths of the generated files, one a line, family by family.
#
# The families (N processes, P0 ... P(N-1), locations x0 ... ):
#   rcu-never      RCU chain in the style of the corpus's auto/C-RW-* tests:
#                  Pi reads x_i and writes x_(i+1 mod N), either as a reader
#                  (inside rcu_read_lock/unlock) or as a writer
#                  (synchronize_rcu() between its two accesses); here the
#                  even processes are writers, so #G >= #R.
#                  Expected Never: the LKMM's rcu axiom (explanation.txt,
#                  "RCU RELATIONS") forbids every cycle of rcu-link with at
#                  least as many grace periods as read-side sections, and
#                  the corpus's C-RW-[RG] tests agree (N >= 2).
#   rcu-sometimes  the same chain with more readers than writers (odd
#                  processes other than the last are writers, so #R > #G):
#                  expected Sometimes (the cycle is not forbidden).
#   ra-chain       release/acquire chain, ISA2/WRC-like: P0 writes x0 then
#                  store-releases y1; Pi load-acquires y_i then
#                  store-releases y_(i+1); the last load-acquires its y and
#                  reads x0. exists all acquires saw 1 and x0 = 0: Never
#                  (release/acquire chains are cumulative).
#   sb-mb          store-buffering ring: Pi writes x_i, smp_mb(), reads
#                  x_(i+1 mod N); exists all reads 0: Never.
#   sb-plain       the same ring without smp_mb(): Sometimes.
#   lock-counter   N threads increment one counter (READ_ONCE, WRITE_ONCE
#                  of the value + 1) inside the same spinlock; exists
#                  final counter != N: Never (lock.cat serializes them).
# The lock programs (--families locks names them all; not in "all"): N
# threads each take a lock written as kernel C with spin loops, increment
# the counter c in the critical section and release the lock; exists
# final c != N.
#   ticket         ticket lock: atomic_fetch_add_relaxed ticket, spin on
#                  atomic_read_acquire(owner) != ticket, atomic_set_release
#                  of ticket + 1: Never (acquire/release order the
#                  critical sections, recipes.txt).
#   ticket-noacq   the same spinning with atomic_read (acquire removed):
#                  Sometimes (leaving a loop is a control dependency, which
#                  does not order the critical section's load).
#   ttas           test-and-test-and-set lock (x86's virt_spin_lock): spin
#                  while atomic_read(l) != 0, then atomic_cmpxchg_acquire
#                  (l, 0, 1), again if it failed; atomic_set_release(l, 0):
#                  Never.
#   ttas-norel     the same unlocked with atomic_set (the release barrier
#                  removed): Sometimes (the critical section's store to c
#                  may reach the next holder after its store to l, so the
#                  next holder's load of c can miss it).
#   mcs            MCS queue lock (kernel/locking/mcs_spinlock.h) over
#                  arrays of nodes: xchg on tail, link into prev's next,
#                  spin on smp_load_acquire(locked[i]); unlock hands over
#                  with smp_store_release or cmpxchg_release(tail): Never.
#   qrwlock        queued reader-writer lock (kernel/locking/qrwlock.c,
#                  simplified: readers add 1 to cnts, a waiting writer 100,
#                  a writer holds 200; waiters queue on a spinlock): even
#                  threads write x and y, odd ones read them; exists a
#                  torn pair.  Never with 2 threads; Sometimes from 3 on
#                  under Linux 6.1's model: a writer's acquire may read the
#                  count a reader's slow path gave back (atomic_sub_return,
#                  fully ordered, but its fences come before its read and
#                  after its write), and 6.1 has no ordering through an RMW
#                  from the previous writer's release (6.12 added
#                  rmw-sequence to cumul-fence for that): the second writer
#                  can miss the first one's stores.
#   mutex-flag     a mutex whose lock loop takes atomic_cmpxchg_acquire's
#                  result (the old value) as a success flag; BUG_ON checks
#                  that nobody wrote c during the critical section: both
#                  the lost increment and the BUG_ON are reachable
#                  (Sometimes; exit status 3).
# The long-thread programs (--families long; not in "all"): here N is the
# number of stores of each thread, not of threads.  Thread i stores 1 to
# its flag a_i, then 2..N alternately to its own b_i and c_i and, after
# every 5th store, reads the flag a_j of the next thread j (a ring; each
# load reads 0 or 1, so the final states stay few).
#   long-mb        2 threads, smp_mb() before each load; exists every
#                  thread's first load read 0: Never (the first loads and
#                  first stores form store buffering with smp_mb() in
#                  each thread, which the LKMM forbids).
#   long-plain     the same without smp_mb(): Sometimes (store buffering).
#   long4-mb       long-mb with 4 threads in a ring: Never.
#   long-shared    long-mb with both threads storing to the same b and c
#                  (so co orders 2N stores of each across the threads, the
#                  memory-hungry shape of issue 18's "2 threads x N
#                  stores"): Never.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
ALL_FAMILIES="rcu-never rcu-sometimes ra-chain sb-mb sb-plain lock-counter"
LOCK_FAMILIES="ticket ticket-noacq ttas ttas-norel mcs qrwlock mutex-flag"
LONG_FAMILIES="long-mb long-plain long4-mb long-shared"
out=$root/build/bench/families
nspec=2-24
families=$ALL_FAMILIES
usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--n) nspec=$2; shift 2 ;;
	--families)
		families=
		for f in $(printf '%s' "$2" | tr ',' ' '); do
			case $f in
			locks) families+=" $LOCK_FAMILIES" ;;
			long) families+=" $LONG_FAMILIES" ;;
			*) families+=" $f" ;;
			esac
		done
		shift 2 ;;
	--list) printf '%s\n' $ALL_FAMILIES; exit 0 ;;
	--list-locks) printf '%s\n' $LOCK_FAMILIES; exit 0 ;;
	--list-long) printf '%s\n' $LONG_FAMILIES; exit 0 ;;
	-h|--help) usage ;;
	*) echo "gen-families: unknown argument '$1'" >&2; usage ;;
	esac
done

# "2-8,12,16-24/4" -> 2 3 4 5 6 7 8 12 16 20 24; rejects anything else.
expand_n() {
	local part lo hi step n
	for part in $(printf '%s' "$1" | tr ',' ' '); do
		if [[ $part =~ ^([0-9]+)-([0-9]+)(/([0-9]+))?$ ]]; then
			lo=${BASH_REMATCH[1]} hi=${BASH_REMATCH[2]} step=${BASH_REMATCH[4]:-1}
		elif [[ $part =~ ^[0-9]+$ ]]; then
			lo=$part hi=$part step=1
		else
			echo "gen-families: bad --n part '$part' (want e.g. 2-24, 2-24/2, 5)" >&2; return 1
		fi
		[ "$step" -ge 1 ] || { echo "gen-families: --n step must be >= 1" >&2; return 1; }
		for ((n = 10#$lo; n <= 10#$hi; n += 10#$step)); do
			if [ "$n" -lt 2 ] || [ "$n" -gt 5000 ]; then
				echo "gen-families: N=$n out of range (2..5000)" >&2; return 1
			fi
			echo "$n"
		done
	done
}
ns=$(expand_n "$nspec") || exit 2
[ -n "$ns" ] || { echo "gen-families: --n '$nspec' selects nothing" >&2; exit 2; }
for f in $families; do
	case " $ALL_FAMILIES $LOCK_FAMILIES $LONG_FAMILIES " in *" $f "*) ;; *)
		echo "gen-families: unknown family '$f' (known: $ALL_FAMILIES $LOCK_FAMILIES $LONG_FAMILIES; locks, long)" >&2; exit 2 ;;
	esac
done

# The RCU chain: $3 is the role string, one letter per process (G writer,
# R reader); the cycle is forbidden iff #G >= #R.
gen_rcu() {
	local name=$1 n=$2 roles=$3 i j g=0 r=0 want cond=""
	for ((i = 0; i < n; i++)); do
		if [ "${roles:i:1}" = G ]; then g=$((g + 1)); else r=$((r + 1)); fi
	done
	if [ "$g" -ge "$r" ]; then want=Never; else want=Sometimes; fi
	printf 'C %s\n(*\n * Result: %s\n *\n' "$name" "$want"
	printf ' * Generated by bench/gen-families.sh: an RCU chain of %d processes,\n' "$n"
	printf ' * %d with a grace period (G) and %d read-side critical sections (R),\n' "$g" "$r"
	printf ' * roles %s. The rcu axiom forbids the cycle iff #G >= #R.\n *)\n{\n}\n' "$roles"
	for ((i = 0; i < n; i++)); do
		j=$(((i + 1) % n))
		if [ "$j" -eq "$i" ]; then printf '\nP%d(intptr_t *x%d)\n{\n' "$i" "$i"
		else printf '\nP%d(intptr_t *x%d, intptr_t *x%d)\n{\n' "$i" "$i" "$j"; fi
		if [ "${roles:i:1}" = G ]; then
			printf '\tintptr_t r1 = READ_ONCE(*x%d);\n\tsynchronize_rcu();\n\tWRITE_ONCE(*x%d, 1);\n}\n' "$i" "$j"
		else
			printf '\trcu_read_lock();\n\tintptr_t r1 = READ_ONCE(*x%d);\n\tWRITE_ONCE(*x%d, 1);\n\trcu_read_unlock();\n}\n' "$i" "$j"
		fi
		cond="$cond${cond:+ /\\ }$i:r1=1"
	done
	printf '\nexists\n(%s)\n' "$cond"
}

rcu_never() {
	local n=$1 i roles=""
	for ((i = 0; i < n; i++)); do if ((i % 2 == 0)); then roles+=G; else roles+=R; fi; done
	gen_rcu "rcu-never-$(printf %02d "$n")" "$n" "$roles"
}

rcu_sometimes() {
	local n=$1 i roles=""
	for ((i = 0; i < n; i++)); do
		if ((i % 2 == 1 && i != n - 1)); then roles+=G; else roles+=R; fi
	done
	gen_rcu "rcu-sometimes-$(printf %02d "$n")" "$n" "$roles"
}

ra_chain() {
	local n=$1 i last=$(($1 - 1)) cond=""
	printf 'C ra-chain-%02d\n(*\n * Result: Never\n *\n' "$n"
	printf ' * Generated by bench/gen-families.sh: a release/acquire chain of %d\n' "$n"
	printf ' * processes (ISA2/WRC-like). Release/acquire is cumulative, so the last\n'
	printf ' * process cannot miss P0'"'"'s store to x0 after acquiring the chain.\n *)\n{\n}\n'
	printf '\nP0(int *x0, int *y1)\n{\n\tWRITE_ONCE(*x0, 1);\n\tsmp_store_release(y1, 1);\n}\n'
	for ((i = 1; i < last; i++)); do
		printf '\nP%d(int *y%d, int *y%d)\n{\n\tint r0 = smp_load_acquire(y%d);\n' "$i" "$i" $((i + 1)) "$i"
		printf '\tsmp_store_release(y%d, 1);\n}\n' $((i + 1))
		cond="$cond$i:r0=1 /\\ "
	done
	printf '\nP%d(int *y%d, int *x0)\n{\n\tint r0 = smp_load_acquire(y%d);\n' "$last" "$last" "$last"
	printf '\tint r1 = READ_ONCE(*x0);\n}\n'
	printf '\nexists\n(%s%d:r0=1 /\\ %d:r1=0)\n' "$cond" "$last" "$last"
}

# $2: "mb" puts smp_mb() between each process's store and load.
sb_ring() {
	local n=$1 fence=$2 i j cond="" want=Sometimes why="nothing orders a store before the later load"
	if [ "$fence" = mb ]; then want=Never why="smp_mb() orders each store before the later load"; fi
	printf 'C sb-%s-%02d\n(*\n * Result: %s\n *\n' "$fence" "$n" "$want"
	printf ' * Generated by bench/gen-families.sh: a store-buffering ring of %d\n' "$n"
	printf ' * processes; %s.\n *)\n{\n}\n' "$why"
	for ((i = 0; i < n; i++)); do
		j=$(((i + 1) % n))
		printf '\nP%d(int *x%d, int *x%d)\n{\n\tWRITE_ONCE(*x%d, 1);\n' "$i" "$i" "$j" "$i"
		[ "$fence" = mb ] && printf '\tsmp_mb();\n'
		printf '\tint r0 = READ_ONCE(*x%d);\n}\n' "$j"
		cond="$cond${cond:+ /\\ }$i:r0=0"
	done
	printf '\nexists\n(%s)\n' "$cond"
}

lock_counter() {
	local n=$1 i
	printf 'C lock-counter-%02d\n(*\n * Result: Never\n *\n' "$n"
	printf ' * Generated by bench/gen-families.sh: %d threads increment one counter\n' "$n"
	printf ' * under the same spinlock; the critical sections are serialized, so no\n'
	printf ' * increment is lost.\n *)\n{\n}\n'
	for ((i = 0; i < n; i++)); do
		printf '\nP%d(int *c, spinlock_t *l)\n{\n\tspin_lock(l);\n\tint r0 = READ_ONCE(*c);\n' "$i"
		printf '\tWRITE_ONCE(*c, r0 + 1);\n\tspin_unlock(l);\n}\n'
	done
	printf '\nexists\n(~c=%d)\n' "$n"
}

# The lock programs' common header: $1 name, $2 Result, then comment lines.
lock_head() {
	local name=$1 want=$2
	shift 2
	printf 'C %s\n(*\n * Result: %s\n *\n * Generated by bench/gen-families.sh.\n' "$name" "$want"
	printf ' * %s\n' "$@"
	printf ' *)\n'
}

# $2: the spin's load, atomic_read_acquire (correct) or atomic_read.
ticket() {
	local n=$1 rd=$2 name=ticket want=Never i
	[ "$rd" = atomic_read ] && { name=ticket-noacq; want=Sometimes; }
	lock_head "$name-$(printf %02d "$n")" "$want" \
		"A ticket lock taken by $n threads, each incrementing c once inside it;" \
		"the spin-wait reads owner with $rd()."
	printf '{\n}\n'
	for ((i = 0; i < n; i++)); do
		printf '\nP%d(atomic_t *next, atomic_t *owner, int *c)\n{\n' "$i"
		printf '\tint t = atomic_fetch_add_relaxed(1, next);\n\n'
		printf '\twhile (%s(owner) != t)\n\t\tcpu_relax();\n' "$rd"
		printf '\tint r0 = READ_ONCE(*c);\n\tWRITE_ONCE(*c, r0 + 1);\n'
		printf '\tatomic_set_release(owner, t + 1);\n}\n'
	done
	printf '\nexists (~c=%d)\n' "$n"
}

ttas() {
	local n=$1 unlock=$2 i name=ttas want=Never
	[ "$unlock" = atomic_set ] && { name=ttas-norel; want=Sometimes; }
	lock_head "$name-$(printf %02d "$n")" "$want" \
		"A test-and-test-and-set lock (x86's virt_spin_lock) taken by $n threads," \
		"each incrementing c once inside it, unlocked with $unlock."
	printf '{\n}\n'
	for ((i = 0; i < n; i++)); do
		printf '\nP%d(atomic_t *l, int *c)\n{\n\tint r1;\n\n\tdo {\n' "$i"
		printf '\t\twhile (atomic_read(l) != 0)\n\t\t\tcpu_relax();\n'
		printf '\t\tr1 = atomic_cmpxchg_acquire(l, 0, 1);\n\t} while (r1 != 0);\n'
		printf '\tint r0 = READ_ONCE(*c);\n\tWRITE_ONCE(*c, r0 + 1);\n'
		printf '\t%s(l, 0);\n}\n' "$unlock"
	done
	printf '\nexists (~c=%d)\n' "$n"
}

# Node i is locked[i], next[i]; tail and next hold a node's index + 1
# (0 is NULL).
mcs() {
	local n=$1 i
	lock_head "mcs-$(printf %02d "$n")" Never \
		"An MCS queue lock taken by $n threads, each incrementing c once inside it;" \
		"node i is locked[i] and next[i], a node is named by its index + 1."
	printf '{\n\tint locked[%d];\n\tint next[%d];\n}\n' "$n" "$n"
	for ((i = 0; i < n; i++)); do
		printf '\nP%d(atomic_t *tail, int *locked, int *next, int *c)\n{\n' "$i"
		printf '\tint prev;\n\tint nx;\n\tint r1;\n\n'
		printf '\tprev = atomic_xchg(tail, %d);\n\tif (prev) {\n' $((i + 1))
		printf '\t\tWRITE_ONCE(next[prev - 1], %d);\n' $((i + 1))
		printf '\t\twhile (!smp_load_acquire(&locked[%d]))\n\t\t\tcpu_relax();\n\t}\n' "$i"
		printf '\tint r0 = READ_ONCE(*c);\n\tWRITE_ONCE(*c, r0 + 1);\n\n'
		printf '\tnx = READ_ONCE(next[%d]);\n\tif (!nx) {\n' "$i"
		printf '\t\tr1 = atomic_cmpxchg_release(tail, %d, 0);\n\t\tif (r1 != %d) {\n' $((i + 1)) $((i + 1))
		printf '\t\t\twhile (!(nx = READ_ONCE(next[%d])))\n\t\t\t\tcpu_relax();\n\t\t}\n\t}\n' "$i"
		printf '\tif (nx)\n\t\tsmp_store_release(&locked[nx - 1], 1);\n}\n'
	done
	printf '\nexists (~c=%d)\n' "$n"
}

# cnts: readers add 1, a waiting writer 100, the writer holding it 200.
qrwlock() {
	local n=$1 i j cond="" want=Never
	((n >= 3)) && want=Sometimes # see the header: no rmw-sequence in 6.1
	lock_head "qrwlock-$(printf %02d "$n")" "$want" \
		"A queued reader-writer lock (kernel/locking/qrwlock.c, simplified) used" \
		"by $n threads: even ones write x and y, odd ones read both; no reader" \
		"sees a torn pair and the writers do not interleave."
	printf '{\n}\n'
	for ((i = 0; i < n; i++)); do
		printf '\nP%d(atomic_t *cnts, spinlock_t *wait_lock, int *x, int *y)\n{\n' "$i"
		if ((i % 2 == 0)); then
			printf '\tint r;\n\n\tspin_lock(wait_lock);\n'
			printf '\tr = atomic_cmpxchg_acquire(cnts, 0, 200);\n\tif (r != 0) {\n'
			printf '\t\tatomic_add(100, cnts);\n\t\tdo {\n'
			printf '\t\t\tatomic_cond_read_relaxed(cnts, VAL == 100);\n'
			printf '\t\t} while (atomic_cmpxchg_acquire(cnts, 100, 200) != 100);\n\t}\n'
			printf '\tspin_unlock(wait_lock);\n'
			printf '\tWRITE_ONCE(*x, %d);\n\tWRITE_ONCE(*y, %d);\n' $((i + 1)) $((i + 1))
			printf '\tatomic_sub_return_release(200, cnts);\n}\n'
		else
			printf '\tint c;\n\n\tc = atomic_add_return_acquire(1, cnts);\n\tif (c >= 100) {\n'
			printf '\t\tatomic_sub_return(1, cnts);\n\t\tspin_lock(wait_lock);\n\t\tatomic_add(1, cnts);\n'
			printf '\t\tatomic_cond_read_acquire(cnts, VAL < 200);\n\t\tspin_unlock(wait_lock);\n\t}\n'
			printf '\tint r0 = READ_ONCE(*x);\n\tint r1 = READ_ONCE(*y);\n'
			printf '\tatomic_sub_return_release(1, cnts);\n}\n'
			cond="$cond${cond:+ \\/ }~$i:r0=$i:r1"
		fi
	done
	for ((i = 0; i < n; i += 2)); do
		for ((j = 0; j < n; j += 2)); do
			((i != j)) && cond="$cond \\/ x=$((i + 1)) /\\ y=$((j + 1))"
		done
	done
	printf '\nexists (%s)\n' "$cond"
}

mutex_flag() {
	local n=$1 i
	lock_head "mutex-flag-$(printf %02d "$n")" Sometimes \
		"A mutex taken by $n threads whose lock loop takes the result of" \
		"atomic_cmpxchg_acquire() (the old value) as a success flag: a thread" \
		"enters when the lock is held. The lost increment and the BUG_ON are" \
		"reachable (Assert: fails)."
	printf '{\n}\n'
	for ((i = 0; i < n; i++)); do
		printf '\nP%d(atomic_t *l, int *c)\n{\n' "$i"
		printf '\twhile (!atomic_cmpxchg_acquire(l, 0, 1))\n\t\tcpu_relax();\n'
		printf '\tint r0 = READ_ONCE(*c);\n\tWRITE_ONCE(*c, r0 + 1);\n'
		printf '\tint r1 = READ_ONCE(*c);\n\tBUG_ON(r1 != r0 + 1);\n'
		printf '\tatomic_set_release(l, 0);\n}\n'
	done
	printf '\nexists (~c=%d)\n' "$n"
}

# $1 stores per thread, $2 threads, $3 "mb" or "plain", $4 "shared": b
# and c are the same two locations for every thread.
long_threads() {
	local n=$1 t=$2 fence=$3 shared=${4:-} i j k name want=Never why cond="" bi ci
	name=long$([ "$t" -gt 2 ] && echo "$t")-$fence-$(printf %02d "$n")
	[ -n "$shared" ] && name=long-shared-$(printf %02d "$n")
	why="each thread's first store and, after smp_mb(), its first load form store buffering"
	[ "$fence" = plain ] && { want=Sometimes; why="nothing orders a store before a later load"; }
	printf 'C %s\n(*\n * Result: %s\n *\n * Generated by bench/gen-families.sh.\n' "$name" "$want"
	if [ -n "$shared" ]; then
		printf ' * %d threads of %d stores each (a flag a_i, then the shared b and c in turn),\n' "$t" "$n"
	else
		printf ' * %d threads of %d stores each (a flag a_i, then b_i and c_i in turn),\n' "$t" "$n"
	fi
	printf ' * reading the next thread'"'"'s flag after every 5th store: %s.\n *)\n{\n}\n' "$why"
	for ((i = 0; i < t; i++)); do
		j=$(((i + 1) % t))
		bi=b$i ci=c$i
		[ -n "$shared" ] && bi=b ci=c
		printf '\nP%d(int *a%d, int *%s, int *%s, int *a%d)\n{\n' "$i" "$i" "$bi" "$ci" "$j"
		for ((k = 1; k <= n; k++)); do
			if ((k == 1)); then printf '\tWRITE_ONCE(*a%d, 1);\n' "$i"
			elif ((k % 2)); then printf '\tWRITE_ONCE(*%s, %d);\n' "$ci" "$k"
			else printf '\tWRITE_ONCE(*%s, %d);\n' "$bi" "$k"; fi
			if ((k % 5 == 0)); then
				[ "$fence" = mb ] && printf '\tsmp_mb();\n'
				printf '\tint r%d = READ_ONCE(*a%d);\n' $((k / 5 - 1)) "$j"
			fi
		done
		printf '}\n'
		cond="$cond${cond:+ /\\ }$i:r0=0"
	done
	printf '\nexists\n(%s)\n' "$cond"
}

mkdir -p "$out" || exit 2
for f in $families; do
	for n in $ns; do
		file=$out/$f-$(printf %02d "$n").litmus
		case $f in
		rcu-never) rcu_never "$n" ;;
		rcu-sometimes) rcu_sometimes "$n" ;;
		ra-chain) ra_chain "$n" ;;
		sb-mb) sb_ring "$n" mb ;;
		sb-plain) sb_ring "$n" plain ;;
		lock-counter) lock_counter "$n" ;;
		ticket) ticket "$n" atomic_read_acquire ;;
		ticket-noacq) ticket "$n" atomic_read ;;
		ttas) ttas "$n" atomic_set_release ;;
		ttas-norel) ttas "$n" atomic_set ;;
		mcs) mcs "$n" ;;
		qrwlock) qrwlock "$n" ;;
		mutex-flag) mutex_flag "$n" ;;
		long-mb) long_threads "$n" 2 mb ;;
		long-plain) long_threads "$n" 2 plain ;;
		long4-mb) long_threads "$n" 4 mb ;;
		long-shared) long_threads "$n" 2 mb shared ;;
		esac >"$file" || exit 2
		echo "$file"
	done
done

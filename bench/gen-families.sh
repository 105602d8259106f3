#!/usr/bin/env bash
# bench/gen-families.sh - generate the scaling families of litmus tests that
# bench/bench.sh times (and, for some, the same test as a whole C program,
# which bench/programs.sh times against GenMC): one test per family and
# process count N, each with its expected answer in a "Result:" comment
# (derived below from the LKMM's rules, never from running a checker). It
# does not run anything.
#
# usage: bench/gen-families.sh [options]
#   --out DIR          where the .litmus files go (default build/bench/families)
#   --n LIST           process counts: "2-24", "2-24/2" (every 2nd), "2,3,8"
#                      or a mix "2-8,12,16-24/4" (default 2-24)
#   --families LIST    comma-separated subset of the families (default all;
#                      "locks" stands for the lock programs, "idx" for the
#                      per-thread-index ones, "long" for the long threads)
#   --form F           litmus (default), c (the whole C program of the
#                      families that have one: the idx ones and long-xy),
#                      or both
#   --list             print the families and exit (--list-locks: the locks,
#                      --list-idx, --list-long)
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
#   long-xy        the shape of issue 35: 2 threads of N WRITE_ONCE()s each,
#                  alternating over the shared x and y (P0 from x, P1 from
#                  y) with the values 1, 2, 3 in turn, a READ_ONCE() after
#                  every 5th store (of x and y in turn, P1 the other way
#                  round; after the last when N < 5), no fences; exists
#                  (0:r0=0 /\ 1:r0=0): Never by coherence alone (each
#                  thread has written the location before its first read,
#                  and po-loc | com is acyclic, so the read sees its own
#                  store or a later one, never the initial 0).  Also as a
#                  C program (--form c).
# The per-thread-index lock programs (--families idx; not in "all"), the
# form third-party lock programs take: N threads run the same code but
# each knows its index i (in the C form: one function, created in a loop
# with (void *)(intptr_t)i); inside the critical section each writes i to
# the plain (non-atomic) who, reads it back into r1, reads the plain
# counter c into r0 and writes r0 + 1 back (in the C form: who = me;
# assert(who == me); count = count + 1).  exists (~c=N \/ ~i:r1=i ...),
# in the program assert(count == N) in main: a lost increment or another
# holder's index breaks it.  Each in both forms (--form): the C program
# is written as users write them, not --to-c's output, and compiles with
# GenMC v0.9's lkmm.h too (no cpu_relax(): empty spin bodies).  Why the
# correct ones are Never with plain accesses: each hand-over is a release
# (po-rel after the plain accesses) read by an acquire (acq-po before the
# next holder's), so the previous holder's plain writes are wr-vis / ww-vis
# to the next holder's accesses and its reads rw-xbstar-before its writes;
# the plain-coherence axiom then forbids a stale value, and no race is
# flagged (linux-kernel.cat, "Plain accesses and data races").  Sometimes
# below means the condition (or a data race) is reachable; the program's
# answer is then an error (exit status 3), Never "No errors".
#   ticket-idx     the ticket lock of "ticket" (acquire spin, release
#                  hand-over): Never.
#   ticket-idx-noacq  spinning with atomic_read(): Sometimes (leaving the
#                  loop is a control dependency, which orders no read: the
#                  next holder may read c before the previous holder's
#                  increment reaches it).
#   ttas-idx       the test-and-test-and-set lock of "ttas": Never.
#   ttas-idx-norel unlocked with atomic_set() (the release lost):
#                  Sometimes (the next holder's cmpxchg_acquire reads the
#                  relaxed unlock, which the plain writes before it need
#                  not precede).
#   mutex-idx-flag the mutex of "mutex-flag" (cmpxchg's old value taken for
#                  a success flag: a thread enters while the lock is held):
#                  Sometimes (two holders at once, even as an interleaving).
#   mcs-idx        the MCS lock of "mcs", thread i using node i: Never.
#   mcs-idx-norel  the hand-over to the successor made with WRITE_ONCE()
#                  instead of smp_store_release(): Sometimes (with 2
#                  threads: P1 queues behind P0, whose critical section's
#                  plain writes are not ordered before the relaxed store
#                  P1's acquire reads).
#   qrwlock-idx    the queued rwlock of "qrwlock": even threads take it for
#                  writing and run the critical section above (c counts
#                  the writers, (N + 1) / 2), odd threads take it for
#                  reading and read c twice (r2, r3; exists also
#                  ~i:r2=i:r3, in the program assert(r2 == r3)).  Never with
#                  2 threads: a writer waiting on the slow path reads the
#                  reader's release with its atomic_add() and then its own
#                  write with its cmpxchg_acquire(), and an RMW's read is a
#                  data dependency of its write (herd7's RMWs, and
#                  encoder/symex.c's), so dep ; rfi orders the two (ppo);
#                  the reader's slow path likewise (its atomic_add(), then
#                  its acquire reading that), and the writer's plain
#                  increment is then wr-vis to the reader's plain reads
#                  (GenMC v0.9 differs here: it lets the reader's second
#                  read see the increment its first one missed, and
#                  reports the reader's assertion; with READ_ONCE() as in
#                  qrwlock-02 it finds no error).  Sometimes from 3
#                  threads on under Linux 6.1's model, for the reason
#                  given at "qrwlock" (a writer's acquire may read what a
#                  reader's slow path gave back, and 6.1 has no
#                  rmw-sequence).
#   qrwlock-idx-norel  the writer unlocks with atomic_sub_return_relaxed():
#                  Sometimes (with 2 threads the reader's two reads of c
#                  can straddle the writer's increment).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
ALL_FAMILIES="rcu-never rcu-sometimes ra-chain sb-mb sb-plain lock-counter"
LOCK_FAMILIES="ticket ticket-noacq ttas ttas-norel mcs qrwlock mutex-flag"
LONG_FAMILIES="long-mb long-plain long4-mb long-shared long-xy"
IDX_FAMILIES="ticket-idx ticket-idx-noacq ttas-idx ttas-idx-norel mutex-idx-flag mcs-idx mcs-idx-norel qrwlock-idx qrwlock-idx-norel"
# the families with a C program form
C_FAMILIES="$IDX_FAMILIES long-xy"
out=$root/build/bench/families
nspec=2-24
form=litmus
families=$ALL_FAMILIES
usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
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
			idx) families+=" $IDX_FAMILIES" ;;
			*) families+=" $f" ;;
			esac
		done
		shift 2 ;;
	--list) printf '%s\n' $ALL_FAMILIES; exit 0 ;;
	--list-locks) printf '%s\n' $LOCK_FAMILIES; exit 0 ;;
	--list-long) printf '%s\n' $LONG_FAMILIES; exit 0 ;;
	--list-idx) printf '%s\n' $IDX_FAMILIES; exit 0 ;;
	--form) form=$2; shift 2 ;;
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
	case " $ALL_FAMILIES $LOCK_FAMILIES $LONG_FAMILIES $IDX_FAMILIES " in *" $f "*) ;; *)
		echo "gen-families: unknown family '$f' (known: $ALL_FAMILIES $LOCK_FAMILIES $LONG_FAMILIES $IDX_FAMILIES; locks, long, idx)" >&2; exit 2 ;;
	esac
done
case $form in litmus|c|both) ;; *) echo "gen-families: --form must be litmus, c or both" >&2; exit 2 ;; esac

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
		mcs_thread "$i" "int *c" r1 "$(printf '\tint r0 = READ_ONCE(*c);\n\tWRITE_ONCE(*c, r0 + 1);\n')" smp_store_release
	done
	printf '\nexists (~c=%d)\n' "$n"
}

# One MCS thread: $1 its number, $2 its parameters after the lock's, $3
# the cmpxchg's register, $4 the critical section, $5 the hand-over's
# store (smp_store_release or WRITE_ONCE).
mcs_thread() {
	local i=$1
	printf '\nP%d(atomic_t *tail, int *locked, int *next, %s)\n{\n' "$i" "$2"
	printf '\tint prev;\n\tint nx;\n\tint %s;\n\n' "$3"
	printf '\tprev = atomic_xchg(tail, %d);\n\tif (prev) {\n' $((i + 1))
	printf '\t\tWRITE_ONCE(next[prev - 1], %d);\n' $((i + 1))
	printf '\t\twhile (!smp_load_acquire(&locked[%d]))\n\t\t\tcpu_relax();\n\t}\n' "$i"
	printf '%s\n\n' "$4"
	printf '\tnx = READ_ONCE(next[%d]);\n\tif (!nx) {\n' "$i"
	printf '\t\t%s = atomic_cmpxchg_release(tail, %d, 0);\n\t\tif (%s != %d) {\n' "$3" $((i + 1)) "$3" $((i + 1))
	printf '\t\t\twhile (!(nx = READ_ONCE(next[%d])))\n\t\t\t\tcpu_relax();\n\t\t}\n\t}\n' "$i"
	if [ "$5" = WRITE_ONCE ]; then printf '\tif (nx)\n\t\tWRITE_ONCE(locked[nx - 1], 1);\n}\n'
	else printf '\tif (nx)\n\t\tsmp_store_release(&locked[nx - 1], 1);\n}\n'; fi
}

# The queued rwlock's write lock and read lock (cnts: readers add 1, a
# waiting writer 100, the writer holding it 200); $1: the register of the
# reader's count.
qrw_write_lock() {
	printf '\tint r;\n\n\tspin_lock(wait_lock);\n'
	printf '\tr = atomic_cmpxchg_acquire(cnts, 0, 200);\n\tif (r != 0) {\n'
	printf '\t\tatomic_add(100, cnts);\n\t\tdo {\n'
	printf '\t\t\tatomic_cond_read_relaxed(cnts, VAL == 100);\n'
	printf '\t\t} while (atomic_cmpxchg_acquire(cnts, 100, 200) != 100);\n\t}\n'
	printf '\tspin_unlock(wait_lock);\n'
}
qrw_read_lock() {
	printf '\tint %s;\n\n\t%s = atomic_add_return_acquire(1, cnts);\n\tif (%s >= 100) {\n' "$1" "$1" "$1"
	printf '\t\tatomic_sub_return(1, cnts);\n\t\tspin_lock(wait_lock);\n\t\tatomic_add(1, cnts);\n'
	printf '\t\tatomic_cond_read_acquire(cnts, VAL < 200);\n\t\tspin_unlock(wait_lock);\n\t}\n'
}

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
			qrw_write_lock
			printf '\tWRITE_ONCE(*x, %d);\n\tWRITE_ONCE(*y, %d);\n' $((i + 1)) $((i + 1))
			printf '\tatomic_sub_return_release(200, cnts);\n}\n'
		else
			qrw_read_lock c
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

# --- The per-thread-index lock programs (idx) ---------------------------
# Litmus form: the critical section of thread $1 (who and c plain), and
# the exists clause over the $1 threads (those of $2, a list of thread
# numbers, run it; the others' $3 is extra, or-ed in).
idx_cs() {
	printf '\t*who = %d;\n\tint r1 = *who;\n\tint r0 = *c;\n\t*c = r0 + 1;\n' "$1"
}
idx_cond() {
	local holders=$1 extra=${2:-} i n=0 cond=""
	for i in $holders; do cond="$cond \\/ ~$i:r1=$i"; n=$((n + 1)); done
	printf '\nexists (~c=%d%s%s)\n' "$n" "$cond" "$extra"
}

# C form: header comment ($1 file name, $2 Result, then lines), includes.
c_head() {
	local name=$1 want=$2
	shift 2
	printf '/*\n * %s.c - generated by bench/gen-families.sh.\n' "$name"
	printf ' * %s\n' "$@"
	printf ' * Result: %s\n */\n' "$want"
	printf '#include <pthread.h>\n#include <assert.h>\n#include <stdint.h>\n#include <lkmm.h>\n\n'
}
# The shared state of every idx program ($1: N).
c_globals() {
	printf '#define N %d\n\n' "$1"
	printf 'int who;\t\t/* the holder'"'"'s index */\nint count;\t\t/* critical sections run */\n'
}
# The critical section, indented by $1 tabs.
c_cs() {
	local t
	t=$(printf '%*s' "$1" '' | tr ' ' '\t')
	printf '%swho = me;\n%sassert(who == me);\n%scount = count + 1;\n' "$t" "$t" "$t"
}
# main: N threads of worker given their index, the counter checked ($1:
# what count must be, default N).
c_main() {
	printf '\nint main(void)\n{\n\tpthread_t t[N];\n\n'
	printf '\tfor (int i = 0; i < N; i++)\n\t\tpthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);\n'
	printf '\tfor (int i = 0; i < N; i++)\n\t\tpthread_join(t[i], NULL);\n'
	printf '\tassert(count == %s);\n\treturn 0;\n}\n' "${1:-N}"
}

# $2: the spin's load, atomic_read_acquire (correct) or atomic_read.
ticket_idx() {
	local n=$1 rd=$2 form=$3 name=ticket-idx want=Never i
	[ "$rd" = atomic_read ] && { name=ticket-idx-noacq; want=Sometimes; }
	name=$name-$(printf %02d "$n")
	if [ "$form" = c ]; then
		c_head "$name" "$want" "A ticket lock taken by $n threads, each given its index; the" \
			"spin-wait reads owner with $rd()."
		c_globals "$n"
		printf 'atomic_t next;\t\t/* the next ticket */\natomic_t owner;\t\t/* the ticket served */\n\n'
		printf 'void *worker(void *arg)\n{\n\tint me = (int)(intptr_t)arg;\n'
		printf '\tint t = atomic_fetch_add_relaxed(1, &next);\n\n'
		printf '\twhile (%s(&owner) != t)\n\t\t;\n' "$rd"
		c_cs 1
		printf '\tatomic_set_release(&owner, t + 1);\n\treturn NULL;\n}\n'
		c_main
		return
	fi
	lock_head "$name" "$want" \
		"A ticket lock taken by $n threads, each writing its index to the plain" \
		"who and counting in the plain c; the spin-wait reads owner with $rd()."
	printf '{\n}\n'
	for ((i = 0; i < n; i++)); do
		printf '\nP%d(atomic_t *next, atomic_t *owner, int *who, int *c)\n{\n' "$i"
		printf '\tint t = atomic_fetch_add_relaxed(1, next);\n\n'
		printf '\twhile (%s(owner) != t)\n\t\tcpu_relax();\n' "$rd"
		idx_cs "$i"
		printf '\tatomic_set_release(owner, t + 1);\n}\n'
	done
	idx_cond "$(seq 0 $((n - 1)))"
}

# $2: the lock loop, ttas or flag (mutex-flag's); $3: the unlock.
ttas_idx() {
	local n=$1 kind=$2 unlock=$3 form=$4 name want=Never i what
	case $kind/$unlock in
	ttas/atomic_set_release) name=ttas-idx ;;
	ttas/*) name=ttas-idx-norel; want=Sometimes ;;
	*) name=mutex-idx-flag; want=Sometimes ;;
	esac
	name=$name-$(printf %02d "$n")
	what="A test-and-test-and-set lock (x86's virt_spin_lock)"
	[ "$kind" = flag ] && what="A mutex whose lock loop takes atomic_cmpxchg_acquire()'s old value for a success flag"
	if [ "$form" = c ]; then
		c_head "$name" "$want" "$what," "taken by $n threads, each given its index; unlocked with $unlock()."
		c_globals "$n"
		printf 'atomic_t lock;\n\nvoid *worker(void *arg)\n{\n\tint me = (int)(intptr_t)arg;\n\n'
		if [ "$kind" = flag ]; then
			printf '\twhile (!atomic_cmpxchg_acquire(&lock, 0, 1))\n\t\t;\n'
		else
			printf '\tdo {\n\t\twhile (atomic_read(&lock) != 0)\n\t\t\t;\n'
			printf '\t} while (atomic_cmpxchg_acquire(&lock, 0, 1) != 0);\n'
		fi
		c_cs 1
		printf '\t%s(&lock, 0);\n\treturn NULL;\n}\n' "$unlock"
		c_main
		return
	fi
	lock_head "$name" "$want" "$what," \
		"taken by $n threads, each writing its index to the plain who and" \
		"counting in the plain c; unlocked with $unlock()."
	printf '{\n}\n'
	for ((i = 0; i < n; i++)); do
		printf '\nP%d(atomic_t *l, int *who, int *c)\n{\n' "$i"
		if [ "$kind" = flag ]; then
			printf '\twhile (!atomic_cmpxchg_acquire(l, 0, 1))\n\t\tcpu_relax();\n'
		else
			printf '\tint r2;\n\n\tdo {\n\t\twhile (atomic_read(l) != 0)\n\t\t\tcpu_relax();\n'
			printf '\t\tr2 = atomic_cmpxchg_acquire(l, 0, 1);\n\t} while (r2 != 0);\n'
		fi
		idx_cs "$i"
		printf '\t%s(l, 0);\n}\n' "$unlock"
	done
	idx_cond "$(seq 0 $((n - 1)))"
}

# $2: the hand-over's store, smp_store_release or WRITE_ONCE.  Node i is
# locked[i], next[i]; tail and next hold a node's index + 1 (0 is NULL).
mcs_idx() {
	local n=$1 st=$2 form=$3 name=mcs-idx want=Never i
	[ "$st" = WRITE_ONCE ] && { name=mcs-idx-norel; want=Sometimes; }
	name=$name-$(printf %02d "$n")
	if [ "$form" = c ]; then
		c_head "$name" "$want" "An MCS queue lock taken by $n threads, thread i queueing node i;" \
			"the hand-over to the successor is $st()."
		c_globals "$n"
		printf 'atomic_t tail;\t\t/* the last node'"'"'s index + 1, 0: free */\n'
		# "= { 0 }": lkmmc takes a global array only with an initialiser
		printf 'int locked[N] = { 0 };\t/* node i may enter */\n'
		printf 'int next[N] = { 0 };\t/* node i'"'"'s successor + 1 */\n\n'
		printf 'void *worker(void *arg)\n{\n\tint me = (int)(intptr_t)arg;\n\tint prev, nx;\n\n'
		printf '\tprev = atomic_xchg(&tail, me + 1);\n\tif (prev) {\n'
		printf '\t\tWRITE_ONCE(next[prev - 1], me + 1);\n'
		printf '\t\twhile (!smp_load_acquire(&locked[me]))\n\t\t\t;\n\t}\n'
		c_cs 1
		printf '\tnx = READ_ONCE(next[me]);\n\tif (!nx) {\n'
		printf '\t\tif (atomic_cmpxchg_release(&tail, me + 1, 0) == me + 1)\n\t\t\treturn NULL;\n'
		printf '\t\twhile (!(nx = READ_ONCE(next[me])))\n\t\t\t;\n\t}\n'
		if [ "$st" = WRITE_ONCE ]; then printf '\tWRITE_ONCE(locked[nx - 1], 1);\n'
		else printf '\tsmp_store_release(&locked[nx - 1], 1);\n'; fi
		printf '\treturn NULL;\n}\n'
		c_main
		return
	fi
	lock_head "$name" "$want" \
		"An MCS queue lock taken by $n threads, each writing its index to the" \
		"plain who and counting in the plain c; node i is locked[i] and next[i]," \
		"a node is named by its index + 1; the hand-over is $st()."
	printf '{\n\tint locked[%d];\n\tint next[%d];\n}\n' "$n" "$n"
	for ((i = 0; i < n; i++)); do
		mcs_thread "$i" "int *who, int *c" r2 "$(idx_cs "$i")" "$st"
	done
	idx_cond "$(seq 0 $((n - 1)))"
}

# $2: the writer's unlock, atomic_sub_return_release or _relaxed.  cnts:
# readers add 1, a waiting writer 100, the writer holding it 200.
qrwlock_idx() {
	local n=$1 unl=$2 form=$3 name=qrwlock-idx want=Never i extra="" nw=$((($1 + 1) / 2))
	if [ "$unl" = atomic_sub_return_relaxed ]; then name=qrwlock-idx-norel; want=Sometimes
	elif ((n >= 3)); then want=Sometimes; fi # no rmw-sequence in 6.1: see the header
	name=$name-$(printf %02d "$n")
	if [ "$form" = c ]; then
		c_head "$name" "$want" "A queued reader-writer lock (kernel/locking/qrwlock.c, simplified):" \
			"writers (the $nw even indices) write their index and count, readers (the" \
			"$((n - nw)) odd ones) read the count twice; the writers unlock with $unl()."
		c_globals "$n"
		printf 'atomic_t cnts;\t\t/* readers + 100 a waiting writer + 200 the writer */\n'
		printf 'spinlock_t wait_lock;\n\n'
		printf 'void *writer(void *arg)\n{\n\tint me = (int)(intptr_t)arg;\n\n'
		printf '\tspin_lock(&wait_lock);\n\tif (atomic_cmpxchg_acquire(&cnts, 0, 200) != 0) {\n'
		printf '\t\tatomic_add(100, &cnts);\n\t\tdo {\n\t\t\twhile (atomic_read(&cnts) != 100)\n\t\t\t\t;\n'
		printf '\t\t} while (atomic_cmpxchg_acquire(&cnts, 100, 200) != 100);\n\t}\n'
		printf '\tspin_unlock(&wait_lock);\n'
		c_cs 1
		printf '\t%s(200, &cnts);\n\treturn NULL;\n}\n\n' "$unl"
		printf 'void *reader(void *arg)\n{\n\tint r2, r3;\n\n'
		printf '\tif (atomic_add_return_acquire(1, &cnts) >= 100) {\n'
		printf '\t\tatomic_sub_return(1, &cnts);\n\t\tspin_lock(&wait_lock);\n\t\tatomic_add(1, &cnts);\n'
		printf '\t\twhile (atomic_read_acquire(&cnts) >= 200)\n\t\t\t;\n\t\tspin_unlock(&wait_lock);\n\t}\n'
		printf '\tr2 = count;\n\tr3 = count;\n\tassert(r2 == r3);\n'
		printf '\tatomic_sub_return_release(1, &cnts);\n\treturn NULL;\n}\n'
		printf '\nint main(void)\n{\n\tpthread_t t[N];\n\n'
		printf '\tfor (int i = 0; i < N; i += 2)\n\t\tpthread_create(&t[i], NULL, writer, (void *)(intptr_t)i);\n'
		printf '\tfor (int i = 1; i < N; i += 2)\n\t\tpthread_create(&t[i], NULL, reader, (void *)(intptr_t)i);\n'
		printf '\tfor (int i = 0; i < N; i++)\n\t\tpthread_join(t[i], NULL);\n'
		printf '\tassert(count == %d);\n\treturn 0;\n}\n' "$nw"
		return
	fi
	lock_head "$name" "$want" \
		"A queued reader-writer lock (kernel/locking/qrwlock.c, simplified) used" \
		"by $n threads: even ones take it for writing, write their index to the" \
		"plain who and count in the plain c, odd ones read c twice; the writers" \
		"unlock with $unl()."
	printf '{\n}\n'
	for ((i = 0; i < n; i++)); do
		printf '\nP%d(atomic_t *cnts, spinlock_t *wait_lock, int *who, int *c)\n{\n' "$i"
		if ((i % 2 == 0)); then
			qrw_write_lock
			idx_cs "$i"
			printf '\t%s(200, cnts);\n}\n' "$unl"
		else
			qrw_read_lock v
			printf '\tint r2 = *c;\n\tint r3 = *c;\n'
			printf '\tatomic_sub_return_release(1, cnts);\n}\n'
			extra="$extra \\/ ~$i:r2=$i:r3"
		fi
	done
	idx_cond "$(seq 0 2 $((n - 1)))" "$extra"
}

# The long threads of issue 35 ($1 stores per thread).  Thread p stores
# to x and y in turn (P1 starting with y), values 1, 2, 3 in turn, and
# reads x and y in turn (P1 y first) after every 5th store.
long_xy() {
	local n=$1 form=$2 name p k j locs val loc cond=""
	name=long-xy-$(printf %02d "$n")
	if [ "$form" = c ]; then
		c_head "$name" Never "2 threads of $n WRITE_ONCE()s each alternating over x and y, a" \
			"READ_ONCE() after every 5th store, no fences; the first reads cannot both" \
			"see 0 (coherence: each thread has written both locations before)."
		printf 'int x, y;\nint first0, first1;\t/* each thread'"'"'s first read */\n'
	else
		printf 'C %s\n(*\n * Result: Never\n *\n * Generated by bench/gen-families.sh.\n' "$name"
		printf ' * 2 threads of %d WRITE_ONCE()s each alternating over x and y, a\n' "$n"
		printf ' * READ_ONCE() after every 5th store, no fences: each thread has written\n'
		printf ' * the location before it reads it, so coherence forbids 0.\n *)\n{\n}\n'
	fi
	for p in 0 1; do
		locs="x y"
		[ "$p" = 1 ] && locs="y x"
		read -r -a locs <<<"$locs"
		if [ "$form" = c ]; then printf '\nvoid *p%d(void *arg)\n{\n\tint r;\n\n' "$p"
		else printf '\nP%d(int *x, int *y)\n{\n' "$p"; fi
		j=0
		for ((k = 1; k <= n; k++)); do
			val=$(((k - 1) % 3 + 1)) loc=${locs[$(((k - 1) % 2))]}
			if [ "$form" = c ]; then printf '\tWRITE_ONCE(%s, %d);\n' "$loc" "$val"
			else printf '\tWRITE_ONCE(*%s, %d);\n' "$loc" "$val"; fi
			if ((k % 5 == 0)) || ((n < 5 && k == n)); then
				loc=${locs[$((j % 2))]}
				if [ "$form" = c ]; then
					printf '\tr = READ_ONCE(%s);\n' "$loc"
					((j == 0)) && printf '\tfirst%d = r;\n' "$p"
				else
					printf '\tint r%d = READ_ONCE(*%s);\n' "$j" "$loc"
				fi
				j=$((j + 1))
			fi
		done
		if [ "$form" = c ]; then printf '\treturn NULL;\n}\n'; else printf '}\n'; fi
		cond="$cond${cond:+ /\\ }$p:r0=0"
	done
	if [ "$form" = c ]; then
		printf '\nint main(void)\n{\n\tpthread_t t0, t1;\n\n'
		printf '\tpthread_create(&t0, NULL, p0, NULL);\n\tpthread_create(&t1, NULL, p1, NULL);\n'
		printf '\tpthread_join(t0, NULL);\n\tpthread_join(t1, NULL);\n'
		printf '\tassert(!(first0 == 0 && first1 == 0));\n\treturn 0;\n}\n'
	else
		printf '\nexists\n(%s)\n' "$cond"
	fi
}

mkdir -p "$out" || exit 2
# gen FAMILY N FORM: one test on stdout (FORM litmus or c).
gen() {
	local f=$1 n=$2 fm=$3
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
	long-xy) long_xy "$n" "$fm" ;;
	ticket-idx) ticket_idx "$n" atomic_read_acquire "$fm" ;;
	ticket-idx-noacq) ticket_idx "$n" atomic_read "$fm" ;;
	ttas-idx) ttas_idx "$n" ttas atomic_set_release "$fm" ;;
	ttas-idx-norel) ttas_idx "$n" ttas atomic_set "$fm" ;;
	mutex-idx-flag) ttas_idx "$n" flag atomic_set_release "$fm" ;;
	mcs-idx) mcs_idx "$n" smp_store_release "$fm" ;;
	mcs-idx-norel) mcs_idx "$n" WRITE_ONCE "$fm" ;;
	qrwlock-idx) qrwlock_idx "$n" atomic_sub_return_release "$fm" ;;
	qrwlock-idx-norel) qrwlock_idx "$n" atomic_sub_return_relaxed "$fm" ;;
	esac
}

for f in $families; do
	for n in $ns; do
		base=$out/$f-$(printf %02d "$n")
		if [ "$form" != c ]; then
			gen "$f" "$n" litmus >"$base.litmus" || exit 2
			echo "$base.litmus"
		fi
		case " $C_FAMILIES " in *" $f "*)
			if [ "$form" != litmus ]; then
				gen "$f" "$n" c >"$base.c" || exit 2
				echo "$base.c"
			fi ;;
		esac
	done
done

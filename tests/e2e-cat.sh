#!/usr/bin/env bash
# e2e-cat.sh - the model read from cat files (--model DIR, -conf), end to end:
#  1. every malformed or unsupported model file tests/cat-errors/NAME.cat
#     (or NAME.bell, NAME.def) makes "lkmmc --model DIR" exit with status 1
#     and print exactly the line in NAME.expect first on stderr, DIR/ left
#     out ("linux-kernel.cat:line:col: error: message"); the other files of
#     the model are empty (a .cat or .bell test has no .def);
#  2. the kernel's tools/memory-model of Linux 6.1 (extracted by "make
#     kernel-tree"), read with --model, gives the same output as the
#     built-in model (Time lines aside) on its 34 litmus tests and on ours,
#     and on two families of 12 processes, listed by cubes;
#     --explain names the cat's axioms and relations;
#  2b. hb* ; pb* built as one closure (models/cat/catstar.c) answers as the
#     model written so that it cannot be (pb* as (pb | 0)*), with fewer
#     definitions;
#  2c. closures built only where asked (the race checks' columns of
#     xbstar, lock.cat's co closed over lock events, cumul-fence* as
#     walks through lock events): same answers and fewer definitions
#     than copies that hide them;
#  3. an edited copy of that linux-kernel.cat, rfe dropped from hb, makes
#     LB+ctrl+data (ours) Sometimes (Never as it was), with
#     --model and with -conf linux-kernel.cfg run inside the copy (files
#     other than 6.1's are read); -conf in the unedited tree keeps the
#     built-in model without a warning; --model-diff of the two models
#     prints that test only, with the states only the edit allows, the
#     axiom and the witness, and as a
#     batch (-j 2, --times, --timeout) the same, a slow test reported
#     as could not be checked;
#  3b. the .def is read: smp_mb()'s tag renamed in a copy changes SB+mbs,
#     and macros added to a copy (atomic_and, atomic_fetch_or) work;
#  3c/3d. coherence and atomicity shortcuts only for a model whose axioms
#     provably contain the coherence and the atomicity axiom;
#  4. with ../shared there: the litmus tests of Linux 6.12's and 7.2's
#     tools/memory-model and Documentation/litmus-tests, checked with
#     --model, match their Result: lines.  Without ../shared this part is
#     reported as not run.
# Prints "N passed, N failed"; exits non-zero on any failure.
#
# usage: tests/e2e-cat.sh   (LKMMC=path overrides the binary; LKMM_DIR the
#        kernel's tools/memory-model; SHARED the reference data)
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
LKMM_DIR=${LKMM_DIR:-build/linux/tools/memory-model}
SHARED=${SHARED:-../shared}
scratch
probe=litmus-tests/SB+mbs.litmus

if [ ! -x "$LKMMC" ]; then
	bad "no $LKMMC (run make)"
	report; exit
fi

# 1. malformed models
nerr=0
for t in tests/cat-errors/*.cat tests/cat-errors/*.bell tests/cat-errors/*.def; do
	[ -f "$t" ] || continue
	nerr=$((nerr + 1))
	exp=${t%.*}.expect
	[ -f "$exp" ] || { bad "$t: no $exp"; continue; }
	d=$tmp/err-model
	rm -rf "$d"; mkdir -p "$d"
	case $t in
	*.bell) cp "$t" "$d/linux-kernel.bell"; : >"$d/linux-kernel.cat" ;;
	*.def) cp "$t" "$d/linux-kernel.def"; : >"$d/linux-kernel.bell"
		: >"$d/linux-kernel.cat" ;;
	*) : >"$d/linux-kernel.bell"; cp "$t" "$d/linux-kernel.cat" ;;
	esac
	"$LKMMC" --model "$d" "$probe" >/dev/null 2>"$tmp/err"
	rc=$?
	got=$(head -n 1 "$tmp/err" | sed "s|$d/||g")
	want=$(cat "$exp")
	if [ $rc -ne 1 ]; then bad "$t: exit status $rc, want 1 ($got)"
	elif [ "$got" != "$want" ]; then bad "$t: got '$got', want '$want'"
	else ok
	fi
done
[ "$nerr" -ge 20 ] || bad "only $nerr malformed models in tests/cat-errors (want at least 20)"

# 2. interpreted 6.1 = built-in 6.1
if [ ! -f "$LKMM_DIR/linux-kernel.cat" ]; then
	make --no-print-directory kernel-tree >/dev/null 2>&1 || true
fi
if [ ! -f "$LKMM_DIR/linux-kernel.cat" ]; then
	bad "no $LKMM_DIR/linux-kernel.cat (run make kernel-tree)"
else
	# one run of each over all the tests: answers in file order
	set -- "$LKMM_DIR"/litmus-tests/*.litmus litmus-tests/*.litmus
	n=$#
	"$LKMMC" "$@" 2>&1 | grep -v '^Time ' >"$tmp/a"
	"$LKMMC" --model "$LKMM_DIR" "$@" 2>&1 | grep -v '^Time ' >"$tmp/b"
	if cmp -s "$tmp/a" "$tmp/b"; then ok; else
		bad "--model $LKMM_DIR differs from the built-in model on some of the $n tests:"
		diff "$tmp/a" "$tmp/b" | head -20
	fi
	[ $n -ge 34 ] || bad "only $n tests compared"

	# the cube path (state spaces of 4096 or more) with the read model
	bash bench/gen-families.sh --out "$tmp/fam" --n 12 \
		--families ra-chain,sb-plain >/dev/null
	for f in "$tmp"/fam/*.litmus; do
		"$LKMMC" "$f" 2>&1 | grep -v '^Time ' >"$tmp/a"
		"$LKMMC" --stats --model "$LKMM_DIR" "$f" 2>"$tmp/st" | grep -v '^Time ' >"$tmp/b"
		if ! grep -q 'whole cubes' "$tmp/st"; then
			ko "$(basename "$f"): the read model did not list its states by cubes"
		elif cmp -s "$tmp/a" "$tmp/b"; then ok; else
			ko "$(basename "$f"): --model $LKMM_DIR differs from the built-in model"
			diff "$tmp/a" "$tmp/b" | head -5
		fi
	done

	# --explain with the read model: the axiom's name from the cat, the
	# cycle in the cat's relations (LB+ctrl+data: ctrl, rfe, data, rfe)
	"$LKMMC" --explain --model "$LKMM_DIR" litmus-tests/LB+ctrl+data.litmus >"$tmp/x1" 2>&1
	rc=$?
	if [ $rc -eq 0 ] &&
	   grep -q '^Explanation: the condition is never reached because of happens-before$' "$tmp/x1" &&
	   [ "$(grep -c -- '--\[rfe\]-->' "$tmp/x1")" = 2 ] &&
	   grep -q -- '--\[ctrl\]-->' "$tmp/x1" && grep -q -- '--\[data\]-->' "$tmp/x1"; then ok
	else bad "--explain --model on LB+ctrl+data (status $rc): $(grep -A6 Explanation "$tmp/x1" | head -8)"
	fi
	"$LKMMC" --explain --model "$LKMM_DIR" "$probe" >"$tmp/x2" 2>&1
	grep -q '^Explanation: the condition is never reached because of propagation$' "$tmp/x2" &&
		ok || bad "--explain --model on $probe: $(grep Explanation "$tmp/x2")"

	# 2b. rcu-link and rb write hb* ; pb* with pb = ... ; hb* ; [Marked]:
	# the compiler builds them as one closure (models/cat/catstar.c).  In a
	# copy where pb* is (pb | 0)*, the same relation it cannot recognise,
	# the answers are the same on the RCU tests and the encoding larger
	rw=$tmp/no-fold
	mkdir -p "$rw"
	cp "$LKMM_DIR"/linux-kernel.* "$LKMM_DIR"/lock.cat "$rw/"
	sed -i 's/pb\* ; /(pb | 0)* ; /' "$rw/linux-kernel.cat"
	[ "$(grep -c '(pb | 0)\* ; ' "$rw/linux-kernel.cat")" = 2 ] ||
		bad "could not write pb* as (pb | 0)* in rcu-link and rb of the copy"
	set -- litmus-tests/*RCU*.litmus litmus-tests/MP+rcuptr.litmus \
		"$LKMM_DIR"/litmus-tests/*RCU*.litmus tests/cat-fold/*.litmus
	"$LKMMC" --model "$LKMM_DIR" "$@" 2>&1 | grep -v '^Time ' >"$tmp/f1"
	"$LKMMC" --model "$rw" "$@" 2>&1 | grep -v '^Time ' >"$tmp/f2"
	if [ $# -ge 20 ] && cmp -s "$tmp/f1" "$tmp/f2" && grep -q '^Observation .* Never ' "$tmp/f1" &&
	   grep -q '^Observation .* Sometimes ' "$tmp/f1"; then ok
	else bad "hb* ; pb* folded: the answers differ from the unfolded model's on $# tests"
		diff "$tmp/f1" "$tmp/f2" | head -10
	fi
	defs() { "$LKMMC" --stats --model "$1" "$2" 2>&1 >/dev/null | sed -n 's/.* defs \([0-9]*\),.*/\1/p'; }
	t=tests/cat-fold/RCU-RW+gp+gp+assign+deref+cs+cs+cs+cs.litmus
	d1=$(defs "$LKMM_DIR" "$t") d2=$(defs "$rw" "$t")
	# (3x: closures of the same relation are built once, so the copy's
	# rows of (pb | 0)* share what pb* elsewhere built)
	[ -n "$d1" ] && [ -n "$d2" ] && [ "$((d1 * 3))" -lt "$d2" ] && ok ||
		bad "$t: $d1 definitions folded, $d2 unfolded: the fold did not apply"

	# 2c. Closures built only where asked, on the per-index queued rwlock
	# of 2 threads (C, plain accesses and a spinlock): (i) xbstar only in
	# the columns the race checks read (models/cat/catwithin.c), against
	# a copy that hides them behind a function; (ii) lock.cat's
	# co = (co | critical | (critical^-1 ; co))+ closed over the lock's
	# events only (catstar.c's cc_plus_over_order), against a copy where
	# co is co & co, no longer known to be an order; (iii) cumul-fence*
	# as walks through po-unlock-lock-po's unlock and lock events
	# (catstar.c's factors), against a copy where that relation is
	# intersected with _ * _ (the same pairs, no factors).  Same
	# answers, fewer definitions of each kind.
	bash bench/gen-families.sh --out "$tmp/qrw" --n 2 --families qrwlock-idx --form c >/dev/null
	q=$tmp/qrw/qrwlock-idx-02.c
	for k in xbstar co cf; do
		h=$tmp/hide-$k
		mkdir -p "$h"
		cp "$LKMM_DIR"/linux-kernel.* "$LKMM_DIR"/lock.cat "$h/"
		if [ $k = xbstar ]; then
			sed -i 's/^let xbstar = (hb | pb | rb)\*$/let whole(r) = r\nlet xbstar = whole((hb | pb | rb)*)/' "$h/linux-kernel.cat"
			grep -q '^let xbstar = whole(' "$h/linux-kernel.cat" || bad "could not hide xbstar in the copy"
		elif [ $k = co ]; then
			sed -i 's/^let co = (co | critical/let co = ((co \& co) | critical/' "$h/lock.cat"
			grep -q '^let co = ((co & co) | critical' "$h/lock.cat" || bad "could not hide co in the copy"
		else
			sed -i 's/^let po-unlock-lock-po = \(.*\)$/let po-unlock-lock-po = (\1) \& (_ * _)/' "$h/linux-kernel.cat"
			grep -q '^let po-unlock-lock-po = (po .*) & (_ \* _)$' "$h/linux-kernel.cat" ||
				bad "could not hide po-unlock-lock-po's factors in the copy"
		fi
	done
	kind() { sed -n "s/.*defs by relation:.* $1 \([0-9]*\).*/\1/p" "$2"; }
	"$LKMMC" --stats --model "$LKMM_DIR" "$q" 2>"$tmp/s0" | grep -v '^Time ' >"$tmp/q0"
	for k in xbstar co cf; do
		"$LKMMC" --stats --model "$tmp/hide-$k" "$q" 2>"$tmp/s1" | grep -v '^Time ' >"$tmp/q1"
		what=cat-closure
		[ $k = co ] && what=closure
		a=$(kind $what "$tmp/s0") b=$(kind $what "$tmp/s1")
		if cmp -s "$tmp/q0" "$tmp/q1" && grep -q '^Assertions: ' "$tmp/q0" &&
		   [ -n "$a" ] && [ -n "$b" ] && [ "$((a * 5 / 4))" -lt "$b" ]; then ok
		else bad "$k built where asked: $a $what definitions, $b in the copy that hides it; answers: $(diff "$tmp/q0" "$tmp/q1" | head -5)"
		fi
	done

	# 3. an edited model is followed
	# LB with a control and a data dependency: no cumul-fence, so only
	# rfe in hb orders it
	mp=litmus-tests/LB+ctrl+data.litmus
	ed=$tmp/edited
	mkdir -p "$ed"
	cp "$LKMM_DIR"/linux-kernel.* "$LKMM_DIR"/lock.cat "$ed/"
	sed -i 's/^let hb = \[Marked\] ; (ppo | rfe | /let hb = [Marked] ; (ppo | /' "$ed/linux-kernel.cat"
	if cmp -s "$LKMM_DIR/linux-kernel.cat" "$ed/linux-kernel.cat"; then
		bad "could not drop rfe from hb in the copy of linux-kernel.cat"
	fi
	verdict() { awk '/^Observation/ { print $3 }' "$1"; }
	"$LKMMC" --model "$LKMM_DIR" "$mp" >"$tmp/o1" 2>&1
	"$LKMMC" --model "$ed" "$mp" >"$tmp/o2" 2>&1
	abs_mp=$(cd "$(dirname "$mp")" && pwd)/$(basename "$mp")
	abs_lkmmc=$(cd "$(dirname "$LKMMC")" && pwd)/$(basename "$LKMMC")
	(cd "$ed" && "$abs_lkmmc" -conf linux-kernel.cfg "$abs_mp") >"$tmp/o3" 2>"$tmp/e3"
	(cd "$LKMM_DIR" && "$abs_lkmmc" -conf linux-kernel.cfg "$abs_mp") >"$tmp/o4" 2>"$tmp/e4"
	[ "$(verdict "$tmp/o1")" = Never ] && ok || bad "LB+ctrl+data: $(verdict "$tmp/o1") with the kernel's model, want Never"
	[ "$(verdict "$tmp/o2")" = Sometimes ] && ok || bad "rfe dropped from hb: $(verdict "$tmp/o2") with --model, want Sometimes"
	[ "$(verdict "$tmp/o3")" = Sometimes ] && ok || bad "rfe dropped from hb: $(verdict "$tmp/o3") with -conf, want Sometimes ($(head -1 "$tmp/e3"))"
	[ "$(verdict "$tmp/o4")" = Never ] && ok || bad "-conf in the kernel's tree: $(verdict "$tmp/o4"), want Never"
	[ ! -s "$tmp/e4" ] && ok || bad "-conf in the kernel's tree warns: $(head -1 "$tmp/e4")"

	# --model-diff: only LB+ctrl+data differs between the two, with the
	# forbidding axiom under the kernel's model and a witness under the
	# edited one
	"$LKMMC" --model-diff "$LKMM_DIR" "$ed" "$mp" "$probe" >"$tmp/md" 2>"$tmp/mde"
	rc=$?
	if [ $rc -eq 0 ] && [ "$(grep -c '^Differs ' "$tmp/md")" = 1 ] &&
	   grep -q "^Differs $mp\$" "$tmp/md" &&
	   grep -q '^model-diff: 2 tests, 1 differ, 0 could not be checked$' "$tmp/md" &&
	   sed -n "\|^--- $LKMM_DIR\$|,\|^--- $ed\$|p" "$tmp/md" | grep -q '^Explanation: .* happens-before$' &&
	   sed -n "\|^--- $ed\$|,\$p" "$tmp/md" | grep -q '^Witness:' &&
	   grep -q "^only under $ed: state " "$tmp/md" &&
	   ! grep -q "^only under $LKMM_DIR: " "$tmp/md"; then ok
	else bad "--model-diff (status $rc): $(head -c 400 "$tmp/md") $(head -2 "$tmp/mde")"
	fi

	# --model-diff as a batch: -j 2 prints what the serial run prints
	# (Time lines aside), --times has a row per test, and --timeout
	# ends a test that runs far past it (mcs-06) as "could not be
	# checked" with the error, the others still answered, exit 1
	bash bench/gen-families.sh --out "$tmp/locks" --families mcs --n 6 >/dev/null
	"$LKMMC" --model-diff "$LKMM_DIR" "$ed" -j 2 --timeout 2 --times "$tmp/md.tsv" \
		"$mp" "$tmp/locks/mcs-06.litmus" "$probe" >"$tmp/mdj" 2>"$tmp/mdje"
	rc=$?
	grep -v '^Time ' "$tmp/md" | grep -v '^model-diff: ' >"$tmp/md-a"
	grep -v '^Time ' "$tmp/mdj" | grep -v '^model-diff: ' >"$tmp/md-b"
	if [ $rc -eq 1 ] && cmp -s "$tmp/md-a" "$tmp/md-b" &&
	   grep -q '^model-diff: 3 tests, 1 differ, 1 could not be checked$' "$tmp/mdj" &&
	   grep -q 'mcs-06.litmus: error: .*time-out' "$tmp/mdje" &&
	   [ "$(awk -F'\t' 'NR > 1' "$tmp/md.tsv" | wc -l)" = 3 ]; then ok
	else bad "--model-diff -j 2 --timeout 2 (status $rc): $(diff "$tmp/md-a" "$tmp/md-b" | head -5) $(head -2 "$tmp/mdje") $(cat "$tmp/md.tsv")"
	fi

	# 3b. the .def is read: smp_mb()'s fence renamed to a tag the model
	# does not know orders nothing (SB+mbs Never -> Sometimes); macros
	# Linux 6.1 lacks, added to a copy of its .def, work with no C change
	dd=$tmp/edited-def
	mkdir -p "$dd"
	cp "$LKMM_DIR"/linux-kernel.* "$LKMM_DIR"/lock.cat "$dd/"
	sed -i 's/^smp_mb() { __fence{mb}; }/smp_mb() { __fence{not-mb}; }/' "$dd/linux-kernel.def"
	if cmp -s "$LKMM_DIR/linux-kernel.def" "$dd/linux-kernel.def"; then
		bad "could not rename smp_mb()'s tag in the copy of linux-kernel.def"
	fi
	"$LKMMC" --model "$dd" "$probe" >"$tmp/o5" 2>&1
	[ "$(verdict "$tmp/o5")" = Sometimes ] && ok || bad "smp_mb() tagged not-mb: $(verdict "$tmp/o5") on $probe, want Sometimes"
	cp "$LKMM_DIR/linux-kernel.def" "$dd/linux-kernel.def"
	printf '%s\n' 'atomic_and(V,X) { __atomic_op(X,&,V); }' \
		'atomic_fetch_or(V,X) __atomic_fetch_op{mb}(X,|,V)' >>"$dd/linux-kernel.def"
	t=tests/def/atomic-and+fetch-or.litmus
	"$LKMMC" --model "$dd" "$t" >"$tmp/o6" 2>&1
	states=$(sed -n '/^States/,/^Ok\|^No/p' "$tmp/o6" | tr '\n' ' ')
	if [ "$states" = "States 2 1:r0=6; [x]=14; 1:r0=7; [x]=6; Ok " ] &&
	   [ "$(verdict "$tmp/o6")" = "$(result "$t")" ]; then ok
	else bad "$t with atomic_and/atomic_fetch_or added to the .def: $(head -c 300 "$tmp/o6")"
	fi
	"$LKMMC" "$t" >/dev/null 2>"$tmp/e6"
	grep -q "unknown kernel primitive 'atomic_and'" "$tmp/e6" && ok ||
		bad "$t: the built-in primitives know atomic_and? ($(head -1 "$tmp/e6"))"
fi

# 3c. Coherence by program order (encoder_options.coherent) only for a
# model with the coherence axiom: in a model of that one axiom, a read of
# x after its own thread's store of x reads the initial value only
# without fr in the axiom, and the overwritten store is co-last only
# without the axiom; the checks must not take either shortcut then
cm=$tmp/coherence
mkdir -p "$cm"
: >"$cm/linux-kernel.bell"
printf '%s\n' 'C CoWR-self' '{' '}' 'P0(int *x)' '{' '	int r0;' \
	'	WRITE_ONCE(*x, 1);' '	r0 = READ_ONCE(*x);' '}' 'exists (0:r0=0)' >"$tmp/CoWR-self.litmus"
printf '%s\n' 'C CoWW-self' '{' '}' 'P0(int *x)' '{' '	WRITE_ONCE(*x, 1);' \
	'	WRITE_ONCE(*x, 2);' '}' 'exists (x=1)' >"$tmp/CoWW-self.litmus"
observed() { "$LKMMC" --model "$cm" "$1" 2>&1 | awk '/^Observation/ { print $3 }'; }
# the model's check @ CoWR-self's verdict @ CoWW-self's
while IFS='@' read -r ax wr ww; do
	printf '"coherence test"\nlet com = rf | co | fr\n%s\n' "$ax" >"$cm/linux-kernel.cat"
	got="$(observed "$tmp/CoWR-self.litmus") $(observed "$tmp/CoWW-self.litmus")"
	[ "$got" = "$wr $ww" ] && ok || bad "model '$ax': CoWR-self, CoWW-self $got, want $wr $ww"
done <<'AXIOMS'
acyclic po-loc | com@Never@Never
acyclic (po & loc) | rf | co | rf^-1 ; co@Never@Never
acyclic po-loc | rf | co@Sometimes@Never
flag ~empty po-loc | com as incoherent@Sometimes@Sometimes
acyclic rf | co | fr@Sometimes@Sometimes
AXIOMS

# 3d. A counter's final value counted from its RMWs (encoder_options.atomic)
# only for a model with the atomicity axiom: P2 waits for the count of two
# atomic_inc()s; without atomicity both may read 0 and x end at 1, a
# hang the spin check must find; with it (however the cat writes it) there
# is none.  A flag, or a check that only looks like it, is not the axiom.
printf '%s\n' 'C inc-inc-wait' '{' '}' 'P0(atomic_t *x)' '{' '	atomic_inc(x);' '}' \
	'P1(atomic_t *x)' '{' '	atomic_inc(x);' '}' 'P2(atomic_t *x)' '{' '	int r0;' '' \
	'	do {' '		r0 = atomic_read(x);' '	} while (r0 != 2);' '}' 'exists (2:r0=2)' \
	>"$tmp/inc-inc-wait.litmus"
while IFS='@' read -r ax want; do
	printf '"atomicity test"\nlet com = rf | co | fr\nacyclic po-loc | com\n%s\n' "$ax" >"$cm/linux-kernel.cat"
	"$LKMMC" --stats --model "$cm" "$tmp/inc-inc-wait.litmus" >"$tmp/o7" 2>&1
	got="$(grep -c '^Spins forever: P2' "$tmp/o7") $(sed -n 's/^stats: bounds: .* \([0-9]*\) final values counted.*/\1/p' "$tmp/o7")"
	[ "$got" = "$want $((1 - want))" ] && ok ||
		bad "model '$ax': hangs reported and final values counted $got, want $want $((1 - want))"
done <<'AXIOMS'
empty rmw & (fre ; coe)@0
empty rmw & ((fr & ext) ; (co & ext)) as atomic@0
empty (fre ; coe) & rmw@0
empty rmw & fre@1
flag ~empty rmw & (fre ; coe) as atomic@1
empty rmw & (fre ; coe) \ rmw@1
AXIOMS

# 4. Linux 6.12's and 7.2's models on their own litmus tests (and
# Documentation/litmus-tests'): the verdict of the Result: line (DEADLOCK:
# Never 0 0)
for v in 6.12 7.2; do
	mv=$SHARED/lkmm/$v/memory-model
	if [ ! -d "$mv" ]; then
		echo "note: $mv absent: Linux $v's model not checked"
		continue
	fi
	n=0
	for f in "$mv"/litmus-tests/*.litmus "$SHARED/lkmm/$v"/Documentation-litmus-tests/*/*.litmus; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		name=$(basename "$f" .litmus)
		want=$(result "$f")
		got=$("$LKMMC" --model "$mv" "$f" 2>"$tmp/e" | awk '/^Observation/ { print ($3 == "Never" && $4 == 0 && $5 == 0) ? "DEADLOCK" : $3 }')
		[ "$want" = DEADLOCK ] || [ "$got" != DEADLOCK ] || got=Never
		if [ "$got" = "$want" ]; then ok; else bad "$v $name: $got, Result: $want ($(head -1 "$tmp/e"))"; fi
	done
	[ "$n" -ge 40 ] || bad "only $n litmus tests in Linux $v's trees"
done

report

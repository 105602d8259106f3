#!/usr/bin/env bash
# e2e-cat.sh - the model read from cat files (--model DIR, -conf), end to end:
#  1. every malformed or unsupported model file tests/cat-errors/NAME.cat
#     (or NAME.bell) makes "lkmmc --model DIR" exit with status 1 and print
#     exactly the line in NAME.expect first on stderr, DIR/ left out
#     ("linux-kernel.cat:line:col: error: message"); the other file of the
#     model is empty;
#  2. the kernel's tools/memory-model of Linux 6.1 (extracted by "make
#     kernel-tree"), read with --model, gives the same output as the
#     built-in model (Time lines aside) on its 34 litmus tests and on ours,
#     and on two families of 12 processes, listed by cubes;
#  3. an edited copy of that linux-kernel.cat, rfe dropped from hb, makes
#     LB+ctrl+data (ours) Sometimes (Never as it was), with
#     --model and with -conf linux-kernel.cfg run inside the copy (files
#     other than 6.1's are read); -conf in the unedited tree keeps the
#     built-in model without a warning;
#  4. with ../shared there: the litmus tests of Linux 6.12's
#     tools/memory-model checked with --model match their Result: lines
#     (a list of known exceptions aside).  Without ../shared this part is
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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
probe=litmus-tests/SB+mbs.litmus

if [ ! -x "$LKMMC" ]; then
	bad "no $LKMMC (run make)"
	report; exit
fi

# 1. malformed models
nerr=0
for t in tests/cat-errors/*.cat tests/cat-errors/*.bell; do
	[ -f "$t" ] || continue
	nerr=$((nerr + 1))
	exp=${t%.*}.expect
	[ -f "$exp" ] || { bad "$t: no $exp"; continue; }
	d=$tmp/err-model
	rm -rf "$d"; mkdir -p "$d"
	case $t in
	*.bell) cp "$t" "$d/linux-kernel.bell"; : >"$d/linux-kernel.cat" ;;
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
fi

# 4. Linux 6.12's model on its own litmus tests
m612=$SHARED/lkmm/6.12/memory-model
if [ -d "$m612" ]; then
	# Known exceptions, each with its reason (none yet).
	known=" "
	for f in "$m612"/litmus-tests/*.litmus; do
		name=$(basename "$f" .litmus)
		want=$(result "$f")
		got=$("$LKMMC" --model "$m612" "$f" 2>"$tmp/e" | awk '/^Observation/ { print $3 }')
		case $known in *" $name "*) continue ;; esac
		if [ "$got" = "$want" ]; then ok; else bad "6.12 $name: $got, Result: $want ($(head -1 "$tmp/e"))"; fi
	done
else
	echo "note: $m612 absent: Linux 6.12's model not checked"
fi

report

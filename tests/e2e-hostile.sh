#!/usr/bin/env bash
# e2e-hostile.sh - hostile input and a hostile environment (issue 18):
#  1. --kmod: test names, file names, a preamble, statements and a
#     condition full of C and shell syntax (tests/hostile/names.litmus)
#     reach the module only inside comments and string literals, its
#     Makefile and test.info only as a checked module name; a file name
#     with a newline is refused;
#  2. SIGINT and SIGTERM during a batch (-j 2): the signal's exit status,
#     no worker left, no temporary file, the --times table a valid prefix
#     of what was printed;
#  3. "lkmmc ... | head -1": nothing on stderr;
#  4. a full disk (/dev/full, and a file size limit for a regular file)
#     under --times, --dot, --svg and --kmod: a located error, exit 1, no
#     half-written file under the final name nor a temporary one;
#  5. what fuzzing found: tests/hostile/NAME.litmus with a NAME.expect
#     exits 1 with exactly that error, within 60 s.
# Prints "N passed, N failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
scratch e2e-hostile
top=$PWD
lkmmc=$(cd "$(dirname "$LKMMC")" && pwd)/$(basename "$LKMMC")

# 1. --kmod with hostile text, from a file whose name is shell syntax.
evil='evil$(touch pwned)`touch pwned`;x'\''"y.litmus'
cp tests/hostile/names.litmus "$tmp/$evil"
(cd "$tmp" && "$lkmmc" --kmod mods "$evil" > /dev/null 2> err)
check "--kmod on a hostile test: exit 0" [ $? -eq 0 ] 
mod=$(ls "$tmp/mods" | grep -v '^Makefile$')
check "one module with an identifier for a name ($mod)" \
	bash -c '[[ "$1" =~ ^lk_[A-Za-z0-9_]+$ ]]' _ "$mod"
src=$tmp/mods/$mod/$mod.c
python3 tests/hostile/c_code.py "$src" > "$tmp/code"
for word in system touch pwned EVIL_MACRO helper '$(' '`'; do
	if grep -qF -- "$word" "$tmp/code"; then
		bad "--kmod: '$word' is in the module's code: $(grep -nF -- "$word" "$tmp/code" | head -2)"
	else
		ok
	fi
done
check "the module's Makefile names only the module" \
	bash -c '[ "$(grep -v "^#" "$1" | grep -c "$2")" -eq 1 ] && ! grep -qE "pwned|touch|\\$\\(touch" "$1"' _ \
	"$tmp/mods/$mod/Makefile" "$mod"
info=$tmp/mods/$mod/test.info
check "test.info: one key=value a line, known keys" \
	bash -c '[ "$(grep -cvE "^(module|name|proc|file|iters|threads|grace_periods)=" "$1")" -eq 0 ] && [ "$(wc -l < "$1")" -eq 7 ]' _ "$info"
check "test.info: the /proc name has no '/' and only test-name characters" \
	bash -c 'grep -qE "^proc=[][A-Za-z0-9_@.+-]+$" "$1"' _ "$info"
check "test.info: the name has only test-name characters" \
	bash -c 'grep -qE "^name=[A-Za-z0-9_/.+-]+$|^name=[][A-Za-z0-9_/.+-]+$" "$1"' _ "$info"
# The guest's /init reads "module iters name" with read -r and quotes all.
check "run-qemu's /init quotes the test name" grep -qF 'cat "/proc/$name"' kernel/run-qemu.sh
[ ! -e "$tmp/pwned" ] && [ ! -e /tmp/lkmmc-pwned ] && ok || bad "something ran a hostile command"
nl_name="$tmp/a
module=evil.litmus"
cp tests/hostile/names.litmus "$nl_name"
"$LKMMC" --kmod "$tmp/nl" "$nl_name" > /dev/null 2> "$tmp/err"
rc=$?
check "--kmod refuses a file name with a newline (exit $rc)" \
	bash -c '[ "$1" -eq 1 ] && grep -q "control character" "$2" && [ -z "$(ls "$3" | grep -v ^Makefile$)" ]' _ $rc "$tmp/err" "$tmp/nl"

# 2. Signals during a batch of 8 x litmus-tests/, once a few rows are in
# (however loaded the machine) and long before the end.
mapfile -t many < <(for i in 1 2 3 4 5 6 7 8; do ls litmus-tests/*.litmus; done)
for sig in INT TERM; do
	rm -f "$tmp"/times.tsv*
	"$LKMMC" -j 2 --times "$tmp/times.tsv" "${many[@]}" > "$tmp/out" 2> "$tmp/err" &
	pid=$!
	for _ in $(seq 600); do
		[ "$(cat "$tmp/times.tsv.tmp-$pid" 2> /dev/null | wc -l)" -gt 3 ] && break
		sleep 0.1
	done
	workers=$(pgrep -P $pid | tr '\n' ' ')
	kill -$sig $pid
	wait $pid
	rc=$?
	want=$((128 + $(kill -l $sig)))
	check "SIG$sig: exit $rc, want $want" [ $rc -eq $want ]
	sleep 0.2
	left=""
	for w in $workers; do kill -0 "$w" 2> /dev/null && left="$left $w"; done
	check "SIG$sig: no worker left ($left)" [ -z "$left" ]
	check "SIG$sig: no temporary file" bash -c '[ -z "$(ls "$1" | grep tmp-)" ]' _ "$tmp"
	rows=$(($(wc -l < "$tmp/times.tsv") - 1))
	obs=$(grep -c '^Observation' "$tmp/out")
	check "SIG$sig: the --times table has a row per test printed ($rows, $obs)" \
		bash -c '[ "$1" -eq "$2" ] && [ "$1" -gt 0 ] && [ "$1" -lt "$3" ]' _ "$rows" "$obs" "${#many[@]}"
	check "SIG$sig: every row has 6 fields" \
		bash -c '[ -z "$(awk -F"\t" "NF != 6" "$1")" ]' _ "$tmp/times.tsv"
	check "SIG$sig: its rows are the first tests, in order" \
		bash -c 'diff <(tail -n +2 "$1" | cut -f1) <(printf "%s\n" "${@:3}" | head -n "$2") > /dev/null' _ \
		"$tmp/times.tsv" "$rows" "${many[@]}"
done

# 3. A reader that stops early.
for args in "" "-j 2" "--json" "-j 2 --times $tmp/head.tsv"; do
	# shellcheck disable=SC2086
	"$LKMMC" $args litmus-tests/SB*.litmus litmus-tests/MP*.litmus 2> "$tmp/err" | head -1 > /dev/null
	check "lkmmc $args | head -1: quiet ($(head -c 200 "$tmp/err"))" [ ! -s "$tmp/err" ]
done

# 4. A full disk.
t=litmus-tests/SB+pos.litmus
full_disk() { # what, command...: exit 1 with a message naming the file
	local what=$1; shift
	"$@" > /dev/null 2> "$tmp/err"
	local rc=$?
	check "$what: exit $rc, want 1, with an error ($(head -c 200 "$tmp/err"))" \
		bash -c '[ "$1" -eq 1 ] && grep -qE "cannot (write|create)|could not write" "$2"' _ $rc "$tmp/err"
}
full_disk "--times /dev/full" "$LKMMC" -j 2 --times /dev/full "$t"
full_disk "--dot /dev/full" "$LKMMC" --witness --dot /dev/full "$t"
full_disk "--svg /dev/full" "$LKMMC" --witness --svg /dev/full "$t"
full_disk "--kmod into /dev/full" "$LKMMC" --kmod /dev/full/mods "$t"
# A regular file on a full file system: a 1 kB file size limit (ulimit -f,
# SIGXFSZ ignored: the write fails with EFBIG), under which the table of
# 8 tests and a module's source do not fit but a Makefile does.
limited() { (ulimit -f 1; trap '' XFSZ; "$@"); }
full_disk "--times, full disk" limited "$LKMMC" -j 2 --times "$tmp/full.tsv" litmus-tests/SB*.litmus
check "--times, full disk: no table, no temporary file" \
	bash -c '[ -z "$(ls "$1" | grep full.tsv)" ]' _ "$tmp"
full_disk "--kmod, full disk" limited "$LKMMC" --kmod "$tmp/fullmods" "$t"
check "--kmod, full disk: no module source, no temporary file" \
	bash -c '[ -z "$(find "$1" -name "*.c*")" ]' _ "$tmp/fullmods"
"$LKMMC" --witness --svg "$tmp/ok.svg" "$t" > /dev/null 2>&1
check "--svg: a whole picture" bash -c 'tail -1 "$1" | grep -q "</svg>" && [ -z "$(ls "$2" | grep tmp-)" ]' _ "$tmp/ok.svg" "$tmp"

# 5. Fuzzing's findings (litmus-tests/C-division.litmus is another).
for t in tests/hostile/*.litmus; do
	exp=${t%.litmus}.expect
	[ -f "$exp" ] || continue
	timeout 60 "$LKMMC" "$t" > /dev/null 2> "$tmp/err"
	rc=$?
	check "$t: exit $rc, want 1, and the error of $exp" \
		bash -c '[ "$1" -eq 1 ] && diff -u "$2" "$3"' _ $rc "$exp" "$tmp/err"
done
cd "$top"
report

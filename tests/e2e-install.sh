#!/usr/bin/env bash
# tests/e2e-install.sh - make install / uninstall into a scratch DESTDIR:
# the installed binary runs a bundled test and a C program, the headers
# for C programs are installed, the man page renders without
# warnings and documents every option of `lkmmc --help`, the bash
# completion completes options and litmus files, uninstall removes all.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
scratch

dest=$tmp/root
make --no-print-directory -s install DESTDIR="$dest" PREFIX=/usr >"$tmp/log" 2>&1 || { cat "$tmp/log"; bad "make install"; }
bin=$dest/usr/bin/lkmmc man=$dest/usr/share/man/man1/lkmmc.1
comp=$dest/usr/share/bash-completion/completions/lkmmc
for f in "$bin" "$man" "$comp"; do
	[ -f "$f" ] && ok || bad "make install did not install $f"
done

# The installed binary works from anywhere.
if (cd "$tmp" && "$bin" --version) | grep -q '^lkmmc '; then ok; else bad "installed lkmmc --version"; fi
if (cd "$tmp" && "$bin" "$root/litmus-tests/SB+mbs.litmus") | grep -q '^Observation SB+mbs Never'; then ok
else bad "installed lkmmc on litmus-tests/SB+mbs.litmus"; fi
# A C program: the installed binary has its headers built in; a copy of
# each is installed for reading.
if (cd "$tmp" && "$bin" "$root/litmus-tests/programs/sb-mbs.c") | grep -q '^No errors'; then ok
else bad "installed lkmmc on litmus-tests/programs/sb-mbs.c"; fi
for h in include/*.h; do
	cmp -s "$h" "$dest/usr/include/lkmmc/${h#include/}" && ok || bad "make install did not install $h"
done

# The man page: no groff warnings, every option of --help documented.
if command -v groff >/dev/null; then
	w=$(groff -ww -z -man "$man" 2>&1)
	[ -z "$w" ] && ok || bad "groff warnings in the man page: $w"
else
	bad "groff is not installed (make deps installs groff-base)"
fi
text=$(sed 's/\\-/-/g' "$man")
for o in $(./lkmmc --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	printf '%s\n' "$text" | grep -q -- "$o" && ok || bad "option $o of --help is not in the man page"
done

# The completion: options after a dash, litmus files otherwise.
complete_words() { # WORD...: prints the completions of the last word
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _lkmmc; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$comp" "$@"
}
complete_words ./lkmmc --exists | grep -qx -- --exists-only && ok || bad "completion of --exists"
(cd litmus-tests && complete_words ../lkmmc SB+mb) | grep -qx 'SB+mbs.litmus' && ok || bad "completion of a litmus file"

make --no-print-directory -s uninstall DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1
left=$(find "$dest" -type f | wc -l)
[ "$left" -eq 0 ] && ok || bad "make uninstall left $left files"

report

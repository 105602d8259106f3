#!/usr/bin/env bash
# tests/e2e-deb.sh - the Debian package (debian/): dpkg-buildpackage -us
# -uc -b builds it from a clean clone of HEAD (what is not committed is
# not in it), lintian finds no error in it (its warnings are printed),
# and it installs: unpacked into a scratch root and installed into this
# system with dpkg -i (then purged), the installed lkmmc says its version
# and answers every bundled litmus test as the installed .states files
# and Result: fields say.  Long (a few minutes): make check-deb, not part
# of make check.  With --build-only (make deb) it stops after lintian,
# leaving the .deb in build/deb/.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
build_only=0
[ "${1:-}" = --build-only ] && build_only=1
for tool in dpkg-buildpackage dh lintian git; do
	command -v $tool >/dev/null || { bad "$tool is missing: run make deb-deps"; report e2e-deb; exit; }
done
out=$root/build/deb
rm -rf "$out"
mkdir -p "$out"
git clone -q "$root" "$out/src" && git -C "$out/src" checkout -q "$(git rev-parse HEAD)" ||
	{ bad "git clone of HEAD"; report e2e-deb; exit; }

# Build.
t0=$(date +%s)
(cd "$out/src" && nice dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1
st=$?
echo "dpkg-buildpackage: exit $st, $(($(date +%s) - t0)) s (log: build/deb/build.log)"
[ $st = 0 ] && ok || { tail -20 "$out/build.log"; bad "dpkg-buildpackage failed"; report e2e-deb; exit; }
version=$(cd "$out/src" && dpkg-parsechangelog -S Version)
deb=$(ls "$out"/lkmmc_"$version"_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] && ok || { bad "no lkmmc_${version}_*.deb in build/deb"; report e2e-deb; exit; }

# Lintian: no error; warnings and the rest reported.
lintian --pedantic -I "$out"/lkmmc_"$version"_*.changes >"$out/lintian.txt" 2>&1
echo "lintian: $(grep -c '^E:' "$out/lintian.txt") errors, $(grep -c '^W:' "$out/lintian.txt") warnings, $(grep -c '^[IP]:' "$out/lintian.txt") info/pedantic (build/deb/lintian.txt)"
grep '^[EW]:' "$out/lintian.txt"
grep -q '^E:' "$out/lintian.txt" && bad "lintian errors" || ok
if [ $build_only = 1 ]; then
	echo "built $deb"
	report e2e-deb
	exit
fi

# What it holds and needs.
dpkg -I "$deb" | grep -q 'Depends:.*libz3.*' && dpkg -I "$deb" | grep -q 'Depends:.*libclang' && ok ||
	bad "the package does not depend on libz3 and libclang"
dpkg -c "$deb" >"$out/contents"
for f in usr/bin/lkmmc usr/share/man/man1/lkmmc.1.gz usr/share/bash-completion/completions/lkmmc \
	usr/include/lkmmc/lkmm.h usr/share/lkmmc/litmus-tests/SB+mbs.litmus usr/share/doc/lkmmc/copyright; do
	grep -q " \./$f\$" "$out/contents" && ok || bad "the package lacks /$f"
done

# The installed files answer every bundled test as their .states say.
check_installed() { # PREFIX WHERE: lkmmc under PREFIX/usr runs its bundled tests
	local bin=$1/usr/bin/lkmmc ex=$1/usr/share/lkmmc/litmus-tests
	[ "$(cd / && "$bin" --version)" = "lkmmc ${version%%-*}" ] && ok ||
		bad "$2: lkmmc --version is '$("$bin" --version)', the package $version"
	(cd / && "$bin" "$ex/SB+mbs.litmus") | grep -q '^Observation SB+mbs Never' && ok ||
		bad "$2: lkmmc on the bundled SB+mbs.litmus"
	(cd / && "$bin" -j 2 --json "$ex"/*.litmus) >"$out/installed.jsonl" 2>/dev/null
	python3 tests/json_check.py expected "$out/installed.jsonl" >"$out/expected.txt" && ok ||
		{ cat "$out/expected.txt"; bad "$2: the bundled tests' answers"; }
	local n
	n=$(ls "$ex"/*.states | wc -l)
	grep -q "expected: $n .states files" "$out/expected.txt" && [ "$n" -ge 100 ] && ok ||
		bad "$2: $(cat "$out/expected.txt") for $n .states files"
	readelf -d "$bin" | grep -q 'RPATH\|RUNPATH' && bad "$2: the binary has an RPATH" || ok
}
dpkg -x "$deb" "$out/root" && ok || bad "dpkg -x"
check_installed "$out/root" "unpacked"

# Installed into the system (this is a disposable machine), then purged.
if dpkg-query -W -f='${Status}' lkmmc 2>/dev/null | grep -q 'install ok installed'; then
	bad "a package lkmmc is already installed: not replacing it"
else
	dpkg -i "$deb" >"$out/dpkg-i.log" 2>&1 && ok || { cat "$out/dpkg-i.log"; bad "dpkg -i"; }
	check_installed "" "installed"
	man -w lkmmc >/dev/null 2>&1 && ok || bad "man lkmmc: no page after dpkg -i"
	dpkg --purge lkmmc >"$out/dpkg-purge.log" 2>&1 && ok || { cat "$out/dpkg-purge.log"; bad "dpkg --purge"; }
	[ ! -e /usr/bin/lkmmc ] && [ ! -e /usr/share/lkmmc ] && ok || bad "dpkg --purge left files"
fi
report e2e-deb

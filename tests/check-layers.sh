#!/usr/bin/env bash
# tests/check-layers.sh - every #include "..." of lkmmc's C sources against
# the layers of the README's picture (make check-layers, part of make check).
#
#   tests/check-layers.sh            check this tree
#   tests/check-layers.sh DIR        check the tree at DIR
#   tests/check-layers.sh --self-test  show that the check can fail: a copy
#                    of this tree passes, the same copy with one include
#                    of a higher layer injected fails, naming the file
#
# A folder may include its own headers and those of the folders the table
# below lets it: the layers below it.  A file of a folder the table does
# not know fails too (a new folder needs its place decided).  It reads the
# include lines as text: it compiles nothing, and a header included only
# through another is judged where it is included.  <...> includes (the
# system's, Z3's, libclang's) are not lkmmc's and are not read.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)

# Each folder and the folders it may include (its own always).  The order,
# lowest first: common < frontend < encoder < models < solver < (repair,
# report, cli) < lkmmc.c; kernel/ (--kmod) reads only the IR.  models/cat/
# is part of models: the cat compiler fills the model's struct (lkmm.h)
# and model_build (lkmm.c) chooses between it and the built-in LKMM.
# tests/ and fuzz/ drive everything and may include anything; include/
# holds the headers given to users' C programs, which include none of
# lkmmc's; bench/'s C tools measure Z3 apart from lkmmc and include none
# of it either; build/ is generated; litmus-tests/ holds lkmmc's inputs.
layers() {
	cat <<'EOF'
common:
frontend: common
encoder: common frontend
models: common frontend encoder
solver: common frontend encoder models
repair: common frontend encoder models solver
report: common frontend encoder models solver
cli: common frontend encoder models solver
kernel: common frontend
.: common frontend encoder models solver repair report cli kernel
tests: *
fuzz: *
include: -
bench: -
EOF
}

# The folder (layer) a path belongs to: its first component, "." for a
# file at the top (lkmmc.c).
folder_of() {
	case "$1" in
	*/*) printf '%s\n' "${1%%/*}" ;;
	*) printf '.\n' ;;
	esac
}

# check ROOT: print each include that crosses the layers upward; exit 1
# when there is one.
check() {
	local root=$1 bad=0 n=0
	declare -A allowed=()
	local line name rest
	while IFS= read -r line; do
		name=${line%%:*}
		rest=${line#*:}
		allowed[$name]=" $name ${rest# } "
	done < <(layers)
	local f dir folder inc target tfolder words
	while IFS= read -r f; do
		f=${f#./}
		folder=$(folder_of "$f")
		# inputs of lkmmc (litmus tests, C programs), not its code
		case "$folder" in build|debian|litmus-tests) continue ;; esac
		if [ -z "${allowed[$folder]+x}" ]; then
			echo "check-layers: $f: folder $folder/ has no layer (tests/check-layers.sh: add it to the table)"
			bad=1
			continue
		fi
		dir=$(dirname "$f")
		while IFS= read -r inc; do
			n=$((n + 1))
			# Looked up beside the including file first, as the
			# compiler does; else from the top (-I.).
			if [ -e "$root/$dir/$inc" ]; then
				target="$dir/$inc"
			else
				target="$inc"
			fi
			# "a/../b" is b: judged where it lands.
			target=$(realpath -m --relative-to="$root" "$root/$target")
			tfolder=$(folder_of "$target")
			case "${allowed[$folder]}" in
			*" * "*) continue ;;
			*" - "*)
				echo "check-layers: $f includes \"$inc\": $folder/ (headers of users' C programs) includes none of lkmmc's"
				bad=1
				continue ;;
			esac
			if [[ "${allowed[$folder]}" != *" $tfolder "* ]]; then
				read -ra words <<< "${allowed[$folder]}"
				rest="${words[*]}"
				echo "check-layers: $f includes \"$inc\" ($tfolder/): $folder/ may include only $rest"
				bad=1
			fi
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$root/$f")
	done < <(cd "$root" && find . \( -path ./build -o -path ./.git \) -prune -o \
			-type f \( -name '*.c' -o -name '*.h' \) -print | sort)
	if [ "$bad" = 0 ]; then
		echo "check-layers: $n includes, none above its folder's layer"
		return 0
	fi
	return 1
}

self_test() {
	local tmp
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	(cd "$here" && git ls-files -z -- '*.c' '*.h' | xargs -0 cp --parents -t "$tmp")
	if ! check "$tmp" > "$tmp/out.txt"; then
		cat "$tmp/out.txt"
		echo "check-layers self-test: FAIL: a copy of the tree does not pass"
		return 1
	fi
	# common/ includes the checker: common is the lowest layer.
	printf '#include "solver/check.h"\n' >> "$tmp/common/arena.c"
	# A header of encoder/ includes the model, a layer above it.
	printf '#include "models/lkmm.h"\n' >> "$tmp/encoder/rel.h"
	# A path that climbs out of its folder is judged where it lands.
	printf '#include "../report/json.h"\n' >> "$tmp/solver/states.c"
	if check "$tmp" > "$tmp/out.txt"; then
		cat "$tmp/out.txt"
		echo "check-layers self-test: FAIL: injected upward includes pass"
		return 1
	fi
	local want
	for want in 'common/arena.c includes "solver/check.h"' \
		    'encoder/rel.h includes "models/lkmm.h"' \
		    'solver/states.c includes "../report/json.h" (report/)'; do
		if ! grep -qF "$want" "$tmp/out.txt"; then
			cat "$tmp/out.txt"
			echo "check-layers self-test: FAIL: not reported: $want"
			return 1
		fi
	done
	# A folder the table does not know.
	mkdir -p "$tmp/newfolder"
	printf '#include "common/diag.h"\n' > "$tmp/newfolder/x.c"
	if check "$tmp" > "$tmp/out.txt" || ! grep -q 'folder newfolder/ has no layer' "$tmp/out.txt"; then
		cat "$tmp/out.txt"
		echo "check-layers self-test: FAIL: an unknown folder is not reported"
		return 1
	fi
	echo "check-layers self-test: ok (the tree passes; upward includes and an unknown folder fail)"
}

case "${1:-}" in
--self-test) self_test ;;
"") check "$here" ;;
*) check "$(cd "$1" && pwd)" ;;
esac

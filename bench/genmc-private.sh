#!/usr/bin/env bash
# bench/genmc-private.sh - run one GenMC command line (its words follow)
# so that no other GenMC run can clobber it: GenMC v0.9 always writes the
# program it compiled to the fixed /tmp/__genmc.ll (../shared/peers/
# README.md), so two runs at once read each other's program.  As root, in
# a mount namespace of its own with a fresh tmpfs on /tmp (util-linux's
# unshare makes the mount private, nothing leaks out); when that cannot
# be done (no privilege) or a file of the command line is under /tmp
# (which the tmpfs would hide), one at a time under flock(1) on
# /tmp/lkmmc-genmc.lock.  The exit status is GenMC's.
#
# usage: bench/genmc-private.sh GENMC [ARGS...] FILE.c
set -u
[ $# -ge 1 ] || { echo "usage: $0 GENMC [ARGS...] FILE.c" >&2; exit 2; }
private=1
for a in "$@"; do
	case $(readlink -m -- "$a" 2>/dev/null) in /tmp|/tmp/*) private=0 ;; esac
done
if [ $private = 1 ] && unshare -m true 2>/dev/null; then
	exec unshare -m sh -c 'mount -t tmpfs tmpfs /tmp && exec "$@"' sh "$@"
fi
exec flock /tmp/lkmmc-genmc.lock "$@"

#!/usr/bin/env bash
# fuzz/run.sh SECONDS: run each libFuzzer harness of build/fuzz (made by
# `make fuzz-build`) for SECONDS, one after the other, niced, from its own
# corpus build/fuzz/corpus-NAME (kept across runs) and the seeds
# (fuzz/seeds.sh).  Crashes, leaks and time-outs go to build/fuzz/artifacts
# and make it fail; the log of each run is build/fuzz/NAME.log.
# Run from the top of the tree.
set -u
secs=${1:-60}
seeds=build/fuzz/seeds
[ -d "$seeds" ] || bash fuzz/seeds.sh "$seeds"
mkdir -p build/fuzz/artifacts
status=0
for name in fuzz_frontend fuzz_check; do
	case $name in
	fuzz_frontend) limits=(-max_len=4096 -timeout=30 -rss_limit_mb=2048) ;;
	fuzz_check) limits=(-max_len=1024 -timeout=60 -rss_limit_mb=3072) ;;
	esac
	mkdir -p "build/fuzz/corpus-$name"
	echo "== $name for $secs s (log: build/fuzz/$name.log)"
	nice -n 19 "build/fuzz/$name" "${limits[@]}" -max_total_time="$secs" \
		-print_final_stats=1 -artifact_prefix=build/fuzz/artifacts/ \
		"build/fuzz/corpus-$name" "$seeds" > "build/fuzz/$name.log" 2>&1 || {
		status=1
		echo "FAIL: $name found a problem:"
		grep -E 'ERROR|SUMMARY|artifact' "build/fuzz/$name.log" | head -5
	}
	grep -E '^stat::(number_of_executed_units|peak_rss_mb|new_units_added)' \
		"build/fuzz/$name.log" | tr '\n' ' '
	echo
done
exit $status

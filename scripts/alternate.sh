#!/usr/bin/env bash
# Runs shell commands in turn, N rounds, and prints each command's median
# and fastest wall time: a change of load on a shared machine then hits
# every command alike, and the fastest run is the one the load touched
# least. It is what docs/PERFORMANCE.md's "alternating runs" of single
# builds were timed with.
#
# Usage: scripts/alternate.sh N 'CMD1' 'CMD2' ...
# Example:
#   scripts/alternate.sh 15 ./plain 'DIVERGO_TRACE=off ./dvg' 'DIVERGO_TRACE=t.dvt ./dvg'
set -euo pipefail
if [[ $# -lt 2 ]]; then
	echo "usage: $0 N CMD..." >&2
	exit 2
fi
n=$1
shift
declare -A times
for ((i = 0; i < n; i++)); do
	for c in "$@"; do
		s=$(date +%s%N)
		eval "$c" >/dev/null 2>&1 || { echo "$c failed" >&2; exit 1; }
		e=$(date +%s%N)
		times[$c]+="$(((e - s) / 1000)) "
	done
done
for c in "$@"; do
	# shellcheck disable=SC2086
	read -r med best < <(printf '%s\n' ${times[$c]} | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)] / 1000, a[1] / 1000}')
	echo "$med ms (median of $n), $best ms (fastest)  $c"
done

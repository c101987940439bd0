#!/usr/bin/env bash
# Measures divergo wait's time and peak memory against the number of
# goroutines that synchronize: scripts/testdata/manylock (N goroutines at
# one gate, then three rounds each on one mutex, with work inside it) is
# recorded once per N with divergo run, then divergo wait -json reads each
# trace under /usr/bin/time. CPU time (user + system) is the figure to
# read on a shared machine: wall time moves with the load. With BASE=REV,
# divergo as of git revision REV reads the same traces too (recorded by
# the tree's divergo), after it.
#
# Usage: scripts/bench-wait-many.sh [N...]   (default 1000 2000 5000 10000)
#        BASE=REV scripts/bench-wait-many.sh [N...]
# Output: a Markdown table for docs/PERFORMANCE.md, with each row's ratio
# to the first row's.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ns=("$@")
if [[ ${#ns[@]} -eq 0 ]]; then ns=(1000 2000 5000 10000); fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GOFLAGS= GOWORK=off
go build -o "$tmp/bin/divergo" ./cmd/divergo
bins=(divergo)
if [[ -n ${BASE:-} ]]; then
	mkdir -p "$tmp/base"
	git archive "$BASE" | tar -x -C "$tmp/base"
	(cd "$tmp/base" && go build -o "$tmp/bin/base" ./cmd/divergo)
	bins+=(base)
fi
mkdir -p "$tmp/m"
cp scripts/testdata/manylock/*.go "$tmp/m/"
printf 'module example.com/manylock\n\ngo 1.26.8\n' >"$tmp/m/go.mod"
cd "$tmp/m"
echo "| divergo | goroutines | trace | waits | wall time | CPU time | peak RSS | CPU time ratio | memory ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
for bin in "${bins[@]}"; do
	t0= m0=
	for n in "${ns[@]}"; do
		if [[ ! -f tr$n/run-1.dvt ]]; then
			"$tmp/bin/divergo" run -n 1 -o "tr$n" . -- -n "$n" >/dev/null 2>"$tmp/run.err" || { cat "$tmp/run.err" >&2; exit 1; }
		fi
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$tmp/bin/$bin" wait -json "tr$n/run-1.dvt" >"$tmp/rep.json" 2>/dev/null
		read -r wall user sys kb <"$tmp/time"
		secs=$(echo "$user + $sys" | bc -l)
		waits=$(grep -m1 '^  "waits"' "$tmp/rep.json" | grep -o '[0-9]*')
		size=$(stat -c %s "tr$n/run-1.dvt")
		t0=${t0:-$secs} m0=${m0:-$kb}
		name=$bin
		if [[ $bin == base ]]; then name=$BASE; else name=$(git -C "$root" rev-parse --short HEAD); fi
		printf '| %s | %d | %.1f MB | %s | %.2f s | %.2f s | %d MB | %.1f× | %.1f× |\n' "$name" "$n" \
			"$(echo "$size / 1000000" | bc -l)" "$waits" "$wall" "$secs" $((kb / 1024)) \
			"$(echo "$secs / $t0" | bc -l)" "$(echo "$kb / $m0" | bc -l)"
	done
done

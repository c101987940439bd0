#!/usr/bin/env bash
# How big divergo diff -json's output is and what it costs to write, for two
# runs of a program of N goroutines (default 20,000) that each take a lock
# and branch on what they read under it, so that the runs part in most of
# them (docs/PERFORMANCE.md, "diff -json"): the traces' sizes, the output's
# size, wall time and maximum resident memory of diff -json.
#
# Usage: scripts/bench-diff-json.sh [N] [DIVERGO]
# DIVERGO is a divergo binary to measure instead of one built from here.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${2:-}
if [ -z "$bin" ]; then
	bin="$tmp/divergo"
	go build -o "$bin" ./cmd/divergo
fi
mkdir "$tmp/m"
cat >"$tmp/m/go.mod" <<'MOD'
module example.com/many

go 1.22
MOD
cat >"$tmp/m/main.go" <<'SRC'
package main

import (
	"flag"
	"fmt"
	"sync"
)

var (
	mu    sync.Mutex
	turn  int
	total int
)

func worker(wg *sync.WaitGroup) {
	defer wg.Done()
	mu.Lock()
	t := turn
	turn++
	mu.Unlock()
	s := 0
	if t%3 == 0 {
		for i := range 5 {
			s += i
		}
	} else {
		s = t
	}
	mu.Lock()
	total += s
	mu.Unlock()
}

func main() {
	n := flag.Int("n", 1000, "goroutines")
	flag.Parse()
	var wg sync.WaitGroup
	for range *n {
		wg.Add(1)
		go worker(&wg)
	}
	wg.Wait()
	fmt.Println(total > 0)
}
SRC
cd "$tmp/m"
"$bin" run -n 2 -o traces . -- -n "$n" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
size() { stat -c %s "$1"; }
a=$(size traces/run-1.dvt)
b=$(size traces/run-2.dvt)
/usr/bin/time -f '%e %M' -o "$tmp/time" "$bin" diff -json traces/run-1.dvt traces/run-2.dvt >"$tmp/out.json" 2>"$tmp/err" || [ $? = 1 ] || { cat "$tmp/err"; exit 1; }
read -r wall rss < <(tail -n 1 "$tmp/time")
out=$(size "$tmp/out.json")
echo "divergo diff -json of two runs of $n goroutines; load $(cut -d' ' -f1 /proc/loadavg):"
printf 'traces:  %d + %d bytes\n' "$a" "$b"
printf 'output:  %d bytes (%.1f times the traces)\n' "$out" "$(echo "$out / ($a + $b)" | bc -l)"
printf 'time:    %s s, max RSS %d MiB\n' "$wall" "$((rss / 1024))"

#!/usr/bin/env bash
# How often the flaky tests of testdata/schedflaky and testdata/flaky fail
# under each schedule divergo test mixes, and whether a controlled seed
# always gives the same outcome (docs/PERFORMANCE.md, "Controlled
# scheduling against delays and plain runs").
#
# Each package is copied into a module of its own, as the e2e tests do;
# divergo test builds its instrumented test binary once, and each test is
# then run by itself RUNS times (default 40) under each schedule, seeds 1 to
# RUNS: plain (unperturbed, recorded), delays (DIVERGO_PERTURB=SEED, half
# the sync operations delayed), controlled by the sweep
# (DIVERGO_SCHED=sweep:I, I = SEED-1: the sweep's runs in order), by the
# random walk (DIVERGO_SCHED=walk) and at PCT depths 1, 2 and 3
# (DIVERGO_SCHED=pct:D); MODES='sweep walk' for some columns only. Then SEEDS seeds (default 6) of controlled depth 2
# are each run REPEAT times (default 10): a seed is "stable" when all its
# runs ended alike.
#
# Usage: scripts/sched-shapes.sh [RUNS [SEEDS [REPEAT]]]
# Output: one line per test: failures per schedule, then stable seeds.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-40}"
seeds="${2:-6}"
repeat="${3:-10}"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export GOFLAGS= GOWORK=off
go build -o "$tmp/divergo" ./cmd/divergo
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
modes=(${MODES:-plain delays sweep walk 1 2 3})
printf '%-22s' test
printf ' %6s' "${modes[@]}"
printf ' %8s\n' stable
for pkg in schedflaky flaky; do
	mkdir -p "$tmp/$pkg"
	cp testdata/$pkg/*.go "$tmp/$pkg/"
	printf 'module example.com/%s\n\ngo 1.26.8\n' "$pkg" >"$tmp/$pkg/go.mod"
	(cd "$tmp/$pkg" && "$tmp/divergo" test -n 2 -sched plain . >/dev/null 2>&1 || true)
	bin="$tmp/$pkg/.divergo/_test/pkg.test"
	for t in $(grep -ho '^func Test[A-Za-z0-9]*' testdata/$pkg/*_test.go | sed 's/^func //'); do
		fails() { # fails SEED ENV...: whether one run failed
			local s=$1
			shift
			! (cd "$tmp/$pkg" && env "$@" DIVERGO_TRACE="$tmp/t.dvt" timeout 60 "$bin" -test.run "^$t\$" -test.count=1 >/dev/null 2>&1)
		}
		row=()
		for mode in "${modes[@]}"; do
			n=0
			for ((s = 1; s <= runs; s++)); do
				case $mode in
				plain) env=(A=1) ;;
				delays) env=(DIVERGO_PERTURB=$s) ;;
				sweep) env=(DIVERGO_PERTURB=$s DIVERGO_SCHED=sweep:$((s - 1))) ;;
				walk) env=(DIVERGO_PERTURB=$s DIVERGO_SCHED=walk) ;;
				*) env=(DIVERGO_PERTURB=$s DIVERGO_SCHED=pct:$mode) ;;
				esac
				if fails "$s" "${env[@]}"; then n=$((n + 1)); fi
			done
			row+=("$n/$runs")
		done
		stable=0
		for ((s = 1; s <= seeds; s++)); do
			f=0
			for ((i = 0; i < repeat; i++)); do
				if fails "$s" DIVERGO_PERTURB=$s DIVERGO_SCHED=pct:2; then f=$((f + 1)); fi
			done
			if ((f == 0 || f == repeat)); then stable=$((stable + 1)); fi
		done
		printf '%-22s' "$t"
		printf ' %6s' "${row[@]}"
		printf ' %8s\n' "$stable/$seeds"
	done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$tmp/t.dvt"

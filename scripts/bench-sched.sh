#!/usr/bin/env bash
# How soon GoKer's blocking bugs show under three schedules (docs/
# PERFORMANCE.md, "Controlled scheduling against delays and plain runs"):
# the kernels of Go's own runtime/testdata/testgoroutineleakprofile/goker
# (GoBench's GoKer, each a leak the goroutine leak profile reports), copied
# into a temporary module, each run up to RUNS times (default 100) under
#
#   plain       the kernel built as it is (go build), GODEBUG=asyncpreemptoff=1
#               as Go's own test runs them;
#   delays      instrumented by divergo, DIVERGO_PERTURB=SEED (random delays
#               at half the sync operations, divergo test's default strength);
#   controlled  instrumented, DIVERGO_PERTURB=SEED DIVERGO_SCHED=S, S
#               taking pct:2, sweep:I, walk, pct:3 in turn over the seeds
#               as divergo test's controlled families do (I counting the
#               sweep's runs from 0);
#
# and stopped at the first run whose profile reports a leak ("(leaked)").
# Seeds are 1, 2, 3 ...: the same seeds for every kernel and schedule. A
# kernel's amplification (an outermost loop starting the buggy code 100 or
# 1000 times in one run) is cut to one instance, as GoBench runs each bug
# once per test: with it most kernels leak in the first plain run, and the
# figures would say nothing. For each controlled failure, the run is made
# again REPEAT times (default 10) with the same seed: how often it leaks
# again.
#
# Usage: scripts/bench-sched.sh [RUNS [REPEAT]]
#        KERNELS='Cockroach584 Etcd5509' scripts/bench-sched.sh
# Output: one line per kernel (runs to the first leak per schedule, "-"
# for none within RUNS; the controlled rerun's count), then the summary:
# share of kernels leaking within RUNS and the median runs to the first
# leak among those, per schedule.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-100}"
repeat="${2:-10}"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export GOFLAGS= GOWORK=off
go build -o "$tmp/divergo" ./cmd/divergo
src="$(go env GOROOT)/src/runtime/testdata/testgoroutineleakprofile/goker"
mod="$tmp/goker"
mkdir -p "$mod"
cp "$src"/*.go "$mod/"
printf 'module example.com/goker\n\ngo 1.26.8\n' >"$mod/go.mod"
# One instance per run: the outermost loop of each registered kernel
# function (one tab in) starts the bug once.
for f in "$mod"/*.go; do
	sed -i -E 's/^\tfor i := 0; i <=? [0-9]+; i\+\+ \{/\tfor i := 0; i < 1; i++ {/' "$f"
done
(cd "$mod" && GOEXPERIMENT=goroutineleakprofile go build -o "$tmp/plain" .)
(cd "$mod" && "$tmp/divergo" instrument ./... >/dev/null 2>&1 &&
	GOEXPERIMENT=goroutineleakprofile go build -overlay="$mod/.divergo/overlay.json" -o "$tmp/traced" .)
kernels="${KERNELS:-$(grep -ho 'register("[A-Za-z0-9]*"' "$mod"/*.go | sed 's/register("//; s/"//' | sort)}"

# leaks MODE KERNEL SEED: whether one run leaked.
leaks() {
	local out env=(GODEBUG=asyncpreemptoff=1) bin="$tmp/traced"
	case $1 in
	plain) bin="$tmp/plain" ;;
	delays) env+=(DIVERGO_PERTURB="$3" DIVERGO_TRACE="$tmp/t.dvt") ;;
	controlled)
		local scheds=(pct:2 "sweep:$((($3 - 1) / 4))" walk pct:3)
		env+=(DIVERGO_PERTURB="$3" DIVERGO_SCHED="${scheds[$((($3 - 1) % 4))]}" DIVERGO_TRACE="$tmp/t.dvt")
		;;
	esac
	out=$(env "${env[@]}" timeout 60 "$bin" "$2" 2>&1 || true)
	rm -f "$tmp/t.dvt"
	[[ $out == *"(leaked)"* ]]
}

# first MODE KERNEL: the first seed that leaked, or -.
first() {
	local s
	for ((s = 1; s <= runs; s++)); do
		if leaks "$1" "$2" "$s"; then
			echo "$s"
			return
		fi
	done
	echo -
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-18s %6s %6s %10s %8s\n' kernel plain delays controlled rerun
: >"$tmp/rows"
for k in $kernels; do
	p=$(first plain "$k")
	d=$(first delays "$k")
	c=$(first controlled "$k")
	r=-
	if [[ $c != - ]]; then
		r=0
		for ((i = 0; i < repeat; i++)); do
			if leaks controlled "$k" "$c"; then r=$((r + 1)); fi
		done
		r="$r/$repeat"
	fi
	printf '%-18s %6s %6s %10s %8s\n' "$k" "$p" "$d" "$c" "$r" | tee -a "$tmp/rows"
done
n=$(wc -l <"$tmp/rows")
for col in 2 3 4; do
	name=$(echo "x plain delays controlled" | cut -d' ' -f"$col")
	found=$(awk -v c="$col" '$c != "-"' "$tmp/rows" | wc -l)
	med=$(awk -v c="$col" '$c != "-" {print $c}' "$tmp/rows" | median)
	echo "$name: $found of $n kernels leaked within $runs runs, median runs to the first leak $med"
done
full=$(awk '$5 != "-" {split($5, a, "/"); if (a[1] == a[2]) n++} END {print n+0}' "$tmp/rows")
found=$(awk '$5 != "-"' "$tmp/rows" | wc -l)
echo "controlled reruns leaking $repeat of $repeat: $full of $found"
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"

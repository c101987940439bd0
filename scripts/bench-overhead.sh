#!/usr/bin/env bash
# Measures the cost of divergo's instrumentation against the plain program,
# with go's coverage counters (count, atomic) and the runtime execution
# tracer as reference points, on (a) a branch-heavy CPU loop
# (testdata/cpuloop), (b) a concurrent workload (testdata/wordcount), (c)
# a switch in a counting loop, one probe per iteration
# (scripts/testdata/switchloop), (d) a recursive Fibonacci, a function
# entry and return every few instructions (scripts/testdata/calls), and
# (e) spectral-norm, a tiny deterministic function called n² times in
# goroutines over chunks (analyzer/testdata/src/spectralnorm); with PROGS,
# also the other programs in the shape of the benchmarks game's
# (binarytrees, fannkuch, knucleotide, in the same directory).
#
# Each instrumented build is timed three ways: recording on both cores,
# recording pinned to one core (taskset -c 0, which also makes GOMAXPROCS
# 1), and with DIVERGO_TRACE=off. All variants are built and timed in the
# same run, in turn, RUNS rounds, so that a change of load on a shared
# machine hits all of them alike; every ratio is the variant's median time
# over the plain build's median time in the same rounds. Also reports trace
# bytes per recorded block execution.
#
# "divergo, no CPU samples" is the same build recording with
# DIVERGO_CPUPROFILE=off: what Go's CPU profiler, which the runtime runs
# beside the trace by default so that waittime can charge a block's time
# to its lines, costs is the divergo column against this one.
#
# "divergo, execution trace" is the same build recording with
# DIVERGO_RUNTIME_TRACE=1: Go's execution tracer beside the trace, from which
# divergo wait names the wakers of waits ended in code that is not
# instrumented and reports the waits inside it. "divergo, flight recorder" is
# the same build with runtime/trace's FlightRecorder started in init (the
# window kept, never written): what a recorder that leaves trace.Start to
# the program would cost instead. Both against the divergo column.
#
# Two more variants say where recording's time goes: the same build writing
# its trace to /dev/null (everything encoded, nothing written to a file),
# and the floor, a build with -tags divergo_floor whose goroutines empty
# their full buffers in place (runtime/floor.go): the probes, clocks and
# sync wrappers, with nothing encoded or written.
#
# Usage: scripts/bench-overhead.sh [RUNS]   (default 5)
#        BASE=REV scripts/bench-overhead.sh [RUNS]
#        PROGS="switchloop calls" scripts/bench-overhead.sh [RUNS]
#        ARGS_wordcount="-lines 500000" scripts/bench-overhead.sh [RUNS]
# With BASE, divergo as of git revision REV instruments the same programs
# too, and its build is timed the same three ways in the same rounds: each
# divergo column then reads "before → after", both against one plain
# baseline.
# Output: a Markdown table for docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runs="${1:-5}"
progs="${PROGS:-cpuloop wordcount switchloop calls spectralnorm}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GOFLAGS= GOWORK=off
go build -o "$tmp/bin/divergo" ./cmd/divergo
export PATH="$tmp/bin:$PATH"
base="${BASE:-}"
if [[ -n $base ]]; then
	mkdir -p "$tmp/base"
	git archive "$base" | tar -x -C "$tmp/base"
	(cd "$tmp/base" && go build -o "$tmp/basebin/divergo" ./cmd/divergo)
fi
pin=()
if command -v taskset >/dev/null && [[ $(nproc) -gt 1 ]]; then pin=(taskset -c 0); fi

# srcdir PROG: where the program's source is (the analyzer's testdata
# holds the benchmarks-game-shaped programs, with their expected change
# points).
srcdir() {
	local d
	for d in testdata scripts/testdata analyzer/testdata/src; do
		if [[ -d $d/$1 ]]; then echo "$d/$1"; return; fi
	done
}

# module DIR PROG [ROOT]: a module in DIR holding PROG's source; with ROOT,
# requiring divergo from the tree at ROOT, which a BASE revision from before
# the recorder came with the overlay needs (for a later one it is unused).
module() {
	mkdir -p "$1"
	cp "$(srcdir "$2")"/*.go "$1/"
	printf 'module example.com/%s\n\ngo 1.26.8\n' "$2" >"$1/go.mod"
	if [[ $# -ge 3 ]]; then
		printf '\nrequire github.com/divergo/divergo v0.0.0\n\nreplace github.com/divergo/divergo => %s\n' "$3" >>"$1/go.mod"
		cp go.sum "$1/"
	fi
}

# run VARIANT: one run of a variant, in the program's module directory.
run() {
	case $1 in
	plain | count | atomic | rttrace) "./$1" "${args[@]}" ;;
	dvg | dvgbase) DIVERGO_TRACE="$PWD/$1.dvt" "./$1" "${args[@]}" ;;
	prof) DIVERGO_CPUPROFILE=off DIVERGO_TRACE="$PWD/$1.dvt" ./dvg "${args[@]}" ;;
	gotrace) DIVERGO_RUNTIME_TRACE=1 DIVERGO_TRACE="$PWD/$1.dvt" ./dvg "${args[@]}" ;;
	flight) DIVERGO_TRACE="$PWD/$1.dvt" ./dvgflight "${args[@]}" ;;
	null) DIVERGO_TRACE=/dev/null ./dvg "${args[@]}" ;;
	floor) DIVERGO_TRACE="$PWD/floor.dvt" ./dvgfloor "${args[@]}" ;;
	pin | pinbase)
		if [[ ${#pin[@]} -eq 0 ]]; then return; fi
		DIVERGO_TRACE="$PWD/$1.dvt" "${pin[@]}" "./dvg${1#pin}" "${args[@]}"
		;;
	off | offbase) DIVERGO_TRACE=off "./dvg${1#off}" "${args[@]}" ;;
	esac
}

# timeit VARIANT: the wall time of one run, in microseconds.
timeit() {
	local s e
	if [[ $1 == pin* && ${#pin[@]} -eq 0 ]]; then echo 0; return; fi
	s=$(date +%s%N)
	run "$1" >/dev/null 2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; exit 1; }
	e=$(date +%s%N)
	echo $(( (e - s) / 1000 ))
}

# medians RUNS VARIANT...: runs the variants in turn, RUNS rounds, and
# prints the median time of each (seconds), in order; then, on a second
# line, the best time of each.
medians() {
	local n=$1; shift
	local -A all=()
	local v t
	for ((i = 0; i < n; i++)); do
		for v in "$@"; do
			t=$(timeit "$v")
			all[$v]+="$t "
		done
	done
	for v in "$@"; do tr ' ' '\n' <<<"${all[$v]}" | grep . | sort -n | awk '{t[NR]=$1} END{printf "%.4f ", t[int((NR+1)/2)]/1e6}'; done
	echo
	for v in "$@"; do tr ' ' '\n' <<<"${all[$v]}" | grep . | sort -n | awk '{t[NR]=$1} END{printf "%.4f ", t[1]/1e6}'; done
	echo
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a > 0) printf "%.2f×", a/b; else printf "n/a" }'; }

# runtime/trace as a reference: a file added through an overlay starts the
# execution tracer in init and never stops it (its cost is in the recording).
rtinit='package main

import (
	"os"
	"runtime/trace"
)

func init() {
	f, err := os.Create(os.Getenv("RT_TRACE"))
	if err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
}
'

# The flight recorder started in init, for the divergo build: a window of
# the last seconds kept in memory, never written.
frinit='package main

import "runtime/trace"

func init() {
	if err := trace.NewFlightRecorder(trace.FlightRecorderConfig{}).Start(); err != nil {
		panic(err)
	}
}
'

echo "| program | plain (median, best) | divergo | divergo, no CPU samples | divergo, execution trace | divergo, flight recorder | divergo, one core | DIVERGO_TRACE=off | to /dev/null | floor | cover count | cover atomic | runtime/trace | trace bytes / block |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
declare -A progArgs=([cpuloop]="-n 300000" [wordcount]="-lines 100000" [switchloop]="-n 25000000" [calls]="-n 32" [spectralnorm]="-n 1000"
	[binarytrees]="-n 16" [fannkuch]="-n 10" [knucleotide]="-n 500000")
for prog in $progs; do
	argv="ARGS_$prog" # ARGS_wordcount="-lines 500000": a longer run
	read -r -a args <<<"${!argv:-${progArgs[$prog]}}"
	mod="$tmp/$prog"
	module "$mod" "$prog"
	variants=(plain dvg pin off null floor count atomic rttrace prof gotrace flight)
	if [[ -n $base ]]; then
		module "$tmp/$prog-base" "$prog" "$tmp/base"
		(
			cd "$tmp/$prog-base"
			"$tmp/basebin/divergo" instrument ./... >/dev/null 2>&1 || { echo "divergo at $base: instrument of $prog failed" >&2; exit 1; }
			go build -overlay="$tmp/$prog-base/.divergo/overlay.json" -o "$mod/dvgbase" .
		)
		variants+=(dvgbase pinbase offbase)
	fi
	(
		cd "$mod"
		go build -o plain .
		go build -cover -covermode=count -o count .
		go build -cover -covermode=atomic -o atomic .
		printf '%s' "$rtinit" >rtinit.go.txt
		printf '{"Replace":{"%s/zz_rtinit.go":"%s/rtinit.go.txt"}}' "$mod" "$mod" >rt.json
		go build -overlay=rt.json -o rttrace .
		divergo instrument ./... >/dev/null 2>&1 || { echo "divergo: instrument of $prog failed" >&2; exit 1; }
		go build -overlay="$mod/.divergo/overlay.json" -o dvg .
		go build -tags divergo_floor -overlay="$mod/.divergo/overlay.json" -o dvgfloor .
		printf '%s' "$frinit" >frinit.go.txt
		python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); o["Replace"][sys.argv[2]+"/zz_frinit.go"]=sys.argv[2]+"/frinit.go.txt"; json.dump(o, open(sys.argv[2]+"/fr.json","w"))' "$mod/.divergo/overlay.json" "$mod"
		go build -overlay="$mod/fr.json" -o dvgflight .
		export GOCOVERDIR="$mod/cov" RT_TRACE="$mod/rt.out"
		mkdir -p cov
		{ read -r p d pn o nl fl c a r np gt fr db pb ob; read -r bp _; } < <(medians "$runs" "${variants[@]}")
		size=$(stat -c %s dvg.dvt)
		[[ -s rt.out ]] || { echo "runtime/trace wrote nothing" >&2; exit 1; }
		blocks=$(divergo show --json dvg.dvt | python3 -c 'import json,sys; print(sum(g["blocks"] for g in json.load(sys.stdin)["goroutines"]))' 2>/dev/null || echo 0)
		bpb=$(awk -v s="$size" -v b="$blocks" 'BEGIN{ if (b > 0) printf "%.2f (%d B / %d blocks)", s/b, s, b; else printf "n/a (%d B)", s }')
		if [[ -n $base ]]; then bpb+=", before: $(stat -c %s dvgbase.dvt) B"; fi
		col() { # col AFTER BEFORE: a ratio, or "before → after" with BASE
			if [[ -n $base ]]; then echo "$(ratio "$2" "$p") → **$(ratio "$1" "$p")**"; else ratio "$1" "$p"; fi
		}
		printf '| %s | %s s, %s s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$prog" "$p" "$bp" \
			"$(col "$d" "${db:-0}")" "$(ratio "$np" "$p")" "$(ratio "$gt" "$p")" "$(ratio "$fr" "$p")" "$(col "$pn" "${pb:-0}")" "$(col "$o" "${ob:-0}")" \
			"$(ratio "$nl" "$p")" "$(ratio "$fl" "$p")" \
			"$(ratio "$c" "$p")" "$(ratio "$a" "$p")" "$(ratio "$r" "$p")" "$bpb"
	)
done

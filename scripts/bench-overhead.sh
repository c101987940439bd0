#!/usr/bin/env bash
# Measures the cost of divergo's instrumentation against the plain program,
# with go's coverage counters (count, atomic) and the runtime execution
# tracer as reference points, on (a) a branch-heavy CPU loop
# (testdata/cpuloop) and (b) a concurrent workload (testdata/wordcount).
# All variants are built and timed in the same run; each time is the best of
# RUNS rounds that run the variants in turn, and every ratio is against the
# plain build of that run (the divergo columns also give the ratio of
# medians). Also reports trace bytes per recorded block execution.
#
# Usage: scripts/bench-overhead.sh [RUNS]   (default 5)
#        BASE=REV scripts/bench-overhead.sh [RUNS]
# With BASE, divergo as of git revision REV instruments the same programs
# too, and its build is timed in the same rounds: a before/after pair whose
# ratios share one plain baseline.
# Output: a Markdown table for docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runs="${1:-5}"
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

# module DIR PROG ROOT: a module in DIR holding testdata/PROG, requiring
# divergo from the tree at ROOT.
module() {
	mkdir -p "$1"
	cp testdata/$2/*.go "$1/"
	printf 'module example.com/%s\n\ngo 1.26.8\n\nrequire github.com/divergo/divergo v0.0.0\n\nreplace github.com/divergo/divergo => %s\n' "$2" "$3" >"$1/go.mod"
	cp go.sum "$1/"
}

# timeit CMD...: the wall time of one run, in microseconds.
timeit() {
	local s e
	s=$(date +%s%N)
	"$@" >/dev/null 2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; exit 1; }
	e=$(date +%s%N)
	echo $(( (e - s) / 1000 ))
}

# bestof RUNS VARIANT...: runs the variants in turn, RUNS rounds, so that a
# change of load on the machine hits all of them alike, and prints the best
# time of each (seconds), in order; then, on a second line, the median time
# of each, the same ratios seen through the noise rather than past it.
bestof() {
	local n=$1; shift
	local -A all=()
	local v t
	for ((i = 0; i < n; i++)); do
		for v in "$@"; do
			t=$(DIVERGO_TRACE="$PWD/$v.dvt" timeit "./$v" "${args[@]}")
			all[$v]+="$t "
		done
	done
	for v in "$@"; do tr ' ' '\n' <<<"${all[$v]}" | grep . | sort -n | awk '{t[NR]=$1} END{printf "%.4f ", t[1]/1e6}'; done
	echo
	for v in "$@"; do tr ' ' '\n' <<<"${all[$v]}" | grep . | sort -n | awk '{t[NR]=$1} END{printf "%.4f ", t[int((NR+1)/2)]/1e6}'; done
	echo
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f×", a/b}'; }

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

if [[ -n $base ]]; then
	echo "| program | plain | divergo $base | divergo | cover count | cover atomic | runtime/trace | trace bytes / block |"
	echo "|---|---|---|---|---|---|---|---|"
else
	echo "| program | plain | divergo | cover count | cover atomic | runtime/trace | trace bytes / block |"
	echo "|---|---|---|---|---|---|---|"
fi
declare -A progArgs=([cpuloop]="-n 300000" [wordcount]="-lines 100000")
for prog in cpuloop wordcount; do
	read -r -a args <<<"${progArgs[$prog]}"
	mod="$tmp/$prog"
	module "$mod" "$prog" "$root"
	variants=(plain dvg count atomic rttrace)
	if [[ -n $base ]]; then
		module "$tmp/$prog-base" "$prog" "$tmp/base"
		(
			cd "$tmp/$prog-base"
			PATH="$tmp/basebin:$PATH" go generate ./... >/dev/null
			go build -overlay="$tmp/$prog-base/.divergo/overlay.json" -o "$mod/dvgbase" .
		)
		variants+=(dvgbase)
	fi
	(
		cd "$mod"
		go build -o plain .
		go build -cover -covermode=count -o count .
		go build -cover -covermode=atomic -o atomic .
		printf '%s' "$rtinit" >rtinit.go.txt
		printf '{"Replace":{"%s/zz_rtinit.go":"%s/rtinit.go.txt"}}' "$mod" "$mod" >rt.json
		go build -overlay=rt.json -o rttrace .
		go generate ./... >/dev/null
		go build -overlay="$mod/.divergo/overlay.json" -o dvg .
		export GOCOVERDIR="$mod/cov" RT_TRACE="$mod/rt.out" # each variant's DIVERGO_TRACE is VARIANT.dvt
		mkdir -p cov
		{ read -r p d c a r db; read -r mp md _ _ _ mdb; } < <(bestof "$runs" "${variants[@]}")
		size=$(stat -c %s dvg.dvt)
		[[ -s rt.out ]] || { echo "runtime/trace wrote nothing" >&2; exit 1; }
		blocks=$(divergo show --json dvg.dvt | python3 -c 'import json,sys; print(sum(g["blocks"] for g in json.load(sys.stdin)["goroutines"]))' 2>/dev/null || echo 0)
		bpb=$(awk -v s="$size" -v b="$blocks" 'BEGIN{ if (b > 0) printf "%.2f (%d B / %d blocks)", s/b, s, b; else printf "n/a (%d B)", s }')
		before=
		if [[ -n $base ]]; then before=" $(ratio "$db" "$p") (median $(ratio "$mdb" "$mp")) |"; fi
		printf '| %s | %s s (median %s s) |%s %s (median %s) | %s | %s | %s | %s |\n' "$prog" "$p" "$mp" "$before" "$(ratio "$d" "$p")" "$(ratio "$md" "$mp")" "$(ratio "$c" "$p")" "$(ratio "$a" "$p")" "$(ratio "$r" "$p")" "$bpb"
	)
done

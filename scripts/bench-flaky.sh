#!/usr/bin/env bash
# How long divergo test -n 40 of a short test takes against go test -race
# -count=40 of the same test (the target: within 3×, build included, caches
# warm; docs/PERFORMANCE.md, "divergo test against go test -race -count"),
# on testdata/flaky's TestGroupForget and TestSendClose, copied into a
# module of their own as the e2e tests do, and on golang.org/x/sync's
# singleflight TestForget as published (the version divergo's own go.sum
# names), copied as it is into a temporary directory.
#
# Each test is run once by both commands first, which instruments (.divergo
# is then reused) and fills the go command's caches; then RUNS rounds
# alternate the two commands, so that a change of load on a shared machine
# hits both alike. The ratio is divergo's median time over go test's median
# time in the same rounds, and the median of the rounds' own ratios.
#
# Usage: scripts/bench-flaky.sh [RUNS]   (default 5)
#        BASE=REV scripts/bench-flaky.sh [RUNS]
#        N=20 scripts/bench-flaky.sh [RUNS]
# With BASE, divergo as of git revision REV runs in the same rounds too (in
# a copy of each module of its own, so that each keeps its .divergo), and
# its column reads against the same go test baseline.
# Output: a Markdown table for docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
n="${N:-40}"
base="${BASE:-}"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
export GOFLAGS= GOWORK=off
go build -o "$tmp/divergo" ./cmd/divergo
if [[ -n $base ]]; then
	mkdir -p "$tmp/base"
	git archive "$base" | tar -x -C "$tmp/base"
	(cd "$tmp/base" && go build -o "$tmp/divergo-base" ./cmd/divergo)
fi

# modules DIR: the modules of the benchmark's tests in DIR.
modules() {
	mkdir -p "$1/flaky"
	cp testdata/flaky/*.go "$1/flaky/"
	printf 'module example.com/flaky\n\ngo 1.26.8\n' >"$1/flaky/go.mod"
	cp -r "$sync" "$1/sync"
	chmod -R u+w "$1/sync"
}
info=$(go mod download -json golang.org/x/sync)
sync=$(sed -n 's/^\t"Dir": "\(.*\)",$/\1/p' <<<"$info")
version=$(sed -n 's/^\t"Version": "\(.*\)",$/\1/p' <<<"$info")
modules "$tmp/new"
if [[ -n $base ]]; then modules "$tmp/old"; fi

# run VARIANT MODULE PKG TEST: one run, in the module's directory. Exit
# status 1 is a failing test (go test) or a flaky one (divergo test).
run() {
	local status=0
	case $1 in
	race) (cd "$tmp/new/$2" && go test -race -count="$n" -run "^$4\$" "$3") >/dev/null 2>"$tmp/err" || status=$? ;;
	divergo) (cd "$tmp/new/$2" && "$tmp/divergo" test -n "$n" -run "^$4\$" "$3") >/dev/null 2>"$tmp/err" || status=$? ;;
	base) (cd "$tmp/old/$2" && "$tmp/divergo-base" test -n "$n" -run "^$4\$" "$3") >/dev/null 2>"$tmp/err" || status=$? ;;
	esac
	if [[ $status -gt 1 ]]; then
		echo "$1 $4: exit status $status" >&2
		cat "$tmp/err" >&2
		exit 1
	fi
}

# timeit VARIANT MODULE PKG TEST: the wall time of one run, in ms.
timeit() {
	local s e
	s=$(date +%s%N)
	run "$@"
	e=$(date +%s%N)
	echo $(((e - s) / 1000000))
}

median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{t[NR]=$1} END{printf "%.2f", t[int((NR+1)/2)]/1e3}'; }
# ratios A B: the median of the rounds' ratios A[i]/B[i].
ratios() {
	paste <(tr ' ' '\n' <<<"$1" | grep .) <(tr ' ' '\n' <<<"$2" | grep .) |
		awk '{print $1/$2}' | sort -g | awk '{t[NR]=$1} END{printf "%.2f×", t[int((NR+1)/2)]}'
}

variants=(race divergo)
if [[ -n $base ]]; then variants+=(base); fi
echo "divergo test -n $n against go test -race -count=$n, $runs rounds, golang.org/x/sync $version; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg):"
echo
if [[ -n $base ]]; then
	echo "| test | go test -race (median) | divergo test at $base (median) | ratio, of medians and median of rounds | divergo test (median) | ratio, of medians and median of rounds |"
	echo "|---|---|---|---|---|---|"
else
	echo "| test | go test -race (median) | divergo test (median) | ratio, of medians and median of rounds |"
	echo "|---|---|---|---|"
fi
for spec in "flaky . TestGroupForget" "flaky . TestSendClose" "sync ./singleflight TestForget"; do
	read -r mod pkg test <<<"$spec"
	declare -A all=()
	for v in "${variants[@]}"; do run "$v" "$mod" "$pkg" "$test"; done # warm: instruments, fills the caches
	for ((i = 0; i < runs; i++)); do
		for v in "${variants[@]}"; do all[$v]+="$(timeit "$v" "$mod" "$pkg" "$test") "; done
	done
	r=$(median "${all[race]}")
	d=$(median "${all[divergo]}")
	row="| $test | $r s"
	if [[ -n $base ]]; then
		b=$(median "${all[base]}")
		row+=" | $b s | $(awk -v a="$b" -v b="$r" 'BEGIN{printf "%.2f×", a/b}'), $(ratios "${all[base]}" "${all[race]}")"
	fi
	row+=" | $d s | $(awk -v a="$d" -v b="$r" 'BEGIN{printf "%.2f×", a/b}'), $(ratios "${all[divergo]}" "${all[race]}") |"
	echo "$row"
	unset all
done

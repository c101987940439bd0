#!/usr/bin/env bash
# Precision figures for a fixed corpus: programs of the
# e2e corpus (testdata/), programs of Go's own test suite that use channels
# and goroutines ($(go env GOROOT)/test/chan), and the four compute-bound
# programs in the benchmarks game's shape (analyzer/testdata/src). For each
# program and each divergo (this tree, and with BASE the revision REV too):
#
#   recorded   block events the trace of run 1 holds (divergo show --json,
#              "recorded": a packed loop's word counts as one event), over
#              the block executions `go build -cover -covermode=count` counts
#              in one plain run (the sum of go tool covdata textfmt's
#              counts). Coverage blocks are source blocks, not SSA blocks, so
#              the share can pass 100%; it compares two divergos, not the
#              trace with an exact truth.
#   B/s        trace bytes of run 1 over the plain build's best wall time
#              of three runs.
#   flagged    distinct lines divergo vet reports a change point at.
#   differed   how many of those lines started a flagged divergent section
#              in `divergo diff -json` of run i with run 1, i = 2..N, each
#              run perturbed with DIVERGO_PERTURB=i. A section cut off
#              where a goroutine was still running or blocked when the
#              program ended starts at no change point (kind "none") and
#              does not count.
#
# Each divergo instruments and vets with its own analyzer; this tree's show
# and diff read both traces (it reads the older trace versions), so the
# figures differ only by what was flagged and recorded, and an older
# compare's bugs (75c0e5c's panics on wordcount's traces) do not count.
#
# Usage: scripts/precision.sh [N]            (default 10 runs a program)
#        BASE=75c0e5c scripts/precision.sh [N]
#        PROGS="pipeline chan/select3.go" scripts/precision.sh [N]
# Output: a Markdown table for docs/PERFORMANCE.md and docs/SOUNDNESS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
n="${1:-10}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GOFLAGS= GOWORK=off
goroot_test="$(go env GOROOT)/test"
go build -o "$tmp/new/divergo" ./cmd/divergo
versions=(new)
if [[ -n ${BASE:-} ]]; then
	mkdir -p "$tmp/basesrc"
	git archive "$BASE" | tar -x -C "$tmp/basesrc"
	(cd "$tmp/basesrc" && go build -o "$tmp/base/divergo" ./cmd/divergo)
	versions=(base new)
fi
progs="${PROGS:-pipeline workerpool fanin wordcount contention selectlines
chan/doubleselect.go chan/fifo.go chan/nonblock.go chan/select.go chan/select2.go chan/select3.go
chan/select6.go chan/select7.go chan/sieve1.go chan/sieve2.go
binarytrees fannkuch spectralnorm knucleotide}"

# module DIR PROG [ROOT]: a module in DIR holding PROG's source; with ROOT,
# requiring divergo from the tree at ROOT (an older revision's overlay
# imports its runtime from the module).
module() {
	mkdir -p "$1"
	local d
	if [[ $2 == *.go ]]; then
		cp "$goroot_test/$2" "$1/main.go"
	else
		for d in testdata analyzer/testdata/src; do
			if [[ -d $d/$2 ]]; then cp "$d/$2"/*.go "$1/"; break; fi
		done
	fi
	rm -f "$1"/*_test.go
	printf 'module example.com/x\n\ngo 1.26.8\n' >"$1/go.mod"
	if [[ $# -ge 3 ]]; then
		printf '\nrequire github.com/divergo/divergo v0.0.0\n\nreplace github.com/divergo/divergo => %s\n' "$3" >>"$1/go.mod"
		cp "$root/go.sum" "$1/"
	fi
}

# wall CMD...: the wall time of one run of CMD, in seconds.
wall() {
	local s e
	s=$(date +%s%N)
	"$@" >/dev/null 2>&1 || true
	e=$(date +%s%N)
	awk -v d=$((e - s)) 'BEGIN{printf "%.4f", d/1e9}'
}

echo "| program | divergo | block events recorded / cover blocks executed | trace B/s of plain run time | flagged TCP lines | ever differed in $n runs |"
echo "|---|---|---|---|---|---|"
for prog in $progs; do
	plain="$tmp/plain"
	rm -rf "$plain"
	module "$plain" "$prog"
	(
		cd "$plain"
		go build -o plain . && go build -cover -covermode=count -o count .
		mkdir cov
		GOCOVERDIR="$plain/cov" ./count >/dev/null 2>&1 || true
		go tool covdata textfmt -i=cov -o cov.txt
	)
	cover=$(awk 'NR > 1 {s += $NF} END {print s + 0}' "$plain/cov.txt")
	secs=$(for _ in 1 2 3; do wall "$plain/plain"; echo; done | sort -n | head -1)
	for v in "${versions[@]}"; do
		mod="$tmp/$v-mod"
		rm -rf "$mod"
		if [[ $v == base ]]; then module "$mod" "$prog" "$tmp/basesrc"; else module "$mod" "$prog"; fi
		(
			cd "$mod"
			"$tmp/$v/divergo" instrument ./... >/dev/null
			go build -overlay="$mod/.divergo/overlay.json" -o dvg .
			for ((i = 1; i <= n; i++)); do
				DIVERGO_PERTURB=$i DIVERGO_TRACE="$mod/$i.dvt" ./dvg >/dev/null 2>&1 || true
			done
			"$tmp/$v/divergo" vet ./... 2>/dev/null | grep 'trace change point' |
				sed -E 's/^([^:]*\.go:[0-9]+):.*/\1/' | sort -u >flagged.txt || true
			for ((i = 2; i <= n; i++)); do
				"$tmp/new/divergo" diff -json -all 1.dvt "$i.dvt" 2>/dev/null |
					python3 -c 'import json,sys
for s in json.load(sys.stdin)["sections"] or []:
    if not s.get("unflagged") and not s.get("cut_off") and s["tcp"]["kind"] != "none": print(s["tcp"]["pos"])' || true
			done | sort -u >differed.txt
		)
		recorded=$("$tmp/new/divergo" show --json "$mod/1.dvt" | python3 -c 'import json,sys; print(sum(g["recorded"] for g in json.load(sys.stdin)["goroutines"]))')
		bytes=$(stat -c %s "$mod/1.dvt")
		flagged=$(wc -l <"$mod/flagged.txt")
		differed=$(comm -12 "$mod/flagged.txt" "$mod/differed.txt" | wc -l)
		awk -v p="$prog" -v v="$v" -v r="$recorded" -v c="$cover" -v b="$bytes" -v s="$secs" -v f="$flagged" -v d="$differed" 'BEGIN{
			share = c > 0 ? sprintf("%.1f%%", 100 * r / c) : "n/a"
			rate = s > 0 ? b / s : 0
			unit = "B/s"
			if (rate >= 1e6) { rate /= 1e6; unit = "MB/s" } else if (rate >= 1e3) { rate /= 1e3; unit = "kB/s" }
			printf "| %s | %s | %s (%d / %d) | %.1f %s (%d B / %.3f s) | %d | %d (%s) |\n", p, v, share, r, c, rate, unit, b, s, f, d, (f > 0 ? sprintf("%.0f%%", 100 * d / f) : "n/a")
		}'
	done
done

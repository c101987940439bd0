#!/usr/bin/env bash
# Records the benchmarks game's four algorithms each written in two styles
# (analyzer/testdata/src): workers that capture their data against workers
# that get it as go arguments (fannkuch, spectralnorm, binarytrees), a
# strings.Builder against appended slices (knucleotide). For each program
# and each divergo (this tree, and with BASE the revision REV too) it
# prints:
#
#   change points   lines divergo vet reports a trace change point at
#   recorded/plain  the recording build's median wall time over the plain
#                   build's, the two run in turn N rounds (alternating runs:
#                   a change of load hits both alike)
#   trace           the size of the trace one recorded run writes
#
# Both styles of one algorithm should show the same change points and the
# same cost: the analysis follows the data, not the way it is passed.
#
# Usage: scripts/precision-styles.sh [N]             (default 5 rounds)
#        BASE=main scripts/precision-styles.sh [N]
#        PROGS="fannkuch fannkuchargs" scripts/precision-styles.sh [N]
# Output: a Markdown table for docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
n="${1:-5}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GOFLAGS= GOWORK=off
go build -o "$tmp/new/divergo" ./cmd/divergo
versions=(new)
if [[ -n ${BASE:-} ]]; then
	mkdir -p "$tmp/basesrc"
	git archive "$BASE" | tar -x -C "$tmp/basesrc"
	(cd "$tmp/basesrc" && go build -o "$tmp/base/divergo" ./cmd/divergo)
	versions=(base new)
fi
progs="${PROGS:-fannkuch fannkuchargs spectralnorm spectralnormargs binarytrees binarytreesargs knucleotide knucleotideslices}"

# args PROG: the command line of a run, sized so that the plain run takes
# a few hundred milliseconds.
args() {
	case $1 in
	fannkuch*) echo "-n 10" ;;
	spectralnorm*) echo "-n 1000" ;;
	binarytrees*) echo "-n 16" ;;
	knucleotide*) echo "-n 1000000" ;;
	esac
}

# module DIR PROG ROOT: a module in DIR holding PROG's source, requiring
# divergo from the tree at ROOT (the overlay imports its runtime).
module() {
	mkdir -p "$1"
	cp "analyzer/testdata/src/$2"/*.go "$1/"
	rm -f "$1"/*_test.go
	printf 'module example.com/x\n\ngo 1.26.8\n\nrequire github.com/divergo/divergo v0.0.0\n\nreplace github.com/divergo/divergo => %s\n' "$3" >"$1/go.mod"
	cp "$root/go.sum" "$1/"
}

echo "| program | divergo | change points | recorded/plain (median of $n) | trace |"
echo "|---|---|---|---|---|"
for prog in $progs; do
	a=$(args "$prog")
	for v in "${versions[@]}"; do
		mod="$tmp/$v-$prog"
		src=$root
		[[ $v == base ]] && src="$tmp/basesrc"
		module "$mod" "$prog" "$src"
		(
			cd "$mod"
			go build -o plain .
			"$tmp/$v/divergo" instrument ./... >/dev/null
			go build -overlay="$mod/.divergo/overlay.json" -o dvg .
			"$tmp/$v/divergo" vet ./... 2>/dev/null | grep 'trace change point' |
				sed -E 's/^([^:]*\.go:[0-9]+):.*/\1/' | sort -u >flagged.txt || true
			# shellcheck disable=SC2086
			"$root/scripts/alternate.sh" "$n" "./plain $a" "DIVERGO_TRACE=$mod/run.dvt ./dvg $a" >times.txt
		)
		tcps=$(wc -l <"$mod/flagged.txt")
		plain=$(awk 'NR == 1 {print $1}' "$mod/times.txt")
		rec=$(awk 'NR == 2 {print $1}' "$mod/times.txt")
		bytes=$(stat -c %s "$mod/run.dvt")
		awk -v p="$prog $a" -v v="$v" -v t="$tcps" -v pl="$plain" -v r="$rec" -v b="$bytes" 'BEGIN{
			size = b >= 1e6 ? sprintf("%.1f MB", b / 1e6) : sprintf("%.1f kB", b / 1e3)
			printf "| %s | %s | %d | %.2fx (%.0f / %.0f ms) | %s |\n", p, v, t, r / pl, r, pl, size
		}'
	done
done

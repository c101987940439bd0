#!/usr/bin/env bash
# How many pairs of unperturbed runs of the deterministic programs of e2e
# TestSamePathsShapes divergo diff parts, when every parting is a false one
# (docs/SOUNDNESS.md, "False partings on deterministic programs").
#
# Each program is copied into a module of its own, instrumented and built;
# it is then run unperturbed 2*PAIRS times (default 5 pairs) and each pair
# diffed. A pair "parted" when diff exits 1. DIVERGO names a divergo binary
# to use instead of one built from this tree (a build of another revision:
# the figure's "before").
#
# Usage: [DIVERGO=BIN] scripts/samepaths.sh [PAIRS]
# Output: one line per program: pairs parted, and the first parting's line.
set -euo pipefail
cd "$(dirname "$0")/.."
pairs="${1:-5}"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export GOFLAGS= GOWORK=off
dvg="${DIVERGO:-}"
if [[ -z "$dvg" ]]; then
	go build -o "$tmp/divergo" ./cmd/divergo
	dvg="$tmp/divergo"
fi
progs=$(sed -n '/^var samePathsProgs/,/^}/p' e2e/samepaths_test.go | grep -o '"[a-z0-9]*"' | tr -d '"')
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
total=0
parted=0
for p in $progs; do
	d="$tmp/$p"
	mkdir -p "$d"
	cp testdata/$p/*.go "$d/"
	printf 'module example.com/%s\n\ngo 1.26.8\n' "$p" >"$d/go.mod"
	if grep -q '"golang.org/x/sync/' "$d"/*.go; then
		(cd "$d" && go get golang.org/x/sync@v0.24.0 >/dev/null 2>&1)
	fi
	(cd "$d" && "$dvg" instrument ./... >/dev/null && go build -overlay=.divergo/overlay.json -o prog .)
	n=0
	first=""
	for ((i = 1; i <= pairs; i++)); do
		(cd "$d" && DIVERGO_TRACE=a.dvt ./prog >/dev/null 2>&1 && DIVERGO_TRACE=b.dvt ./prog >/dev/null 2>&1) || true
		if ! out=$(cd "$d" && "$dvg" diff a.dvt b.dvt 2>&1); then
			n=$((n + 1))
			[[ -n "$first" ]] || first=$(grep -m1 'first parted' <<<"$out" | sed 's/^ *first parted *//')
		fi
	done
	total=$((total + pairs))
	parted=$((parted + n))
	printf '%-16s %d/%d parted %s\n' "$p" "$n" "$pairs" "$first"
done
echo "all: $parted/$total pairs parted"

#!/usr/bin/env bash
# Compares divergo wait's answer with go tool pprof's on the same run, on
# the programs whose time is in code that records nothing: testdata/
# slowhelper (a fork-join pool whose worker 2 loops in process, a helper
# with no change point) and testdata/hashlines (two sha256 calls of one
# block). Each is instrumented, built and run as a user would, with no
# environment variable but the trace's, so with the CPU samples divergo
# records by default; then prints, per program, the top lines of the
# samples (go tool pprof -top -cum -lines on run-1.cpu.pprof, the
# program's own lines, with the share of samples they are on the stack of), the top steps of the first wait divergo wait explains, and
# the top function of divergo wait's own profile (divergo wait -pprof, go
# tool pprof -top). The lines agree when the slow statement is first in
# all three.
#
# Usage: scripts/wait-vs-pprof.sh [PROG...]   (default slowhelper hashlines)
# Output: a Markdown table for docs/ARCHITECTURE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
progs=("$@")
if [[ ${#progs[@]} -eq 0 ]]; then progs=(slowhelper hashlines); fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GOFLAGS= GOWORK=off
go build -o "$tmp/bin/divergo" ./cmd/divergo
export PATH="$tmp/bin:$PATH"
echo "| program | go tool pprof -top -cum -lines (samples, the program's lines) | divergo wait (top steps of the first site) | divergo wait -pprof, top function |"
echo "|---|---|---|---|"
for prog in "${progs[@]}"; do
	m="$tmp/$prog"
	mkdir -p "$m"
	cp "$root/testdata/$prog/"*.go "$m/"
	printf 'module example.com/%s\n\ngo 1.26.8\n' "$prog" >"$m/go.mod"
	(
		cd "$m"
		divergo instrument ./... >/dev/null
		go build -overlay="$m/.divergo/overlay.json" -o prog .
		DIVERGO_TRACE="$m/run-1.dvt" ./prog >/dev/null
		samples=$(go tool pprof -top -cum -lines run-1.cpu.pprof 2>/dev/null |
			awk '$NF ~ /main\.go:[0-9]+$/ { n = split($NF, p, "/"); printf "%s%s %s", sep, p[n], $5; sep = ", "; if (++k == 3) exit }')
		steps=$(divergo wait run-1.dvt | awk '/^     \+ / { printf "%s%s %s %s", sep, $2, $(NF-1), $NF; sep = ", "; if (++k == 3) exit }')
		divergo wait -pprof wait.pprof run-1.dvt >/dev/null
		top=$(go tool pprof -top wait.pprof 2>/dev/null | awk 'NF == 6 && $2 ~ /%$/ && $1 != "flat" { print $6; exit }')
		echo "| $prog | $samples | $steps | $top |"
	)
done

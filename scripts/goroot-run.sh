#!/usr/bin/env bash
# Instruments programs of Go's own test suite ($(go env GOROOT)/test), one
# at a time in a module of its own, builds and runs each with recording on,
# and compares its output and exit status with `go run` of the plain file.
# Prints a line per program: same or different output, and how many packed
# loops' word writes (PackWord/PackCount) the instrumented copy holds.
# It is how PERFORMANCE.md, "Packed loops", counted Go's own tests.
#
# Usage: scripts/goroot-run.sh [FILE...]   (paths relative to GOROOT/test)
# Without files: the `// run` programs of test/ and test/ken/ with a
# three-clause for loop that use neither unsafe, reflect, os.Args nor
# build constraints (54 of them with Go 1.26).
# DIVERGO=path/to/divergo picks another divergo binary (the default is
# built from this tree), to count what an older one packs.
set -euo pipefail
cd "$(dirname "$0")/.."
goroot_test="$(go env GOROOT)/test"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GOFLAGS= GOWORK=off
dvg="${DIVERGO:-}"
if [[ -z $dvg ]]; then
	go build -o "$tmp/divergo" ./cmd/divergo
	dvg="$tmp/divergo"
fi
if [[ $# -eq 0 ]]; then
	mapfile -t files < <(cd "$goroot_test" && grep -l '^// run$' ken/*.go ./*.go |
		xargs grep -L 'unsafe\|//go:build\|os.Args\|reflect' | xargs grep -l 'for .*;.*;' | sed 's#^\./##')
	set -- "${files[@]}"
fi
for f in "$@"; do
	d="$tmp/$(tr / _ <<<"${f%.go}")"
	mkdir -p "$d"
	cp "$goroot_test/$f" "$d/main.go"
	printf 'module example.com/x\n\ngo 1.26.8\n' >"$d/go.mod"
	(
		cd "$d"
		plain=$(timeout 60 go run . 2>&1; echo "exit $?")
		if ! "$dvg" instrument ./... >/dev/null 2>instrument.err; then
			echo "$f: instrument failed: $(head -1 instrument.err)"
			exit 0
		fi
		if ! go build -overlay="$d/.divergo/overlay.json" -o dvg . 2>build.err; then
			echo "$f: BUILD FAILED: $(head -1 build.err)"
			exit 0
		fi
		rec=$(DIVERGO_TRACE="$d/t.dvt" timeout 60 ./dvg 2>&1; echo "exit $?")
		packs=$(grep -c 'PackWord\|PackCount' .divergo/main.go || true)
		if [[ $plain == "$rec" ]]; then
			echo "$f: same output, $packs pack writes"
		else
			echo "$f: OUTPUT DIFFERS, $packs pack writes"
		fi
	)
done

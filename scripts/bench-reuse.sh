#!/usr/bin/env bash
# How long divergo takes to start recording a module it has instrumented
# before (docs/PERFORMANCE.md, "Instrumenting again"): golang.org/x/sync as
# published (the version divergo's own go.sum names), copied as it is into a
# temporary directory, then three divergo test runs of one test of
# singleflight: the first instruments, the second and third find nothing
# changed and reuse .divergo; then an edit of one comment in singleflight
# makes the fourth instrument again.
#
# Usage: scripts/bench-reuse.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
go build -o "$tmp/divergo" ./cmd/divergo
info=$(go mod download -json golang.org/x/sync)
src=$(sed -n 's/^\t"Dir": "\(.*\)",$/\1/p' <<<"$info")
version=$(sed -n 's/^\t"Version": "\(.*\)",$/\1/p' <<<"$info")
cp -r "$src" "$tmp/sync"
chmod -R u+w "$tmp/sync"
cd "$tmp/sync"
run() {
	local start end
	start=$(date +%s.%N)
	"$tmp/divergo" test -n 2 -run '^TestForget$' ./singleflight >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
	end=$(date +%s.%N)
	printf '%-28s %6.2f s   %s\n' "$1" "$(echo "$end - $start" | bc)" "$(grep -o 'instrumented [0-9]* files\|reused [0-9]* files' "$tmp/err")"
}
echo "divergo test -n 2 -run '^TestForget\$' ./singleflight in golang.org/x/sync $version; load $(cut -d' ' -f1 /proc/loadavg):"
run "first (instruments)"
run "second (nothing changed)"
run "third (nothing changed)"
echo "// an edit" >>singleflight/singleflight.go
run "after an edit"

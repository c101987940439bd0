#!/usr/bin/env bash
# Times divergo's analysis over the whole standard library next to go vet's
# default analyzers on the same packages, in the same run, and counts the share
# of branch points flagged as trace change points.
#
# Usage: scripts/bench-vet-std.sh [PACKAGES]   (default: std)
# Output: a Markdown table for docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs="${1:-std}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/divergo" ./cmd/divergo

# Each tool runs with a cold vet cache for its own results (GOCACHE shared for
# compiled export data, warmed first), so the times compare analysis work.
export GOFLAGS=-count=1
go list "$pkgs" >/dev/null
go vet "$pkgs" >/dev/null 2>&1 || true # warm the build cache for export data

t() { local s e; s=$(date +%s.%N); "$@" >"$tmp/out" 2>&1 || true; e=$(date +%s.%N); awk -v a="$s" -v b="$e" 'BEGIN{printf "%.2f", b-a}'; }
export GOCACHE="$tmp/cache1"; mkdir -p "$GOCACHE"
go build std 2>/dev/null || true
vet=$(t go vet "$pkgs")
export GOCACHE="$tmp/cache2"; mkdir -p "$GOCACHE"
go build std 2>/dev/null || true
dvg=$(t go vet -vettool="$tmp/divergo" "$pkgs")
panics=$(grep -c 'panic:' "$tmp/out" || true)
tcps=$(grep -c 'trace change point' "$tmp/out" || true)
echo "| packages | go vet (default analyzers) | go vet -vettool=divergo | ratio | TCP lines | panics |"
echo "|---|---|---|---|---|---|"
printf '| %s | %.1f s | %.1f s | %.2f× | %s | %s |\n' "$pkgs" "$vet" "$dvg" "$(awk -v a="$dvg" -v b="$vet" 'BEGIN{print a/b}')" "$tcps" "$panics"

# Share of branch points flagged, from the graph: blocks that decide between
# two or more successors against those whose decision is a TCP.
echo
"$tmp/divergo" graph -stats -o /dev/null "$pkgs"

#!/usr/bin/env bash
# What instrumenting adds to a module: divergo instrument ./... of
# testdata/cpuloop in a module of its own, then the bytes and files of
# .divergo/ and of the recorder's copy in it (runtime, internal/trace,
# internal/tbb, which every recorded build compiles), and the lines of Go
# of that copy. With BASE=REV, the tree at REV is measured beside this one
# (docs/PERFORMANCE.md, "What a recorded build compiles").
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

measure() { # name, divergo binary
  local mod="$work/mod-$1"
  mkdir -p "$mod"
  cp "$root"/testdata/cpuloop/*.go "$mod"/
  printf 'module example.com/cpuloop\n\ngo 1.26.8\n' >"$mod/go.mod"
  (cd "$mod" && GOFLAGS= "$2" instrument ./... >/dev/null)
  local rec="$mod/.divergo/_divergo"
  printf '%s\t%s B in %s files\t%s B in %s files\t%s lines\t%s B in %s files\n' "$1" \
    "$(du -sb "$mod/.divergo" | cut -f1)" "$(find "$mod/.divergo" -type f | wc -l)" \
    "$(du -sb "$rec" | cut -f1)" "$(find "$rec" -name '*.go' | wc -l)" \
    "$(cat "$rec"/*.go "$rec"/internal/*/*.go | wc -l)" \
    "$(du -sb "$rec/internal/trace" | cut -f1)" "$(find "$rec/internal/trace" -name '*.go' | wc -l)"
}

printf 'divergo\t.divergo/\trecorder copy\trecorder Go lines\tits internal/trace\n'
if [ -n "${BASE:-}" ]; then
  mkdir -p "$work/base"
  git -C "$root" archive "$BASE" | tar -x -C "$work/base"
  (cd "$work/base" && go build -o "$work/divergo-base" ./cmd/divergo)
  measure "$BASE" "$work/divergo-base"
fi
(cd "$root" && go build -o "$work/divergo" ./cmd/divergo)
measure "this tree" "$work/divergo"

#!/usr/bin/env bash
# How divergo test does on real flaky tests: each entry of
# scripts/flaky-corpus.tsv is a public Go module at the parent of the commit
# that fixed a flaky test whose cause is an interleaving, fetched by version
# through the module proxy (go mod download) and copied, as it is, into a
# temporary directory. Nothing of it is kept.
#
# For each entry it runs divergo test -n N once cold (instrumenting), then
# once warm, and go test -race -count=N once to warm its caches and once
# timed; then, when the test came out flaky, the report's rerun line 10
# times. It prints per test and in total:
#   flaky     divergo test found the test flaky (both passed and failed)
#   rank      where the report first names a statement in the manifest's
#             mechanism (scripts/flakycorpus.go), 0 when it does not
#   hang      where the report's "blocked at the end of failing runs" first
#             names a wait or the operation that ended it in passing runs
#             inside the mechanism, 0 when none does, - when it lists none
#   rerun     how many of 10 reruns failed (9 of 10 is the goal)
#   cold, warm, race: seconds of divergo test cold and warm and of
#             go test -race -count=N; ratio: warm over race
#
# Usage: scripts/flaky-corpus.sh [TEST...]   (default: every entry)
#        N=20 scripts/flaky-corpus.sh TestX
#        CHECK=1 scripts/flaky-corpus.sh   (only: is every entry fetchable)
#        KEEP=DIR scripts/flaky-corpus.sh  (each warm report as DIR/TEST.json)
# Output: a Markdown table for docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
n="${N:-40}"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
export GOWORK=off GOFLAGS=-mod=mod

# entries: the manifest's rows, those named on the command line if any.
entries() {
	grep -v '^#' scripts/flaky-corpus.tsv | grep . | while IFS=$'\t' read -r mod ver pkg test flags fix mech; do
		if [[ $# -eq 0 ]] || printf '%s\n' "$@" | grep -qx "$test"; then
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mod" "$ver" "$pkg" "$test" "$flags" "$fix" "$mech"
		fi
	done
}

# fetch MOD VER: the directory of the module in the module cache.
fetch() {
	go mod download -json "$1@$2" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p'
}

if [[ -n ${CHECK:-} ]]; then
	bad=0
	while IFS=$'\t' read -r mod ver _ test _; do
		if dir=$(fetch "$mod" "$ver" 2>"$tmp/err") && [[ -n $dir ]]; then
			echo "ok $test $mod@$ver"
		else
			echo "FAIL $test $mod@$ver: $(head -1 "$tmp/err")"
			bad=1
		fi
	done < <(entries "$@")
	exit $bad
fi

go build -o "$tmp/divergo" ./cmd/divergo

# secs CMD...: runs CMD, its output to $tmp/out, and leaves its wall time in
# seconds in $took and its exit status in $status.
secs() {
	local s e
	s=$(date +%s%N)
	status=0
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null || status=$?
	e=$(date +%s%N)
	took=$(awk -v d=$((e - s)) 'BEGIN{printf "%.1f", d/1e9}')
}

echo "divergo test -n $n against go test -race -count=$n; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg):"
echo
echo "| module@version | test | flaky | rank | hang | rerun | cold | warm | race | ratio |"
echo "|---|---|---|---|---|---|---|---|---|---|"
total=0 found=0 named=0 byhang=0 reran=0 ratios=""
i=0
while IFS=$'\t' read -r mod ver pkg test flags fix mech; do
	i=$((i + 1))
	dir=$(fetch "$mod" "$ver")
	work="$tmp/m$i"
	cp -r "$dir" "$work"
	chmod -R u+w "$work"
	targs=()
	if [[ $flags != - ]]; then read -ra targs <<<"$flags"; fi
	cd "$work"
	dt=("$tmp/divergo" test -n "$n" -run "^$test\$")
	after=("$pkg")
	if [[ ${#targs[@]} -gt 0 ]]; then after+=(-- "${targs[@]}"); fi
	secs "${dt[@]}" "${after[@]}"
	cold=$took
	secs "${dt[@]}" -json "${after[@]}"
	warm=$took
	cp "$tmp/out" "$tmp/report.json"
	if [[ -n ${KEEP:-} ]]; then cp "$tmp/out" "$KEEP/$test.json"; fi
	dstatus=$status
	if [[ $dstatus -gt 1 ]]; then
		echo "$test: divergo test exited $dstatus:" >&2
		head -20 "$tmp/err" >&2
	fi
	gt=(go test -race -count="$n" -run "^$test\$" "$pkg")
	if [[ ${#targs[@]} -gt 0 ]]; then gt+=(-args "${targs[@]}"); fi
	secs "${gt[@]}"
	secs "${gt[@]}"
	race=$took
	IFS=$'\t' read -r runs fails rank rerun hung < <(cd "$root" && go run scripts/flakycorpus.go "$tmp/report.json" "$test" "$mech" 2>&1 || echo "0	0	0	-	-")
	flaky=no again="-"
	# A report that was not written says nothing of the test: the row
	# says so rather than "no".
	if [[ $dstatus -gt 1 ]]; then flaky="error (divergo test exited $dstatus)" rank=- hung=-; fi
	total=$((total + 1))
	if [[ $fails -gt 0 && $fails -lt $runs ]]; then
		flaky="yes ($fails of $runs)"
		found=$((found + 1))
		if [[ $rank -ge 1 && $rank -le 3 ]]; then
			named=$((named + 1))
		elif [[ $hung =~ ^[123]$ ]]; then
			named=$((named + 1)) byhang=$((byhang + 1))
		fi
		k=0
		for ((j = 0; j < 10; j++)); do
			if ! bash -c "$rerun" >/dev/null 2>&1 </dev/null; then k=$((k + 1)); fi
		done
		again="$k of 10"
		if [[ $k -ge 9 ]]; then reran=$((reran + 1)); fi
	fi
	cd "$root"
	ratio=$(awk -v a="$warm" -v b="$race" 'BEGIN{printf "%.2f", a/b}')
	ratios+="$ratio "
	echo "| $mod@$ver | $test | $flaky | $rank | $hung | $again | $cold s | $warm s | $race s | ${ratio}× |"
done < <(entries "$@")
med=$(tr ' ' '\n' <<<"$ratios" | grep . | sort -g | awk '{t[NR]=$1} END{if (NR) printf "%.2f", t[int((NR+1)/2)]}')
echo
echo "total: $total tests; found flaky $found; mechanism among the first 3 in $named ($byhang of them a hang's wait or release); reruns failing 9 of 10 or more in $reran; median warm ratio ${med}×"

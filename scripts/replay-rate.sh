#!/usr/bin/env bash
# replay-rate.sh: how often the rerun lines of a divergo test report fail
# again, with the schedule replayed (the line as printed) and without
# (DIVERGO_REPLAY left out: the failing run's seed alone).
#
#   divergo test -n 20 -json ./pkg > report.json
#   scripts/replay-rate.sh report.json [N]
#
# Run it where divergo test ran: the lines are printed for that directory.
# N is the number of reruns of each kind (10 by default). jq is needed.
set -u
report=$1
n=${2:-10}
jq -r '.flaky[] | [.name, .rerun] | @tsv' "$report" | while IFS=$'\t' read -r name rerun; do
	plain=$(sed -E 's/DIVERGO_REPLAY=[^ ]+ //' <<<"$rerun")
	replayed=0 seeded=0
	for _ in $(seq "$n"); do
		bash -c "$rerun" >/dev/null 2>&1 || replayed=$((replayed + 1))
		bash -c "$plain" >/dev/null 2>&1 || seeded=$((seeded + 1))
	done
	printf '%-22s replayed %2d of %d failed   seed alone %2d of %d\n' "$name" "$replayed" "$n" "$seeded" "$n"
done

#!/usr/bin/env bash
# Heap allocations per single-row statement, for Strata, GRDB and a raw sqlite3 loop: the
# difference between valgrind's allocation totals for 2,000 and 1,000 statements, over 1,000,
# less the same difference for a run that only prepares the rows ("none").
# Needs valgrind and a release build: `swift build -c release --product strata-bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=.build/release/strata-bench
total() {
  STRATA_BENCH_PROFILE=$1 STRATA_BENCH_CONTENDER=$2 valgrind "$bench" --only statements --statements "$3" 2>&1 \
    | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
}
printf '%-8s %8s %8s %8s\n' operation Strata GRDB raw
per_statement() { echo $(( ($(total "$1" "$2" 2000) - $(total "$1" "$2" 1000)) )); }
for operation in insert find update delete; do
  row="$operation"
  setup=$(per_statement "$operation" none)
  for contender in strata grdb raw; do
    row="$row $(( ($(per_statement "$operation" "$contender") - setup) / 1000 ))"
  done
  printf '%-8s %8s %8s %8s\n' $row
done

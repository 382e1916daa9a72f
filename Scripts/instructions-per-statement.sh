#!/usr/bin/env bash
# Instructions per single-row statement, for Strata, GRDB and a raw sqlite3 loop, counted by
# valgrind's callgrind (a count that repeats exactly, whatever else the machine does): the
# difference between 2,000 and 1,000 statements, over 1,000, less the same difference for a run
# that only prepares the rows ("none").
#
# Needs valgrind and a release build (`swift build -c release --enable-all-traits --product
# strata-bench`). valgrind 3.19 cannot read the DWARF 5 debug information Swift writes (it stops
# with "Possibly corrupted debuginfo file"), so it runs a copy without it; the symbols stay.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=$(mktemp)
trap 'rm -f "$bench" callgrind.out.strata-*' EXIT
objcopy --strip-debug .build/release/strata-bench "$bench"
total() {
  STRATA_BENCH_PROFILE=$1 STRATA_BENCH_CONTENDER=$2 valgrind --tool=callgrind \
    --callgrind-out-file="callgrind.out.strata-$$" "$bench" --only statements --statements "$3" --runs 1 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_statement() { echo $(( $(total "$1" "$2" 2000) - $(total "$1" "$2" 1000) )); }
printf '%-8s %10s %10s %10s\n' operation Strata GRDB raw
for operation in ${OPERATIONS:-insert find update delete}; do
  row="$operation"
  setup=$(per_statement "$operation" none)
  for contender in strata grdb raw; do
    row="$row $(( ($(per_statement "$operation" "$contender") - setup) / 1000 ))"
  done
  printf '%-8s %10s %10s %10s\n' $row
done

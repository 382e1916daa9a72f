#!/usr/bin/env bash
# Instructions per single-row statement, for Strata, Strata's executor on SQL rendered once
# (GRDB's cached-statement path), GRDB's record API and a raw sqlite3 loop, counted by
# valgrind's callgrind (a count that repeats exactly, whatever else the machine does): the
# difference between 2,000 and 1,000 statements, over 1,000, less the same difference for a run
# that only prepares the rows ("none").
#
# Needs valgrind and a release build (`swift build -c release --enable-all-traits --product
# strata-bench`). valgrind 3.19 cannot read the DWARF 5 debug information Swift writes (it stops
# with "Possibly corrupted debuginfo file"), so it runs a copy without it; the symbols stay.
# OPERATIONS and CONTENDERS choose the rows and columns; STRATA_BENCH_BINARY another build (to
# compare two commits' binaries).
set -euo pipefail
cd "$(dirname "$0")/.."
bench=$(mktemp)
trap 'rm -f "$bench" callgrind.out.strata-*' EXIT
objcopy --strip-debug "${STRATA_BENCH_BINARY:-.build/release/strata-bench}" "$bench"
total() {
  STRATA_BENCH_PROFILE=$1 STRATA_BENCH_CONTENDER=$2 valgrind --tool=callgrind \
    --callgrind-out-file="callgrind.out.strata-$$" "$bench" --only statements --statements "$3" --runs 1 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_statement() { echo $(( $(total "$1" "$2" 2000) - $(total "$1" "$2" 1000) )); }
contenders=${CONTENDERS:-strata prebuilt grdb raw}
printf '%-8s' operation; printf ' %10s' $contenders; echo
for operation in ${OPERATIONS:-insert find update delete}; do
  setup=$(per_statement "$operation" none)
  printf '%-8s' "$operation"
  for contender in $contenders; do
    printf ' %10s' $(( ($(per_statement "$operation" "$contender") - setup) / 1000 ))
  done
  echo
done

#!/usr/bin/env bash
# Instructions per single-row statement, for Strata, Strata prepared once (PreparedStatement),
# Strata's executor on SQL rendered once (GRDB's cached-statement path), GRDB's record API and a
# raw sqlite3 loop, counted by valgrind's callgrind (a count that other work on the machine does
# not change) inside the benchmark's function that runs the statements (`profiledStatements`),
# none of the setup: the difference between 20,000 and 10,000 statements, over 10,000. The rows'
# keys come from a fixed sequence, and the runs hash with a fixed seed
# (SWIFT_DETERMINISTIC_HASHING): with each process's random seed, Swift's hash tables probe
# differently from run to run. Counting the whole process instead, less a run that only prepares
# the rows, moved by up to 700 instructions per statement between runs of one binary (the setup,
# which grows with the rows, varies); counted inside the function, runs of one binary agree.
#
# Needs valgrind and a release build (`swift build -c release --enable-all-traits --product
# strata-bench`). valgrind 3.19 cannot read the DWARF 5 debug information Swift writes (it stops
# with "Possibly corrupted debuginfo file"), so it runs a copy without it; the symbols stay.
# OPERATIONS and CONTENDERS choose the rows and columns; STRATA_BENCH_BINARY another build (to
# compare two commits' binaries). The one-row join takes OPERATIONS=join with CONTENDERS="strata
# prepared prebuilt": GRDB's record API and the raw loop have no join of their own here.
set -euo pipefail
export SWIFT_DETERMINISTIC_HASHING=1
cd "$(dirname "$0")/.."
bench=$(mktemp)
trap 'rm -f "$bench" callgrind.out.strata-*' EXIT
objcopy --strip-debug "${STRATA_BENCH_BINARY:-.build/release/strata-bench}" "$bench"
total() {
  STRATA_BENCH_PROFILE=$1 STRATA_BENCH_CONTENDER=$2 valgrind --tool=callgrind --toggle-collect='*profiledStatements*' \
    --callgrind-out-file="callgrind.out.strata-$$" "$bench" --only statements --statements "$3" --runs 1 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_statement() { echo $(( $(total "$1" "$2" 20000) - $(total "$1" "$2" 10000) )); }
contenders=${CONTENDERS:-strata prepared prebuilt grdb raw}
printf '%-8s' operation; printf ' %10s' $contenders; echo
for operation in ${OPERATIONS:-insert find update delete}; do
  printf '%-8s' "$operation"
  for contender in $contenders; do
    printf ' %10s' $(( $(per_statement "$operation" "$contender") / 10000 ))
  done
  echo
done

#!/usr/bin/env bash
# Clean debug builds of two minimal consumers, one after the other: one that depends on GRDB
# alone, and one that uses Strata as the README shows (the seeds' two models, the build plugin
# and so the `strata` tool, one query). Then the build a developer waits for many times a day:
# each consumer's player type gains a property, and the package is built again (incremental,
# three times, each edit another property).
#
#   Scripts/clean-build.sh
#
# With --critical-path, the clean builds instead: each consumer is built clean with `-j 1`, every
# compiler job logged (Scripts/compiler-job-log.sh), then clean and timed as usual; and
# Scripts/critical-path.py estimates from the log each build's time on 2 (against the timed
# build), 4, 8, 12 and unlimited cores, and prints the critical path.
set -euo pipefail
mode=${1:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
package=$(basename "$repo" | tr '[:upper:]' '[:lower:]')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/grdb/Sources/App" "$work/strata/Sources/App"
cat > "$work/grdb/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
  name: "GRDBConsumer",
  dependencies: [.package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0")],
  targets: [.executableTarget(name: "App", dependencies: [.product(name: "GRDB", package: "GRDB.swift")])]
)
EOF
cat > "$work/grdb/Sources/App/main.swift" <<'EOF'
import GRDB

struct Player: Codable, FetchableRecord, PersistableRecord {
  var id: String
  var gameID: String
  var name: String
  var score: Int
}

let queue = try DatabaseQueue()
let players = try queue.read { db in
  try Player.filter(Column("score") > 10).order(Column("name")).fetchAll(db)
}
print(players.count)
EOF
cat > "$work/strata/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
  name: "StrataConsumer",
  dependencies: [.package(path: "$repo")],
  targets: [
    .executableTarget(
      name: "App", dependencies: [.product(name: "Strata", package: "$package")],
      plugins: [.plugin(name: "StrataPlugin", package: "$package")])
  ]
)
EOF
# The seeds' models, as the example app declares them.
cp "$repo/Sources/scorekeeper/Models.swift" "$work/strata/Sources/App/Models.swift"
cat > "$work/strata/Sources/App/main.swift" <<'EOF'
import Strata

let database = try openDatabase(.inMemory)
let players = try database.read { db in
  try Player.where { $0.score > 10 }.order(by: \.name).fetchAll(db)
}
print(players.count)
EOF

timed_build() {
  local start
  start=$(date +%s.%N)
  (cd "$work/$1" && swift build >/dev/null)
  echo "$(date +%s.%N) - $start" | bc
}
for consumer in grdb strata; do
  (cd "$work/$consumer" && swift package resolve >/dev/null 2>&1)
  if [ "$mode" = "--critical-path" ]; then
    mkdir -p "$work/wrap"
    for tool in swift-frontend clang; do install -m 755 "$repo/Scripts/compiler-job-log.sh" "$work/wrap/$tool"; done
    (cd "$work/$consumer" && COMPILER_JOB_LOG="$work/$consumer.jobs" \
      COMPILER_JOB_LOG_TOOLCHAIN="$(dirname "$(readlink -f "$(command -v swiftc)")")" \
      SWIFT_DRIVER_SWIFT_FRONTEND_EXEC="$work/wrap/swift-frontend" SWIFT_DRIVER_CLANG_EXEC="$work/wrap/clang" \
      swift build -j 1 >/dev/null)
    # Clean again, keeping the resolved packages.
    find "$work/$consumer/.build" -mindepth 1 -maxdepth 1 ! -name checkouts ! -name repositories ! -name artifacts \
      ! -name workspace-state.json -exec rm -rf {} +
  fi
  seconds=$(timed_build "$consumer")
  printf '%-7s clean debug build: %5.1f s\n' "$consumer" "$seconds"
  if [ "$mode" = "--critical-path" ]; then
    case $consumer in
      grdb) dependencies=("App:GRDB" "link App:App") ;;
      strata) dependencies=(
        "StrataSchema:StrataSQL" "strata_build:StrataSchema" "link strata-build-tool:strata_build"
        "StrataCore:StrataSQL" "Strata:StrataCore,GRDB" "App:Strata" "link App:App") ;;
    esac
    python3 "$repo/Scripts/critical-path.py" "$work/$consumer.jobs" "$seconds" "${dependencies[@]}"
    # JOB_LOGS=folder keeps the job logs, to read again (`critical-path.py LOG SECONDS DEPENDENCIES…`).
    if [ -n "${JOB_LOGS:-}" ]; then cp "$work/$consumer.jobs" "$JOB_LOGS/"; fi
  fi
done
if [ "$mode" = "--critical-path" ]; then exit 0; fi
# One edit of the player type per build: a new optional property, the edit the generated code
# (for Strata) has to follow.
for edit in 1 2 3; do
  sed -i "s/^  var name: String$/  var name: String\n  var note$edit: String?/" "$work/grdb/Sources/App/main.swift"
  sed -i "s/^  var name = \"\"$/  var name = \"\"\n  var note$edit: String?/" "$work/strata/Sources/App/Models.swift"
  for consumer in grdb strata; do
    printf '%-7s after an edit of one model: %5.2f s\n' "$consumer" "$(timed_build "$consumer")"
  done
done


#!/usr/bin/env bash
# Clean debug builds of two minimal consumers, one after the other: one that depends on GRDB
# alone, and one that uses Strata as the README shows (the seeds' two models, the build plugin
# and so the `strata` tool, one query). Then the build a developer waits for many times a day:
# each consumer's player type gains a property, and the package is built again (incremental,
# three times, each edit another property).
#
#   Scripts/clean-build.sh
set -euo pipefail
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
  printf '%-7s clean debug build: %5.1f s\n' "$consumer" "$(timed_build "$consumer")"
done
# One edit of the player type per build: a new optional property, the edit the generated code
# (for Strata) has to follow.
for edit in 1 2 3; do
  sed -i "s/^  var name: String$/  var name: String\n  var note$edit: String?/" "$work/grdb/Sources/App/main.swift"
  sed -i "s/^  var name = \"\"$/  var name = \"\"\n  var note$edit: String?/" "$work/strata/Sources/App/Models.swift"
  for consumer in grdb strata; do
    printf '%-7s after an edit of one model: %5.2f s\n' "$consumer" "$(timed_build "$consumer")"
  done
done


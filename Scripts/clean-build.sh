#!/usr/bin/env bash
# Clean debug builds of two minimal consumers, one after the other: one that depends on GRDB
# alone, and one that uses Strata as the README shows (the seeds' two models, the build plugin
# and so the `strata` tool, one query). With `--modules`, the Strata consumer is built once more
# with `-driver-time-compilation` and the slowest compile jobs are listed.
#
#   Scripts/clean-build.sh [--modules]
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
cat > "$work/strata/Sources/App/Models.swift" <<'EOF'
import Foundation
import Strata

struct Game: Table, Identifiable {
  let id: UUID
  var title = ""
}

struct Player: Table, Identifiable {
  let id: UUID
  var gameID: Game.ID
  var name = ""
  var score = 0
}
EOF
cat > "$work/strata/Sources/App/main.swift" <<'EOF'
import Strata

let database = try openDatabase(.inMemory)
let players = try database.read { db in
  try Player.where { $0.score > 10 }.order(by: \.name).fetchAll(db)
}
print(players.count)
EOF

for consumer in grdb strata; do
  (cd "$work/$consumer" && swift package resolve >/dev/null 2>&1)
  start=$(date +%s.%N)
  (cd "$work/$consumer" && swift build >/dev/null)
  printf '%-7s clean debug build: %5.1f s\n' "$consumer" "$(echo "$(date +%s.%N) - $start" | bc)"
done

if [ "${1:-}" = "--modules" ]; then
  rm -rf "$work/strata/.build/debug" "$work/strata/.build/x86_64-unknown-linux-gnu" "$work/strata/.build/arm64-apple-macosx"
  (cd "$work/strata" && swift build -Xswiftc -driver-time-compilation 2>&1) \
    | grep -E '^ *[0-9.]+ \( *[0-9.]+%\) +[0-9.]+ .*Compiling' | sort -rn | head -25
fi

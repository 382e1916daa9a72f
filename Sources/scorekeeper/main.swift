// Scorekeeper: the example app, without the UI. It plays the screens of its games list
// and game detail against an SQLite file and prints the SQL each step runs.
//
// `swift run scorekeeper` writes a new database file in the temporary folder and removes it at
// the end; `swift run scorekeeper PATH` writes a new database file at PATH and keeps it. It
// never writes to or removes a file that it did not create.
//
// `swift run scorekeeper sync DATABASE SERVER TOKEN [ACTION...]` is the app on a device that
// syncs through `scorekeeper-server serve` (see SyncCommand.swift).
//
// `swift run scorekeeper verify-upgrades [ROWS]` checks its migrations instead: a database at
// each schema of the history, filled with generated rows, migrated as below, nothing lost.
import Foundation
import Strata

if CommandLine.arguments.dropFirst().first == "sync" {
  do {
    try await SyncCommand.run(Array(CommandLine.arguments.dropFirst(2)))
  } catch {
    FileHandle.standardError.write(Data("scorekeeper: \(error)\n".utf8))
    exit(1)
  }
  exit(0)
}

if CommandLine.arguments.dropFirst().first == "verify-upgrades" {
  let rows = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 1_000
  print(try await verifyUpgrades(UpgradeVerification(StrataMigrations.all, rowsPerTable: rows)))
  exit(0)
}

let givenPath = CommandLine.arguments.dropFirst().first
let path = givenPath
  ?? FileManager.default.temporaryDirectory.appendingPathComponent("scorekeeper-\(UUID().uuidString).sqlite").path
if FileManager.default.fileExists(atPath: path) {
  FileHandle.standardError.write(Data("scorekeeper: \(path) already exists; give the path of a new file\n".utf8))
  exit(1)
}
defer {
  if givenPath == nil {
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  }
}

var configuration = Configuration()
configuration.prepareDatabase { db in
  var previous = ""
  db.trace { event in
    let sql = event.expandedDescription
    // PRAGMAs and reads of sqlite_master are SQLite's and GRDB's own bookkeeping; and SQLite
    // reports a statement again when it runs a foreign key's cascade, so a repeat shows once.
    defer { previous = sql }
    if sql.hasPrefix("PRAGMA") || sql.contains("sqlite_master") || sql == previous { return }
    print("    SQL> \(sql)")
  }
}
let database = try openDatabase(.file(path), configuration: configuration)

step("Migrate \(path)")
// Runs the checked-in migrations it has not run yet, after checking that those it ran are unchanged.
try database.migrate(StrataMigrations.all)

step("Seed three games and three players")
let ginRummy = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
let poker = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
let mahjong = UUID(uuidString: "00000000-0000-0000-0000-000000000003")!
try database.write { db in
  try db.seed {
    Game.Draft(id: ginRummy, title: "Family gin rummy")
    Game.Draft(id: poker, title: "Weekly poker night")
    Game.Draft(id: mahjong, title: "Mahjong with grandma")
    Player.Draft(gameID: ginRummy, name: "Blob", score: 20)
    Player.Draft(gameID: ginRummy, name: "Blob Jr", score: 100)
    Player.Draft(gameID: ginRummy, name: "Blob Sr", score: 60)
  }
}

/// "1 player", "3 players".
func counted(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}

/// The games list: every game with its number of players, most players first.
func listGames() throws {
  let rows = try database.read { db in
    try Game
      .group(by: \.id)
      .leftJoin(Player.all) { $0.id.eq($1.gameID) }
      .order { ($1.count().desc(), $0.title) }
      .select { GameRow.Columns(game: $0, playerCount: $1.count()) }
      .fetchAll(db)
  }
  for row in rows {
    print("  \(row.game.title.padding(toLength: 24, withPad: " ", startingAt: 0)) \(counted(row.playerCount, "player"))")
  }
}

/// A game's players, sorted by score.
func listPlayers(of game: UUID, ascending: Bool) throws {
  let players = try database.read { db in
    try Player
      .where { $0.gameID.eq(game) }
      .order {
        if ascending {
          $0.score.asc()
        } else {
          $0.score.desc()
        }
      }
      .fetchAll(db)
  }
  for player in players {
    print("  \(player.name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(player.score)")
  }
}

step("Games with their player counts")
try listGames()

step("Add a player to the poker night")
let newPlayer = try database.write { db in
  try Player.insert { Player.Draft(gameID: poker, name: "Blobby") }.returning { $0.id }.fetchOne(db)
}
print("  new player id: \(newPlayer?.uuidString.lowercased() ?? "none")")

step("Change scores: Blob +1, Blob Jr -1, Blobby +5")
try database.write { db in
  let blob = try Player.where { $0.name.eq("Blob") }.select { $0.id }.fetchOne(db)
  let junior = try Player.where { $0.name.eq("Blob Jr") }.select { $0.id }.fetchOne(db)
  if let blob { try Player.find(blob).update { $0.score += 1 }.execute(db) }
  if let junior { try Player.find(junior).update { $0.score -= 1 }.execute(db) }
  if let newPlayer { try Player.find(newPlayer).update { $0.score += 5 }.execute(db) }
}

step("Players of the gin rummy game, highest score first")
try listPlayers(of: ginRummy, ascending: false)

step("The same players, lowest score first")
try listPlayers(of: ginRummy, ascending: true)

step("Games with their player counts")
try listGames()

step("Live: a scoreboard that another task's writes keep current")
DefaultDatabase.set(database)
let board = LiveScoreboard(game: ginRummy)
board.printChanges()
let grandma = try await Task.detached {
  try database.write { db in
    try Player.insert { Player.Draft(gameID: ginRummy, name: "Grandma", score: 80) }.returning(\.id).fetchOne(db)
  }
}.value
try await waitUntil { board.lastLine.hasSuffix("Grandma 80") }
try await Task.detached {
  try database.write { db in if let grandma { try Player.find(grandma).update { $0.score += 50 }.execute(db) } }
}.value
try await waitUntil { board.lastLine.hasSuffix("Grandma 130") }
step("Live: sort the scoreboard by score (load replaces the query)")
try await board.sortByScore()
try await waitUntil { board.lastLine.hasSuffix("Blob 21") }

step("Delete the gin rummy game; its players go with it")
try database.write { db in
  try Game.find(ginRummy).delete().execute(db)
}
// The trace shows the DELETE twice: SQLite reports a statement again when it runs the
// statement's ON DELETE CASCADE on players, and GRDB passes on both reports.
let remaining = try database.read { db in (try Game.fetchCount(db), try Player.fetchCount(db)) }
print("  \(counted(remaining.0, "game")) and \(counted(remaining.1, "player")) left")
try listGames()

func step(_ title: String) {
  print("\n== \(title)")
}

/// Waits for the live scoreboard to print a change, giving up after five seconds.
@MainActor func waitUntil(_ condition: () -> Bool) async throws {
  for _ in 0..<1000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
  guard condition() else { throw StrataError("the live scoreboard did not update") }
}

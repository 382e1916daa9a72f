// Scorekeeper on PostgreSQL: the example app as a server would run it, through a pool of
// connections, printing the SQL each step sends.
//
// `swift run scorekeeper-server postgres://user@host:5432/postgres` (or with STRATA_POSTGRES_URL
// set) creates a new database on that server, `scorekeeper_…`, works in it, and drops it at the
// end; it never touches the database the URL names. With `--keep`, it keeps the new database.
// `swift run scorekeeper-server verify-upgrades URL` checks its migrations' upgrades instead.
// `swift run --traits SyncServer scorekeeper-server serve URL …` is the app's sync server
// (see SyncService.swift).
import Foundation
import StrataPostgreSQL

if CommandLine.arguments.dropFirst().first == "serve" {
  do {
    try await SyncService.run(Array(CommandLine.arguments.dropFirst(2)))
  } catch {
    FileHandle.standardError.write(Data("scorekeeper-server: \(error)\n".utf8))
    exit(1)
  }
  exit(0)
}

var arguments = CommandLine.arguments.dropFirst()
let keep = arguments.contains("--keep")
// `verify-upgrades URL`: the upgrade check of the migrations, in a scratch schema of the database
// the URL names (see Testing Upgrades in the documentation).
let verifying = arguments.first == "verify-upgrades"
if verifying { arguments = arguments.dropFirst() }
guard let serverURL = arguments.first(where: { $0 != "--keep" }) ?? ProcessInfo.processInfo.environment["STRATA_POSTGRES_URL"] else {
  FileHandle.standardError.write(Data("usage: scorekeeper-server [--keep] postgres://user@host:port/database\n".utf8))
  exit(2)
}

let name = "scorekeeper_\(UUID().uuidString.prefix(8).lowercased())"
guard var components = URLComponents(string: serverURL) else {
  FileHandle.standardError.write(Data("scorekeeper-server: not a URL: \(serverURL)\n".utf8))
  exit(2)
}
components.path = "/" + name
let databaseURL = components.string ?? serverURL

/// Runs a statement on the server's own database: creating and dropping the example's.
func onServer(_ statement: SQLQuery<()>) async throws {
  try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: serverURL)) { server in
    try await server.withConnection { db in try await statement.execute(db) }
  }
}

if verifying {
  try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: serverURL)) { database in
    print(try await database.verifyUpgrades(UpgradeVerification(StrataMigrations.all, rowsPerTable: 1_000)))
  }
  exit(0)
}

try await onServer(sql("CREATE DATABASE \(quote: name)"))
do {
  try await play(on: databaseURL)
} catch {
  if !keep { try? await onServer(sql("DROP DATABASE IF EXISTS \(quote: name) WITH (FORCE)")) }
  throw error
}
if keep {
  print("\nkept the database \(name): \(databaseURL)")
} else {
  try await onServer(sql("DROP DATABASE IF EXISTS \(quote: name) WITH (FORCE)"))
}

func play(on databaseURL: String) async throws {
try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: databaseURL)) { database in
  step("Migrate \(name)")
  // Each migration once, under a lock that other instances starting at the same moment wait for.
  let migrated = try await database.migrate(StrataMigrations.all)
  print("  applied: \(migrated.applied.joined(separator: ", "))")

  step("Seed three games and three players")
  let ginRummy = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
  let poker = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
  let mahjong = UUID(uuidString: "00000000-0000-0000-0000-000000000003")!
  try await database.write { db in
    try await show(Seeds.build {
      Game.Draft(id: ginRummy, title: "Family gin rummy")
      Game.Draft(id: poker, title: "Weekly poker night")
      Game.Draft(id: mahjong, title: "Mahjong with grandma")
      Player.Draft(gameID: ginRummy, name: "Blob", score: 20)
      Player.Draft(gameID: ginRummy, name: "Blob Jr", score: 100)
      Player.Draft(gameID: ginRummy, name: "Blob Sr", score: 60)
    }).execute(db)
  }

  /// The games list: every game with its number of players, most players first.
  func listGames() async throws {
    let rows = try await database.read { db in
      try await show(
        Game
          .group(by: \.id)
          .leftJoin(Player.all) { $0.id.eq($1.gameID) }
          .order { ($1.count().desc(), $0.title) }
          .select { GameRow.Columns(game: $0, playerCount: $1.count()) }
      ).fetchAll(db)
    }
    for row in rows {
      print("  \(row.game.title.padding(toLength: 24, withPad: " ", startingAt: 0)) \(row.playerCount) players")
    }
  }

  /// A game's players, sorted by score.
  func listPlayers(of game: UUID, ascending: Bool) async throws {
    let players = try await database.read { db in
      try await show(Player.where { $0.gameID.eq(game) }.order { ascending ? $0.score.asc() : $0.score.desc() }).fetchAll(db)
    }
    for player in players {
      print("  \(player.name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(player.score)")
    }
  }

  step("Games with their player counts")
  try await listGames()

  step("Add a player to the poker night (the database assigns the id)")
  let newPlayer = try await database.write { db in
    try await show(Player.insert { Player.Draft(gameID: poker, name: "Blobby") }.returning(\.id)).fetchOne(db)
  }
  print("  new player id: \(newPlayer?.uuidString.lowercased() ?? "none")")

  step("Change scores: Blob +1, Blob Jr -1, Blobby +5")
  try await database.write { db in
    let blob = try await show(Player.where { $0.name.eq("Blob") }.select(\.id)).fetchOne(db)
    let junior = try await Player.where { $0.name.eq("Blob Jr") }.select(\.id).fetchOne(db)
    if let blob { try await show(Player.find(blob).update { $0.score += 1 }).execute(db) }
    if let junior { try await Player.find(junior).update { $0.score -= 1 }.execute(db) }
    if let newPlayer { try await Player.find(newPlayer).update { $0.score += 5 }.execute(db) }
  }

  step("Players of the gin rummy game, highest score first")
  try await listPlayers(of: ginRummy, ascending: false)

  step("The same players, lowest score first")
  try await listPlayers(of: ginRummy, ascending: true)

  step("Eight requests at once each read Blob Sr's score and write it back plus one")
  // Each in a SERIALIZABLE transaction; the ones PostgreSQL cannot serialize run again.
  try await withThrowingTaskGroup(of: Void.self) { group in
    for _ in 0..<8 {
      group.addTask {
        try await database.write { db in
          let score = try await Player.where { $0.name.eq("Blob Sr") }.select(\.score).fetchOne(db) ?? 0
          try await Player.where { $0.name.eq("Blob Sr") }.update { $0.score = score + 1 }.execute(db)
        }
      }
    }
    try await group.waitForAll()
  }
  let senior = try await database.read { db in try await Player.where { $0.name.eq("Blob Sr") }.select(\.score).fetchOne(db) }
  print("  Blob Sr: \(senior ?? 0) (60 + 8: no update lost)")

  step("Delete the gin rummy game; its players go with it")
  try await database.write { db in try await show(Game.find(ginRummy).delete()).execute(db) }
  let remaining = try await database.read { db in (try await Game.fetchCount(db), try await Player.fetchCount(db)) }
  print("  \(remaining.0) games and \(remaining.1) players left")
  try await listGames()
}
}

func step(_ title: String) {
  print("\n== \(title)")
}

/// Prints the statement as PostgreSQL receives it, with its values, and returns it.
func show<Statement: QueryStatement>(_ statement: Statement) throws -> Statement {
  for (sql, bindings) in try statement.statements(for: .postgreSQL) {
    print("    SQL> \(sql)" + (bindings.isEmpty ? "" : "  -- \(bindings.map(\.description).joined(separator: ", "))"))
  }
  return statement
}

extension Seeds {
  /// The rows the closure lists, as one statement to show and run.
  static func build(@SeedsBuilder _ rows: () -> Seeds) -> Seeds { rows() }
}

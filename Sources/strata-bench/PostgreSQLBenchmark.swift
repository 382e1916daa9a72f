import Foundation
import StrataPostgreSQL

/// Strata on PostgreSQL beside postgres-nio's own API, in the same run on the same server, over
/// one connection: inserting drafts, decoding rows, a primary-key lookup and an update of one
/// row per statement. postgres-nio's side sends the same SQL and decodes with its tuple decoding
/// (`row.decode((UUID, UUID, String, Int).self)`): the floor Strata's binding and generated
/// decoding add to.
///
/// `strata-bench --only postgres --postgres URL` creates a database of its own on that server
/// and drops it at the end.
enum PostgreSQLBenchmark {
  static let schema = [
    #"CREATE TABLE "games" ("id" uuid PRIMARY KEY DEFAULT (gen_random_uuid()), "title" text NOT NULL DEFAULT '')"#,
    #"CREATE TABLE "players" ("id" uuid PRIMARY KEY DEFAULT (gen_random_uuid()), "gameID" uuid NOT NULL REFERENCES "games"("id") ON DELETE CASCADE, "name" text NOT NULL DEFAULT '', "score" bigint NOT NULL DEFAULT 0)"#,
    #"CREATE INDEX "index_players_on_gameID" ON "players" ("gameID")"#,
  ]

  static func run(url: String, rows: Int, statements: Int, runs: Int) async throws {
    let name = "strata_bench_\(ProcessInfo.processInfo.processIdentifier)"
    guard var components = URLComponents(string: url) else { fatalError("not a URL: \(url)") }
    components.path = "/" + name
    let server = try PostgresClient.Configuration(url: url)
    try await PostgreSQLDatabase.withDatabase(server) { database in
      try await database.withConnection { db in
        try await sql("DROP DATABASE IF EXISTS \(quote: name)").execute(db)
        try await sql("CREATE DATABASE \(quote: name)").execute(db)
      }
    }
    do {
      var named = PostgreSQLDatabase.Configuration()
      named.namedStatements = true
      try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: components.string ?? url), configuration: named) { database in
        try await database.withConnection { db in
          for statement in schema { try await sql(SQLQuery(raw: statement)).execute(db) }
          try await measure(db, rows: rows, statements: statements, runs: runs)
        }
      }
    } catch {
      try? await drop(name, server)
      throw error
    }
    try await drop(name, server)
  }

  private static func drop(_ name: String, _ server: PostgresClient.Configuration) async throws {
    try await PostgreSQLDatabase.withDatabase(server) { database in
      try await database.withConnection { db in try await sql("DROP DATABASE IF EXISTS \(quote: name) WITH (FORCE)").execute(db) }
    }
  }

  /// An app's or an actor's call: the rows are received off the actor, not one hop per row.
  @MainActor private static func fetchOnTheMainActor(_ db: PostgreSQLConnection) async throws -> Int {
    try await Player.all.fetchAll(db).reduce(0) { $0 + $1.score }
  }

  private static func measure(_ db: PostgreSQLConnection, rows: Int, statements: Int, runs: Int) async throws {
    let connection = db.connection
    let logger = db.logger
    let gameIDs = (0..<100).map { _ in UUID() }
    try await Game.insert { gameIDs.map { Game(id: $0, title: "Game \($0)") } }.execute(db)
    let players = (0..<rows).map { index in
      Player(id: UUID(), gameID: gameIDs[index % gameIDs.count], name: "Player \(index)", score: index % 1000)
    }
    let expectedScore = players.reduce(0) { $0 + $1.score }
    print("PostgreSQL: \(rows) rows, \(statements) statements, \(runs) runs (median, best), one connection")
    print()

    // Insert: many rows per statement, as many as PostgreSQL's 65,535 parameters allow.
    let insert = Comparison(title: "insert \(rows) players (rows of 4 values, \(65_535 / 4) per statement)")
    func timedInsert(_ body: () async throws -> Void) async throws -> Duration {
      try await sql("TRUNCATE \(quote: "players")").execute(db)
      let duration = try await timed { try await body() }
      let count = try await Player.fetchCount(db)
      guard count == rows else { fatalError("the insert left \(count) rows") }
      return duration
    }
    await insert.measureAsync("postgres-nio, the same statements (floor)", runs: runs) {
      try await timedInsert {
        let perStatement = 65_535 / 4
        for start in stride(from: 0, to: players.count, by: perStatement) {
          let batch = players[start..<min(start + perStatement, players.count)]
          var bindings = PostgresBindings(capacity: batch.count * 4)
          var sql = #"INSERT INTO "players" ("id", "gameID", "name", "score") VALUES "#
          for (offset, player) in batch.enumerated() {
            let first = offset * 4
            sql += (offset == 0 ? "" : ", ") + "($\(first + 1), $\(first + 2), $\(first + 3), $\(first + 4))"
            bindings.append(player.id)
            bindings.append(player.gameID)
            bindings.append(player.name)
            bindings.append(player.score)
          }
          try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
        }
      }
    }
    await insert.measureAsync("Strata", runs: runs) {
      try await timedInsert { try await Player.insert { players }.execute(db) }
    }
    insert.report(baseline: "postgres-nio, the same statements (floor)", also: nil)

    // Decode every row.
    let fetch = Comparison(title: "fetchAll of \(rows) players")
    await fetch.measureAsync("postgres-nio tuple decoding (floor)", runs: runs) {
      var total = 0
      let duration = try await timed {
        let result = try await connection.query(#"SELECT "id", "gameID", "name", "score" FROM "players""#, logger: logger)
        var decoded: [Player] = []
        for try await (id, gameID, name, score) in result.decode((UUID, UUID, String, Int).self) {
          decoded.append(Player(id: id, gameID: gameID, name: name, score: score))
        }
        total = decoded.reduce(0) { $0 + $1.score }
      }
      guard total == expectedScore else { fatalError("postgres-nio read a wrong total: \(total)") }
      return duration
    }
    await fetch.measureAsync("Strata", runs: runs) {
      var total = 0
      let duration = try await timed { total = try await Player.all.fetchAll(db).reduce(0) { $0 + $1.score } }
      guard total == expectedScore else { fatalError("Strata read a wrong total: \(total)") }
      return duration
    }
    await fetch.measureAsync("Strata, called on the main actor", runs: runs) {
      var total = 0
      let duration = try await timed { total = try await fetchOnTheMainActor(db) }
      guard total == expectedScore else { fatalError("Strata read a wrong total: \(total)") }
      return duration
    }
    fetch.report(baseline: "postgres-nio tuple decoding (floor)", also: nil)

    // One statement per row: a lookup by primary key, an update of one row; Strata's statements
    // named (prepared once on the connection) and unnamed (parsed on every run, as the floor's).
    let unnamed = PostgreSQLConnection(connection, logger: logger, namedStatements: false)
    let keys = (0..<statements).map { players[($0 * 7_919) % players.count].id }
    let lookup = Comparison(title: "\(statements) primary-key lookups", unit: .microsecondsPer(statements))
    await lookup.measureAsync("postgres-nio (floor)", runs: runs) {
      try await timed {
        for key in keys {
          let result = try await connection.query(
            #"SELECT "id", "gameID", "name", "score" FROM "players" WHERE "id" = \#(key)"#, logger: logger)
          for try await (id, gameID, name, score) in result.decode((UUID, UUID, String, Int).self) {
            guard id == key else { fatalError("postgres-nio found another row") }
            _ = Player(id: id, gameID: gameID, name: name, score: score)
          }
        }
      }
    }
    await lookup.measureAsync("postgres-nio PostgresPreparedStatement", runs: runs) {
      try await timed {
        for key in keys {
          for try await row in try await connection.execute(PreparedLookup(key: key), logger: logger) {
            guard row.id == key else { fatalError("postgres-nio found another row") }
          }
        }
      }
    }
    for (name, db) in [("Strata", db), ("Strata, statements unnamed", unnamed)] {
      await lookup.measureAsync(name, runs: runs) {
        try await timed {
          for key in keys {
            guard try await Player.find(key).fetchOne(db)?.id == key else { fatalError("Strata found another row") }
          }
        }
      }
    }
    lookup.report(baseline: "postgres-nio (floor)", also: nil)

    let update = Comparison(title: "\(statements) updates of one row", unit: .microsecondsPer(statements))
    await update.measureAsync("postgres-nio (floor)", runs: runs) {
      try await timed {
        for key in keys {
          try await connection.query(#"UPDATE "players" SET "score" = "players"."score" + \#(1) WHERE "players"."id" = \#(key)"#, logger: logger)
        }
      }
    }
    for (name, db) in [("Strata", db), ("Strata, statements unnamed", unnamed)] {
      await update.measureAsync(name, runs: runs) {
        try await timed {
          for key in keys { try await Player.find(key).update { $0.score += 1 }.execute(db) }
        }
      }
    }
    update.report(baseline: "postgres-nio (floor)", also: nil)
  }
}

/// The floor's lookup as postgres-nio's own prepared statement, parsed once on the connection.
private struct PreparedLookup: PostgresPreparedStatement {
  static let sql = #"SELECT "id", "gameID", "name", "score" FROM "players" WHERE "id" = $1"#
  typealias Row = Player

  let key: UUID

  func makeBindings() -> PostgresBindings {
    var bindings = PostgresBindings()
    bindings.append(key)
    return bindings
  }

  func decodeRow(_ row: PostgresRow) throws -> Player {
    let (id, gameID, name, score) = try row.decode((UUID, UUID, String, Int).self)
    return Player(id: id, gameID: gameID, name: name, score: score)
  }
}

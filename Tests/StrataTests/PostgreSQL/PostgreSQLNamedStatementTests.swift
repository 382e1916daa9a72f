import Foundation
import Strata
@testable import StrataPostgreSQL
import Testing

/// The builder's statements run as named prepared statements, parsed once per connection: which
/// ones are kept (the server's own list says), that a migration changing what a kept statement
/// returns or creating the table a statement failed on does not leave it failing, and that a
/// name stands for the SQL and the types of its values.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PostgreSQL: set STRATA_POSTGRES_URL or install its binaries"))
struct PostgreSQLNamedStatementTests {
  /// A database of the test models' tables (rows of `scorekeeperRows()` when `seeded`, nothing at
  /// all when `empty`) on a pool of one connection, so that every closure runs on the connection
  /// that prepared the statements before it.
  func withOneConnection(
    empty: Bool = false, named: Bool = true, isolation: isolated (any Actor)? = #isolation,
    _ body: (PostgreSQLDatabase) async throws -> Void
  ) async throws {
    let name = try await PostgreSQLTestServer.shared.newDatabase(empty: empty)
    defer { Task { await PostgreSQLTestServer.shared.drop(name) } }
    var client = try PostgresClient.Configuration(url: try PostgreSQLTestServer.shared.url(of: name))
    client.options.maximumConnections = 1
    var configuration = PostgreSQLTestServer.patient
    configuration.namedStatements = named
    try await PostgreSQLDatabase.withDatabase(client, configuration: configuration) { database in
      if !empty {
        try await database.write { db in try await db.seed(scorekeeperRows) }
      }
      try await body(database)
    }
  }

  /// The connection's prepared statements, as the server lists them.
  func prepared(_ db: PostgreSQLConnection) async throws -> [String] {
    try await sql("SELECT statement FROM pg_prepared_statements ORDER BY statement", as: String.self).fetchAll(db)
  }

  @Test func theBuildersStatementsArePreparedOnceAndHandWrittenOnesAreNot() async throws {
    try await withOneConnection { database in
      let names = try await database.read { db in
        var names: [String?] = []
        for id in [UUID(11), UUID(12), UUID(11)] {
          names.append(try await Player.find(id).fetchOne(db)?.name)
        }
        return names
      }
      #expect(names == ["Blob", "Blob Jr", "Blob"])
      try await database.write { db in
        try await Player.find(UUID(11)).update { $0.score += 1 }.execute(db)
        try await Player.find(UUID(11)).update { $0.score += 1 }.execute(db)
        try await Game.insert { Game.Draft(id: UUID(4), title: "Chess") }.execute(db)
        try await Game.insert { Game.Draft(id: UUID(5), title: "Go") }.execute(db)
        try await Game.insert { [Game.Draft(id: UUID(6), title: "Shogi"), Game.Draft(id: UUID(7), title: "Xiangqi")] }.execute(db)
      }
      try await database.withConnection { db throws in
        #expect(try await Player.find(UUID(11)).select(\.score).fetchOne(db) == 22)
        // Each statement above, once; not the many-row inserts (the seeds' too), nor the query
        // below. (The database's own names: other tests' statements, and the names they give up
        // when a statement fails to prepare there, change nothing here.)
        let statements = try await prepared(db)
        #expect(statements.sorted() == [
          #"INSERT INTO "games" ("id", "title") VALUES ($1, $2)"#,
          #"SELECT "players"."id", "players"."gameID", "players"."name", "players"."score" FROM "players" WHERE "players"."id" = $1"#,
          #"SELECT "players"."score" FROM "players" WHERE "players"."id" = $1"#,
          #"UPDATE "players" SET "score" = "players"."score" + $1 WHERE "players"."id" = $2"#,
        ])
        // Prepared once, run again: the lookup by key ran three times, the update twice.
        let runs = try await sql(
          "SELECT max(generic_plans + custom_plans) FROM pg_prepared_statements WHERE statement LIKE 'UPDATE %'", as: Int.self
        ).fetchOne(db)
        #expect(runs == 2)
      }
    }
  }

  @Test func aPreparedStatementsRunsShareOneNamedStatement() async throws {
    try await withOneConnection { database in
      let playerName = try PreparedStatement(UUID.self) { id in Player.find(id).select(\.name) }
      let addPoints = try PreparedStatement(UUID.self, Int.self) { id, points in Player.find(id).update { $0.score += points } }
      try await database.write { db in
        try await addPoints(UUID(11), 5).execute(db)
        try await addPoints(UUID(12), 7).execute(db)
        try await addPoints(UUID(11), 1).execute(db)
      }
      try await database.withConnection { db throws in
        #expect(try await playerName(UUID(11)).fetchOne(db) == "Blob")
        #expect(try await playerName(UUID(12)).fetchOne(db) == "Blob Jr")
        #expect(try await Player.find(UUID(11)).select(\.score).fetchOne(db) == 26)
        let statements = try await sql(
          "SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements ORDER BY 1", as: (String, Int).self
        ).fetchAll(db)
        #expect(statements.map { "\($0.0) \($0.1)" } == [
          #"SELECT "players"."name" FROM "players" WHERE "players"."id" = $1 2"#,
          #"SELECT "players"."score" FROM "players" WHERE "players"."id" = $1 1"#,
          #"UPDATE "players" SET "score" = "players"."score" + $1 WHERE "players"."id" = $2 3"#,
        ])
      }
    }
  }

  /// Whether the code runs on the main queue, the main actor's executor: asked of the queue, since
  /// the test runner's main actor may run on any thread, and the runtime's own checks crash.
  func onTheMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: Self.mainQueue) == true
  }
  static let mainQueue = DispatchSpecificKey<Bool>()

  /// A statement awaited on an actor returns to it, whether it ran named, unnamed, or named
  /// again after its plan went stale.
  @MainActor @Test func aStatementAwaitedOnTheMainActorReturnsToIt() async throws {
    DispatchQueue.main.setSpecific(key: Self.mainQueue, value: true)
    try await withOneConnection { database in
      #expect(onTheMainQueue())
      try await database.withConnection { db throws in
        #expect(onTheMainQueue())
        #expect(try await Player.find(UUID(12)).fetchOne(db)?.score == 100)
        #expect(onTheMainQueue())
        #expect(try await sql("SELECT 1", as: Int.self).fetchOne(db) == 1)
        #expect(onTheMainQueue())
        try await sql(#"ALTER TABLE "players" ALTER COLUMN "score" TYPE integer"#).execute(db)
        #expect(try await Player.find(UUID(12)).fetchOne(db)?.score == 100)
        #expect(onTheMainQueue())
      }
      let names = try await database.read { db in try await Player.order(by: \.name).select(\.name).fetchAll(db) }
      #expect(onTheMainQueue())
      #expect(names == ["Blob", "Blob Jr", "Blob Sr"])
    }
  }

  @Test func withNamedStatementsOffNothingIsPrepared() async throws {
    try await withOneConnection(named: false) { database in
      try await database.withConnection { db throws in
        #expect(try await Player.find(UUID(12)).fetchOne(db)?.score == 100)
        let statements = try await prepared(db)
        #expect(statements == [])
      }
    }
  }

  /// A migration on another server changes the type of a column the kept statement returns:
  /// PostgreSQL refuses to run the old plan ("cached plan must not change result type"); the
  /// statement runs again under a new name, in a transaction (which runs again, even a read's
  /// with no retries) and alone.
  @Test func aStatementPreparedBeforeAMigrationChangedItsRowsRunsAfterIt() async throws {
    try await withOneConnection { database in
      let find = Player.find(UUID(12))
      #expect(try await database.read { db in try await find.fetchOne(db)?.score } == 100)
      try await database.withConnection { db throws in
        try await sql(#"ALTER TABLE "players" ALTER COLUMN "score" TYPE integer"#).execute(db)
      }
      #expect(try await database.read { db in try await find.fetchOne(db)?.score } == 100)

      try await database.withConnection { db throws in
        try await sql(#"ALTER TABLE "players" ALTER COLUMN "score" TYPE bigint"#).execute(db)
      }
      #expect(try await database.withConnection { db in try await find.fetchOne(db)?.score } == 100)

      try await database.withConnection { db throws in
        try await sql(#"ALTER TABLE "players" ALTER COLUMN "name" TYPE varchar(200)"#).execute(db)
      }
      try await database.write(retries: 0) { db throws in
        try await Player.find(UUID(12)).update { $0.score += 1 }.execute(db)
        #expect(try await find.fetchOne(db)?.name == "Blob Jr")
      }
      #expect(try await database.read { db in try await find.fetchOne(db)?.score } == 101)
    }
  }

  /// postgres-nio keeps a failed preparation for the name on the connection; the name is given
  /// up, so once a migration creates the table the same statement runs.
  @Test func aStatementThatFailedBeforeItsTableExistedRunsOnceItDoes() async throws {
    try await withOneConnection(empty: true) { database in
      await #expect {
        try await database.read { db in try await Player.find(UUID(11)).fetchOne(db) }
      } throws: { error in
        (error as? PostgreSQLError)?.sqlState == "42P01"
      }
      await #expect {
        try await database.withConnection { db in try await Player.find(UUID(11)).fetchOne(db) }
      } throws: { error in
        (error as? PostgreSQLError)?.sqlState == "42P01"
      }
      try await database.withConnection { db throws in
        try await sql(
          #"CREATE TABLE "players" ("id" uuid PRIMARY KEY, "gameID" uuid NOT NULL, "name" text NOT NULL, "score" bigint NOT NULL)"#
        ).execute(db)
        try await sql(#"INSERT INTO "players" VALUES (\#(UUID(11)), \#(UUID(1)), 'Blob', 20)"#).execute(db)
      }
      #expect(try await database.read { db in try await Player.find(UUID(11)).fetchOne(db)?.name } == "Blob")
    }
  }

  /// A statement first sent in a transaction that an error had aborted cannot be prepared
  /// (`25P02`), and postgres-nio would keep that failure for the name on the connection: in
  /// `write` such a statement runs unnamed, and in a transaction begun by hand the name is given
  /// up; either way the statement runs in the next transaction on that connection.
  @Test func aStatementFirstSentInAnAbortedTransactionRunsInTheNext() async throws {
    try await withOneConnection { database throws in
      await #expect {
        try await database.write(retries: 0) { db throws in
          // The error this catches aborts the transaction; the next statement is refused.
          _ = try? await sql(#"SELECT * FROM "missing""#).execute(db)
          _ = try await Player.find(UUID(12)).fetchOne(db)
        }
      } throws: { error in
        (error as? PostgreSQLError)?.sqlState == "25P02"
      }
      #expect(try await database.read { db in try await Player.find(UUID(12)).fetchOne(db)?.name } == "Blob Jr")

      try await database.withConnection { db throws in
        try await sql("BEGIN").execute(db)
        _ = try? await sql(#"SELECT * FROM "missing""#).execute(db)
        await #expect {
          try await Player.find(UUID(13)).select(\.name).fetchOne(db)
        } throws: { error in
          (error as? PostgreSQLError)?.sqlState == "25P02"
        }
        try await sql("ROLLBACK").execute(db)
        #expect(try await Player.find(UUID(13)).select(\.name).fetchOne(db) == "Blob Sr")
      }
    }
  }

  /// A statement that fails for its values (here a key that is taken, `23505`) was prepared
  /// before it ran: it keeps its name, and runs again without being prepared again.
  @Test func aStatementRefusedForItsValuesKeepsItsName() async throws {
    try await withOneConnection { database throws in
      try await database.withConnection { db throws in
        for _ in 0..<2 {
          await #expect {
            try await Game.insert { Game.Draft(id: UUID(1), title: "Again") }.execute(db)
          } throws: { error in
            (error as? PostgreSQLError)?.sqlState == "23505"
          }
        }
        try await Game.insert { Game.Draft(id: UUID(9), title: "Backgammon") }.execute(db)
        let runs = try await sql(
          "SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements ORDER BY 1", as: (String, Int).self
        ).fetchAll(db)
        #expect(runs.map { "\($0.0) runs: \($0.1)" } == [#"INSERT INTO "games" ("id", "title") VALUES ($1, $2) runs: 3"#])
      }
    }
  }

  /// A named statement is prepared with its values' types, as an unnamed one is sent (postgres-nio
  /// takes them from the first run's values), so a statement whose text alone does not give a
  /// parameter a type (`SELECT $1`, which the server cannot prepare untyped) runs named, once per
  /// type.
  @Test func aNamedStatementIsPreparedWithItsValuesTypes() async throws {
    try await withOneConnection { database in
      try await database.withConnection { db throws in
        #expect(try await Values(42).fetchOne(db) == 42)
        #expect(try await Values(1.5).fetchOne(db) == 1.5)
        #expect(try await Player.where { $0.score > 50 }.order(by: \.score).select(\.name).fetchAll(db) == ["Blob Sr", "Blob Jr"])
        let types = try await sql(
          "SELECT statement, parameter_types::text FROM pg_prepared_statements ORDER BY 1, 2", as: (String, String).self
        ).fetchAll(db)
        #expect(types.map { "\($0.0) \($0.1)" } == [
          #"SELECT "players"."name" FROM "players" WHERE "players"."score" > $1 ORDER BY "players"."score" {bigint}"#,
          "SELECT $1 {\"double precision\"}",
          "SELECT $1 {bigint}",
        ])
      }
    }
  }

  /// The server fixes a parameter's type when it prepares a statement: the same text with a value
  /// of another type (or a NULL, whose type the server infers) is another statement.
  @Test func aNameStandsForTheSQLAndTheTypesOfItsValues() throws {
    let names = NamedStatements(limit: 3)
    let sql = "SELECT $1 AS \"\(UUID())\""
    let integer = try #require(names.name(for: sql, [.integer(1)]))
    #expect(names.name(for: sql, [.integer(2)])?.number == integer.number)
    let real = try #require(names.name(for: sql, [.real(1)])?.number)
    let null = try #require(names.name(for: sql, [.null])?.number)
    #expect(Set([integer.number, real, null]).count == 3)
    #expect(NamedStatements.sql(of: real) == sql)
    // The limit: later statements run unnamed.
    #expect(names.name(for: sql, [.text("a")]) == nil)
    // A retired name is not used again, and its statement gets no other past the limit.
    names.retire(integer)
    #expect(names.name(for: sql, [.integer(1)]) == nil)
    #expect(NamedStatements(limit: 10).name(for: "SELECT " + String(repeating: "1 + ", count: 2_000) + "1", []) == nil)
  }

  /// Each database has its own limit, over the process's names: a statement has one name in
  /// every database, and a name one database retires (its statement failed to prepare there)
  /// stays in use in the others.
  @Test func eachDatabaseHasItsOwnLimitOverTheProcesssNames() throws {
    let first = NamedStatements(limit: 2), second = NamedStatements(limit: 2)
    let lookup = "SELECT \"\(UUID())\"", update = "UPDATE \"\(UUID())\" SET \"a\" = 1"
    let name = try #require(first.name(for: lookup, []))
    #expect(second.name(for: lookup, [])?.number == name.number)
    #expect(first.name(for: update, []) != nil)
    #expect(first.name(for: "SELECT 3", []) == nil)
    // The first database's limit is reached, not the second's.
    #expect(second.name(for: "SELECT 3", []) != nil)
    // Retired in the second database, renamed there and in a database that meets it next; the
    // first keeps its name.
    let third = NamedStatements(limit: 2)
    second.retire(name)
    #expect(second.name(for: lookup, []) == nil)
    let renamed = try #require(third.name(for: lookup, [])?.number)
    #expect(renamed != name.number)
    #expect(first.name(for: lookup, [])?.number == name.number)
    #expect(NamedStatements.sql(of: renamed) == lookup)
  }

  /// The number a name's type spells, which is how postgres-nio learns the name.
  @Test(arguments: [1, 2, 3, 6, 7, 8, 255, 256, 999, 1_000])
  func aNamesTypeSpellsItsNumber(number: Int) {
    #expect(slotType(number).number == number)
    #expect(ObjectIdentifier(slotType(number)) == ObjectIdentifier(slotType(number)))
  }
}

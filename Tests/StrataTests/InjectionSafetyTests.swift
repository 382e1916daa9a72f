import Foundation
import Strata
import StrataPostgreSQL
import Testing

/// Every value is a bound parameter and every identifier is quoted: strings that look like SQL
/// stay data.
@Suite struct InjectionSafetyTests {
  static let hostileStrings = [
    "Robert'); DROP TABLE players;--",
    "' OR '1'='1",
    "\"; DELETE FROM games; --",
    "?", "??", "'?'", "%", "_", "\\", "\u{0}",
    "1; SELECT * FROM sqlite_master",
  ]

  @Test(arguments: TestDialect.all, hostileStrings)
  func hostileValuesAreStoredAndMatchedLiterally(_ dialect: TestDialect, _ name: String) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      let insert = Player.insert { Player.Draft(gameID: UUID(2), name: name, score: 7) }
      #expect(insert.queryFragment.sql.hasSuffix("VALUES (?, ?, ?, ?)"))
      if dialect == .postgreSQL, name.contains("\u{0}") {
        // PostgreSQL's text cannot hold a NUL character: the server refuses the value.
        await #expect(throws: PostgreSQLError.self) { try await insert.execute(db) }
        return
      }
      try await insert.execute(db)
      let found = try await Player.where { $0.name.eq(name) }.select { $0.name }.fetchAll(db)
      #expect(found == [name])
      #expect(try await Game.fetchCount(db) == 3)
      #expect(try await Player.fetchCount(db) == 4)
    }
  }

  @Test(arguments: TestDialect.all, hostileStrings)
  func hostileValuesInPatternsAndRawSQLAreBound(_ dialect: TestDialect, _ text: String) async throws {
    guard !(dialect == .postgreSQL && text.contains("\u{0}")) else { return }
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      #expect(try await Player.where { $0.name.contains(text) }.fetchCount(db) == 0)
      #expect(try await Player.where { $0.name.hasPrefix(text) }.fetchCount(db) == 0)
      #expect(try await sql("SELECT count(*) FROM players WHERE name = \(text)", as: Int.self).fetchOne(db) == 0)
    }
  }

  @Test(arguments: TestDialect.all) func sqlLookingValueInWhereMatchesNothing(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      let query = Player.where { $0.name.eq("x' OR 1=1 --") }
      #expect(query.queryFragment.sql.hasSuffix(#"WHERE "players"."name" = ?"#))
      #expect(try await query.fetchAll(db).isEmpty)
    }
  }

  @Test(arguments: TestDialect.all) func identifiersWithQuotesAreEscaped(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      // The table is the model's, made by the migration (SQLite) or the schema (PostgreSQL) the
      // generator wrote for these names.
      let insert = OddName.insert { OddName(id: 1, value: "a\"b'c") }
      #expect(
        insert.queryFragment.sql
          == #"INSERT INTO "odd ""names"" table" ("the ""id""", "it's value") VALUES (?, ?)"#)
      try await insert.execute(db)
      try await OddName.find(1).update { $0.value += "!" }.execute(db)
      let query = OddName.where { $0.value.like("a%") }
      let table = #""odd ""names"" table""#
      #expect(
        query.queryFragment.sql
          == "SELECT \(table).\(#""the ""id""""#), \(table).\(#""it's value""#) FROM \(table) "
          + "WHERE \(table).\(#""it's value""#) LIKE ?")
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.value) == ["a\"b'c!"])
      try await OddName.find(1).delete().execute(db)
      #expect(try await OddName.fetchCount(db) == 0)
    }
  }

  @Test(arguments: TestDialect.all) func rawInterpolationIsTheOnlyWayToInsertText(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      let column = "name"
      let bound = sql("SELECT \(column) FROM players", as: String.self)
      #expect(bound.queryFragment.sql == "SELECT ? FROM players")
      let quoted = sql("SELECT \(quote: column) FROM players", as: String.self)
      #expect(quoted.queryFragment.sql == #"SELECT "name" FROM players"#)
      let raw = sql("SELECT \(raw: column) FROM players ORDER BY 1", as: String.self)
      #expect(raw.queryFragment.sql == "SELECT name FROM players ORDER BY 1")
      #expect(try await bound.fetchAll(db) == ["name", "name", "name"])
      #expect(try await raw.fetchAll(db) == ["Blob", "Blob Jr", "Blob Sr"])
    }
  }
}

import Foundation
import Strata
import Testing

/// Every value is a bound parameter and every identifier is quoted: strings that look like SQL
/// stay data.
@Suite struct InjectionSafetyTests {
  let database: any DatabaseWriter

  init() throws {
    database = try scorekeeperDatabase()
    try database.write(seedScorekeeper)
  }

  static let hostileStrings = [
    "Robert'); DROP TABLE players;--",
    "' OR '1'='1",
    "\"; DELETE FROM games; --",
    "?", "??", "'?'", "%", "_", "\\", "\u{0}",
    "1; SELECT * FROM sqlite_master",
  ]

  @Test(arguments: hostileStrings)
  func hostileValuesAreStoredAndMatchedLiterally(_ name: String) throws {
    let insert = Player.insert { Player.Draft(gameID: UUID(2), name: name, score: 7) }
    #expect(insert.queryFragment.sql.hasSuffix("VALUES (?, ?, ?, ?)"))
    try database.write { try insert.execute($0) }
    let found = try database.read { db in
      try Player.where { $0.name.eq(name) }.select { $0.name }.fetchAll(db)
    }
    #expect(found == [name])
    let counts = try database.read { db in (try Game.fetchCount(db), try Player.fetchCount(db)) }
    #expect(counts.0 == 3)
    #expect(counts.1 == 4)
  }

  @Test(arguments: hostileStrings)
  func hostileValuesInPatternsAndRawSQLAreBound(_ text: String) throws {
    let matches = try database.read { db in
      (
        try Player.where { $0.name.contains(text) }.fetchCount(db),
        try Player.where { $0.name.hasPrefix(text) }.fetchCount(db),
        try sql("SELECT count(*) FROM players WHERE name = \(text)", as: Int.self).fetchOne(db)
      )
    }
    #expect(matches.0 == 0)
    #expect(matches.1 == 0)
    #expect(matches.2 == 0)
  }

  @Test func sqlLookingValueInWhereMatchesNothing() throws {
    let query = Player.where { $0.name.eq("x' OR 1=1 --") }
    #expect(query.queryFragment.sql.hasSuffix(#"WHERE "players"."name" = ?"#))
    #expect(try database.read { try query.fetchAll($0) }.isEmpty)
  }

  @Test func identifiersWithQuotesAreEscaped() throws {
    let idColumn = OddName.columns.id.name
    let valueColumn = OddName.columns.value.name
    try database.write { db in
      try sql(
        """
        CREATE TABLE \(OddName.self) (\(quote: idColumn) INTEGER PRIMARY KEY, \(quote: valueColumn) TEXT NOT NULL) STRICT
        """
      ).execute(db)
    }
    let insert = OddName.insert { OddName(id: 1, value: "a\"b'c") }
    #expect(
      insert.queryFragment.sql
        == #"INSERT INTO "odd ""names"" table" ("the ""id""", "it's value") VALUES (?, ?)"#)
    try database.write { db in
      try insert.execute(db)
      try OddName.find(1).update { $0.value += "!" }.execute(db)
    }
    let query = OddName.where { $0.value.like("a%") }
    let table = #""odd ""names"" table""#
    #expect(
      query.queryFragment.sql
        == "SELECT \(table).\(#""the ""id""""#), \(table).\(#""it's value""#) FROM \(table) "
        + "WHERE \(table).\(#""it's value""#) LIKE ?")
    let rows = try database.read { try query.fetchAll($0) }
    #expect(rows.map(\.value) == ["a\"b'c!"])
    try database.write { try OddName.find(1).delete().execute($0) }
    #expect(try database.read { try OddName.fetchCount($0) } == 0)
  }

  @Test func rawInterpolationIsTheOnlyWayToInsertText() throws {
    let column = "name"
    let bound = sql("SELECT \(column) FROM players", as: String.self)
    #expect(bound.queryFragment.sql == "SELECT ? FROM players")
    let quoted = sql("SELECT \(quote: column) FROM players", as: String.self)
    #expect(quoted.queryFragment.sql == #"SELECT "name" FROM players"#)
    let raw = sql("SELECT \(raw: column) FROM players ORDER BY 1", as: String.self)
    #expect(raw.queryFragment.sql == "SELECT name FROM players ORDER BY 1")
    let names = try database.read { (try bound.fetchAll($0), try raw.fetchAll($0)) }
    #expect(names.0 == ["name", "name", "name"])
    #expect(names.1 == ["Blob", "Blob Jr", "Blob Sr"])
  }
}

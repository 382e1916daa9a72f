import Foundation
import Strata
import Testing

/// A broken constraint read from SQLite's error: its kind, table and columns, and whether it
/// concerns a model's property.
@Suite struct ConstraintViolationTests {
  let database: any DatabaseWriter

  init() throws {
    database = try testDatabase()
    try database.write { db in
      try db.execute(sql: "INSERT INTO games (id, title) VALUES ('00000000-0000-0000-0000-000000000001', 'One')")
      try db.execute(sql: "INSERT INTO roundScores (gameID, round, points, recordedAt) VALUES ('00000000-0000-0000-0000-000000000001', 1, 5, 'now')")
    }
  }

  func violation(_ sql: String) -> ConstraintViolation? {
    do {
      try database.write { try $0.execute(sql: sql) }
      return nil
    } catch {
      return ConstraintViolation(error)
    }
  }

  @Test func aDuplicateKeyNamesTheTableAndColumns() throws {
    let duplicate = try #require(
      violation("INSERT INTO roundScores (gameID, round, points, recordedAt) VALUES ('00000000-0000-0000-0000-000000000001', 1, 7, 'now')"))
    #expect(duplicate.kind == .primaryKey)
    #expect(duplicate.table == "roundScores")
    #expect(duplicate.columns == ["gameID", "round"])
    #expect(duplicate.concerns(RoundScore.self, \.round))
    #expect(!duplicate.concerns(RoundScore.self, \.points))
    #expect(!duplicate.concerns(Game.self, \.title))
  }

  @Test func checksNullsAndReferences() throws {
    let check = try #require(violation("UPDATE roundScores SET points = -1"))
    #expect(check.kind == .check)
    #expect(check.check == "points >= 0")
    let missing = try #require(violation("UPDATE games SET title = NULL"))
    #expect(missing == ConstraintViolation(kind: .notNull, table: "games", columns: ["title"], check: nil))
    let orphan = try #require(
      violation("INSERT INTO roundScores (gameID, round, points, recordedAt) VALUES ('00000000-0000-0000-0000-000000000009', 1, 7, 'now')"))
    #expect(orphan.kind == .foreignKey)
    #expect(violation("SELECT 1") == nil)
    #expect(ConstraintViolation(StrataError("not SQLite's")) == nil)
  }
}

import Foundation
import Strata
import Testing

/// What a model declares beyond its columns — a key on two columns, a CHECK, SQL defaults, a
/// partial index (`RoundScores.swift`) — reaches the database through the generated migration,
/// and SQLite enforces it.
@Suite struct TableConstraintTests {
  func databaseWithGame() throws -> (any DatabaseWriter, Game.ID) {
    let database = try testDatabase()
    let id = UUID()
    try database.write { db in try Game.insert { Game.Draft(id: id, title: "Darts") }.execute(db) }
    return (database, id)
  }

  @Test func theKeyIsTheColumnPair() throws {
    let (database, game) = try databaseWithGame()
    try database.write { db in
      try RoundScore.insert {
        RoundScore.Draft(gameID: game, round: 1, points: 10, recordedAt: "now")
        RoundScore.Draft(gameID: game, round: 2, points: 20, recordedAt: "now")
      }.execute(db)
    }
    #expect(throws: DatabaseError.self) {
      try database.write { db in
        try RoundScore.insert { RoundScore.Draft(gameID: game, round: 1, points: 30, recordedAt: "again") }.execute(db)
      }
    }
    let points = try database.read { db in try RoundScore.order(by: \.round).select(\.points).fetchAll(db) }
    #expect(points == [10, 20])
  }

  @Test func theCheckRefusesARowThatFailsIt() throws {
    let (database, game) = try databaseWithGame()
    do {
      try database.write { db in
        try RoundScore.insert { RoundScore.Draft(gameID: game, round: 1, points: -5, recordedAt: "now") }.execute(db)
      }
      Issue.record("a negative score was stored")
    } catch let error as DatabaseError {
      #expect(error.resultCode == .SQLITE_CONSTRAINT)
      #expect(error.message?.contains("CHECK constraint failed") == true, "\(error)")
    }
  }

  @Test func sqlDefaultsFillWhatAnInsertLeavesOut() throws {
    let (database, game) = try databaseWithGame()
    let row = try database.write { db in
      try db.execute(sql: #"INSERT INTO "roundScores" ("gameID", "round") VALUES (?, 1)"#, arguments: [game.uuidString.lowercased()])
      return try RoundScore.all.fetchOne(db)
    }
    #expect(row?.label == "round 1")
    #expect(row?.points == 0)
    // CURRENT_TIMESTAMP: `YYYY-MM-DD HH:MM:SS` in UTC.
    #expect(row?.recordedAt.count == 19)
  }

  @Test func thePartialIndexServesItsCondition() throws {
    let (database, _) = try databaseWithGame()
    let plan = try database.read { db in
      try Row.fetchAll(db, sql: #"EXPLAIN QUERY PLAN SELECT * FROM "roundScores" WHERE "points" >= 100"#).map { $0["detail"] as String }
    }
    #expect(plan.contains { $0.contains("index_roundScores_on_points") }, "\(plan)")
    let sql = try database.read { db in
      try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE name = 'index_roundScores_on_points'")
    }
    #expect(sql?.hasSuffix("WHERE points >= 100") == true)
  }
}

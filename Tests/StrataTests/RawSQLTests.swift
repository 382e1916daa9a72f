import Foundation
import Strata
import Testing

/// `sql(…)`: hand-written SQL whose interpolated values are bound.
@Suite struct RawSQLTests {
  @Test(arguments: TestDialect.all) func statementsAndTypedResults(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      let minimum = 50
      let query = sql(
        "SELECT \(Player.columns.name), \(Player.columns.score) FROM \(Player.self) WHERE \(Player.columns.score) > \(minimum) ORDER BY 2",
        as: (String, Int).self)
      #expect(
        query.queryFragment.description
          == #"SELECT "players"."name", "players"."score" FROM "players" WHERE "players"."score" > 50 ORDER BY 2"#)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == ["Blob Sr", "Blob Jr"])
      #expect(rows.map(\.1) == [60, 100])
    }
  }

  @Test(arguments: TestDialect.all) func rawSQLAsAConditionAndASelection(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      let query = Player
        .where { sql("\($0.score) % 20 = 0", as: Bool.self) }
        .order(by: \.score)
        .select { ($0.name, sql("\($0.score) * 10", as: Int.self)) }
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == ["Blob", "Blob Sr", "Blob Jr"])
      #expect(rows.map(\.1) == [200, 600, 1000])
    }
  }

  @Test(arguments: TestDialect.all) func ddlAndWholeRows(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      try await sql("CREATE TABLE notes (body TEXT NOT NULL)").execute(db)
      try await sql("INSERT INTO notes (body) VALUES (\("it's fine"))").execute(db)
      #expect(try await sql("SELECT body FROM notes", as: String.self).fetchOne(db) == "it's fine")
      let games = try await sql("SELECT * FROM games ORDER BY title", as: Game.self).fetchAll(db)
      #expect(games.map(\.title) == ["Family gin rummy", "Mahjong with grandma", "Weekly poker night"])
    }
  }
}

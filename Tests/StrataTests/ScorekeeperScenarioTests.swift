import Foundation
import Strata
import Testing

/// The seed's Scorekeeper app end to end: the DDL of seed 003, the data of seed 000, and the
/// queries of ../shared/fixtures/scorekeeper/queries.md, each with its SQL and its rows.
@Suite struct ScorekeeperScenarioTests {
  @Test(arguments: TestDialect.all) func playerCountsPerGameIncludeGamesWithoutPlayers(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      let query = Game
        .group(by: \.id)
        .leftJoin(Player.all) { $0.id.eq($1.gameID) }
        .order { $1.count().desc() }
        .select { GameRow.Columns(game: $0, playerCount: $1.count()) }

      #expect(
        query.queryFragment.sql == """
          SELECT "games"."id" AS "id", "games"."title" AS "title", count("players"."id") AS "playerCount" \
          FROM "games" LEFT JOIN "players" ON "games"."id" = "players"."gameID" \
          GROUP BY "games"."id" ORDER BY count("players"."id") DESC
          """)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.game.title).first == "Family gin rummy")
      #expect(rows.map(\.playerCount) == [3, 0, 0])
      #expect(Set(rows.map(\.game.title)) == ["Family gin rummy", "Weekly poker night", "Mahjong with grandma"])
    }
  }

  @Test(arguments: TestDialect.all) func playersOfAGameSortBothWays(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      func players(ascending: Bool) -> Where<Player> {
        Player
          .where { $0.gameID.eq(UUID(1)) }
          .order {
            if ascending {
              $0.score.asc()
            } else {
              $0.score.desc()
            }
          }
      }
      #expect(
        players(ascending: false).queryFragment.description == """
          SELECT "players"."id", "players"."gameID", "players"."name", "players"."score" FROM "players" \
          WHERE "players"."gameID" = '00000000-0000-0000-0000-000000000001' ORDER BY "players"."score" DESC
          """)
      let descending = try await players(ascending: false).fetchAll(db)
      let ascending = try await players(ascending: true).fetchAll(db)
      #expect(descending.map(\.name) == ["Blob Jr", "Blob Sr", "Blob"])
      #expect(ascending.map(\.name) == ["Blob", "Blob Sr", "Blob Jr"])
    }
  }

  @Test(arguments: TestDialect.all) func countingPlayersRunsCountInSQLite(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      let query = Player.where { $0.gameID.eq(UUID(1)) }
      #expect(
        query.count().queryFragment.sql
          == #"SELECT count(*) FROM "players" WHERE "players"."gameID" = ?"#)
      #expect(try await query.fetchCount(db) == 3)
      #expect(try await Player.where { $0.gameID.eq(UUID(2)) }.fetchCount(db) == 0)
    }
  }

  @Test(arguments: TestDialect.all) func incrementingAndDecrementingScores(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      let increment = Player.find(UUID(11)).update { $0.score += 1 }
      #expect(
        increment.queryFragment.description == """
          UPDATE "players" SET "score" = "players"."score" + 1 \
          WHERE "players"."id" = '00000000-0000-0000-0000-00000000000b'
          """)
      try await increment.execute(db)
      try await increment.execute(db)
      try await Player.find(UUID(12)).update { $0.score -= 1 }.execute(db)
      let scores = try await Player.order(by: \.name).select { ($0.name, $0.score) }.fetchAll(db)
      #expect(scores.map(\.0) == ["Blob", "Blob Jr", "Blob Sr"])
      #expect(scores.map(\.1) == [22, 99, 60])
    }
  }

  @Test(arguments: TestDialect.all) func insertingADraftGetsAFreshLowercaseUUID(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      let insert = Player.insert { Player.Draft(gameID: UUID(2), name: "Blob") }
      #expect(
        insert.queryFragment.description == """
          INSERT INTO "players" ("id", "gameID", "name", "score") \
          VALUES (NULL, '00000000-0000-0000-0000-000000000002', 'Blob', 0)
          """)
      try await insert.execute(db)
      let id = try await Player.where { $0.gameID.eq(UUID(2)) }.select { $0.id }.fetchOne(db)
      let text = try await sql("SELECT CAST(id AS TEXT) FROM players WHERE \(quote: "gameID") = \(UUID(2))", as: String.self).fetchOne(db)
      #expect(id != nil)
      #expect(text == id?.uuidString.lowercased())
      #expect(text?.count == 36)
    }
  }

  @Test(arguments: TestDialect.all) func deletingAGameCascadesToItsPlayers(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      let delete = Game.find([UUID(1), UUID(3)]).delete()
      #expect(
        delete.queryFragment.description == """
          DELETE FROM "games" WHERE "games"."id" IN \
          ('00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000003')
          """)
      try await delete.execute(db)
      let games = try await Game.fetchAll(db)
      let players = try await Player.fetchCount(db)
      #expect(games.map(\.title) == ["Weekly poker night"])
      #expect(players == 0)
    }
  }

  @Test(arguments: TestDialect.all) func noneReturnsNothingWithoutTouchingTheDatabase(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      var statements: [String] = []
      let (players, count) = try await db.run(
        sqlite: { db in
          db.trace { statements.append($0.expandedDescription) }
          defer { db.trace(options: []) }
          return (try Player.none.fetchAll(db), try Player.none.fetchCount(db))
        },
        postgreSQL: { db in (try await Player.none.fetchAll(db), try await Player.none.fetchCount(db)) })
      #expect(players.isEmpty)
      #expect(count == 0)
      #expect(statements.isEmpty)
      #expect(Player.none.queryFragment.sql.hasSuffix(" WHERE 0"))
    }
  }

  @Test(arguments: TestDialect.all) func seedRunsOneInsertPerRunOfRowsOfTheSameTable(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: scorekeeperRows()) { db throws in
      let seeds: Seeds = SeedsBuilder.buildBlock(
        SeedsBuilder.buildExpression(Game.Draft(id: UUID(7), title: "A")),
        SeedsBuilder.buildExpression(Game.Draft(id: UUID(8), title: "B")),
        SeedsBuilder.buildExpression(Player.Draft(gameID: UUID(7), name: "P"))
      )
      #expect(
        seeds.queryFragment.sql == """
          INSERT INTO "games" ("id", "title") VALUES (?, ?), (?, ?); \
          INSERT INTO "players" ("id", "gameID", "name", "score") VALUES (?, ?, ?, ?)
          """)
      try await seeds.execute(db)
      #expect(try await Game.fetchCount(db) == 5)
    }
  }
}

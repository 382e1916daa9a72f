import Foundation
import Strata
import Testing

/// The seed's Scorekeeper app end to end: the DDL of seed 003, the data of seed 000, and the
/// queries of ../shared/fixtures/scorekeeper/queries.md, each with its SQL and its rows.
@Suite struct ScorekeeperScenarioTests {
  let database: any DatabaseWriter

  init() throws {
    database = try scorekeeperDatabase()
    try database.write(seedScorekeeper)
  }

  @Test func playerCountsPerGameIncludeGamesWithoutPlayers() throws {
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
    let rows = try database.read { try query.fetchAll($0) }
    #expect(rows.map(\.game.title).first == "Family gin rummy")
    #expect(rows.map(\.playerCount) == [3, 0, 0])
    #expect(Set(rows.map(\.game.title)) == ["Family gin rummy", "Weekly poker night", "Mahjong with grandma"])
  }

  @Test func playersOfAGameSortBothWays() throws {
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
    let descending = try database.read { try players(ascending: false).fetchAll($0) }
    let ascending = try database.read { try players(ascending: true).fetchAll($0) }
    #expect(descending.map(\.name) == ["Blob Jr", "Blob Sr", "Blob"])
    #expect(ascending.map(\.name) == ["Blob", "Blob Sr", "Blob Jr"])
  }

  @Test func countingPlayersRunsCountInSQLite() throws {
    let query = Player.where { $0.gameID.eq(UUID(1)) }
    #expect(
      query.count().queryFragment.sql
        == #"SELECT count(*) FROM "players" WHERE "players"."gameID" = ?"#)
    #expect(try database.read { try query.fetchCount($0) } == 3)
    #expect(try database.read { try Player.where { $0.gameID.eq(UUID(2)) }.fetchCount($0) } == 0)
  }

  @Test func incrementingAndDecrementingScores() throws {
    let increment = Player.find(UUID(11)).update { $0.score += 1 }
    #expect(
      increment.queryFragment.description == """
        UPDATE "players" SET "score" = "players"."score" + 1 \
        WHERE "players"."id" = '00000000-0000-0000-0000-00000000000b'
        """)
    try database.write { db in
      try increment.execute(db)
      try increment.execute(db)
      try Player.find(UUID(12)).update { $0.score -= 1 }.execute(db)
    }
    let scores = try database.read { db in
      try Player.order(by: \.name).select { ($0.name, $0.score) }.fetchAll(db)
    }
    #expect(scores.map(\.0) == ["Blob", "Blob Jr", "Blob Sr"])
    #expect(scores.map(\.1) == [22, 99, 60])
  }

  @Test func insertingADraftGetsAFreshLowercaseUUID() throws {
    let insert = Player.insert { Player.Draft(gameID: UUID(2), name: "Blob") }
    #expect(
      insert.queryFragment.description == """
        INSERT INTO "players" ("id", "gameID", "name", "score") \
        VALUES (NULL, '00000000-0000-0000-0000-000000000002', 'Blob', 0)
        """)
    let id = try database.write { db in
      try insert.execute(db)
      return try Player.where { $0.gameID.eq(UUID(2)) }.select { $0.id }.fetchOne(db)
    }
    let text = try database.read { db in
      try sql("SELECT id FROM players WHERE gameID = \(UUID(2))", as: String.self).fetchOne(db)
    }
    #expect(id != nil)
    #expect(text == id?.uuidString.lowercased())
    #expect(text?.count == 36)
  }

  @Test func deletingAGameCascadesToItsPlayers() throws {
    let delete = Game.find([UUID(1), UUID(3)]).delete()
    #expect(
      delete.queryFragment.description == """
        DELETE FROM "games" WHERE "games"."id" IN \
        ('00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000003')
        """)
    try database.write { try delete.execute($0) }
    let (games, players) = try database.read { db in
      (try Game.fetchAll(db), try Player.fetchCount(db))
    }
    #expect(games.map(\.title) == ["Weekly poker night"])
    #expect(players == 0)
  }

  @Test func noneReturnsNothingWithoutTouchingTheDatabase() throws {
    var statements: [String] = []
    let (players, count) = try database.read { db in
      db.trace { statements.append($0.expandedDescription) }
      defer { db.trace(options: []) }
      return (try Player.none.fetchAll(db), try Player.none.fetchCount(db))
    }
    #expect(players.isEmpty)
    #expect(count == 0)
    #expect(statements.isEmpty)
    #expect(Player.none.queryFragment.sql.hasSuffix(" WHERE 0"))
  }

  @Test func seedRunsOneInsertPerRunOfRowsOfTheSameTable() throws {
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
    try database.write { try seeds.execute($0) }
    #expect(try database.read { try Game.fetchCount($0) } == 5)
  }
}

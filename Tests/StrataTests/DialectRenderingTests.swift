import Foundation
import Strata
import Testing

/// The seam between the builder and a database: every statement is built once, in SQLite's
/// spelling, and rendered for PostgreSQL with numbered placeholders and its own spelling of the
/// pieces that differ; a statement that uses something only SQLite has is refused before it is
/// sent, naming what.
@Suite struct DialectRenderingTests {
  func postgreSQL(_ statement: some QueryStatement) throws -> String {
    try statement.queryFragment.rendered(for: .postgreSQL).sql
  }

  /// The seeds' queries, each whole, for SQLite (as they run in the other tests) and PostgreSQL.
  @Test func theSeedsQueriesRenderWithNumberedPlaceholders() throws {
    let scoreboard = Game
      .group(by: \.id)
      .leftJoin(Player.all) { $0.id.eq($1.gameID) }
      .order { $1.count().desc() }
      .select { GameRow.Columns(game: $0, playerCount: $1.count()) }
    #expect(
      try postgreSQL(scoreboard) == """
        SELECT "games"."id" AS "id", "games"."title" AS "title", count("players"."id") AS "playerCount" \
        FROM "games" LEFT JOIN "players" ON "games"."id" = "players"."gameID" \
        GROUP BY "games"."id" ORDER BY count("players"."id") DESC
        """)

    let players = Player.where { $0.gameID.eq(UUID(1)) }.where { $0.score > 10 }.order { $0.score.desc() }.limit(20, offset: 40)
    #expect(
      players.queryFragment.sql == """
        SELECT "players"."id", "players"."gameID", "players"."name", "players"."score" FROM "players" \
        WHERE ("players"."gameID" = ?) AND ("players"."score" > ?) ORDER BY "players"."score" DESC LIMIT ? OFFSET ?
        """)
    #expect(
      try postgreSQL(players) == """
        SELECT "players"."id", "players"."gameID", "players"."name", "players"."score" FROM "players" \
        WHERE ("players"."gameID" = $1) AND ("players"."score" > $2) ORDER BY "players"."score" DESC LIMIT $3 OFFSET $4
        """)
    #expect(try players.queryFragment.rendered(for: .postgreSQL).bindings == players.queryFragment.bindings)

    #expect(
      try postgreSQL(Player.find(UUID(11)).update { $0.score -= 1 })
        == #"UPDATE "players" SET "score" = "players"."score" - $1 WHERE "players"."id" = $2"#)
    #expect(
      try postgreSQL(Player.insert { Player.Draft(gameID: UUID(2), name: "Blob") })
        == #"INSERT INTO "players" ("id", "gameID", "name", "score") VALUES ($1, $2, $3, $4)"#)
    #expect(
      try postgreSQL(Game.find([UUID(1), UUID(3)]).delete()) == #"DELETE FROM "games" WHERE "games"."id" IN ($1, $2)"#)
    #expect(
      try postgreSQL(Player.where { $0.name.contains("Blob") }.select(\.name))
        == #"SELECT "players"."name" FROM "players" WHERE strpos("players"."name", $1) > 0"#)
  }

  /// Pieces SQLite spells its own way: conditions that are always true or false, an offset
  /// without a limit, an upsert's select.
  @Test func piecesAreRespelled() throws {
    #expect(Player.none.queryFragment.sql.hasSuffix(#" FROM "players" WHERE 0"#))
    #expect(
      try postgreSQL(Player.none)
        == #"SELECT "players"."id", "players"."gameID", "players"."name", "players"."score" FROM "players" WHERE FALSE"#)
    #expect(
      try postgreSQL(Player.where { $0.score > 1 }.not().select(\.id))
        == #"SELECT "players"."id" FROM "players" WHERE NOT ("players"."score" > $1)"#)
    #expect(try postgreSQL(Player.all.not().select(\.id)) == #"SELECT "players"."id" FROM "players" WHERE NOT (TRUE)"#)
    let skipping = Player.order(by: \.name).select(\.name).offset(2)
    #expect(skipping.queryFragment.sql == #"SELECT "players"."name" FROM "players" ORDER BY "players"."name" LIMIT -1 OFFSET ?"#)
    #expect(try postgreSQL(skipping) == #"SELECT "players"."name" FROM "players" ORDER BY "players"."name" LIMIT ALL OFFSET $1"#)
  }

  /// What only SQLite has is refused, naming it, before anything is sent.
  @Test func sqliteOnlyConstructsAreRefused() throws {
    func refusal(_ statement: some QueryStatement) -> String? {
      do {
        _ = try statement.queryFragment.rendered(for: .postgreSQL)
        return nil
      } catch let error as DialectError {
        return error.description.components(separatedBy: ", which only SQLite has").first
      } catch {
        return "\(error)"
      }
    }
    #expect(refusal(Player.insert(or: .replace) { Player.Draft(gameID: UUID(2), name: "Blob") }) == "this statement cannot run on PostgreSQL: it uses INSERT OR REPLACE")
    #expect(refusal(Player.where { $0.name.glob("B*") }) == "this statement cannot run on PostgreSQL: it uses GLOB")
    #expect(refusal(Player.select { $0.name.collate(.nocase) }) == "this statement cannot run on PostgreSQL: it uses the collation NOCASE")
    #expect(refusal(Player.select { $0.score.typeof() }) == "this statement cannot run on PostgreSQL: it uses the function typeof")
    // The same statements run on SQLite as built.
    #expect(try Player.where { $0.name.glob("B*") }.queryFragment.rendered(for: .sqlite).sql.contains(" GLOB ?"))
  }
}

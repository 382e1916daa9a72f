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

/// What means otherwise on PostgreSQL is respelled there so that the statement means what it
/// means on SQLite; each statement whole, in both spellings.
@Suite struct PostgreSQLRespellingTests {
  func both(_ statement: some QueryStatement) throws -> [String] {
    [statement.queryFragment.sql] + (try statement.statements(for: .postgreSQL).map(\.sql))
  }

  @Test func nullsCompareAndSortAsOnSQLite() throws {
    #expect(
      try both(Item.where { $0.notes.is("x") && $0.priority.isNot(nil) }.select(\.id)) == [
        #"SELECT "items"."id" FROM "items" WHERE ("items"."notes" IS ?) AND ("items"."priority" IS NOT NULL)"#,
        #"SELECT "items"."id" FROM "items" WHERE ("items"."notes" IS NOT DISTINCT FROM $1) AND ("items"."priority" IS NOT NULL)"#,
      ])
    // SQLite sorts NULL first; a column that can be NULL says so on PostgreSQL, one that cannot
    // is left for an index to serve.
    #expect(
      try both(Item.order { ($0.priority, $0.dueDate.desc(), $0.id) }.select(\.id)) == [
        #"SELECT "items"."id" FROM "items" ORDER BY "items"."priority", "items"."dueDate" DESC, "items"."id""#,
        #"SELECT "items"."id" FROM "items" ORDER BY "items"."priority" NULLS FIRST, "items"."dueDate" DESC NULLS LAST, "items"."id""#,
      ])
    #expect(
      try both(Item.where { $0.id.in([Int]()) }.select(\.id)) == [
        #"SELECT "items"."id" FROM "items" WHERE "items"."id" IN ()"#,
        #"SELECT "items"."id" FROM "items" WHERE "items"."id" = ANY('{}')"#,
      ])
  }

  @Test func textMatchesAsOnSQLite() throws {
    #expect(
      try both(Item.where { $0.title.like("p%") && $0.title.hasSuffix("one") }.select(\.id)) == [
        #"SELECT "items"."id" FROM "items" WHERE ("items"."title" LIKE ?) AND (substr("items"."title", -3) = ?)"#,
        #"SELECT "items"."id" FROM "items" WHERE ("items"."title" ILIKE $1 ESCAPE '') AND (right("items"."title", 3) = $2)"#,
      ])
    #expect(
      try both(Item.select { ($0.title.substr(2, 3), $0.price.round(1), $0.price.cast(as: Int.self), $0.quantity % 4) }) == [
        #"SELECT substr("items"."title", ?, ?), round("items"."price", ?), CAST("items"."price" AS INTEGER), "items"."quantity" % ? FROM "items""#,
        #"SELECT substr("items"."title", CAST($1 AS integer), CAST($2 AS integer)), round(CAST("items"."price" AS numeric), CAST($3 AS integer)), CAST(trunc("items"."price") AS bigint), "items"."quantity" % NULLIF($4, 0) FROM "items""#,
      ])
  }

  @Test func aggregatesAndSubqueriesAsOnSQLite() throws {
    #expect(
      try both(Item.select { ($0.price.total(), $0.title.groupConcat()) }) == [
        #"SELECT total("items"."price"), group_concat("items"."title") FROM "items""#,
        #"SELECT CAST(coalesce(sum("items"."price"), 0) AS double precision), string_agg(CAST("items"."title" AS text), ',') FROM "items""#,
      ])
    #expect(
      try both(Item.group(by: \.categoryID).countingRows()) == [
        #"SELECT count(*) FROM (SELECT 1 FROM "items" GROUP BY "items"."categoryID")"#,
        #"SELECT count(*) FROM (SELECT 1 FROM "items" GROUP BY "items"."categoryID") AS "rows""#,
      ])
    #expect(
      try both(Item.order { $0.price.desc() }.limit(2).update { $0.isActive = false }) == [
        #"UPDATE "items" SET "isActive" = ? WHERE "items"."rowid" IN (SELECT "items"."rowid" FROM "items" ORDER BY "items"."price" DESC LIMIT ?)"#,
        #"UPDATE "items" SET "isActive" = $1 WHERE "items"."id" IN (SELECT "items"."id" FROM "items" ORDER BY "items"."price" DESC LIMIT $2)"#,
      ])
  }

  /// A `Draft` without a key: SQLite assigns one for NULL; PostgreSQL for DEFAULT, which takes
  /// no value.
  @Test func aKeyADraftLeavesToTheDatabaseIsDefault() throws {
    let insert = Player.insert {
      Player.Draft(gameID: UUID(1), name: "Blob")
      Player.Draft(id: UUID(12), gameID: UUID(1), name: "Blob Jr")
    }
    let statements = try insert.statements(for: .postgreSQL)
    #expect(insert.queryFragment.sql == #"INSERT INTO "players" ("id", "gameID", "name", "score") VALUES (?, ?, ?, ?), (?, ?, ?, ?)"#)
    #expect(statements.map(\.sql) == [#"INSERT INTO "players" ("id", "gameID", "name", "score") VALUES (DEFAULT, $1, $2, $3), ($4, $5, $6, $7)"#])
    #expect(statements.first?.bindings == [.uuid(UUID(1)), .text("Blob"), .integer(0), .uuid(UUID(12)), .uuid(UUID(1)), .text("Blob Jr"), .integer(0)])
    // Many rows split to fit PostgreSQL's limit on parameters, each statement its own numbers.
    let many = Tag.insert { (1...5).map { Tag.Draft(name: "tag \($0)") } }
    #expect(
      try many.statements(for: .postgreSQL, maxBindings: 4).map(\.sql) == [
        #"INSERT INTO "tags" ("id", "name") VALUES (DEFAULT, $1), (DEFAULT, $2)"#,
        #"INSERT INTO "tags" ("id", "name") VALUES (DEFAULT, $1), (DEFAULT, $2)"#,
        #"INSERT INTO "tags" ("id", "name") VALUES (DEFAULT, $1)"#,
      ])
  }

  /// A statement's respelling is worked out once per shape and kept: the same shape with other
  /// values sends those values, and a key left to the database still sends none.
  @Test func aShapesRespellingIsKeptAndItsValuesAreEachStatements() throws {
    for (name, score) in [("Blob", 1), ("Blob Jr", 2), ("Blob", 1)] {
      let insert = Player.insert { Player.Draft(gameID: UUID(3), name: name, score: score) }
      let statements = try insert.statements(for: .postgreSQL)
      #expect(statements.map(\.sql) == [#"INSERT INTO "players" ("id", "gameID", "name", "score") VALUES (DEFAULT, $1, $2, $3)"#])
      #expect(statements.first?.bindings == [.uuid(UUID(3)), .text(name), .integer(Int64(score))])
      let keyed = Player.insert { Player.Draft(id: UUID(score), gameID: UUID(3), name: name, score: score) }
      #expect(try keyed.statements(for: .postgreSQL).first?.bindings == [.uuid(UUID(score)), .uuid(UUID(3)), .text(name), .integer(Int64(score))])
      #expect(try keyed.statements(for: .postgreSQL).map(\.sql) == [#"INSERT INTO "players" ("id", "gameID", "name", "score") VALUES ($1, $2, $3, $4)"#])
    }
    // A shape PostgreSQL cannot run is refused every time, never kept.
    for _ in 1...2 {
      #expect(throws: DialectError.self) { try Player.where { $0.name.glob("B*") }.statements(for: .postgreSQL) }
    }
  }
}

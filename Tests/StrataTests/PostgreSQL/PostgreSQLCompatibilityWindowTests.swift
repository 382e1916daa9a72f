import Foundation
import Strata
import StrataPostgreSQL
import StrataSchema
import Testing
import StrataTestSupport

/// The compatibility window on PostgreSQL: the same plan as SQLite's, with one trigger function
/// that keeps a renamed column's two names in step. Two instances of a server mid-deploy, the
/// old one writing the old name and the new one the new, share one database; the contract step
/// loses nothing.
@Suite(.serialized, .blockingWork, .enabled(if: PostgreSQLTestServer.isAvailable, "needs PostgreSQL: set STRATA_POSTGRES_URL or install its binaries"))
struct PostgreSQLCompatibilityWindowTests {
  static let v1 = """
    struct Player: Table {
      let id: Int
      var name: String
      var score: Int = 0
    }
    """
  static let renamed = v1.replacingOccurrences(of: "var name: String", with: "// @Renamed(from: \"name\")\n  var displayName: String")

  func rows(_ database: PostgreSQLDatabase, _ query: String) async throws -> [String] {
    try await database.read { db in
      try await sql(SQLQuery(stringLiteral: query), as: (Int, String?, String?, Int).self).fetchAll(db).map { "\($0.0) \($0.1 ?? "NULL") \($0.2 ?? "NULL") \($0.3)" }
    }
  }

  @Test func aRenamedColumnIsWrittenByBothInstancesAndContractedWithoutLoss() async throws {
    let history = try ModelHistory(dialect: .postgresql)
    try history.generate(Self.v1)
    let expand = try #require(try history.generate(Self.renamed, settings: CompatibilityWindowTests.window))
    #expect(expand.fileName == "0002_rename_players_displayName_and_alter_players.sql")
    #expect(expand.sql.contains(#"""
      UPDATE "players" SET "displayName" = "name";
      CREATE FUNCTION "strata_keep_players_name_insert"() RETURNS trigger LANGUAGE plpgsql AS $strata$
      BEGIN
        UPDATE "players" SET "displayName" = coalesce(NEW."name", NEW."displayName"), "name" = coalesce(NEW."name", NEW."displayName") WHERE "id" = NEW."id";
        RETURN NULL;
      END
      $strata$;
      CREATE TRIGGER "strata_keep_players_name_insert" AFTER INSERT ON "players" FOR EACH ROW WHEN (NEW."name" IS DISTINCT FROM NEW."displayName") EXECUTE FUNCTION "strata_keep_players_name_insert"();
      """#), "\(expand.sql)")
    let contract = try #require(try history.generate(Self.renamed, settings: CompatibilityWindowTests.moved))
    #expect(contract.sql.contains(#"""
      DROP TRIGGER "strata_keep_players_name_insert" ON "players";
      DROP FUNCTION "strata_keep_players_name_insert"();
      """#), "\(contract.sql)")
    let migrations = try history.migrations

    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      try await database.migrate(Array(migrations.prefix(1)))
      try await database.write { db in try await sql("INSERT INTO players (id, name, score) VALUES (1, 'Ann', 3)").execute(db) }
      try await database.migrate(Array(migrations.prefix(2)))
      try await database.write { db in
        try await sql("INSERT INTO players (id, name, score) VALUES (2, 'Bob', 1)").execute(db)
        try await sql(#"INSERT INTO players (id, "displayName", score) VALUES (3, 'Cy', 2)"#).execute(db)
        try await sql("UPDATE players SET name = 'Annie' WHERE id = 1").execute(db)
        try await sql(#"UPDATE players SET "displayName" = 'Bobby', score = 5 WHERE id = 2"#).execute(db)
        try await sql(#"INSERT INTO players (id, "displayName") VALUES (3, 'Cyd') ON CONFLICT (id) DO UPDATE SET "displayName" = excluded."displayName""#).execute(db)
      }
      #expect(try await rows(database, #"SELECT id, name, "displayName", score FROM players ORDER BY id"#) == [
        "1 Annie Annie 3", "2 Bobby Bobby 5", "3 Cyd Cyd 2",
      ])
      // The old instance, whose newest migration is 0001, starts again: it runs nothing.
      #expect(try await database.migrationState(Array(migrations.prefix(1))) == .newerCompatible([migrations[1].name]))
      #expect(try await database.migrate(Array(migrations.prefix(1))).applied.isEmpty)
      try await database.migrate(migrations)
      #expect(try await rows(database, #"SELECT id, "displayName", NULL::text, score FROM players ORDER BY id"#) == [
        "1 Annie NULL 3", "2 Bobby NULL 5", "3 Cyd NULL 2",
      ])
    }
  }

  @Test func aTypeChangeUnderANewNameConvertsEachWay() async throws {
    let history = try ModelHistory(dialect: .postgresql)
    try history.generate(Self.v1)
    let retyped = Self.v1.replacingOccurrences(of: "var score: Int = 0", with: "// @Renamed(from: \"score\")\n  var rating: Double = 0")
    try history.generate(retyped, settings: CompatibilityWindowTests.window)
    let migrations = try history.migrations
    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      try await database.migrate(Array(migrations.prefix(1)))
      try await database.write { db in try await sql("INSERT INTO players (id, name, score) VALUES (1, 'Ann', 3)").execute(db) }
      try await database.migrate(migrations)
      try await database.write { db in
        try await sql("INSERT INTO players (id, name, score) VALUES (2, 'Bob', 4)").execute(db)
        try await sql("INSERT INTO players (id, name, rating) VALUES (3, 'Cy', 5)").execute(db)
        try await sql("UPDATE players SET rating = 6 WHERE id = 1").execute(db)
      }
      let read = try await database.read { db in
        try await sql("SELECT id, score, rating FROM players ORDER BY id", as: (Int, Int?, Double).self).fetchAll(db).map { "\($0.0) \($0.1.map(String.init) ?? "NULL") \($0.2)" }
      }
      #expect(read == ["1 6 6.0", "2 4 4.0", "3 5 5.0"])
      await #expect {
        try await database.write { db in try await sql("UPDATE players SET rating = 6.5 WHERE id = 1").execute(db) }
      } throws: { error in
        "\(error)".contains(#"strata: a value written to "players"."rating" does not convert exactly to "score" bigint, which older app versions in the compatibility window read; write one that does"#)
      }
    }
  }

  @Test func aRenamedTableIsKeptAsAViewOlderInstancesWriteThrough() async throws {
    let history = try ModelHistory(dialect: .postgresql)
    try history.generate(Self.v1)
    let renamed = Self.v1.replacingOccurrences(of: "struct Player", with: "// @Renamed(from: \"Player\")\nstruct Gamer")
    let expand = try #require(try history.generate(renamed, settings: CompatibilityWindowTests.window))
    #expect(expand.sql.contains(#"CREATE VIEW "players" AS SELECT "id", "name", "score" FROM "gamers";"#), "\(expand.sql)")
    let contract = try #require(try history.generate(renamed, settings: CompatibilityWindowTests.moved))
    #expect(contract.sql.hasSuffix("\nDROP VIEW \"players\";\n"), "\(contract.sql)")
    let migrations = try history.migrations
    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      try await database.migrate(Array(migrations.prefix(1)))
      try await database.write { db in try await sql("INSERT INTO players (name, score) VALUES ('Ann', 3)").execute(db) }
      try await database.migrate(Array(migrations.prefix(2)))
      try await database.write { db in
        try await sql("INSERT INTO players (name) VALUES ('Bob')").execute(db)
        try await sql("INSERT INTO gamers (name, score) VALUES ('Cy', 5)").execute(db)
        try await sql("UPDATE players SET name = 'Annie' WHERE id = 1").execute(db)
        try await sql("DELETE FROM players WHERE name = 'Cy'").execute(db)
      }
      let read = try await database.read { db in
        try await sql("SELECT id, name, score FROM gamers ORDER BY id", as: (Int, String, Int).self).fetchAll(db).map { "\($0.0) \($0.1) \($0.2)" }
      }
      #expect(read == ["1 Annie 3", "2 Bob 0"])
      try await database.migrate(migrations)
      #expect(try await database.read { db in try await sql("SELECT count(*) FROM gamers", as: Int.self).fetchOne(db) } == 2)
    }
  }
}

extension PostgreSQLCompatibilityWindowTests {
  @Test func aNewNotNullWithADefaultWaitsAndTheDefaultFillsOlderWritersNulls() async throws {
    let history = try ModelHistory(dialect: .postgresql)
    let optional = Self.v1.replacingOccurrences(of: "var score: Int = 0", with: "var score: Int = 0\n  var nickname: String?")
    try history.generate(optional)
    let required = optional.replacingOccurrences(of: "var nickname: String?", with: "var nickname = \"none\"")
    #expect(try #require(try history.generate(required, settings: CompatibilityWindowTests.window)).sql.contains("strata_keep_players_nickname_null_insert"))
    #expect(try history.generate(required, settings: CompatibilityWindowTests.window) == nil)
    let contract = try #require(try history.generate(required, settings: CompatibilityWindowTests.moved))
    #expect(contract.sql.contains(#"ALTER TABLE "players" ALTER COLUMN "nickname" SET NOT NULL;"#), "\(contract.sql)")
    #expect(try history.generate(required, settings: CompatibilityWindowTests.moved) == nil)
    let migrations = try history.migrations
    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      try await database.migrate(Array(migrations.prefix(2)))
      try await database.write { db in
        try await sql("INSERT INTO players (id, name, nickname) VALUES (1, 'Ann', NULL)").execute(db)
        try await sql("INSERT INTO players (id, name, nickname) VALUES (2, 'Bob', 'B')").execute(db)
        try await sql("UPDATE players SET nickname = NULL WHERE id = 2").execute(db)
      }
      #expect(try await database.read { db in try await sql("SELECT nickname FROM players ORDER BY id", as: String.self).fetchAll(db) } == ["none", "none"])
      try await database.migrate(migrations)
    }
  }
}

extension PostgreSQLCompatibilityWindowTests {
  /// A window of two older schemas on PostgreSQL: a rename that changes the type, then a table
  /// dropped, with the statements of all three versions on the rows, until the older leaves.
  @Test func aTypeChangeAndADroppedTableKeepWorkingForTwoOlderSchemas() async throws {
    let history = try ModelHistory(dialect: .postgresql)
    let teams = "\nstruct Team: Table {\n  let id: Int\n  var title = \"\"\n}\n"
    try history.generate(Self.v1 + teams)
    let twoOlder = MigrationSettings(compatibleWith: .migration(1))
    let retyped = Self.v1.replacingOccurrences(of: "var score: Int = 0", with: "// @Renamed(from: \"score\")\n  var rating: Double = 0")
    _ = try #require(try history.generate(retyped + teams, settings: twoOlder))
    _ = try #require(try history.generate(retyped, settings: twoOlder))
    let expanded = try history.migrations
    _ = try #require(try history.generate(retyped, allowDataLoss: true, settings: MigrationSettings(compatibleWith: .migration(3))))
    let contracted = try history.migrations
    try await PostgreSQLTestServer.shared.withEmptyDatabase { database in
      try await database.migrate(expanded)
      try await database.write { db in
        try await sql("INSERT INTO players (id, name, score) VALUES (1, 'first', 1)").execute(db)
        try await sql("INSERT INTO teams (id, title) VALUES (1, 'Reds')").execute(db)
        try await sql("INSERT INTO players (id, name, rating) VALUES (2, 'second', 2)").execute(db)
        try await sql("INSERT INTO teams (id, title) VALUES (2, 'Blues')").execute(db)
        try await sql("INSERT INTO players (id, name, rating) VALUES (3, 'third', 3.0)").execute(db)
        try await sql("UPDATE players SET score = 4 WHERE id = 3").execute(db)
      }
      let read = try await database.read { db in
        try await sql("SELECT id, score, rating FROM players ORDER BY id", as: (Int, Int?, Double).self).fetchAll(db).map { "\($0.0) \($0.1.map(String.init) ?? "NULL") \($0.2)" }
      }
      #expect(read == ["1 1 1.0", "2 2 2.0", "3 4 4.0"])
      #expect(try await database.read { db in try await sql("SELECT count(*) FROM teams", as: Int.self).fetchOne(db) } == 2)
      try await database.migrate(contracted)
      let after = try await database.read { db in
        try await sql("SELECT id, name, rating FROM players ORDER BY id", as: (Int, String, Double).self).fetchAll(db).map { "\($0.0) \($0.1) \($0.2)" }
      }
      #expect(after == ["1 first 1.0", "2 second 2.0", "3 third 4.0"])
    }
  }
}

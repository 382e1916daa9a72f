import Foundation
import Strata
import StrataPostgreSQL
import Testing

/// `migrate` on PostgreSQL: each migration once, in its own transaction, with its checksum; the
/// histories the SQLite migrator refuses are refused here too; a baseline is recorded on the
/// database it was imported from; a check that stops a migration changes nothing; and instances
/// of an app that start together migrate once.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PostgreSQL: set STRATA_POSTGRES_URL or install its binaries"))
struct PostgreSQLMigratorTests {
  static let create = Migration(name: "0001_create_notes", checksum: "c1", sql: #"CREATE TABLE "notes" ("id" bigint PRIMARY KEY, "body" text NOT NULL);"#)
  static let fill = Migration(
    name: "0002_fill_notes", checksum: "c2",
    sql: """
      -- Two statements; the second's text holds a semicolon; and a dollar-quoted block.
      INSERT INTO "notes" VALUES (1, 'one; still one');
      DO $strata$ BEGIN INSERT INTO "notes" VALUES (2, 'two'); END $strata$;
      """)

  /// A fresh database of its own, empty, for the time of `body`.
  func withEmptyDatabase(_ body: (PostgreSQLDatabase, String) async throws -> Void) async throws {
    let name = try await PostgreSQLTestServer.shared.newDatabase(empty: true)
    do {
      let url = try PostgreSQLTestServer.shared.url(of: name)
      try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: url), configuration: PostgreSQLTestServer.patient) { database in
        try await body(database, url)
      }
    } catch {
      await PostgreSQLTestServer.shared.drop(name)
      throw error
    }
    await PostgreSQLTestServer.shared.drop(name)
  }

  @Test func eachMigrationRunsOnceWithItsChecksum() async throws {
    try await withEmptyDatabase { database, _ throws in
      #expect(try await database.migrationState([Self.create, Self.fill]) == .pending(["0001_create_notes", "0002_fill_notes"]))
      let first = try await database.migrate([Self.create, Self.fill])
      #expect(first == MigrationResult(applied: ["0001_create_notes", "0002_fill_notes"], renamed: [], warnings: []))
      let again = try await database.migrate([Self.create, Self.fill])
      #expect(again.applied.isEmpty)
      #expect(try await database.migrationState([Self.create, Self.fill]) == .upToDate)
      try await database.read { db throws in
        #expect(try await sql(#"SELECT "body" FROM "notes" ORDER BY "id""#, as: String.self).fetchAll(db) == ["one; still one", "two"])
        let history = try await sql("SELECT name, checksum FROM strata_migrations ORDER BY name", as: (String, String?).self).fetchAll(db)
        #expect(history.map(\.0) == ["0001_create_notes", "0002_fill_notes"])
        #expect(history.map(\.1) == ["c1", "c2"])
      }
    }
  }

  @Test func historiesThatAreNotTheAppsAreRefusedBeforeAnythingRuns() async throws {
    try await withEmptyDatabase { database, _ throws in
      try await database.migrate([Self.create, Self.fill])
      let edited = Migration(name: Self.fill.name, checksum: "changed", sql: Self.fill.sql)
      await #expect {
        try await database.migrate([Self.create, edited])
      } throws: { error in
        "\(error)".hasPrefix(#"the migration "0002_fill_notes" changed after this database ran it (checksum c2… then, changed… now)"#)
      }
      #expect(try await database.migrate([Self.create, edited], checksums: .ignore).applied.isEmpty)

      // An older app, whose last migration was 0001: the database ran one it does not know.
      await #expect {
        try await database.migrate([Self.create])
      } throws: { error in
        "\(error)".hasPrefix(#"a newer version of the app migrated this database: it ran "0002_fill_notes""#)
      }
      #expect(try await database.migrationState([Self.create]) == .newer(["0002_fill_notes"]))

      // The same file under a new number would run again.
      let renamed = Migration(name: "0003_fill_notes", checksum: "c2", sql: Self.fill.sql)
      await #expect {
        try await database.migrate([Self.create, renamed])
      } throws: { error in
        "\(error)".hasPrefix(#"the migration "0003_fill_notes" is "0002_fill_notes" renamed"#)
      }
      let accepted = try await database.migrate([Self.create, renamed], renamed: .accept)
      #expect(accepted == MigrationResult(applied: [], renamed: ["0003_fill_notes"], warnings: []))
      #expect(try await database.read { db in try await sql(#"SELECT count(*) FROM "notes""#, as: Int.self).fetchOne(db) } == 2)
    }
  }

  /// A failing statement, or a generated check that finds a row the change would not keep, stops
  /// the migration in its transaction: nothing it did is kept, and it is not recorded.
  @Test func aMigrationThatStopsChangesNothing() async throws {
    try await withEmptyDatabase { database, _ throws in
      try await database.migrate([Self.create, Self.fill])
      let check = Migration(
        name: "0003_require_short_bodies", checksum: "c3",
        sql: """
          UPDATE "notes" SET "body" = 'changed';
          DO $strata$ BEGIN
            IF EXISTS (SELECT 1 FROM "notes" WHERE length("body") > 3) THEN
              RAISE EXCEPTION 'strata: "notes": the row whose "id" is 1 holds a body longer than 3 characters';
            END IF;
          END $strata$;
          """)
      await #expect {
        try await database.migrate([Self.create, Self.fill, check])
      } throws: { error in
        "\(error)" == #"the migration "0003_require_short_bodies" stopped before changing anything: "notes": the row whose "id" is 1 holds a body longer than 3 characters"#
      }
      let broken = Migration(name: "0003_broken", checksum: "c4", sql: "UPDATE \"notes\" SET \"body\" = 'x';\nSELECT * FROM \"missing\";")
      await #expect {
        try await database.migrate([Self.create, Self.fill, broken])
      } throws: { error in
        "\(error)".hasPrefix(#"the migration "0003_broken" failed at line 2, and changed nothing: PostgreSQL error 42P01 (undefined_table): relation "missing" does not exist"#)
      }
      try await database.read { db throws in
        #expect(try await sql(#"SELECT "body" FROM "notes" ORDER BY "id""#, as: String.self).fetchAll(db) == ["one; still one", "two"])
      }
      #expect(try await database.migrationState([Self.create, Self.fill, broken]) == .pending(["0003_broken"]))
    }
  }

  /// `strata import`'s baseline: recorded without running on the database it describes, run on
  /// a new one, refused on another.
  @Test func aBaselineIsRecordedOnTheDatabaseThatHoldsIt() async throws {
    let baseline = Migration(
      name: "0001_baseline", checksum: "b1", isBaseline: true,
      sql: #"CREATE TABLE "accounts" ("id" bigint PRIMARY KEY, "email" text NOT NULL); CREATE TABLE "logins" ("accountID" bigint NOT NULL);"#)
    try await withEmptyDatabase { database, _ throws in
      try await database.withConnection { db in
        try await sql(#"CREATE TABLE "accounts" ("id" bigint PRIMARY KEY, "email" text NOT NULL); "#).execute(db)
        try await sql(#"CREATE TABLE "logins" ("accountID" bigint NOT NULL)"#).execute(db)
        try await sql(#"INSERT INTO "accounts" VALUES (1, 'a@example.com')"#).execute(db)
      }
      #expect(try await database.migrate([baseline]) == MigrationResult(applied: [], recorded: ["0001_baseline"], renamed: [], warnings: []))
      #expect(try await database.read { db in try await sql(#"SELECT count(*) FROM "accounts""#, as: Int.self).fetchOne(db) } == 1)
    }
    try await withEmptyDatabase { database, _ throws in
      #expect(try await database.migrate([baseline]) == MigrationResult(applied: ["0001_baseline"], renamed: [], warnings: []))
      #expect(try await database.read { db in try await sql(#"SELECT count(*) FROM "logins""#, as: Int.self).fetchOne(db) } == 0)
    }
    try await withEmptyDatabase { database, _ throws in
      try await database.withConnection { db in
        try await sql(#"CREATE TABLE "accounts" ("id" bigint PRIMARY KEY, "email" integer)"#).execute(db)
      }
      await #expect {
        try await database.migrate([baseline])
      } throws: { error in
        "\(error)".hasPrefix(#"the database has tables of its own but not the schema of the baseline migration "0001_baseline" (it lacks "logins")"#)
      }
      try await database.withConnection { db in try await sql(#"CREATE TABLE "logins" ("accountID" bigint NOT NULL)"#).execute(db) }
      await #expect {
        try await database.migrate([baseline])
      } throws: { error in
        "\(error)".hasPrefix(#"the database's tables are not those of the baseline migration "0001_baseline" ("accounts": it lacks "email" text NOT NULL, it has "email" integer)"#)
      }
    }
  }

  /// Instances of an app started at the same moment against one database: one migrates, the
  /// others wait for its lock, find the migrations run, and go on.
  @Test func instancesStartedTogetherMigrateOnce() async throws {
    try await withEmptyDatabase { database, url throws in
      let processes = try (0..<4).map { _ in try ExternalProcess.start(["postgres-migrate", url]) }
      var results: [(status: Int32, output: String)] = []
      for process in processes {
        let result = try await process.finish(timeout: 120)
        results.append((result.status, result.output))
      }
      #expect(results.map(\.status) == [0, 0, 0, 0])
      let applied = results.map { $0.output.split(separator: "\n").map(String.init) }
      #expect(applied.filter { $0 == ["0001_create_visits", "0002_first_visit", "0003_visit_times", "done"] }.count == 1)
      #expect(applied.filter { $0 == ["done"] }.count == 3)
      try await database.read { db throws in
        #expect(try await sql(#"SELECT count(*) FROM "visits""#, as: Int.self).fetchOne(db) == 1)
        #expect(try await sql("SELECT count(*) FROM strata_migrations", as: Int.self).fetchOne(db) == 3)
      }
    }
  }
}

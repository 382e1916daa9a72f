import Foundation
import GRDB
import Strata
import Testing

/// Data migrations written in Swift on SQLite: they run in the numbered sequence, in the
/// migrations' one transaction, with foreign keys checked at its end; one that throws names
/// itself and leaves the database as it was before the first pending migration.
@Suite struct DataMigrationTests {
  static let create = Migration(
    name: "0001_create_people", checksum: "c1",
    sql: """
      CREATE TABLE "teams" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL) STRICT;
      CREATE TABLE "people" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "teamID" INTEGER REFERENCES "teams"("id")) STRICT;
      """)
  static let addNames = Migration(
    name: "0002_add_first_and_last", checksum: "c2",
    sql: #"ALTER TABLE "people" ADD COLUMN "first" TEXT NOT NULL DEFAULT ''; ALTER TABLE "people" ADD COLUMN "last" TEXT NOT NULL DEFAULT '';"#)
  /// Splits each name at its first space, through raw SQL and typed values.
  static let split = Migration(name: "0003_split_names", checksum: "c3") { db in
    for row in try Row.fetchAll(db, sql: #"SELECT "id", "name" FROM "people""#) {
      let name: String = row["name"]
      let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
      try db.execute(
        sql: #"UPDATE "people" SET "first" = ?, "last" = ? WHERE "id" = ?"#,
        arguments: [parts.first ?? "", parts.count > 1 ? parts[1] : "", row["id"] as Int64])
    }
  }

  func database() throws -> any DatabaseWriter {
    let database = try openDatabase(.inMemory)
    try database.migrate([Self.create])
    try database.write { db in
      try db.execute(sql: #"INSERT INTO "teams" VALUES (1, 'Blue'); INSERT INTO "people" ("id", "name", "teamID") VALUES (1, 'Ada Lovelace', 1), (2, 'Plato', NULL)"#)
    }
    return database
  }

  @Test func aDataMigrationRunsInItsPlaceAndIsRecordedWithItsChecksum() throws {
    let database = try database()
    let result = try database.migrate([Self.create, Self.addNames, Self.split])
    #expect(result.applied == ["0002_add_first_and_last", "0003_split_names"])
    let rows = try database.read { db in
      try Row.fetchAll(db, sql: #"SELECT "first", "last" FROM "people" ORDER BY "id""#).map { [$0[0] as String, $0[1] as String] }
    }
    #expect(rows == [["Ada", "Lovelace"], ["Plato", ""]])
    let recorded = try database.read { db in
      try String.fetchAll(db, sql: "SELECT name || ' ' || checksum FROM strata_migrations ORDER BY name")
    }
    #expect(recorded == ["0001_create_people c1", "0002_add_first_and_last c2", "0003_split_names c3"])
    // Migrating again runs nothing; an edited data migration (a new checksum) is refused.
    #expect(try database.migrate([Self.create, Self.addNames, Self.split]).applied.isEmpty)
    let edited = Migration(name: "0003_split_names", checksum: "c3-edited") { _ in }
    #expect(throws: StrataError.self) { try database.migrate([Self.create, Self.addNames, edited]) }
  }

  @Test func aDataMigrationThatThrowsNamesItselfAndKeepsNothing() throws {
    struct Unreadable: Error, CustomStringConvertible { var description: String { "a name without a space" } }
    let failing = Migration(name: "0003_split_names", checksum: "c3") { db in
      try db.execute(sql: #"UPDATE "people" SET "first" = 'changed'"#)
      throw Unreadable()
    }
    let database = try database()
    let error = #expect(throws: StrataError.self) { try database.migrate([Self.create, Self.addNames, failing]) }
    #expect(
      error?.message
        == #"the data migration "0003_split_names" failed, so the migrations stopped before changing anything (they run in one transaction): a name without a space"#)
    // 0002, which ran before it in the same transaction, is not kept either.
    let columns = try database.read { db in try db.columns(in: "people").map(\.name) }
    #expect(columns == ["id", "name", "teamID"])
    #expect(try database.migrationState([Self.create, Self.addNames, failing]) == .pending(["0002_add_first_and_last", "0003_split_names"]))
  }

  @Test func foreignKeysAreCheckedWhenTheMigrationsEnd() throws {
    let orphan = Migration(name: "0003_orphan", checksum: "c3") { db in
      // Foreign keys are off inside the migrations, as around a table rebuild, and checked at
      // the end: a row left pointing nowhere stops them.
      try db.execute(sql: #"UPDATE "people" SET "teamID" = 99 WHERE "id" = 1"#)
    }
    let database = try database()
    #expect(throws: (any Error).self) { try database.migrate([Self.create, Self.addNames, orphan]) }
    #expect(try database.read { db in try Int.fetchOne(db, sql: #"SELECT "teamID" FROM "people" WHERE "id" = 1"#) } == 1)
  }

  @Test func grdbsMigratorRunsDataMigrationsToo() throws {
    let database = try database()
    var migrator = DatabaseMigrator()
    try migrator.registerMigrations([Self.create, Self.addNames, Self.split])
    try migrator.migrate(database)
    #expect(try database.read { db in try String.fetchOne(db, sql: #"SELECT "last" FROM "people" WHERE "id" = 1"#) } == "Lovelace")
  }

  @Test func upgradeChecksRunDataMigrationsAndSayWhatTheyChanged() async throws {
    let report = try await verifyUpgrades(UpgradeVerification([Self.create, Self.addNames, Self.split], rowsPerTable: 30))
    #expect(report.starts.map(\.schema) == ["0001_create_people", "0002_add_first_and_last"])
    #expect(report.starts[1].notes.contains { $0.hasPrefix("0003_split_names (Swift): changed \"people\"; for example, at row \"id\" = ") })
    // A data migration that loses a row it should not is still a row it lost, said as its doing.
    let dropping = Migration(name: "0003_drop_some", checksum: "c3") { db in try db.execute(sql: #"DELETE FROM "people" WHERE "id" % 2 = 0"#) }
    let dropped = try await verifyUpgrades(UpgradeVerification([Self.create, Self.addNames, dropping], rowsPerTable: 30, startingSchemas: ["0002_add_first_and_last"]))
    #expect(dropped.starts[0].notes.contains { $0.hasPrefix("0003_drop_some (Swift): changed \"people\"") && $0.contains("the row is gone") })
  }
}

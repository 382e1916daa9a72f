import Foundation
import Strata
import Testing

/// `migrate` refuses histories that are not the app's: an applied migration renamed or
/// renumbered, a database a newer app migrated, a baseline over different tables; and reports
/// an applied migration the app no longer has. Each with rows in the tables.
@Suite struct MigrationHistoryTests {
  static let create = Migration(
    name: "0001_create_counters", checksum: "c1",
    sql: "CREATE TABLE counters (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL) STRICT; INSERT INTO counters VALUES ('a', 0);")
  static let bump = Migration(name: "0002_bump", checksum: "b2", sql: "UPDATE counters SET value = value + 1;")
  static let double = Migration(name: "0003_double", checksum: "d3", sql: "UPDATE counters SET value = value * 10;")

  static func renamed(_ migration: Migration, to name: String) -> Migration {
    Migration(name: name, checksum: migration.checksum, sql: migration.sql)
  }

  func value(_ database: any DatabaseWriter) throws -> Int? {
    try database.read { try Int.fetchOne($0, sql: "SELECT value FROM counters") }
  }

  @Test func aRenamedAppliedMigrationIsRefusedByNameAndCanBeAccepted() throws {
    let database = try openDatabase(.inMemory)
    try database.migrate([Self.create, Self.bump])
    #expect(try value(database) == 1)

    let renumbered = [Self.create, Self.renamed(Self.bump, to: "0003_bump")]
    let error = try #require(throws: StrataError.self) { try database.migrate(renumbered) }
    #expect(
      error.message
        == #"the migration "0003_bump" is "0002_bump" renamed (it has the same checksum), which this database already ran: running it again would apply its changes twice. Give it back its old name, or migrate with `renamed: .accept` to record the new one"#)
    #expect(try value(database) == 1)
    #expect(try database.migrationState(renumbered) == .upToDate)

    let result = try database.migrate(renumbered + [Self.double], renamed: .accept)
    #expect(result == MigrationResult(applied: ["0003_double"], renamed: ["0003_bump"], warnings: []))
    // Bumped once, then multiplied: the renamed migration did not run again.
    #expect(try value(database) == 10)
    #expect(try database.migrate(renumbered + [Self.double]) == MigrationResult(applied: [], renamed: [], warnings: []))
  }

  @Test func twoSwappedNumbersAreBothRefused() throws {
    let database = try openDatabase(.inMemory)
    try database.migrate([Self.create, Self.bump, Self.double])
    #expect(try value(database) == 10)
    let swapped = [Self.create, Self.renamed(Self.double, to: "0002_double"), Self.renamed(Self.bump, to: "0003_bump")]
    let error = try #require(throws: StrataError.self) { try database.migrate(swapped) }
    #expect(error.message.hasPrefix(#"the migration "0002_double" is "0003_double" renamed (it has the same checksum), which this database already ran; the migration "0003_bump" is "0002_bump" renamed"#))
    #expect(try value(database) == 10)
  }

  @Test func aDatabaseANewerAppMigratedIsRefused() throws {
    let database = try openDatabase(.inMemory)
    try database.migrate([Self.create, Self.bump, Self.double])
    // This older app has its own next migration, which the newer app's database must not run.
    let older = [Self.create, Self.bump, Migration(name: "0003_reset", checksum: "r3", sql: "UPDATE counters SET value = 0;")]
    #expect(try database.migrationState(older) == .newer(["0003_double"]))
    let error = try #require(throws: StrataError.self) { try database.migrate(older) }
    #expect(
      error.message
        == #"a newer version of the app migrated this database: it ran "0003_double", which this version does not know, so its own migrations would run on a schema they were not written for. Update the app (or, if the app's newest migration was deleted, restore it); code that only reads can check `migrationState(_:)` instead of migrating"#)
    #expect(try value(database) == 10)
    // An older version without a migration of its own is refused just the same.
    #expect(throws: StrataError.self) { try database.migrate([Self.create, Self.bump]) }
  }

  @Test func anAppliedMigrationTheAppNoLongerHasIsAWarning() throws {
    let database = try openDatabase(.inMemory)
    try database.migrate([Self.create, Self.bump, Self.double])
    let result = try database.migrate([Self.create, Self.double])
    #expect(result.applied.isEmpty)
    #expect(
      result.warnings == [
        #"the database ran the migration "0002_bump", which the app no longer embeds: it keeps that migration's changes, and new databases do not get them; restore the file if it was deleted by mistake"#
      ])
    #expect(try database.migrationState([Self.create, Self.double]) == .upToDate)
  }

  @Test func theStateOfANewAndAPartlyMigratedDatabase() throws {
    let database = try openDatabase(.inMemory)
    #expect(try database.migrationState([Self.create, Self.bump]) == .pending(["0001_create_counters", "0002_bump"]))
    try database.migrate([Self.create])
    #expect(try database.migrationState([Self.create, Self.bump]) == .pending(["0002_bump"]))
  }

  static let baseline = Migration(
    name: "0001_imported_schema", checksum: "i1", isBaseline: true,
    sql: """
      -- strata: baseline
      CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT);
      CREATE TABLE book (id INTEGER PRIMARY KEY, authorID INTEGER REFERENCES author(id) ON DELETE CASCADE, title TEXT NOT NULL);
      CREATE INDEX book_author ON book(authorID);
      """)

  func existing(_ sql: String) throws -> any DatabaseWriter {
    let database = try openDatabase(.inMemory)
    try database.write { db in
      try db.execute(sql: sql)
      try db.execute(sql: "INSERT INTO author (id, name) VALUES (1, 'Ann')")
    }
    return database
  }

  @Test func aBaselineIsNotRecordedOverTablesOfAnotherShape() throws {
    let other = try existing(
      """
      CREATE TABLE author (id INTEGER PRIMARY KEY, name INTEGER NOT NULL, born INTEGER);
      CREATE TABLE book (id INTEGER PRIMARY KEY, authorID INTEGER REFERENCES author(id), title TEXT NOT NULL);
      CREATE INDEX book_author ON book(title);
      """)
    let error = try #require(throws: StrataError.self) { try other.migrate([Self.baseline]) }
    #expect(
      error.message
        == #"the database's tables are not those of the baseline migration "0001_imported_schema" ("author": its column "name" is INTEGER NOT NULL, not TEXT NOT NULL, it has no column "email", it has a column "born" the baseline does not make; "book": its foreign keys differ, its indexes differ): recording the baseline as run would leave the app reading tables it does not know; migrate the database to the schema that was imported first"#)
    #expect(try other.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM author") } == 1)

    // The same tables written another way (as ALTER TABLE leaves them) are the baseline's.
    let same = try existing(
      """
      CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      ALTER TABLE author ADD COLUMN email TEXT;
      CREATE TABLE book (id INTEGER PRIMARY KEY, authorID INTEGER REFERENCES author(id) ON DELETE CASCADE, title TEXT NOT NULL);
      CREATE INDEX book_author ON book(authorID);
      """)
    #expect(try same.migrate([Self.baseline]) == MigrationResult(applied: [], recorded: ["0001_imported_schema"], renamed: [], warnings: []))
    #expect(try same.read { try String.fetchOne($0, sql: "SELECT name FROM author") } == "Ann")
  }
}

import Foundation
import GRDB
import Strata
import Testing

/// A squash on SQLite: a new database runs it; one that ran every migration it replaces records
/// it without running it; one that ran some runs the others first; one that ran some the app no
/// longer embeds is refused, naming them.
@Suite struct SquashTests {
  static let create = Migration(name: "0001_create_notes", checksum: "c1", sql: #"CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY, "body" TEXT NOT NULL) STRICT;"#)
  static let addTitle = Migration(name: "0002_add_title", checksum: "c2", sql: #"ALTER TABLE "notes" ADD COLUMN "title" TEXT;"#)
  static let rename = Migration(name: "0003_rename_body", checksum: "c3", sql: #"ALTER TABLE "notes" RENAME COLUMN "body" TO "text";"#)
  static func squash(replacing replaced: [Migration]) -> Migration {
    Migration(
      name: "0003_squashed", checksum: "s3", replaces: replaced,
      sql: #"CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY, "text" TEXT NOT NULL, "title" TEXT) STRICT;"#)
  }
  static let squash = squash(replacing: [create, addTitle, rename])
  static let pin = Migration(name: "0004_pin", checksum: "c4", sql: #"ALTER TABLE "notes" ADD COLUMN "pinned" INTEGER NOT NULL DEFAULT 0;"#)

  func database(ran migrations: [Migration]) throws -> any DatabaseWriter {
    let database = try openDatabase(.inMemory)
    guard let first = migrations.first else { return database }
    // A row written before the others ran.
    try database.migrate([first])
    try database.write { db in try db.execute(sql: #"INSERT INTO "notes" ("id", "body") VALUES (1, 'kept')"#) }
    try database.migrate(migrations)
    return database
  }

  @Test func aNewDatabaseRunsTheSquash() throws {
    let database = try database(ran: [])
    let result = try database.migrate([Self.squash, Self.pin])
    #expect(result.applied == ["0003_squashed", "0004_pin"])
    #expect(try database.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") } == ["0003_squashed", "0004_pin"])
  }

  @Test func aDatabaseThatRanEveryReplacedMigrationRecordsTheSquash() throws {
    let database = try database(ran: [Self.create, Self.addTitle, Self.rename])
    #expect(try database.migrationState([Self.squash, Self.pin]) == .pending(["0003_squashed", "0004_pin"]))
    let result = try database.migrate([Self.squash, Self.pin])
    #expect(result.applied == ["0004_pin"])
    #expect(result.recorded == ["0003_squashed"])
    #expect(result.warnings.isEmpty)
    #expect(try database.read { db in try String.fetchOne(db, sql: #"SELECT "text" FROM "notes""#) } == "kept")
    #expect(try database.migrationState([Self.squash, Self.pin]) == .upToDate)
    // An older version, which knows the replaced migrations only, finds a newer database.
    #expect(try database.migrationState([Self.create, Self.addTitle, Self.rename]) == .newer(["0003_squashed", "0004_pin"]))
  }

  @Test func aDatabaseThatRanSomeRunsTheOthersFirst() throws {
    let database = try database(ran: [Self.create])
    let result = try database.migrate([Self.squash, Self.pin])
    #expect(result.applied == ["0002_add_title", "0003_rename_body", "0004_pin"])
    #expect(result.recorded == ["0003_squashed"])
    #expect(try database.read { db in try String.fetchOne(db, sql: #"SELECT "text" FROM "notes""#) } == "kept")
  }

  @Test func aDatabaseThatRanSomeTheAppNoLongerEmbedsIsRefused() throws {
    let database = try database(ran: [Self.create])
    let forgotten = Self.squash(replacing: [
      Self.create, Migration(name: "0002_add_title", checksum: "c2", replacedWithoutItsCode: ()), Self.rename,
    ])
    let error = #expect(throws: StrataError.self) { try database.migrate([forgotten, Self.pin]) }
    #expect(error?.message.hasPrefix(#"this database ran some of the migrations squashed into "0003_squashed" but not "0002_add_title", which this version of the app no longer embeds"#) == true)
    // One that ran them all still carries on.
    let done = try self.database(ran: [Self.create, Self.addTitle, Self.rename])
    #expect(try done.migrate([forgotten, Self.pin]).recorded == ["0003_squashed"])
  }

  @Test func upgradesAreCheckedFromSchemasBeforeAtAndAfterTheSquash() async throws {
    let report = try await verifyUpgrades(UpgradeVerification([Self.squash, Self.pin], rowsPerTable: 50))
    #expect(report.starts.map(\.schema) == ["0001_create_notes", "0002_add_title", "0003_rename_body", "0003_squashed"])
    #expect(report.starts[2].migrations == ["0003_squashed", "0004_pin"])
    // A squash that does not make its migrations' schema is caught from before it.
    let wrong = Migration(
      name: "0003_squashed", checksum: "s3", replaces: [Self.create, Self.addTitle, Self.rename],
      sql: #"CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY, "text" TEXT NOT NULL) STRICT;"#)
    let error = await #expect(throws: UpgradeFailure.self) {
      try await verifyUpgrades(UpgradeVerification([wrong, Self.pin], rowsPerTable: 10))
    }
    #expect(error?.problem.hasPrefix("the upgraded schema differs from a new install's") == true, "\(String(describing: error))")
  }
}

import Foundation
import GRDBSQLite
import Strata
import Testing

/// Opening databases, the `uuid()` function, tracing, and how statements reach SQLite.
@Suite struct DatabaseTests {
  func temporaryPath() -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-test-\(UUID().uuidString).sqlite").path
  }

  @Test func inMemoryDatabaseHasForeignKeysAndUUID() throws {
    let database = try openDatabase(.inMemory)
    #expect(database is DatabaseQueue)
    let (foreignKeys, first, second) = try database.read { db in
      (
        try sql("PRAGMA foreign_keys", as: Int.self).fetchOne(db),
        try sql("SELECT uuid()", as: String.self).fetchOne(db),
        try sql("SELECT uuid()", as: String.self).fetchOne(db)
      )
    }
    #expect(foreignKeys == 1)
    let uuid = try #require(first)
    #expect(uuid.count == 36)
    #expect(uuid == uuid.lowercased())
    #expect(UUID(uuidString: uuid) != nil)
    #expect(Array(uuid)[14] == "4")
    #expect("89ab".contains(Array(uuid)[19]))
    #expect(first != second)
  }

  @Test func foreignKeysStayOnEvenWhenTheConfigurationTurnsThemOff() throws {
    var configuration = Configuration()
    configuration.foreignKeysEnabled = false
    let database = try openDatabase(.inMemory, configuration: configuration)
    #expect(try database.read { try sql("PRAGMA foreign_keys", as: Int.self).fetchOne($0) } == 1)
  }

  @Test func fileDatabaseKeepsItsRows() throws {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      let database = try openDatabase(.file(path))
      try database.write { db in
        try createScorekeeperTables(db)
        try seedScorekeeper(db)
      }
    }
    let reopened = try openDatabase(.file(path))
    #expect(try reopened.read { try Game.fetchCount($0) } == 3)
  }

  @Test func poolRegistersUUIDOnReadersAndWriter() throws {
    let path = temporaryPath()
    defer {
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    let database = try openDatabase(.file(path), pooled: true)
    #expect(database is DatabasePool)
    try database.write { db in
      try createScorekeeperTables(db)
      try Game.insert { Game.Draft(title: "Pooled") }.execute(db)
    }
    let fromReader = try database.read { db in try sql("SELECT uuid()", as: String.self).fetchOne(db) }
    #expect(fromReader?.count == 36)
    #expect(try database.read { try Game.fetchOne($0)?.title } == "Pooled")
  }

  @Test func inMemoryPoolIsAnError() throws {
    #expect(throws: StrataError.self) { try openDatabase(.inMemory, pooled: true) }
  }

  @Test func tracingShowsTheSQLStrataSends() throws {
    let log = Log()
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      db.trace { log.append($0.expandedDescription) }
    }
    let database = try scorekeeperDatabase(configuration: configuration)
    try database.write(seedScorekeeper)
    log.clear()
    _ = try database.read { db in
      try Player.where { $0.gameID.eq(UUID(1)) }.fetchCount(db)
    }
    #expect(
      log.lines.contains(
        #"SELECT count(*) FROM "players" WHERE "players"."gameID" = '00000000-0000-0000-0000-000000000001'"#))
  }

  @Test func largeInsertsAreSplitToFitTheParameterLimit() throws {
    let log = Log()
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, 10)
      db.trace { log.append($0.expandedDescription) }
    }
    let database = try scorekeeperDatabase(configuration: configuration)
    try database.write { try Game.insert { Game.Draft(id: UUID(1)) }.execute($0) }
    log.clear()
    let drafts = (1...7).map { Player.Draft(gameID: UUID(1), name: "P\($0)", score: $0) }
    let returned = try database.write { db in
      try Player.insert { drafts }.returning { $0.score }.fetchAll(db)
    }
    #expect(returned == Array(1...7))
    let inserts = log.lines.filter { $0.hasPrefix("INSERT") }
    #expect(inserts.count == 4)
    #expect(inserts.first?.contains("VALUES (NULL, '00000000-0000-0000-0000-000000000001', 'P1', 1), (NULL,") == true)
    #expect(try database.read { try Player.fetchCount($0) } == 7)
  }

  @Test func sqliteErrorsArriveAsDatabaseErrorsWithTheSQL() throws {
    let database = try scorekeeperDatabase()
    #expect {
      try database.write { try Player.insert { Player.Draft(gameID: UUID(99)) }.execute($0) }
    } throws: { error in
      guard let error = error as? DatabaseError else { return false }
      return error.resultCode == .SQLITE_CONSTRAINT && error.sql?.hasPrefix(#"INSERT INTO "players""#) == true
    }
  }

  @Test func parameterCountMismatchIsAnError() throws {
    let database = try openDatabase(.inMemory)
    #expect {
      try database.read { try sql("SELECT ?", as: Int?.self).fetchOne($0) }
    } throws: { error in
      (error as? StrataError)?.description == "the statement has 1 parameter but 0 values were bound\n  in: SELECT ?"
    }
  }

  @Test func writesInAReadAreRejectedBySQLite() throws {
    let database = try scorekeeperDatabase()
    #expect(throws: DatabaseError.self) {
      try database.read { try Game.insert { Game.Draft(title: "x") }.execute($0) }
    }
  }
}

/// Lines collected from a trace callback, which may run on any thread.
final class Log: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [String] = []

  func append(_ line: String) {
    lock.withLock { storage.append(line) }
  }

  func clear() {
    lock.withLock { storage.removeAll() }
  }

  var lines: [String] {
    lock.withLock { storage }
  }
}

/// Migrations embedded by the plugin, registered on GRDB's migrator.
@Suite struct MigrationRegistryTests {
  let migrations = [
    Migration(name: "0001_create_notes", sql: "CREATE TABLE notes (body TEXT NOT NULL) STRICT;"),
    Migration(name: "0002_add_notes_title", sql: "ALTER TABLE notes ADD COLUMN title TEXT;\nINSERT INTO notes (body) VALUES ('first');"),
  ]

  @Test func registeredMigrationsRunOnceInOrder() throws {
    let database = try openDatabase(.inMemory)
    var migrator = DatabaseMigrator()
    try migrator.registerMigrations(migrations)
    try migrator.migrate(database)
    try migrator.migrate(database)
    let (applied, rows) = try database.read { db in
      (try migrator.appliedIdentifiers(db), try sql("SELECT count(*) FROM notes", as: Int.self).fetchOne(db))
    }
    #expect(applied == ["0001_create_notes", "0002_add_notes_title"])
    #expect(rows == 1)
  }

  @Test func registeringANameTwiceIsAnErrorNotACrash() throws {
    var migrator = DatabaseMigrator()
    try migrator.registerMigrations(migrations)
    #expect(throws: StrataError.self) { try migrator.registerMigrations([migrations[0]]) }
    #expect(migrator.migrations == ["0001_create_notes", "0002_add_notes_title"])
  }
}

/// GRDB's observation tracks what Strata statements read and write.
@Suite struct ObservationTests {
  @Test func valueObservationSeesStrataReadsAndWrites() async throws {
    let database = try scorekeeperDatabase()
    let observation = ValueObservation.tracking { db in
      try Player.where { $0.score > 10 }.select { $0.name }.fetchAll(db)
    }
    var values = observation.values(in: database).makeAsyncIterator()
    #expect(try await values.next() == [])
    try await database.write { db in
      try Game.insert { Game.Draft(id: UUID(1), title: "Poker") }.execute(db)
      try Player.insert { Player.Draft(gameID: UUID(1), name: "Blob", score: 20) }.execute(db)
    }
    #expect(try await values.next() == ["Blob"])
    try await database.write { db in
      try Player.update { $0.score = 5 }.execute(db)
    }
    #expect(try await values.next() == [])
  }
}

/// Checksums of applied migrations: an edit after a database ran a migration is refused, by
/// name; a database from before checksums adopts them; `.ignore` migrates anyway.
@Suite struct MigrationChecksumTests {
  let original = [
    Migration(name: "0001_create_notes", checksum: "aaaa", sql: "CREATE TABLE notes (body TEXT NOT NULL) STRICT;"),
  ]

  @Test func anEditedAppliedMigrationIsRefusedByName() throws {
    let database = try openDatabase(.inMemory)
    try database.migrate(original)
    let recorded = try database.read { try String.fetchOne($0, sql: "SELECT checksum FROM strata_migrations WHERE name = '0001_create_notes'") }
    #expect(recorded == "aaaa")

    let edited = [Migration(name: "0001_create_notes", checksum: "bbbb", sql: "CREATE TABLE notes (body TEXT) STRICT;")]
    let error = try #require(throws: StrataError.self) { try database.migrate(edited) }
    #expect(error.message.hasPrefix(#"the migration "0001_create_notes" changed after this database ran it (checksum aaaa… then, bbbb… now)"#))
    // Opting out migrates anyway, and keeps the checksum the database ran.
    try database.migrate(edited + [Migration(name: "0002_more", checksum: "cccc", sql: "CREATE TABLE more (a INTEGER) STRICT;")], checksums: .ignore)
    #expect(try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM strata_migrations") } == 2)
  }

  /// A migration no marked release shipped can only have run on development databases: the
  /// error says how to recreate this one; a released one's says to undo the edit.
  @Test func anEditedMigrationSaysWhetherADevelopmentResetFits() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("strata-edited-\(UUID().uuidString).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let database = try openDatabase(.file(path))
    try database.migrate(original)
    let unreleased = [Migration(name: "0001_create_notes", checksum: "bbbb", sql: "CREATE TABLE notes (body TEXT) STRICT;")]
    let development = try #require(throws: StrataError.self) { try database.migrate(unreleased) }
    #expect(
      development.message.hasSuffix(
        "No release strata.json marks shipped it, so only development databases like this one can have run it: if you are still writing it, recreate it with `swift run strata db reset \(path) --migrations <the target's Migrations folder>`, and launch again. Otherwise undo the edit and make the change in a new migration"))
    let released = [Migration(name: "0001_create_notes", checksum: "bbbb", isReleased: true, sql: "CREATE TABLE notes (body TEXT) STRICT;")]
    let shipped = try #require(throws: StrataError.self) { try database.migrate(released) }
    #expect(shipped.message.hasSuffix("It shipped in a release: undo the edit and make the change in a new migration, or migrate with `checksums: .ignore` if you rewrote the history on purpose"))
  }

  @Test func aDatabaseMigratedBeforeChecksumsAdoptsThem() throws {
    let database = try openDatabase(.inMemory)
    var migrator = DatabaseMigrator()
    migrator.registerMigration("0001_create_notes") { try $0.execute(sql: "CREATE TABLE notes (body TEXT NOT NULL) STRICT;") }
    try migrator.migrate(database)
    try database.migrate(original)
    #expect(try database.read { try String.fetchOne($0, sql: "SELECT checksum FROM strata_migrations") } == "aaaa")
  }

  /// Two branches each added a migration numbered 0002; a database that ran one of them runs the
  /// other when both are merged, and nothing is skipped.
  @Test func migrationsWithOneNumberFromTwoBranchesBothRun() throws {
    let database = try openDatabase(.inMemory)
    let second = Migration(name: "0002_b_add_tags", checksum: "bbbb", sql: "CREATE TABLE tags (name TEXT NOT NULL) STRICT;")
    let other = Migration(name: "0002_a_add_lists", checksum: "cccc", sql: "CREATE TABLE lists (name TEXT NOT NULL) STRICT;")
    try database.migrate(original + [second])
    try database.migrate(original + [other, second])
    let applied = try database.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
    #expect(applied == ["0001_create_notes", "0002_b_add_tags", "0002_a_add_lists"])
    #expect(try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_schema WHERE name IN ('tags', 'lists')") } == 2)
  }
}

import GRDB
import StrataCore

/// The record of migrations GRDB's migrator keeps, by name.
let grdbMigrationsTable = "grdb_migrations"

/// What running one database's pending migrations did, before its transaction commits.
struct MigrationRun {
  var applied: [String]
  var recorded: [String]
  var renamed: [String]
  var warnings: [String]

  /// Runs the migrations `db` has not run, in the transaction the caller opened and commits, after
  /// checking its history: all of them change the database, or none does.
  ///
  /// Run it in ``GRDB/Database/inMigrationTransaction(_:)``, which turns foreign keys off around
  /// it and checks them once before it commits, as GRDB's migrator does around each migration.
  static func run(
    _ migrations: [Migration], in db: Database, checksums: MigrationChecksums, renamed: RenamedMigrations
  ) throws -> MigrationRun {
    // GRDB's migrator names its table unqualified, which SQLite looks up in attached databases
    // too when the main one lacks it; with the main one's made first, it finds that one.
    try db.execute(sql: "CREATE TABLE IF NOT EXISTS main.\(grdbMigrationsTable) (identifier TEXT NOT NULL PRIMARY KEY)")
    let history = try MigrationHistory(db)
    let migrations = try history.resolved(migrations)
    let (renames, warnings) = try history.plan(migrations, renamed: renamed)
    if checksums == .verify { try db.verifyMigrations(migrations) }
    for rename in renames { try db.recordRename(rename) }
    var done = history.applied.union(renames.map(\.new))
    var applied: [String] = []
    var recorded: [String] = []
    for migration in migrations where !done.contains(migration.name) {
      if MigrationHistory.isRecordedWithoutRunning(migration, after: done) {
        try db.recordChecksum(of: migration)
        recorded.append(migration.name)
      } else if try db.run(migration) {
        applied.append(migration.name)
      } else {
        recorded.append(migration.name)
      }
      try db.execute(sql: "INSERT INTO main.\(grdbMigrationsTable) (identifier) VALUES (?)", arguments: [migration.name])
      done.insert(migration.name)
    }
    return MigrationRun(applied: applied, recorded: recorded, renamed: renames.map(\.new), warnings: warnings)
  }
}

extension Database {
  /// Runs one migration's SQL (a baseline the database already holds is recorded without
  /// running) and records its checksum. A generated check that stops it becomes a message that
  /// says nothing changed.
  ///
  /// - Returns: Whether its SQL ran (false for a baseline recorded without running).
  @discardableResult
  func run(_ migration: Migration) throws -> Bool {
    let alreadyHeld = try migration.isBaseline && holdsBaseline(migration)
    if let data = migration.data {
      guard let body = data.body as? @Sendable (Database) throws -> Void else {
        throw DataMigration.wrongRuntime(migration.name, expected: "(Database) throws -> Void")
      }
      do {
        try body(self)
      } catch {
        throw DataMigration.failure(of: migration.name, error)
      }
    } else if !alreadyHeld {
      do {
        try execute(sql: migration.sql)
      } catch let error as DatabaseError {
        guard let message = MigrationCheck.message(of: error) else { throw error }
        throw StrataError("the migration \"\(migration.name)\" stopped before changing anything: \(message)")
      }
    }
    try recordChecksum(of: migration)
    return !alreadyHeld
  }

  /// Runs `body` in an immediate transaction with foreign keys off, checks them before committing
  /// when it returns, and turns them back on: the frame SQLite asks for around schema changes
  /// (<https://www.sqlite.org/lang_altertable.html#otheralter>), so that a table rebuild can drop
  /// a table others reference.
  func inMigrationTransaction<T>(_ body: () throws -> T) throws -> T {
    let foreignKeys = try Bool.fetchOne(self, sql: "PRAGMA foreign_keys") ?? false
    if foreignKeys { try execute(sql: "PRAGMA foreign_keys = OFF") }
    defer { if foreignKeys { try? execute(sql: "PRAGMA foreign_keys = ON") } }
    var result: T?
    do {
      try inTransaction(.immediate) {
        result = try body()
        if foreignKeys { try checkForeignKeys() }
        return .commit
      }
    } catch {
      // GRDB forgets what it read of the schema after a statement that changes it, but not after
      // a rollback that undoes one: without this, a table the rolled-back migrations made would
      // still exist for `tableExists`.
      clearSchemaCache()
      throw error
    }
    return result!
  }
}

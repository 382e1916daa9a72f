import GRDB
import StrataCore

extension MigrationHistory {
  /// The history a database's records hold: GRDB's names and Strata's checksums, both in the
  /// main database.
  init(_ db: Database) throws {
    let applied = try db.tableExists(grdbMigrationsTable, in: "main")
      ? Set(try String.fetchAll(db, sql: "SELECT identifier FROM main.\(grdbMigrationsTable)")) : []
    var checksums: [String: String] = [:]
    var compatibleFrom: [String: Int] = [:]
    if try db.tableExists(migrationChecksumTable, in: "main") {
      // A database an earlier version of Strata migrated has no compatibleFrom column.
      let recordsWindows = try db.columns(in: migrationChecksumTable, in: "main").contains { $0.name == "compatibleFrom" }
      for row in try Row.fetchAll(
        db, sql: "SELECT name, checksum\(recordsWindows ? ", compatibleFrom" : "") FROM main.\(migrationChecksumTable)")
      {
        let name: String = row["name"]
        if checksums[name] == nil { checksums[name] = row["checksum"] }
        if recordsWindows, let number = row["compatibleFrom"] as Int? { compatibleFrom[name] = number }
      }
    }
    self.init(applied: applied, checksums: checksums, compatibleFrom: compatibleFrom)
  }
}

extension DatabaseWriter {
  /// Migrates the database, and the files `openDatabase` attached to it, after checking that
  /// each one's history is the app's:
  ///
  /// ```swift
  /// let database = try openDatabase(.file(path))
  /// try database.migrate(StrataMigrations.all)
  /// ```
  ///
  /// The migrations a database has not run run in one transaction, with foreign keys checked
  /// before it commits, and each attached file's in one transaction of its own, committed after
  /// the main database's: a migration that stops, in any of the files, leaves every file as it
  /// was. Each is recorded as GRDB's migrator records it (by name, in `grdb_migrations`), so
  /// either can migrate the database later.
  ///
  /// Strata also records each migration's checksum when it runs (in the `strata_migrations`
  /// table), and before running anything refuses, with a `StrataError` that names the migrations:
  /// - an applied migration whose text changed since (the database would not run it again and
  ///   would differ from new ones); a database migrated before checksums were recorded adopts
  ///   the current ones;
  /// - a migration renamed or renumbered since the database ran it under its old name (it would
  ///   run again, and apply its changes twice), unless `renamed` is `.accept`;
  /// - a database a newer version of the app migrated: it ran migrations, numbered after the
  ///   app's last one, that the app does not know. See ``DatabaseReader/migrationState(_:)``.
  ///
  /// A migration the database ran that the app no longer embeds, from before the last one they
  /// have in common, is reported in the result's `warnings`.
  ///
  /// - Parameters:
  ///   - migrations: The migrations, in order; usually the generated `StrataMigrations.all`.
  ///   - checksums: `.ignore` to migrate despite edited migrations.
  ///   - renamed: `.accept` to record renamed migrations under their new names.
  /// - Returns: The main database's migrations run, a baseline recorded without running, those
  ///   recorded under a new name, and warnings.
  /// - Throws: `StrataError` for the histories above, or what a migration throws; an attached
  ///   file's errors name it.
  @discardableResult
  public func migrate(
    _ migrations: [Migration], checksums: MigrationChecksums = .verify, renamed: RenamedMigrations = .refuse
  ) throws -> MigrationResult {
    let attached = AttachedDatabases.of(self)
    var run: MigrationRun?
    try AttachedDatabase.migrating(
      (attached?.databases ?? [])[...], configuration: attached?.configuration ?? Configuration(), checksums: checksums,
      renamed: renamed
    ) {
      try writeWithoutTransaction { db in
        // The main database's connection leaves the attached files alone while they migrate on
        // connections of their own, so that neither waits for the other's locks.
        for database in attached?.databases ?? [] { try database.detach(from: db) }
        defer { for database in attached?.databases ?? [] { try? database.attach(to: db) } }
        run = try db.inMigrationTransaction {
          try MigrationRun.run(migrations, in: db, checksums: checksums, renamed: renamed)
        }
      }
    }
    // GRDB's observation does not report schema changes: live queries learn of them here.
    ExternalChanges.check(self)
    return MigrationResult(
      applied: run?.applied ?? [], recorded: run?.recorded ?? [], renamed: run?.renamed ?? [], warnings: run?.warnings ?? [])
  }
}

extension Database {
  /// Checks that the migrations this database ran, as GRDB's migrator recorded them, have the
  /// checksums they had when they ran; records the checksums of those that have none yet.
  ///
  /// - Throws: `StrataError` naming the first migration whose text changed.
  public func verifyMigrations(_ migrations: [Migration]) throws {
    guard try tableExists(grdbMigrationsTable, in: "main") else { return }
    try createChecksumTable()
    let history = try MigrationHistory(self)
    let path = try String.fetchOne(self, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'") ?? ""
    let reset =
      path.isEmpty
      ? "recreate the database" : "recreate it with `swift run strata db reset \(path) --migrations <the target's Migrations folder>`"
    if let edited = history.edited(migrations, reset: reset) { throw edited }
    for migration in migrations where history.applied.contains(migration.name) && history.checksums[migration.name] == nil {
      try recordChecksum(of: migration)
    }
  }

  /// Whether the database already holds the schema a baseline migration makes: false for a
  /// database without tables of its own, true when it has every table, index, view and trigger
  /// the migration creates, its tables with the same columns, types, keys, references and
  /// indexes.
  ///
  /// - Throws: `StrataError` naming what is missing or different when the database has some of
  ///   its own tables but not the baseline's: running the baseline would fail, and skipping it
  ///   would leave the app with tables it cannot read.
  func holdsBaseline(_ migration: Migration) throws -> Bool {
    let objectNames = "SELECT name FROM sqlite_schema WHERE type IN ('table', 'index', 'view', 'trigger') AND name NOT LIKE 'sqlite_%'"
    let existing = Set(try String.fetchAll(self, sql: objectNames)).subtracting([grdbMigrationsTable, migrationChecksumTable])
    guard !existing.isEmpty else { return false }
    // SQLite tells which objects the migration makes, and their shape, by making them in a
    // scratch database.
    let scratch = try DatabaseQueue()
    let (wanted, shapes) = try scratch.write { db in
      try db.execute(sql: migration.sql)
      let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      return (try String.fetchAll(db, sql: objectNames + " ORDER BY name"), try tables.compactMap { try TableShape($0, in: db) })
    }
    let missing = wanted.filter { !existing.contains($0) }
    guard missing.isEmpty else {
      throw StrataError(
        "the database has tables of its own but not the schema of the baseline migration \"\(migration.name)\" (it lacks \(missing.map { "\"\($0)\"" }.joined(separator: ", "))): it is not the database the schema was imported from, or it is an older version of it; migrate it to the schema that was imported first")
    }
    let mismatches = try shapes.compactMap { shape -> String? in
      let differences = try TableShape(shape.name, in: self)?.differences(from: shape) ?? []
      return differences.isEmpty ? nil : "\"\(shape.name)\": \(differences.joined(separator: ", "))"
    }
    guard mismatches.isEmpty else {
      throw StrataError(
        "the database's tables are not those of the baseline migration \"\(migration.name)\" (\(mismatches.joined(separator: "; "))): recording the baseline as run would leave the app reading tables it does not know; migrate the database to the schema that was imported first")
    }
    return true
  }

  /// Records a renamed migration under its new name, in GRDB's records and Strata's.
  func recordRename(_ rename: MigrationHistory.Rename) throws {
    try execute(sql: "UPDATE main.\(grdbMigrationsTable) SET identifier = ? WHERE identifier = ?", arguments: [rename.new, rename.old])
    try execute(sql: "UPDATE main.\(migrationChecksumTable) SET name = ? WHERE name = ?", arguments: [rename.new, rename.old])
  }

  fileprivate func createChecksumTable() throws {
    try execute(
      sql: "CREATE TABLE IF NOT EXISTS main.\(migrationChecksumTable) (name TEXT PRIMARY KEY NOT NULL, checksum TEXT NOT NULL, compatibleFrom INTEGER) STRICT")
    // A table an earlier version of Strata made gets the column; older versions read only theirs.
    if try !columns(in: migrationChecksumTable, in: "main").contains(where: { $0.name == "compatibleFrom" }) {
      try execute(sql: "ALTER TABLE main.\(migrationChecksumTable) ADD COLUMN compatibleFrom INTEGER")
    }
  }

  func recordChecksum(of migration: Migration) throws {
    guard let checksum = migration.checksum else { return }
    try createChecksumTable()
    try execute(
      sql: "INSERT OR REPLACE INTO main.\(migrationChecksumTable) (name, checksum, compatibleFrom) VALUES (?, ?, ?)",
      arguments: [migration.name, checksum, migration.compatibleFrom])
  }
}

extension Migration {
  /// A data migration written in Swift, run on SQLite in the transaction of the migrations
  /// around it: the build plugin registers `Migrations/0008_split_names.swift` as
  /// `Migration(name: "0008_split_names", checksum: …, data: Migration0008.migrate)`.
  ///
  /// - Parameters:
  ///   - name: The file's name without `.swift`.
  ///   - checksum: The SHA-256 of the file, which the database records when it runs.
  ///   - compatibleFrom: The oldest migration number whose schema keeps working after it.
  ///   - isReleased: Whether a release `strata.json` marks shipped it.
  ///   - data: The migration's work: reads and writes through `db`, with the typed builder or
  ///     raw SQL. What it throws stops the migrations, and nothing is kept.
  public init(name: String, checksum: String? = nil, compatibleFrom: Int? = nil, isReleased: Bool = false, data: @escaping @Sendable (Database) throws -> Void) {
    self.init(name: name, checksum: checksum, compatibleFrom: compatibleFrom, isReleased: isReleased, data: DataMigration(data))
  }
}

extension DatabaseMigrator {
  /// Registers migrations in order, each run in its own transaction by GRDB's migrator, which
  /// also records its checksum:
  ///
  /// ```swift
  /// var migrator = DatabaseMigrator()
  /// try migrator.registerMigrations(StrataMigrations.all)
  /// try migrator.migrate(database)
  /// ```
  ///
  /// Like any GRDB migration, one that was already applied is not run again; the migrator
  /// records applied names in its `grdb_migrations` table. To also check that applied
  /// migrations were not edited, call `db.verifyMigrations(_:)` before migrating, or use
  /// `database.migrate(_:)`, which does both.
  ///
  /// - Throws: `StrataError` when a name is already registered (GRDB would stop the process),
  ///   for example when the migrations of two modules that share file names are registered on
  ///   one migrator. Nothing is registered then.
  public mutating func registerMigrations(_ migrations: [Migration]) throws {
    var names = Set(self.migrations)
    for migration in migrations where !names.insert(migration.name).inserted {
      throw StrataError("the migration \"\(migration.name)\" is already registered on this migrator")
    }
    for migration in migrations {
      registerMigration(migration.name) { db in try db.run(migration) }
    }
  }
}

extension DatabaseReader {
  /// Where the database stands against `migrations`, without changing it: for an app extension
  /// or an older version of the app, which should not migrate a database a newer app migrated.
  ///
  /// ```swift
  /// switch try database.migrationState(StrataMigrations.all) {
  /// case .upToDate, .pending: try database.migrate(StrataMigrations.all)   // the app
  /// case .newerCompatible: break   // a newer version kept this one's schema working: use it
  /// case .newer: break   // read what this version knows; ask the user to update before writing
  /// }
  /// ```
  public func migrationState(_ migrations: [Migration]) throws -> MigrationState {
    try read { db in
      let history = try MigrationHistory(db)
      return history.state(of: try history.resolved(migrations))
    }
  }
}

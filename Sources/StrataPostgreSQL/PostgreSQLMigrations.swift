#if PostgreSQL
import StrataCore

extension Migration {
  /// A data migration written in Swift, run on PostgreSQL in the transaction of the migrations
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
  public init(
    name: String, checksum: String? = nil, compatibleFrom: Int? = nil, isReleased: Bool = false,
    data: @escaping @Sendable (PostgreSQLConnection) async throws -> Void
  ) {
    self.init(name: name, checksum: checksum, compatibleFrom: compatibleFrom, isReleased: isReleased, data: DataMigration(data))
  }
}

extension PostgreSQLDatabase {
  /// Runs the migrations the database has not run yet, all in one transaction, after checking
  /// that the database's history is the app's:
  ///
  /// ```swift
  /// try await database.migrate(StrataMigrations.all)
  /// ```
  ///
  /// Many instances of an app can start at once: one migrates, under a PostgreSQL advisory
  /// lock, and the others wait for it, find the migrations run, and go on. (The lock is the
  /// session's: it is released when migrating ends, or when the connection drops.) An instance
  /// waits at most ``Configuration/migrationLockTimeout`` (2 minutes), then throws a
  /// `StrataError` that says another session holds the lock and how to find it.
  ///
  /// Each migration's name and checksum are recorded in the `strata_migrations` table. Before
  /// running anything, it refuses, with a `StrataError` that names the migrations, as on SQLite:
  /// an applied migration whose text changed since; a migration renamed or renumbered since the
  /// database ran it under its old name (unless `renamed` is `.accept`); a database a newer
  /// version of the app migrated. A migration the database ran that the app no longer embeds is
  /// reported in the result's `warnings`. A baseline migration (`strata import`) is recorded
  /// without running on a database that already holds its tables.
  ///
  /// A check in a generated migration that finds a row the change would not keep stops the
  /// migration before it changes anything: the `StrataError` says which row, in the model's
  /// words.
  @discardableResult
  public func migrate(
    _ migrations: [Migration], checksums: MigrationChecksums = .verify, renamed: RenamedMigrations = .refuse
  ) async throws -> MigrationResult {
    try await withConnection { db in
      try await db.takeMigrationLock(waitingAtMost: configuration.migrationLockTimeout)
      do {
        let result = try await db.migrate(migrations, checksums: checksums, renamed: renamed)
        try await db.execute(raw: "SELECT pg_advisory_unlock(\(migrationLock))")
        return result
      } catch {
        try? await db.execute(raw: "SELECT pg_advisory_unlock(\(migrationLock))")
        throw error
      }
    }
  }

  /// Where the database stands against `migrations`, without changing it: for a process that
  /// should not migrate (an older version of the app, a tool that only reads).
  public func migrationState(_ migrations: [Migration]) async throws -> MigrationState {
    try await withConnection { db in
      let history = try await db.migrationHistory()
      return history.state(of: try history.resolved(migrations))
    }
  }
}

/// The advisory lock migrators take: one number for every Strata app, as `pg_advisory_lock`
/// keys are per database (`'Strata'` in ASCII).
private let migrationLock: Int64 = 0x5374_7261_7461

extension PostgreSQLConnection {
  /// Takes the migration lock, waiting at most `timeout` for the session that holds it: through
  /// `lock_timeout`, which PostgreSQL applies to advisory locks too, set for this statement only.
  fileprivate func takeMigrationLock(waitingAtMost timeout: Duration) async throws {
    let milliseconds = max(1, Int(timeout / .milliseconds(1)))
    try await execute(raw: "SET lock_timeout = \(milliseconds)")
    do {
      try await execute(raw: "SELECT pg_advisory_lock(\(migrationLock))")
      try await execute(raw: "RESET lock_timeout")
    } catch let error as PostgreSQLError where error.sqlState == "55P03" {
      try? await execute(raw: "RESET lock_timeout")
      throw StrataError(
        "another session has held Strata's migration lock for \(timeout) (pg_advisory_lock(\(migrationLock))): an instance is still migrating this database, or one that died left its session open. Find it with SELECT pid, backend_start, state, query FROM pg_stat_activity WHERE pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = \(migrationLock & 0xFFFF_FFFF)), and end a dead one with pg_terminate_backend(pid); or raise Configuration.migrationLockTimeout")
    } catch {
      try? await execute(raw: "RESET lock_timeout")
      throw error
    }
  }

  /// Migrates on this connection, without the lock: for a caller that holds it, or a scratch
  /// schema no other session migrates.
  func migrate(
    _ migrations: [Migration], checksums: MigrationChecksums, renamed: RenamedMigrations
  ) async throws -> MigrationResult {
    try await execute(
      raw: "CREATE TABLE IF NOT EXISTS \(migrationChecksumTable) (name text PRIMARY KEY, checksum text, \"appliedAt\" timestamptz NOT NULL DEFAULT now())")
    // A table an earlier version of Strata made gets the column; older versions read only theirs.
    try await execute(raw: "ALTER TABLE \(migrationChecksumTable) ADD COLUMN IF NOT EXISTS \"compatibleFrom\" integer")
    let history = try await migrationHistory()
    let migrations = try history.resolved(migrations)
    let (renames, warnings) = try history.plan(migrations, renamed: renamed)
    if checksums == .verify, let edited = history.edited(migrations, reset: "drop and create the development database again") { throw edited }
    var done = history.applied.union(renames.map(\.new))
    var applied: [String] = []
    var recorded: [String] = []
    // One transaction for every pending migration, as on SQLite: one that stops leaves the
    // database as it was before the first.
    try await inTransaction(begin: "BEGIN") { db in
      for rename in renames {
        try await sql("UPDATE \(raw: migrationChecksumTable) SET name = \(rename.new) WHERE name = \(rename.old)").execute(db)
      }
      // A history written before checksums were recorded adopts the current ones.
      for migration in migrations where history.applied.contains(migration.name) && history.checksums[migration.name] == nil {
        guard let checksum = migration.checksum else { continue }
        try await sql("UPDATE \(raw: migrationChecksumTable) SET checksum = \(checksum) WHERE name = \(migration.name)").execute(db)
      }
      for migration in migrations where !done.contains(migration.name) {
        var alreadyHeld = MigrationHistory.isRecordedWithoutRunning(migration, after: done)
        if !alreadyHeld, migration.isBaseline { alreadyHeld = try await db.holdsBaseline(migration) }
        done.insert(migration.name)
        if !alreadyHeld, let data = migration.data {
          guard let body = data.body as? @Sendable (PostgreSQLConnection) async throws -> Void else {
            throw DataMigration.wrongRuntime(migration.name, expected: "(PostgreSQLConnection) async throws -> Void")
          }
          do {
            try await body(db)
          } catch {
            throw DataMigration.failure(of: migration.name, error)
          }
        } else if !alreadyHeld {
          do {
            try await db.run(script: migration.sql)
          } catch let failure as PostgreSQLScript.Failure {
            let error = failure.error
            if error.sqlState == "P0001", error.message.hasPrefix("strata: ") {
              throw StrataError("the migration \"\(migration.name)\" stopped before changing anything: \(error.message.dropFirst("strata: ".count))")
            }
            throw StrataError("the migration \"\(migration.name)\" failed at line \(failure.line), and changed nothing: \(error)")
          }
        }
        let checksum = AnyQueryExpression<String?>(migration.checksum.queryFragment)
        let compatibleFrom = AnyQueryExpression<Int?>(migration.compatibleFrom.queryFragment)
        try await sql(
          #"INSERT INTO \#(raw: migrationChecksumTable) (name, checksum, "compatibleFrom") VALUES (\#(migration.name), \#(checksum), \#(compatibleFrom))"#
        ).execute(db)
        if alreadyHeld { recorded.append(migration.name) } else { applied.append(migration.name) }
      }
    }
    return MigrationResult(applied: applied, recorded: recorded, renamed: renames.map(\.new), warnings: warnings)
  }

  /// The migrations the database ran, with their checksums; none before the first migration.
  fileprivate func migrationHistory() async throws -> MigrationHistory {
    let exists = try await sql("SELECT to_regclass(\(migrationChecksumTable)) IS NOT NULL", as: Bool.self).fetchOne(self) ?? false
    guard exists else { return MigrationHistory(applied: [], checksums: [:]) }
    // A database an earlier version of Strata migrated has no compatibleFrom column.
    let recordsWindows = try await sql(
      "SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = \(migrationChecksumTable) AND column_name = 'compatibleFrom')",
      as: Bool.self
    ).fetchOne(self) ?? false
    let rows = try await sql(
      "SELECT name, checksum, \(raw: recordsWindows ? #""compatibleFrom""# : "NULL::integer") FROM \(raw: migrationChecksumTable)", as: (String, String?, Int?).self
    ).fetchAll(self)
    return MigrationHistory(
      applied: Set(rows.map(\.0)),
      checksums: Dictionary(rows.compactMap { name, checksum, _ in checksum.map { (name, $0) } }, uniquingKeysWith: { first, _ in first }),
      compatibleFrom: Dictionary(rows.compactMap { name, _, number in number.map { (name, $0) } }, uniquingKeysWith: { first, _ in first }))
  }

  /// Whether the database already holds the schema a baseline migration makes: false for a
  /// database without tables of its own, true when it has every table and view the migration
  /// creates, its tables with the same columns, types and nullability.
  ///
  /// PostgreSQL tells what the migration makes by making it in a schema of its own, in this
  /// transaction, which is rolled back to a savepoint afterwards.
  ///
  /// - Throws: `StrataError` naming what is missing or different when the database has some
  ///   tables of its own but not the baseline's.
  fileprivate func holdsBaseline(_ migration: Migration) async throws -> Bool {
    let schema = try await sql("SELECT current_schema()", as: String.self).fetchOne(self) ?? "public"
    let existing = try await shapes(in: schema).filter { $0.key != migrationChecksumTable }
    guard !existing.isEmpty else { return false }
    try await execute(raw: "SAVEPOINT strata_baseline")
    try await execute(raw: "CREATE SCHEMA strata_baseline")
    try await execute(raw: "SET LOCAL search_path TO strata_baseline")
    try await run(script: migration.sql)
    let wanted = try await shapes(in: "strata_baseline")
    try await execute(raw: "ROLLBACK TO SAVEPOINT strata_baseline")
    let missing = wanted.keys.filter { existing[$0] == nil }.sorted()
    guard missing.isEmpty else {
      throw StrataError(
        "the database has tables of its own but not the schema of the baseline migration \"\(migration.name)\" (it lacks \(missing.map { "\"\($0)\"" }.joined(separator: ", "))): it is not the database the schema was imported from, or it is an older version of it; migrate it to the schema that was imported first")
    }
    let mismatches = wanted.keys.sorted().compactMap { name -> String? in
      let want = wanted[name]!, have = existing[name]!
      let differences = want.subtracting(have).sorted().map { "it lacks \($0)" } + have.subtracting(want).sorted().map { "it has \($0)" }
      return differences.isEmpty ? nil : "\"\(name)\": \(differences.joined(separator: ", "))"
    }
    guard mismatches.isEmpty else {
      throw StrataError(
        "the database's tables are not those of the baseline migration \"\(migration.name)\" (\(mismatches.joined(separator: "; "))): recording the baseline as run would leave the app reading tables it does not know; migrate the database to the schema that was imported first")
    }
    return true
  }

  /// The tables and views of `schema`, each as its columns: `"name" type [NOT NULL]`.
  private func shapes(in schema: String) async throws -> [String: Set<String>] {
    let rows = try await sql(
      """
      SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = \(schema) AND c.relkind IN ('r', 'v', 'p')
      """, as: (String, String?, String?, Bool?).self
    ).fetchAll(self)
    var shapes: [String: Set<String>] = [:]
    for (table, column, type, notNull) in rows {
      var columns = shapes[table, default: []]
      if let column, let type { columns.insert("\"\(column)\" \(type)\(notNull == true ? " NOT NULL" : "")") }
      shapes[table] = columns
    }
    return shapes
  }
}
#endif

import GRDB

/// A migration file embedded by the Strata build plugin: its name (the file name without
/// `.sql`) and its SQL.
public struct Migration: Sendable, Hashable {
  /// The migration's name in GRDB's `grdb_migrations` table.
  public let name: String
  /// The statements to run.
  public let sql: String

  /// A migration; the build plugin generates these from the `Migrations` folder.
  public init(name: String, sql: String) {
    self.name = name
    self.sql = sql
  }
}

extension DatabaseMigrator {
  /// Registers migrations in order, each run in its own transaction by GRDB's migrator:
  ///
  /// ```swift
  /// var migrator = DatabaseMigrator()
  /// try migrator.registerMigrations(StrataMigrations.all)
  /// try migrator.migrate(database)
  /// ```
  ///
  /// Like any GRDB migration, one that was already applied is not run again; the migrator
  /// records applied names in its `grdb_migrations` table.
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
      registerMigration(migration.name) { db in
        try db.execute(sql: migration.sql)
      }
    }
  }
}

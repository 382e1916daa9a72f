/// A migration file embedded by the Strata build plugin: its name (the file name without
/// `.sql` or `.swift`), its SQL or its Swift code, and the checksum of the file.
///
/// The same value runs on either database: `database.migrate(StrataMigrations.all)` on SQLite
/// (through GRDB's migrator) and on PostgreSQL (`StrataPostgreSQL`).
public struct Migration: Sendable, Hashable {
  /// The migration's name in the database's record of the migrations it ran.
  public let name: String
  /// The statements to run; empty for a data migration written in Swift.
  public let sql: String
  /// The Swift code of a data migration (`Migrations/0008_split_names.swift`), which runs
  /// instead of `sql`; nil for an SQL migration.
  public let data: DataMigration?
  /// For a squash (`strata migrations squash`), the migrations it replaces, oldest first, by
  /// name and checksum, with their SQL or Swift code while the app still embeds them (from
  /// `Migrations/Squashed`). A new database runs the squash alone; a database that ran all of
  /// them records the squash without running it; one that ran some runs the others first.
  /// Empty for other migrations.
  public let replaces: [Migration]
  /// Whether the migration shipped in a release `strata.json` marks: only development
  /// databases can have run a newer one, which an edit then concerns alone.
  public let isReleased: Bool
  /// The SHA-256 of `sql` as the build plugin computed it, recorded when the migration runs so
  /// that a later edit of an applied migration is caught; nil for a migration written in code.
  public let checksum: String?
  /// Whether the migration is the schema of a database that existed before Strata (written by
  /// `strata import`): a database that already holds that schema records it as applied without
  /// running it, and a new database runs it.
  public let isBaseline: Bool
  /// The number of the oldest migration whose schema keeps working after this one runs: the
  /// compatibility window it was written under (`"compatibleWith"` in `strata.json`). The
  /// database records it, so that an older version of the app whose newest migration is that
  /// one or later can use a database this one migrated. Nil for a migration that promises no
  /// such thing.
  public let compatibleFrom: Int?

  /// A migration; the build plugin generates these from the `Migrations` folder.
  public init(
    name: String, checksum: String? = nil, isBaseline: Bool = false, compatibleFrom: Int? = nil, isReleased: Bool = false,
    replaces: [Migration] = [], sql: String
  ) {
    self.init(
      name: name, checksum: checksum, isBaseline: isBaseline, compatibleFrom: compatibleFrom, isReleased: isReleased, replaces: replaces,
      sql: sql, data: nil)
  }

  /// A data migration written in Swift, for a database's runtime to run (each runtime has an
  /// initializer that takes its own kind of function).
  public init(name: String, checksum: String? = nil, compatibleFrom: Int? = nil, isReleased: Bool = false, data: DataMigration) {
    self.init(
      name: name, checksum: checksum, isBaseline: false, compatibleFrom: compatibleFrom, isReleased: isReleased, replaces: [], sql: "",
      data: data)
  }

  /// A migration a squash replaces that the app no longer embeds (its file was deleted from
  /// `Migrations/Squashed`): its name and checksum only, for databases that ran it.
  public init(name: String, checksum: String?, replacedWithoutItsCode: Void) {
    self.init(name: name, checksum: checksum, isBaseline: false, compatibleFrom: nil, isReleased: true, replaces: [], sql: "", data: nil)
    isEmbedded = false
  }

  private init(
    name: String, checksum: String?, isBaseline: Bool, compatibleFrom: Int?, isReleased: Bool, replaces: [Migration], sql: String,
    data: DataMigration?
  ) {
    self.name = name
    self.sql = sql
    self.checksum = checksum
    self.isBaseline = isBaseline
    self.compatibleFrom = compatibleFrom
    self.data = data
    self.replaces = replaces
    self.isReleased = isReleased
  }

  /// Whether the app embeds the migration's SQL or code (false for a squashed migration whose
  /// file was deleted), so that it can run.
  public private(set) var isEmbedded = true
}

/// The body of a data migration written in Swift: a function of the runtime of the database it
/// was written for (`(Database) throws -> Void` on SQLite, `(PostgreSQLConnection) async throws
/// -> Void` on PostgreSQL), which that runtime runs in the migrations' transaction.
///
/// Two are equal when their migrations are: the checksum of a data migration covers its source.
public struct DataMigration: Sendable, Hashable {
  /// The function, as the runtime that made it reads it back.
  package let body: any Sendable

  package init(_ body: any Sendable) {
    self.body = body
  }

  public static func == (lhs: DataMigration, rhs: DataMigration) -> Bool { true }
  public func hash(into hasher: inout Hasher) {}

  /// The error a data migration's failure becomes: it names the migration and says that
  /// nothing of the run is kept, since the migrations run in one transaction.
  package static func failure(of migration: String, _ error: any Error) -> StrataError {
    StrataError(
      "the data migration \"\(migration)\" failed, so the migrations stopped before changing anything (they run in one transaction): \(error)")
  }

  /// The error for a data migration written for another database's runtime.
  package static func wrongRuntime(_ migration: String, expected: String) -> StrataError {
    StrataError("the data migration \"\(migration)\" is not a function of \(expected): it was written for another database's runtime")
  }
}

/// Whether migrating checks that the migrations a database already ran are still the ones the
/// app embeds.
public enum MigrationChecksums: Sendable {
  /// Refuse to migrate when an applied migration's text changed (the default).
  case verify
  /// Migrate anyway: for a database whose history you rewrote on purpose.
  case ignore
}

/// Whether `migrate` records a migration that was renamed or renumbered after the database ran
/// it under its old name.
public enum RenamedMigrations: Sendable {
  /// Refuse to migrate, naming the migration (the default): running it again would apply its
  /// changes twice.
  case refuse
  /// Record the new name as the one the database ran, and run nothing for it.
  case accept
}

/// Where a database stands against the migrations an app embeds.
public enum MigrationState: Sendable, Equatable {
  /// The database ran every migration, and none the app does not know.
  case upToDate
  /// The database has not run these migrations yet; `migrate` runs them.
  case pending([String])
  /// A newer version of the app migrated the database: it ran these migrations, which this app
  /// does not know. `migrate` refuses it; an app that only reads can often still read it.
  case newer([String])
  /// A newer version of the app migrated the database, keeping this version's schema working:
  /// each of these migrations was written under a compatibility window that includes this
  /// app's newest migration. This version reads and writes the database as it is; `migrate`
  /// runs nothing.
  case newerCompatible([String])
}

/// What `migrate` did.
public struct MigrationResult: Sendable, Equatable {
  /// The migrations run, in order.
  public var applied: [String]
  /// Baseline migrations (`strata import`) recorded as run without running, because the database
  /// already held their tables.
  public var recorded: [String]
  /// Renamed migrations recorded under their new names, with `renamed: .accept`.
  public var renamed: [String]
  /// What the database's history holds that the app does not, said for a log: migrations the
  /// database ran that the app no longer embeds. Nothing is done about them.
  public var warnings: [String]

  /// A result, for comparing with one `migrate` returned.
  public init(applied: [String], recorded: [String] = [], renamed: [String], warnings: [String]) {
    self.applied = applied
    self.recorded = recorded
    self.renamed = renamed
    self.warnings = warnings
  }
}

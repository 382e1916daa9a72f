import GRDB

/// What a database's records of the migrations it ran say about the migrations an app embeds.
///
/// GRDB's migrator records applied migrations by name (`grdb_migrations`) and runs every
/// registered name it has not recorded. That is wrong in three cases that Strata's own record of
/// checksums (`strata_migrations`) can tell apart:
/// - a migration renamed or renumbered after the database ran it: an unapplied name whose
///   checksum the database recorded under another name would apply its changes twice;
/// - a database a newer version of the app migrated: it ran migrations this app does not know,
///   numbered after this app's last one, and this app's next migration would run on a schema it
///   was not written for;
/// - a migration deleted from the app after the database ran it: the database keeps its changes
///   and new databases do not get them.
///
/// Names the database recorded without a checksum (a GRDB app's own migrations from before it
/// adopted Strata, migrations written in code) are history Strata did not write, and are left
/// alone.
struct MigrationHistory {
  /// The names GRDB's migrator recorded.
  let applied: Set<String>
  /// The checksums Strata recorded, by name.
  let checksums: [String: String]

  init(_ db: Database) throws {
    applied = try db.tableExists("grdb_migrations", in: "main")
      ? Set(try String.fetchAll(db, sql: "SELECT identifier FROM main.grdb_migrations")) : []
    checksums = try db.tableExists(checksumTable, in: "main")
      ? Dictionary(
        try Row.fetchAll(db, sql: "SELECT name, checksum FROM main.\(checksumTable)").map { ($0["name"] as String, $0["checksum"] as String) },
        uniquingKeysWith: { first, _ in first })
      : [:]
  }

  /// A migration the app embeds under `new` that the database ran as `old`.
  struct Rename: Equatable {
    var old: String
    var new: String
  }

  /// The migrations the database ran that `migrations` does not hold, with checksums.
  func unknown(_ migrations: [Migration]) -> [String] {
    let known = Set(migrations.map(\.name))
    return checksums.keys.filter { applied.contains($0) && !known.contains($0) }.sorted(by: MigrationOrder.precedes)
  }

  /// The unapplied migrations whose text the database ran under another name.
  func renames(in migrations: [Migration]) -> [Rename] {
    var unknownByChecksum: [String: [String]] = [:]
    for name in unknown(migrations) { unknownByChecksum[checksums[name]!, default: []].append(name) }
    var claimed: Set<String> = []
    return migrations.compactMap { migration in
      guard !applied.contains(migration.name), let checksum = migration.checksum,
        let old = unknownByChecksum[checksum]?.first(where: { !claimed.contains($0) })
      else { return nil }
      claimed.insert(old)
      return Rename(old: old, new: migration.name)
    }
  }

  /// The unknown migrations that are not renames, split into those that come after the last
  /// migration the database and the app have in common (a newer version of the app ran them, or
  /// the app's newest was deleted) and those before it (deleted from the middle of the app's
  /// history).
  func foreign(_ migrations: [Migration], renames: [Rename]) -> (newer: [String], deleted: [String]) {
    let renamed = Set(renames.map(\.old))
    let others = unknown(migrations).filter { !renamed.contains($0) }
    guard let last = migrations.map(\.name).filter(applied.contains).max(by: MigrationOrder.precedes) else {
      return (others, [])
    }
    return (others.filter { MigrationOrder.precedes(last, $0) }, others.filter { !MigrationOrder.precedes(last, $0) })
  }

  /// The migrations of `migrations` the database has not run.
  func pending(_ migrations: [Migration]) -> [String] {
    migrations.map(\.name).filter { !applied.contains($0) }
  }
}

/// The order of migration names: by the number they start with (`0012_…` after `0009_…`, whatever
/// the number of digits), then by name.
enum MigrationOrder {
  static func precedes(_ a: String, _ b: String) -> Bool {
    switch (number(a), number(b)) {
    case let (x?, y?) where x != y: x < y
    default: a < b
    }
  }

  private static func number(_ name: String) -> Int? {
    Int(name.prefix { $0.isASCII && $0.isNumber })
  }
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

/// What `migrate` did.
public struct MigrationResult: Sendable, Equatable {
  /// The migrations run, in order (a baseline recorded without running included).
  public var applied: [String]
  /// Renamed migrations recorded under their new names, with `renamed: .accept`.
  public var renamed: [String]
  /// What the database's history holds that the app does not, said for a log: migrations the
  /// database ran that the app no longer embeds. Nothing is done about them.
  public var warnings: [String]

  /// A result, for comparing with one `migrate` returned.
  public init(applied: [String], renamed: [String], warnings: [String]) {
    self.applied = applied
    self.renamed = renamed
    self.warnings = warnings
  }
}

extension DatabaseReader {
  /// Where the database stands against `migrations`, without changing it: for an app extension
  /// or an older version of the app, which should not migrate a database a newer app migrated.
  ///
  /// ```swift
  /// switch try database.migrationState(StrataMigrations.all) {
  /// case .upToDate, .pending: try database.migrate(StrataMigrations.all)   // the app
  /// case .newer: break   // read what this version knows; ask the user to update before writing
  /// }
  /// ```
  public func migrationState(_ migrations: [Migration]) throws -> MigrationState {
    try read { db in
      let history = try MigrationHistory(db)
      let renames = history.renames(in: migrations)
      let newer = history.foreign(migrations, renames: renames).newer
      if !newer.isEmpty { return .newer(newer) }
      let renamed = Set(renames.map(\.new))
      let pending = history.pending(migrations).filter { !renamed.contains($0) }
      return pending.isEmpty ? .upToDate : .pending(pending)
    }
  }
}

/// What a database's records of the migrations it ran say about the migrations an app embeds.
///
/// A migrator records applied migrations by name and runs every name it has not recorded. That
/// is wrong in three cases that Strata's record of checksums (`strata_migrations`) can tell apart:
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
/// alone. Each database's migrator reads the records its own way; the decisions are these, for
/// both.
package struct MigrationHistory: Sendable {
  /// The names the migrator recorded.
  package let applied: Set<String>
  /// The checksums Strata recorded, by name.
  package let checksums: [String: String]
  /// The oldest migration number whose schema each migration keeps working
  /// (``Migration/compatibleFrom``), by name, where it recorded one.
  package let compatibleFrom: [String: Int]

  package init(applied: Set<String>, checksums: [String: String], compatibleFrom: [String: Int] = [:]) {
    self.applied = applied
    self.checksums = checksums
    self.compatibleFrom = compatibleFrom
  }

  /// The migrations as this database takes them. A squash (``Migration/replaces``) the
  /// database ran none of the migrations of stays as it is: a new database runs it. For one it
  /// ran some or all of, the migrations it replaces come first (squashes among them resolved the
  /// same way), then the squash, which migrating records without running
  /// (``isRecordedWithoutRunning(_:after:)``).
  ///
  /// - Throws: `StrataError` when the database ran some of a squash's migrations and the app no
  ///   longer embeds one it did not run: this version cannot upgrade it.
  package func resolved(_ migrations: [Migration]) throws -> [Migration] {
    try migrations.flatMap { migration -> [Migration] in
      guard !migration.replaces.isEmpty, ranAny(of: migration) else { return [migration] }
      let replaced = try resolved(migration.replaces)
      if let missing = replaced.first(where: { !$0.isEmbedded && !applied.contains($0.name) }) {
        throw StrataError(
          "this database ran some of the migrations squashed into \"\(migration.name)\" but not \"\(missing.name)\", which this version of the app no longer embeds (its file was deleted from Migrations/Squashed): it cannot upgrade this database. Restore the squashed files, or upgrade the database with a version of the app from before they were deleted")
      }
      return replaced + [migration]
    }
  }

  private func ranAny(of squash: Migration) -> Bool {
    squash.replaces.contains { applied.contains($0.name) || (!$0.replaces.isEmpty && ranAny(of: $0)) }
  }

  /// Whether migrating records `migration` without running it: a squash whose migrations the
  /// database ran, before or in this run (`done`).
  package static func isRecordedWithoutRunning(_ migration: Migration, after done: Set<String>) -> Bool {
    !migration.replaces.isEmpty && migration.replaces.allSatisfy { done.contains($0.name) }
  }

  /// A migration the app embeds under `new` that the database ran as `old`.
  package struct Rename: Equatable, Sendable {
    package var old: String
    package var new: String
  }

  /// The migrations the database ran that `migrations` does not hold, with checksums.
  func unknown(_ migrations: [Migration]) -> [String] {
    let known = Set(migrations.map(\.name))
    return checksums.keys.filter { applied.contains($0) && !known.contains($0) }.sorted(by: MigrationOrder.precedes)
  }

  /// The unapplied migrations whose text the database ran under another name.
  package func renames(in migrations: [Migration]) -> [Rename] {
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
  package func foreign(_ migrations: [Migration], renames: [Rename]) -> (newer: [String], deleted: [String]) {
    let renamed = Set(renames.map(\.old))
    let others = unknown(migrations).filter { !renamed.contains($0) }
    guard let last = migrations.map(\.name).filter(applied.contains).max(by: MigrationOrder.precedes) else {
      return (others, [])
    }
    return (others.filter { MigrationOrder.precedes(last, $0) }, others.filter { !MigrationOrder.precedes(last, $0) })
  }

  /// Whether the newer migrations `newer` each keep the schema of the app's newest migration
  /// working, so that this version can use the database as it is.
  func keepsWorking(_ newer: [String], for migrations: [Migration]) -> Bool {
    guard let last = migrations.last, applied.contains(last.name), let number = Int(last.name.prefix { $0.isASCII && $0.isNumber }) else {
      return false
    }
    return newer.allSatisfy { name in compatibleFrom[name].map { $0 <= number } ?? false }
  }

  /// The migrations of `migrations` the database has not run.
  func pending(_ migrations: [Migration]) -> [String] {
    migrations.map(\.name).filter { !applied.contains($0) }
  }

  /// Where the database stands against `migrations`.
  package func state(of migrations: [Migration]) -> MigrationState {
    let renames = renames(in: migrations)
    let newer = foreign(migrations, renames: renames).newer
    if !newer.isEmpty { return keepsWorking(newer, for: migrations) ? .newerCompatible(newer) : .newer(newer) }
    let renamed = Set(renames.map(\.new))
    let pending = pending(migrations).filter { !renamed.contains($0) }
    return pending.isEmpty ? .upToDate : .pending(pending)
  }

  /// What migrating with `migrations` may do before anything runs: the renames to record and the
  /// warnings to return.
  ///
  /// - Throws: ``StrataError`` for renamed migrations (unless `renamed` is `.accept`) and for a
  ///   history a newer version of the app wrote, unless it keeps this version's schema working
  ///   (then a warning says so, and nothing runs: the app's migrations all ran).
  package func plan(_ migrations: [Migration], renamed: RenamedMigrations) throws -> (renames: [Rename], warnings: [String]) {
    let renames = renames(in: migrations)
    if !renames.isEmpty, renamed == .refuse {
      throw StrataError(
        renames.map { "the migration \"\($0.new)\" is \"\($0.old)\" renamed (it has the same checksum), which this database already ran" }
          .joined(separator: "; ")
          + ": running it again would apply its changes twice. Give it back its old name, or migrate with `renamed: .accept` to record the new one")
    }
    let (newer, deleted) = foreign(migrations, renames: renames)
    if !newer.isEmpty, keepsWorking(newer, for: migrations) {
      return (
        renames,
        [
          "a newer version of the app migrated this database (\(newer.map { "\"\($0)\"" }.joined(separator: ", "))) under a compatibility window that keeps this version's schema working: this version uses it as it is"
        ]
      )
    }
    if !newer.isEmpty {
      throw StrataError(
        "a newer version of the app migrated this database: it ran \(newer.map { "\"\($0)\"" }.joined(separator: ", ")), which this version does not know, so its own migrations would run on a schema they were not written for. Update the app (or, if the app's newest migration was deleted, restore it); code that only reads can check `migrationState(_:)` instead of migrating")
    }
    let warnings = deleted.map { name in
      "the database ran the migration \"\(name)\", which the app no longer embeds: it keeps that migration's changes, and new databases do not get them; restore the file if it was deleted by mistake"
    }
    return (renames, warnings)
  }

  /// The first applied migration whose text changed since the database ran it, as an error; nil
  /// when none did. Migrations without a recorded checksum are not compared.
  ///
  /// - Parameter reset: How to recreate this database, for a migration no release shipped
  ///   (``Migration/isReleased``), which only development databases can have run.
  package func edited(_ migrations: [Migration], reset: String) -> StrataError? {
    for migration in migrations where applied.contains(migration.name) {
      guard let checksum = migration.checksum, let previous = checksums[migration.name], previous != checksum else { continue }
      let changed =
        "the migration \"\(migration.name)\" changed after this database ran it (checksum \(previous.prefix(12))… then, \(checksum.prefix(12))… now): the database would not run it again and would differ from new ones."
      guard migration.isReleased else {
        return StrataError(
          changed
            + " No release strata.json marks shipped it, so only development databases like this one can have run it: if you are still writing it, \(reset), and launch again. Otherwise undo the edit and make the change in a new migration")
      }
      return StrataError(
        changed
          + " It shipped in a release: undo the edit and make the change in a new migration, or migrate with `checksums: .ignore` if you rewrote the history on purpose")
    }
    return nil
  }
}

/// The order of migration names: by the number they start with (`0012_…` after `0009_…`, whatever
/// the number of digits), then by name.
package enum MigrationOrder {
  package static func precedes(_ a: String, _ b: String) -> Bool {
    switch (number(a), number(b)) {
    case let (x?, y?) where x != y: x < y
    default: a < b
    }
  }

  private static func number(_ name: String) -> Int? {
    Int(name.prefix { $0.isASCII && $0.isNumber })
  }
}

/// The table where Strata records the checksum of each migration a database ran.
package let migrationChecksumTable = "strata_migrations"

import Foundation
import GRDB
import StrataCore
import StrataSQL

/// A database file attached to every connection of another under a schema name, for models
/// declared `// @Table(schema: "name")`: a cache, or a file shared with an app extension.
///
/// ```swift
/// let database = try openDatabase(
///   .file(appPath),
///   attaching: [AttachedDatabase("cache", at: cachePath, migrations: StrataMigrations.attached)])
/// try database.migrate(StrataMigrations.all)
/// // CacheEntry.all: SELECT … FROM "cache"."cacheEntries"
/// ```
///
/// The attached file has migrations of its own (the target's `Migrations/cache/`), with their own
/// history in that file. ``GRDB/DatabaseWriter/migrate(_:checksums:renamed:)`` runs them with the
/// main database's, as one upgrade: when a migration of either stops, neither file changes.
/// Statements join across the two (`CacheEntry.join(Game.all) { … }`) and a transaction spans
/// both; a foreign key cannot (SQLite enforces references within one database only).
public struct AttachedDatabase: Sendable, Hashable {
  /// The schema name statements qualify the file's tables with.
  public var name: String
  /// The database file; created if it does not exist.
  public var path: String
  /// The migrations that make the file's tables, in order.
  public var migrations: [Migration]

  /// A file to attach as `name`, with its migrations.
  public init(_ name: String, at path: String, migrations: [Migration] = []) {
    self.name = name
    self.path = path
    self.migrations = migrations
  }

  /// A file to attach as `name`, with its migrations picked from the generated
  /// `StrataMigrations.attached` by that name (none when the target has no folder for it).
  public init(_ name: String, at path: String, migrations: [String: [Migration]]) {
    self.init(name, at: path, migrations: migrations[name] ?? [])
  }
}

extension AttachedDatabase {
  /// Puts the file of a pool's attached database in WAL mode, as the pool's own is, so that its
  /// readers do not wait for its writer.
  func prepare(pooled: Bool, configuration: Configuration) throws {
    guard pooled else { return }
    do {
      try DatabasePool(path: path, configuration: configuration).close()
    } catch {
      throw StrataError("the attached database \"\(name)\" (\(path)): \(error)")
    }
  }

  /// Runs each file's pending migrations in a transaction on a connection of its own (where the
  /// file is `main`, as its migrations expect), then `body`, which migrates the main database,
  /// and commits the files' transactions only when `body` returned: a migration that stops,
  /// anywhere, changes no file.
  ///
  /// The main database commits first. SQLite makes a commit atomic across files only in
  /// rollback-journal mode, and across separate connections never: a crash between the commits
  /// leaves the main database migrated and a file not yet, which the next `migrate` finishes
  /// (its migrations already ran once on the same rows).
  static func migrating(
    _ attached: ArraySlice<AttachedDatabase>, configuration: Configuration, checksums: MigrationChecksums,
    renamed: RenamedMigrations, then body: () throws -> Void
  ) throws {
    guard let database = attached.first else { return try body() }
    var bodyError: (any Error)?
    do {
      let queue = try DatabaseQueue(path: database.path, configuration: configuration)
      defer { try? queue.close() }
      try queue.writeWithoutTransaction { db in
        try db.inMigrationTransaction {
          _ = try MigrationRun.run(database.migrations, in: db, checksums: checksums, renamed: renamed)
          do {
            try migrating(attached.dropFirst(), configuration: configuration, checksums: checksums, renamed: renamed, then: body)
          } catch {
            bodyError = error
            throw error
          }
        }
      }
    } catch {
      // What the main database or a later file threw is theirs to name.
      if let bodyError { throw bodyError }
      throw StrataError("the attached database \"\(database.name)\" (\(database.path)): \(error)")
    }
  }

  /// `ATTACH DATABASE ? AS "name"`, with the path bound.
  func attach(to db: Database) throws {
    try db.execute(sql: "ATTACH DATABASE ? AS " + SQLQuoting.identifier(name), arguments: [path])
  }

  /// `DETACH DATABASE "name"`.
  func detach(from db: Database) throws {
    try db.execute(sql: "DETACH DATABASE " + SQLQuoting.identifier(name))
  }
}

/// The attached databases `openDatabase` gave each writer, which `migrate` migrates with the main
/// one. Writers are remembered weakly, by identity.
enum AttachedDatabases {
  private struct Entry {
    weak var writer: AnyObject?
    var databases: [AttachedDatabase]
    var configuration: Configuration
  }

  nonisolated(unsafe) private static var entries: [ObjectIdentifier: Entry] = [:]
  private static let lock = NSLock()

  static func register(_ databases: [AttachedDatabase], configuration: Configuration, for writer: any DatabaseWriter) {
    let object = writer as AnyObject
    lock.withLock {
      entries = entries.filter { $0.value.writer != nil }
      entries[ObjectIdentifier(object)] = Entry(writer: object, databases: databases, configuration: configuration)
    }
  }

  /// The files attached to `writer`'s connections, and the configuration to open them with.
  static func of(_ writer: any DatabaseWriter) -> (databases: [AttachedDatabase], configuration: Configuration)? {
    let object = writer as AnyObject
    return lock.withLock {
      guard let entry = entries[ObjectIdentifier(object)], entry.writer === object else { return nil }
      return (entry.databases, entry.configuration)
    }
  }
}

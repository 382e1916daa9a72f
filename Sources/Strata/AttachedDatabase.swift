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
/// history in that file: ``openDatabase(_:pooled:attaching:configuration:functions:)`` runs them
/// on the file, as ``GRDB/DatabaseWriter/migrate(_:checksums:renamed:)`` runs the main
/// database's, before it attaches it. Statements join across the two (`CacheEntry.join(Game.all)
/// { … }`) and a transaction spans both; a foreign key cannot (SQLite enforces references within
/// one database only).
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
  /// Runs the file's migrations on a connection of its own, which closes before the file is
  /// attached; a pool's attached file is put in WAL mode, as the pool's own is, so that its
  /// readers do not wait for its writer.
  func migrate(pooled: Bool, configuration: Configuration) throws {
    guard !migrations.isEmpty || pooled else { return }
    do {
      let writer: any DatabaseWriter = pooled
        ? try DatabasePool(path: path, configuration: configuration)
        : try DatabaseQueue(path: path, configuration: configuration)
      try writer.migrate(migrations)
      try writer.close()
    } catch {
      throw StrataError("the attached database \"\(name)\" (\(path)): \(error)")
    }
  }

  /// `ATTACH DATABASE ? AS "name"`, with the path bound.
  func attach(to db: Database) throws {
    try db.execute(sql: "ATTACH DATABASE ? AS " + SQLQuoting.identifier(name), arguments: [path])
  }
}

import Foundation
import GRDB
import GRDBSQLite
import StrataCore

/// Where a database lives.
public enum DatabaseLocation: Sendable, Hashable {
  /// A private in-memory database, gone when the connection closes.
  case inMemory
  /// A database file at a path; created if it does not exist.
  case file(String)
}

/// Opens a database ready for Strata: foreign keys on, and the `uuid()` SQL function and the
/// app's `functions` registered on every connection.
///
/// ```swift
/// let database = try openDatabase(.file(path))
/// try database.write { db in
///   try Game.insert { Game.Draft(title: "Poker") }.execute(db)
/// }
/// ```
///
/// - Parameters:
///   - location: A file, or `.inMemory`.
///   - pooled: `true` for a `DatabasePool` (a file in WAL mode, with concurrent reads);
///     `false` for a `DatabaseQueue`. An in-memory database cannot be pooled.
///   - attached: Database files attached to every connection, for models in another database
///     (`// @Table(schema: "cache")`); `migrate(_:)` migrates each with its own migrations, in
///     one upgrade with the main database.
///   - configuration: GRDB's configuration, for tracing, read-only access and the like. Its
///     own `prepareDatabase` steps run before Strata's.
///   - functions: SQL functions written in Swift (`ScalarFunction`, `AggregateFunction`) that
///     queries and migrations call.
/// - Returns: A `DatabaseQueue` or `DatabasePool`.
public func openDatabase(
  _ location: DatabaseLocation, pooled: Bool = false, attaching attached: [AttachedDatabase] = [],
  configuration: Configuration = Configuration(), functions: [any CustomFunction] = []
) throws -> any DatabaseWriter {
  var strataConfiguration = configuration
  strataConfiguration.foreignKeysEnabled = true
  strataConfiguration.prepareDatabase { db in
    try db.registerStrataFunctions()
    try db.add(functions: functions)
  }
  let attachedConfiguration = strataConfiguration
  for database in attached {
    try database.prepare(pooled: pooled, configuration: attachedConfiguration)
  }
  strataConfiguration.prepareDatabase { db in
    for database in attached { try database.attach(to: db) }
  }
  let writer: any DatabaseWriter
  switch location {
  case .inMemory:
    if pooled {
      throw StrataError("an in-memory database cannot be opened as a pool; use a file")
    }
    writer = try DatabaseQueue(configuration: strataConfiguration)
  case .file(let path):
    writer = pooled
      ? try DatabasePool(path: path, configuration: strataConfiguration)
      : try DatabaseQueue(path: path, configuration: strataConfiguration)
  }
  if !attached.isEmpty { AttachedDatabases.register(attached, configuration: attachedConfiguration, for: writer) }
  return writer
}

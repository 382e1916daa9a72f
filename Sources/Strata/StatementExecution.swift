import GRDB
import GRDBSQLite
import StrataCore

/// Runs statements batch by batch on a GRDB connection.
@usableFromInline
enum StatementExecutor {
  /// The statement's batches, sized to the connection's limit on bound parameters.
  @inlinable
  static func batches(of statement: some QueryStatement, in db: Database) -> [QueryBatch] {
    let limit = db.sqliteConnection.map {
      sqlite3_limit($0, SQLITE_LIMIT_VARIABLE_NUMBER, -1)
    } ?? 999
    return statement.executionBatches(maxBindings: Int(limit))
  }

  /// Runs every batch to completion, collecting the decoded rows.
  @inlinable
  static func fetchAll<Element>(
    _ statement: some QueryStatement, in db: Database,
    decodeRow: @escaping (inout SQLiteQueryDecoder) throws -> Element
  ) throws -> [Element] {
    try SQLiteStorage.check(statement)
    var rows: [Element] = []
    if let fragment = statement.singleBatch {
      guard !fragment.isEmpty else { return [] }
      let cursor = try BatchCursor(
        statement: db.cachedStatement(sql: fragment.sql), fragment: fragment, decodeRow: decodeRow)
      try cursor.forEach { rows.append($0) }
      return rows
    }
    guard !statement.isEmpty else { return [] }
    for batch in batches(of: statement, in: db) {
      let cursor = try BatchCursor(
        statement: db.cachedStatement(sql: batch.sql), batch: batch, decodeRow: decodeRow)
      try cursor.forEach { rows.append($0) }
    }
    return rows
  }

  /// Returns the first decoded row. A statement that writes is still run to completion, so
  /// that an `UPDATE … RETURNING` updates every row it matches.
  @inlinable
  static func fetchOne<Element>(
    _ statement: some QueryStatement, in db: Database,
    decodeRow: @escaping (inout SQLiteQueryDecoder) throws -> Element
  ) throws -> Element? {
    try SQLiteStorage.check(statement)
    guard let fragment = statement.singleBatch else {
      return try fetchAll(statement, in: db, decodeRow: decodeRow).first
    }
    guard !fragment.isEmpty else { return nil }
    let prepared = try db.cachedStatement(sql: fragment.sql)
    let cursor = try BatchCursor(statement: prepared, fragment: fragment, decodeRow: decodeRow)
    let first = try cursor.next()
    if !prepared.isReadonly {
      while try cursor.next() != nil {}
    }
    return first
  }

  /// Runs every batch to completion, ignoring any rows.
  @inlinable
  static func execute(_ statement: some QueryStatement, in db: Database) throws {
    try SQLiteStorage.check(statement)
    if let fragment = statement.singleBatch {
      guard !fragment.isEmpty else { return }
      let cursor = try BatchCursor(
        statement: db.cachedStatement(sql: fragment.sql), fragment: fragment, decodeRow: { _ in })
      while try cursor.next() != nil {}
      return
    }
    guard !statement.isEmpty else { return }
    for batch in batches(of: statement, in: db) {
      let cursor = try BatchCursor(
        statement: db.cachedStatement(sql: batch.sql), batch: batch, decodeRow: { _ in })
      while try cursor.next() != nil {}
    }
  }
}

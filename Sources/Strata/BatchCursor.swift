import GRDB
import GRDBSQLite
import StrataCore

/// Steps through the rows of one prepared batch, decoding each with `decodeRow`.
///
/// Conforming to GRDB's `DatabaseCursor` lets GRDB do its bookkeeping around every step
/// (transaction state, observation of the tables read and written, cancellation) while the
/// values themselves are bound and read directly.
@usableFromInline
final class BatchCursor<Element>: DatabaseCursor {
  @usableFromInline let _statement: Statement
  @usableFromInline var _isDone = false
  @usableFromInline let columnCount: Int32
  @usableFromInline let decodeRow: (inout SQLiteQueryDecoder) throws -> Element

  @inlinable
  init(
    statement: Statement, batch: QueryBatch,
    decodeRow: @escaping (inout SQLiteQueryDecoder) throws -> Element
  ) throws {
    self._statement = statement
    self.columnCount = sqlite3_column_count(statement.sqliteStatement)
    self.decodeRow = decodeRow
    try StatementBinder.bind(batch, to: statement)
  }

  /// A cursor over a statement that runs as one piece.
  @inlinable
  init(
    statement: Statement, fragment: QueryFragment,
    decodeRow: @escaping (inout SQLiteQueryDecoder) throws -> Element
  ) throws {
    self._statement = statement
    self.columnCount = sqlite3_column_count(statement.sqliteStatement)
    self.decodeRow = decodeRow
    try StatementBinder.bind(fragment.bindings, sql: fragment.sql, to: statement)
  }

  deinit {
    // Resetting releases the statement's read lock; a failed step already reported its error.
    sqlite3_reset(_statement.sqliteStatement)
  }

  @inlinable
  func _element(sqliteStatement: SQLiteStatement) throws -> Element {
    var decoder = SQLiteQueryDecoder(statement: sqliteStatement, columnCount: columnCount)
    let element = try decodeRow(&decoder)
    try decoder.finish()
    return element
  }
}

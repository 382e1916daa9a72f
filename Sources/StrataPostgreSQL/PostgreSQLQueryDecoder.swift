#if PostgreSQL
import PostgresNIO
import StrataCore

/// Decodes a result row as postgres-nio received it, cell by cell, through the same generated
/// decoding initializers as SQLite's rows.
///
/// Each cell's bytes are read in PostgreSQL's binary format where they lie in the received
/// buffer and handed to the decoding type borrowed: text is not copied into a `String` unless
/// the type keeps one.
@usableFromInline
struct PostgreSQLQueryDecoder: QueryDecoder {
  @usableFromInline let row: PostgresRow
  @usableFromInline var index: PostgresRow.Index
  @usableFromInline var column = 0
  @usableFromInline let sql: String

  @inlinable
  init(row: PostgresRow, sql: String) {
    self.row = row
    self.index = row.startIndex
    self.sql = sql
  }

  @inlinable
  mutating func decode<Value>(_ expected: Any.Type, as convert: (QueryColumnValue) -> Value?) throws -> Value {
    guard index != row.endIndex else {
      throw PostgreSQLDecodingFailure.missingColumn(row: row, index: column, expected: expected, sql: sql)
    }
    let cell = row[index]
    let result = PostgreSQLColumn.withValue(cell.bytes, type: cell.dataType, format: cell.format) { value in
      value.flatMap(convert)
    }
    guard let result else {
      throw PostgreSQLDecodingFailure.mismatch(cell: cell, expected: expected, sql: sql)
    }
    index = row.index(after: index)
    column += 1
    return result
  }

  @inlinable
  mutating func decodeNulls(count: Int) -> Bool {
    var end = index
    for _ in 0..<count {
      guard end != row.endIndex, row[end].bytes == nil else { return false }
      end = row.index(after: end)
    }
    index = end
    column += count
    return true
  }

  @usableFromInline
  func noCase(_ expected: Any.Type, columnCount: Int) -> QueryDecodingError {
    let names = row.dropFirst(column - columnCount).prefix(columnCount).map { "\"" + $0.columnName + "\"" }
    return QueryDecodingError(
      columnIndex: column - columnCount, columnName: names.first.map { String($0.dropFirst().dropLast()) },
      expectedType: String(describing: expected) + " (one of its cases)",
      found: "NULL in all of its columns (\(names.joined(separator: ", ")))", sql: sql)
  }

  /// Checks that the row had no columns left over, which would mean the SQL and the decoded
  /// type disagree.
  @inlinable
  func finish() throws {
    if index != row.endIndex {
      throw PostgreSQLDecodingFailure.extraColumns(row: row, decoded: column, sql: sql)
    }
  }
}

/// Builds decoding errors; kept out of line so that the decoding loop stays small.
@usableFromInline
enum PostgreSQLDecodingFailure {
  @usableFromInline
  static func mismatch(cell: PostgresCell, expected: Any.Type, sql: String) -> QueryDecodingError {
    QueryDecodingError(
      columnIndex: cell.columnIndex, columnName: cell.columnName, expectedType: String(describing: expected),
      found: PostgreSQLColumn.describe(cell.bytes, type: cell.dataType, format: cell.format), sql: sql)
  }

  @usableFromInline
  static func missingColumn(row: PostgresRow, index: Int, expected: Any.Type, sql: String) -> QueryDecodingError {
    QueryDecodingError(
      columnIndex: index, columnName: nil, expectedType: String(describing: expected),
      found: "no such column: the statement returns \(row.count) column\(row.count == 1 ? "" : "s")", sql: sql)
  }

  @usableFromInline
  static func extraColumns(row: PostgresRow, decoded: Int, sql: String) -> QueryDecodingError {
    QueryDecodingError(
      columnIndex: decoded, columnName: row.dropFirst(decoded).first?.columnName,
      expectedType: "no more columns (the decoded type has \(decoded))",
      found: "\(row.count - decoded) more: the statement returns \(row.count)", sql: sql)
  }
}
#endif

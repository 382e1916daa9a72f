import GRDBSQLite
import StrataCore
import StrataSQL

/// Decodes a result row straight from a prepared statement, column by column.
///
/// Each column is fetched once with `sqlite3_column_value` and read with `sqlite3_value_*`,
/// which skip the per-call API entry and exit that every `sqlite3_column_*` function pays.
/// SQLite calls such a value "unprotected": safe only while no other thread uses the
/// connection, which GRDB guarantees by serializing all access to it. Text and blob bytes are
/// handed to the decoding type borrowed; nothing is boxed or copied on the way.
@usableFromInline
struct SQLiteQueryDecoder: QueryDecoder {
  @usableFromInline let statement: OpaquePointer
  @usableFromInline let columnCount: Int32
  @usableFromInline var index: Int32 = 0

  @inlinable
  init(statement: OpaquePointer, columnCount: Int32) {
    self.statement = statement
    self.columnCount = columnCount
  }

  @inlinable
  mutating func decode<Value>(
    _ expected: Any.Type, as convert: (QueryColumnValue) -> Value?
  ) throws -> Value {
    guard index < columnCount else {
      throw DecodingFailure.missingColumn(statement: statement, index: index, expected: expected)
    }
    let column = index
    let value = sqlite3_column_value(statement, column)
    let result: Value?
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER:
      result = convert(.integer(sqlite3_value_int64(value)))
    case SQLITE_FLOAT:
      result = convert(.real(sqlite3_value_double(value)))
    case SQLITE_TEXT:
      let bytes = sqlite3_value_text(value)
      let count = Int(sqlite3_value_bytes(value))
      result = convert(.text(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count)))
    case SQLITE_BLOB:
      let bytes = sqlite3_value_blob(value)
      let count = Int(sqlite3_value_bytes(value))
      result = convert(.blob(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count)))
    default:
      result = convert(.null)
    }
    guard let result else {
      throw DecodingFailure.mismatch(statement: statement, index: column, expected: expected)
    }
    index += 1
    return result
  }

  @inlinable
  mutating func decodeNulls(count: Int) -> Bool {
    let end = index + Int32(clamping: count)
    guard end <= columnCount else { return false }
    var column = index
    while column < end {
      if sqlite3_value_type(sqlite3_column_value(statement, column)) != SQLITE_NULL { return false }
      column += 1
    }
    index = end
    return true
  }

  @usableFromInline
  func noCase(_ expected: Any.Type, columnCount: Int) -> QueryDecodingError {
    DecodingFailure.noCase(statement: statement, index: index - Int32(clamping: columnCount), expected: expected, columnCount: columnCount)
  }

  /// Checks that the row had no columns left over, which would mean the SQL and the decoded
  /// type disagree.
  @inlinable
  func finish() throws {
    if index != columnCount {
      throw DecodingFailure.extraColumns(statement: statement, decoded: index)
    }
  }
}

/// Builds decoding errors; kept out of line so that the decoding loop stays small.
@usableFromInline
enum DecodingFailure {
  @usableFromInline
  static func mismatch(statement: OpaquePointer, index: Int32, expected: Any.Type)
    -> QueryDecodingError
  {
    error(statement, index, expected: String(describing: expected), found: describe(statement, index))
  }

  @usableFromInline
  static func missingColumn(statement: OpaquePointer, index: Int32, expected: Any.Type)
    -> QueryDecodingError
  {
    let count = sqlite3_column_count(statement)
    return error(
      statement, index, expected: String(describing: expected),
      found: "no such column: the statement returns \(count) column\(count == 1 ? "" : "s")")
  }

  @usableFromInline
  static func extraColumns(statement: OpaquePointer, decoded: Int32) -> QueryDecodingError {
    let count = sqlite3_column_count(statement)
    return error(
      statement, decoded, expected: "no more columns (the decoded type has \(decoded))",
      found: "\(count - decoded) more: the statement returns \(count)")
  }

  @usableFromInline
  static func noCase(statement: OpaquePointer, index: Int32, expected: Any.Type, columnCount: Int) -> QueryDecodingError {
    let names = (index..<index + Int32(clamping: columnCount)).compactMap { sqlite3_column_name(statement, $0).map { "\"" + String(cString: $0) + "\"" } }
    return error(
      statement, index, expected: String(describing: expected) + " (one of its cases)",
      found: "NULL in all of its columns (\(names.joined(separator: ", ")))")
  }

  private static func error(
    _ statement: OpaquePointer, _ index: Int32, expected: String, found: String
  ) -> QueryDecodingError {
    let name = index < sqlite3_column_count(statement)
      ? sqlite3_column_name(statement, index).map { String(cString: $0) } : nil
    let sql = sqlite3_sql(statement).map { String(cString: $0) } ?? ""
    return QueryDecodingError(
      columnIndex: Int(index), columnName: name, expectedType: expected, found: found, sql: sql)
  }

  /// The column's value as SQL, shortened: `NULL`, `INTEGER 3`, `TEXT 'abc'`, `BLOB (16 bytes)`.
  private static func describe(_ statement: OpaquePointer, _ index: Int32) -> String {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER:
      return "INTEGER \(sqlite3_column_int64(statement, index))"
    case SQLITE_FLOAT:
      return "REAL \(sqlite3_column_double(statement, index))"
    case SQLITE_TEXT:
      let text = sqlite3_column_text(statement, index).map { String(cString: $0) } ?? ""
      let shown = text.count > 64 ? text.prefix(64) + "…" : Substring(text)
      return "TEXT " + SQLQuoting.string(String(shown))
    case SQLITE_BLOB:
      return "BLOB (\(sqlite3_column_bytes(statement, index)) bytes)"
    default:
      return "NULL"
    }
  }
}

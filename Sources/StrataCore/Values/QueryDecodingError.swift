/// A result column that could not be read as the requested Swift type.
///
/// The message names the column, the type that was expected, the value the database returned
/// and the SQL of the statement, for example:
///
/// ```text
/// column 2 "score" of the result: expected Int, found TEXT 'ten'
///   in: SELECT "players"."id", "players"."name", "players"."score" FROM "players"
/// ```
public struct QueryDecodingError: Error, CustomStringConvertible, Sendable {
  /// The 0-based index of the column in the result row.
  public let columnIndex: Int
  /// The column's name in the result, when the row has one at that index.
  public let columnName: String?
  /// The Swift type that was requested.
  public let expectedType: String
  /// The value the database returned, written as SQL (`NULL`, `INTEGER 3`, `TEXT 'abc'`), or a
  /// note that the row has no such column.
  public let found: String
  /// The SQL of the statement that produced the row.
  public let sql: String

  /// An error; decoders build these.
  public init(
    columnIndex: Int, columnName: String?, expectedType: String, found: String, sql: String
  ) {
    self.columnIndex = columnIndex
    self.columnName = columnName
    self.expectedType = expectedType
    self.found = found
    self.sql = sql
  }

  public var description: String {
    let column = columnName.map { "column \(columnIndex) \"\($0)\"" } ?? "column \(columnIndex)"
    return "\(column) of the result: expected \(expectedType), found \(found)\n  in: \(sql)"
  }
}

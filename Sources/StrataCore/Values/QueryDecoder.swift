import Foundation

/// The value of one result column, as a decoder sees it.
///
/// Text and blob bytes are borrowed from the database and are valid only while the closure that
/// receives them runs. SQLite's values are one of its five storage classes; a database with
/// more types hands over the nearest (PostgreSQL's `boolean` as an integer, `jsonb` as text),
/// and UUIDs and timestamps as themselves.
public enum QueryColumnValue {
  case null
  case integer(Int64)
  case real(Double)
  case text(UnsafeRawBufferPointer)
  case blob(UnsafeRawBufferPointer)
  /// A value of a UUID column type (PostgreSQL's `uuid`); SQLite stores UUIDs as text.
  case uuid(UUID)
  /// A value of a timestamp column type (PostgreSQL's `timestamptz`); SQLite stores dates as
  /// text.
  case date(Date)
}

/// Reads the columns of one result row, left to right.
///
/// Each ``QueryRepresentable`` type reads the columns it spans with ``decode(_:as:)``; the
/// decoder advances to the next column after each read. Implementations belong to executors
/// (the SQLite one reads straight from a prepared statement), so that conforming types never
/// depend on a particular database.
public protocol QueryDecoder {
  /// Reads the current column and advances.
  ///
  /// - Parameters:
  ///   - expected: The Swift type being decoded, named in the error when `convert` fails.
  ///   - convert: Turns the column value into the result, or returns nil when the value does not
  ///     fit the type (wrong storage class, out of range, unparsable text).
  /// - Throws: ``QueryDecodingError`` naming the column, the expected type, the value found and
  ///   the SQL, when `convert` returns nil or the row has no more columns.
  mutating func decode<Value>(
    _ expected: Any.Type,
    as convert: (QueryColumnValue) -> Value?
  ) throws -> Value

  /// When the next `count` columns are all NULL, skips them and returns true; otherwise reads
  /// nothing and returns false.
  mutating func decodeNulls(count: Int) -> Bool

  /// The error for a value of `expected` read from the `columnCount` columns just before the
  /// current one, all of them NULL: an ``EnumSelection`` none of whose cases has a value.
  func noCase(_ expected: Any.Type, columnCount: Int) -> QueryDecodingError
}

extension QueryDecoder {
  public func noCase(_ expected: Any.Type, columnCount: Int) -> QueryDecodingError {
    QueryDecodingError(
      columnIndex: 0, columnName: nil, expectedType: String(describing: expected),
      found: "NULL in all of its \(columnCount) columns: no case has a value", sql: "")
  }
}

extension QueryDecoder {
  /// Reads a value of type `type`, returning its `QueryOutput`.
  @inlinable
  public mutating func decode<T: QueryRepresentable>(_ type: T.Type) throws -> T.QueryOutput {
    try T(decoder: &self).queryOutput
  }
}

/// What a column holds, as the models say it, before a dialect picks the column's type: the
/// translator decides this from the property's Swift type or representation, and
/// ``SchemaDialect`` decides how the database declares it (SQLite stores a UUID, a date and JSON
/// as `TEXT`; another database has a type for each).
public enum ColumnValueType: Hashable, Sendable {
  /// Whole numbers: `Int` and its sized kinds, `Date.UnixTimeRepresentation`.
  case integer
  case boolean
  /// Floating-point numbers: `Double`, `Float`.
  case real
  case text
  case uuid
  case date
  /// Bytes: `Data`, `[UInt8]`, `UUID.BytesRepresentation`.
  case blob
  /// A `JSONRepresentation`.
  case json
  /// A value of any kind: `StoredValue`.
  case any
}

/// What a model reads from a column beyond its SQL type: the values its decoder rejects although
/// SQLite stores them. A migration that converts a column's values checks them against the
/// model's format, so that it never leaves a row the app cannot read.
public enum ValueFormat: Hashable, Sendable {
  /// A `UUID` stored as text: 36 hexadecimal digits and dashes.
  case uuidText
  /// A `Date` stored as text, in the forms the runtime reads (`2025-01-02 03:04:05.678`, the
  /// forms of SQLite's date functions).
  case dateText
  /// A `UUID` stored as 16 bytes (`UUID.BytesRepresentation`).
  case uuidBytes
  /// An integer type narrower than 64 bits.
  case integers(ClosedRange<Int64>)
  /// An enum stored by its raw value: one of its cases'.
  case oneOf([ColumnDefault])
  /// A value stored as JSON text (`JSONRepresentation<[String]>`): valid JSON of the shape the
  /// Swift type decodes from.
  case json(JSONShape)

  /// The JSON a Swift type decodes from: an array (`[T]`), an object (`[String: T]`), or any.
  public enum JSONShape: String, Hashable, Sendable {
    case array, object, any
  }
}

/// A value as SQLite stores it, whatever its storage class: for a column whose values have no
/// one type, such as an expression of a view (`count(*)`, `sum(amount)`) or an `ANY` column.
///
/// ```swift
/// struct Totals: Table {      // a view's model
///   var books: StoredValue    // .integer(3), .real(2.5), .null, …
/// }
/// ```
public enum StoredValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
}

extension StoredValue: QueryBindable {
  public var queryBinding: QueryBinding {
    switch self {
    case .null: .null
    case .integer(let value): .integer(value)
    case .real(let value): .real(value)
    case .text(let text): .text(text)
    case .blob(let bytes): .blob(bytes)
    }
  }

  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode(StoredValue.self) { value in
      switch value {
      case .null: .null
      case .integer(let value): .integer(value)
      case .real(let value): .real(value)
      case .text(let bytes): .text(String(decoding: bytes, as: UTF8.self))
      case .blob(let bytes): .blob(Array(bytes))
      // As SQLite would store them.
      case .uuid(let uuid): .text(UUIDText.format(uuid))
      case .date(let date): .text(DateText.format(date))
      }
    }
  }
}

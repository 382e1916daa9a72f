import StrataSQL
import Foundation

/// A value bound to one `?` parameter of a statement.
///
/// Every value a query carries travels as a binding, never as SQL text, so a string that looks
/// like SQL is only ever data. `uuid` and `date` are kept apart from `text` so the executor can
/// format them into a stack buffer at bind time instead of allocating a `String` per value; in the
/// database they are TEXT like any other string. `bool` and `json` are kept apart for databases
/// whose columns have those types (PostgreSQL's `boolean` and `jsonb`); SQLite stores them as
/// INTEGER 0 or 1 and as TEXT.
public enum QueryBinding: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
  /// A boolean, stored by SQLite as INTEGER 0 or 1.
  case bool(Bool)
  /// JSON text, stored by SQLite as TEXT.
  case json(String)
  /// A UUID, stored as lowercase 36-character TEXT.
  case uuid(UUID)
  /// A date, stored as TEXT `yyyy-MM-dd HH:mm:ss.SSS` in UTC.
  case date(Date)
}

extension QueryBinding: CustomStringConvertible {
  /// The binding written as an SQL literal that SQLite reads as the same value: for logs and
  /// tests, and for the statements that cannot take parameters (temporary views and triggers).
  /// Text is quoted with ``SQLQuoting/string(_:)``.
  public var description: String {
    switch self {
    case .null:
      return "NULL"
    case .integer(let value):
      return String(value)
    case .real(let value):
      // SQLite stores a bound NaN as NULL and reads a literal too large for a double as
      // infinity, so these literals mean what the bound values would.
      if value.isNaN { return "NULL" }
      if value.isInfinite { return value < 0 ? "-9e999" : "9e999" }
      return String(value)
    case .text(let value), .json(let value):
      return SQLQuoting.string(value)
    case .bool(let value):
      return value ? "1" : "0"
    case .blob(let bytes):
      return "X'\(bytes.map { String(format: "%02X", $0) }.joined())'"
    case .uuid(let uuid):
      return "'\(UUIDText.format(uuid))'"
    case .date(let date):
      return "'\(DateText.format(date))'"
    }
  }
}

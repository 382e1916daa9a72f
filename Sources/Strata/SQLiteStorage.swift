import Foundation
import StrataCore
import StrataSQL

/// The values SQLite would not keep as given, which the runtime refuses rather than store
/// changed: NaN (SQLite stores it as NULL), negative zero in a column (a `REAL` without a
/// fraction is kept as an integer, which has no sign), and a date outside the years 0001–9999
/// (Strata's date text has four-digit years). PostgreSQL keeps all three.
@usableFromInline
enum SQLiteStorage {
  /// Why SQLite would not store `value` in a column as given, or nil.
  @inlinable
  static func problem(storing value: QueryBinding) -> String? {
    switch value {
    case .real(let number) where number == 0 && number.sign == .minus:
      "SQLite keeps a REAL without a fraction as an integer, which has no negative zero, so it would read back as 0.0; write 0.0 (-0.0 + 0.0 is 0.0)"
    default:
      problem(binding: value)
    }
  }

  /// Why SQLite cannot take `value` as a parameter at all, or nil.
  @inlinable
  static func problem(binding value: QueryBinding) -> String? {
    switch value {
    case .real(let number) where number.isNaN:
      "SQLite reads NaN as NULL, so it would be stored as no value"
    case .date(let date) where !DateText.isStorable(date):
      "Strata stores dates in SQLite as text with four-digit years, which holds the years 0001–9999 (UTC) only"
    default:
      nil
    }
  }

  /// Refuses a statement that writes a value SQLite would not store as given, naming the table,
  /// the column and the value, before anything runs.
  @inlinable
  static func check(_ statement: some QueryStatement) throws {
    try statement.forEachWrittenValue { table, column, value in
      guard let reason = problem(storing: value) else { return }
      throw refuse(value, table: table, column: column, sql: statement.queryFragment.sql, because: reason)
    }
  }

  /// Refuses a value written into a column, naming the column.
  @usableFromInline
  static func refuse(_ value: QueryBinding, table: String, column: String, sql: String, because reason: String) -> StrataError {
    StrataError("\(table).\(SQLQuoting.identifier(column)) cannot hold \(describe(value)): \(reason)", sql: sql)
  }

  /// Refuses a parameter SQLite cannot take, naming its position.
  @usableFromInline
  static func refuse(_ value: QueryBinding, at index: Int32, sql: String, because reason: String) -> StrataError {
    StrataError("parameter \(index) is \(describe(value)): \(reason)", sql: sql)
  }

  @usableFromInline
  static func describe(_ value: QueryBinding) -> String {
    switch value {
    case .real(let number): number.isNaN ? "NaN" : "\(number)"
    case .date(let date): "the date \(date.timeIntervalSince1970 < 0 ? "before" : "after") the year range (\(date))"
    default: "\(value)"
    }
  }
}

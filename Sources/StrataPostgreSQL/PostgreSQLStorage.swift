#if PostgreSQL
import Foundation
import StrataCore
import StrataSQL

/// The values PostgreSQL would not keep as given, which the runtime refuses rather than store
/// changed: a date that is not a number (NaN), and a finite date outside the range of
/// `timestamptz` (4713 BC to 294276 AD), which would otherwise be sent as `±infinity` or fail.
/// (An infinite date is PostgreSQL's `infinity`, and reads back as `Date.distantFuture` or
/// `distantPast`.)
@usableFromInline
enum PostgreSQLStorage {
  /// The first microsecond of `timestamptz` and the one after its last, since 2000-01-01.
  static let timestampRange: Range<Double> = -211_813_488_000_000_000..<9_224_318_016_000_000_000

  /// Why PostgreSQL cannot take `value` as given, or nil.
  @usableFromInline
  static func problem(_ value: QueryBinding) -> String? {
    guard case .date(let date) = value else { return nil }
    let seconds = date.timeIntervalSinceReferenceDate
    if seconds.isNaN { return "a date that is not a number has no timestamptz" }
    guard seconds.isFinite else { return nil }
    let microseconds = (seconds - PostgreSQLTimestamp.epoch) * 1_000_000
    return timestampRange.contains(microseconds) ? nil : "PostgreSQL's timestamptz holds the years 4713 BC to 294276 AD only"
  }

  /// Refuses a statement that writes a value PostgreSQL would not store as given, naming the
  /// table, the column and the value, before anything is sent.
  @inlinable
  static func check(_ statement: some QueryStatement) throws {
    try statement.forEachWrittenValue { table, column, value in
      guard let reason = problem(value) else { return }
      throw StrataError("\(table).\(quoted(column)) cannot hold \(describe(value)): \(reason)", sql: statement.queryFragment.sql)
    }
  }

  /// Refuses a parameter PostgreSQL cannot take, naming its position.
  @usableFromInline
  static func check(_ bindings: [QueryBinding], sql: String) throws {
    for (index, binding) in bindings.enumerated() {
      if let reason = problem(binding) { throw StrataError("parameter \(index + 1) is \(describe(binding)): \(reason)", sql: sql) }
    }
  }

  @usableFromInline
  static func quoted(_ column: String) -> String { SQLQuoting.identifier(column) }

  @usableFromInline
  static func describe(_ value: QueryBinding) -> String {
    if case .date(let date) = value { "the date \(date)" } else { "\(value)" }
  }
}
#endif

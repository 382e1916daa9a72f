import Foundation

// SQLite's date and time functions on date expressions. Strata stores a `Date` as UTC text
// (`2025-01-02 03:04:05.678`), which these functions read directly. Their results are text or
// numbers in SQLite's formats, NULL for a NULL or unparsable date.

/// A modifier of SQLite's date functions: `$0.createdAt.date(.startOfMonth, .months(1))`.
///
/// Modifiers are bound parameters, applied left to right.
public struct DateModifier: Hashable, Sendable {
  let text: String

  /// Moves the date by a number of days (negative for earlier).
  public static func days(_ count: Int) -> Self { Self(text: "\(count) days") }
  /// Moves the date by a number of hours.
  public static func hours(_ count: Int) -> Self { Self(text: "\(count) hours") }
  /// Moves the date by a number of minutes.
  public static func minutes(_ count: Int) -> Self { Self(text: "\(count) minutes") }
  /// Moves the date by a number of seconds.
  public static func seconds(_ count: Double) -> Self { Self(text: "\(count) seconds") }
  /// Moves the date by a number of months (SQLite normalizes day overflow: Jan 31 + 1 month is
  /// March 2 or 3).
  public static func months(_ count: Int) -> Self { Self(text: "\(count) months") }
  /// Moves the date by a number of years.
  public static func years(_ count: Int) -> Self { Self(text: "\(count) years") }
  /// Midnight at the start of the day.
  public static let startOfDay = Self(text: "start of day")
  /// Midnight on the first of the month.
  public static let startOfMonth = Self(text: "start of month")
  /// Midnight on January 1.
  public static let startOfYear = Self(text: "start of year")
  /// The next date that falls on `weekday` (0 is Sunday), or the date itself.
  public static func weekday(_ weekday: Int) -> Self { Self(text: "weekday \(weekday)") }
  /// From UTC to the database host's local time.
  public static let localtime = Self(text: "localtime")
  /// From the database host's local time to UTC.
  public static let utc = Self(text: "utc")
}

extension DatabaseExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped == Date {
  /// `date(x, modifiers…)`: the date as `YYYY-MM-DD`.
  public func date(_ modifiers: DateModifier...) -> AnyQueryExpression<String?> {
    AnyQueryExpression(dateFunction("date", modifiers))
  }

  /// `time(x, modifiers…)`: the time as `HH:MM:SS`.
  public func time(_ modifiers: DateModifier...) -> AnyQueryExpression<String?> {
    AnyQueryExpression(dateFunction("time", modifiers))
  }

  /// `datetime(x, modifiers…)`: the date and time as `YYYY-MM-DD HH:MM:SS`.
  public func datetime(_ modifiers: DateModifier...) -> AnyQueryExpression<String?> {
    AnyQueryExpression(dateFunction("datetime", modifiers))
  }

  /// `julianday(x, modifiers…)`: the fractional days since noon in Greenwich on November 24,
  /// 4714 B.C.; differences of two are durations in days.
  public func julianday(_ modifiers: DateModifier...) -> AnyQueryExpression<Double?> {
    AnyQueryExpression(dateFunction("julianday", modifiers))
  }

  /// `unixepoch(x, modifiers…)`: whole seconds since 1970-01-01 UTC.
  public func unixepoch(_ modifiers: DateModifier...) -> AnyQueryExpression<Int?> {
    AnyQueryExpression(dateFunction("unixepoch", modifiers))
  }

  /// `strftime(format, x, modifiers…)`: the date formatted with `%Y`, `%m`, `%d`, `%H`, `%M`,
  /// `%S`, `%f`, `%j`, `%w`, `%s`, … (the format is a bound parameter).
  public func strftime(_ format: String, _ modifiers: DateModifier...) -> AnyQueryExpression<String?> {
    AnyQueryExpression(dateFunction("strftime", modifiers, format: format))
  }

  private func dateFunction(_ name: String, _ modifiers: [DateModifier], format: String? = nil) -> QueryFragment {
    let arguments = (format.map { [$0.queryFragment] } ?? []) + [queryFragment] + modifiers.map(\.text.queryFragment)
    return SQLOperator.call(QueryFragment(raw: name), arguments).sqliteOnly("the function \(name)")
  }
}

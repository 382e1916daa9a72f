import Foundation

/// Hand-written date text conversion for the storage format `yyyy-MM-dd HH:mm:ss.SSS` (UTC).
///
/// Decoding also accepts what SQLite's own date functions and `CURRENT_TIMESTAMP` produce:
/// whole seconds, minutes only, a date alone, a `T` separator, 1 to 9 fraction digits, and a
/// trailing `Z` or `±HH:MM` offset. The text has four-digit years, so it holds the dates of the
/// years 0001–9999 (UTC) only: the SQLite runtime refuses others (``isStorable(_:)``), and the
/// formatter clamps them.
public enum DateText {
  /// The length of the stored text form.
  public static let length = 23

  static let minimumMilliseconds: Int64 = -62_135_596_800_000
  static let maximumMilliseconds: Int64 = 253_402_300_799_999

  /// Writes the stored text form of `date` into a stack buffer and passes it to `body`.
  @inlinable
  public static func withText<R>(
    _ date: Date, _ body: (UnsafeRawBufferPointer) throws -> R
  ) rethrows -> R {
    try FixedWidthText.with(length: length, { write(date, to: $0) }, body)
  }

  /// The stored text form of `date`.
  public static func format(_ date: Date) -> String {
    FixedWidthText.string(length: length) { write(date, to: $0) }
  }

  @usableFromInline
  static func write(_ date: Date, to buffer: UnsafeMutableBufferPointer<UInt8>) {
    let milliseconds = clampedMilliseconds(date)
    let (days, millisecondOfDay) = floorDivide(milliseconds, 86_400_000)
    let (year, month, day) = civil(fromDays: days)
    var out = 0
    func put(_ value: Int64, digits: Int) {
      var divisor: Int64 = 1
      for _ in 1..<digits { divisor *= 10 }
      var rest = value
      while divisor > 0 {
        buffer[out] = UInt8(ascii: "0") + UInt8(rest / divisor)
        rest %= divisor
        divisor /= 10
        out += 1
      }
    }
    func separator(_ character: Unicode.Scalar) {
      buffer[out] = UInt8(ascii: character)
      out += 1
    }
    put(year, digits: 4)
    separator("-")
    put(month, digits: 2)
    separator("-")
    put(day, digits: 2)
    separator(" ")
    put(millisecondOfDay / 3_600_000, digits: 2)
    separator(":")
    put(millisecondOfDay / 60_000 % 60, digits: 2)
    separator(":")
    put(millisecondOfDay / 1000 % 60, digits: 2)
    separator(".")
    put(millisecondOfDay % 1000, digits: 3)
  }

  /// Whether the text holds `date`: a date of the years 0001–9999, UTC (`Date.distantPast` is
  /// two days before them).
  public static func isStorable(_ date: Date) -> Bool {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    return milliseconds >= Double(minimumMilliseconds) && milliseconds <= Double(maximumMilliseconds)
  }

  static func clampedMilliseconds(_ date: Date) -> Int64 {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    guard milliseconds.isFinite else {
      return milliseconds.isNaN ? 0 : (milliseconds < 0 ? minimumMilliseconds : maximumMilliseconds)
    }
    if milliseconds <= Double(minimumMilliseconds) { return minimumMilliseconds }
    if milliseconds >= Double(maximumMilliseconds) { return maximumMilliseconds }
    return Int64(milliseconds)
  }

  /// Parses a date in one of the accepted text forms, or returns nil.
  @inlinable
  public static func parse(_ text: UnsafeRawBufferPointer) -> Date? {
    var scanner = Scanner(text)
    guard let year = scanner.digits(4), scanner.skip("-"),
      let month = scanner.digits(2), scanner.skip("-"),
      let day = scanner.digits(2),
      (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month)
    else { return nil }
    var seconds = daysFromCivil(year: year, month: month, day: day) * 86_400
    var nanoseconds: Int64 = 0
    if scanner.skip(" ") || scanner.skip("T") {
      guard let hour = scanner.digits(2), scanner.skip(":"), let minute = scanner.digits(2),
        hour < 24, minute < 60
      else { return nil }
      seconds += hour * 3600 + minute * 60
      if scanner.skip(":") {
        guard let second = scanner.digits(2), second < 60 else { return nil }
        seconds += second
        if scanner.skip(".") {
          guard let fraction = scanner.fraction() else { return nil }
          nanoseconds = fraction
        }
      }
      if scanner.skip("Z") {
      } else if let sign = scanner.sign() {
        guard let offsetHours = scanner.digits(2), scanner.skip(":"),
          let offsetMinutes = scanner.digits(2), offsetHours < 24, offsetMinutes < 60
        else { return nil }
        seconds -= sign * (offsetHours * 3600 + offsetMinutes * 60)
      }
    }
    guard scanner.isAtEnd else { return nil }
    return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
  }

  @usableFromInline
  struct Scanner {
    let text: UnsafeRawBufferPointer
    var index = 0

    @usableFromInline
    init(_ text: UnsafeRawBufferPointer) { self.text = text }

    @usableFromInline
    var isAtEnd: Bool { index == text.count }

    @usableFromInline
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
      guard index < text.count, text[index] == UInt8(ascii: character) else { return false }
      index += 1
      return true
    }

    @usableFromInline
    mutating func sign() -> Int64? {
      if skip("+") { return 1 }
      if skip("-") { return -1 }
      return nil
    }

    @usableFromInline
    mutating func digits(_ count: Int) -> Int64? {
      guard index + count <= text.count else { return nil }
      var value: Int64 = 0
      for offset in 0..<count {
        let character = text[index + offset]
        guard character >= UInt8(ascii: "0"), character <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int64(character - UInt8(ascii: "0"))
      }
      index += count
      return value
    }

    /// 1 to 9 fraction digits, as nanoseconds.
    @usableFromInline
    mutating func fraction() -> Int64? {
      var value: Int64 = 0
      var count = 0
      while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9")
      {
        guard count < 9 else { return nil }
        value = value * 10 + Int64(text[index] - UInt8(ascii: "0"))
        count += 1
        index += 1
      }
      guard count > 0 else { return nil }
      for _ in count..<9 { value *= 10 }
      return value
    }
  }

  @usableFromInline
  static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    return (quotient, value - quotient * divisor)
  }

  @usableFromInline
  static func isLeapYear(_ year: Int64) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  @usableFromInline
  static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: return isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  @usableFromInline
  static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date of a day count since 1970-01-01.
  static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}

extension Date: QueryBindable {
  /// Dates are stored as TEXT `yyyy-MM-dd HH:mm:ss.SSS` in UTC, at millisecond precision.
  public var queryBinding: QueryBinding { .date(self) }
  @inlinable
  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode(Date.self) { value in
      switch value {
      case .text(let text): DateText.parse(text)
      case .date(let date): date
      default: nil
      }
    }
  }
}

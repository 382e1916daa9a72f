#if PostgreSQL
import Foundation
import NIOCore
import PostgresNIO
import StrataCore

/// A statement's value as postgres-nio sends it: in PostgreSQL's binary format, with the type
/// the columns Strata's migrations make hold (`bigint`, `double precision`, `text`, `bytea`,
/// `uuid`, `timestamptz`, `boolean`, `jsonb`), so that PostgreSQL reads it without a cast.
///
/// NULL is not one: it is bound with ``PostgresBindings/appendNull()``, untyped, and takes the
/// type its place in the statement gives it.
@usableFromInline
struct PostgreSQLValue: PostgresDynamicTypeEncodable {
  @usableFromInline let binding: QueryBinding

  @inlinable
  init(_ binding: QueryBinding) {
    self.binding = binding
  }

  @usableFromInline
  var psqlType: PostgresDataType {
    switch binding {
    case .null: .null
    case .integer: .int8
    case .real: .float8
    case .text: .text
    case .blob: .bytea
    case .uuid: .uuid
    case .date: .timestamptz
    case .bool: .bool
    case .json: .jsonb
    }
  }

  @usableFromInline
  var psqlFormat: PostgresFormat { .binary }

  @usableFromInline
  func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
    switch binding {
    case .null: break
    case .integer(let value): buffer.writeInteger(value)
    case .real(let value): buffer.writeInteger(value.bitPattern)
    case .text(let text): buffer.writeString(text)
    case .blob(let bytes): buffer.writeBytes(bytes)
    case .uuid(let uuid): withUnsafeBytes(of: uuid.uuid) { _ = buffer.writeBytes($0) }
    case .date(let date): buffer.writeInteger(PostgreSQLTimestamp.microseconds(of: date))
    case .bool(let value): buffer.writeInteger(value ? 1 : 0, as: UInt8.self)
    case .json(let text):
      // jsonb's binary format: a version byte, then the text.
      buffer.writeInteger(1, as: UInt8.self)
      buffer.writeString(text)
    }
  }
}

extension PostgresBindings {
  /// The bindings of a rendered statement, in order.
  @inlinable
  init(_ bindings: [QueryBinding]) {
    self.init(capacity: bindings.count)
    for binding in bindings {
      if case .null = binding {
        appendNull()
      } else {
        append(PostgreSQLValue(binding))
      }
    }
  }
}

/// PostgreSQL's timestamps: microseconds since 2000-01-01 00:00:00 UTC.
@usableFromInline
enum PostgreSQLTimestamp {
  /// 2000-01-01 00:00:00 UTC, in seconds since 2001-01-01 (Foundation's reference date).
  @usableFromInline static let epoch: TimeInterval = -31_536_000

  @inlinable
  static func microseconds(of date: Date) -> Int64 {
    let microseconds = ((date.timeIntervalSinceReferenceDate - epoch) * 1_000_000).rounded()
    // ±infinity: PostgreSQL's 'infinity' and '-infinity' are the extremes of the range.
    return Int64(exactly: microseconds) ?? (microseconds > 0 ? .max : .min)
  }

  @inlinable
  static func date(microseconds: Int64) -> Date {
    switch microseconds {
    case .max: .distantFuture
    case .min: .distantPast
    default: Date(timeIntervalSinceReferenceDate: Double(microseconds) / 1_000_000 + epoch)
    }
  }
}

/// Reads a cell's value in PostgreSQL's binary format as the value a ``QueryDecoder`` hands to
/// decoding initializers.
@usableFromInline
enum PostgreSQLColumn {
  /// Calls `body` with the cell's value, its bytes borrowed for the call; with nil for a type
  /// Strata does not read (an array, an interval, a range, …) or bytes that are not that type's.
  @inlinable
  static func withValue<Result>(
    _ bytes: ByteBuffer?, type: PostgresDataType, format: PostgresFormat, _ body: (QueryColumnValue?) -> Result
  ) -> Result {
    guard let bytes else { return body(.null) }
    return bytes.withUnsafeReadableBytes { raw in
      guard format == .binary else { return body(.text(raw)) }
      return body(value(raw, type: type))
    }
  }

  @inlinable
  static func value(_ raw: UnsafeRawBufferPointer, type: PostgresDataType) -> QueryColumnValue? {
    switch type {
    case .int8: return raw.count == 8 ? .integer(Int64(bigEndian: raw.loadUnaligned(as: Int64.self))) : nil
    case .int4: return raw.count == 4 ? .integer(Int64(Int32(bigEndian: raw.loadUnaligned(as: Int32.self)))) : nil
    case .int2: return raw.count == 2 ? .integer(Int64(Int16(bigEndian: raw.loadUnaligned(as: Int16.self)))) : nil
    case .oid: return raw.count == 4 ? .integer(Int64(UInt32(bigEndian: raw.loadUnaligned(as: UInt32.self)))) : nil
    case .float8: return raw.count == 8 ? .real(Double(bitPattern: UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)))) : nil
    case .float4: return raw.count == 4 ? .real(Double(Float(bitPattern: UInt32(bigEndian: raw.loadUnaligned(as: UInt32.self))))) : nil
    case .bool: return raw.count == 1 ? .integer(raw[0] == 0 ? 0 : 1) : nil
    case .text, .varchar, .bpchar, .name, .json, .unknown: return .text(raw)
    case .jsonb: return raw.first == 1 ? .text(UnsafeRawBufferPointer(rebasing: raw.dropFirst())) : nil
    case .bytea: return .blob(raw)
    case .uuid:
      guard raw.count == 16 else { return nil }
      var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: raw) }
      return .uuid(UUID(uuid: uuid))
    case .timestamptz, .timestamp:
      return raw.count == 8 ? .date(PostgreSQLTimestamp.date(microseconds: Int64(bigEndian: raw.loadUnaligned(as: Int64.self)))) : nil
    case .date:
      guard raw.count == 4 else { return nil }
      let days = Int32(bigEndian: raw.loadUnaligned(as: Int32.self))
      return .date(PostgreSQLTimestamp.date(microseconds: Int64(days) * 86_400_000_000))
    case .numeric: return PostgreSQLNumeric.value(raw)
    default: return nil
    }
  }

  /// The value as a message shows it: `NULL`, `bigint 3`, `text 'abc'`, `uuid …`.
  static func describe(_ bytes: ByteBuffer?, type: PostgresDataType, format: PostgresFormat) -> String {
    let name = type.knownSQLName?.lowercased() ?? "type \(type.rawValue)"
    return withValue(bytes, type: type, format: format) { value in
      switch value {
      case nil: return "\(name) (a PostgreSQL type Strata does not read)"
      case .null?: return "NULL"
      case .integer(let int)?: return type == .bool ? "\(name) \(int != 0)" : "\(name) \(int)"
      case .real(let double)?: return "\(name) \(double)"
      case .text(let bytes)?:
        let text = String(decoding: bytes, as: UTF8.self)
        return "\(name) " + SQLQuoting.string(text.count > 64 ? String(text.prefix(64)) + "…" : text)
      case .blob(let bytes)?: return "\(name) (\(bytes.count) bytes)"
      case .uuid(let uuid)?: return "\(name) \(uuid.uuidString.lowercased())"
      case .date(let date)?: return "\(name) \(date)"
      }
    }
  }
}

/// PostgreSQL's `numeric` in its binary format, which `sum` of integers, `avg` and `round(x, n)`
/// return: an integer when it has no fraction digits and fits 64 bits, a double otherwise.
@usableFromInline
enum PostgreSQLNumeric {
  @usableFromInline
  static func value(_ raw: UnsafeRawBufferPointer) -> QueryColumnValue? {
    guard raw.count >= 8 else { return nil }
    func word(_ index: Int) -> Int {
      Int(Int16(bitPattern: UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self))))
    }
    let count = word(0), weight = word(1), sign = UInt16(truncatingIfNeeded: word(2)), scale = word(3)
    guard count >= 0, raw.count == 8 + count * 2 else { return nil }
    switch sign {
    case 0xC000: return .real(.nan)
    case 0xD000: return .real(.infinity)
    case 0xF000: return .real(-.infinity)
    case 0x0000, 0x4000: break
    default: return nil
    }
    let digits = (0..<count).map { word(4 + $0) }
    let negative = sign == 0x4000
    if scale == 0 {
      // Base-10000 digits, the first of weight `weight` (10000^weight); none means zero.
      var value: Int64 = 0
      var exact = true
      for position in stride(from: 0, through: weight, by: 1) {
        let digit = position < count ? Int64(digits[position]) : 0
        let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10_000)
        let (sum, overflow2) = shifted.addingReportingOverflow(negative ? -digit : digit)
        if overflow1 || overflow2 { exact = false; break }
        value = sum
      }
      if exact { return .integer(value) }
    }
    // Written out in decimal and read back, so the double is the nearest to the exact value.
    var text = negative ? "-" : ""
    text += "0."
    for digit in digits {
      let string = String(digit)
      text += String(repeating: "0", count: 4 - string.count) + string
    }
    text += "e\((weight + 1) * 4)"
    return Double(text).map(QueryColumnValue.real)
  }
}
#endif

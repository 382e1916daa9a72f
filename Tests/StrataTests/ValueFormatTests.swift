import Foundation
import Strata
import Testing

@testable import StrataSchema

/// The checks migrations make for the text forms of dates and UUIDs accept exactly what the
/// runtime's decoders read: a check that accepted more would let a migration leave rows the app
/// cannot read.
@Suite struct ValueFormatTests {
  static let dates = [
    "2025-01-02", "2025-01-02 03:04", "2025-01-02T03:04", "2025-01-02 03:04:05", "2025-01-02 03:04:05.678",
    "2025-01-02 03:04:05.1", "2025-01-02 03:04:05.123456789", "2025-01-02 03:04:05.1234567890", "2025-01-02 03:04:05Z",
    "2025-01-02 03:04:05.678+02:00", "2025-01-02 03:04-05:30", "2025-01-02 03:04:05+24:00", "2025-01-02 03:04:05+02:60",
    "2024-02-29", "2023-02-29", "2025-04-31", "2025-13-01", "2025-00-10", "2025-01-00", "2025-01-02 24:00",
    "2025-01-02 23:60", "2025-01-02 23:59:60", "2025-01-02 3:04", "2025-01-02 03:04:05.", "2025-01-02 03:04:05Zx",
    "2025-01-02 ", "2025-01-02T", "25-01-02", "2025/01/02", "1700000000", "", "now", "0000-01-01", "9999-12-31 23:59:59.999",
    "2025-01-02 03:04:05+0200", "2025-1-02", " 2025-01-02", "2025-01-02 03:04:05.678 ",
  ]

  static let uuids = [
    "8c3f0d84-5d5e-4b8a-9d55-0b2f0a6b1c2e", "8C3F0D84-5D5E-4B8A-9D55-0B2F0A6B1C2E", "8c3f0d84-5d5e-4b8a-9d55-0b2f0a6b1c2",
    "8c3f0d84-5d5e-4b8a-9d55-0b2f0a6b1c2ef", "8c3f0d845d5e4b8a9d550b2f0a6b1c2e", "8c3f0d84-5d5e-4b8a-9d55-0b2f0a6b1c2g",
    "{8c3f0d84-5d5e-4b8a-9d55-0b2f0a6b1c2e}", "8c3f0d84_5d5e_4b8a_9d55_0b2f0a6b1c2e", "",
  ]

  func accepted(_ format: ValueFormat, _ text: String) throws -> Bool {
    let database = try openDatabase(.inMemory)
    return try database.read { db in
      try Bool.fetchOne(db, sql: "WITH v(x) AS (SELECT ?) SELECT \(format.accepts("x")) FROM v", arguments: [text]) ?? false
    }
  }

  @Test(arguments: dates)
  func theDateCheckReadsWhatTheRuntimeReads(_ text: String) throws {
    let parsed = Array(text.utf8).withUnsafeBytes { DateText.parse($0) } != nil
    #expect(try accepted(.dateText, text) == parsed)
  }

  @Test(arguments: uuids)
  func theUUIDCheckReadsWhatTheRuntimeReads(_ text: String) throws {
    let parsed = Array(text.utf8).withUnsafeBytes { UUIDText.parse($0) } != nil
    #expect(try accepted(.uuidText, text) == parsed)
  }

  /// The parser reads eight characters at a time, with no branch per digit; every byte value in
  /// every place is either a digit of the right value, the dash of a dash's place, or rejected.
  @Test func everyByteInEveryPlaceIsItsValueOrRejected() {
    let text = Array("8c3f0d84-5d5e-4b8a-9d55-0b2f0a6b1c2e".utf8)
    for position in text.indices {
      let isDashPlace = [8, 13, 18, 23].contains(position)
      for byte in UInt8.min...UInt8.max {
        var changed = text
        changed[position] = byte
        let parsed = changed.withUnsafeBytes { UUIDText.parse($0) }
        let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
          || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        let fits = isDashPlace ? byte == UInt8(ascii: "-") : isDigit
        let expected = fits ? UUID(uuidString: String(decoding: changed, as: UTF8.self)) : nil
        #expect(parsed == expected, "byte \(byte) at \(position)")
      }
    }
  }
}

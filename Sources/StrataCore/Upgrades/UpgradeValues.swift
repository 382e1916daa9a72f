import Foundation

/// The values the upgrade check writes: a seeded generator, so that a seed replays a run, and
/// the edge values apps' databases end up holding over the years.
package struct UpgradeValues {
  private var state: UInt64

  package init(seed: UInt64) {
    state = seed
  }

  /// SplitMix64: the same numbers for a seed on every platform and Swift version, which the
  /// standard library's generators do not promise.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  package mutating func next(below bound: Int) -> Int {
    Int(next() % UInt64(max(bound, 1)))
  }

  /// Edge values for each kind, written into the first rows of every table. Finite numbers
  /// only: SQLite stores NaN as NULL.
  static let integers: [Int64] = [0, 1, -1, .max, .min, 9_007_199_254_740_993, -9_007_199_254_740_993]
  static let reals: [Double] = [0.0, -0.0, 0.1, 9_007_199_254_740_994, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e-300]
  static let texts: [String] = [
    "", " ", "\u{E9}t\u{E9}", "e\u{301}te\u{301}", "👩‍👩‍👧 family", "O'Brien \"quoted\" \\ back",
    "'; DROP TABLE x; --", "NULL", "0001-01-01 00:00:00.000", "9999-12-31 23:59:59.999",
    "00000000-0000-0000-0000-000000000000", "line\nbreak\ttab", String(repeating: "long text ", count: 1_000),
  ]
  /// The extreme dates the runtime stores (it writes `yyyy-MM-dd HH:mm:ss.SSS`), and the epoch.
  static let dates: [Date] = [
    Date(timeIntervalSince1970: -62_135_596_800), Date(timeIntervalSince1970: 253_402_300_799.999),
    Date(timeIntervalSince1970: 0),
  ]
  static let jsons: [String] = ["{}", "[]", "null", "{\"name\":\"\u{E9}t\u{E9}\",\"list\":[1,2.5,true,null]}"]

  /// A value for a column: the `edge`th edge value of its kind while there are any, then random
  /// ones.
  package mutating func value(_ kind: UpgradeTable.Kind, edge: Int?) -> QueryBinding {
    switch kind {
    case .integer(let bits):
      let shift = Int64(64 - bits)
      // The edge values of the column's width: its limits, not SQLite's.
      if let edge, edge < Self.integers.count { return .integer(Self.integers[edge] >> shift) }
      return .integer(Int64(bitPattern: next()) >> max(shift, Int64(next(below: 63))))
    case .real:
      if let edge, edge < Self.reals.count { return .real(Self.reals[edge]) }
      return .real(Double(Int64(bitPattern: next()) >> 11) / Double(1 << (next(below: 40))))
    case .text:
      if let edge, edge < Self.texts.count { return .text(Self.texts[edge]) }
      return .text(randomText())
    case .blob:
      if let edge, edge < 3 { return .blob([[], [0], (0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 31) }][edge]) }
      return .blob((0..<(1 + next(below: 64))).map { _ in UInt8(truncatingIfNeeded: next()) })
    case .any:
      let kinds: [UpgradeTable.Kind] = [.integer(bits: 64), .real, .text, .blob]
      return value(kinds[edge.map { $0 % 4 } ?? next(below: 4)], edge: edge.map { $0 / 4 })
    case .boolean:
      if let edge, edge < 2 { return .bool(edge == 0) }
      return .bool(next() & 1 == 0)
    case .uuid:
      if edge == 0 { return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))) }
      return .uuid(randomUUID())
    case .date:
      if let edge, edge < Self.dates.count { return .date(Self.dates[edge]) }
      // Whole milliseconds, as the runtime stores them, from year 1 to 9999.
      return .date(Date(timeIntervalSince1970: Double(Int64(next() % 315_537_897_599_000) - 62_135_596_800_000) / 1_000))
    case .json:
      if let edge, edge < Self.jsons.count { return .json(Self.jsons[edge]) }
      return .json("{\"n\":\(next() >> 12),\"text\":\"\(randomText().filter { $0.isLetter || $0.isNumber || $0 == " " })\"}")
    }
  }

  /// A value no other row of any table holds, for keys: tables and renamed columns are found
  /// again after migrating by the values they carry.
  package mutating func uniqueValue(_ kind: UpgradeTable.Kind) -> QueryBinding {
    switch kind {
    case .integer(let bits): .integer(Int64(bitPattern: next()) >> Int64(64 - bits + 1))
    case .any: .integer(Int64(bitPattern: next() >> 2))
    case .real: .real(Double(next() >> 12))
    case .text: .text(UUIDText.format(randomUUID()))
    case .blob: .blob((0..<16).map { _ in UInt8(truncatingIfNeeded: next()) })
    case .uuid: .uuid(randomUUID())
    case .date: .date(Date(timeIntervalSince1970: Double(next() % 253_402_300_799_000) / 1_000))
    case .json: .json("\"\(UUIDText.format(randomUUID()))\"")
    case .boolean: .bool(next() & 1 == 0)
    }
  }

  private mutating func randomUUID() -> UUID {
    let (a, b) = (next(), next())
    var bytes = (0..<16).map { UInt8(truncatingIfNeeded: ($0 < 8 ? a : b) >> (UInt64($0 % 8) * 8)) }
    bytes[6] = bytes[6] & 0x0F | 0x40
    bytes[8] = bytes[8] & 0x3F | 0x80
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11],
        bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }

  private static let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-_'éüßøλжあ中🙂".unicodeScalars)

  /// Letters of several scripts, digits and punctuation, some words long.
  private mutating func randomText() -> String {
    var text = String.UnicodeScalarView()
    for _ in 0...next(below: 40) { text.append(Self.alphabet[next(below: Self.alphabet.count)]) }
    return String(text)
  }
}

extension StoredValue {
  /// The value read back from a parent row, bound as a column of `kind` takes it: PostgreSQL's
  /// values are read as text, and a `uuid` or `bigint` column does not take text.
  package func binding(as kind: UpgradeTable.Kind) -> QueryBinding {
    guard case .text(let text) = self else { return queryBinding }
    switch kind {
    case .integer: return Int64(text).map(QueryBinding.integer) ?? .text(text)
    case .real: return Double(text).map(QueryBinding.real) ?? .text(text)
    case .uuid: return UUID(uuidString: text).map(QueryBinding.uuid) ?? .text(text)
    case .boolean: return .bool(text == "true")
    case .json: return .json(text)
    case .blob where text.hasPrefix("\\x"):
      var bytes: [UInt8] = []
      var digits = text.dropFirst(2)
      while digits.count >= 2, let byte = UInt8(digits.prefix(2), radix: 16) {
        bytes.append(byte)
        digits = digits.dropFirst(2)
      }
      return .blob(bytes)
    default: return .text(text)
    }
  }

  /// Whether a value a migration carried is the value it started as: the same, the same
  /// number or text after a conversion the model asked for (an integer column made REAL, a
  /// number made TEXT), or a NULL filled (a column made NOT NULL with a default).
  package func isCarried(as other: StoredValue) -> Bool {
    switch (self, other) {
    case (.null, _):
      return true
    case (.real(let a), .real(let b)):
      // -0.0 == 0.0 in Swift; a value is carried only with its sign.
      return a.bitPattern == b.bitPattern
    case (.integer(let a), .real(let b)), (.real(let b), .integer(let a)):
      return Double(exactly: a) == b
    case (.text(let text), .integer(let number)), (.integer(let number), .text(let text)):
      return Int64(text) == number
    case (.text(let text), .real(let number)), (.real(let number), .text(let text)):
      return Double(text) == number
    default:
      return self == other
    }
  }

  private static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "'", with: "''").replacingOccurrences(of: "\n", with: "\\n")
      .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\t", with: "\\t")
  }

  /// The value as SQL would write it, for messages.
  package var literal: String {
    switch self {
    case .null: "NULL"
    case .integer(let value): String(value)
    case .real(let value): value == 0 && value.sign == .minus ? "-0.0" : String(value)
    case .text(let text):
      // Quotes doubled as in SQL; line breaks and tabs escaped, so that a message stays one line.
      text.count > 60
        ? "'\(Self.escaped(String(text.prefix(57))))…' (\(text.count) characters)" : "'\(Self.escaped(text))'"
    case .blob(let bytes): bytes.count > 24 ? "a blob of \(bytes.count) bytes" : "X'\(bytes.map { String(format: "%02X", $0) }.joined())'"
    }
  }
}

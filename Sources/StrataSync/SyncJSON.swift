import StrataSQL
import StrataSyncCore

/// The JSON sync's tables keep version vectors and counter shares in: `{"<replica>":clock}` and
/// `{"<replica>":[clock,total]}`, as the triggers' `json_set` writes them.
enum SyncJSON {
  static func text(_ vector: VersionVector) -> String {
    "{" + vector.clocks.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
  }

  static func text(_ parts: [String: CounterPart]) -> String {
    "{" + parts.sorted { $0.key < $1.key }.map { "\"\($0.key)\":[\($0.value.clock),\($0.value.total)]" }.joined(separator: ",") + "}"
  }

  static func vector(_ text: String) throws -> VersionVector {
    var clocks: [String: Int64] = [:]
    for (replica, numbers) in try entries(text) {
      guard numbers.count == 1 else { throw SyncError("a version vector in \(SyncTables.cells) is not {\"replica\":clock}: \(text)") }
      clocks[replica] = numbers[0]
    }
    return VersionVector(clocks)
  }

  static func parts(_ text: String) throws -> [String: CounterPart] {
    var parts: [String: CounterPart] = [:]
    for (replica, numbers) in try entries(text) {
      guard numbers.count == 2 else { throw SyncError("a counter's shares in \(SyncTables.cells) are not {\"replica\":[clock,total]}: \(text)") }
      parts[replica] = CounterPart(clock: numbers[0], total: numbers[1])
    }
    return parts
  }

  /// The entries of a flat object whose values are integers or arrays of integers, read
  /// exactly (clocks exceed a double's 53 bits).
  private static func entries(_ text: String) throws -> [(String, [Int64])] {
    var result: [(String, [Int64])] = []
    var scanner = Array(text.utf8)[...]
    func skipSpace() { while let first = scanner.first, first == 0x20 || first == 0x0A || first == 0x09 || first == 0x0D { scanner.removeFirst() } }
    func expect(_ byte: UInt8) throws {
      skipSpace()
      guard scanner.first == byte else { throw SyncError("sync's metadata holds JSON it did not write: \(text)") }
      scanner.removeFirst()
    }
    func integer() throws -> Int64 {
      skipSpace()
      var digits = ""
      while let first = scanner.first, first == UInt8(ascii: "-") || (0x30...0x39).contains(first) {
        digits.append(Character(UnicodeScalar(first)))
        scanner.removeFirst()
      }
      guard let value = Int64(digits) else { throw SyncError("sync's metadata holds JSON it did not write: \(text)") }
      return value
    }
    try expect(UInt8(ascii: "{"))
    skipSpace()
    if scanner.first == UInt8(ascii: "}") { return [] }
    while true {
      try expect(UInt8(ascii: "\""))
      guard let end = scanner.firstIndex(of: UInt8(ascii: "\"")) else { throw SyncError("sync's metadata holds JSON it did not write: \(text)") }
      let key = String(decoding: scanner[scanner.startIndex..<end], as: UTF8.self)
      scanner = scanner[(end + 1)...]
      try expect(UInt8(ascii: ":"))
      skipSpace()
      var numbers: [Int64] = []
      if scanner.first == UInt8(ascii: "[") {
        scanner.removeFirst()
        numbers.append(try integer())
        while (skipSpace(), scanner.first).1 == UInt8(ascii: ",") {
          scanner.removeFirst()
          numbers.append(try integer())
        }
        try expect(UInt8(ascii: "]"))
      } else {
        numbers.append(try integer())
      }
      result.append((key, numbers))
      skipSpace()
      if scanner.first == UInt8(ascii: ",") {
        scanner.removeFirst()
        continue
      }
      try expect(UInt8(ascii: "}"))
      return result
    }
  }
}

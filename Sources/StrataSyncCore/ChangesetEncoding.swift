import Foundation
import StrataCore

/// A changeset that could not be read: not one, a format this version does not read, or cut
/// short; nothing of it was applied.
public struct ChangesetFormatError: Error, CustomStringConvertible, Sendable {
  /// Where reading stopped, and why.
  public let description: String
}

extension Changeset {
  /// The format ``encoded()`` writes; a reader refuses a later one (update the app to read it).
  public static let formatVersion: UInt8 = 1
  private static let magic: [UInt8] = Array("SSYN".utf8)

  /// The changeset in Strata's binary format: `SSYN`, the format version, a table of the
  /// strings it uses (tables, columns, replica ids), then the rows. Integers are LEB128
  /// varints (signed ones zigzag-encoded); values are a tag (0 NULL, 1 integer, 2 real as 8
  /// little-endian bytes, 3 text, 4 blob) and their bytes, so every value comes back exactly.
  public func encoded() -> [UInt8] {
    var strings = StringTable()
    var body = ByteWriter()
    body.unsigned(strings.index(replica))
    body.unsigned(strings.index(schemaVersion))
    body.signed(cursor.sequence)
    body.unsigned(UInt64(rows.count))
    for row in rows {
      body.unsigned(strings.index(row.table))
      body.value(row.key)
      body.stamp(row.stamp, &strings)
      body.byte(row.isDeleted ? 1 : 0)
      body.unsigned(UInt64(row.columns.count))
      for column in row.columns {
        body.unsigned(strings.index(column.name))
        body.unsigned(UInt64(column.values.count))
        for value in column.values {
          body.value(value.value)
          body.stamp(value.stamp, &strings)
          let clocks = value.versions.clocks.sorted { $0.key < $1.key }
          body.unsigned(UInt64(clocks.count))
          for (replica, clock) in clocks {
            body.unsigned(strings.index(replica))
            body.signed(clock)
          }
        }
        if let parts = column.parts {
          body.unsigned(UInt64(parts.count) + 1)
          for (replica, part) in parts.sorted(by: { $0.key < $1.key }) {
            body.unsigned(strings.index(replica))
            body.signed(part.clock)
            body.signed(part.total)
          }
        } else {
          body.unsigned(0)
        }
      }
    }
    var output = ByteWriter()
    output.bytes.append(contentsOf: Self.magic)
    output.byte(Self.formatVersion)
    output.unsigned(UInt64(strings.strings.count))
    for string in strings.strings {
      output.unsigned(UInt64(string.utf8.count))
      output.bytes.append(contentsOf: string.utf8)
    }
    output.bytes.append(contentsOf: body.bytes)
    return output.bytes
  }

  /// Reads a changeset ``encoded()`` wrote.
  ///
  /// - Throws: ``ChangesetFormatError`` for bytes that are not a whole changeset of a format
  ///   this version reads.
  public init(decoding bytes: [UInt8]) throws {
    var reader = ByteReader(bytes: bytes)
    guard bytes.starts(with: Self.magic) else { throw reader.error("it does not start with SSYN: not a Strata changeset") }
    reader.offset = Self.magic.count
    let version = try reader.byte()
    guard version == Self.formatVersion else {
      throw reader.error("it is in format \(version), and this version of Strata reads format \(Self.formatVersion); update the app")
    }
    let stringCount = try reader.count()
    var strings: [String] = []
    for _ in 0..<stringCount {
      let length = try reader.count()
      let utf8 = try reader.take(length)
      guard let string = String(bytes: utf8, encoding: .utf8) else { throw reader.error("a string is not UTF-8") }
      strings.append(string)
    }
    func string() throws -> String {
      let index = try reader.unsigned()
      guard index < UInt64(strings.count) else { throw reader.error("string \(index) is not in its table of \(strings.count)") }
      return strings[Int(index)]
    }
    func replicaID() throws -> String {
      let id = try string()
      guard ReplicaID.isValid(id) else { throw reader.error("replica id \(id.debugDescription) is not 32 lowercase hexadecimal digits") }
      return id
    }
    func stamp() throws -> SyncStamp {
      let clock = try reader.signed()
      return SyncStamp(clock: clock, replica: try replicaID())
    }
    replica = try replicaID()
    schemaVersion = try string()
    cursor = SyncCursor(try reader.signed())
    var rows: [RowChange] = []
    for _ in 0..<(try reader.count()) {
      let table = try string()
      let key = try reader.value()
      let rowStamp = try stamp()
      let deleted = try reader.byte()
      guard deleted <= 1 else { throw reader.error("a row's deleted flag is \(deleted)") }
      var columns: [ColumnState] = []
      for _ in 0..<(try reader.count()) {
        let name = try string()
        var values: [ColumnValue] = []
        for _ in 0..<(try reader.count()) {
          let value = try reader.value()
          let valueStamp = try stamp()
          var clocks: [String: Int64] = [:]
          for _ in 0..<(try reader.count()) {
            let replica = try replicaID()
            clocks[replica] = try reader.signed()
          }
          values.append(ColumnValue(value: value, stamp: valueStamp, versions: VersionVector(clocks)))
        }
        var parts: [String: CounterPart]?
        let partCount = try reader.count()
        if partCount > 0 {
          var read: [String: CounterPart] = [:]
          for _ in 0..<(partCount - 1) {
            let replica = try replicaID()
            read[replica] = CounterPart(clock: try reader.signed(), total: try reader.signed())
          }
          parts = read
        }
        guard !values.isEmpty else { throw reader.error("column \(name.debugDescription) of a row of \(table.debugDescription) has no value") }
        columns.append(ColumnState(name: name, values: values, parts: parts))
      }
      rows.append(RowChange(table: table, key: key, stamp: rowStamp, isDeleted: deleted == 1, columns: columns))
    }
    guard reader.offset == bytes.count else { throw reader.error("\(bytes.count - reader.offset) bytes follow its last row") }
    self.rows = rows
  }
}

private struct StringTable {
  var strings: [String] = []
  var indexes: [String: Int] = [:]

  mutating func index(_ string: String) -> UInt64 {
    if let index = indexes[string] { return UInt64(index) }
    indexes[string] = strings.count
    strings.append(string)
    return UInt64(strings.count - 1)
  }
}

private struct ByteWriter {
  var bytes: [UInt8] = []

  mutating func byte(_ value: UInt8) { bytes.append(value) }

  mutating func unsigned(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(value & 0x7F) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  mutating func signed(_ value: Int64) {
    unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  mutating func stamp(_ stamp: SyncStamp, _ strings: inout StringTable) {
    signed(stamp.clock)
    unsigned(strings.index(stamp.replica))
  }

  mutating func value(_ value: StoredValue) {
    switch value {
    case .null: byte(0)
    case .integer(let integer):
      byte(1)
      signed(integer)
    case .real(let real):
      byte(2)
      withUnsafeBytes(of: real.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    case .text(let text):
      byte(3)
      unsigned(UInt64(text.utf8.count))
      bytes.append(contentsOf: text.utf8)
    case .blob(let blob):
      byte(4)
      unsigned(UInt64(blob.count))
      bytes.append(contentsOf: blob)
    }
  }
}

private struct ByteReader {
  let bytes: [UInt8]
  var offset = 0

  func error(_ problem: String) -> ChangesetFormatError {
    ChangesetFormatError(description: "the changeset cannot be read at byte \(offset): \(problem)")
  }

  mutating func byte() throws -> UInt8 {
    guard offset < bytes.count else { throw error("it ends too soon") }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
    guard count <= bytes.count - offset else { throw error("it ends too soon") }
    defer { offset += count }
    return bytes[offset..<offset + count]
  }

  mutating func unsigned() throws -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = try byte()
      guard shift < 64, shift < 63 || next <= 1 else { throw error("a number is too large") }
      value |= UInt64(next & 0x7F) << shift
      if next < 0x80 { return value }
      shift += 7
    }
  }

  /// A count or index, which cannot exceed what is left to read (every item takes a byte).
  mutating func count() throws -> Int {
    let value = try unsigned()
    guard value <= UInt64(bytes.count - offset) + 1 else { throw error("a count of \(value) is more than the bytes left") }
    return Int(value)
  }

  mutating func signed() throws -> Int64 {
    let value = try unsigned()
    return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
  }

  mutating func value() throws -> StoredValue {
    switch try byte() {
    case 0: return .null
    case 1: return .integer(try signed())
    case 2:
      let raw = try take(8)
      var pattern: UInt64 = 0
      for (index, byte) in raw.enumerated() { pattern |= UInt64(byte) << (8 * UInt64(index)) }
      return .real(Double(bitPattern: pattern))
    case 3:
      let utf8 = try take(try count())
      guard let text = String(bytes: utf8, encoding: .utf8) else { throw error("a text value is not UTF-8") }
      return .text(text)
    case 4: return .blob(Array(try take(try count())))
    case let tag: throw error("a value has the unknown tag \(tag)")
    }
  }
}

import Foundation

/// Hand-written UUID text conversion: UUIDs are stored as lowercase 36-character TEXT, and
/// decoding runs once per UUID column per row, so it avoids Foundation's parser and any
/// intermediate `String`.
public enum UUIDText {
  /// The length of a UUID's text form.
  public static let length = 36

  /// Writes the lowercase text form of `uuid` into a stack buffer and passes it to `body`.
  @inlinable
  public static func withText<R>(
    _ uuid: UUID, _ body: (UnsafeRawBufferPointer) throws -> R
  ) rethrows -> R {
    try FixedWidthText.with(length: length, { write(uuid, to: $0) }, body)
  }

  /// The lowercase text form of `uuid`.
  public static func format(_ uuid: UUID) -> String {
    FixedWidthText.string(length: length) { write(uuid, to: $0) }
  }

  @inlinable
  static func write(_ uuid: UUID, to buffer: UnsafeMutableBufferPointer<UInt8>) {
    let digits: StaticString = "0123456789abcdef"
    digits.withUTF8Buffer { hex in
      withUnsafeBytes(of: uuid.uuid) { bytes in
        var out = 0
        for index in 0..<16 {
          if index == 4 || index == 6 || index == 8 || index == 10 {
            buffer[out] = UInt8(ascii: "-")
            out += 1
          }
          buffer[out] = hex[Int(bytes[index] >> 4)]
          buffer[out + 1] = hex[Int(bytes[index] & 0x0F)]
          out += 2
        }
      }
    }
  }

  /// Parses the 36-character text form (either case), or returns nil.
  ///
  /// Eight characters at a time, in 64-bit words, with no branch per character: with a branch
  /// per digit, decoding a row of two UUIDs spent a quarter of its time here, and a byte at a
  /// time without branches still took 1.4 times as long as this.
  @inlinable
  public static func parse(_ text: UnsafeRawBufferPointer) -> UUID? {
    guard text.count == length, let base = text.baseAddress else { return nil }
    func word(_ offset: Int) -> UInt64 {
      UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    func halves(_ first: Int, _ second: Int) -> UInt64 {
      UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: first, as: UInt32.self)))
        | UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: second, as: UInt32.self))) << 32
    }
    // The digits are at 0–7, 9–12 and 14–17, 19–22 and 24–27, and 28–35; dashes between.
    var invalid: UInt64 = 0
    let bytes = (
      bytes(spelledBy: word(0), invalid: &invalid), bytes(spelledBy: halves(9, 14), invalid: &invalid),
      bytes(spelledBy: halves(19, 24), invalid: &invalid), bytes(spelledBy: word(28), invalid: &invalid))
    let dashes = base.load(fromByteOffset: 8, as: UInt8.self) == dash
      && base.load(fromByteOffset: 13, as: UInt8.self) == dash
      && base.load(fromByteOffset: 18, as: UInt8.self) == dash
      && base.load(fromByteOffset: 23, as: UInt8.self) == dash
    guard dashes, invalid == 0 else { return nil }
    var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &uuid) { out in
      out.storeBytes(of: bytes.0.littleEndian, toByteOffset: 0, as: UInt32.self)
      out.storeBytes(of: bytes.1.littleEndian, toByteOffset: 4, as: UInt32.self)
      out.storeBytes(of: bytes.2.littleEndian, toByteOffset: 8, as: UInt32.self)
      out.storeBytes(of: bytes.3.littleEndian, toByteOffset: 12, as: UInt32.self)
    }
    return UUID(uuid: uuid)
  }

  /// The four bytes that eight hexadecimal digits spell, each character in one byte of `word`
  /// and each result in one byte of the result, the first in the lowest. A character that is
  /// not a digit (either case) leaves bits set in `invalid`.
  @inlinable @inline(__always)
  static func bytes(spelledBy word: UInt64, invalid: inout UInt64) -> UInt32 {
    let everyByte: UInt64 = 0x0101_0101_0101_0101
    let topBits: UInt64 = 0x8080_8080_8080_8080
    // Each byte of `value` below 0x80 gets its top bit when it is at least `bound`: adding
    // 0x80 - bound carries into that bit and never into the next byte.
    func atLeast(_ value: UInt64, _ bound: UInt64) -> UInt64 {
      (value &+ everyByte &* (0x80 &- bound)) & topBits
    }
    let ascii = word & ~topBits
    let folded = ascii | 0x2020_2020_2020_2020
    let isDigit = atLeast(ascii, 0x30) & ~atLeast(ascii, 0x3A)
    let isLetter = atLeast(folded, 0x61) & ~atLeast(folded, 0x67)
    invalid |= (word & topBits) | ((isDigit | isLetter) ^ topBits)
    // A digit's low four bits are its value; a letter's (1 to 6) are nine short of it.
    let values = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ (isLetter &>> 7) &* 9
    // Each even byte's value becomes the high half of a result byte, the next byte's the low.
    let pairs = (values & 0x000F_000F_000F_000F) &<< 4 | (values &>> 8) & 0x000F_000F_000F_000F
    let quads = (pairs | pairs &>> 8) & 0x0000_FFFF_0000_FFFF
    return UInt32(truncatingIfNeeded: quads | quads &>> 16)
  }

  @usableFromInline
  static let dash = UInt8(ascii: "-")
}

extension UUID: QueryBindable {
  /// UUIDs are stored as lowercase 36-character TEXT.
  public var queryBinding: QueryBinding { .uuid(self) }
  @inlinable
  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode(UUID.self) { value in
      switch value {
      case .text(let text): UUIDText.parse(text)
      case .uuid(let uuid): uuid
      default: nil
      }
    }
  }
}

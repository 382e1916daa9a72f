import Foundation

/// The floor's own UUID text conversion, written apart from Strata's `UUIDText` so that the
/// floor cannot inherit its costs: eight characters at a time in one 64-bit word (SWAR), with
/// no branch per character. It checks its input as Strata's parser does; a floor that skipped
/// the check would not be a program anyone ships.
enum FloorUUIDText {
  /// The UUID of 36 characters of text, in either case; nil for anything else.
  @inline(__always)
  static func parse(_ text: UnsafePointer<UInt8>, count: Int) -> UUID? {
    guard count == 36 else { return nil }
    let raw = UnsafeRawPointer(text)
    let dashes = raw.load(fromByteOffset: 8, as: UInt8.self) == 0x2D && raw.load(fromByteOffset: 13, as: UInt8.self) == 0x2D
      && raw.load(fromByteOffset: 18, as: UInt8.self) == 0x2D && raw.load(fromByteOffset: 23, as: UInt8.self) == 0x2D
    // The 32 digits as four words: 0–7, 9–12 with 14–17, 19–22 with 24–27, and 28–35.
    let half = { (offset: Int) in UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    let (a, aValid) = bytes(raw.loadUnaligned(as: UInt64.self))
    let (b, bValid) = bytes(half(9) | half(14) << 32)
    let (c, cValid) = bytes(half(19) | half(24) << 32)
    let (d, dValid) = bytes(raw.loadUnaligned(fromByteOffset: 28, as: UInt64.self))
    guard dashes, aValid, bValid, cValid, dValid else { return nil }
    var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &uuid) { out in
      out.storeBytes(of: a.littleEndian, toByteOffset: 0, as: UInt32.self)
      out.storeBytes(of: b.littleEndian, toByteOffset: 4, as: UInt32.self)
      out.storeBytes(of: c.littleEndian, toByteOffset: 8, as: UInt32.self)
      out.storeBytes(of: d.littleEndian, toByteOffset: 12, as: UInt32.self)
    }
    return UUID(uuid: uuid)
  }

  private static let ones: UInt64 = 0x0101_0101_0101_0101

  /// Eight hexadecimal characters, the first in the lowest byte, as the four bytes they spell
  /// (the first in the lowest byte), and whether all eight are digits.
  @inline(__always)
  private static func bytes(_ word: UInt64) -> (UInt32, Bool) {
    let high = ones &* 0x80
    let low = word & ~high
    // In each byte below 0x80, adding 0x80 - k sets the top bit exactly when the byte is ≥ k,
    // and never carries into the next byte.
    let atLeast = { (value: UInt64, bound: UInt64) in (value &+ ones &* (0x80 &- bound)) & high }
    let isDigit = atLeast(low, 0x30) & ~atLeast(low, 0x3A)
    let folded = low | ones &* 0x20
    let isLetter = atLeast(folded, 0x61) & ~atLeast(folded, 0x67)
    let valid = word & high == 0 && isDigit | isLetter == high
    // A digit's low four bits are its value; a letter's are 1–6, nine short of its value.
    let nibbles = (low & ones &* 0x0F) &+ (isLetter >> 7) &* 9
    // Each even byte takes its own nibble as the high half and the next byte's as the low.
    var pairs = (nibbles << 4 | nibbles >> 8) & 0x00FF_00FF_00FF_00FF
    pairs = (pairs | pairs >> 8) & 0x0000_FFFF_0000_FFFF
    pairs = pairs | pairs >> 16
    return (UInt32(truncatingIfNeeded: pairs), valid)
  }

  /// Writes the lowercase text of `uuid` to a stack buffer and passes it to `body`.
  @inline(__always)
  static func withText<R>(_ uuid: UUID, _ body: (UnsafePointer<CChar>) -> R) -> R {
    var text: (UInt64, UInt64, UInt64, UInt64, UInt32) = (0, 0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &text) { buffer in
      withUnsafeBytes(of: uuid.uuid) { bytes in
        let digits: StaticString = "0123456789abcdef"
        let hex = digits.utf8Start
        var out = 0
        for index in 0..<16 {
          buffer[out] = hex[Int(bytes[index] >> 4)]
          buffer[out + 1] = hex[Int(bytes[index] & 0x0F)]
          out += 2
          // Dashes after the 4th, 6th, 8th and 10th bytes.
          if (1 << index) & 0b10_1010_1000 != 0 {
            buffer[out] = 0x2D
            out += 1
          }
        }
      }
      return body(buffer.baseAddress!.assumingMemoryBound(to: CChar.self))
    }
  }
}

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
  @inlinable
  public static func parse(_ text: UnsafeRawBufferPointer) -> UUID? {
    guard text.count == length, let base = text.baseAddress else { return nil }
    let characters = base.assumingMemoryBound(to: UInt8.self)
    guard characters[8] == dash, characters[13] == dash, characters[18] == dash,
      characters[23] == dash
    else { return nil }
    // Invalid digits map to values with high bits set; they are OR-ed together and checked
    // once, so parsing has no early exits.
    var invalid: UInt8 = 0
    let uuid: uuid_t = (
      byte(characters, 0, &invalid), byte(characters, 2, &invalid),
      byte(characters, 4, &invalid), byte(characters, 6, &invalid),
      byte(characters, 9, &invalid), byte(characters, 11, &invalid),
      byte(characters, 14, &invalid), byte(characters, 16, &invalid),
      byte(characters, 19, &invalid), byte(characters, 21, &invalid),
      byte(characters, 24, &invalid), byte(characters, 26, &invalid),
      byte(characters, 28, &invalid), byte(characters, 30, &invalid),
      byte(characters, 32, &invalid), byte(characters, 34, &invalid)
    )
    return invalid & 0xF0 == 0 ? UUID(uuid: uuid) : nil
  }

  /// The byte written as two hexadecimal digits at `offset`; OR-s invalid digits into
  /// `invalid`.
  @inlinable @inline(__always)
  static func byte(_ characters: UnsafePointer<UInt8>, _ offset: Int, _ invalid: inout UInt8)
    -> UInt8
  {
    let high = hexValue(characters[offset])
    let low = hexValue(characters[offset &+ 1])
    invalid |= high | low
    return high &<< 4 | low & 0x0F
  }

  @usableFromInline
  static let dash = UInt8(ascii: "-")

  /// The value of a hexadecimal digit (either case), or a value with its high bits set. No
  /// branches: comparisons become masks, so the 32 digits of a UUID compile to straight-line
  /// code (a branch per digit was a quarter of the time spent decoding a row of two UUIDs).
  @inlinable @inline(__always)
  static func hexValue(_ character: UInt8) -> UInt8 {
    let digit = character &- UInt8(ascii: "0")
    let letter = (character | 0x20) &- UInt8(ascii: "a")
    // 0xFF when the difference is below the bound: subtracting borrows into the high byte.
    let isDigit = UInt8(truncatingIfNeeded: (UInt16(digit) &- 10) &>> 8)
    let isLetter = UInt8(truncatingIfNeeded: (UInt16(letter) &- 6) &>> 8)
    return (digit & isDigit) | ((letter &+ 10) & isLetter) | (0xF0 & ~(isDigit | isLetter))
  }
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

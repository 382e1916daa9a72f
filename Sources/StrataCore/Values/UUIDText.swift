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
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
      write(uuid, to: buffer)
      return try body(UnsafeRawBufferPointer(buffer))
    }
  }

  /// The lowercase text form of `uuid`.
  public static func format(_ uuid: UUID) -> String {
    String(unsafeUninitializedCapacity: length) { buffer in
      write(uuid, to: buffer)
      return length
    }
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
    guard text.count == length,
      text[8] == UInt8(ascii: "-"), text[13] == UInt8(ascii: "-"),
      text[18] == UInt8(ascii: "-"), text[23] == UInt8(ascii: "-")
    else { return nil }
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let valid = withUnsafeMutableBytes(of: &bytes) { output -> Bool in
      var input = 0
      for index in 0..<16 {
        if input == 8 || input == 13 || input == 18 || input == 23 { input += 1 }
        guard let high = hexValue(text[input]), let low = hexValue(text[input + 1]) else {
          return false
        }
        output[index] = high << 4 | low
        input += 2
      }
      return true
    }
    return valid ? UUID(uuid: bytes) : nil
  }

  @inlinable
  static func hexValue(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return character &- UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return character &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return character &- UInt8(ascii: "A") &+ 10
    default: return nil
    }
  }
}

extension UUID: QueryBindable {
  /// UUIDs are stored as lowercase 36-character TEXT.
  public var queryBinding: QueryBinding { .uuid(self) }
  @inlinable
  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode(UUID.self) { value in
      if case .text(let text) = value { return UUIDText.parse(text) }
      return nil
    }
  }
}

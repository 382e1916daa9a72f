/// SQL text made of pieces whose lengths are known before any is copied: the text is written
/// into one allocation of its exact size.
///
/// Appending a `String` to another costs a few hundred instructions a piece (uniqueness,
/// capacity and growth checks, then the flags), which on the paths that build every update and
/// every operator expression was more than the rest of their building. Copying each piece's
/// bytes into a buffer of the right size is a `memcpy` each.
@usableFromInline
struct SQLText {
  @usableFromInline var buffer: UnsafeMutableBufferPointer<UInt8>
  @usableFromInline var count = 0

  @inlinable
  init(buffer: UnsafeMutableBufferPointer<UInt8>) {
    self.buffer = buffer
  }

  /// A string of `length` UTF-8 bytes, which `body` writes: the sum of the lengths of what it
  /// writes must be `length`.
  @inlinable
  static func build(length: Int, _ body: (inout SQLText) -> Void) -> String {
    String(unsafeUninitializedCapacity: length) { buffer in
      var text = SQLText(buffer: buffer)
      body(&text)
      return text.count
    }
  }

  /// Copies `piece`'s UTF-8 bytes after what is written.
  @inlinable
  mutating func write(_ piece: String) {
    var piece = piece
    piece.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return }
      precondition(count + bytes.count <= buffer.count, "SQLText: more text than its length")
      (buffer.baseAddress! + count).update(from: base, count: bytes.count)
      count += bytes.count
    }
  }
}

/// Text of a known length written into a stack buffer, for the hand-written UUID and date
/// formats: binding a value borrows the buffer instead of allocating a `String`.
public enum FixedWidthText {
  /// Writes `length` bytes with `write` into a stack buffer and passes them to `body`.
  @inlinable
  public static func with<R>(
    length: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Void,
    _ body: (UnsafeRawBufferPointer) throws -> R
  ) rethrows -> R {
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
      write(buffer)
      return try body(UnsafeRawBufferPointer(buffer))
    }
  }

  /// The `length` bytes `write` produces, as a string.
  static func string(length: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> String {
    String(unsafeUninitializedCapacity: length) { buffer in
      write(buffer)
      return length
    }
  }
}

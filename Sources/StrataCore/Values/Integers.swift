// Integers are stored as SQLite INTEGER (a signed 64-bit value). Narrower types check the range
// when decoding, so an out-of-range value is a decoding error rather than a trap. `UInt` and
// `UInt64` are not bindable: half their range has no INTEGER representation.

extension Int64: QueryBindable {
  public var queryBinding: QueryBinding { .integer(self) }
  @inlinable
  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode(Int64.self) { value in
      if case .integer(let int) = value { return int }
      return nil
    }
  }
}

/// The integer types narrower than `Int64`, decoded with a range check.
public protocol _NarrowInteger: FixedWidthInteger, QueryBindable {}

extension _NarrowInteger {
  public var queryBinding: QueryBinding { .integer(Int64(self)) }
  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode(Self.self) { value in
      if case .integer(let int) = value { return Self(exactly: int) }
      return nil
    }
  }
}

extension Int: QueryBindable {
  public var queryBinding: QueryBinding { .integer(Int64(self)) }
  @inlinable
  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode(Int.self) { value in
      if case .integer(let int) = value { return Int(exactly: int) }
      return nil
    }
  }
}

extension Int8: _NarrowInteger {}
extension Int16: _NarrowInteger {}
extension Int32: _NarrowInteger {}
extension UInt8: _NarrowInteger {}
extension UInt16: _NarrowInteger {}
extension UInt32: _NarrowInteger {}

extension Bool: QueryBindable {
  /// Booleans are stored as INTEGER 0 or 1 (PostgreSQL's `boolean`); any non-zero integer reads
  /// back as `true`.
  public var queryBinding: QueryBinding { .bool(self) }
  @inlinable
  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode(Bool.self) { value in
      if case .integer(let int) = value { return int != 0 }
      return nil
    }
  }
}

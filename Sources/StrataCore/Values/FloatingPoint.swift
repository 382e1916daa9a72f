// Floating-point values are stored as REAL. An INTEGER column value (SQLite returns one for
// `sum` of integers, or for a REAL that has no fractional part in a non-STRICT table) reads back
// as the same number.

extension Double: QueryBindable {
  public var queryBinding: QueryBinding { .real(self) }
  @inlinable
  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode(Double.self) { value in
      switch value {
      case .real(let double): return double
      case .integer(let int): return Double(int)
      default: return nil
      }
    }
  }
}

extension Float: QueryBindable {
  public var queryBinding: QueryBinding { .real(Double(self)) }
  @inlinable
  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode(Float.self) { value in
      switch value {
      case .real(let double): return Float(double)
      case .integer(let int): return Float(int)
      default: return nil
      }
    }
  }
}

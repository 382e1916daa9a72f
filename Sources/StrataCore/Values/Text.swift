extension String: QueryBindable {
  public var queryBinding: QueryBinding { .text(self) }
  @inlinable
  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode(String.self) { value in
      if case .text(let bytes) = value { return String(decoding: bytes, as: UTF8.self) }
      return nil
    }
  }
}

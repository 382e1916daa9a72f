// `nil` is SQL NULL. An optional table or selection (the right side of a LEFT JOIN) reads as
// `nil` when every column it spans is NULL.

extension Optional: QueryRepresentable where Wrapped: QueryRepresentable {
  public typealias QueryOutput = Wrapped.QueryOutput?
  public typealias Unwrapped = Wrapped.Unwrapped
  public typealias Optionalized = Self

  @inlinable
  public init(decoder: inout some QueryDecoder) throws {
    if decoder.decodeNulls(count: Wrapped.queryColumnCount) {
      self = nil
    } else {
      self = try Wrapped(decoder: &decoder)
    }
  }

  public init(queryOutput: Wrapped.QueryOutput?) {
    self = queryOutput.map(Wrapped.init(queryOutput:))
  }

  public var queryOutput: Wrapped.QueryOutput? { self?.queryOutput }

  @inlinable public static var queryColumnCount: Int { Wrapped.queryColumnCount }
  public static var isOptional: Bool { true }
}

extension Optional: QueryExpression where Wrapped: QueryBindable {
  public typealias QueryValue = Self
}

extension Optional: QueryBindable where Wrapped: QueryBindable {
  public var queryBinding: QueryBinding { self?.queryBinding ?? .null }
}

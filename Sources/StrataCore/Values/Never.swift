// `Never?` is the type of an expression that is always NULL: the result of a Swift function
// called for its effect (`ScalarFunction("log") { (message: String) in … }`). No value of
// `Never` exists, so reading a non-NULL column as one is a decoding error that names it.

extension Never: QueryBindable {
  public var queryBinding: QueryBinding { switch self {} }

  public init(decoder: inout some QueryDecoder) throws {
    try decoder.decode(Never.self) { _ -> Never? in nil }
  }
}

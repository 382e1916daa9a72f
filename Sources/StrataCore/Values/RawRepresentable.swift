// A `RawRepresentable` type whose raw value is bindable is stored as its raw value. Declaring
// `QueryBindable` conformance is all it takes:
//
//     enum Status: String, QueryBindable { case active, archived }
//
// A raw value with no matching case is a decoding error that names the type.

extension QueryRepresentable where Self: RawRepresentable, RawValue: QueryBindable, QueryOutput == Self {
  @inlinable
  public init(decoder: inout some QueryDecoder) throws {
    self = try decoder.decode(Self.self) { column in
      var single = SingleValueDecoder(value: column)
      return (try? RawValue(decoder: &single)).flatMap(Self.init(rawValue:))
    }
  }
}

extension QueryBindable where Self: RawRepresentable, RawValue: QueryBindable {
  public var queryBinding: QueryBinding { rawValue.queryBinding }
}

/// A decoder over one column value that has already been read, used to decode a raw value
/// inside another type's conversion.
@usableFromInline
struct SingleValueDecoder: QueryDecoder {
  @usableFromInline
  var value: QueryColumnValue?

  @usableFromInline
  init(value: QueryColumnValue) { self.value = value }

  @usableFromInline
  mutating func decode<Value>(
    _ expected: Any.Type, as convert: (QueryColumnValue) -> Value?
  ) throws -> Value {
    guard let current = value, let result = convert(current) else {
      throw SingleValueMismatch()
    }
    value = nil
    return result
  }

  @usableFromInline
  mutating func decodeNulls(count: Int) -> Bool {
    guard count == 1, case .null = value else { return false }
    value = nil
    return true
  }
}

@usableFromInline
struct SingleValueMismatch: Error {
  @usableFromInline
  init() {}
}

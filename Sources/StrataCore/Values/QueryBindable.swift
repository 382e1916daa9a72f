/// A type whose values can be bound to a statement parameter and read back from a column.
///
/// A bindable value is also an expression of its own type, so values and columns mix freely:
/// `$0.score > 10`, `$0.title.eq(title)`, `$0.name = "Blob"`. Its SQL is always a `?`
/// placeholder; the value travels as a binding.
///
/// To store your own type, conform it to this protocol. A `RawRepresentable` enum whose raw value
/// is bindable needs only the conformance:
///
/// ```swift
/// enum Priority: Int, QueryBindable { case low = 1, medium, high }
/// ```
public protocol QueryBindable: QueryRepresentable, QueryExpression where QueryValue == Self {
  /// The value as a statement binding.
  var queryBinding: QueryBinding { get }
}

extension QueryBindable {
  public var queryFragment: QueryFragment { QueryFragment(binding: queryBinding) }
}

/// A type that can be read from the columns of a result row.
///
/// Most conforming types stand for themselves (`QueryOutput == Self`): `Int`, `String`, a
/// `Table`. A *representation* stands for another Swift type stored in a particular way, such as
/// ``JSONRepresentation`` (a `Codable` value stored as JSON text): queries are typed by the
/// representation, and fetching returns its `QueryOutput`.
public protocol QueryRepresentable<Unwrapped> {
  /// The Swift type a fetch returns for this type.
  associatedtype QueryOutput = Self

  /// This type with any optionality removed: `Int` for both `Int` and `Int?`.
  ///
  /// Comparisons accept operands whose `Unwrapped` types match, so an optional column can be
  /// compared with a non-optional value, and `some QueryExpression<some QueryRepresentable<T>>`
  /// accepts an expression of either `T` or `T?`.
  associatedtype Unwrapped: QueryRepresentable = Self

  /// This type made optional: `Int?` for both `Int` and `Int?`. What a column becomes on the
  /// optional side of an outer join.
  associatedtype Optionalized: QueryRepresentable = Self?

  /// Reads a value from the decoder's current column(s), advancing past them.
  init(decoder: inout some QueryDecoder) throws

  /// Wraps a Swift value in this representation.
  init(queryOutput: QueryOutput)

  /// The Swift value this representation stands for.
  var queryOutput: QueryOutput { get }

  /// How many result columns a value of this type spans: 1 for a scalar, the column count for
  /// a table or selection.
  static var queryColumnCount: Int { get }

  /// Whether SQL NULL is a valid value of this type.
  static var isOptional: Bool { get }
}

// Inlinable, so that decoding specialized in the caller's module sees through them rather than
// calling an opaque getter that returns a copy of the value.

extension QueryRepresentable {
  @inlinable public static var queryColumnCount: Int { 1 }
  @inlinable public static var isOptional: Bool { false }
}

extension QueryRepresentable where QueryOutput == Self {
  @inlinable public init(queryOutput: Self) { self = queryOutput }
  @inlinable public var queryOutput: Self { self }
}

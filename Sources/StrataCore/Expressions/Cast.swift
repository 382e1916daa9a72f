import Foundation

/// A column type SQLite can convert a value to with `CAST(x AS …)`.
public enum TypeAffinity: String, Hashable, Sendable {
  case integer = "INTEGER"
  case real = "REAL"
  case text = "TEXT"
  case blob = "BLOB"
  case numeric = "NUMERIC"

  /// The PostgreSQL type of the same values: `INTEGER` and `REAL` there are 32 bits wide.
  var postgreSQLType: String {
    switch self {
    case .integer: "bigint"
    case .real: "double precision"
    case .text: "text"
    case .blob: "bytea"
    case .numeric: "numeric"
    }
  }
}

/// A type an expression can be cast to: `$0.score.cast(as: String.self)`.
public protocol CastableType: QueryBindable {
  /// The SQL type the value is converted to.
  static var typeAffinity: TypeAffinity { get }
}

extension Int: CastableType { public static var typeAffinity: TypeAffinity { .integer } }
extension Int64: CastableType { public static var typeAffinity: TypeAffinity { .integer } }
extension Bool: CastableType { public static var typeAffinity: TypeAffinity { .integer } }
extension Double: CastableType { public static var typeAffinity: TypeAffinity { .real } }
extension String: CastableType { public static var typeAffinity: TypeAffinity { .text } }
extension Data: CastableType { public static var typeAffinity: TypeAffinity { .blob } }

extension DatabaseExpression where QueryValue: QueryBindable {
  /// `CAST(x AS type)`: SQLite's conversion, which never fails (text that is not a number
  /// becomes 0, a REAL cast to INTEGER truncates).
  public func cast<Target: CastableType>(as _: Target.Type = Target.self) -> AnyQueryExpression<Target> {
    AnyQueryExpression(Self.cast(queryFragment, Target.typeAffinity))
  }

  static func cast(_ operand: QueryFragment, _ affinity: TypeAffinity) -> QueryFragment {
    // SQLite truncates a REAL cast to INTEGER; PostgreSQL rounds, unless the value is truncated
    // first.
    let truncates = affinity == .integer && QueryValue.Unwrapped.self is any BinaryFloatingPoint.Type
    let value = truncates
      ? QueryFragment(piece: .postgreSQLText("trunc(")) + operand.argument + QueryFragment(piece: .postgreSQLText(")"))
      : operand.argument
    return "CAST(" + value
      + QueryFragment(piece: .respelled(sqlite: " AS \(affinity.rawValue))", postgreSQL: " AS \(affinity.postgreSQLType))"))
  }
}

extension DatabaseExpression where QueryValue: _OptionalQueryValue, QueryValue: QueryBindable {
  /// `CAST(x AS type)` of an optional expression: NULL stays NULL.
  public func cast<Target: CastableType>(as _: Target.Type = Target.self) -> AnyQueryExpression<Target?> {
    AnyQueryExpression(Self.cast(queryFragment, Target.typeAffinity))
  }
}

extension DatabaseExpression where QueryValue: QueryBindable {
  /// `CAST(x AS type)` typed optional, as StructuredQueries spells it: `cast(as: Int?.self)`.
  @_disfavoredOverload
  public func cast<Target: CastableType>(as _: Target?.Type) -> AnyQueryExpression<Target?> {
    AnyQueryExpression(Self.cast(queryFragment, Target.typeAffinity))
  }
}

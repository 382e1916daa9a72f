// `??` on SQL expressions is `coalesce(lhs, rhs)`. It is declared on the expression types
// (columns and operator results) rather than on every `QueryExpression`, because plain Swift
// optionals are expressions too and `??` on them must keep meaning the standard library's
// operator. Declared on the concrete types with no generic parameters of its own, it also wins
// over the standard library's `??` when both sides are optional columns, which would otherwise
// wrap the left side in an optional and never read the right.

/// The optional types, for constraining APIs to optional expressions.
public protocol _OptionalQueryValue: QueryRepresentable, ExpressibleByNilLiteral {
  associatedtype Wrapped: QueryRepresentable

  /// The optional of this type holding `wrapped`'s value: for generic code that knows only
  /// that the type is optional.
  static func _wrapping(_ wrapped: Wrapped?) -> Self
}

extension Optional: _OptionalQueryValue where Wrapped: QueryRepresentable {
  public static func _wrapping(_ wrapped: Wrapped?) -> Self { wrapped }
}

extension TableColumn where Value: _OptionalQueryValue {
  /// `coalesce(lhs, rhs)` of two columns of the same type: NULL only when both are.
  public static func ?? (lhs: Self, rhs: Self) -> AnyQueryExpression<Value> {
    Coalesce.expression(lhs, rhs)
  }

  /// `coalesce(lhs, rhs)`: `rhs` when `lhs` is NULL.
  public static func ?? (lhs: Self, rhs: some QueryExpression<Value.Wrapped>)
    -> AnyQueryExpression<Value.Wrapped>
  {
    Coalesce.expression(lhs, rhs)
  }

  /// `coalesce(lhs, rhs)`: NULL only when both are.
  public static func ?? (lhs: Self, rhs: some QueryExpression<Value>) -> AnyQueryExpression<Value> {
    Coalesce.expression(lhs, rhs)
  }
}

extension TableColumn where Value: _OptionalQueryValue, Value.Wrapped: QueryBindable {
  /// `coalesce(lhs, ?)`, with a value of the column's type: literals take it (`$0.size ?? 0`
  /// on an `Int64?` column).
  public static func ?? (lhs: Self, rhs: Value.Wrapped) -> AnyQueryExpression<Value.Wrapped> {
    Coalesce.expression(lhs, rhs)
  }
}

extension AnyQueryExpression where QueryValue: _OptionalQueryValue, QueryValue.Wrapped: QueryBindable {
  /// `coalesce(lhs, ?)`, with a value of the expression's type: literals take it
  /// (`$0.size.max() ?? 0` on an `Int64` column).
  public static func ?? (lhs: Self, rhs: QueryValue.Wrapped) -> AnyQueryExpression<QueryValue.Wrapped> {
    Coalesce.expression(lhs, rhs)
  }
}

extension AnyQueryExpression where QueryValue: _OptionalQueryValue {
  /// `coalesce(lhs, rhs)` of two expressions of the same type: NULL only when both are.
  public static func ?? (lhs: Self, rhs: Self) -> Self {
    Coalesce.expression(lhs, rhs)
  }

  /// `coalesce(lhs, rhs)`: `rhs` when `lhs` is NULL.
  public static func ?? (lhs: Self, rhs: some QueryExpression<QueryValue.Wrapped>)
    -> AnyQueryExpression<QueryValue.Wrapped>
  {
    Coalesce.expression(lhs, rhs)
  }

  /// `coalesce(lhs, rhs)`: NULL only when both are.
  public static func ?? (lhs: Self, rhs: some QueryExpression<QueryValue>) -> AnyQueryExpression<QueryValue> {
    Coalesce.expression(lhs, rhs)
  }
}

enum Coalesce {
  static func expression<Value>(
    _ lhs: some QueryExpression, _ rhs: some QueryExpression
  ) -> AnyQueryExpression<Value> {
    AnyQueryExpression(SQLOperator.function("coalesce", lhs.queryFragment, rhs.queryFragment))
  }
}

extension Select where Columns: _OptionalQueryValue, Columns.Wrapped: QueryBindable {
  /// `coalesce((SELECT …), ?)`: a scalar subquery's value, or `rhs` when it is NULL or selects no
  /// row, as StructuredQueries spells it: `Reminder.select { $0.id.min() } ?? 0`.
  public static func ?? (lhs: Self, rhs: Columns.Wrapped) -> AnyQueryExpression<Columns.Wrapped> {
    Coalesce.expression(lhs, rhs)
  }
}

// `??` on SQL expressions is `coalesce(lhs, rhs)`. It is disfavored so that `??` on plain Swift
// optionals keeps meaning the standard library's operator.

extension QueryExpression {
  /// `coalesce(lhs, rhs)`: `rhs` when `lhs` is NULL; not optional when `rhs` is not.
  @_disfavoredOverload
  public static func ?? <Wrapped: QueryRepresentable, Other: QueryExpression>(
    lhs: Self, rhs: Other
  ) -> AnyQueryExpression<Wrapped> where QueryValue == Wrapped?, Other.QueryValue == Wrapped {
    AnyQueryExpression(SQLOperator.function("coalesce", lhs.queryFragment, rhs.queryFragment))
  }

  /// `coalesce(lhs, rhs)` with an optional fallback: NULL only when both are.
  @_disfavoredOverload
  public static func ?? <Wrapped: QueryRepresentable, Other: QueryExpression>(
    lhs: Self, rhs: Other
  ) -> AnyQueryExpression<Wrapped?> where QueryValue == Wrapped?, Other.QueryValue == Wrapped? {
    AnyQueryExpression(SQLOperator.function("coalesce", lhs.queryFragment, rhs.queryFragment))
  }
}

// Comparisons accept operands whose types match once optionality is removed, so an optional
// column compares with a plain value. `eq` and `neq` use SQL's `IS` / `IS NOT` when either side
// is optional, which treat two NULLs as equal the way Swift's `==` treats two nils.

extension QueryExpression where QueryValue: QueryBindable {
  /// `lhs = rhs` (or `lhs IS rhs` when either side is optional).
  public func eq<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    let nullable = QueryValue.isOptional || Other.QueryValue.isOptional
    return AnyQueryExpression(SQLOperator.binary(self, nullable ? "IS" : "=", other))
  }

  /// `lhs <> rhs` (or `lhs IS NOT rhs` when either side is optional).
  public func neq<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    let nullable = QueryValue.isOptional || Other.QueryValue.isOptional
    return AnyQueryExpression(SQLOperator.binary(self, nullable ? "IS NOT" : "<>", other))
  }

  /// `lhs < rhs`.
  public static func < <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, "<", rhs))
  }

  /// `lhs > rhs`.
  public static func > <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, ">", rhs))
  }

  /// `lhs <= rhs`.
  public static func <= <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, "<=", rhs))
  }

  /// `lhs >= rhs`.
  public static func >= <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, ">=", rhs))
  }

  /// `lhs BETWEEN lower AND upper`.
  public func between<Lower: QueryExpression, Upper: QueryExpression>(
    _ lower: Lower, and upper: Upper
  ) -> AnyQueryExpression<Bool>
  where
    Lower.QueryValue: QueryBindable, Lower.QueryValue.Unwrapped == QueryValue.Unwrapped,
    Upper.QueryValue: QueryBindable, Upper.QueryValue.Unwrapped == QueryValue.Unwrapped
  {
    var fragment = queryFragment.operand
    fragment.append(raw: " BETWEEN ")
    fragment.append(lower.queryFragment.operand)
    fragment.append(raw: " AND ")
    fragment.append(upper.queryFragment.operand)
    return AnyQueryExpression(fragment.compound())
  }
}

extension QueryExpression {
  /// `lhs IS NULL` when `other` is nil, `lhs IS ?` otherwise.
  public func `is`<Wrapped: QueryBindable>(_ other: Wrapped?) -> AnyQueryExpression<Bool>
  where QueryValue == Wrapped? {
    guard let other else { return AnyQueryExpression(SQLOperator.postfix(self, " IS NULL")) }
    return AnyQueryExpression(SQLOperator.binary(self, "IS", other))
  }

  /// `lhs IS NOT NULL` when `other` is nil, `lhs IS NOT ?` otherwise.
  public func isNot<Wrapped: QueryBindable>(_ other: Wrapped?) -> AnyQueryExpression<Bool>
  where QueryValue == Wrapped? {
    guard let other else { return AnyQueryExpression(SQLOperator.postfix(self, " IS NOT NULL")) }
    return AnyQueryExpression(SQLOperator.binary(self, "IS NOT", other))
  }
}

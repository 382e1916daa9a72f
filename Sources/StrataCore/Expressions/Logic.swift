// Boolean operators on SQL expressions. Plain Swift `Bool` values keep the standard library's
// operators, which the type checker prefers because they are not generic.

extension QueryExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped == Bool {
  /// `lhs AND rhs`.
  public static func && <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == Bool {
    AnyQueryExpression(SQLOperator.binary(lhs, "AND", rhs))
  }

  /// `lhs OR rhs`.
  public static func || <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == Bool {
    AnyQueryExpression(SQLOperator.binary(lhs, "OR", rhs))
  }

  /// `NOT operand`.
  public static prefix func ! (operand: Self) -> AnyQueryExpression<Bool> {
    AnyQueryExpression(SQLOperator.prefix("NOT ", operand))
  }
}

// Boolean operators on SQL expressions. Plain Swift `Bool` values keep the standard library's
// operators, which the type checker prefers because they are not generic.

extension QueryExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped == Bool {
  /// `lhs AND rhs`.
  public static func && <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == Bool {
    AnyQueryExpression(SQLOperator.binary(lhs, " AND ", rhs))
  }

  /// `lhs OR rhs`.
  public static func || <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == Bool {
    AnyQueryExpression(SQLOperator.binary(lhs, " OR ", rhs))
  }

  /// `NOT operand`.
  public static prefix func ! (operand: Self) -> AnyQueryExpression<Bool> {
    AnyQueryExpression(SQLOperator.prefix("NOT ", operand))
  }

  /// `self AND other`, StructuredQueries' method form of `&&`.
  public func and<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == Bool {
    self && other
  }

  /// `self OR other`, StructuredQueries' method form of `||`.
  public func or<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == Bool {
    self || other
  }

  /// `NOT self`, StructuredQueries' method form of `!`.
  public func not() -> AnyQueryExpression<Bool> {
    !self
  }
}

// Arithmetic on numeric expressions, and `+` as SQL's `||` on text. SQLite divides integers
// the way Swift does (truncating); dividing by zero yields NULL.

extension QueryExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped: Numeric {
  /// `lhs + rhs`.
  public static func + <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, "+", rhs))
  }

  /// `lhs - rhs`.
  public static func - <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, "-", rhs))
  }

  /// `lhs * rhs`.
  public static func * <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, "*", rhs))
  }

  /// `lhs / rhs`: truncating for integers; NULL when dividing by zero.
  public static func / <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, "/", rhs))
  }

  /// `-operand`.
  public static prefix func - (operand: Self) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.prefix("-", operand))
  }
}

// The forms taking the expression's own type let literals infer it: `$0.size + 1` on an `Int64`
// column.
extension QueryExpression where QueryValue: QueryBindable, QueryValue.Unwrapped: Numeric {
  /// `lhs + ?`.
  public static func + (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.binary(lhs, "+", rhs))
  }

  /// `lhs - ?`.
  public static func - (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.binary(lhs, "-", rhs))
  }

  /// `lhs * ?`.
  public static func * (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.binary(lhs, "*", rhs))
  }

  /// `lhs / ?`.
  public static func / (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.binary(lhs, "/", rhs))
  }
}

extension QueryExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped == String {
  /// Concatenation: `lhs || rhs`.
  public static func + <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == String {
    AnyQueryExpression(SQLOperator.binary(lhs, "||", rhs))
  }
}

// Arithmetic on numeric expressions, and `+` as SQL's `||` on text. SQLite divides integers
// the way Swift does (truncating); dividing by zero yields NULL.

extension QueryExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped: Numeric {
  /// `lhs + rhs`.
  @inlinable
  public static func + <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, " + ", rhs))
  }

  /// `lhs - rhs`.
  @inlinable
  public static func - <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, " - ", rhs))
  }

  /// `lhs * rhs`.
  @inlinable
  public static func * <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, " * ", rhs))
  }

  /// `lhs / rhs`: truncating for integers; NULL when dividing by zero.
  @inlinable
  public static func / <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, " / ", rhs))
  }

  /// `-operand`.
  public static prefix func - (operand: Self) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.prefix("-", operand))
  }
}

// The forms taking the expression's own type let literals infer it: `$0.size + 1` on an `Int64`
// column. They are declared on database expressions only, so that arithmetic on Swift values
// has no more overloads to consider.
extension DatabaseExpression where QueryValue: QueryBindable, QueryValue.Unwrapped: Numeric {
  /// `lhs + ?`.
  @inlinable
  public static func + (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.binary(lhs, " + ", rhs))
  }

  /// `lhs - ?`.
  @inlinable
  public static func - (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.binary(lhs, " - ", rhs))
  }

  /// `lhs * ?`.
  @inlinable
  public static func * (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.binary(lhs, " * ", rhs))
  }

  /// `lhs / ?`.
  @inlinable
  public static func / (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.binary(lhs, " / ", rhs))
  }
}

extension QueryExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped == String {
  /// Concatenation: `lhs || rhs`.
  @inlinable
  public static func + <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == String {
    AnyQueryExpression(SQLOperator.binary(lhs, " || ", rhs))
  }
}

// Integer-only operators: remainder and the bitwise ones, computed by SQLite on 64-bit integers.
// Declared on database expressions only, so Swift integers keep just their own.
extension DatabaseExpression where QueryValue: QueryBindable, QueryValue.Unwrapped: BinaryInteger {
  /// `lhs % rhs`: the remainder, with the sign of `lhs` as in Swift; NULL when `rhs` is 0, so
  /// it is optional, as in StructuredQueries.
  public static func % <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue.Unwrapped?>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.remainder(lhs, rhs))
  }

  /// `lhs & rhs`: bitwise AND.
  public static func & <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, " & ", rhs))
  }

  /// `lhs | rhs`: bitwise OR.
  public static func | <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(lhs, " | ", rhs))
  }

  /// `lhs << rhs`: shift left (right for a negative `rhs`).
  public static func << <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.shift(lhs, " << ", rhs))
  }

  /// `lhs >> rhs`: shift right, keeping the sign.
  public static func >> <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<QueryValue>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.shift(lhs, " >> ", rhs))
  }

  /// `~operand`: bitwise NOT.
  public static prefix func ~ (operand: Self) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.prefix("~", operand))
  }

  /// `lhs % ?`, with a value of the expression's type; NULL when it is 0.
  public static func % (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<QueryValue.Unwrapped?> {
    AnyQueryExpression(SQLOperator.remainder(lhs, rhs))
  }

  /// `lhs & ?`, with a value of the expression's type.
  public static func & (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.binary(lhs, " & ", rhs))
  }

  /// `lhs | ?`, with a value of the expression's type.
  public static func | (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.binary(lhs, " | ", rhs))
  }

  /// `lhs << ?`, with a value of the expression's type.
  public static func << (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.shift(lhs, " << ", rhs))
  }

  /// `lhs >> ?`, with a value of the expression's type.
  public static func >> (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.shift(lhs, " >> ", rhs))
  }
}

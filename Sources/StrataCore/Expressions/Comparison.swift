// Comparisons accept operands whose types match once optionality is removed, so an optional
// column compares with a plain value. As in SQL (and StructuredQueries), `eq`/`neq` are `=`/`<>`:
// a NULL operand matches nothing. `is`/`isNot` are SQL's `IS`/`IS NOT`, which treat two NULLs as
// equal the way Swift's `==` treats two nils.
//
// Each operator has a generic form, for another expression, and one taking the column's own
// type, so that literals and leading-dot cases infer: `$0.status.eq(.active)`,
// `$0.size > 5` on an `Int64` column.

extension QueryExpression where QueryValue: QueryBindable {
  /// `lhs = rhs`; NULL on either side matches nothing (use `is(_:)` for that).
  @inlinable
  public func eq<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(self, " = ", other))
  }

  /// `lhs = ?`, with a value of the expression's type: `$0.status.eq(.active)`.
  @inlinable
  public func eq(_ other: QueryValue) -> AnyQueryExpression<Bool> {
    AnyQueryExpression(SQLOperator.binary(self, " = ", other))
  }

  /// `lhs <> rhs`; NULL on either side matches nothing (use `isNot(_:)` for that).
  @inlinable
  public func neq<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(self, " <> ", other))
  }

  /// `lhs <> ?`, with a value of the expression's type.
  @inlinable
  public func neq(_ other: QueryValue) -> AnyQueryExpression<Bool> {
    AnyQueryExpression(SQLOperator.binary(self, " <> ", other))
  }

  /// `lhs IS rhs`: like `=`, but NULL is NULL.
  public func `is`<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(self, SQLOperator.nullSafeEquality(negated: false), other))
  }

  /// `lhs IS NOT rhs`: like `<>`, but NULL is NULL.
  public func isNot<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(self, SQLOperator.nullSafeEquality(negated: true), other))
  }

  /// `lhs < rhs`.
  public static func < <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    lhs.lt(rhs)
  }

  /// `lhs > rhs`.
  public static func > <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    lhs.gt(rhs)
  }

  /// `lhs <= rhs`.
  public static func <= <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    lhs.lte(rhs)
  }

  /// `lhs >= rhs`.
  public static func >= <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    lhs.gte(rhs)
  }

  /// `lhs < rhs`, the method form of `<` (lighter on the type checker in long expressions).
  @inlinable
  public func lt<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(self, " < ", other))
  }

  /// `lhs > rhs`, the method form of `>`.
  @inlinable
  public func gt<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(self, " > ", other))
  }

  /// `lhs <= rhs`, the method form of `<=`.
  @inlinable
  public func lte<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(self, " <= ", other))
  }

  /// `lhs >= rhs`, the method form of `>=`.
  @inlinable
  public func gte<Other: QueryExpression>(_ other: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    AnyQueryExpression(SQLOperator.binary(self, " >= ", other))
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

// Declared on database expressions only, so that comparisons of Swift values have no more
// overloads to consider.
extension DatabaseExpression where QueryValue: QueryBindable {
  /// `lhs < ?`, with a value of the expression's type.
  public static func < (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<Bool> { lhs.lt(rhs) }

  /// `lhs > ?`, with a value of the expression's type.
  public static func > (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<Bool> { lhs.gt(rhs) }

  /// `lhs <= ?`, with a value of the expression's type.
  public static func <= (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<Bool> { lhs.lte(rhs) }

  /// `lhs >= ?`, with a value of the expression's type.
  public static func >= (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<Bool> { lhs.gte(rhs) }
}

extension QueryExpression where QueryValue: QueryBindable, QueryValue.Unwrapped: QueryBindable {
  /// `lhs IS NULL` when `other` is nil, `lhs IS ?` otherwise: `$0.dueDate.is(nil)`,
  /// `$0.status.is(.active)`.
  public func `is`(_ other: QueryValue.Unwrapped?) -> AnyQueryExpression<Bool> {
    guard let other else { return AnyQueryExpression(SQLOperator.postfix(self, " IS NULL")) }
    return AnyQueryExpression(SQLOperator.binary(self, SQLOperator.nullSafeEquality(negated: false), other))
  }

  /// `lhs IS NOT NULL` when `other` is nil, `lhs IS NOT ?` otherwise.
  public func isNot(_ other: QueryValue.Unwrapped?) -> AnyQueryExpression<Bool> {
    guard let other else { return AnyQueryExpression(SQLOperator.postfix(self, " IS NOT NULL")) }
    return AnyQueryExpression(SQLOperator.binary(self, SQLOperator.nullSafeEquality(negated: true), other))
  }
}

// `==` and `!=` would compare the Swift values of the expressions, not their SQL; declaring them
// unavailable turns a confusing type-checking error into guidance. Swift values are not
// `DatabaseExpression`s, so their own `==` is unaffected.
extension DatabaseExpression where QueryValue: QueryBindable {
  @available(*, unavailable, message: "Use 'eq' (or 'is') instead.")
  public static func == <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    lhs.eq(rhs)
  }

  @available(*, unavailable, message: "Use 'eq' (or 'is') instead.")
  public static func == (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<Bool> {
    lhs.eq(rhs)
  }

  @available(*, unavailable, message: "Use 'neq' or 'isNot' instead.")
  public static func != <Other: QueryExpression>(lhs: Self, rhs: Other) -> AnyQueryExpression<Bool>
  where Other.QueryValue: QueryBindable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    lhs.neq(rhs)
  }

  @available(*, unavailable, message: "Use 'neq' or 'isNot' instead.")
  public static func != (lhs: Self, rhs: QueryValue) -> AnyQueryExpression<Bool> {
    lhs.neq(rhs)
  }
}

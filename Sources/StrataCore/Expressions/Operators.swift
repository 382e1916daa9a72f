/// Builders for operator and function SQL, shared by the expression APIs.
@usableFromInline
enum SQLOperator {
  /// `lhs op rhs`, parenthesizing operands that are themselves operator expressions; `op` is
  /// written with its spaces (`" + "`), so that nothing is concatenated to make it on the path
  /// of every `$0.score += 1`.
  @inlinable
  static func binary(
    _ lhs: some QueryExpression, _ op: String, _ rhs: some QueryExpression
  ) -> QueryFragment {
    binary(lhs, QueryFragment(raw: op), rhs)
  }

  /// `lhs op rhs` with an operator spelled by the dialect.
  @inlinable
  static func binary(
    _ lhs: some QueryExpression, _ op: QueryFragment, _ rhs: some QueryExpression
  ) -> QueryFragment {
    QueryFragment(joining: lhs.queryFragment.operand, op, rhs.queryFragment.operand).compound()
  }

  /// SQLite's ` IS ` (or ` IS NOT `): `=` (or `<>`) with NULL equal to NULL, which PostgreSQL
  /// spells ` IS NOT DISTINCT FROM ` (or ` IS DISTINCT FROM `).
  static func nullSafeEquality(negated: Bool) -> QueryFragment {
    negated
      ? QueryFragment(piece: .respelled(sqlite: " IS NOT ", postgreSQL: " IS DISTINCT FROM "))
      : QueryFragment(piece: .respelled(sqlite: " IS ", postgreSQL: " IS NOT DISTINCT FROM "))
  }

  /// `lhs % rhs`, which SQLite makes NULL when `rhs` is 0 and PostgreSQL an error: there,
  /// `lhs % NULLIF(rhs, 0)`.
  static func remainder(_ lhs: some QueryExpression, _ rhs: some QueryExpression) -> QueryFragment {
    let divisor = QueryFragment(piece: .postgreSQLText("NULLIF(")) + rhs.queryFragment.operand
      + QueryFragment(piece: .postgreSQLText(", 0)"))
    return binary(lhs, " % ", AnyQueryExpression<Int>(divisor))
  }

  /// `lhs << rhs` or `>>`: PostgreSQL shifts by an `integer`, not a `bigint`.
  static func shift(_ lhs: some QueryExpression, _ op: String, _ rhs: some QueryExpression) -> QueryFragment {
    binary(lhs, op, AnyQueryExpression<Int>(rhs.queryFragment.operand.castForPostgreSQL("integer")))
  }

  /// `name(arguments…)`; a subquery argument is parenthesized.
  static func function(_ name: String, _ arguments: QueryFragment...) -> QueryFragment {
    call(QueryFragment(raw: name), arguments)
  }

  /// `name(arguments…)` of a function only SQLite has: a statement that calls it cannot be
  /// rendered for another dialect.
  static func sqliteFunction(_ name: String, _ arguments: QueryFragment...) -> QueryFragment {
    call(QueryFragment(raw: name), arguments).sqliteOnly("the function \(name)")
  }

  /// `name(arguments…)` of a function SQLite names its own way, respelled for other dialects.
  static func function(_ function: SQLiteFunction, _ arguments: QueryFragment...) -> QueryFragment {
    call(QueryFragment(piece: .function(function)), arguments)
  }

  /// `name(arguments…)`; a subquery argument is parenthesized.
  static func call(_ name: QueryFragment, _ arguments: [QueryFragment]) -> QueryFragment {
    name + "(" + arguments.map(\.argument).joined(separator: ", ") + ")"
  }

  /// `op operand`, for prefix operators such as `NOT` and `-`.
  static func prefix(_ op: String, _ operand: some QueryExpression) -> QueryFragment {
    (QueryFragment(raw: op) + operand.queryFragment.operand).compound()
  }

  /// `operand op`, for postfix operators such as `IS NULL`.
  static func postfix(_ operand: some QueryExpression, _ op: String) -> QueryFragment {
    var fragment = operand.queryFragment.operand
    fragment.append(raw: op)
    return fragment.compound()
  }
}

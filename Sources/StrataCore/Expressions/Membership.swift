// `IN` with a list of values or a subquery. An empty list is valid SQL in SQLite and matches
// nothing, even NULL; PostgreSQL says the same with `= ANY('{}')`.

extension QueryExpression where QueryValue: QueryBindable {
  /// `lhs IN (?, ?, …)`.
  public func `in`<Values: Sequence>(_ values: Values) -> AnyQueryExpression<Bool>
  where Values.Element: QueryExpression, Values.Element.QueryValue: QueryBindable,
    Values.Element.QueryValue.Unwrapped == QueryValue.Unwrapped
  {
    var fragment = queryFragment.operand
    let list = values.map(\.queryFragment).joined(separator: ", ")
    if list.isEmpty {
      fragment.append(QueryFragment(piece: .respelled(sqlite: " IN ()", postgreSQL: " = ANY('{}')")))
    } else {
      fragment.append(raw: " IN (")
      fragment.append(list)
      fragment.append(raw: ")")
    }
    return AnyQueryExpression(fragment.compound())
  }

  /// `lhs IN (SELECT …)`, of a select, a compound select, `Values` or a `WITH` statement.
  public func `in`<Value: QueryBindable>(
    _ subquery: some SelectStatement<Value>
  ) -> AnyQueryExpression<Bool> where Value.Unwrapped == QueryValue.Unwrapped {
    var fragment = queryFragment.operand
    fragment.append(raw: " IN ")
    fragment.append(subquery.queryFragment.parenthesized())
    return AnyQueryExpression(fragment.compound())
  }
}

extension SelectStatement where QueryValue: QueryBindable {
  /// `element IN (SELECT …)`: whether the statement returns `element`.
  public func contains<Element: QueryExpression>(_ element: Element) -> AnyQueryExpression<Bool>
  where Element.QueryValue: QueryBindable, Element.QueryValue.Unwrapped == QueryValue.Unwrapped {
    element.in(self)
  }
}

extension Sequence where Element: QueryBindable {
  /// Whether the expression's value is one of the sequence's: `[1, 2].contains($0.id)` is
  /// `"items"."id" IN (?, ?)`, as in StructuredQueries.
  @_disfavoredOverload
  public func contains<Expression: QueryExpression>(_ expression: Expression) -> AnyQueryExpression<Bool>
  where Expression.QueryValue: QueryBindable, Expression.QueryValue.Unwrapped == Element.Unwrapped {
    expression.in(self)
  }
}

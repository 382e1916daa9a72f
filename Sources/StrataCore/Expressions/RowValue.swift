// Row values: several expressions compared as one, in the order given.
//
//   Item.where { RowValue($0.categoryID, $0.title).in(Favorite.select { ($0.categoryID, $0.title) }) }
//   // WHERE ("items"."categoryID", "items"."title") IN (SELECT "favorites"."categoryID", …)
//   Item.where { RowValue($0.createdAt, $0.id) > RowValue(cursor.createdAt, cursor.id) }   // keyset paging
//
// SQLite and PostgreSQL compare row values element by element: `<` orders by the first element,
// then the next; `=` is NULL when an element is NULL and the others are equal. A list on the
// right of `IN` is written as `VALUES`, which both read (SQLite takes no list of rows there).

/// `(a, b, …)`: expressions compared as a whole with another row value, a list of them, or the
/// rows of a subquery. Elements compare by their types without optionality, as single
/// expressions do: `Elements` is the tuple of those types.
public struct RowValue<Elements>: Hashable, Sendable {
  let queryFragment: QueryFragment

  /// The row of two or more expressions, in order.
  public init<First: QueryExpression, Second: QueryExpression, each Rest: QueryExpression>(
    _ first: First, _ second: Second, _ rest: repeat each Rest
  )
  where
    First.QueryValue: QueryRepresentable, Second.QueryValue: QueryRepresentable,
    repeat (each Rest).QueryValue: QueryRepresentable,
    Elements == (First.QueryValue.Unwrapped, Second.QueryValue.Unwrapped, repeat (each Rest).QueryValue.Unwrapped)
  {
    var elements = [first.queryFragment.argument, second.queryFragment.argument]
    for expression in repeat each rest { elements.append(expression.queryFragment.argument) }
    queryFragment = "(" + elements.joined(separator: ", ") + ")"
  }

  /// `(a, b) IN (SELECT x, y …)`: whether the subquery returns this row.
  public func `in`<First: QueryRepresentable, Second: QueryRepresentable, each Rest: QueryRepresentable>(
    _ subquery: some SelectStatement<(First, Second, repeat each Rest)>
  ) -> AnyQueryExpression<Bool>
  where Elements == (First.Unwrapped, Second.Unwrapped, repeat (each Rest).Unwrapped) {
    AnyQueryExpression((queryFragment + " IN " + subquery.queryFragment.parenthesized()).compound())
  }

  /// `(a, b) IN (VALUES (?, ?), …)`: whether this row is one of `rows`; false for none.
  public func `in`(_ rows: [Self]) -> AnyQueryExpression<Bool> {
    guard !rows.isEmpty else { return AnyQueryExpression(QueryFragment(piece: .boolean(false))) }
    let list = rows.map(\.queryFragment).joined(separator: ", ")
    return AnyQueryExpression((queryFragment + " IN (VALUES " + list + ")").compound())
  }

  /// `(a, b) = (c, d)`.
  public func eq(_ other: Self) -> AnyQueryExpression<Bool> { comparison("=", other) }
  /// `(a, b) <> (c, d)`.
  public func neq(_ other: Self) -> AnyQueryExpression<Bool> { comparison("<>", other) }
  /// `(a, b) < (c, d)`: `a < c`, or `a = c` and `b < d`.
  public func lt(_ other: Self) -> AnyQueryExpression<Bool> { comparison("<", other) }
  /// `(a, b) > (c, d)`.
  public func gt(_ other: Self) -> AnyQueryExpression<Bool> { comparison(">", other) }
  /// `(a, b) <= (c, d)`.
  public func lte(_ other: Self) -> AnyQueryExpression<Bool> { comparison("<=", other) }
  /// `(a, b) >= (c, d)`.
  public func gte(_ other: Self) -> AnyQueryExpression<Bool> { comparison(">=", other) }

  public static func < (lhs: Self, rhs: Self) -> AnyQueryExpression<Bool> { lhs.lt(rhs) }
  public static func > (lhs: Self, rhs: Self) -> AnyQueryExpression<Bool> { lhs.gt(rhs) }
  public static func <= (lhs: Self, rhs: Self) -> AnyQueryExpression<Bool> { lhs.lte(rhs) }
  public static func >= (lhs: Self, rhs: Self) -> AnyQueryExpression<Bool> { lhs.gte(rhs) }

  private func comparison(_ op: String, _ other: Self) -> AnyQueryExpression<Bool> {
    AnyQueryExpression((queryFragment + QueryFragment(raw: " " + op + " ") + other.queryFragment).compound())
  }
}

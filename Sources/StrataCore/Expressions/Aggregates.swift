// Aggregate functions. Each takes an optional `filter`, rendered as SQLite's
// `FILTER (WHERE …)`: only rows meeting the condition are aggregated.

extension DatabaseExpression where QueryValue: QueryBindable {
  /// `count(x)`: the number of non-NULL values (distinct ones when `distinct` is true).
  public func count(
    distinct: Bool = false, filter: (any QueryExpression<Bool>)? = nil
  ) -> AnyQueryExpression<Int> {
    Aggregate.call("count", self, distinct: distinct, filter: filter)
  }

  /// `sum(x)`: the sum of non-NULL values; NULL when there are none.
  public func sum(
    distinct: Bool = false, filter: (any QueryExpression<Bool>)? = nil
  ) -> AnyQueryExpression<QueryValue.Unwrapped?> where QueryValue.Unwrapped: Numeric {
    Aggregate.call("sum", self, distinct: distinct, filter: filter)
  }

  /// `total(x)`: the sum of non-NULL values as a REAL; 0.0 when there are none.
  public func total(
    distinct: Bool = false, filter: (any QueryExpression<Bool>)? = nil
  ) -> AnyQueryExpression<Double> where QueryValue.Unwrapped: Numeric {
    // PostgreSQL has no total: its sum, 0.0 for no rows, as a double.
    let sum: AnyQueryExpression<Double> = Aggregate.call(
      QueryFragment(piece: .respelled(sqlite: "total", postgreSQL: "sum")), queryFragment.argument, nil,
      distinct: distinct, filter: filter)
    return AnyQueryExpression(
      QueryFragment(piece: .postgreSQLText("CAST(coalesce(")) + sum.queryFragment
        + QueryFragment(piece: .postgreSQLText(", 0) AS double precision)")))
  }

  /// `avg(x)`: the average of non-NULL values; NULL when there are none.
  public func avg(
    distinct: Bool = false, filter: (any QueryExpression<Bool>)? = nil
  ) -> AnyQueryExpression<Double?> where QueryValue.Unwrapped: Numeric {
    Aggregate.call("avg", self, distinct: distinct, filter: filter)
  }

  /// `min(x)`: the smallest non-NULL value; NULL when there are none.
  public func min(filter: (any QueryExpression<Bool>)? = nil)
    -> AnyQueryExpression<QueryValue.Unwrapped?>
  {
    Aggregate.call("min", self, distinct: false, filter: filter)
  }

  /// `max(x)`: the largest non-NULL value; NULL when there are none.
  public func max(filter: (any QueryExpression<Bool>)? = nil)
    -> AnyQueryExpression<QueryValue.Unwrapped?>
  {
    Aggregate.call("max", self, distinct: false, filter: filter)
  }

  /// `group_concat(x, separator)`: non-NULL values joined as text, in no guaranteed order;
  /// NULL when there are none. SQLite's default separator is a comma. (PostgreSQL's is
  /// `string_agg(CAST(x AS text), separator)`.)
  public func groupConcat(
    separator: String? = nil, distinct: Bool = false,
    filter: (any QueryExpression<Bool>)? = nil
  ) -> AnyQueryExpression<String?> {
    Aggregate.call(
      QueryFragment(piece: .respelled(sqlite: "group_concat", postgreSQL: "string_agg")),
      queryFragment.castForPostgreSQL("text"),
      // SQLite's default separator, which PostgreSQL needs written.
      separator.map { ", " + $0.queryFragment } ?? QueryFragment(piece: .postgreSQLText(", ','")),
      distinct: distinct, filter: filter)
  }
}

extension DatabaseExpression where QueryValue: QueryBindable {
  /// `group_concat(x, separator)`, with the separator unlabeled as StructuredQueries spells it:
  /// `$0.title.groupConcat(", ")`.
  public func groupConcat(
    _ separator: String, distinct: Bool = false, filter: (any QueryExpression<Bool>)? = nil
  ) -> AnyQueryExpression<String?> {
    groupConcat(separator: separator, distinct: distinct, filter: filter)
  }
}

extension TableColumnSet {
  /// `count(primaryKey)`, or `count("table"."rowid")` for a table without one: the number of
  /// rows, not counting the NULL rows an outer join adds.
  ///
  /// A common table expression has no `rowid`, so count one of its columns instead.
  public func count(
    distinct: Bool = false, filter: (any QueryExpression<Bool>)? = nil
  ) -> AnyQueryExpression<Int> {
    identity.count(distinct: distinct, filter: filter)
  }
}

enum Aggregate {
  static func call<Value>(
    _ name: String, _ argument: some QueryExpression, _ extra: QueryFragment? = nil,
    distinct: Bool, filter: (any QueryExpression<Bool>)?, sqliteOnly: Bool = false
  ) -> AnyQueryExpression<Value> {
    let call: AnyQueryExpression<Value> = call(
      QueryFragment(raw: name), argument.queryFragment.argument, extra.map { ", " + $0 }, distinct: distinct, filter: filter)
    return sqliteOnly ? AnyQueryExpression(call.queryFragment.sqliteOnly("the function \(name)")) : call
  }

  /// `name([DISTINCT] argument[, extra]) [FILTER (WHERE filter)]`; `extra` starts with its comma.
  static func call<Value>(
    _ name: QueryFragment, _ argument: QueryFragment, _ extra: QueryFragment?,
    distinct: Bool, filter: (any QueryExpression<Bool>)?
  ) -> AnyQueryExpression<Value> {
    var fragment = name + (distinct ? "(DISTINCT " : "(")
    fragment.append(argument)
    if let extra { fragment.append(extra) }
    fragment.append(raw: ")")
    if let filter {
      fragment.append(raw: " FILTER (WHERE ")
      fragment.append(filter.queryFragment)
      fragment.append(raw: ")")
    }
    return AnyQueryExpression(fragment)
  }
}

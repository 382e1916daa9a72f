/// A term of an `ORDER BY` clause: an expression with a direction.
///
/// Ordering terms are expressions of type `Never`, so they can be listed in `order` but not
/// selected or used as a condition.
public struct OrderingTerm: QueryExpression, Hashable, Sendable {
  public typealias QueryValue = Never
  public let queryFragment: QueryFragment
}

/// Where NULLs sort relative to other values.
public enum NullOrdering: String, Sendable {
  case first = "NULLS FIRST"
  case last = "NULLS LAST"
}

extension DatabaseExpression where QueryValue: QueryBindable {
  /// Ascending order; SQLite puts NULLs first unless `nulls` says otherwise.
  public func asc(nulls: NullOrdering? = nil) -> OrderingTerm {
    ordering("ASC", nulls)
  }

  /// Descending order; SQLite puts NULLs last unless `nulls` says otherwise.
  public func desc(nulls: NullOrdering? = nil) -> OrderingTerm {
    ordering("DESC", nulls)
  }

  private func ordering(_ direction: String, _ nulls: NullOrdering?) -> OrderingTerm {
    var fragment = queryFragment.operand
    fragment.append(raw: " " + direction)
    if let nulls {
      fragment.append(raw: " " + nulls.rawValue)
    } else {
      fragment.append(NullOrdering.sqlite(of: Self.self, descending: direction == "DESC"))
    }
    return OrderingTerm(queryFragment: fragment)
  }
}

extension NullOrdering {
  /// SQLite sorts NULL before every value; PostgreSQL after, unless told. For an expression that
  /// can be NULL, PostgreSQL is told (`NULLS FIRST` ascending, `NULLS LAST` descending); one that
  /// cannot is left alone, so that PostgreSQL can still read an index in order.
  static func sqlite<Expression: QueryExpression>(of _: Expression.Type, descending: Bool) -> QueryFragment {
    guard (Expression.QueryValue.self as? any QueryRepresentable.Type)?.isOptional == true else { return QueryFragment() }
    return QueryFragment(piece: .postgreSQLText(descending ? " NULLS LAST" : " NULLS FIRST"))
  }
}

/// Builds the terms of an `ORDER BY` clause from expressions, ordering terms, tuples of them,
/// and `if`/`else`.
@resultBuilder
public enum OrderingBuilder: QueryFragmentListBuilder {
  public static func buildExpression<Term: QueryExpression>(_ term: Term) -> [QueryFragment] {
    [ascending(term)]
  }

  public static func buildExpression<each Term: QueryExpression>(
    _ terms: (repeat each Term)
  ) -> [QueryFragment] {
    var fragments: [QueryFragment] = []
    for term in repeat each terms { fragments.append(ascending(term)) }
    return fragments
  }

  /// A term without a direction, which sorts ascending, with SQLite's place for NULLs.
  private static func ascending<Term: QueryExpression>(_ term: Term) -> QueryFragment {
    term.queryFragment + NullOrdering.sqlite(of: Term.self, descending: false)
  }
}

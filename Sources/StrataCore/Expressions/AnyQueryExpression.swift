/// An expression of type `QueryValue` built from SQL: the result of an operator or function.
public struct AnyQueryExpression<QueryValue>: DatabaseExpression, Hashable, Sendable {
  public let queryFragment: QueryFragment

  /// Wraps SQL as an expression of type `QueryValue`.
  public init(_ queryFragment: QueryFragment) {
    self.queryFragment = queryFragment
  }

  /// Wraps another expression, keeping its SQL.
  public init(_ expression: some QueryExpression<QueryValue>) {
    self.queryFragment = expression.queryFragment
  }
}

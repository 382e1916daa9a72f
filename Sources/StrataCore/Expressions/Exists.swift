extension SelectStatement {
  /// `EXISTS (SELECT …)`: whether the statement returns any row.
  public func exists() -> AnyQueryExpression<Bool> {
    AnyQueryExpression(("EXISTS " + queryFragment.parenthesized()).marked(.atom))
  }
}

extension Table {
  /// `EXISTS (SELECT … FROM "table")` under the default scope: whether the table has any row.
  public static func exists() -> AnyQueryExpression<Bool> {
    scoped.exists()
  }
}

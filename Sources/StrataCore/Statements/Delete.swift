/// A `DELETE` from table `From` whose `RETURNING` rows decode as `Returning` (`()` without a
/// `RETURNING` clause).
public struct Delete<From: Table, Returning>: QueryStatement, Hashable, Sendable {
  public typealias QueryValue = Returning

  /// The rows to delete.
  @usableFromInline var rows: Where<From>
  @usableFromInline var returning = ReturningClause()

  @inlinable
  init(rows: Where<From>, returning: ReturningClause = ReturningClause()) {
    self.rows = rows
    self.returning = returning
  }

  public var isEmpty: Bool { rows.isEmpty }

  public var queryFragment: QueryFragment {
    render(rows.resolved)
  }

  @inlinable
  public var singleBatch: QueryFragment? {
    rows.withResolvedClauses { $0.isEmpty ? QueryFragment() : render($0) }
  }

  /// The statement for the rows `clauses` (its filter's, with their scope resolved) select.
  @inlinable
  func render(_ clauses: SelectClauses) -> QueryFragment {
    let tableSQL = From._tableSQL
    if returning.columns.isEmpty, let bindings = clauses.onlyCondition(tableSQL.keyEqualsParameter),
      let sql = tableSQL.deleteByKey
    {
      return QueryFragment(sql: sql, bindings: bindings)
    }
    var fragment = QueryFragment(raw: tableSQL.deleteFrom)
    fragment.reserveCapacity(128)
    rows.appendRowFilter(clauses, of: tableSQL, to: &fragment)
    fragment.append(returning.queryFragment)
    return fragment
  }

  /// Adds conditions on the rows to delete; they combine with `AND`.
  public func `where`(@PredicateBuilder _ predicate: (From.TableColumns) -> [QueryFragment]) -> Self {
    var delete = self
    delete.rows = rows.where(predicate)
    return delete
  }

  /// Adds a Boolean column to the conditions: `.where(\.isActive)`.
  public func `where`<Predicate: QueryExpression>(
    _ keyPath: KeyPath<From.TableColumns, Predicate>
  ) -> Self where Predicate.QueryValue: QueryRepresentable, Predicate.QueryValue.Unwrapped == Bool {
    var statement = self
    statement.rows = rows.where(keyPath)
    return statement
  }

  /// Adds a `RETURNING` clause with the expression the closure returns; it sees the deleted row.
  public func returning<Selected: QueryExpression>(
    _ selection: (From.TableColumns) -> Selected
  ) -> Delete<From, Selected.QueryValue> where Selected.QueryValue: QueryRepresentable {
    Delete<From, Selected.QueryValue>(rows: rows, returning: ReturningClause(selection(From.columns)))
  }

  /// Adds a `RETURNING` clause with a column: `.returning(\.id)`, or the whole row:
  /// `.returning(\.self)`.
  public func returning<Selected: QueryExpression>(
    _ keyPath: KeyPath<From.TableColumns, Selected>
  ) -> Delete<From, Selected.QueryValue> where Selected.QueryValue: QueryRepresentable {
    returning { $0[keyPath: keyPath] }
  }

  /// Adds a `RETURNING` clause with the expressions the closure returns; they see the deleted
  /// row.
  public func returning<First: QueryExpression, Second: QueryExpression, each Selected: QueryExpression>(
    _ selection: (From.TableColumns) -> (First, Second, repeat each Selected)
  ) -> Delete<From, (First.QueryValue, Second.QueryValue, repeat (each Selected).QueryValue)>
  where
    First.QueryValue: QueryRepresentable, Second.QueryValue: QueryRepresentable,
    repeat (each Selected).QueryValue: QueryRepresentable
  {
    Delete<From, (First.QueryValue, Second.QueryValue, repeat (each Selected).QueryValue)>(
      rows: rows, returning: ReturningClause([ResultColumn](selection, From.columns)))
  }
}

extension Select where Columns == (), Joins == () {
  /// Deletes the rows this statement selects.
  ///
  /// When ordering, grouping or a limit choose the rows, they are matched by `rowid`.
  @inlinable
  public func delete() -> Delete<From, ()> {
    Delete(rows: self)
  }
}

extension Table {
  /// Deletes every row of the table (under its default scope).
  public static func delete() -> Delete<Self, ()> {
    scoped.delete()
  }
}

extension PrimaryKeyedTable {
  /// Deletes the row with `row`'s primary key.
  public static func delete(_ row: Self) -> Delete<Self, ()> {
    unscoped.find(row.primaryKey).delete()
  }
}

extension Delete where From: PrimaryKeyedTable {
  /// Narrows the statement to the row whose primary key is `key`: `Item.delete(…).find(id)`.
  public func find(_ key: some QueryExpression<From.PrimaryKey>) -> Self {
    var statement = self
    statement.rows = rows.find(key)
    return statement
  }

  /// Narrows the statement to the rows whose primary keys are in `keys`.
  public func find(_ keys: some Sequence<From.PrimaryKey>) -> Self {
    var statement = self
    statement.rows = rows.find(keys)
    return statement
  }
}

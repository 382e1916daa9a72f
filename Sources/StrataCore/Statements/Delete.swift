/// A `DELETE` from table `From` whose `RETURNING` rows decode as `Returning` (`()` without a
/// `RETURNING` clause).
public struct Delete<From: Table, Returning>: QueryStatement, Hashable, Sendable {
  public typealias QueryValue = Returning

  var filter: SelectClauses
  var returning = ReturningClause()

  public var isEmpty: Bool { filter.isEmpty }

  public var queryFragment: QueryFragment {
    var fragment: QueryFragment = "DELETE FROM "
    fragment.append(quoting: From.tableName)
    fragment.append(filter.rowFilter)
    fragment.append(returning.queryFragment)
    return fragment
  }

  /// Adds a `RETURNING` clause with the expressions the closure returns; they see the deleted
  /// row.
  public func returning<each Selected: QueryExpression>(
    _ selection: (From.TableColumns) -> (repeat each Selected)
  ) -> Delete<From, (repeat (each Selected).QueryValue)>
  where repeat (each Selected).QueryValue: QueryRepresentable {
    Delete<From, (repeat (each Selected).QueryValue)>(
      filter: filter, returning: ReturningClause(repeat each selection(From.columns)))
  }
}

extension Select where Columns == From, Joins == () {
  /// Deletes the rows this statement selects.
  ///
  /// When ordering, grouping or a limit choose the rows, they are matched by `rowid`.
  public func delete() -> Delete<From, ()> {
    Delete(filter: clauses)
  }
}

extension Table {
  /// Deletes every row of the table.
  public static func delete() -> Delete<Self, ()> {
    all.delete()
  }
}

extension PrimaryKeyedTable {
  /// Deletes the row with `row`'s primary key.
  public static func delete(_ row: Self) -> Delete<Self, ()> {
    find(row.primaryKey).delete()
  }
}

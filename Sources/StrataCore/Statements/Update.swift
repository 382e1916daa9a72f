/// An `UPDATE` of table `From` whose `RETURNING` rows decode as `Returning` (`()` without a
/// `RETURNING` clause).
public struct Update<From: Table, Returning>: QueryStatement, Hashable, Sendable {
  public typealias QueryValue = Returning

  var assignments: [Assignment]
  var filter: SelectClauses
  var returning = ReturningClause()

  public var isEmpty: Bool { filter.isEmpty || assignments.isEmpty }

  public var queryFragment: QueryFragment {
    guard !assignments.isEmpty else { return QueryFragment() }
    var fragment: QueryFragment = "UPDATE "
    fragment.append(quoting: From.tableName)
    fragment.append(raw: " SET ")
    fragment.append(assignments.map(\.queryFragment).joined(separator: ", "))
    fragment.append(filter.rowFilter)
    fragment.append(returning.queryFragment)
    return fragment
  }

  /// Adds a `RETURNING` clause with the expressions the closure returns; they see the updated
  /// row.
  public func returning<each Selected: QueryExpression>(
    _ selection: (From.TableColumns) -> (repeat each Selected)
  ) -> Update<From, (repeat (each Selected).QueryValue)>
  where repeat (each Selected).QueryValue: QueryRepresentable {
    Update<From, (repeat (each Selected).QueryValue)>(
      assignments: assignments, filter: filter,
      returning: ReturningClause(repeat each selection(From.columns)))
  }
}

extension Select where Columns == From, Joins == () {
  /// Updates the rows this statement selects.
  ///
  /// When ordering, grouping or a limit choose the rows, they are matched by `rowid`.
  public func update(set updates: (inout Updates<From>) -> Void) -> Update<From, ()> {
    var assignments = Updates<From>()
    updates(&assignments)
    return Update(assignments: assignments.assignments, filter: clauses)
  }
}

extension Table {
  /// Updates every row of the table.
  public static func update(set updates: (inout Updates<Self>) -> Void) -> Update<Self, ()> {
    all.update(set: updates)
  }
}

extension PrimaryKeyedTable {
  /// Writes every column of `row` to the row with the same primary key.
  public static func update(_ row: Self) -> Update<Self, ()> {
    var values: [QueryBinding] = []
    row.encode(into: &values)
    let key = columns.primaryKey.name
    let assignments = zip(TableColumns.columnNames, values).compactMap { name, value in
      name == key ? nil : Assignment(column: name, value: QueryFragment(binding: value))
    }
    return Update(assignments: assignments, filter: find(row.primaryKey).clauses)
  }
}

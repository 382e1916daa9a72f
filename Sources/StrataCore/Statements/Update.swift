/// An `UPDATE` of table `From` whose `RETURNING` rows decode as `Returning` (`()` without a
/// `RETURNING` clause).
public struct Update<From: Table, Returning>: QueryStatement, Hashable, Sendable {
  public typealias QueryValue = Returning

  @usableFromInline var assignments: [Assignment]
  /// The rows to update.
  @usableFromInline var rows: Where<From>
  @usableFromInline var returning = ReturningClause()

  @inlinable
  init(assignments: [Assignment], rows: Where<From>, returning: ReturningClause = ReturningClause()) {
    self.assignments = assignments
    self.rows = rows
    self.returning = returning
  }

  public var isEmpty: Bool { rows.isEmpty || assignments.isEmpty }

  public func forEachWrittenValue(_ body: (_ table: String, _ column: String, _ value: QueryBinding) throws -> Void) rethrows {
    for assignment in assignments {
      if let value = assignment.value.singleBinding { try body(From._tableSQL.name, assignment.column, value) }
    }
  }

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
    guard !assignments.isEmpty else { return QueryFragment() }
    // The table's and each column's SQL as rendered once per table type.
    let tableSQL = From._tableSQL
    if returning.columns.isEmpty, let keyBindings = clauses.onlyCondition(tableSQL.keyEqualsParameter),
      let whereKey = tableSQL.whereKey,
      let fragment = Assignment.updateByKey(assignments, of: tableSQL, whereKey: whereKey, keyBindings: keyBindings)
    {
      return fragment
    }
    var fragment = QueryFragment(raw: tableSQL.updateSet)
    fragment.reserveCapacity(128)
    for (index, assignment) in assignments.enumerated() {
      if index > 0 { fragment.append(raw: ", ") }
      fragment.append(raw: tableSQL.columnAssignments[TableSQL.ColumnKey(assignment.column)] ?? Assignment.target(assignment.column))
      fragment.append(assignment.value)
    }
    rows.appendRowFilter(clauses, of: tableSQL, to: &fragment)
    if !returning.columns.isEmpty { fragment.append(returning.queryFragment) }
    return fragment
  }

  /// Adds conditions on the rows to update; they combine with `AND`.
  public func `where`(@PredicateBuilder _ predicate: (From.TableColumns) -> [QueryFragment]) -> Self {
    var update = self
    update.rows = rows.where(predicate)
    return update
  }

  /// Adds a Boolean column to the conditions: `.where(\.isActive)`.
  public func `where`<Predicate: QueryExpression>(
    _ keyPath: KeyPath<From.TableColumns, Predicate>
  ) -> Self where Predicate.QueryValue: QueryRepresentable, Predicate.QueryValue.Unwrapped == Bool {
    var statement = self
    statement.rows = rows.where(keyPath)
    return statement
  }

  /// Adds a `RETURNING` clause with the expression the closure returns; it sees the updated row.
  public func returning<Selected: QueryExpression>(
    _ selection: (From.TableColumns) -> Selected
  ) -> Update<From, Selected.QueryValue> where Selected.QueryValue: QueryRepresentable {
    Update<From, Selected.QueryValue>(
      assignments: assignments, rows: rows, returning: ReturningClause(selection(From.columns)))
  }

  /// Adds a `RETURNING` clause with a column: `.returning(\.id)`, or the whole row:
  /// `.returning(\.self)`.
  public func returning<Selected: QueryExpression>(
    _ keyPath: KeyPath<From.TableColumns, Selected>
  ) -> Update<From, Selected.QueryValue> where Selected.QueryValue: QueryRepresentable {
    returning { $0[keyPath: keyPath] }
  }

  /// Adds a `RETURNING` clause with the expressions the closure returns; they see the updated
  /// row.
  public func returning<First: QueryExpression, Second: QueryExpression, each Selected: QueryExpression>(
    _ selection: (From.TableColumns) -> (First, Second, repeat each Selected)
  ) -> Update<From, (First.QueryValue, Second.QueryValue, repeat (each Selected).QueryValue)>
  where
    First.QueryValue: QueryRepresentable, Second.QueryValue: QueryRepresentable,
    repeat (each Selected).QueryValue: QueryRepresentable
  {
    Update<From, (First.QueryValue, Second.QueryValue, repeat (each Selected).QueryValue)>(
      assignments: assignments, rows: rows, returning: ReturningClause([ResultColumn](selection, From.columns)))
  }
}

extension Select where Columns == (), Joins == () {
  /// Updates the rows this statement selects.
  ///
  /// When ordering, grouping or a limit choose the rows, they are matched by `rowid`.
  @inlinable
  public func update(set updates: (inout Updates<From>) -> Void) -> Update<From, ()> {
    var assignments = Updates<From>()
    updates(&assignments)
    return Update(assignments: assignments.assignments, rows: self)
  }
}

extension Table {
  /// Updates every row of the table (under its default scope).
  public static func update(set updates: (inout Updates<Self>) -> Void) -> Update<Self, ()> {
    scoped.update(set: updates)
  }
}

extension PrimaryKeyedTable {
  /// Writes every column of `row` (but generated ones) to the row with the same primary key.
  public static func update(_ row: Self) -> Update<Self, ()> {
    Update(assignments: assignments(of: row, except: [columns.primaryKey.name]), rows: unscoped.find(row.primaryKey))
  }
}

extension Table {
  /// `"column" = ?` with `row`'s value for every column a row writes but `key`'s: a whole-row
  /// update by key.
  static func assignments(of row: Self, except key: [String]) -> [Assignment] {
    var values: [QueryBinding] = []
    row.encode(into: &values)
    return zip(TableColumns.writableColumnNames, values).compactMap { name, value in
      key.contains(name) ? nil : Assignment(column: name, value: QueryFragment(binding: value))
    }
  }
}

extension Update where From: PrimaryKeyedTable {
  /// Narrows the statement to the row whose primary key is `key`: `Item.update(…).find(id)`.
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

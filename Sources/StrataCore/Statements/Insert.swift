/// An `INSERT` into table `Into` whose `RETURNING` rows decode as `Returning` (`()` without a
/// `RETURNING` clause).
///
/// Every value is a bound parameter. Many rows go into one multi-row `VALUES` statement; an
/// executor splits it into pieces that fit SQLite's limit on bound parameters, all within the
/// caller's transaction.
public struct Insert<Into: Table, Returning>: QueryStatement, Hashable, Sendable {
  public typealias QueryValue = Returning

  @usableFromInline var clause: InsertClause

  @inlinable
  init(clause: InsertClause) {
    self.clause = clause
  }

  public var queryFragment: QueryFragment { clause.queryFragment }

  public var isEmpty: Bool { clause.rowCount == 0 }

  public func executionBatches(maxBindings: Int) -> [QueryBatch] {
    clause.batches(maxBindings: maxBindings)
  }

  public func dialectFragments(maxBindings: Int) -> [QueryFragment] {
    clause.fragments(maxBindings: maxBindings)
  }

  public func forEachWrittenValue(_ body: (_ table: String, _ column: String, _ value: QueryBinding) throws -> Void) rethrows {
    let columns = clause.columnNames
    guard !columns.isEmpty else { return }
    for (index, value) in clause.rowBindings.enumerated() {
      try body(clause.table, columns[index % columns.count], value)
    }
  }

  /// Whether the statement's text is the same whatever its values: one row, or rows from a
  /// select. A many-row insert's text changes with its number of rows.
  private var hasOneShape: Bool { clause.rowCount == 1 || clause.selection != nil }

  /// Kept prepared by PostgreSQL only when it has one shape: each row count of a many-row insert
  /// would be a statement of its own.
  public var isPreparedForReuse: Bool { hasOneShape }

  /// One row, or rows from a select, always fit one statement.
  public var singleBatch: QueryFragment? {
    if isEmpty { return QueryFragment() }
    return hasOneShape ? clause.queryFragment : nil
  }

  /// Adds a `RETURNING` clause with the expression the closure returns: a column, or the
  /// whole row (`{ $0 }`).
  public func returning<Selected: QueryExpression>(
    _ selection: (Into.TableColumns) -> Selected
  ) -> Insert<Into, Selected.QueryValue> where Selected.QueryValue: QueryRepresentable {
    returning(ReturningClause(selection(Into.columns)))
  }

  /// Adds a `RETURNING` clause with a column: `.returning(\.id)`, or the whole row:
  /// `.returning(\.self)`.
  public func returning<Selected: QueryExpression>(
    _ keyPath: KeyPath<Into.TableColumns, Selected>
  ) -> Insert<Into, Selected.QueryValue> where Selected.QueryValue: QueryRepresentable {
    returning(ReturningClause(Into.columns[keyPath: keyPath]))
  }

  /// Adds a `RETURNING` clause with the expressions the closure returns: `{ ($0.id, $0.name) }`.
  public func returning<First: QueryExpression, Second: QueryExpression, each Selected: QueryExpression>(
    _ selection: (Into.TableColumns) -> (First, Second, repeat each Selected)
  ) -> Insert<Into, (First.QueryValue, Second.QueryValue, repeat (each Selected).QueryValue)>
  where
    First.QueryValue: QueryRepresentable, Second.QueryValue: QueryRepresentable,
    repeat (each Selected).QueryValue: QueryRepresentable
  {
    returning(ReturningClause([ResultColumn](selection, Into.columns)))
  }

  private func returning<NewReturning>(_ returning: ReturningClause) -> Insert<Into, NewReturning> {
    var clause = clause
    clause.returning = returning
    return Insert<Into, NewReturning>(clause: clause)
  }
}

import StrataSQL

// Entry points for inserts. Rows come from table values and drafts, from tuples of values for
// chosen columns, or from a select:
//
//   Player.insert { Player.Draft(gameID: id, name: "Blob") }
//   Player.insert { ($0.gameID, $0.name) } values: { (id, "Blob"); (id, "Blob Jr") }
//   Player.insert { ($0.gameID, $0.name) } select: { Guest.select { ($0.gameID, $0.name) } }
//
// Each takes an optional conflict clause, as in StructuredQueries:
//
//   … onConflictDoUpdate: { $0.score += 1 }                      // any uniqueness conflict
//   … onConflict: { $0.id }                                       // DO NOTHING
//   … onConflict: { $0.id } doUpdate: { $0.score += $1.score }    // $1: the proposed row
//   … onConflict: { $0.id } doUpdate: { … } where: { $0.score < 100 }
//
// The update closures come with one parameter (the existing row) or two (and the row the
// insert proposed, `excluded`).

extension Table {
  /// `INSERT INTO "table" (…) VALUES …` of the table values or drafts the closure builds; rows
  /// that conflict with an existing row update it with `onConflictDoUpdate` when given
  /// (`ON CONFLICT DO UPDATE SET … [WHERE …]`).
  ///
  /// - Parameter conflictResolution: `INSERT OR IGNORE`, `OR REPLACE`, … when given.
  @inlinable
  public static func insert(
    or conflictResolution: ConflictResolution? = nil,
    @InsertValuesBuilder<Self> _ rows: () -> InsertValues<Self>,
    onConflictDoUpdate updates: ((inout Updates<Self>, Excluded<Self>) -> Void)? = nil,
    @PredicateBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment] = { _, _ in [] }
  ) -> Insert<Self, ()> {
    inserting(InsertClause(Self.self, rows(), or: conflictResolution), nil, [], updates.map(assignments), updateFilter)
  }

  /// `INSERT … ON CONFLICT DO UPDATE SET …` of table values or drafts, with updates that use
  /// only the existing row.
  public static func insert(
    @InsertValuesBuilder<Self> _ rows: () -> InsertValues<Self>,
    onConflictDoUpdate updates: (inout Updates<Self>) -> Void,
    @PredicateBuilder where updateFilter: (TableColumns) -> [QueryFragment] = { _ in [] }
  ) -> Insert<Self, ()> {
    inserting(
      InsertClause(Self.self, rows()), nil, [], assignments { row, _ in updates(&row) }, { row, _ in updateFilter(row) })
  }

  /// `INSERT … ON CONFLICT (target) DO UPDATE SET …` of table values or drafts, or
  /// `DO NOTHING` without `doUpdate`.
  public static func insert<each Target>(
    @InsertValuesBuilder<Self> _ rows: () -> InsertValues<Self>,
    onConflict target: (TableColumns) -> (repeat TableColumn<Self, each Target>),
    @PredicateBuilder where targetFilter: (TableColumns) -> [QueryFragment] = { _ in [] },
    doUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void = { _, _ in },
    @PredicateBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment] = { _, _ in [] }
  ) -> Insert<Self, ()> {
    inserting(
      InsertClause(Self.self, rows()), columnNames(repeat each target(columns)), targetFilter(columns),
      assignments(updates), updateFilter)
  }

  /// `INSERT … ON CONFLICT (target) DO UPDATE SET …` of table values or drafts, with updates
  /// that use only the existing row.
  public static func insert<each Target>(
    @InsertValuesBuilder<Self> _ rows: () -> InsertValues<Self>,
    onConflict target: (TableColumns) -> (repeat TableColumn<Self, each Target>),
    @PredicateBuilder where targetFilter: (TableColumns) -> [QueryFragment] = { _ in [] },
    doUpdate updates: (inout Updates<Self>) -> Void,
    @PredicateBuilder where updateFilter: (TableColumns) -> [QueryFragment] = { _ in [] }
  ) -> Insert<Self, ()> {
    inserting(
      InsertClause(Self.self, rows()), columnNames(repeat each target(columns)), targetFilter(columns),
      assignments { row, _ in updates(&row) }, { row, _ in updateFilter(row) })
  }

  /// `INSERT INTO "table" (…) VALUES …` of whole rows, in StructuredQueries' spelling:
  /// `insert { $0 } values: { Reminder(…) }`, the same as `insert { Reminder(…) }`.
  public static func insert(
    or conflictResolution: ConflictResolution? = nil,
    _ columns: (TableColumns) -> TableColumns,
    @InsertValuesBuilder<Self> values rows: () -> InsertValues<Self>,
    onConflictDoUpdate updates: ((inout Updates<Self>, Excluded<Self>) -> Void)? = nil,
    @PredicateBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment] = { _, _ in [] }
  ) -> Insert<Self, ()> {
    insert(or: conflictResolution, rows, onConflictDoUpdate: updates, where: updateFilter)
  }

  /// `INSERT … VALUES … ON CONFLICT DO UPDATE SET …` of values for chosen columns, with updates
  /// that use only the existing row.
  public static func insert<each Value: QueryBindable>(
    _ columns: (TableColumns) -> (repeat TableColumn<Self, each Value>),
    @InsertRowsBuilder<(repeat (each Value).QueryOutput)> values rows: () -> [(repeat (each Value).QueryOutput)],
    onConflictDoUpdate updates: (inout Updates<Self>) -> Void,
    @PredicateBuilder where updateFilter: (TableColumns) -> [QueryFragment] = { _ in [] }
  ) -> Insert<Self, ()> {
    inserting(valuesClause(columns, rows()), nil, [], assignments { row, _ in updates(&row) }, { row, _ in updateFilter(row) })
  }

  /// `INSERT INTO "table" ("a", "b") VALUES (?, ?), …` of values for the columns the first
  /// closure lists: `insert { ($0.title, $0.isDone) } values: { ("Milk", false) }`.
  public static func insert<each Value: QueryBindable>(
    or conflictResolution: ConflictResolution? = nil,
    _ columns: (TableColumns) -> (repeat TableColumn<Self, each Value>),
    @InsertRowsBuilder<(repeat (each Value).QueryOutput)> values rows: () -> [(repeat (each Value).QueryOutput)],
    onConflictDoUpdate updates: ((inout Updates<Self>, Excluded<Self>) -> Void)? = nil,
    @PredicateBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment] = { _, _ in [] }
  ) -> Insert<Self, ()> {
    inserting(valuesClause(columns, rows(), or: conflictResolution), nil, [], updates.map(assignments), updateFilter)
  }

  /// `INSERT INTO "table" ("a", "b") VALUES (?, ?), …` of a column group's values, each written
  /// to the group's columns: `insert { $0.status } values: { Status(isOutOfStock: true, …) }`.
  public static func insert<Group: GroupSelection>(
    or conflictResolution: ConflictResolution? = nil,
    _ group: (TableColumns) -> ColumnGroup<Self, Group>,
    @InsertRowsBuilder<Group> values rows: () -> [Group],
    onConflictDoUpdate updates: ((inout Updates<Self>, Excluded<Self>) -> Void)? = nil,
    @PredicateBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment] = { _, _ in [] }
  ) -> Insert<Self, ()> {
    let rows = rows()
    var bindings: [QueryBinding] = []
    for row in rows { row.encode(into: &bindings) }
    let clause = InsertClause(
      Self.self, columns: Group.TableColumns.writableColumnNames, rowCount: rows.count, bindings: bindings,
      or: conflictResolution)
    return inserting(clause, nil, [], updates.map(assignments), updateFilter)
  }

  /// `INSERT INTO "table" ("a", "b") VALUES (x, y)` of one row of expressions for the columns
  /// the first closure lists: a trigger's `new` row, a subquery, `sql(…)`, as well as values.
  ///
  /// ```swift
  /// Reminder.insert { ($0.title, $0.isCompleted, $0.remindersListID) } values: {
  ///   (new.title, true, RemindersList.select(\.id).where { $0.title.eq("Inbox") })
  /// }
  /// ```
  @_disfavoredOverload
  public static func insert<each Value: QueryBindable, each Expression: QueryExpression>(
    or conflictResolution: ConflictResolution? = nil,
    _ columns: (TableColumns) -> (repeat TableColumn<Self, each Value>),
    values row: () -> (repeat each Expression),
    onConflictDoUpdate updates: ((inout Updates<Self>, Excluded<Self>) -> Void)? = nil,
    @PredicateBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment] = { _, _ in [] }
  ) -> Insert<Self, ()>
  where repeat (each Expression).QueryValue: QueryRepresentable, repeat (each Expression).QueryValue.Unwrapped == (each Value).Unwrapped {
    var values: [QueryFragment] = []
    for expression in repeat each row() { values.append(expression.queryFragment.argument) }
    var clause = InsertClause(
      Self.self, columns: columnNames(repeat each columns(Self.columns)), rowCount: 1, bindings: [], or: conflictResolution)
    clause.selection = "VALUES (" + values.joined(separator: ", ") + ")"
    return inserting(clause, nil, [], updates.map(assignments), updateFilter)
  }

  /// `INSERT … VALUES … ON CONFLICT (target) DO UPDATE SET …` of values for chosen columns, or
  /// `DO NOTHING` without `doUpdate`.
  public static func insert<each Value: QueryBindable, each Target>(
    _ columns: (TableColumns) -> (repeat TableColumn<Self, each Value>),
    @InsertRowsBuilder<(repeat (each Value).QueryOutput)> values rows: () -> [(repeat (each Value).QueryOutput)],
    onConflict target: (TableColumns) -> (repeat TableColumn<Self, each Target>),
    @PredicateBuilder where targetFilter: (TableColumns) -> [QueryFragment] = { _ in [] },
    doUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void = { _, _ in },
    @PredicateBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment] = { _, _ in [] }
  ) -> Insert<Self, ()> {
    inserting(
      valuesClause(columns, rows()), columnNames(repeat each target(Self.columns)), targetFilter(Self.columns),
      assignments(updates), updateFilter)
  }

  /// `INSERT INTO "table" ("a", "b") SELECT …` of the rows a select returns, for the columns the
  /// first closure lists.
  public static func insert<each Value: QueryBindable>(
    or conflictResolution: ConflictResolution? = nil,
    _ columns: (TableColumns) -> (repeat TableColumn<Self, each Value>),
    select selection: () -> some SelectStatement<(repeat each Value)>,
    onConflictDoUpdate updates: ((inout Updates<Self>, Excluded<Self>) -> Void)? = nil,
    @PredicateBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment] = { _, _ in [] }
  ) -> Insert<Self, ()> {
    let clause = InsertClause(
      Self.self, columns: columnNames(repeat each columns(Self.columns)), select: selection(), or: conflictResolution)
    return inserting(clause, nil, [], updates.map(assignments), updateFilter)
  }

  /// `INSERT … SELECT … ON CONFLICT (target) DO UPDATE SET …`, or `DO NOTHING` without
  /// `doUpdate`.
  public static func insert<each Value: QueryBindable, each Target>(
    _ columns: (TableColumns) -> (repeat TableColumn<Self, each Value>),
    select selection: () -> some SelectStatement<(repeat each Value)>,
    onConflict target: (TableColumns) -> (repeat TableColumn<Self, each Target>),
    @PredicateBuilder where targetFilter: (TableColumns) -> [QueryFragment] = { _ in [] },
    doUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void = { _, _ in },
    @PredicateBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment] = { _, _ in [] }
  ) -> Insert<Self, ()> {
    let clause = InsertClause(Self.self, columns: columnNames(repeat each columns(Self.columns)), select: selection())
    return inserting(
      clause, columnNames(repeat each target(Self.columns)), targetFilter(Self.columns), assignments(updates),
      updateFilter)
  }

  /// The insert with its conflict clause, if it has a target or updates. Inlinable, with the
  /// insert of drafts above, so that an app's insert is specialized for its table: unspecialized,
  /// each insert looked up the metadata of `Updates<Self>`, `Excluded<Self>` and its closures'
  /// types at run time (a fifth of its building; Documentation/Performance.md).
  @inlinable
  static func inserting(
    _ clause: consuming InsertClause, _ target: [String]?, _ targetFilter: [QueryFragment], _ updates: [Assignment]?,
    _ updateFilter: (TableColumns, Excluded<Self>) -> [QueryFragment]
  ) -> Insert<Self, ()> {
    if target != nil || updates != nil {
      clause.setUpsert(
        target: target, targetFilter: targetFilter, updates: updates ?? [],
        updateFilter: updateFilter(columns, Excluded()))
    }
    return Insert(clause: clause)
  }

  @usableFromInline
  static func assignments(_ updates: (inout Updates<Self>, Excluded<Self>) -> Void) -> [Assignment] {
    var assignments = Updates<Self>()
    updates(&assignments, Excluded())
    return assignments.assignments
  }

  private static func valuesClause<each Value: QueryBindable>(
    _ columns: (TableColumns) -> (repeat TableColumn<Self, each Value>),
    _ rows: [(repeat (each Value).QueryOutput)], or conflictResolution: ConflictResolution? = nil
  ) -> InsertClause {
    var bindings: [QueryBinding] = []
    for row in rows {
      for binding in repeat (each Value)(queryOutput: each row).queryBinding { bindings.append(binding) }
    }
    return InsertClause(
      Self.self, columns: columnNames(repeat each columns(Self.columns)), rowCount: rows.count, bindings: bindings,
      or: conflictResolution)
  }

  private static func columnNames<each Target>(
    _ columns: repeat TableColumn<Self, each Target>
  ) -> [String] {
    var names: [String] = []
    for column in repeat each columns { names.append(column.name) }
    return names
  }
}

extension PrimaryKeyedTable {
  /// Inserts the rows, updating every other column of rows whose primary key already exists:
  /// `ON CONFLICT ("id") DO UPDATE SET "column" = "excluded"."column", …`.
  ///
  /// A draft with a `nil` key always inserts a new row.
  public static func upsert(
    @InsertValuesBuilder<Self> _ rows: () -> InsertValues<Self>
  ) -> Insert<Self, ()> {
    upserting(rows(), on: [columns.primaryKey.name])
  }
}

extension Table {
  /// `INSERT … ON CONFLICT (key) DO UPDATE SET "column" = "excluded"."column"` for every other
  /// column a row writes.
  static func upserting(_ rows: InsertValues<Self>, on key: [String]) -> Insert<Self, ()> {
    let updates = TableColumns.writableColumnNames.filter { !key.contains($0) }.map { name in
      Assignment(column: name, value: QueryFragment(table: "excluded", column: name))
    }
    var clause = InsertClause(Self.self, rows)
    clause.upsert = UpsertClause(target: key, updates: updates)
    return Insert(clause: clause)
  }
}

/// Builds the rows of a column-list insert: tuples (or single values) in the columns' order,
/// arrays of them, `for` loops and `if`/`else`.
@resultBuilder
public enum InsertRowsBuilder<Row> {
  public static func buildExpression(_ row: Row) -> [Row] { [row] }

  public static func buildExpression(_ rows: [Row]) -> [Row] { rows }

  public static func buildBlock(_ components: [Row]...) -> [Row] { components.flatMap { $0 } }

  public static func buildArray(_ components: [[Row]]) -> [Row] { components.flatMap { $0 } }

  public static func buildEither(first component: [Row]) -> [Row] { component }

  public static func buildEither(second component: [Row]) -> [Row] { component }

  public static func buildOptional(_ component: [Row]?) -> [Row] { component ?? [] }
}

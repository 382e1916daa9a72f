/// An `INSERT` into table `Into` whose `RETURNING` rows decode as `Returning` (`()` without a
/// `RETURNING` clause).
///
/// Every value is a bound parameter. Many rows go into one multi-row `VALUES` statement; an
/// executor splits it into pieces that fit SQLite's limit on bound parameters, all within the
/// caller's transaction.
public struct Insert<Into: Table, Returning>: QueryStatement, Hashable, Sendable {
  public typealias QueryValue = Returning

  var clause: InsertClause

  public var queryFragment: QueryFragment { clause.queryFragment }

  public var isEmpty: Bool { clause.rowCount == 0 }

  public func executionBatches(maxBindings: Int) -> [QueryBatch] {
    clause.batches(maxBindings: maxBindings)
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

extension Table {
  /// `INSERT INTO "table" (…) VALUES …` for the rows the closure builds, table values or
  /// drafts.
  ///
  /// - Parameter conflictResolution: `INSERT OR IGNORE`, `OR REPLACE`, … when given.
  public static func insert(
    or conflictResolution: ConflictResolution? = nil,
    @InsertValuesBuilder<Self> _ rows: () -> InsertValues<Self>
  ) -> Insert<Self, ()> {
    Insert(clause: InsertClause(Self.self, rows(), or: conflictResolution))
  }

  /// An insert that does nothing for rows that conflict on the `onConflict` columns:
  /// `ON CONFLICT (…) DO NOTHING`.
  public static func insert<each Target>(
    @InsertValuesBuilder<Self> _ rows: () -> InsertValues<Self>,
    onConflict target: (TableColumns) -> (repeat TableColumn<Self, each Target>)
  ) -> Insert<Self, ()> {
    var clause = InsertClause(Self.self, rows())
    clause.upsert = UpsertClause(target: columnNames(repeat each target(columns)), updates: nil)
    return Insert(clause: clause)
  }

  /// An upsert: rows that conflict on the `onConflict` columns update the existing row instead.
  ///
  /// `$0` in `doUpdate` is the existing row's columns, `$1` the values the insert proposed
  /// (`excluded`):
  ///
  /// ```swift
  /// Player.insert { draft } onConflict: { $0.id } doUpdate: { $0.score += $1.score }
  /// ```
  public static func insert<each Target>(
    @InsertValuesBuilder<Self> _ rows: () -> InsertValues<Self>,
    onConflict target: (TableColumns) -> (repeat TableColumn<Self, each Target>),
    doUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void
  ) -> Insert<Self, ()> {
    var assignments = Updates<Self>()
    updates(&assignments, Excluded())
    var clause = InsertClause(Self.self, rows())
    clause.upsert = UpsertClause(
      target: columnNames(repeat each target(columns)), updates: assignments.assignments)
    return Insert(clause: clause)
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
    let key = columns.primaryKey.name
    let updates = TableColumns.columnNames.filter { $0 != key }.map { name in
      Assignment(column: name, value: QueryFragment(table: "excluded", column: name))
    }
    var clause = InsertClause(Self.self, rows())
    clause.upsert = UpsertClause(target: [key], updates: updates.isEmpty ? nil : updates)
    return Insert(clause: clause)
  }
}

/// An `INSERT` independent of the Swift types of its table and results.
struct InsertClause: Hashable, Sendable {
  var table: String
  var columnNames: [String]
  var conflictResolution: ConflictResolution?
  var rowCount: Int
  var rowBindings: [QueryBinding]
  var upsert: UpsertClause?
  var returning = ReturningClause()

  init<Base: Table>(
    _ table: Base.Type, _ rows: InsertValues<Base>, or resolution: ConflictResolution? = nil
  ) {
    self.table = Base.tableName
    self.columnNames = Base.TableColumns.columnNames
    self.conflictResolution = resolution
    self.rowCount = rows.rowCount
    self.rowBindings = rows.bindings
  }

  var queryFragment: QueryFragment {
    guard rowCount > 0 else { return QueryFragment() }
    let tail = self.tail
    return QueryFragment(
      sql: sql(rowCount: rowCount, tail: tail), bindings: rowBindings + tail.bindings)
  }

  /// The insert as statements of as many rows as the parameter limit allows. Measured on
  /// 100,000 rows, fewer statements of more rows insert fastest; the full-size statements share
  /// one cached prepared statement.
  func batches(maxBindings: Int) -> [QueryBatch] {
    guard rowCount > 0 else { return [] }
    let tail = self.tail
    let width = Swift.max(1, columnNames.count)
    let rowsPerBatch = Swift.max(1, (maxBindings - tail.bindings.count) / width)
    let fullSQL = sql(rowCount: Swift.min(rowsPerBatch, rowCount), tail: tail)
    return stride(from: 0, to: rowCount, by: rowsPerBatch).map { firstRow in
      let count = Swift.min(rowsPerBatch, rowCount - firstRow)
      let rows = rowBindings[(firstRow * width)..<((firstRow + count) * width)]
      let sql = count == rowsPerBatch ? fullSQL : sql(rowCount: count, tail: tail)
      return QueryBatch(sql: sql, bindings: [rows, tail.bindings[...]])
    }
  }

  private func sql(rowCount: Int, tail: QueryFragment) -> String {
    var sql = "INSERT "
    if let conflictResolution { sql += "OR \(conflictResolution.rawValue) " }
    sql += "INTO " + QueryFragment.quote(table) + " ("
    sql += columnNames.map(QueryFragment.quote).joined(separator: ", ")
    sql += ") VALUES "
    let row = "(" + repeatElement("?", count: columnNames.count).joined(separator: ", ") + ")"
    sql += repeatElement(row, count: rowCount).joined(separator: ", ")
    return sql + tail.sql
  }

  /// The `ON CONFLICT` and `RETURNING` clauses.
  private var tail: QueryFragment {
    var fragment = QueryFragment()
    if let upsert { fragment.append(upsert.queryFragment) }
    fragment.append(returning.queryFragment)
    return fragment
  }
}

/// `ON CONFLICT (target) DO UPDATE SET …`, or `DO NOTHING` when there are no updates.
struct UpsertClause: Hashable, Sendable {
  var target: [String]
  var updates: [Assignment]?

  var queryFragment: QueryFragment {
    var fragment: QueryFragment = " ON CONFLICT ("
    fragment.append(target.map { QueryFragment(quoting: $0) }.joined(separator: ", "))
    fragment.append(raw: ")")
    guard let updates, !updates.isEmpty else {
      fragment.append(raw: " DO NOTHING")
      return fragment
    }
    fragment.append(raw: " DO UPDATE SET ")
    fragment.append(updates.map(\.queryFragment).joined(separator: ", "))
    return fragment
  }
}

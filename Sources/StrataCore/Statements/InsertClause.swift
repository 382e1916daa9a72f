import StrataSQL

/// An `INSERT` independent of the Swift types of its table and results.
@usableFromInline
struct InsertClause: Hashable, Sendable {
  /// The table's quoted name, qualified by an attached database's.
  @usableFromInline var table: String
  @usableFromInline var columnNames: [String]
  @usableFromInline var conflictResolution: ConflictResolution?
  /// The rows of `VALUES`, `rowBindings` holding `columnNames.count` values per row.
  @usableFromInline var rowCount: Int
  @usableFromInline var rowBindings: [QueryBinding]
  /// When set, the rows come from this `SELECT` instead of `VALUES`.
  @usableFromInline var selection: QueryFragment?
  @usableFromInline var upsert: UpsertClause?
  @usableFromInline var returning = ReturningClause()
  /// The table's rendered SQL, for the common insert of every column.
  @usableFromInline var tableSQL: TableSQL?
  @usableFromInline var allColumnNames: [String] = []
  /// The position in `columnNames` of the table's primary key, which the database assigns when
  /// a row leaves it NULL (a `Draft` without an id).
  @usableFromInline var keyIndex: Int?

  @inlinable
  init<Base: Table>(
    _ table: Base.Type, _ rows: InsertValues<Base>, or resolution: ConflictResolution? = nil
  ) {
    self.init(Base.self, columns: Base.TableColumns.writableColumnNames, rowCount: rows.rowCount, bindings: rows.bindings, or: resolution)
  }

  @inlinable
  init<Base: Table>(
    _ table: Base.Type, columns: [String], rowCount: Int, bindings: [QueryBinding],
    or resolution: ConflictResolution? = nil
  ) {
    let tableSQL = Base._tableSQL
    self.table = tableSQL.name
    self.columnNames = columns
    self.tableSQL = tableSQL
    self.allColumnNames = Base.TableColumns.writableColumnNames
    self.keyIndex = columns.firstIndex(of: Base.columns.identityColumnName)
    self.conflictResolution = resolution
    self.rowCount = rowCount
    self.rowBindings = bindings
  }

  init<Base: Table>(
    _ table: Base.Type, columns: [String], select: some SelectStatement, or resolution: ConflictResolution? = nil
  ) {
    self.init(Base.self, columns: columns, rowCount: select.isEmpty ? 0 : 1, bindings: [], or: resolution)
    selection = select.queryFragment
  }

  /// Adds `ON CONFLICT …`.
  @usableFromInline
  mutating func setUpsert(target: [String]?, targetFilter: [QueryFragment], updates: [Assignment], updateFilter: [QueryFragment]) {
    upsert = UpsertClause(target: target, targetFilter: targetFilter, updates: updates, updateFilter: updateFilter)
  }

  var queryFragment: QueryFragment {
    guard rowCount > 0 else { return QueryFragment() }
    let tail = self.tail
    if let selection { return head + " " + selectionOperand(selection) + tail }
    return fragment(rows: 0..<rowCount, tail: tail, assignedKeys: false)
  }

  /// The statement of the rows `rows`, with the pieces other dialects respell: SQLite's
  /// `INSERT OR`, the upsert's and `RETURNING`'s, and, with `assignedKeys`, each NULL key the
  /// database assigns (SQLite does without them, and an insert of one row is on its hot path).
  private func fragment(rows: Range<Int>, tail: QueryFragment, assignedKeys: Bool) -> QueryFragment {
    let sql = sql(rowCount: rows.count, tail: tail)
    let width = columnNames.count
    // Every row and no tail, the common case, takes the rows' bindings as they are.
    let bindings = rows == 0..<rowCount && tail.bindings.isEmpty
      ? rowBindings : Array(rowBindings[(rows.lowerBound * width)..<(rows.upperBound * width)]) + tail.bindings
    var fragment = QueryFragment(sql: sql, bindings: bindings)
    if conflictResolution != nil || tail.pieces != nil {
      fragment.appendPieces(of: head, at: 0)
      fragment.appendPieces(of: tail, at: sql.utf8.count - tail.sql.utf8.count)
    }
    if assignedKeys, let keyIndex {
      // Each row is `(?, ?, …)`, three bytes a value, rows separated by `, `.
      let first = headSQL.utf8.count + " VALUES ".utf8.count
      var keys: [PlacedPiece] = []
      for (position, row) in rows.enumerated() where rowBindings[row * width + keyIndex] == .null {
        keys.append(PlacedPiece(offset: first + position * (3 * width + 2) + 1 + 3 * keyIndex, length: 1, piece: .assignedKey))
      }
      if !keys.isEmpty { fragment.pieces = (fragment.pieces ?? []) + keys }
    }
    return fragment
  }

  /// `INSERT [OR …] INTO "table" ("column", …)`.
  private var head: QueryFragment {
    var head = QueryFragment(raw: headSQL)
    if let conflictResolution {
      // `INSERT OR …` is SQLite's; the marker sits where it is, after `INSERT `.
      head.appendPieces(of: QueryFragment().sqliteOnly("INSERT OR \(conflictResolution.rawValue)"), at: "INSERT ".utf8.count)
    }
    return head
  }

  private var headSQL: String {
    if conflictResolution == nil, let tableSQL, columnNames == allColumnNames { return tableSQL.insertInto }
    var sql = "INSERT "
    if let conflictResolution { sql += "OR \(conflictResolution.rawValue) " }
    sql += "INTO " + table + " ("
    sql += columnNames.map(QueryFragment.quote).joined(separator: ", ")
    return sql + ")"
  }

  /// SQLite could read the `ON` of an upsert as a join constraint of the select's last table;
  /// a select that ends in `WHERE` avoids that.
  private func selectionOperand(_ selection: QueryFragment) -> QueryFragment {
    guard upsert != nil else { return selection }
    return QueryFragment(piece: .sqliteParsingAid("SELECT * FROM (")) + selection
      + QueryFragment(piece: .sqliteParsingAid(") WHERE 1"))
  }

  /// The insert as statements of as many rows as the parameter limit allows. Measured on
  /// 100,000 rows, fewer statements of more rows insert fastest; the full-size statements share
  /// one cached prepared statement.
  func batches(maxBindings: Int) -> [QueryBatch] {
    guard rowCount > 0 else { return [] }
    if selection != nil {
      let fragment = queryFragment
      return [QueryBatch(sql: fragment.sql, bindings: [fragment.bindings[...]])]
    }
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

  /// The insert as statements of as many rows as `maxBindings` allows, with their dialect
  /// pieces, for databases other than SQLite.
  func fragments(maxBindings: Int) -> [QueryFragment] {
    guard rowCount > 0 else { return [] }
    if selection != nil { return [queryFragment] }
    let tail = self.tail
    let rowsPerBatch = Swift.max(1, (maxBindings - tail.bindings.count) / Swift.max(1, columnNames.count))
    return upsertGroups(rowsPerBatch: rowsPerBatch).map { fragment(rows: $0, tail: tail, assignedKeys: true) }
  }

  /// The rows in consecutive groups of at most `rowsPerBatch`, a group ending before a row whose
  /// conflict key an earlier row of it holds when the upsert updates.
  ///
  /// SQLite runs an upsert's rows one after the other, so a row whose key an earlier row of the
  /// same statement inserted updates that row; PostgreSQL refuses a statement that would update
  /// a row twice. Statements that each hold a key once, run in order in one transaction, give
  /// PostgreSQL SQLite's meaning. (Keys are told apart by their bound values: two that differ
  /// only in what a collation ignores are not split, and PostgreSQL still refuses them.)
  private func upsertGroups(rowsPerBatch: Int) -> [Range<Int>] {
    let width = columnNames.count
    guard let upsert, !upsert.updates.isEmpty, let target = upsert.target,
      case let keyColumns = target.compactMap({ columnNames.firstIndex(of: $0) }), keyColumns.count == target.count
    else {
      return stride(from: 0, to: rowCount, by: rowsPerBatch).map { $0..<Swift.min($0 + rowsPerBatch, rowCount) }
    }
    var groups: [Range<Int>] = []
    var start = 0
    var keys: Set<[QueryBinding]> = []
    for row in 0..<rowCount {
      let key = keyColumns.map { rowBindings[row * width + $0] }
      // NULL conflicts with nothing, and a NULL key is one the database assigns.
      let repeated = !key.contains(.null) && keys.contains(key)
      if repeated || row - start == rowsPerBatch {
        groups.append(start..<row)
        start = row
        keys = []
      }
      if !key.contains(.null) { keys.insert(key) }
    }
    groups.append(start..<rowCount)
    return groups
  }

  private func sql(rowCount: Int, tail: QueryFragment) -> String {
    let isWholeRow = columnNames == allColumnNames && tableSQL != nil
    if rowCount == 1, isWholeRow, conflictResolution == nil, tail.isEmpty { return tableSQL!.insertOneRow }
    var sql = headSQL + " VALUES "
    let row = isWholeRow ? tableSQL!.valuesRow : "(" + repeatElement("?", count: columnNames.count).joined(separator: ", ") + ")"
    if rowCount == 1 { return sql + row + tail.sql }
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

/// `ON CONFLICT [(target) [WHERE …]] DO UPDATE SET … [WHERE …]`, or `DO NOTHING` when there
/// are no updates.
@usableFromInline
struct UpsertClause: Hashable, Sendable {
  /// The conflict target's columns; nil for any uniqueness conflict.
  var target: [String]?
  /// The conditions of a partial index the target names.
  var targetFilter: [QueryFragment] = []
  var updates: [Assignment] = []
  /// The conditions on the existing row for the update to happen.
  var updateFilter: [QueryFragment] = []

  var queryFragment: QueryFragment {
    var fragment: QueryFragment = " ON CONFLICT"
    if let target {
      fragment.append(raw: " (")
      fragment.append(target.map { QueryFragment(quoting: $0) }.joined(separator: ", "))
      fragment.append(raw: ")")
      if !targetFilter.isEmpty { fragment.append(" WHERE " + SelectClauses.conjunction(Conditions(targetFilter))) }
    }
    guard !updates.isEmpty else {
      fragment.append(raw: " DO NOTHING")
      return fragment
    }
    if target == nil { fragment = fragment.sqliteOnly("ON CONFLICT DO UPDATE without a conflict target") }
    fragment.append(raw: " DO UPDATE SET ")
    fragment.append(updates.map(\.queryFragment).joined(separator: ", "))
    if !updateFilter.isEmpty { fragment.append(" WHERE " + SelectClauses.conjunction(Conditions(updateFilter))) }
    return fragment
  }
}

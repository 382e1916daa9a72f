/// The clauses of a `SELECT`, independent of the Swift types of its tables and results.
struct SelectClauses: Hashable, Sendable {
  /// Set by `none`: the statement returns no rows and need not run.
  var isEmpty = false
  var isDistinct = false
  var columns: [ResultColumn]
  /// The table the statement reads, which `UPDATE` and `DELETE` statements built from it modify.
  var table: String
  /// What follows `FROM`: the quoted table name, or a parenthesized subquery.
  var from: QueryFragment
  var joins: [QueryFragment] = []
  var wheres: [QueryFragment] = []
  var groups: [QueryFragment] = []
  var havings: [QueryFragment] = []
  var orders: [QueryFragment] = []
  var limit: QueryFragment?
  var offset: QueryFragment?

  init(table: String, columns: [ResultColumn]) {
    self.table = table
    self.from = QueryFragment(quoting: table)
    self.columns = columns
  }

  /// Whether only `WHERE` restricts the rows: no grouping, distinct, ordering or limit.
  var isPlainFilter: Bool {
    groups.isEmpty && havings.isEmpty && !isDistinct && limit == nil && offset == nil
      && orders.isEmpty
  }

  var queryFragment: QueryFragment {
    var fragment: QueryFragment = isDistinct ? "SELECT DISTINCT " : "SELECT "
    fragment.append(columns.queryFragment)
    fragment.append(raw: " FROM ")
    fragment.append(from)
    fragment.append(tail)
    return fragment
  }

  /// Everything after `FROM "table"`: joins, filters, grouping, ordering and limits.
  var tail: QueryFragment {
    var fragment = QueryFragment()
    for join in joins {
      fragment.append(raw: " ")
      fragment.append(join)
    }
    fragment.append(whereClause)
    if !groups.isEmpty {
      fragment.append(raw: " GROUP BY ")
      fragment.append(groups.joined(separator: ", "))
    }
    if !havings.isEmpty {
      fragment.append(raw: " HAVING ")
      fragment.append(Self.conjunction(havings))
    }
    if !orders.isEmpty {
      fragment.append(raw: " ORDER BY ")
      fragment.append(orders.joined(separator: ", "))
    }
    if let limit {
      fragment.append(raw: " LIMIT ")
      fragment.append(limit)
    }
    if let offset {
      fragment.append(raw: limit == nil ? " LIMIT -1 OFFSET " : " OFFSET ")
      fragment.append(offset)
    }
    return fragment
  }

  /// ` WHERE a AND b`, or nothing.
  var whereClause: QueryFragment {
    guard !wheres.isEmpty else { return QueryFragment() }
    return " WHERE " + Self.conjunction(wheres)
  }

  /// The row filter for an `UPDATE` or `DELETE` on the selected table: its `WHERE` clause, or,
  /// when ordering, grouping or a limit choose the rows, `rowid IN (<this select>)`.
  var rowFilter: QueryFragment {
    if isPlainFilter { return whereClause }
    var subquery = self
    let rowid = QueryFragment(table: table, column: "rowid")
    subquery.columns = [ResultColumn(rowid)]
    return " WHERE " + rowid + " IN (" + subquery.queryFragment + ")"
  }

  /// The clauses of a statement that counts this one's rows: `count(*)` in place of the result
  /// columns, or, when grouping, distinct or a limit shape the rows, over this statement as a
  /// subquery.
  var counting: SelectClauses {
    let count = [ResultColumn("count(*)")]
    if groups.isEmpty && havings.isEmpty && !isDistinct && limit == nil && offset == nil {
      var clauses = self
      clauses.columns = count
      clauses.orders = []
      return clauses
    }
    var clauses = SelectClauses(table: table, columns: count)
    clauses.isEmpty = isEmpty
    clauses.from = "(" + queryFragment + ")"
    return clauses
  }

  /// Predicates joined with `AND`, each parenthesized when it is an operator expression.
  static func conjunction(_ predicates: [QueryFragment]) -> QueryFragment {
    predicates.count == 1
      ? predicates[0]
      : predicates.map(\.operand).joined(separator: " AND ")
  }
}

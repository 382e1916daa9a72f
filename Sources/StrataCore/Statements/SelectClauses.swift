/// The clauses of a `SELECT`, independent of the Swift types of its tables and results.
@usableFromInline
struct SelectClauses: Hashable, Sendable {
  /// Whether the table's default scope (`Table.all`) applies to the statement.
  @usableFromInline
  enum Scope: Hashable, Sendable {
    /// Started from the table type: `Player.where { … }` also has `Player.all`'s clauses.
    case `default`
    /// Started from `unscoped`: only its own clauses.
    case unscoped
  }

  @usableFromInline var scope = Scope.default
  /// Set by `none`: the statement returns no rows and need not run.
  @usableFromInline var isEmpty = false
  var isDistinct = false
  /// The columns selected with `select`; none means every column of every table.
  var columns: [ResultColumn] = []
  /// The columns of the joined tables, for when nothing is selected: one rendered list per table.
  var joinedColumns: [ResultColumn] = []
  /// What follows `FROM` when it is not the table: a parenthesized subquery.
  var from: QueryFragment?
  var joins: [QueryFragment] = []
  @usableFromInline var wheres: [QueryFragment] = []
  var groups: [QueryFragment] = []
  var havings: [QueryFragment] = []
  /// `"name" AS (…)` of each named window.
  var windows: [QueryFragment] = []
  var orders: [QueryFragment] = []
  var limit: QueryFragment?
  var offset: QueryFragment?

  @usableFromInline init(scope: Scope = .default) {
    self.scope = scope
  }

  /// Whether the statement selects every column of its one table, from the table itself.
  @usableFromInline var selectsAllOfOneTable: Bool {
    !isDistinct && columns.isEmpty && joinedColumns.isEmpty && joins.isEmpty && from == nil
  }

  /// Whether only `WHERE` restricts the rows: no grouping, distinct, ordering or limit.
  var isPlainFilter: Bool {
    groups.isEmpty && havings.isEmpty && !isDistinct && limit == nil && offset == nil && orders.isEmpty
  }

  /// Whether the clauses add nothing: a default scope like this one changes no statement.
  @usableFromInline var isTrivial: Bool {
    !isEmpty && !isDistinct && columns.isEmpty && wheres.isEmpty && groups.isEmpty && havings.isEmpty
      && windows.isEmpty && orders.isEmpty && limit == nil && offset == nil && joins.isEmpty && from == nil
  }

  /// These clauses under a table's default scope: its conditions first, then these.
  @usableFromInline func scoped(by scope: SelectClauses) -> SelectClauses {
    guard self.scope == .default, !scope.isTrivial else { return self }
    var clauses = self
    clauses.isEmpty = isEmpty || scope.isEmpty
    clauses.isDistinct = isDistinct || scope.isDistinct
    clauses.wheres = scope.wheres + wheres.filter { !scope.wheres.contains($0) }
    clauses.groups = scope.groups + groups.filter { !scope.groups.contains($0) }
    clauses.havings = scope.havings + havings.filter { !scope.havings.contains($0) }
    clauses.windows = scope.windows + windows.filter { !scope.windows.contains($0) }
    clauses.orders = scope.orders + orders.filter { !scope.orders.contains($0) }
    clauses.limit = limit ?? scope.limit
    clauses.offset = offset ?? scope.offset
    return clauses
  }

  /// `SELECT … FROM table …`, with `tableColumns` (the rendered list of the table's columns)
  /// when nothing is selected.
  @usableFromInline func queryFragment(table: QueryFragment, tableColumns: QueryFragment) -> QueryFragment {
    var fragment: QueryFragment = isDistinct ? "SELECT DISTINCT " : "SELECT "
    fragment.reserveCapacity(256)
    if columns.isEmpty {
      fragment.append(tableColumns)
      if !joinedColumns.isEmpty {
        if !tableColumns.isEmpty { fragment.append(raw: ", ") }
        joinedColumns.append(to: &fragment)
      }
    } else {
      columns.append(to: &fragment)
    }
    fragment.append(raw: " FROM ")
    fragment.append(from ?? table)
    appendTail(to: &fragment)
    return fragment
  }

  /// Appends everything after `FROM "table"` to `fragment`: joins, filters, grouping, ordering
  /// and limits. In place, so that a statement's SQL is built in one string.
  @usableFromInline func appendTail(to fragment: inout QueryFragment) {
    for join in joins {
      fragment.append(raw: " ")
      fragment.append(join)
    }
    appendWhereClause(to: &fragment)
    if !groups.isEmpty {
      fragment.append(raw: " GROUP BY ")
      fragment.append(groups.joined(separator: ", "))
    }
    if !havings.isEmpty {
      fragment.append(raw: " HAVING ")
      fragment.append(Self.conjunction(havings))
    }
    if !windows.isEmpty {
      fragment.append(raw: " WINDOW ")
      fragment.append(windows.joined(separator: ", "))
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
      if limit == nil {
        fragment.append(raw: " ")
        fragment.append(QueryFragment(piece: .noLimit))
      }
      fragment.append(raw: " OFFSET ")
      fragment.append(offset)
    }
  }

  /// The bindings of the one condition these clauses have when it is `condition` (a table's
  /// rendered `"t"."key" = ?`) and nothing else narrows, orders or joins; nil otherwise.
  @usableFromInline func onlyCondition(_ condition: String?) -> [QueryBinding]? {
    guard let condition, wheres.count == 1, isPlainFilter, joins.isEmpty, from == nil else { return nil }
    let only = wheres[0]
    return only.pieces == nil && only.sql == condition ? only.bindings : nil
  }

  /// Appends ` WHERE a AND b`, or nothing.
  func appendWhereClause(to fragment: inout QueryFragment) {
    guard !wheres.isEmpty else { return }
    fragment.append(raw: " WHERE ")
    fragment.append(Self.conjunction(wheres))
  }

  /// Predicates joined with `AND`, each parenthesized when it is an operator expression.
  static func conjunction(_ predicates: [QueryFragment]) -> QueryFragment {
    predicates.count == 1
      ? predicates[0]
      : predicates.map(\.operand).joined(separator: " AND ")
  }
}

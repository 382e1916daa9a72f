/// The clauses of a `SELECT`, independent of the Swift types of its tables and results.
///
/// A statement is copied at every step of its building (`Player.find(id)`, its default scope,
/// its render), so only what a lookup by key uses is stored inline: the scope, the flags and the
/// conditions. Every other clause lives in one copy-on-write object, absent until one of them is
/// set, so that copying a simple statement retains two references instead of a dozen
/// (Documentation/Performance.md).
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
  @usableFromInline var wheres = Conditions()
  private var rare: RareClauses?

  @usableFromInline init(scope: Scope = .default) {
    self.scope = scope
  }

  /// The columns selected with `select`; none means every column of every table.
  @usableFromInline var columns: [ResultColumn] {
    get { rare?.columns ?? [] }
    _modify { yield &uniqueRare().columns }
  }
  /// The columns of the joined tables, for when nothing is selected: one rendered list per table.
  var joinedColumns: [ResultColumn] {
    get { rare?.joinedColumns ?? [] }
    _modify { yield &uniqueRare().joinedColumns }
  }
  /// What follows `FROM` when it is not the table: a parenthesized subquery.
  @usableFromInline var from: QueryFragment? {
    get { rare?.from }
    _modify { yield &uniqueRare().from }
  }
  var joins: [QueryFragment] {
    get { rare?.joins ?? [] }
    _modify { yield &uniqueRare().joins }
  }
  var groups: [QueryFragment] {
    get { rare?.groups ?? [] }
    _modify { yield &uniqueRare().groups }
  }
  var havings: [QueryFragment] {
    get { rare?.havings ?? [] }
    _modify { yield &uniqueRare().havings }
  }
  /// `"name" AS (…)` of each named window.
  var windows: [QueryFragment] {
    get { rare?.windows ?? [] }
    _modify { yield &uniqueRare().windows }
  }
  var orders: [QueryFragment] {
    get { rare?.orders ?? [] }
    _modify { yield &uniqueRare().orders }
  }
  var limit: QueryFragment? {
    get { rare?.limit }
    _modify { yield &uniqueRare().limit }
  }
  var offset: QueryFragment? {
    get { rare?.offset }
    _modify { yield &uniqueRare().offset }
  }

  /// The rare clauses, made first or copied when another statement shares them.
  private mutating func uniqueRare() -> RareClauses {
    if isKnownUniquelyReferenced(&rare), let rare { return rare }
    let copy = rare.map(RareClauses.init(copying:)) ?? RareClauses()
    rare = copy
    return copy
  }

  @usableFromInline static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.scope == rhs.scope && lhs.isEmpty == rhs.isEmpty && lhs.isDistinct == rhs.isDistinct
      && lhs.wheres == rhs.wheres && (lhs.rare ?? RareClauses.empty) == (rhs.rare ?? RareClauses.empty)
  }

  @usableFromInline func hash(into hasher: inout Hasher) {
    hasher.combine(scope)
    hasher.combine(isEmpty)
    hasher.combine(isDistinct)
    hasher.combine(wheres)
    hasher.combine(rare ?? RareClauses.empty)
  }

  /// Whether the statement selects every column of its one table, from the table itself.
  @usableFromInline var selectsAllOfOneTable: Bool {
    !isDistinct
      && (rare.map { $0.columns.isEmpty && $0.joinedColumns.isEmpty && $0.joins.isEmpty && $0.from == nil } ?? true)
  }

  /// Whether only `WHERE` restricts the rows: no grouping, distinct, ordering or limit.
  var isPlainFilter: Bool {
    !isDistinct
      && (rare.map {
        $0.groups.isEmpty && $0.havings.isEmpty && $0.limit == nil && $0.offset == nil && $0.orders.isEmpty
      } ?? true)
  }

  /// Whether the clauses add nothing: a default scope like this one changes no statement.
  @usableFromInline var isTrivial: Bool {
    !isEmpty && !isDistinct && wheres.isEmpty && (rare.map { $0 == RareClauses.empty } ?? true)
  }

  /// These clauses under a table's default scope: its conditions first, then these.
  @usableFromInline func scoped(by scope: SelectClauses) -> SelectClauses {
    guard self.scope == .default, !scope.isTrivial else { return self }
    var clauses = self
    clauses.isEmpty = isEmpty || scope.isEmpty
    clauses.isDistinct = isDistinct || scope.isDistinct
    clauses.wheres = scope.wheres
    clauses.wheres.append(contentsOf: wheres.filter { !scope.wheres.contains($0) })
    guard rare != nil || scope.rare != nil else { return clauses }
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
      fragment.append(Self.conjunction(Conditions(havings)))
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
    guard let condition, let only = wheres.only, isPlainFilter, rare?.joins.isEmpty ?? true, rare?.from == nil else {
      return nil
    }
    return !only.hasPieces && only.sql == condition ? only.bindings : nil
  }

  /// Appends ` WHERE a AND b`, or nothing.
  func appendWhereClause(to fragment: inout QueryFragment) {
    guard !wheres.isEmpty else { return }
    fragment.append(raw: " WHERE ")
    fragment.append(Self.conjunction(wheres))
  }

  /// Predicates joined with `AND`, each parenthesized when it is an operator expression.
  static func conjunction(_ predicates: Conditions) -> QueryFragment {
    predicates.only ?? predicates.map(\.operand).joined(separator: " AND ")
  }
}

/// The clauses of a `SELECT` other than its conditions, kept apart so that copying a lookup by
/// key does not copy each of them (see ``SelectClauses``).
///
/// Copy-on-write: a ``SelectClauses`` changes its object only when nothing else holds it, and
/// copies it first otherwise, so a shared object is never changed; that is what makes it safe to
/// send between threads.
final class RareClauses: Hashable, @unchecked Sendable {
  /// No clause at all: what a statement without this object has.
  static let empty = RareClauses()

  var columns: [ResultColumn] = []
  var joinedColumns: [ResultColumn] = []
  var from: QueryFragment?
  var joins: [QueryFragment] = []
  var groups: [QueryFragment] = []
  var havings: [QueryFragment] = []
  var windows: [QueryFragment] = []
  var orders: [QueryFragment] = []
  var limit: QueryFragment?
  var offset: QueryFragment?

  init() {}

  init(copying other: RareClauses) {
    columns = other.columns
    joinedColumns = other.joinedColumns
    from = other.from
    joins = other.joins
    groups = other.groups
    havings = other.havings
    windows = other.windows
    orders = other.orders
    limit = other.limit
    offset = other.offset
  }

  static func == (lhs: RareClauses, rhs: RareClauses) -> Bool {
    lhs === rhs
      || (lhs.columns == rhs.columns && lhs.joinedColumns == rhs.joinedColumns && lhs.from == rhs.from
        && lhs.joins == rhs.joins && lhs.groups == rhs.groups && lhs.havings == rhs.havings
        && lhs.windows == rhs.windows && lhs.orders == rhs.orders && lhs.limit == rhs.limit
        && lhs.offset == rhs.offset)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(columns)
    hasher.combine(joinedColumns)
    hasher.combine(from)
    hasher.combine(joins)
    hasher.combine(groups)
    hasher.combine(havings)
    hasher.combine(windows)
    hasher.combine(orders)
    hasher.combine(limit)
    hasher.combine(offset)
  }
}

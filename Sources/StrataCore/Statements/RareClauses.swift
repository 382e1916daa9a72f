/// The clauses of a `SELECT` other than its conditions, kept apart so that copying a lookup by
/// key does not copy each of them (see ``SelectClauses``).
///
/// Copy-on-write: a ``SelectClauses`` changes its object only when nothing else holds it, and
/// copies it first otherwise, so a shared object is never changed; that is what makes it safe to
/// send between threads. The object is only ever changed by the one ``SelectClauses`` that holds
/// it, through one property at a time, so the runtime's exclusivity check of each access (a
/// thousand instructions of a one-row join's building) is not made.
final class RareClauses: Hashable, @unchecked Sendable {
  /// No clause at all: what a statement without this object has.
  static let empty = RareClauses()

  @exclusivity(unchecked) var columns: [ResultColumn] = []
  @exclusivity(unchecked) var joinedColumns: [ResultColumn] = []
  @exclusivity(unchecked) var from: QueryFragment?
  @exclusivity(unchecked) var joins: [QueryFragment] = []
  @exclusivity(unchecked) var groups: [QueryFragment] = []
  @exclusivity(unchecked) var havings: [QueryFragment] = []
  @exclusivity(unchecked) var windows: [QueryFragment] = []
  @exclusivity(unchecked) var orders: [QueryFragment] = []
  @exclusivity(unchecked) var limit: QueryFragment?
  @exclusivity(unchecked) var offset: QueryFragment?

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

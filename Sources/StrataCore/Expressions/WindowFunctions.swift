// Window functions: an aggregate or a ranking computed over the rows related to each row, which
// stay separate rows (unlike `group(by:)`):
//
//   Player.select {
//     ($0.name,
//      rowNumber().over(partitionBy: $0.gameID, orderBy: $0.score.desc()),
//      $0.score.sum().over(partitionBy: $0.gameID, orderBy: $0.id, frame: .rows(from: .unboundedPreceding, to: .currentRow)))
//   }
//   // SELECT "players"."name", row_number() OVER (PARTITION BY "players"."gameID" ORDER BY "players"."score" DESC),
//   //   sum("players"."score") OVER (PARTITION BY … ORDER BY … ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) …
//
// A ranking or value function (`rowNumber()`, `$0.score.lag()`) is only an expression once it has
// its window, so one without `over` does not compile; an aggregate is an expression either way,
// over a group of rows without `over`.

/// A function that needs a window: call ``over(partitionBy:orderBy:frame:)`` to use it.
public struct WindowFunction<QueryValue>: Hashable, Sendable {
  let call: QueryFragment

  /// The function computed over the rows of each row's partition, in `orderBy`'s order, within
  /// `frame` (SQLite's default frame when nil: from the partition's start to the current row and
  /// its peers).
  public func over<each Partition: QueryExpression, each Order: QueryExpression>(
    partitionBy partition: repeat each Partition, orderBy order: repeat each Order, frame: WindowFrame? = nil
  ) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(Window.over(call, Window.fragments(repeat each partition), Window.fragments(repeat each order), frame))
  }

  /// The function over the window the statement names `name` (``Select/window(_:_:)``):
  /// `OVER "name"`.
  public func over(_ name: String) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(call + " OVER " + QueryFragment(quoting: name))
  }
}

extension AnyQueryExpression {
  /// An aggregate (`count`, `sum`, `avg`, `min`, `max`, `total`, `groupConcat`) over the rows of
  /// each row's partition, in `orderBy`'s order, within `frame`; with `orderBy` and the default
  /// frame, a running total. Aggregates return this type, so they take a window; SQLite refuses
  /// one on any other function, naming it ("length() may not be used as a window function").
  public func over<each Partition: QueryExpression, each Order: QueryExpression>(
    partitionBy partition: repeat each Partition, orderBy order: repeat each Order, frame: WindowFrame? = nil
  ) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(Window.over(queryFragment, Window.fragments(repeat each partition), Window.fragments(repeat each order), frame))
  }

  /// The aggregate over the window the statement names `name` (``Select/window(_:_:)``):
  /// `OVER "name"`.
  public func over(_ name: String) -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(queryFragment + " OVER " + QueryFragment(quoting: name))
  }
}

/// A window a statement names, for several functions to share:
/// `.window("byGame") { WindowDefinition(partitionBy: $0.gameID, orderBy: $0.score.desc()) }`
/// is `WINDOW "byGame" AS (PARTITION BY "players"."gameID" ORDER BY "players"."score" DESC)`, and
/// `rowNumber().over("byGame")` computes over it.
public struct WindowDefinition: Hashable, Sendable {
  let queryFragment: QueryFragment

  /// The rows of each row's partition, in `orderBy`'s order, within `frame`, as for
  /// ``WindowFunction/over(partitionBy:orderBy:frame:)``.
  public init<each Partition: QueryExpression, each Order: QueryExpression>(
    partitionBy partition: repeat each Partition, orderBy order: repeat each Order, frame: WindowFrame? = nil
  ) {
    queryFragment = Window.specification(Window.fragments(repeat each partition), Window.fragments(repeat each order), frame)
  }
}

/// The rows of a partition a window function reads, relative to the current row.
public struct WindowFrame: Hashable, Sendable {
  let sql: String

  /// One end of a frame.
  public struct Bound: Hashable, Sendable {
    let sql: String

    public static let unboundedPreceding = Bound(sql: "UNBOUNDED PRECEDING")
    public static let currentRow = Bound(sql: "CURRENT ROW")
    public static let unboundedFollowing = Bound(sql: "UNBOUNDED FOLLOWING")
    /// `n` rows (or, in a `range` frame, a distance of `n`) before the current row.
    public static func preceding(_ count: Int) -> Bound { Bound(sql: "\(count) PRECEDING") }
    /// `n` rows (or a distance of `n`) after the current row.
    public static func following(_ count: Int) -> Bound { Bound(sql: "\(count) FOLLOWING") }
  }

  /// Rows of the frame left out: `EXCLUDE …`.
  public struct Exclusion: Hashable, Sendable {
    let sql: String

    /// `EXCLUDE NO OTHERS`: none, as without an exclusion.
    public static let noOthers = Exclusion(sql: "EXCLUDE NO OTHERS")
    /// `EXCLUDE CURRENT ROW`: the current row.
    public static let currentRow = Exclusion(sql: "EXCLUDE CURRENT ROW")
    /// `EXCLUDE GROUP`: the current row and its peers.
    public static let group = Exclusion(sql: "EXCLUDE GROUP")
    /// `EXCLUDE TIES`: the current row's peers, not the row itself.
    public static let ties = Exclusion(sql: "EXCLUDE TIES")
  }

  /// `ROWS BETWEEN start AND end [EXCLUDE …]`: counted in rows.
  public static func rows(from start: Bound, to end: Bound, exclude: Exclusion? = nil) -> WindowFrame {
    frame("ROWS", start, end, exclude)
  }

  /// `RANGE BETWEEN start AND end [EXCLUDE …]`: rows whose `orderBy` value is within the
  /// distance (peers count as one).
  public static func range(from start: Bound, to end: Bound, exclude: Exclusion? = nil) -> WindowFrame {
    frame("RANGE", start, end, exclude)
  }

  /// `GROUPS BETWEEN start AND end [EXCLUDE …]`: counted in groups of peers.
  public static func groups(from start: Bound, to end: Bound, exclude: Exclusion? = nil) -> WindowFrame {
    frame("GROUPS", start, end, exclude)
  }

  private static func frame(_ unit: String, _ start: Bound, _ end: Bound, _ exclude: Exclusion?) -> WindowFrame {
    WindowFrame(sql: "\(unit) BETWEEN \(start.sql) AND \(end.sql)" + (exclude.map { " " + $0.sql } ?? ""))
  }
}

enum Window {
  static func fragments<each Term: QueryExpression>(_ terms: repeat each Term) -> [QueryFragment] {
    var fragments: [QueryFragment] = []
    for term in repeat each terms { fragments.append(term.queryFragment.argument) }
    return fragments
  }

  static func over(_ call: QueryFragment, _ partition: [QueryFragment], _ order: [QueryFragment], _ frame: WindowFrame?) -> QueryFragment {
    call + " OVER " + specification(partition, order, frame)
  }

  /// `(PARTITION BY … ORDER BY … frame)`.
  static func specification(_ partition: [QueryFragment], _ order: [QueryFragment], _ frame: WindowFrame?) -> QueryFragment {
    var clauses: [QueryFragment] = []
    if !partition.isEmpty { clauses.append("PARTITION BY " + partition.joined(separator: ", ")) }
    if !order.isEmpty { clauses.append("ORDER BY " + order.joined(separator: ", ")) }
    if let frame { clauses.append(QueryFragment(raw: frame.sql)) }
    return "(" + clauses.joined(separator: " ") + ")"
  }

  static func function<Value>(_ name: String, _ arguments: QueryFragment...) -> WindowFunction<Value> {
    WindowFunction(call: SQLOperator.call(QueryFragment(raw: name), arguments))
  }
}

/// `row_number()`: the row's position in its partition, from 1.
public func rowNumber() -> WindowFunction<Int> { Window.function("row_number") }

/// `rank()`: the row's rank in its partition, with gaps after ties (1, 1, 3).
public func rank() -> WindowFunction<Int> { Window.function("rank") }

/// `dense_rank()`: the row's rank in its partition, without gaps after ties (1, 1, 2).
public func denseRank() -> WindowFunction<Int> { Window.function("dense_rank") }

/// `percent_rank()`: `(rank - 1) / (rows in the partition - 1)`, from 0 to 1.
public func percentRank() -> WindowFunction<Double> { Window.function("percent_rank") }

/// `cume_dist()`: the fraction of the partition's rows up to the row and its peers.
public func cumeDist() -> WindowFunction<Double> { Window.function("cume_dist") }

/// `ntile(n)`: which of `n` nearly equal groups of the partition the row falls in, from 1.
public func ntile(_ groups: Int) -> WindowFunction<Int> { Window.function("ntile", groups.queryFragment.castForPostgreSQL("integer")) }

extension DatabaseExpression where QueryValue: QueryBindable {
  /// `lag(x, offset)`: the value `offset` rows before in the partition; NULL before the first.
  public func lag(_ offset: Int = 1) -> WindowFunction<QueryValue.Unwrapped?> {
    Window.function("lag", queryFragment.argument, offset.queryFragment.castForPostgreSQL("integer"))
  }

  /// `lag(x, offset, default)`: the value `offset` rows before, or `defaultValue` before the first.
  public func lag(_ offset: Int = 1, default defaultValue: QueryValue) -> WindowFunction<QueryValue> {
    Window.function("lag", queryFragment.argument, offset.queryFragment.castForPostgreSQL("integer"), defaultValue.queryFragment)
  }

  /// `lead(x, offset)`: the value `offset` rows after in the partition; NULL after the last.
  public func lead(_ offset: Int = 1) -> WindowFunction<QueryValue.Unwrapped?> {
    Window.function("lead", queryFragment.argument, offset.queryFragment.castForPostgreSQL("integer"))
  }

  /// `lead(x, offset, default)`: the value `offset` rows after, or `defaultValue` after the last.
  public func lead(_ offset: Int = 1, default defaultValue: QueryValue) -> WindowFunction<QueryValue> {
    Window.function("lead", queryFragment.argument, offset.queryFragment.castForPostgreSQL("integer"), defaultValue.queryFragment)
  }

  /// `first_value(x)`: the value at the frame's first row; NULL for an empty frame.
  public func firstValue() -> WindowFunction<QueryValue.Unwrapped?> {
    Window.function("first_value", queryFragment.argument)
  }

  /// `last_value(x)`: the value at the frame's last row (with the default frame, the current
  /// row's last peer); NULL for an empty frame.
  public func lastValue() -> WindowFunction<QueryValue.Unwrapped?> {
    Window.function("last_value", queryFragment.argument)
  }

  /// `nth_value(x, n)`: the value at the frame's `n`th row, from 1; NULL when there is none.
  public func nthValue(_ n: Int) -> WindowFunction<QueryValue.Unwrapped?> {
    Window.function("nth_value", queryFragment.argument, n.queryFragment.castForPostgreSQL("integer"))
  }
}

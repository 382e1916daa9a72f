/// `SELECT a, b, …` without a table: one row of the given expressions.
///
/// ```swift
/// Values(1, "one")                     // SELECT ?, ?
/// Values(1).union(Item.select(\.id))   // an operand of a compound select
/// ```
///
/// Useful as the first row of a recursive common table expression, where a row of the table
/// itself reads as in StructuredQueries:
///
/// ```swift
/// With {
///   Count(value: 1).union(Count.select { Count.Columns(value: $0.value + 1) })
/// } query: {
///   Count.limit(4)   // WITH "counts" AS (SELECT ? AS "value" UNION SELECT … FROM "counts") …
/// }
/// ```
public struct Values<QueryValue>: SelectStatement, DatabaseExpression, Hashable, Sendable {
  let columns: [ResultColumn]

  /// One row of a single expression.
  public init<Value: QueryExpression>(_ value: Value) where QueryValue == Value.QueryValue {
    columns = value.resultColumns
  }

  /// One row of several expressions.
  public init<First: QueryExpression, Second: QueryExpression, each Rest: QueryExpression>(
    _ first: First, _ second: Second, _ rest: repeat each Rest
  ) where QueryValue == (First.QueryValue, Second.QueryValue, repeat (each Rest).QueryValue) {
    var columns = first.resultColumns + second.resultColumns
    for expression in repeat each rest { columns += expression.resultColumns }
    self.columns = columns
  }

  /// One row of a table (or selection) type's values, each named after its column: `SELECT ?
  /// AS "id", ? AS "title"`.
  public init(_ row: QueryValue) where QueryValue: Table {
    columns = ResultColumn.values(of: row)
  }

  public var queryFragment: QueryFragment {
    ("SELECT " + columns.queryFragment).marked(.statement)
  }

  /// Values used as a result column are a parenthesized scalar subquery.
  public var resultColumns: [ResultColumn] {
    [ResultColumn(queryFragment.parenthesized())]
  }
}

// Common table expressions: `WITH "name" ("column", …) AS (SELECT …) <statement>`.
//
// A CTE's table is a `Selection` whose fields are all columns; the generator makes such a
// selection a `Table` too, named like a table (`Counts` → `"counts"`), which is never stored.
// Each CTE statement selects that type (through its `Columns`), and the final statement can
// use it like any table:
//
//   With {
//     Values(Counts.Columns(value: 1))
//       .union(all: true, Counts.select { Counts.Columns(value: $0.value + 1) })
//   } query: {
//     Counts.limit(10)
//   }
//
// A CTE that refers to itself is recursive; SQLite needs no `RECURSIVE` keyword to run it.

/// One `"name" ("column", …) AS (SELECT …)` of a `WITH` clause.
public struct CommonTableExpression: Hashable, Sendable {
  let fragment: QueryFragment
  let isEmpty: Bool

  /// The CTE that `statement` defines: its table is the statement's row type.
  public init<Row: Table>(_ statement: some SelectStatement<Row>) {
    var fragment = QueryFragment(quoting: Row.tableName)
    fragment.append(raw: " (")
    fragment.append(Row.TableColumns.columnNames.map { QueryFragment(quoting: $0) }.joined(separator: ", "))
    fragment.append(raw: ") AS ")
    fragment.append(statement.queryFragment.parenthesized())
    self.fragment = fragment
    isEmpty = statement.isEmpty
  }
}

/// Collects the common table expressions of a ``With``, in order; later ones may use earlier
/// ones.
@resultBuilder
public enum CommonTableExpressionBuilder {
  public static func buildExpression<Row: Table>(_ statement: some SelectStatement<Row>) -> [CommonTableExpression] {
    [CommonTableExpression(statement)]
  }

  public static func buildBlock(_ components: [CommonTableExpression]...) -> [CommonTableExpression] {
    components.flatMap { $0 }
  }
}

/// A statement with common table expressions: `WITH … SELECT/INSERT/UPDATE/DELETE …`, whose
/// rows decode as `QueryValue`.
public struct With<QueryValue>: SelectStatement, DatabaseExpression, Hashable, Sendable {
  let fragment: QueryFragment
  let isNothing: Bool

  /// A statement that can use the tables of `expressions`: a select, insert, update or delete.
  @_disfavoredOverload
  public init<Statement: QueryStatement>(
    @CommonTableExpressionBuilder _ expressions: () -> [CommonTableExpression],
    query statement: () -> Statement
  ) where Statement.QueryValue == QueryValue {
    self.init(expressions(), statement())
  }

  init(_ expressions: [CommonTableExpression], _ statement: some QueryStatement) {
    // SQLite reads any `WITH` as possibly recursive; PostgreSQL only `WITH RECURSIVE`, which
    // allows the ones that are not as well.
    var fragment = QueryFragment(piece: .respelled(sqlite: "WITH ", postgreSQL: "WITH RECURSIVE "))
    fragment.append(expressions.map(\.fragment).joined(separator: ", "))
    fragment.append(raw: " ")
    fragment.append(statement.queryFragment)
    self.fragment = fragment.marked(.statement)
    isNothing = statement.isEmpty
  }

  public var queryFragment: QueryFragment { fragment }

  public var isEmpty: Bool { isNothing }

  public var singleBatch: QueryFragment? { isNothing ? QueryFragment() : fragment }

  /// A `WITH` statement used as a result column is a parenthesized scalar subquery.
  public var resultColumns: [ResultColumn] {
    [ResultColumn(fragment.parenthesized())]
  }
}

extension With where QueryValue: Table {
  /// A select of whole rows that can use the tables of `expressions`: `query: { Counts.all }`;
  /// its rows decode as the table.
  public init(
    @CommonTableExpressionBuilder _ expressions: () -> [CommonTableExpression],
    query statement: () -> Where<QueryValue>
  ) {
    self.init(expressions(), statement())
  }
}

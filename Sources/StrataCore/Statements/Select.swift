/// A `SELECT` statement on table `From`, joined with the tables in `Joins`, whose selected
/// columns decode as `Columns`.
///
/// Build one from a table type and refine it with chained calls; every call returns a new value:
///
/// ```swift
/// Player
///   .where { $0.gameID.eq(gameID) }
///   .order { $0.score.desc() }
///   .limit(10)
/// ```
///
/// `Columns` is `()` until something is selected: such a statement selects every column of its
/// tables and decodes as `From`, or as `(From, Joined…)` after joins. Each `select` appends
/// columns, as in StructuredQueries: `Player.select(\.name).select(\.score)` decodes as
/// `(String, Int)`.
///
/// Closures receive the columns of `From` as `$0` and those of each joined table as `$1`,
/// `$2`, … in join order. Tables on the optional side of an outer join are handed over as
/// ``NullableColumns``, and decode as optionals.
public struct Select<Columns, From: Table, Joins>: QueryStatement, DatabaseExpression, Hashable,
  Sendable
{
  public typealias QueryValue = Columns

  /// The path from a table type to a statement's SQL (`Player.find(id)`, `update`, `delete`,
  /// `singleBatch`) is `@inlinable`, so that it is specialized for the app's table types where
  /// it is called: unspecialized, each step copied the statement through value witnesses (a
  /// find's building 0.43 → 0.36 µs, a delete's 0.53 → 0.42 µs, when the clauses were 200 bytes
  /// held inline; Documentation/Performance.md).
  @usableFromInline var clauses: SelectClauses

  @inlinable
  init(clauses: SelectClauses) {
    self.clauses = clauses
  }

  /// The clauses with `From`'s default scope (`From.all`) applied; see ``withResolvedClauses(_:)``.
  @inlinable
  var resolved: SelectClauses {
    withResolvedClauses { $0 }
  }

  /// The statement's SQL, marked as a statement so that a select used as a subquery
  /// (`$0.score.eq(Player.select { $0.score.max() })`) is parenthesized.
  public var queryFragment: QueryFragment {
    withResolvedClauses(render)
  }

  /// The scope is resolved once for both questions an executor asks: whether the statement
  /// does anything, and its SQL.
  @inlinable
  public var singleBatch: QueryFragment? {
    withResolvedClauses { $0.isEmpty ? QueryFragment() : render($0) }
  }

  /// Calls `body` with the clauses under `From`'s default scope (`From.all`) when the statement
  /// started from the table type. For a table without a default scope of its own (most tables)
  /// those are the stored clauses themselves, handed over without a copy of each of their arrays.
  @inlinable
  func withResolvedClauses<Result>(_ body: (SelectClauses) -> Result) -> Result {
    if clauses.scope == .default {
      let scope = From.all.clauses
      if !scope.isTrivial { return body(clauses.scoped(by: scope)) }
    }
    return body(clauses)
  }

  @inlinable
  func render(_ clauses: SelectClauses) -> QueryFragment {
    guard clauses.selectsAllOfOneTable else {
      return clauses.queryFragment(table: From.tableFragment, tableColumns: From.allColumnsFragment)
        .marked(.statement)
    }
    // The common case, whole rows of one table: its `SELECT … FROM` is rendered once per type,
    // and so is the whole of a lookup by key.
    let tableSQL = From._tableSQL
    if let bindings = clauses.onlyCondition(tableSQL.keyEqualsParameter), let sql = tableSQL.selectByKey {
      return QueryFragment(sql: sql, bindings: bindings).marked(.statement)
    }
    var fragment = QueryFragment(raw: tableSQL.selectAll)
    fragment.reserveCapacity(fragment.sql.utf8.count + 64)
    clauses.appendTail(to: &fragment)
    return fragment.marked(.statement)
  }

  /// A select used as a result column is a parenthesized scalar subquery.
  public var resultColumns: [ResultColumn] {
    [ResultColumn(queryFragment.parenthesized())]
  }

  public var isEmpty: Bool { withResolvedClauses(\.isEmpty) }

  /// The same statement, typed with other result columns and joins.
  ///
  /// Consuming, so that a chain of calls on a statement nothing else holds (`Player.where { … }
  /// .order { … }`) moves its clauses from step to step instead of copying each of their arrays.
  @inlinable
  consuming func retyped<NewColumns, NewFrom: Table, NewJoins>(
    _ transform: (inout SelectClauses) -> Void = { _ in }
  ) -> Select<NewColumns, NewFrom, NewJoins> {
    // Taken out rather than copied: a copy would share the rare clauses' object with `self`
    // until `self` is destroyed, and changing one of them would copy that object first.
    var clauses = SelectClauses()
    swap(&clauses, &self.clauses)
    transform(&clauses)
    return Select<NewColumns, NewFrom, NewJoins>(clauses: clauses)
  }

  @inlinable
  consuming func with(_ transform: (inout SelectClauses) -> Void) -> Self {
    retyped(transform)
  }

  /// Appends the row filter for an `UPDATE` or `DELETE` of the selected rows: the `WHERE`
  /// clause (the table's rendered ` WHERE "t"."key" = ?` whole when that is all of it), or, when
  /// ordering, grouping or a limit choose the rows, `rowid IN (<this select>)`. `clauses` are
  /// this statement's, with the scope resolved; `tableSQL` is `From`'s.
  @inlinable
  func appendRowFilter(_ clauses: SelectClauses, of tableSQL: TableSQL, to fragment: inout QueryFragment) {
    if let bindings = clauses.onlyCondition(tableSQL.keyEqualsParameter), let whereKey = tableSQL.whereKey {
      fragment.append(QueryFragment(sql: whereKey, bindings: bindings))
      return
    }
    appendRowFilter(choosing: clauses, to: &fragment)
  }

  /// The row filter of statements that do not choose one row by its key: their `WHERE`, or the
  /// rows a subquery with their ordering, grouping or limit selects.
  @usableFromInline
  func appendRowFilter(choosing clauses: SelectClauses, to fragment: inout QueryFragment) {
    if clauses.isPlainFilter {
      clauses.appendWhereClause(to: &fragment)
      return
    }
    var subquery = clauses
    let rowid = From.columns.rowIdentity
    subquery.columns = [ResultColumn(rowid)]
    fragment.append(
      " WHERE " + rowid + " IN ("
        + subquery.queryFragment(table: From.tableFragment, tableColumns: QueryFragment()) + ")")
  }
}

/// A filtered `SELECT` of whole rows of one table: what `Player.where { … }` and
/// `Player.find(id)` return. Besides fetching, it can be turned into an update or a delete of
/// the rows it selects.
public typealias Where<T: Table> = Select<(), T, ()>

extension Table {
  /// The table as written after `FROM`: `"players"`, or `"players" AS "alias"`.
  @inlinable
  static var tableFragment: QueryFragment {
    QueryFragment(raw: Self._tableSQL.from)
  }

  /// The name that qualifies the table's columns: its alias, or its name.
  static var tableQualifier: String { tableAlias ?? tableName }

  /// Every column of the table, qualified: `"players"."id", "players"."name", …`.
  @inlinable
  static var allColumnsFragment: QueryFragment {
    QueryFragment(raw: Self._tableSQL.allColumns)
  }
}

// Closure-taking methods come in two forms. One hands the closure the columns of `From` alone:
// it serves statements without joins, and closures of joined statements that use only `$0`.
// The other hands it a tuple of every table's columns, which Swift lets a closure use as
// `$0, $1, …` when it refers to `$1` or later; with no joined tables that tuple would have one
// element and not unwrap, hence the first form. Selections likewise come as one expression or a
// tuple of two or more.
//
// Each method consumes the statement it refines, as a chain of calls does (`Player.where { … }
// .order { … }.limit(10)`), so that the clauses it builds on are moved, not shared: a shared
// object of rare clauses would be copied before its first change (see `SelectClauses`).

extension Select {
  /// Adds conditions to the `WHERE` clause; conditions combine with `AND`. The closure may
  /// use `if`, `else` and `for`.
  public consuming func `where`(@PredicateBuilder _ predicate: (From.TableColumns) -> [QueryFragment]) -> Self {
    with { $0.wheres.append(contentsOf: predicate(From.columns)) }
  }

  /// Adds a condition that a closure value (rather than a closure literal) computes, such as a
  /// function parameter: `func titles(_ predicate: (Item.TableColumns) -> some …)`.
  @_disfavoredOverload
  public consuming func `where`<Predicate: QueryExpression>(
    _ predicate: (From.TableColumns) -> Predicate
  ) -> Self where Predicate.QueryValue: QueryRepresentable, Predicate.QueryValue.Unwrapped == Bool {
    with { $0.wheres.append(predicate(From.columns).queryFragment) }
  }

  /// Adds conditions on every table's columns to the `WHERE` clause.
  @_disfavoredOverload
  public consuming func `where`<each J: Table>(
    @PredicateBuilder _ predicate: ((From.TableColumns, repeat (each J).TableColumns)) -> [QueryFragment]
  ) -> Self where Joins == (repeat each J) {
    with { $0.wheres.append(contentsOf: predicate((From.columns, repeat (each J).columns))) }
  }

  /// Adds a Boolean column of `From` to the `WHERE` clause: `.where(\.isActive)`.
  public consuming func `where`<Predicate: QueryExpression>(
    _ keyPath: KeyPath<From.TableColumns, Predicate>
  ) -> Self where Predicate.QueryValue: QueryRepresentable, Predicate.QueryValue.Unwrapped == Bool {
    with { $0.wheres.append(From.columns[keyPath: keyPath].queryFragment) }
  }

  /// Appends terms to the `ORDER BY` clause: expressions (ascending), `asc()`/`desc()` terms,
  /// tuples of them, chosen with `if`/`else` if need be.
  public consuming func order(@OrderingBuilder by terms: (From.TableColumns) -> [QueryFragment]) -> Self {
    with { $0.orders.appendTakingStorage(terms(From.columns)) }
  }

  /// Appends terms on every table's columns to the `ORDER BY` clause.
  @_disfavoredOverload
  public consuming func order<each J: Table>(
    @OrderingBuilder by terms: ((From.TableColumns, repeat (each J).TableColumns)) -> [QueryFragment]
  ) -> Self where Joins == (repeat each J) {
    with { $0.orders.appendTakingStorage(terms((From.columns, repeat (each J).columns))) }
  }

  /// Appends a column of `From`, ascending, to the `ORDER BY` clause: `.order(by: \.title)`.
  public consuming func order(by keyPath: KeyPath<From.TableColumns, some QueryExpression>) -> Self {
    with { $0.orders.append(OrderingBuilder.buildExpression(From.columns[keyPath: keyPath])[0]) }
  }

  /// Appends an expression to the `GROUP BY` clause.
  public consuming func group(by term: (From.TableColumns) -> some QueryExpression) -> Self {
    with { $0.groups.append(term(From.columns).queryFragment) }
  }

  /// Appends expressions to the `GROUP BY` clause.
  public consuming func group<First: QueryExpression, Second: QueryExpression, each Term: QueryExpression>(
    by terms: (From.TableColumns) -> (First, Second, repeat each Term)
  ) -> Self {
    with { $0.groups.appendTakingStorage(Self.fragments(terms, From.columns)) }
  }

  /// Appends an expression of every table's columns to the `GROUP BY` clause.
  @_disfavoredOverload
  public consuming func group<each J: Table>(
    by term: ((From.TableColumns, repeat (each J).TableColumns)) -> some QueryExpression
  ) -> Self where Joins == (repeat each J) {
    with { $0.groups.append(term((From.columns, repeat (each J).columns)).queryFragment) }
  }

  /// Appends expressions of every table's columns to the `GROUP BY` clause.
  @_disfavoredOverload
  public consuming func group<
    each J: Table, First: QueryExpression, Second: QueryExpression, each Term: QueryExpression
  >(
    by terms: ((From.TableColumns, repeat (each J).TableColumns)) -> (First, Second, repeat each Term)
  ) -> Self where Joins == (repeat each J) {
    with { $0.groups.appendTakingStorage(Self.fragments(terms, (From.columns, repeat (each J).columns))) }
  }

  /// Appends a column of `From` to the `GROUP BY` clause: `.group(by: \.id)`.
  public consuming func group(by keyPath: KeyPath<From.TableColumns, some QueryExpression>) -> Self {
    with { $0.groups.append(From.columns[keyPath: keyPath].queryFragment) }
  }

  /// Names a window for the statement's window functions to share (`.over("name")`):
  /// `WINDOW "name" AS (PARTITION BY … ORDER BY …)`.
  ///
  /// ```swift
  /// Player
  ///   .window("byGame") { WindowDefinition(partitionBy: $0.gameID, orderBy: $0.score.desc()) }
  ///   .select { ($0.name, rank().over("byGame"), $0.score.sum().over("byGame")) }
  /// ```
  public consuming func window(_ name: String, _ definition: (From.TableColumns) -> WindowDefinition) -> Self {
    with { $0.windows.append(QueryFragment(quoting: name) + " AS " + definition(From.columns).queryFragment) }
  }

  /// Adds conditions on groups to the `HAVING` clause; conditions combine with `AND`.
  public consuming func having(@PredicateBuilder _ predicate: (From.TableColumns) -> [QueryFragment]) -> Self {
    with { $0.havings.appendTakingStorage(predicate(From.columns)) }
  }

  /// Adds conditions on every table's columns to the `HAVING` clause.
  @_disfavoredOverload
  public consuming func having<each J: Table>(
    @PredicateBuilder _ predicate: ((From.TableColumns, repeat (each J).TableColumns)) -> [QueryFragment]
  ) -> Self where Joins == (repeat each J) {
    with { $0.havings.appendTakingStorage(predicate((From.columns, repeat (each J).columns))) }
  }

  /// Sets `LIMIT` and, optionally, `OFFSET`; both are bound parameters.
  public consuming func limit(_ count: Int, offset: Int? = nil) -> Self {
    with {
      $0.limit = count.queryFragment
      if let offset { $0.offset = offset.queryFragment }
    }
  }

  /// Sets `LIMIT` to an expression: a subquery's count, or a ``QueryParameter`` of a prepared
  /// statement, whose value each run gives.
  public consuming func limit<each J: Table>(
    _ maxLength: (From.TableColumns, repeat (each J).TableColumns) -> some QueryExpression<Int>
  ) -> Self where Joins == (repeat each J) {
    // A subquery, as any argument, in parentheses.
    let count = maxLength(From.columns, repeat (each J).columns).queryFragment.argument
    return with { $0.limit = count }
  }

  /// Sets `LIMIT` and `OFFSET` to expressions: a subquery's count, or the ``QueryParameter``s of
  /// a prepared statement, whose values each run gives (a page of a list).
  public consuming func limit<each J: Table>(
    _ maxLength: (From.TableColumns, repeat (each J).TableColumns) -> some QueryExpression<Int>,
    offset: (From.TableColumns, repeat (each J).TableColumns) -> some QueryExpression<Int>
  ) -> Self where Joins == (repeat each J) {
    let count = maxLength(From.columns, repeat (each J).columns).queryFragment.argument
    let offset = offset(From.columns, repeat (each J).columns).queryFragment.argument
    return with {
      $0.limit = count
      $0.offset = offset
    }
  }

  /// Sets `OFFSET`, a bound parameter: the rows to skip.
  public consuming func offset(_ count: Int) -> Self {
    with { $0.offset = count.queryFragment }
  }

  /// Makes the statement `SELECT DISTINCT` (or not).
  public consuming func distinct(_ isDistinct: Bool = true) -> Self {
    with { $0.isDistinct = isDistinct }
  }

  static func fragments<Input, each Expression: QueryExpression>(
    _ expressions: (Input) -> (repeat each Expression), _ input: Input
  ) -> [QueryFragment] {
    var fragments: [QueryFragment] = []
    for expression in repeat each expressions(input) { fragments.append(expression.queryFragment) }
    return fragments
  }
}

// `select` appends to what the statement selects, as in StructuredQueries: a statement that
// selects nothing yet (`Columns == ()`) gets the new columns alone.

extension Select {
  /// Selects one more expression: a column (`{ $0.title }`), the whole table (`{ $0 }`), an
  /// aggregate, a subquery, or a ``Selection``'s columns.
  public consuming func select<each C, Selected: QueryExpression>(
    _ selection: (From.TableColumns) -> Selected
  ) -> Select<(repeat each C, Selected.QueryValue), From, Joins>
  where Columns == (repeat each C), Selected.QueryValue: QueryRepresentable {
    appending(selection(From.columns).resultColumns)
  }

  /// Selects a column of `From`: `.select(\.title)`.
  public consuming func select<each C, Selected: QueryExpression>(
    _ keyPath: KeyPath<From.TableColumns, Selected>
  ) -> Select<(repeat each C, Selected.QueryValue), From, Joins>
  where Columns == (repeat each C), Selected.QueryValue: QueryRepresentable {
    appending(From.columns[keyPath: keyPath].resultColumns)
  }

  /// Selects more expressions: `{ ($0.title, $0.score) }`.
  public consuming func select<
    each C, First: QueryExpression, Second: QueryExpression, each Selected: QueryExpression
  >(
    _ selection: (From.TableColumns) -> (First, Second, repeat each Selected)
  ) -> Select<
    (repeat each C, First.QueryValue, Second.QueryValue, repeat (each Selected).QueryValue), From, Joins
  >
  where
    Columns == (repeat each C), First.QueryValue: QueryRepresentable,
    Second.QueryValue: QueryRepresentable, repeat (each Selected).QueryValue: QueryRepresentable
  {
    appending([ResultColumn](selection, From.columns))
  }

  // After one selected expression, the forms below name the result: the compiler does not infer
  // the general forms' one-element pack while the first closure's type is still open
  // (`Tag.select { $0.id }.select { $0.title }`). A tuple cannot be `QueryRepresentable`, so
  // these apply to a single column only, and yield to the general forms wherever those apply.

  /// Selects a second expression: `Tag.select { $0.id }.select { $0.title }`.
  @_disfavoredOverload
  public consuming func select<Selected: QueryExpression>(
    _ selection: (From.TableColumns) -> Selected
  ) -> Select<(Columns, Selected.QueryValue), From, Joins>
  where Columns: QueryRepresentable, Selected.QueryValue: QueryRepresentable {
    appending(selection(From.columns).resultColumns)
  }

  /// Selects a second column: `Tag.select(\.id).select(\.title)`.
  @_disfavoredOverload
  public consuming func select<Selected: QueryExpression>(
    _ keyPath: KeyPath<From.TableColumns, Selected>
  ) -> Select<(Columns, Selected.QueryValue), From, Joins>
  where Columns: QueryRepresentable, Selected.QueryValue: QueryRepresentable {
    appending(From.columns[keyPath: keyPath].resultColumns)
  }

  /// Selects more expressions after one: `Tag.select { $0.id }.select { ($0.title, $0.count) }`.
  @_disfavoredOverload
  public consuming func select<First: QueryExpression, Second: QueryExpression, each Selected: QueryExpression>(
    _ selection: (From.TableColumns) -> (First, Second, repeat each Selected)
  ) -> Select<(Columns, First.QueryValue, Second.QueryValue, repeat (each Selected).QueryValue), From, Joins>
  where
    Columns: QueryRepresentable, First.QueryValue: QueryRepresentable, Second.QueryValue: QueryRepresentable,
    repeat (each Selected).QueryValue: QueryRepresentable
  {
    appending([ResultColumn](selection, From.columns))
  }

  /// Selects one more expression of the joined tables: a column, a whole table (`{ $1 }`), an
  /// aggregate (`{ $1.count() }`), or a ``Selection``'s columns
  /// (`{ GameRow.Columns(game: $0, playerCount: $1.count()) }`).
  @_disfavoredOverload
  public consuming func select<each C, each J: Table, Selected: QueryExpression>(
    _ selection: ((From.TableColumns, repeat (each J).TableColumns)) -> Selected
  ) -> Select<(repeat each C, Selected.QueryValue), From, Joins>
  where Columns == (repeat each C), Joins == (repeat each J), Selected.QueryValue: QueryRepresentable {
    appending(selection((From.columns, repeat (each J).columns)).resultColumns)
  }

  /// Selects more expressions of the joined tables: `{ ($0.title, $1.count()) }`, `{ ($0, $1) }`.
  @_disfavoredOverload
  @inlinable
  public consuming func select<
    each C, each J: Table, First: QueryExpression, Second: QueryExpression, each Selected: QueryExpression
  >(
    _ selection: ((From.TableColumns, repeat (each J).TableColumns)) -> (First, Second, repeat each Selected)
  ) -> Select<
    (repeat each C, First.QueryValue, Second.QueryValue, repeat (each Selected).QueryValue), From, Joins
  >
  where
    Columns == (repeat each C), Joins == (repeat each J), First.QueryValue: QueryRepresentable,
    Second.QueryValue: QueryRepresentable, repeat (each Selected).QueryValue: QueryRepresentable
  {
    appending([ResultColumn](selection, (From.columns, repeat (each J).columns)))
  }

  // The forms below for a statement that selects nothing yet return the same types as the
  // general ones; they exist because the compiler cannot infer the general ones' result types
  // inside another query's closure (`$0.id.in(Category.where { … }.select { $0.id })`).

  /// Selects an expression: a column (`{ $0.title }`), the whole table (`{ $0 }`), an
  /// aggregate, a subquery, or a ``Selection``'s columns.
  public consuming func select<Selected: QueryExpression>(
    _ selection: (From.TableColumns) -> Selected
  ) -> Select<Selected.QueryValue, From, Joins>
  where Columns == (), Selected.QueryValue: QueryRepresentable {
    appending(selection(From.columns).resultColumns)
  }

  /// Selects a column of `From`: `.select(\.title)`.
  public consuming func select<Selected: QueryExpression>(
    _ keyPath: KeyPath<From.TableColumns, Selected>
  ) -> Select<Selected.QueryValue, From, Joins>
  where Columns == (), Selected.QueryValue: QueryRepresentable {
    appending(From.columns[keyPath: keyPath].resultColumns)
  }

  /// Selects an expression of the joined tables.
  @_disfavoredOverload
  public consuming func select<each J: Table, Selected: QueryExpression>(
    _ selection: ((From.TableColumns, repeat (each J).TableColumns)) -> Selected
  ) -> Select<Selected.QueryValue, From, Joins>
  where Columns == (), Joins == (repeat each J), Selected.QueryValue: QueryRepresentable {
    appending(selection((From.columns, repeat (each J).columns)).resultColumns)
  }

  /// Selects `count(*)`, of the rows that meet `filter` if one is given.
  public consuming func count(
    filter: ((From.TableColumns) -> any QueryExpression<Bool>)? = nil
  ) -> Select<Int, From, Joins> where Columns == () {
    appending([ResultColumn(Self.countAll(filter: filter?(From.columns)))])
  }

  /// Selects `count(*)`, of the rows that meet `filter` if one is given: `Player.count()`,
  /// `Player.group(by: \.gameID).count()` (a count per group).
  public consuming func count<each C>(
    filter: ((From.TableColumns) -> any QueryExpression<Bool>)? = nil
  ) -> Select<(repeat each C, Int), From, Joins> where Columns == (repeat each C) {
    appending([ResultColumn(Self.countAll(filter: filter?(From.columns)))])
  }

  /// Selects `count(*)`, of the rows whose tables meet `filter`.
  @_disfavoredOverload
  public consuming func count<each C, each J: Table>(
    filter: (((From.TableColumns, repeat (each J).TableColumns)) -> any QueryExpression<Bool>)? = nil
  ) -> Select<(repeat each C, Int), From, Joins> where Columns == (repeat each C), Joins == (repeat each J) {
    appending([ResultColumn(Self.countAll(filter: filter?((From.columns, repeat (each J).columns))))])
  }

  /// Replaces the selected expressions with new ones built from them:
  /// `Player.select { ($0.name, $0.score) }.map { ($1, $0.upper()) }`.
  public consuming func map<each C: QueryRepresentable, each Mapped: QueryExpression>(
    _ transform: (repeat AnyQueryExpression<each C>) -> (repeat each Mapped)
  ) -> Select<(repeat (each Mapped).QueryValue), From, Joins>
  where Columns == (repeat each C), repeat (each Mapped).QueryValue: QueryRepresentable {
    var remaining = clauses.columns[...]
    func next<Value: QueryRepresentable>(_ type: Value.Type) -> AnyQueryExpression<Value> {
      let columns = remaining.prefix(Value.queryColumnCount)
      remaining = remaining.dropFirst(Value.queryColumnCount)
      return AnyQueryExpression(columns.map(\.expression).joined(separator: ", "))
    }
    let mapped = transform(repeat next((each C).self))
    var columns: [ResultColumn] = []
    for expression in repeat each mapped { columns.appendTakingStorage(expression.resultColumns) }
    return retyped { $0.columns = columns }
  }

  @inlinable
  consuming func appending<NewColumns>(_ columns: [ResultColumn]) -> Select<NewColumns, From, Joins> {
    retyped { $0.columns.appendTakingStorage(columns) }
  }

  static func countAll(filter: (any QueryExpression<Bool>)?) -> QueryFragment {
    guard let filter else { return "count(*)" }
    return "count(*) FILTER (WHERE " + filter.queryFragment + ")"
  }

  /// A statement that counts the rows this one returns: `count(*)` in place of the result
  /// columns, or, when grouping, `DISTINCT` or a limit shape the rows, over this statement as a
  /// subquery.
  public consuming func countingRows() -> Select<Int, From, Joins> {
    let clauses = resolved
    let count = [ResultColumn("count(*)")]
    if clauses.groups.isEmpty && clauses.havings.isEmpty && !clauses.isDistinct && clauses.limit == nil
      && clauses.offset == nil
    {
      return retyped {
        $0 = clauses
        $0.scope = .unscoped
        $0.columns = count
        $0.orders = []
      }
    }
    var counting = SelectClauses(scope: .unscoped)
    counting.isEmpty = clauses.isEmpty
    counting.columns = count
    // The rows' values matter only to DISTINCT; a grouped select of `1` is valid where one of
    // every column is not (PostgreSQL refuses a column neither grouped nor aggregated).
    var counted = clauses
    counted.scope = .unscoped
    if !clauses.isDistinct { counted.columns = [ResultColumn("1")] }
    if clauses.limit == nil, clauses.offset == nil { counted.orders = [] }
    // PostgreSQL names every subquery in FROM.
    counting.from = "(" + counted.queryFragment(table: From.tableFragment, tableColumns: QueryFragment()) + ")"
      + QueryFragment(piece: .postgreSQLText(#" AS "rows""#))
    return Select<Int, From, Joins>(clauses: counting)
  }
}

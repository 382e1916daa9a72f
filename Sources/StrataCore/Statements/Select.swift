/// A `SELECT` statement on table `From`, joined with the tables in `Joins`, whose rows decode
/// as `Columns`.
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
/// Closures receive the columns of `From` as `$0` and those of each joined table as `$1`,
/// `$2`, … in join order. Tables on the optional side of an outer join are handed over as
/// ``NullableColumns``, and decode as optionals.
public struct Select<Columns, From: Table, Joins>: QueryStatement, DatabaseExpression, Hashable,
  Sendable
{
  public typealias QueryValue = Columns

  var clauses: SelectClauses

  init(clauses: SelectClauses) {
    self.clauses = clauses
  }

  /// The statement's SQL, marked as a statement so that a select used as a subquery
  /// (`$0.score.eq(Player.select { $0.score.max() })`) is parenthesized.
  public var queryFragment: QueryFragment {
    clauses.queryFragment.marked(.statement)
  }

  /// A select used as a result column is a parenthesized scalar subquery.
  public var resultColumns: [ResultColumn] {
    [ResultColumn(clauses.queryFragment.parenthesized())]
  }

  public var isEmpty: Bool { clauses.isEmpty }

  /// The same statement, typed with other result columns and joins.
  func retyped<NewColumns, NewFrom: Table, NewJoins>(
    _ transform: (inout SelectClauses) -> Void = { _ in }
  ) -> Select<NewColumns, NewFrom, NewJoins> {
    var clauses = clauses
    transform(&clauses)
    return Select<NewColumns, NewFrom, NewJoins>(clauses: clauses)
  }

  func with(_ transform: (inout SelectClauses) -> Void) -> Self {
    retyped(transform)
  }
}

/// A filtered `SELECT` of whole rows of one table: what `Player.where { … }` and
/// `Player.find(id)` return. Besides fetching, it can be turned into an update or a delete of
/// the rows it selects.
public typealias Where<T: Table> = Select<T, T, ()>

// Closure-taking methods come in two forms. One hands the closure the columns of `From` alone:
// it serves statements without joins, and closures of joined statements that use only `$0`.
// The other hands it a tuple of every table's columns, which Swift lets a closure use as
// `$0, $1, …` when it refers to `$1` or later; with no joined tables that tuple would have one
// element and not unwrap, hence the first form. Selections likewise come as one expression or a
// tuple of two or more.

extension Select {
  /// Adds a condition to the `WHERE` clause (conditions combine with `AND`).
  public func `where`<Predicate: QueryExpression>(
    _ predicate: (From.TableColumns) -> Predicate
  ) -> Self where Predicate.QueryValue: QueryRepresentable, Predicate.QueryValue.Unwrapped == Bool {
    adding(where: predicate(From.columns))
  }

  /// Appends terms to the `ORDER BY` clause: expressions (ascending), `asc()`/`desc()` terms,
  /// tuples of them, chosen with `if`/`else` if need be.
  public func order(@OrderingBuilder by terms: (From.TableColumns) -> [QueryFragment]) -> Self {
    adding(orders: terms(From.columns))
  }

  /// Appends an expression to the `GROUP BY` clause.
  public func group(by term: (From.TableColumns) -> some QueryExpression) -> Self {
    adding(groups: [term(From.columns).queryFragment])
  }

  /// Appends expressions to the `GROUP BY` clause.
  public func group<First: QueryExpression, Second: QueryExpression, each Term: QueryExpression>(
    by terms: (From.TableColumns) -> (First, Second, repeat each Term)
  ) -> Self {
    adding(groups: Self.fragments(terms, From.columns))
  }

  /// Adds a condition on groups to the `HAVING` clause (conditions combine with `AND`).
  public func having<Predicate: QueryExpression>(
    _ predicate: (From.TableColumns) -> Predicate
  ) -> Self where Predicate.QueryValue: QueryRepresentable, Predicate.QueryValue.Unwrapped == Bool {
    adding(having: predicate(From.columns))
  }

  /// Replaces the result columns with one expression: a column (`{ $0.title }`), the whole
  /// table (`{ $0 }`), an aggregate, or a ``Selection``'s columns.
  public func select<Selected: QueryExpression>(
    _ selection: (From.TableColumns) -> Selected
  ) -> Select<Selected.QueryValue, From, Joins> where Selected.QueryValue: QueryRepresentable {
    selecting(selection(From.columns).resultColumns)
  }

  /// Replaces the result columns with a tuple of expressions: `{ ($0.title, $0.score) }`.
  public func select<First: QueryExpression, Second: QueryExpression, each Selected: QueryExpression>(
    _ selection: (From.TableColumns) -> (First, Second, repeat each Selected)
  ) -> Select<(First.QueryValue, Second.QueryValue, repeat (each Selected).QueryValue), From, Joins>
  where
    First.QueryValue: QueryRepresentable, Second.QueryValue: QueryRepresentable,
    repeat (each Selected).QueryValue: QueryRepresentable
  {
    selecting(Self.resultColumns(selection, From.columns))
  }
}

extension Select {
  /// Adds a condition to the `WHERE` clause (conditions combine with `AND`).
  @_disfavoredOverload
  public func `where`<each J: Table, Predicate: QueryExpression>(
    _ predicate: ((From.TableColumns, repeat (each J).TableColumns)) -> Predicate
  ) -> Self
  where
    Joins == (repeat each J), Predicate.QueryValue: QueryRepresentable,
    Predicate.QueryValue.Unwrapped == Bool
  {
    adding(where: predicate((From.columns, repeat (each J).columns)))
  }

  /// Adds a Boolean column of `From` to the `WHERE` clause: `.where(\.isActive)`.
  public func `where`<Predicate: QueryExpression>(
    _ keyPath: KeyPath<From.TableColumns, Predicate>
  ) -> Self where Predicate.QueryValue: QueryRepresentable, Predicate.QueryValue.Unwrapped == Bool {
    adding(where: From.columns[keyPath: keyPath])
  }

  /// Appends terms to the `ORDER BY` clause: expressions (ascending), `asc()`/`desc()` terms,
  /// tuples of them, chosen with `if`/`else` if need be.
  @_disfavoredOverload
  public func order<each J: Table>(
    @OrderingBuilder by terms: ((From.TableColumns, repeat (each J).TableColumns)) -> [QueryFragment]
  ) -> Self where Joins == (repeat each J) {
    adding(orders: terms((From.columns, repeat (each J).columns)))
  }

  /// Appends a column of `From`, ascending, to the `ORDER BY` clause: `.order(by: \.title)`.
  public func order(by keyPath: KeyPath<From.TableColumns, some QueryExpression>) -> Self {
    adding(orders: [From.columns[keyPath: keyPath].queryFragment])
  }

  /// Appends a column of `From` to the `GROUP BY` clause: `.group(by: \.id)`.
  public func group(by keyPath: KeyPath<From.TableColumns, some QueryExpression>) -> Self {
    adding(groups: [From.columns[keyPath: keyPath].queryFragment])
  }

  /// Appends an expression to the `GROUP BY` clause.
  @_disfavoredOverload
  public func group<each J: Table>(
    by term: ((From.TableColumns, repeat (each J).TableColumns)) -> some QueryExpression
  ) -> Self where Joins == (repeat each J) {
    adding(groups: [term((From.columns, repeat (each J).columns)).queryFragment])
  }

  /// Appends expressions to the `GROUP BY` clause.
  @_disfavoredOverload
  public func group<
    each J: Table, First: QueryExpression, Second: QueryExpression, each Term: QueryExpression
  >(
    by terms: ((From.TableColumns, repeat (each J).TableColumns)) -> (First, Second, repeat each Term)
  ) -> Self where Joins == (repeat each J) {
    adding(groups: Self.fragments(terms, (From.columns, repeat (each J).columns)))
  }

  /// Adds a condition on groups to the `HAVING` clause (conditions combine with `AND`).
  @_disfavoredOverload
  public func having<each J: Table, Predicate: QueryExpression>(
    _ predicate: ((From.TableColumns, repeat (each J).TableColumns)) -> Predicate
  ) -> Self
  where
    Joins == (repeat each J), Predicate.QueryValue: QueryRepresentable,
    Predicate.QueryValue.Unwrapped == Bool
  {
    adding(having: predicate((From.columns, repeat (each J).columns)))
  }

  /// Sets `LIMIT` and, optionally, `OFFSET`; both are bound parameters.
  public func limit(_ count: Int, offset: Int? = nil) -> Self {
    with {
      $0.limit = count.queryFragment
      $0.offset = offset?.queryFragment
    }
  }

  /// Makes the statement `SELECT DISTINCT` (or not).
  public func distinct(_ isDistinct: Bool = true) -> Self {
    with { $0.isDistinct = isDistinct }
  }

  /// Replaces the result columns with one expression of the joined tables: a column, a whole
  /// table (`{ $1 }`), an aggregate (`{ $1.count() }`), or a ``Selection``'s columns
  /// (`{ GameRow.Columns(game: $0, playerCount: $1.count()) }`).
  @_disfavoredOverload
  public func select<each J: Table, Selected: QueryExpression>(
    _ selection: ((From.TableColumns, repeat (each J).TableColumns)) -> Selected
  ) -> Select<Selected.QueryValue, From, Joins>
  where Joins == (repeat each J), Selected.QueryValue: QueryRepresentable {
    selecting(selection((From.columns, repeat (each J).columns)).resultColumns)
  }

  /// Replaces the result columns with a tuple of expressions of the joined tables:
  /// `{ ($0.title, $1.count()) }`, `{ ($0, $1) }`.
  @_disfavoredOverload
  public func select<
    each J: Table, First: QueryExpression, Second: QueryExpression, each Selected: QueryExpression
  >(
    _ selection: ((From.TableColumns, repeat (each J).TableColumns)) ->
      (First, Second, repeat each Selected)
  ) -> Select<(First.QueryValue, Second.QueryValue, repeat (each Selected).QueryValue), From, Joins>
  where
    Joins == (repeat each J), First.QueryValue: QueryRepresentable,
    Second.QueryValue: QueryRepresentable, repeat (each Selected).QueryValue: QueryRepresentable
  {
    selecting(Self.resultColumns(selection, (From.columns, repeat (each J).columns)))
  }

  /// A statement that counts the rows this one returns: `SELECT count(*) FROM …`.
  public func count() -> Select<Int, From, Joins> {
    retyped { $0 = $0.counting }
  }
}

extension Select {
  func adding(where predicate: some QueryExpression) -> Self {
    with { $0.wheres.append(predicate.queryFragment) }
  }

  func adding(having predicate: some QueryExpression) -> Self {
    with { $0.havings.append(predicate.queryFragment) }
  }

  func adding(orders: [QueryFragment]) -> Self {
    with { $0.orders += orders }
  }

  func adding(groups: [QueryFragment]) -> Self {
    with { $0.groups += groups }
  }

  func selecting<NewColumns>(_ columns: [ResultColumn]) -> Select<NewColumns, From, Joins> {
    retyped { $0.columns = columns }
  }

  static func fragments<Input, each Expression: QueryExpression>(
    _ expressions: (Input) -> (repeat each Expression), _ input: Input
  ) -> [QueryFragment] {
    var fragments: [QueryFragment] = []
    for expression in repeat each expressions(input) { fragments.append(expression.queryFragment) }
    return fragments
  }

  static func resultColumns<Input, each Expression: QueryExpression>(
    _ expressions: (Input) -> (repeat each Expression), _ input: Input
  ) -> [ResultColumn] {
    var columns: [ResultColumn] = []
    for expression in repeat each expressions(input) { columns += expression.resultColumns }
    return columns
  }
}

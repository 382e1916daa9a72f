// Entry points for queries, on the table type: `Player.where { … }`, `Player.select { … }`,
// `Player.join(…)`. Each starts from the type's default scope, `all`.

extension Table {
  /// A statement under the type's default scope, resolved when it renders: so that a type can
  /// declare `static let all = Self.where { … }` without defining `all` in terms of itself.
  @inlinable
  static var scoped: Where<Self> {
    Where(clauses: SelectClauses(scope: .default))
  }

  /// A statement that returns no rows; executing it does not touch the database.
  ///
  /// Useful as the initial value of a query that is filled in later. Its SQL is the table's with
  /// `WHERE 0`, so it stays valid as a subquery or the joined side of a join. A join with a
  /// `none` statement returns no rows either.
  public static var none: Where<Self> {
    unscoped.with {
      $0.isEmpty = true
      $0.wheres = [QueryFragment(piece: .boolean(false))]
    }
  }

  /// The rows that satisfy the conditions (combined with `AND`; the closure may use `if` and
  /// `for`).
  public static func `where`(@PredicateBuilder _ predicate: (TableColumns) -> [QueryFragment]) -> Where<Self> {
    scoped.where(predicate)
  }

  /// The rows that satisfy a condition that a closure value (rather than a closure literal)
  /// computes.
  @_disfavoredOverload
  public static func `where`<Predicate: QueryExpression>(
    _ predicate: (TableColumns) -> Predicate
  ) -> Where<Self> where Predicate.QueryValue: QueryRepresentable, Predicate.QueryValue.Unwrapped == Bool {
    scoped.where(predicate)
  }

  /// The rows whose Boolean column `keyPath` is true: `Reminder.where(\.isFlagged)`.
  public static func `where`<Predicate: QueryExpression>(
    _ keyPath: KeyPath<TableColumns, Predicate>
  ) -> Where<Self> where Predicate.QueryValue: QueryRepresentable, Predicate.QueryValue.Unwrapped == Bool {
    scoped.where(keyPath)
  }

  /// Every row, ordered by the terms the closure builds.
  public static func order(@OrderingBuilder by terms: (TableColumns) -> [QueryFragment]) -> Where<Self> {
    scoped.order(by: terms)
  }

  /// Every row, ordered by a column.
  public static func order(by keyPath: KeyPath<TableColumns, some QueryExpression>) -> Where<Self> {
    scoped.order(by: keyPath)
  }

  /// Every row, grouped by a column.
  public static func group(by keyPath: KeyPath<TableColumns, some QueryExpression>) -> Where<Self> {
    scoped.group(by: keyPath)
  }

  /// Every row, grouped by an expression.
  public static func group(by term: (TableColumns) -> some QueryExpression) -> Where<Self> {
    scoped.group(by: term)
  }

  /// At most `count` rows, after skipping `offset`.
  public static func limit(_ count: Int, offset: Int? = nil) -> Where<Self> {
    scoped.limit(count, offset: offset)
  }

  /// Every row after skipping `count`.
  public static func offset(_ count: Int) -> Where<Self> {
    scoped.offset(count)
  }

  /// One expression of every row.
  public static func select<Selected: QueryExpression>(
    _ selection: (TableColumns) -> Selected
  ) -> Select<Selected.QueryValue, Self, ()> where Selected.QueryValue: QueryRepresentable {
    scoped.select(selection)
  }

  /// A column of every row: `Player.select(\.name)`.
  public static func select<Selected: QueryExpression>(
    _ keyPath: KeyPath<TableColumns, Selected>
  ) -> Select<Selected.QueryValue, Self, ()> where Selected.QueryValue: QueryRepresentable {
    scoped.select(keyPath)
  }

  /// Expressions of every row: `Player.select { ($0.name, $0.score) }`.
  public static func select<
    First: QueryExpression, Second: QueryExpression, each Selected: QueryExpression
  >(
    _ selection: (TableColumns) -> (First, Second, repeat each Selected)
  ) -> Select<(First.QueryValue, Second.QueryValue, repeat (each Selected).QueryValue), Self, ()>
  where
    First.QueryValue: QueryRepresentable, Second.QueryValue: QueryRepresentable,
    repeat (each Selected).QueryValue: QueryRepresentable
  {
    scoped.select(selection)
  }

  /// `SELECT DISTINCT` over every row.
  public static func distinct(_ isDistinct: Bool = true) -> Where<Self> {
    scoped.distinct(isDistinct)
  }

  /// `SELECT count(*) FROM "table"`, of the rows that meet `filter` if one is given.
  public static func count(filter: ((TableColumns) -> any QueryExpression<Bool>)? = nil) -> Select<Int, Self, ()> {
    scoped.count(filter: filter)
  }

  /// Every row joined with `other`; see ``Select/join(_:on:)``.
  public static func join<each C2, F: Table, each J2: Table>(
    _ other: Select<(repeat each C2), F, (repeat each J2)>,
    on constraint: ((TableColumns, F.TableColumns, repeat (each J2).TableColumns)) -> some QueryExpression<Bool>
  ) -> Select<(repeat each C2), Self, (F, repeat each J2)> {
    // Not forwarded to the instance method: the compiler does not match this closure type with
    // the one it expects there, which has an empty pack of joins before `F`.
    scoped.joining(other, "JOIN ", constraint((columns, F.columns, repeat (each J2).columns)).queryFragment)
  }

  /// Every row left-joined with `other`; see ``Select/leftJoin(_:on:)``.
  public static func leftJoin<each C2: QueryRepresentable, F: Table, each J2: Table>(
    _ other: Select<(repeat each C2), F, (repeat each J2)>,
    on constraint: ((TableColumns, F.TableColumns, repeat (each J2).TableColumns)) -> some QueryExpression<Bool>
  ) -> Select<(repeat (each C2).Optionalized), Self, (F.Nullable, repeat (each J2).Nullable)> {
    scoped.joining(other, "LEFT JOIN ", constraint((columns, F.columns, repeat (each J2).columns)).queryFragment)
  }

  /// Every row right-joined with `other`; see ``Select/rightJoin(_:on:)``.
  public static func rightJoin<each C2, F: Table, each J2: Table>(
    _ other: Select<(repeat each C2), F, (repeat each J2)>,
    on constraint: ((TableColumns, F.TableColumns, repeat (each J2).TableColumns)) -> some QueryExpression<Bool>
  ) -> Select<(repeat each C2), Nullable, (F, repeat each J2)> {
    scoped.joining(other, "RIGHT JOIN ", constraint((columns, F.columns, repeat (each J2).columns)).queryFragment)
  }

  /// Every row full-joined with `other`; see ``Select/fullJoin(_:on:)``.
  public static func fullJoin<each C2: QueryRepresentable, F: Table, each J2: Table>(
    _ other: Select<(repeat each C2), F, (repeat each J2)>,
    on constraint: ((TableColumns, F.TableColumns, repeat (each J2).TableColumns)) -> some QueryExpression<Bool>
  ) -> Select<(repeat (each C2).Optionalized), Nullable, (F.Nullable, repeat (each J2).Nullable)> {
    scoped.joining(other, "FULL JOIN ", constraint((columns, F.columns, repeat (each J2).columns)).queryFragment)
  }
}

extension PrimaryKeyedTable {
  /// The row whose primary key is `key`. (A select of keys is not taken as one key: it goes to
  /// the `IN (SELECT …)` form below.)
  @_disfavoredOverload
  @inlinable
  public static func find(_ key: some QueryExpression<PrimaryKey>) -> Where<Self> {
    scoped.find(key)
  }

  /// The rows whose primary keys are in `keys`.
  public static func find(_ keys: some Sequence<PrimaryKey>) -> Where<Self> {
    scoped.find(keys)
  }

  /// The rows whose primary keys a subquery selects: `IN (SELECT …)`.
  public static func find<Key: QueryBindable, F: Table, J>(
    _ keys: Select<Key, F, J>
  ) -> Where<Self> where Key.Unwrapped == PrimaryKey.Unwrapped {
    scoped.find(keys)
  }
}

extension Select where From: PrimaryKeyedTable, Joins == () {
  /// Narrows the statement to the row whose primary key is `key`, whatever it selects.
  @_disfavoredOverload
  @inlinable
  public consuming func find(_ key: some QueryExpression<From.PrimaryKey>) -> Self {
    // The condition's SQL is the same for every key: it comes from the table's rendered SQL,
    // whole when the key is a bound value.
    let key = key.queryFragment
    let tableSQL = From._tableSQL
    let condition: QueryFragment
    if key.isPlaceholder, let sql = tableSQL.keyEqualsParameter {
      condition = QueryFragment(sql: sql, bindings: key.bindings)
    } else {
      var built = QueryFragment(raw: tableSQL.column(From.columns.primaryKey.name) + " = ")
      built.append(key.operand)
      condition = built
    }
    return with { $0.wheres.append(condition.compound()) }
  }

  /// Narrows the statement to the rows whose primary keys are in `keys`.
  public func find(_ keys: some Sequence<From.PrimaryKey>) -> Self {
    self.where { _ in From.columns.primaryKey.in(keys) }
  }

  /// Narrows the statement to the rows whose primary keys a subquery selects: `IN (SELECT …)`.
  public func find<Key: QueryBindable, F: Table, J>(
    _ keys: Select<Key, F, J>
  ) -> Self where Key.Unwrapped == From.PrimaryKey.Unwrapped {
    self.where { _ in From.columns.primaryKey.in(keys) }
  }
}

extension Select where Columns == (), Joins == () {
  /// A statement of the conditions alone, for the operand of ``or(_:)`` and ``and(_:)``:
  /// `Item.where { $0.price > 1 }.or(.where(\.isActive))`.
  public static func `where`(@PredicateBuilder _ predicate: (From.TableColumns) -> [QueryFragment]) -> Self {
    From.unscoped.where(predicate)
  }

  /// A statement of a Boolean column alone, for the operand of ``or(_:)`` and ``and(_:)``.
  public static func `where`<Predicate: QueryExpression>(
    _ keyPath: KeyPath<From.TableColumns, Predicate>
  ) -> Self where Predicate.QueryValue: QueryRepresentable, Predicate.QueryValue.Unwrapped == Bool {
    From.unscoped.where(keyPath)
  }

  /// Both statements' conditions: `(a) AND (b)`.
  public func and(_ other: Self) -> Self {
    with { $0.wheres.append(contentsOf: other.clauses.wheres) }
  }

  /// Either statement's conditions: `(a) OR (b)`.
  public func or(_ other: Self) -> Self {
    guard !clauses.wheres.isEmpty else { return other }
    guard !other.clauses.wheres.isEmpty else { return self }
    let either = SelectClauses.conjunction(clauses.wheres).parenthesized() + " OR "
      + SelectClauses.conjunction(other.clauses.wheres).parenthesized()
    return with { $0.wheres = [either.compound()] }
  }

  /// The statement's conditions negated: `NOT (a)`.
  public func not() -> Self {
    let condition = clauses.wheres.isEmpty ? QueryFragment(piece: .boolean(true)) : SelectClauses.conjunction(clauses.wheres)
    return with { $0.wheres = [("NOT " + condition.parenthesized()).compound()] }
  }

  /// Both statements' conditions: `lhs.and(rhs)`.
  public static func && (lhs: Self, rhs: Self) -> Self { lhs.and(rhs) }

  /// Either statement's conditions: `lhs.or(rhs)`.
  public static func || (lhs: Self, rhs: Self) -> Self { lhs.or(rhs) }

  /// The statement's conditions negated: `statement.not()`.
  public static prefix func ! (statement: Self) -> Self { statement.not() }
}

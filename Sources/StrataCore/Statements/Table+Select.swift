// Entry points for queries, on the table type: `Player.all`, `Player.where { … }`, and the
// shorthands that start from `all`.

extension Table {
  /// Every row of the table: `SELECT <all columns> FROM "table"`.
  public static var all: Where<Self> {
    Select(clauses: SelectClauses(table: tableName, columns: columns.resultColumns))
  }

  /// A statement that returns no rows; executing it does not touch the database.
  ///
  /// Useful as the initial value of a query that is filled in later. Its SQL is `all` with
  /// `WHERE 0`, so it stays valid as a subquery or the joined side of a join. A join onto a
  /// `none` statement returns no rows either.
  public static var none: Where<Self> {
    all.with {
      $0.isEmpty = true
      $0.wheres = ["0"]
    }
  }

  /// The rows that satisfy `predicate`.
  public static func `where`<Predicate: QueryExpression>(
    _ predicate: (TableColumns) -> Predicate
  ) -> Where<Self>
  where Predicate.QueryValue: QueryRepresentable, Predicate.QueryValue.Unwrapped == Bool {
    all.where(predicate)
  }

  /// The rows whose Boolean column `keyPath` is true: `Reminder.where(\.isFlagged)`.
  public static func `where`<Predicate: QueryExpression>(
    _ keyPath: KeyPath<TableColumns, Predicate>
  ) -> Where<Self> where Predicate.QueryValue: QueryRepresentable, Predicate.QueryValue.Unwrapped == Bool {
    all.where(keyPath)
  }

  /// Every row, ordered by the terms the closure builds.
  public static func order(
    @OrderingBuilder by terms: (TableColumns) -> [QueryFragment]
  ) -> Where<Self> {
    all.order(by: terms)
  }

  /// Every row, ordered by a column.
  public static func order(by keyPath: KeyPath<TableColumns, some QueryExpression>) -> Where<Self> {
    all.order(by: keyPath)
  }

  /// Every row, grouped by a column.
  public static func group(by keyPath: KeyPath<TableColumns, some QueryExpression>) -> Where<Self> {
    all.group(by: keyPath)
  }

  /// At most `count` rows, after skipping `offset`.
  public static func limit(_ count: Int, offset: Int? = nil) -> Where<Self> {
    all.limit(count, offset: offset)
  }

  /// Every row, with one expression as the result column.
  public static func select<Selected: QueryExpression>(
    _ selection: (TableColumns) -> Selected
  ) -> Select<Selected.QueryValue, Self, ()> where Selected.QueryValue: QueryRepresentable {
    all.select(selection)
  }

  /// Every row, with a tuple of expressions as the result columns.
  public static func select<
    First: QueryExpression, Second: QueryExpression, each Selected: QueryExpression
  >(
    _ selection: (TableColumns) -> (First, Second, repeat each Selected)
  ) -> Select<(First.QueryValue, Second.QueryValue, repeat (each Selected).QueryValue), Self, ()>
  where
    First.QueryValue: QueryRepresentable, Second.QueryValue: QueryRepresentable,
    repeat (each Selected).QueryValue: QueryRepresentable
  {
    all.select(selection)
  }

  /// `SELECT DISTINCT` over every row.
  public static func distinct(_ isDistinct: Bool = true) -> Where<Self> {
    all.distinct(isDistinct)
  }

  /// `SELECT count(*) FROM "table"`.
  public static func count() -> Select<Int, Self, ()> {
    all.count()
  }

  /// Every row joined with `other`; see ``Select/join(_:on:)``.
  public static func join<Other: Table>(
    _ other: Where<Other>,
    on constraint: ((TableColumns, Other.TableColumns)) -> some QueryExpression<Bool>
  ) -> Select<(Self, Other), Self, (Other)> {
    all.join(other, on: constraint)
  }

  /// Every row left-joined with `other`; see ``Select/leftJoin(_:on:)``.
  public static func leftJoin<Other: Table>(
    _ other: Where<Other>,
    on constraint: ((TableColumns, Other.TableColumns)) -> some QueryExpression<Bool>
  ) -> Select<(Self, Other.Nullable), Self, (Other.Nullable)> {
    all.leftJoin(other, on: constraint)
  }

  /// Every row right-joined with `other`; see ``Select/rightJoin(_:on:)``.
  public static func rightJoin<Other: Table>(
    _ other: Where<Other>,
    on constraint: ((TableColumns, Other.TableColumns)) -> some QueryExpression<Bool>
  ) -> Select<(Nullable, Other), Nullable, (Other)> {
    all.rightJoin(other, on: constraint)
  }

  /// Every row full-joined with `other`; see ``Select/fullJoin(_:on:)``.
  public static func fullJoin<Other: Table>(
    _ other: Where<Other>,
    on constraint: ((TableColumns, Other.TableColumns)) -> some QueryExpression<Bool>
  ) -> Select<(Nullable, Other.Nullable), Nullable, (Other.Nullable)> {
    all.fullJoin(other, on: constraint)
  }
}

extension PrimaryKeyedTable {
  /// The row whose primary key is `key`.
  public static func find(_ key: some QueryExpression<PrimaryKey>) -> Where<Self> {
    all.find(key)
  }

  /// The rows whose primary keys are in `keys`.
  public static func find(_ keys: some Sequence<PrimaryKey>) -> Where<Self> {
    all.find(keys)
  }
}

extension Select where From: PrimaryKeyedTable, Joins == () {
  /// Narrows the statement to the row whose primary key is `key`.
  public func find(_ key: some QueryExpression<From.PrimaryKey>) -> Self {
    self.where { _ in From.columns.primaryKey.eq(key) }
  }

  /// Narrows the statement to the rows whose primary keys are in `keys`.
  public func find(_ keys: some Sequence<From.PrimaryKey>) -> Self {
    self.where { _ in From.columns.primaryKey.in(keys) }
  }
}

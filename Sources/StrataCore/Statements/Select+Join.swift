// Joins append another statement to a select, as StructuredQueries does: the joined table goes
// into the `FROM` clause with its `ON` constraint, and the joined statement's other clauses
// join this one's: its conditions go into `WHERE` (so `leftJoin(Player.where { … })` keeps only
// rows whose players match; put a condition in the `on:` closure to keep unmatched rows), its
// grouping, `HAVING` and ordering are appended, and its limit, if any, replaces this one's.
// What the joined statement selects is appended to what this one selects.
//
// Result types follow SQL: after `a.leftJoin(b)` the columns of `b` are optional; after
// `a.rightJoin(b)` those of `a` are; after `a.fullJoin(b)` both are. Like the other clauses,
// a join consumes the statement it refines (see Select+Clauses.swift).

extension Select {
  /// `JOIN other ON constraint`: rows that have a match on both sides.
  @inlinable
  public consuming func join<each C, each J: Table, each C2, F: Table, each J2: Table>(
    _ other: Select<(repeat each C2), F, (repeat each J2)>,
    on constraint: (
      (From.TableColumns, repeat (each J).TableColumns, F.TableColumns, repeat (each J2).TableColumns)
    ) -> some QueryExpression<Bool>
  ) -> Select<(repeat each C, repeat each C2), From, (repeat each J, F, repeat each J2)>
  where Columns == (repeat each C), Joins == (repeat each J) {
    let condition = constraint((From.columns, repeat (each J).columns, F.columns, repeat (each J2).columns))
    return joining(other, "JOIN ", condition.queryFragment)
  }

  /// `JOIN other ON constraint` after one selected value, such as a `Selection`'s columns
  /// (`Employee.select { Report.Columns(…) }.join(…)`), which the compiler does not take as a
  /// tuple of one.
  @_disfavoredOverload
  @inlinable
  public consuming func join<each J: Table, each C2, F: Table, each J2: Table>(
    _ other: Select<(repeat each C2), F, (repeat each J2)>,
    on constraint: (
      (From.TableColumns, repeat (each J).TableColumns, F.TableColumns, repeat (each J2).TableColumns)
    ) -> some QueryExpression<Bool>
  ) -> Select<(Columns, repeat each C2), From, (repeat each J, F, repeat each J2)>
  where Columns: QueryRepresentable, Joins == (repeat each J) {
    let condition = constraint((From.columns, repeat (each J).columns, F.columns, repeat (each J2).columns))
    return joining(other, "JOIN ", condition.queryFragment)
  }

  /// `LEFT JOIN other ON constraint` after one selected value, such as a `Selection`'s columns.
  @_disfavoredOverload
  @inlinable
  public consuming func leftJoin<each J: Table, each C2: QueryRepresentable, F: Table, each J2: Table>(
    _ other: Select<(repeat each C2), F, (repeat each J2)>,
    on constraint: (
      (From.TableColumns, repeat (each J).TableColumns, F.TableColumns, repeat (each J2).TableColumns)
    ) -> some QueryExpression<Bool>
  ) -> Select<(Columns, repeat (each C2).Optionalized), From, (repeat each J, F.Nullable, repeat (each J2).Nullable)>
  where Columns: QueryRepresentable, Joins == (repeat each J) {
    let condition = constraint((From.columns, repeat (each J).columns, F.columns, repeat (each J2).columns))
    return joining(other, "LEFT JOIN ", condition.queryFragment)
  }

  /// `LEFT JOIN other ON constraint`: every row of this statement, with `other`'s columns NULL
  /// where nothing matches.
  @inlinable
  public consuming func leftJoin<each C, each J: Table, each C2: QueryRepresentable, F: Table, each J2: Table>(
    _ other: Select<(repeat each C2), F, (repeat each J2)>,
    on constraint: (
      (From.TableColumns, repeat (each J).TableColumns, F.TableColumns, repeat (each J2).TableColumns)
    ) -> some QueryExpression<Bool>
  ) -> Select<
    (repeat each C, repeat (each C2).Optionalized), From, (repeat each J, F.Nullable, repeat (each J2).Nullable)
  >
  where Columns == (repeat each C), Joins == (repeat each J) {
    let condition = constraint((From.columns, repeat (each J).columns, F.columns, repeat (each J2).columns))
    return joining(other, "LEFT JOIN ", condition.queryFragment)
  }

  /// `RIGHT JOIN other ON constraint` after one selected value, such as a `Selection`'s columns.
  @_disfavoredOverload
  @inlinable
  public consuming func rightJoin<each J: Table, each C2, F: Table, each J2: Table>(
    _ other: Select<(repeat each C2), F, (repeat each J2)>,
    on constraint: (
      (From.TableColumns, repeat (each J).TableColumns, F.TableColumns, repeat (each J2).TableColumns)
    ) -> some QueryExpression<Bool>
  ) -> Select<(Columns.Optionalized, repeat each C2), From.Nullable, (repeat (each J).Nullable, F, repeat each J2)>
  where Columns: QueryRepresentable, Joins == (repeat each J) {
    let condition = constraint((From.columns, repeat (each J).columns, F.columns, repeat (each J2).columns))
    return joining(other, "RIGHT JOIN ", condition.queryFragment)
  }

  /// `FULL JOIN other ON constraint` after one selected value, such as a `Selection`'s columns.
  @_disfavoredOverload
  @inlinable
  public consuming func fullJoin<each J: Table, each C2: QueryRepresentable, F: Table, each J2: Table>(
    _ other: Select<(repeat each C2), F, (repeat each J2)>,
    on constraint: (
      (From.TableColumns, repeat (each J).TableColumns, F.TableColumns, repeat (each J2).TableColumns)
    ) -> some QueryExpression<Bool>
  ) -> Select<
    (Columns.Optionalized, repeat (each C2).Optionalized), From.Nullable,
    (repeat (each J).Nullable, F.Nullable, repeat (each J2).Nullable)
  >
  where Columns: QueryRepresentable, Joins == (repeat each J) {
    let condition = constraint((From.columns, repeat (each J).columns, F.columns, repeat (each J2).columns))
    return joining(other, "FULL JOIN ", condition.queryFragment)
  }

  /// `RIGHT JOIN other ON constraint`: every row of `other`, with this statement's columns NULL
  /// where nothing matches.
  @inlinable
  public consuming func rightJoin<each C: QueryRepresentable, each J: Table, each C2, F: Table, each J2: Table>(
    _ other: Select<(repeat each C2), F, (repeat each J2)>,
    on constraint: (
      (From.TableColumns, repeat (each J).TableColumns, F.TableColumns, repeat (each J2).TableColumns)
    ) -> some QueryExpression<Bool>
  ) -> Select<
    (repeat (each C).Optionalized, repeat each C2), From.Nullable, (repeat (each J).Nullable, F, repeat each J2)
  >
  where Columns == (repeat each C), Joins == (repeat each J) {
    let condition = constraint((From.columns, repeat (each J).columns, F.columns, repeat (each J2).columns))
    return joining(other, "RIGHT JOIN ", condition.queryFragment)
  }

  /// `FULL JOIN other ON constraint`: every row of both sides, matched where possible.
  @inlinable
  public consuming func fullJoin<
    each C: QueryRepresentable, each J: Table, each C2: QueryRepresentable, F: Table, each J2: Table
  >(
    _ other: Select<(repeat each C2), F, (repeat each J2)>,
    on constraint: (
      (From.TableColumns, repeat (each J).TableColumns, F.TableColumns, repeat (each J2).TableColumns)
    ) -> some QueryExpression<Bool>
  ) -> Select<
    (repeat (each C).Optionalized, repeat (each C2).Optionalized), From.Nullable,
    (repeat (each J).Nullable, F.Nullable, repeat (each J2).Nullable)
  >
  where Columns == (repeat each C), Joins == (repeat each J) {
    let condition = constraint((From.columns, repeat (each J).columns, F.columns, repeat (each J2).columns))
    return joining(other, "FULL JOIN ", condition.queryFragment)
  }

  // The forms below join a statement without joins of its own, the usual case when chaining
  // (`.join(Tag.all) { $2.tagID.eq($3.id) }`). They return what the general forms return; the
  // compiler cannot infer the general forms' closure type when `Joins` is not empty.

  /// `JOIN other ON constraint`; see ``join(_:on:)``.
  @_disfavoredOverload
  @inlinable
  public consuming func join<each C, each J: Table, each C2, F: Table>(
    _ other: Select<(repeat each C2), F, ()>,
    on constraint: ((From.TableColumns, repeat (each J).TableColumns, F.TableColumns)) -> some QueryExpression<Bool>
  ) -> Select<(repeat each C, repeat each C2), From, (repeat each J, F)>
  where Columns == (repeat each C), Joins == (repeat each J) {
    joining(other, "JOIN ", constraint((From.columns, repeat (each J).columns, F.columns)).queryFragment)
  }

  /// `LEFT JOIN other ON constraint`; see ``leftJoin(_:on:)``.
  @_disfavoredOverload
  @inlinable
  public consuming func leftJoin<each C, each J: Table, each C2: QueryRepresentable, F: Table>(
    _ other: Select<(repeat each C2), F, ()>,
    on constraint: ((From.TableColumns, repeat (each J).TableColumns, F.TableColumns)) -> some QueryExpression<Bool>
  ) -> Select<(repeat each C, repeat (each C2).Optionalized), From, (repeat each J, F.Nullable)>
  where Columns == (repeat each C), Joins == (repeat each J) {
    joining(other, "LEFT JOIN ", constraint((From.columns, repeat (each J).columns, F.columns)).queryFragment)
  }

  /// `RIGHT JOIN other ON constraint`; see ``rightJoin(_:on:)``.
  @_disfavoredOverload
  @inlinable
  public consuming func rightJoin<each C: QueryRepresentable, each J: Table, each C2, F: Table>(
    _ other: Select<(repeat each C2), F, ()>,
    on constraint: ((From.TableColumns, repeat (each J).TableColumns, F.TableColumns)) -> some QueryExpression<Bool>
  ) -> Select<(repeat (each C).Optionalized, repeat each C2), From.Nullable, (repeat (each J).Nullable, F)>
  where Columns == (repeat each C), Joins == (repeat each J) {
    joining(other, "RIGHT JOIN ", constraint((From.columns, repeat (each J).columns, F.columns)).queryFragment)
  }

  /// `FULL JOIN other ON constraint`; see ``fullJoin(_:on:)``.
  @_disfavoredOverload
  @inlinable
  public consuming func fullJoin<each C: QueryRepresentable, each J: Table, each C2: QueryRepresentable, F: Table>(
    _ other: Select<(repeat each C2), F, ()>,
    on constraint: ((From.TableColumns, repeat (each J).TableColumns, F.TableColumns)) -> some QueryExpression<Bool>
  ) -> Select<
    (repeat (each C).Optionalized, repeat (each C2).Optionalized), From.Nullable,
    (repeat (each J).Nullable, F.Nullable)
  >
  where Columns == (repeat each C), Joins == (repeat each J) {
    joining(other, "FULL JOIN ", constraint((From.columns, repeat (each J).columns, F.columns)).queryFragment)
  }

  /// `kind` is written with its space (`"LEFT JOIN "`), so that nothing is concatenated to make it.
  @inlinable
  consuming func joining<NewColumns, NewFrom: Table, NewJoins, C2, F: Table, J2>(
    _ other: Select<C2, F, J2>, _ kind: String, _ condition: QueryFragment
  ) -> Select<NewColumns, NewFrom, NewJoins> {
    let joined = other.resolved
    let table = joined.from ?? F.tableFragment
    let join = QueryFragment(joining: table, " ON ", condition, after: kind)
    return retyped { $0.join(joined, clause: join, tableColumns: F.allColumnsFragment) }
  }
}

extension SelectClauses {
  /// Takes in a joined statement's clauses: `clause` (`JOIN … ON …`) after this statement's
  /// joins, then the joined statement's own; its conditions, grouping and ordering after these;
  /// its limit, if any, in place of this one's. `tableColumns`, the joined table's columns as its
  /// one rendered list, is shared with every statement on it: most joins go on to `select`,
  /// which drops them.
  @usableFromInline
  mutating func join(_ joined: SelectClauses, clause: QueryFragment, tableColumns: QueryFragment) {
    isEmpty = isEmpty || joined.isEmpty
    isDistinct = isDistinct || joined.isDistinct
    columns.appendTakingStorage(joined.columns)
    joinedColumns.append(ResultColumn(tableColumns))
    joinedColumns += joined.joinedColumns
    joins.append(clause)
    joins += joined.joins
    wheres.append(contentsOf: joined.wheres)
    groups.appendTakingStorage(joined.groups)
    havings.appendTakingStorage(joined.havings)
    windows.appendTakingStorage(joined.windows)
    orders.appendTakingStorage(joined.orders)
    if let limit = joined.limit { self.limit = limit }
    if let offset = joined.offset { self.offset = offset }
  }
}

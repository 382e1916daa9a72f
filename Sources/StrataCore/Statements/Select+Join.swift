// Joins append another table to a select. The joined statement's conditions go into the `ON`
// clause (so filtering the optional side of an outer join does not drop rows of the other side),
// and its grouping, `HAVING` and ordering are appended to this statement's. A joined statement
// that is limited or distinct is joined as a subquery, which keeps its meaning.
//
// Result types follow SQL: after `a.leftJoin(b)` the columns of `b` are optional; after
// `a.rightJoin(b)` those of `a` are; after `a.fullJoin(b)` both are.

extension Select {
  /// `JOIN other ON constraint`: rows that have a match on both sides.
  public func join<each C, each J: Table, Other: Table>(
    _ other: Where<Other>,
    on constraint: ((From.TableColumns, repeat (each J).TableColumns, Other.TableColumns)) ->
      some QueryExpression<Bool>
  ) -> Select<(repeat each C, Other), From, (repeat each J, Other)>
  where Columns == (repeat each C), Joins == (repeat each J) {
    let condition = constraint((From.columns, repeat (each J).columns, Other.columns))
    return joining(other, "JOIN", condition.queryFragment, isEmpty: isEmpty || other.isEmpty)
  }

  /// `LEFT JOIN other ON constraint`: every row of this statement, with `other`'s columns NULL
  /// where nothing matches.
  public func leftJoin<each C, each J: Table, Other: Table>(
    _ other: Where<Other>,
    on constraint: ((From.TableColumns, repeat (each J).TableColumns, Other.TableColumns)) ->
      some QueryExpression<Bool>
  ) -> Select<(repeat each C, Other.Nullable), From, (repeat each J, Other.Nullable)>
  where Columns == (repeat each C), Joins == (repeat each J) {
    let condition = constraint((From.columns, repeat (each J).columns, Other.columns))
    return joining(other, "LEFT JOIN", condition.queryFragment, isEmpty: isEmpty)
  }

  /// `RIGHT JOIN other ON constraint`: every row of `other`, with this statement's columns NULL
  /// where nothing matches.
  public func rightJoin<each C: Table, each J: Table, Other: Table>(
    _ other: Where<Other>,
    on constraint: ((From.TableColumns, repeat (each J).TableColumns, Other.TableColumns)) ->
      some QueryExpression<Bool>
  ) -> Select<(repeat (each C).Nullable, Other), From.Nullable, (repeat (each J).Nullable, Other)>
  where Columns == (repeat each C), Joins == (repeat each J) {
    let condition = constraint((From.columns, repeat (each J).columns, Other.columns))
    return joining(other, "RIGHT JOIN", condition.queryFragment, isEmpty: other.isEmpty)
  }

  /// `FULL JOIN other ON constraint`: every row of both sides, matched where possible.
  public func fullJoin<each C: Table, each J: Table, Other: Table>(
    _ other: Where<Other>,
    on constraint: ((From.TableColumns, repeat (each J).TableColumns, Other.TableColumns)) ->
      some QueryExpression<Bool>
  ) -> Select<
    (repeat (each C).Nullable, Other.Nullable), From.Nullable,
    (repeat (each J).Nullable, Other.Nullable)
  >
  where Columns == (repeat each C), Joins == (repeat each J) {
    let condition = constraint((From.columns, repeat (each J).columns, Other.columns))
    return joining(other, "FULL JOIN", condition.queryFragment, isEmpty: isEmpty && other.isEmpty)
  }

  private func joining<NewColumns, NewFrom: Table, NewJoins, Other: Table>(
    _ other: Where<Other>, _ kind: String, _ condition: QueryFragment, isEmpty: Bool
  ) -> Select<NewColumns, NewFrom, NewJoins> {
    let joined = other.clauses
    var join = QueryFragment(raw: kind + " ")
    var onConditions = [condition]
    if joined.isDistinct || joined.limit != nil || joined.offset != nil {
      join.append(joined.queryFragment.parenthesized())
      join.append(raw: " AS ")
      join.append(quoting: Other.tableName)
    } else {
      join.append(joined.from)
      onConditions += joined.wheres
    }
    join.append(raw: " ON ")
    join.append(SelectClauses.conjunction(onConditions))
    let subquery = joined.isDistinct || joined.limit != nil || joined.offset != nil
    return retyped {
      $0.isEmpty = isEmpty
      $0.columns += Other.columns.resultColumns
      $0.joins.append(join)
      if !subquery {
        $0.groups += joined.groups
        $0.havings += joined.havings
        $0.orders += joined.orders
      }
    }
  }
}

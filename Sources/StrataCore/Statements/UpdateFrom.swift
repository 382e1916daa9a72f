// `UPDATE … FROM`: an update whose values come from the rows of another table, matched in the
// `WHERE` clause (SQLite 3.33 and PostgreSQL alike).
//
//   Item.update(from: Category.self) { item, category in item.notes = category.name }
//     .where { item, category in item.categoryID.eq(category.id) }
//   // UPDATE "items" SET "notes" = "categories"."name" FROM "categories"
//   //   WHERE "items"."categoryID" = "categories"."id"
//
// A row of the updated table that matches several rows of the other one is updated with one of
// them, which neither database specifies: match on a key.

/// An `UPDATE` of table `Target` with values from the rows of `Source`.
public struct UpdateFrom<Target: Table, Source: Table>: QueryStatement, Hashable, Sendable {
  public typealias QueryValue = ()

  var assignments: [Assignment]
  var wheres: [QueryFragment] = []

  public var isEmpty: Bool { assignments.isEmpty }

  public func forEachWrittenValue(_ body: (_ table: String, _ column: String, _ value: QueryBinding) throws -> Void) rethrows {
    for assignment in assignments {
      if let value = assignment.value.singleBinding { try body(Target._tableSQL.name, assignment.column, value) }
    }
  }

  public var queryFragment: QueryFragment {
    guard !assignments.isEmpty else { return QueryFragment() }
    let tableSQL = Target._tableSQL
    var fragment = QueryFragment(raw: tableSQL.updateSet)
    for (index, assignment) in assignments.enumerated() {
      if index > 0 { fragment.append(raw: ", ") }
      fragment.append(raw: tableSQL.columnAssignments[TableSQL.ColumnKey(assignment.column)] ?? Assignment.target(assignment.column))
      fragment.append(assignment.value)
    }
    fragment.append(raw: " FROM ")
    fragment.append(Source.tableFragment)
    // The updated table's default scope narrows the rows, as for any update.
    var clauses = SelectClauses().scoped(by: Target.all.clauses)
    clauses.wheres.append(contentsOf: wheres)
    clauses.appendWhereClause(to: &fragment)
    return fragment
  }

  /// Adds conditions on the updated row and the other table's: the match, and any other
  /// narrowing; they combine with `AND`.
  public func `where`(
    @PredicateBuilder _ predicate: (Target.TableColumns, Source.TableColumns) -> [QueryFragment]
  ) -> Self {
    var statement = self
    statement.wheres += predicate(Target.columns, Source.columns)
    return statement
  }
}

extension Table {
  /// `UPDATE "table" SET … FROM "source"`: the closure assigns the updated row's columns from
  /// `source`'s (`item.notes = category.name`); ``UpdateFrom/where(_:)`` matches the rows.
  public static func update<Source: Table>(
    from source: Source.Type, set updates: (inout Updates<Self>, Source.TableColumns) -> Void
  ) -> UpdateFrom<Self, Source> {
    var assignments = Updates<Self>()
    updates(&assignments, Source.columns)
    return UpdateFrom(assignments: assignments.assignments)
  }
}

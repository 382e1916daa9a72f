/// Rows of any tables to insert in order, as built by `Database.seed { … }`.
///
/// Consecutive rows of the same table go into one multi-row `INSERT`, so
/// `{ Game.Draft(…); Game.Draft(…); Player.Draft(…) }` runs two statements.
public struct Seeds: QueryStatement, Hashable, Sendable {
  public typealias QueryValue = ()

  var inserts: [InsertClause]

  init(_ inserts: [InsertClause]) {
    self.inserts = inserts
  }

  public var isEmpty: Bool { inserts.isEmpty }

  /// Every insert, separated by `; `.
  public var queryFragment: QueryFragment {
    inserts.map(\.queryFragment).joined(separator: "; ")
  }

  public var singleBatch: QueryFragment? { nil }

  /// Seeds run once, mostly as many-row inserts: PostgreSQL does not keep them prepared.
  public var isPreparedForReuse: Bool { false }

  public func executionBatches(maxBindings: Int) -> [QueryBatch] {
    inserts.flatMap { $0.batches(maxBindings: maxBindings) }
  }

  public func dialectFragments(maxBindings: Int) -> [QueryFragment] {
    inserts.flatMap { $0.fragments(maxBindings: maxBindings) }
  }
}

/// Builds ``Seeds`` from table values and drafts of any tables, arrays of them, `for` loops and
/// `if`/`else`.
@resultBuilder
public enum SeedsBuilder {
  public static func buildExpression<Row: TableRow>(_ row: Row) -> Seeds {
    Seeds([InsertClause(Row.Base.self, InsertValues(CollectionOfOne(row)))])
  }

  public static func buildExpression<Rows: Sequence>(_ rows: Rows) -> Seeds
  where Rows.Element: TableRow {
    let values = InsertValues<Rows.Element.Base>(rows)
    return Seeds(values.rowCount == 0 ? [] : [InsertClause(Rows.Element.Base.self, values)])
  }

  public static func buildBlock(_ components: Seeds...) -> Seeds {
    combine(components)
  }

  public static func buildArray(_ components: [Seeds]) -> Seeds {
    combine(components)
  }

  public static func buildEither(first component: Seeds) -> Seeds { component }

  public static func buildEither(second component: Seeds) -> Seeds { component }

  public static func buildOptional(_ component: Seeds?) -> Seeds { component ?? Seeds([]) }

  private static func combine(_ components: [Seeds]) -> Seeds {
    var inserts: [InsertClause] = []
    for insert in components.lazy.flatMap(\.inserts) {
      if let last = inserts.last, last.table == insert.table,
        last.columnNames == insert.columnNames
      {
        inserts[inserts.count - 1].rowCount += insert.rowCount
        inserts[inserts.count - 1].rowBindings += insert.rowBindings
      } else {
        inserts.append(insert)
      }
    }
    return Seeds(inserts)
  }
}

/// The rows of an `INSERT`, encoded as bindings in column order.
public struct InsertValues<Base: Table>: Hashable, Sendable {
  /// The number of rows.
  public private(set) var rowCount = 0
  /// Every row's values, row after row.
  public private(set) var bindings: [QueryBinding] = []

  init() {}

  init<Rows: Sequence>(_ rows: Rows) where Rows.Element: TableRow, Rows.Element.Base == Base {
    bindings.reserveCapacity(rows.underestimatedCount * Base.TableColumns.writableColumnNames.count)
    for row in rows {
      row.encode(into: &bindings)
      rowCount += 1
    }
  }

  mutating func append(_ other: InsertValues) {
    rowCount += other.rowCount
    bindings += other.bindings
  }
}

/// Builds the rows of an insert: table values and drafts, arrays of them, `for` loops and
/// `if`/`else`.
///
/// ```swift
/// Player.insert {
///   Player.Draft(gameID: id, name: "Blob")
///   Player.Draft(gameID: id, name: "Blob Jr")
///   for name in names { Player.Draft(gameID: id, name: name) }
/// }
/// ```
@resultBuilder
public enum InsertValuesBuilder<Base: Table> {
  public static func buildExpression(_ row: some TableRow<Base>) -> InsertValues<Base> {
    InsertValues(CollectionOfOne(row))
  }

  public static func buildExpression<Rows: Sequence>(_ rows: Rows) -> InsertValues<Base>
  where Rows.Element: TableRow, Rows.Element.Base == Base {
    InsertValues(rows)
  }

  public static func buildBlock(_ components: InsertValues<Base>...) -> InsertValues<Base> {
    combine(components)
  }

  public static func buildArray(_ components: [InsertValues<Base>]) -> InsertValues<Base> {
    combine(components)
  }

  public static func buildEither(first component: InsertValues<Base>) -> InsertValues<Base> {
    component
  }

  public static func buildEither(second component: InsertValues<Base>) -> InsertValues<Base> {
    component
  }

  public static func buildOptional(_ component: InsertValues<Base>?) -> InsertValues<Base> {
    component ?? InsertValues()
  }

  private static func combine(_ components: [InsertValues<Base>]) -> InsertValues<Base> {
    if components.count == 1 { return components[0] }
    var values = InsertValues<Base>()
    for component in components { values.append(component) }
    return values
  }
}

/// The rows of an `INSERT`, encoded as bindings in column order.
public struct InsertValues<Base: Table>: Hashable, Sendable {
  /// The number of rows.
  public private(set) var rowCount = 0
  /// Every row's values, row after row.
  public private(set) var bindings: [QueryBinding] = []

  init() {}

  /// One row, the common insert: inlinable so that the row's encoding is specialized in the
  /// app rather than reached through a generic sequence of one.
  @inlinable
  init(row: some TableRow<Base>) {
    var bindings: [QueryBinding] = []
    bindings.reserveCapacity(Base.TableColumns.writableColumnNames.count)
    row.encode(into: &bindings)
    self.init(rowCount: 1, bindings: bindings)
  }

  @usableFromInline
  init(rowCount: Int, bindings: [QueryBinding]) {
    self.rowCount = rowCount
    self.bindings = bindings
  }

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
  @inlinable
  public static func buildExpression(_ row: some TableRow<Base>) -> InsertValues<Base> {
    InsertValues(row: row)
  }

  public static func buildExpression<Rows: Sequence>(_ rows: Rows) -> InsertValues<Base>
  where Rows.Element: TableRow, Rows.Element.Base == Base {
    InsertValues(rows)
  }

  // A block is built a statement at a time, so that the common block of one row builds no
  // array of blocks (a variadic `buildBlock` allocates one per insert).
  @inlinable
  public static func buildPartialBlock(first: InsertValues<Base>) -> InsertValues<Base> {
    first
  }

  public static func buildPartialBlock(
    accumulated: consuming InsertValues<Base>, next: InsertValues<Base>
  ) -> InsertValues<Base> {
    accumulated.append(next)
    return accumulated
  }

  public static func buildBlock() -> InsertValues<Base> {
    InsertValues()
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

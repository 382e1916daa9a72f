/// A table with a primary key, which enables `find`, `update(_:)`, `delete(_:)` and `upsert`.
///
/// The generator adopts this protocol for tables with an `id` property or a property annotated
/// `// @Column(primaryKey: true)`.
public protocol PrimaryKeyedTable: Table
where TableColumns: PrimaryKeyedColumnSet, TableColumns.PrimaryKey == PrimaryKey {
  /// The Swift type of the primary key.
  associatedtype PrimaryKey: QueryBindable

  /// The row's primary key value.
  var primaryKey: PrimaryKey { get }
}

/// The insertable form of a row of `Base` whose primary key may be left to the database.
///
/// A generated `Draft` has the table's properties with the primary key optional: inserting a
/// draft with a `nil` key lets SQLite assign one (a fresh UUID through the column's
/// `DEFAULT (uuid())`, or the next integer).
public protocol TableDraft: TableRow, QueryRepresentable where QueryOutput == Self {}

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
/// A generated `Draft` has the table's properties, with the primary key optional when the
/// database can fill it in: inserting a draft with a `nil` key lets SQLite assign one (a fresh
/// UUID through the column's `DEFAULT (uuid())`, or the next integer). A key the database cannot
/// fill in (a `String` name, a foreign key) stays required, and a table without a primary key
/// gets a `Draft` of all its columns, so every table inserts the same way.
public protocol TableDraft: TableRow, QueryRepresentable where QueryOutput == Self {}

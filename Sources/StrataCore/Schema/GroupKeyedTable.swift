/// A table whose primary key is a column group, as StructuredQueries writes one: `let id:
/// MetadataID`, where `MetadataID` is a `Selection` of the key's columns.
///
/// ```swift
/// struct MetadataID: Selection, Hashable { let recordID: UUID; let recordType: String }
/// struct Metadata: Table, Identifiable {
///   let id: MetadataID                 // PRIMARY KEY ("recordID", "recordType")
///   var userModificationDate: Date
/// }
/// Metadata.find(MetadataID(recordID: id, recordType: "reminders"))
/// // … WHERE ("metadata"."recordID", "metadata"."recordType") = (?, ?)
/// ```
///
/// The key is the group's columns together; `find`, `update(_:)`, `delete(_:)` and `upsert`
/// take it as one value and compare it as a row value. Such a key is never the database's to
/// fill in, so the `Draft` has it, and no other table can reference it (a foreign key names one
/// column).
public protocol GroupKeyedTable: Table
where TableColumns: GroupKeyedColumnSet, TableColumns.PrimaryKey == PrimaryKey {
  /// The group that is the key.
  associatedtype PrimaryKey: GroupSelection

  /// The row's key.
  var primaryKey: PrimaryKey { get }
}

/// The columns of a ``GroupKeyedTable``: its key as a group of them.
public protocol GroupKeyedColumnSet: TableColumnSet {
  associatedtype PrimaryKey: GroupSelection

  /// The key's columns, as the group.
  var primaryKey: ColumnGroup<QueryValue, PrimaryKey> { get }
}

extension GroupKeyedColumnSet {
  /// A key column is never NULL in a row, so one is NULL exactly when an outer join found none.
  public var identityColumnName: String { PrimaryKey.TableColumns.columnNames[0] }
}

extension GroupKeyedTable {
  /// The row whose key is `key`.
  public static func find(_ key: PrimaryKey) -> Where<Self> {
    scoped.find(key)
  }

  /// The rows whose keys are in `keys`.
  public static func find(_ keys: some Sequence<PrimaryKey>) -> Where<Self> {
    scoped.find(keys)
  }

  /// Writes every column of `row` but its key's (and generated ones) to the row with its key.
  public static func update(_ row: Self) -> Update<Self, ()> {
    Update(assignments: assignments(of: row, except: PrimaryKey.TableColumns.columnNames), rows: unscoped.find(row.primaryKey))
  }

  /// Deletes the row with `row`'s key.
  public static func delete(_ row: Self) -> Delete<Self, ()> {
    unscoped.find(row.primaryKey).delete()
  }

  /// Inserts the rows, updating every other column of rows whose key already exists:
  /// `ON CONFLICT ("a", "b") DO UPDATE SET "column" = "excluded"."column", …`.
  public static func upsert(
    @InsertValuesBuilder<Self> _ rows: () -> InsertValues<Self>
  ) -> Insert<Self, ()> {
    upserting(rows(), on: PrimaryKey.TableColumns.columnNames)
  }
}

extension Select where From: GroupKeyedTable, Joins == () {
  /// Narrows the statement to the row whose key is `key`, whatever it selects.
  public func find(_ key: From.PrimaryKey) -> Self {
    self.where { _ in From.columns.primaryKey.eq(key) }
  }

  /// Narrows the statement to the rows whose keys are in `keys`.
  public func find(_ keys: some Sequence<From.PrimaryKey>) -> Self {
    self.where { _ in From.columns.primaryKey.in(keys) }
  }
}

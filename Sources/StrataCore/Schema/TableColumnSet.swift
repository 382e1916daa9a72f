/// The typed description of a table's columns.
///
/// A generated `TableColumns` struct has one ``TableColumn`` property per column; query closures
/// receive it as `$0` so that `$0.score` is a typed column reference. Selected as a whole
/// (`select { $0 }`) it stands for every column of the table, and decodes as the table's type.
public protocol TableColumnSet: QueryExpression, Sendable where QueryValue: Table {
  /// The table's column names, in declaration order: the order of decoding.
  static var columnNames: [String] { get }

  /// The columns an insert or a whole-row update writes, in the order a row encodes them:
  /// every column but generated ones, which the database computes.
  static var writableColumnNames: [String] { get }

  /// The column that is NULL exactly when a row is missing, on the optional side of an outer
  /// join: the primary key, or `rowid` for a table without one.
  var identityColumnName: String { get }
}

extension TableColumnSet {
  public static var writableColumnNames: [String] { columnNames }

  public var queryFragment: QueryFragment {
    QueryValue.allColumnsFragment
  }

  /// The table's `rowid`: the integer key of every ordinary SQLite table, NULL on the missing
  /// side of an outer join.
  public var rowid: AnyQueryExpression<Int?> {
    AnyQueryExpression(QueryFragment(table: QueryValue.tableQualifier, column: "rowid").sqliteOnly("rowid"))
  }

  /// The column that tells the table's rows apart in a subquery that picks some: SQLite's
  /// `rowid`, which PostgreSQL does not have and for which it uses the primary key.
  var rowIdentity: QueryFragment {
    let sqlite = QueryFragment.quote(QueryValue.tableQualifier) + "." + QueryFragment.quote("rowid")
    guard identityColumnName != "rowid" else { return QueryFragment(raw: sqlite).sqliteOnly("rowid") }
    return QueryFragment(piece: .respelled(sqlite: sqlite, postgreSQL: QueryValue._tableSQL.column(identityColumnName)))
  }

  public var identityColumnName: String { "rowid" }

  /// The identity column, qualified: NULL exactly when the row is missing.
  var identity: AnyQueryExpression<Int?> {
    let column = QueryFragment(raw: QueryValue._tableSQL.column(identityColumnName))
    return AnyQueryExpression(identityColumnName == "rowid" ? column.sqliteOnly("rowid") : column)
  }

  public var resultColumns: [ResultColumn] {
    let sql = QueryValue._tableSQL
    return Self.columnNames.map { name in
      ResultColumn(QueryFragment(raw: sql.column(name)), columnName: name)
    }
  }
}

/// The columns of a table that has a primary key.
public protocol PrimaryKeyedColumnSet: TableColumnSet {
  /// The Swift type of the primary key.
  associatedtype PrimaryKey: QueryBindable

  /// The primary key column.
  var primaryKey: TableColumn<QueryValue, PrimaryKey> { get }
}

extension PrimaryKeyedColumnSet {
  public var identityColumnName: String { primaryKey.name }
}

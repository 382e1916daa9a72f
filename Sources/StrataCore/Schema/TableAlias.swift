// Table aliases let a statement use one table twice, as in a self-join:
//
//   enum Manager: AliasName {}
//   Employee
//     .leftJoin(Employee.as(Manager.self).all) { $0.managerID.eq($1.id) }
//     .select { ($0.name, $1.name) }
//   // SELECT "employees"."name", "Manager"."name"
//   // FROM "employees" LEFT JOIN "employees" AS "Manager" ON "employees"."managerID" = "Manager"."id"
//
// Rows of an aliased table decode as the table's own type.

/// A type that names a table alias: `enum Manager: AliasName {}`.
public protocol AliasName {
  /// The name after `AS`; the type's name unless it says otherwise.
  static var aliasName: String { get }
}

extension AliasName {
  public static var aliasName: String { String(describing: Self.self) }
}

extension Table {
  /// This table under the alias `Name`: `Employee.as(Manager.self).all`.
  public static func `as`<Name: AliasName>(_ name: Name.Type) -> TableAlias<Self, Name>.Type {
    TableAlias<Self, Name>.self
  }
}

/// Table `Base` under the alias `Name`. Its columns are qualified with the alias, and its rows
/// decode as `Base`.
///
/// An alias has no default scope of its own: `Base.all`'s conditions name the table, not the
/// alias. Likewise, helpers defined on `Base.TableColumns` render with the table's name, so use
/// the alias's columns directly.
public struct TableAlias<Base: Table, Name: AliasName>: Table {
  public typealias QueryOutput = Base.QueryOutput
  public typealias TableColumns = AliasedColumns<Base, Name>

  public var queryOutput: Base.QueryOutput

  public init(queryOutput: Base.QueryOutput) {
    self.queryOutput = queryOutput
  }

  public init(decoder: inout some QueryDecoder) throws {
    queryOutput = try Base(decoder: &decoder).queryOutput
  }

  public func encode(into bindings: inout [QueryBinding]) {
    Base(queryOutput: queryOutput).encode(into: &bindings)
  }

  public static var tableName: String { Base.tableName }
  public static var tableAlias: String? { Name.aliasName }
  public static var schemaName: String? { Base.schemaName }
  public static var columns: TableColumns { AliasedColumns() }
}

extension TableAlias: PrimaryKeyedTable where Base: PrimaryKeyedTable {
  public typealias PrimaryKey = Base.PrimaryKey

  public var primaryKey: Base.PrimaryKey { Base(queryOutput: queryOutput).primaryKey }
}

/// The columns of a table under an alias: each of `Base`'s columns, qualified with the alias.
@dynamicMemberLookup
public struct AliasedColumns<Base: Table, Name: AliasName>: TableColumnSet {
  public typealias QueryValue = TableAlias<Base, Name>

  public static var columnNames: [String] { Base.TableColumns.columnNames }

  public static var writableColumnNames: [String] { Base.TableColumns.writableColumnNames }

  public var identityColumnName: String { Base.columns.identityColumnName }

  /// A column of the table, qualified with the alias.
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
  ) -> TableColumn<TableAlias<Base, Name>, Value> {
    TableColumn(Base.columns[keyPath: keyPath].name)
  }
}

extension AliasedColumns: PrimaryKeyedColumnSet where Base.TableColumns: PrimaryKeyedColumnSet {
  public typealias PrimaryKey = Base.TableColumns.PrimaryKey

  public var primaryKey: TableColumn<TableAlias<Base, Name>, PrimaryKey> {
    TableColumn(Base.columns.primaryKey.name)
  }
}

/// The columns of a column group: a `Selection` of columns used as a property of table `Root`
/// (`let timestamps: Timestamps`), stored as the selection's columns, under their own names.
///
/// `$0.timestamps.createdAt` is the table's column; `$0.timestamps` alone is every column of the
/// group, which selects and decodes as a `Timestamps` and compares as a row value.
@dynamicMemberLookup
public struct ColumnGroup<Root: Table, Group: Table>: DatabaseExpression, Hashable, Sendable {
  public typealias QueryValue = Group

  public init() {}

  /// A column of the group, as a column of the table.
  public subscript<Value>(dynamicMember keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>) -> TableColumn<Root, Value> {
    TableColumn(Group.columns[keyPath: keyPath].name)
  }

  public var queryFragment: QueryFragment {
    QueryFragment(raw: columns.joined(separator: ", "))
  }

  public var resultColumns: [ResultColumn] {
    zip(Group.TableColumns.columnNames, columns).map { name, column in ResultColumn(QueryFragment(raw: column), columnName: name) }
  }

  /// `("a", "b") = (?, ?)`: whether the group's columns hold `value`'s values.
  public func eq(_ value: Group) -> AnyQueryExpression<Bool> {
    var bindings: [QueryBinding] = []
    value.encode(into: &bindings)
    let values = bindings.map { QueryFragment(binding: $0) }.joined(separator: ", ")
    return AnyQueryExpression(("(" + queryFragment + ") = (" + values + ")").compound())
  }

  private var columns: [String] {
    let sql = TableSQL.of(Root.self)
    return Group.TableColumns.columnNames.map { sql.column($0) }
  }
}

/// The columns of an optional column group (`let archive: Archive?`): each column is optional.
@dynamicMemberLookup
public struct OptionalColumnGroup<Root: Table, Group: Table>: DatabaseExpression, Hashable, Sendable {
  public typealias QueryValue = Group?

  public init() {}

  /// A column of the group, optional.
  public subscript<Value: QueryRepresentable>(
    dynamicMember keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>
  ) -> TableColumn<Root, Value.Optionalized> {
    TableColumn(Group.columns[keyPath: keyPath].name)
  }

  public var queryFragment: QueryFragment { ColumnGroup<Root, Group>().queryFragment }

  public var resultColumns: [ResultColumn] { ColumnGroup<Root, Group>().resultColumns }
}

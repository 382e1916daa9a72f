/// A generated column of table `Root` (`// @Generated(raw:)`): the database computes its values.
///
/// It reads like a ``TableColumn`` (filters, ordering, selections, functions), but it is a type
/// of its own so that an update cannot assign it: `update { $0.total = 0 }` does not compile.
public struct GeneratedColumn<Root: Table, Value: QueryRepresentable>: DatabaseExpression, Hashable, Sendable {
  public typealias QueryValue = Value

  /// The column's name in the database.
  public let name: String

  /// A generated column named `name`.
  public init(_ name: String) {
    self.name = name
  }

  public var queryFragment: QueryFragment {
    QueryFragment(raw: Root._tableSQL.column(name))
  }
}

extension GeneratedColumn: NamedColumn {}

extension AliasedColumns {
  /// A generated column of the table, qualified with the alias.
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<Base.TableColumns, GeneratedColumn<Base, Value>>
  ) -> GeneratedColumn<TableAlias<Base, Name>, Value> {
    GeneratedColumn(Base.columns[keyPath: keyPath].name)
  }
}

extension ColumnGroup {
  /// A generated column of the group, as a generated column of the table.
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<Group.TableColumns, GeneratedColumn<Group, Value>>
  ) -> GeneratedColumn<Root, Value> {
    GeneratedColumn(Group.columns[keyPath: keyPath].name)
  }
}

extension OptionalColumnGroup {
  /// A generated column of an optional group, optional.
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<Group.TableColumns, GeneratedColumn<Group, Value>>
  ) -> GeneratedColumn<Root, Value.Optionalized> {
    GeneratedColumn(Group.columns[keyPath: keyPath].name)
  }
}

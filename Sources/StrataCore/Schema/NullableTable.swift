// The optional side of an outer join. After `Game.leftJoin(Player.all) { … }`, query closures
// receive the players' columns as `NullableColumns<Player.TableColumns>`: every column's type
// becomes optional (`$1.score` is an `Int?` expression), and the table as a whole decodes as
// `Player?`, nil when the join found no row.

/// The columns of a table on the optional side of an outer join.
@dynamicMemberLookup
public struct NullableColumns<Base: TableColumnSet>: TableColumnSet {
  public typealias QueryValue = Base.QueryValue?

  let base: Base

  init(_ base: Base) {
    self.base = base
  }

  public static var columnNames: [String] { Base.columnNames }

  public var identityColumnName: String { base.identityColumnName }

  /// A column of the joined table, with its type made optional.
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<Base, TableColumn<Base.QueryValue, Value>>
  ) -> TableColumn<Base.QueryValue, Value?> {
    TableColumn(base[keyPath: keyPath].name)
  }

  /// A column of the joined table whose type is already optional.
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<Base, TableColumn<Base.QueryValue, Value?>>
  ) -> TableColumn<Base.QueryValue, Value?> {
    TableColumn(base[keyPath: keyPath].name)
  }

  /// A column group of the joined table (a struct, or an enum stored in a table), with every
  /// column optional: `$1.timestamps.createdAt`, `$1.kind.note`, `$1.kind.is(\.note)`, and the
  /// whole group as an optional value.
  public subscript<Group>(
    dynamicMember keyPath: KeyPath<Base, ColumnGroup<Base.QueryValue, Group>>
  ) -> OptionalColumnGroup<Base.QueryValue, Group> {
    OptionalColumnGroup()
  }

  /// An optional column group of the joined table.
  public subscript<Group>(
    dynamicMember keyPath: KeyPath<Base, OptionalColumnGroup<Base.QueryValue, Group>>
  ) -> OptionalColumnGroup<Base.QueryValue, Group> {
    OptionalColumnGroup()
  }

  /// An expression defined on the joined table's columns (a computed property of an extension
  /// of its `TableColumns`), with its type made optional.
  @_disfavoredOverload
  public subscript<Member: QueryExpression>(
    dynamicMember keyPath: KeyPath<Base, Member>
  ) -> AnyQueryExpression<Member.QueryValue.Optionalized> where Member.QueryValue: QueryRepresentable {
    AnyQueryExpression(base[keyPath: keyPath].queryFragment)
  }
}

extension NullableColumns: PrimaryKeyedColumnSet where Base: PrimaryKeyedColumnSet {
  public typealias PrimaryKey = Base.PrimaryKey?

  public var primaryKey: TableColumn<Base.QueryValue?, Base.PrimaryKey?> {
    TableColumn(base.primaryKey.name)
  }
}

extension Optional: TableRow where Wrapped: Table {
  public typealias Base = Self

  /// The wrapped row's values, or a NULL per column.
  public func encode(into bindings: inout [QueryBinding]) {
    if let self {
      self.encode(into: &bindings)
    } else {
      bindings.append(contentsOf: repeatElement(.null, count: Wrapped.queryColumnCount))
    }
  }
}

extension Optional: Table where Wrapped: Table {
  public typealias TableColumns = NullableColumns<Wrapped.TableColumns>
  public typealias Nullable = Self

  public static var tableName: String { Wrapped.tableName }
  public static var tableAlias: String? { Wrapped.tableAlias }
  public static var schemaName: String? { Wrapped.schemaName }
  public static var columns: TableColumns { NullableColumns(Wrapped.columns) }
}

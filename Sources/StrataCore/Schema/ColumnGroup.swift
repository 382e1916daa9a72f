/// The columns of a column group: a `Selection` of columns used as a property of table `Root`
/// (`let timestamps: Timestamps`), stored as the selection's columns, under their own names.
///
/// `$0.timestamps.createdAt` is the table's column; `$0.timestamps` alone is every column of the
/// group, which selects and decodes as a `Timestamps` and compares as a row value. A group's
/// field may be a group itself (`$0.period.start.day`), and an ``EnumSelection`` is a group whose
/// members are its cases (`$0.kind.note`, `$0.kind.image.caption`).
@dynamicMemberLookup
public struct ColumnGroup<Root: Table, Group: Table>: GroupColumns, Hashable, Sendable {
  public typealias QueryValue = Group

  public init() {}

  /// A column of the group, as a column of the table.
  public subscript<Value>(dynamicMember keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>) -> TableColumn<Root, Value> {
    TableColumn(Group.columns[keyPath: keyPath].name)
  }

  /// A group inside the group, as the table's columns.
  public subscript<Inner>(dynamicMember keyPath: KeyPath<Group.TableColumns, ColumnGroup<Group, Inner>>) -> ColumnGroup<Root, Inner> {
    ColumnGroup<Root, Inner>()
  }

  /// An optional group inside the group (or an enum's case that holds a group), as the table's
  /// columns.
  public subscript<Inner>(
    dynamicMember keyPath: KeyPath<Group.TableColumns, OptionalColumnGroup<Group, Inner>>
  ) -> OptionalColumnGroup<Root, Inner> {
    OptionalColumnGroup<Root, Inner>()
  }

  /// `("a", "b") = (?, ?)`: whether the group's columns hold `value`'s values.
  public func eq(_ value: Group) -> AnyQueryExpression<Bool> {
    rowComparison(" = ", value)
  }

  /// `("a", "b") IN (VALUES (?, ?), …)`: whether the group's columns hold one of `values`;
  /// false for none.
  public func `in`(_ values: some Sequence<Group>) -> AnyQueryExpression<Bool> {
    let rows = values.map { Self.row(of: $0) }
    guard !rows.isEmpty else { return AnyQueryExpression(QueryFragment(piece: .boolean(false))) }
    return AnyQueryExpression((queryFragment.parenthesized() + " IN (VALUES " + rows.joined(separator: ", ") + ")").compound())
  }

  /// `("a", "b") IS (?, ?)`: like ``eq(_:)``, but a NULL column matches a nil field.
  public func `is`(_ value: Group) -> AnyQueryExpression<Bool> {
    rowComparison(SQLOperator.nullSafeEquality(negated: false), value)
  }
}

/// The columns of an optional column group (`let archive: Archive?`): each column is optional.
@dynamicMemberLookup
public struct OptionalColumnGroup<Root: Table, Group: Table>: GroupColumns, Hashable, Sendable {
  public typealias QueryValue = Group?

  public init() {}

  /// A column of the group, optional.
  public subscript<Value: QueryRepresentable>(
    dynamicMember keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>
  ) -> TableColumn<Root, Value.Optionalized> {
    TableColumn(Group.columns[keyPath: keyPath].name)
  }

  /// A group inside the group, optional.
  public subscript<Inner>(dynamicMember keyPath: KeyPath<Group.TableColumns, ColumnGroup<Group, Inner>>) -> OptionalColumnGroup<Root, Inner> {
    OptionalColumnGroup<Root, Inner>()
  }

  /// An optional group inside the group.
  public subscript<Inner>(
    dynamicMember keyPath: KeyPath<Group.TableColumns, OptionalColumnGroup<Group, Inner>>
  ) -> OptionalColumnGroup<Root, Inner> {
    OptionalColumnGroup<Root, Inner>()
  }

  /// `("a", "b") IS (?, ?)`, or `IS (NULL, NULL)` for nil: whether the group holds `value`, or
  /// is missing (every column NULL).
  public func `is`(_ value: Group?) -> AnyQueryExpression<Bool> {
    rowComparison(SQLOperator.nullSafeEquality(negated: false), value)
  }

  /// `("a", "b") IS NOT (?, ?)`, or `IS NOT (NULL, NULL)` for nil: whether the group is present.
  public func isNot(_ value: Group?) -> AnyQueryExpression<Bool> {
    rowComparison(SQLOperator.nullSafeEquality(negated: true), value)
  }
}

/// What ``ColumnGroup`` and ``OptionalColumnGroup`` share: the columns of group `Group` in table
/// `Root`.
public protocol GroupColumns<Root, Group>: DatabaseExpression {
  associatedtype Root: Table
  associatedtype Group: Table
}

extension GroupColumns {
  public var queryFragment: QueryFragment {
    QueryFragment(raw: columns.joined(separator: ", "))
  }

  public var resultColumns: [ResultColumn] {
    zip(Group.TableColumns.columnNames, columns).map { name, column in ResultColumn(QueryFragment(raw: column), columnName: name) }
  }

  /// `(columns) op (values)`: the group compared as a row value; NULLs for a nil value.
  func rowComparison(_ operator: QueryFragment, _ value: Group?) -> AnyQueryExpression<Bool> {
    AnyQueryExpression((queryFragment.parenthesized() + `operator` + Self.row(of: value)).compound())
  }

  /// `(?, ?)`: a value of the group as a row of bound values, NULLs for nil.
  static func row(of value: Group?) -> QueryFragment {
    var bindings: [QueryBinding] = []
    if let value {
      value.encode(into: &bindings)
    } else {
      bindings = Array(repeating: .null, count: Group.TableColumns.columnNames.count)
    }
    return bindings.map { QueryFragment(binding: $0) }.joined(separator: ", ").parenthesized()
  }

  private var columns: [String] {
    let sql = Root._tableSQL
    return Group.TableColumns.columnNames.map { sql.column($0) }
  }
}

extension GroupColumns where Group: EnumSelection {
  /// Whether the row holds this case, one stored in a column: `$0.kind.is(\.note)`.
  public func `is`<Value>(_ casePath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>) -> AnyQueryExpression<Bool> {
    let name = Group.columns[keyPath: casePath].name
    return holds(caseColumns: [name], QueryFragment(raw: Root._tableSQL.column(name) + " IS NOT NULL"))
  }

  /// Whether the row holds this case, one stored as a group: `$0.kind.is(\.image)`.
  public func `is`<Inner>(_ casePath: KeyPath<Group.TableColumns, OptionalColumnGroup<Group, Inner>>) -> AnyQueryExpression<Bool> {
    holds(caseColumns: Inner.TableColumns.columnNames, OptionalColumnGroup<Root, Inner>().isNot(nil).queryFragment)
  }

  /// `present`, and the columns of every case declared before this one NULL: the rule decoding
  /// follows (a row reads as the first case with a value), so that a filter and a decoded row
  /// agree even on a row the table's CHECK would refuse today.
  private func holds(caseColumns: [String], _ present: QueryFragment) -> AnyQueryExpression<Bool> {
    let sql = Root._tableSQL
    let earlier = Group.TableColumns.columnNames.prefix { !caseColumns.contains($0) }
    let conditions = earlier.map { QueryFragment(raw: sql.column($0) + " IS NULL") } + [present]
    return AnyQueryExpression(conditions.joined(separator: " AND ").compound())
  }
}

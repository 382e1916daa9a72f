/// One `"column" = value` of a `SET` clause.
@usableFromInline
struct Assignment: Hashable, Sendable {
  @usableFromInline var column: String
  @usableFromInline var value: QueryFragment

  @usableFromInline
  init(column: String, value: QueryFragment) {
    self.column = column
    self.value = value
  }

  var queryFragment: QueryFragment {
    var fragment = QueryFragment(raw: Self.target(column))
    fragment.append(value)
    return fragment
  }

  /// `UPDATE <table> SET <assignments> WHERE <key> = ?`, the most common update, its text
  /// written once at its length (``SQLText``); nil when an assigned value has text another
  /// dialect spells differently, which the general path places.
  @usableFromInline
  static func updateByKey(
    _ assignments: [Assignment], of tableSQL: TableSQL, whereKey: String, keyBindings: [QueryBinding]
  ) -> QueryFragment? {
    withUnsafeTemporaryAllocation(of: String.self, capacity: assignments.count) { targets in
      var length = tableSQL.updateSet.utf8.count + whereKey.utf8.count + 2 * (assignments.count - 1)
      var bindingCount = keyBindings.count
      var hasPieces = false
      for (index, assignment) in assignments.enumerated() {
        let target = tableSQL.columnAssignments[TableSQL.ColumnKey(assignment.column)] ?? target(assignment.column)
        targets.initializeElement(at: index, to: target)
        length += target.utf8.count + assignment.value.sql.utf8.count
        bindingCount += assignment.value.bindings.count
        hasPieces = hasPieces || assignment.value.hasPieces
      }
      defer { _ = targets.deinitialize() }
      if hasPieces { return nil }
      let sql = SQLText.build(length: length) { text in
        text.write(tableSQL.updateSet)
        for (index, assignment) in assignments.enumerated() {
          if index > 0 { text.write(", ") }
          text.write(targets[index])
          text.write(assignment.value.sql)
        }
        text.write(whereKey)
      }
      var bindings: [QueryBinding] = []
      bindings.reserveCapacity(bindingCount)
      for assignment in assignments { bindings.append(contentsOf: assignment.value.bindings) }
      bindings.append(contentsOf: keyBindings)
      return QueryFragment(sql: sql, bindings: bindings)
    }
  }

  /// `"column" = `: what an assignment to `column` starts with.
  @usableFromInline
  static func target(_ column: String) -> String {
    QueryFragment.quote(column) + " = "
  }
}

/// The column assignments of an `UPDATE`, written as Swift mutations of `$0`.
///
/// ```swift
/// Player.find(id).update { $0.score += 1 }           // "score" = "players"."score" + ?
/// Player.update { $0.name = "Blob" }                 // "name" = ?
/// Reminder.update { $0.isDone.toggle() }             // "isDone" = NOT "reminders"."isDone"
/// Reminder.update { $0.dueDate = nil }               // "dueDate" = NULL
/// Player.update { $0.name = $0.name.upper() }        // "name" = upper("players"."name")
/// ```
///
/// Reading a column after assigning it reads the assigned expression, so successive mutations
/// compose the way they would on a Swift value.
@dynamicMemberLookup
public struct Updates<Base: Table> {
  @usableFromInline private(set) var assignments: [Assignment] = []

  @inlinable
  init() {}

  /// Assigns an expression or a value of the column's type: `$0.score = $1.score`.
  @_disfavoredOverload
  @inlinable
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
  ) -> any QueryExpression<Value> {
    get { AnyQueryExpression<Value>(expression(for: keyPath)) }
    set { assign(newValue.queryFragment, to: keyPath) }
  }

  /// A column's current expression: the column itself, or what was assigned to it. It supports
  /// `+=`, `-=`, `*=`, `/=`, `toggle()`, and the expression operators and functions.
  @inlinable
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
  ) -> AnyQueryExpression<Value> {
    get { AnyQueryExpression(expression(for: keyPath)) }
    // `$0.score += 1` reads and writes the column in one access: the key path is applied once.
    _modify {
      let name = Base.columns[keyPath: keyPath].name
      var expression = AnyQueryExpression<Value>(expression(forColumn: name))
      yield &expression
      assign(expression.queryFragment, toColumn: name)
    }
  }

  /// Assigns a Swift value, including `nil` to an optional column.
  @_disfavoredOverload
  public subscript<Value: QueryBindable>(
    dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
  ) -> Value.QueryOutput {
    @available(*, unavailable, message: "Read the column through its expression instead")
    get { fatalError("unavailable") }
    set { assign(Value(queryOutput: newValue).queryFragment, to: keyPath) }
  }

  /// Assigns a non-optional expression to an optional column: `$0.notes = $0.title`.
  @_disfavoredOverload
  public subscript<Wrapped>(
    dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Wrapped?>>
  ) -> any QueryExpression<Wrapped> {
    @available(*, unavailable, message: "Read the column through its expression instead")
    get { fatalError("unavailable") }
    set { assign(newValue.queryFragment, to: keyPath) }
  }

  @inlinable
  func expression<Value>(
    for keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
  ) -> QueryFragment {
    expression(forColumn: Base.columns[keyPath: keyPath].name)
  }

  /// A column's current expression: what was assigned to it, or the column.
  @usableFromInline
  func expression(forColumn name: String) -> QueryFragment {
    assignments.last { $0.column == name }?.value ?? QueryFragment(raw: Base._tableSQL.column(name))
  }

  @inlinable
  mutating func assign<Value>(
    _ value: QueryFragment, to keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
  ) {
    assign(value, toColumn: Base.columns[keyPath: keyPath].name)
  }

  @usableFromInline
  mutating func assign(_ value: QueryFragment, toColumn name: String) {
    // A select assigned to a column is a scalar subquery, which SQL writes in parentheses.
    let value = value.argument
    if let index = assignments.firstIndex(where: { $0.column == name }) {
      assignments[index].value = value
    } else {
      assignments.append(Assignment(column: name, value: value))
    }
  }
}

extension AnyQueryExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped: Numeric {
  /// Adds to the value: `lhs + rhs`.
  public static func += <Other: QueryExpression>(lhs: inout Self, rhs: Other)
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    lhs = lhs + rhs
  }

  /// Subtracts from the value: `lhs - rhs`.
  public static func -= <Other: QueryExpression>(lhs: inout Self, rhs: Other)
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    lhs = lhs - rhs
  }

  /// Multiplies the value: `lhs * rhs`.
  public static func *= <Other: QueryExpression>(lhs: inout Self, rhs: Other)
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    lhs = lhs * rhs
  }

  /// Divides the value: `lhs / rhs`.
  public static func /= <Other: QueryExpression>(lhs: inout Self, rhs: Other)
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == QueryValue.Unwrapped {
    lhs = lhs / rhs
  }
}

extension AnyQueryExpression where QueryValue: QueryBindable, QueryValue.Unwrapped: Numeric {
  /// Adds a value of the column's type: `$0.size += 1` on an `Int64` column.
  public static func += (lhs: inout Self, rhs: QueryValue) { lhs = lhs + rhs }

  /// Subtracts a value of the column's type.
  public static func -= (lhs: inout Self, rhs: QueryValue) { lhs = lhs - rhs }

  /// Multiplies by a value of the column's type.
  public static func *= (lhs: inout Self, rhs: QueryValue) { lhs = lhs * rhs }

  /// Divides by a value of the column's type.
  public static func /= (lhs: inout Self, rhs: QueryValue) { lhs = lhs / rhs }
}

extension AnyQueryExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped == String {
  /// Appends text: `lhs || rhs`.
  public static func += <Other: QueryExpression>(lhs: inout Self, rhs: Other)
  where Other.QueryValue: QueryRepresentable, Other.QueryValue.Unwrapped == String {
    lhs = lhs + rhs
  }
}

extension AnyQueryExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped == Bool {
  /// Negates the value: `NOT expression`.
  public mutating func toggle() {
    self = AnyQueryExpression(SQLOperator.prefix("NOT ", self))
  }
}

extension Updates {
  /// A column group's columns, to assign: `$0.timestamps.updatedAt = date`.
  public subscript<Group: GroupSelection>(dynamicMember keyPath: KeyPath<Base.TableColumns, ColumnGroup<Base, Group>>) -> GroupUpdates<Base, Group> {
    get { GroupUpdates(updates: self) }
    set { self = newValue.updates }
  }

  /// An optional column group's columns, to assign: `$0.archive.reason = "moved"`.
  public subscript<Group: GroupSelection>(
    dynamicMember keyPath: KeyPath<Base.TableColumns, OptionalColumnGroup<Base, Group>>
  ) -> GroupUpdates<Base, Group> {
    get { GroupUpdates(updates: self) }
    set { self = newValue.updates }
  }

  /// An enum stored as a group, to assign one of its cases: `$0.kind.note = "Hi"`.
  public subscript<Group: EnumSelection>(dynamicMember keyPath: KeyPath<Base.TableColumns, ColumnGroup<Base, Group>>) -> CaseUpdates<Base, Group> {
    get { CaseUpdates(updates: self) }
    set { self = newValue.updates }
  }

  /// An optional enum stored as a group, to assign one of its cases: `$0.delivery.lost = "…"`.
  public subscript<Group: EnumSelection>(
    dynamicMember keyPath: KeyPath<Base.TableColumns, OptionalColumnGroup<Base, Group>>
  ) -> CaseUpdates<Base, Group> {
    get { CaseUpdates(updates: self) }
    set { self = newValue.updates }
  }

  /// Assigns an enum stored as a group: `$0.kind = .note("Hi")` writes the case's columns and
  /// NULLs the other cases'.
  @_disfavoredOverload
  public subscript<Group: EnumSelection>(dynamicMember keyPath: KeyPath<Base.TableColumns, ColumnGroup<Base, Group>>) -> Group {
    @available(*, unavailable, message: "Read the group's columns through their expressions instead")
    get { fatalError("unavailable") }
    set { assign(newValue) }
  }

  /// Assigns a whole group: `$0.timestamps = Timestamps(…)` writes each of its columns.
  ///
  /// The value is taken as an optional only so that Swift cannot read `$0.timestamps.createdAt
  /// = …` as a write through it (the column's own assignment is meant). A `nil` literal does not
  /// compile; an optional that holds nil writes NULL to each column, which the table refuses for
  /// a column that cannot be NULL.
  @_disfavoredOverload
  public subscript<Group: GroupSelection>(dynamicMember keyPath: KeyPath<Base.TableColumns, ColumnGroup<Base, Group>>) -> Group? {
    @available(*, unavailable, message: "Read the group's columns through their expressions instead")
    get { fatalError("unavailable") }
    set { assign(newValue) }
  }

  /// `$0.timestamps = nil` for a group that is not optional: a compile-time error.
  public subscript<Group: GroupSelection>(dynamicMember keyPath: KeyPath<Base.TableColumns, ColumnGroup<Base, Group>>) -> Never? {
    @available(*, unavailable, message: "Read the group's columns through their expressions instead")
    get { fatalError("unavailable") }
    @available(*, unavailable, message: "The group is not optional: assign a value of it, or its columns one by one")
    set {}
  }

  /// Assigns a whole optional group: `$0.archive = Archive(…)`; `nil` NULLs every column of it.
  @_disfavoredOverload
  public subscript<Group: Table>(
    dynamicMember keyPath: KeyPath<Base.TableColumns, OptionalColumnGroup<Base, Group>>
  ) -> Group? {
    @available(*, unavailable, message: "Read the group's columns through their expressions instead")
    get { fatalError("unavailable") }
    set { assign(newValue) }
  }

  /// Assigns each column of a group its value, NULL for a nil group.
  mutating func assign<Group: Table>(_ group: Group?) {
    var bindings: [QueryBinding] = []
    if let group {
      group.encode(into: &bindings)
    } else {
      bindings = Array(repeating: .null, count: Group.TableColumns.writableColumnNames.count)
    }
    for (name, binding) in zip(Group.TableColumns.writableColumnNames, bindings) {
      assign(QueryFragment(binding: binding), toColumn: name)
    }
  }
}

/// The columns of a column group in an update's assignments: `$0.timestamps.updatedAt = date`.
@dynamicMemberLookup
public struct GroupUpdates<Base: Table, Group: GroupSelection> {
  var updates: Updates<Base>

  /// One of the group's columns: its current expression, to read or assign (`+=`,
  /// `toggle()`, and the expression operators and functions).
  public subscript<Value>(dynamicMember keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>) -> AnyQueryExpression<Value> {
    get { AnyQueryExpression(updates.expression(forColumn: Group.columns[keyPath: keyPath].name)) }
    set { assign(newValue.queryFragment, to: keyPath) }
  }

  /// Assigns an expression to one of the group's columns: `$0.archive.reason = $0.body`.
  @_disfavoredOverload
  public subscript<Value>(dynamicMember keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>) -> any QueryExpression<Value> {
    @available(*, unavailable, message: "Read the column through its expression instead")
    get { fatalError("unavailable") }
    set { assign(newValue.queryFragment, to: keyPath) }
  }

  /// Assigns a non-optional expression to an optional column of the group.
  @_disfavoredOverload
  public subscript<Wrapped>(dynamicMember keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Wrapped?>>) -> any QueryExpression<Wrapped> {
    @available(*, unavailable, message: "Read the column through its expression instead")
    get { fatalError("unavailable") }
    set { assign(newValue.queryFragment, to: keyPath) }
  }

  /// Assigns a Swift value to one of the group's columns; `nil` for an optional column or group.
  @_disfavoredOverload
  public subscript<Value: QueryBindable>(dynamicMember keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>) -> Value.QueryOutput? {
    @available(*, unavailable, message: "Read the column through its expression instead")
    get { fatalError("unavailable") }
    set { assign(newValue.map { Value(queryOutput: $0).queryFragment } ?? QueryFragment(raw: "NULL"), to: keyPath) }
  }

  /// A group inside the group, to assign its columns.
  public subscript<Inner: GroupSelection>(dynamicMember keyPath: KeyPath<Group.TableColumns, ColumnGroup<Group, Inner>>) -> GroupUpdates<Base, Inner> {
    get { GroupUpdates<Base, Inner>(updates: updates) }
    set { updates = newValue.updates }
  }

  /// An optional group inside the group, to assign its columns.
  public subscript<Inner: GroupSelection>(
    dynamicMember keyPath: KeyPath<Group.TableColumns, OptionalColumnGroup<Group, Inner>>
  ) -> GroupUpdates<Base, Inner> {
    get { GroupUpdates<Base, Inner>(updates: updates) }
    set { updates = newValue.updates }
  }

  /// An enum stored as a group inside the group, to assign one of its cases.
  public subscript<Inner: EnumSelection>(dynamicMember keyPath: KeyPath<Group.TableColumns, ColumnGroup<Group, Inner>>) -> CaseUpdates<Base, Inner> {
    get { CaseUpdates<Base, Inner>(updates: updates) }
    set { updates = newValue.updates }
  }

  /// An optional enum stored as a group inside the group, to assign one of its cases.
  public subscript<Inner: EnumSelection>(
    dynamicMember keyPath: KeyPath<Group.TableColumns, OptionalColumnGroup<Group, Inner>>
  ) -> CaseUpdates<Base, Inner> {
    get { CaseUpdates<Base, Inner>(updates: updates) }
    set { updates = newValue.updates }
  }

  /// Assigns an enum stored as a group inside the group.
  @_disfavoredOverload
  public subscript<Inner: EnumSelection>(dynamicMember keyPath: KeyPath<Group.TableColumns, ColumnGroup<Group, Inner>>) -> Inner {
    @available(*, unavailable, message: "Read the group's columns through their expressions instead")
    get { fatalError("unavailable") }
    set { updates.assign(newValue) }
  }

  /// Assigns a whole group inside the group: `$0.route.bounds = Bounds(…)` (taken as an
  /// optional for the reason ``Updates`` gives; a `nil` literal does not compile).
  @_disfavoredOverload
  public subscript<Inner: GroupSelection>(dynamicMember keyPath: KeyPath<Group.TableColumns, ColumnGroup<Group, Inner>>) -> Inner? {
    @available(*, unavailable, message: "Read the group's columns through their expressions instead")
    get { fatalError("unavailable") }
    set { updates.assign(newValue) }
  }

  /// `$0.route.bounds = nil` for a group that is not optional: a compile-time error.
  public subscript<Inner: GroupSelection>(dynamicMember keyPath: KeyPath<Group.TableColumns, ColumnGroup<Group, Inner>>) -> Never? {
    @available(*, unavailable, message: "Read the group's columns through their expressions instead")
    get { fatalError("unavailable") }
    @available(*, unavailable, message: "The group is not optional: assign a value of it, or its columns one by one")
    set {}
  }

  /// Assigns a whole optional group inside the group: `$0.route.detour = Detour(…)`.
  @_disfavoredOverload
  public subscript<Inner: Table>(
    dynamicMember keyPath: KeyPath<Group.TableColumns, OptionalColumnGroup<Group, Inner>>
  ) -> Inner? {
    @available(*, unavailable, message: "Read the group's columns through their expressions instead")
    get { fatalError("unavailable") }
    set { updates.assign(newValue) }
  }

  private mutating func assign<Value>(_ value: QueryFragment, to keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>) {
    updates.assign(value, toColumn: Group.columns[keyPath: keyPath].name)
  }
}

/// The cases of an ``EnumSelection`` in an update's assignments: each is assigned whole, and
/// NULLs the columns of every other case, so that the row holds exactly that case.
///
/// ```swift
/// Attachment.find(id).update { $0.kind.note = "Hello" }      // "note" = ?, the others NULL
/// Attachment.find(id).update { $0.kind.note = $0.title }     // an expression of the case's type
/// Attachment.find(id).update { $0.kind.image = Image(caption: "Cat", url: "cat.png") }
/// ```
///
/// What would leave a row with no case does not compile: `nil` (assign another case, or `nil`
/// to the whole optional enum), an optional expression, and one column of a case that holds a
/// group (`$0.kind.image.caption = …`, which would leave the group's other columns NULL).
@dynamicMemberLookup
public struct CaseUpdates<Base: Table, Enum: EnumSelection> {
  var updates: Updates<Base>

  /// Assigns a Swift value to a case stored in a column: `$0.kind.note = "Hi"`.
  public subscript<Value: QueryBindable>(dynamicMember keyPath: KeyPath<Enum.TableColumns, TableColumn<Enum, Value?>>) -> Value.QueryOutput {
    @available(*, unavailable, message: "A case is assigned, not read: read its column through the table's columns")
    get { fatalError("unavailable") }
    set { assign(Value(queryOutput: newValue).queryFragment, toCase: [Enum.columns[keyPath: keyPath].name]) }
  }

  /// Assigns another column's current expression to a case stored in a column:
  /// `$0.kind.note = $0.title`.
  public subscript<Value>(dynamicMember keyPath: KeyPath<Enum.TableColumns, TableColumn<Enum, Value?>>) -> AnyQueryExpression<Value> {
    @available(*, unavailable, message: "A case is assigned, not read: read its column through the table's columns")
    get { fatalError("unavailable") }
    set { assign(newValue.queryFragment, toCase: [Enum.columns[keyPath: keyPath].name]) }
  }

  /// Assigns an expression of the case's type to a case stored in a column:
  /// `$0.kind.note = $0.title.upper()`.
  @_disfavoredOverload
  public subscript<Value>(dynamicMember keyPath: KeyPath<Enum.TableColumns, TableColumn<Enum, Value?>>) -> any QueryExpression<Value> {
    @available(*, unavailable, message: "A case is assigned, not read: read its column through the table's columns")
    get { fatalError("unavailable") }
    set { assign(newValue.queryFragment, toCase: [Enum.columns[keyPath: keyPath].name]) }
  }

  /// Assigns a case that holds a group, whole: `$0.kind.image = Image(…)`.
  public subscript<Inner: Table>(dynamicMember keyPath: KeyPath<Enum.TableColumns, OptionalColumnGroup<Enum, Inner>>) -> Inner {
    @available(*, unavailable, message: "A case is assigned, not read: read its columns through the table's columns")
    get { fatalError("unavailable") }
    set {
      updates.assign(newValue)
      clear(keeping: Inner.TableColumns.columnNames)
    }
  }

  /// Assigns a case that holds a group from expressions, one per field:
  /// `$0.kind.image = Image.Columns(caption: $0.kind.image.caption.upper(), url: "cat.png")`.
  public subscript<Inner: Table & Selection>(
    dynamicMember keyPath: KeyPath<Enum.TableColumns, OptionalColumnGroup<Enum, Inner>>
  ) -> Inner.Columns {
    @available(*, unavailable, message: "A case is assigned, not read: read its columns through the table's columns")
    get { fatalError("unavailable") }
    set {
      let names = Inner.TableColumns.columnNames
      for (name, column) in zip(names, newValue.resultColumns) {
        updates.assign(column.expression, toColumn: name)
      }
      clear(keeping: names)
    }
  }

  private mutating func assign(_ value: QueryFragment, toCase columns: [String]) {
    for column in columns { updates.assign(value, toColumn: column) }
    clear(keeping: columns)
  }

  /// NULLs the columns of the other cases.
  private mutating func clear(keeping kept: [String]) {
    for name in Enum.TableColumns.columnNames where !kept.contains(name) {
      updates.assign(QueryFragment(raw: "NULL"), toColumn: name)
    }
  }
}

/// Not API: a compound assignment whose left side is not `inout`, for Swift's type checker.
///
/// When every `+=` (`-=`, `*=`, `/=`) in scope takes its left side `inout`, the type checker
/// settles `$0.score += 1` in an `update` closure on the first solution it finds: the standard
/// library's `Int += Int` through the write-only subscript that assigns Swift values, whose
/// getter is unavailable, instead of the column's expression. One overload whose left side is
/// not `inout` keeps it weighing both; GRDB declares such an operator, which is why only a
/// target that imports StrataPostgreSQL without GRDB met this. The server on PostgreSQL that
/// `ServerOnPostgreSQLTests` compiles has `update { $0.amount += 1 }`, to keep it needed and
/// sufficient.
public enum _CompoundAssignmentHint {
  public static func += (lhs: Self, rhs: Self) -> Self {}
  public static func -= (lhs: Self, rhs: Self) -> Self {}
  public static func *= (lhs: Self, rhs: Self) -> Self {}
  public static func /= (lhs: Self, rhs: Self) -> Self {}
}

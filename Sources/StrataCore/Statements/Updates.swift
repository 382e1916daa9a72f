/// One `"column" = value` of a `SET` clause.
struct Assignment: Hashable, Sendable {
  var column: String
  var value: QueryFragment

  var queryFragment: QueryFragment {
    var fragment = QueryFragment(raw: Self.target(column))
    fragment.append(value)
    return fragment
  }

  /// `"column" = `: what an assignment to `column` starts with.
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
  private(set) var assignments: [Assignment] = []

  init() {}

  /// Assigns an expression or a value of the column's type: `$0.score = $1.score`.
  @_disfavoredOverload
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
  ) -> any QueryExpression<Value> {
    get { AnyQueryExpression<Value>(expression(for: keyPath)) }
    set { assign(newValue.queryFragment, to: keyPath) }
  }

  /// A column's current expression: the column itself, or what was assigned to it. It supports
  /// `+=`, `-=`, `*=`, `/=`, `toggle()`, and the expression operators and functions.
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
  ) -> AnyQueryExpression<Value> {
    get { AnyQueryExpression(expression(for: keyPath)) }
    set { assign(newValue.queryFragment, to: keyPath) }
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

  private func expression<Value>(
    for keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
  ) -> QueryFragment {
    expression(forColumn: Base.columns[keyPath: keyPath].name)
  }

  /// A column's current expression: what was assigned to it, or the column.
  func expression(forColumn name: String) -> QueryFragment {
    assignments.last { $0.column == name }?.value ?? QueryFragment(raw: TableSQL.of(Base.self).column(name))
  }

  private mutating func assign<Value>(
    _ value: QueryFragment, to keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
  ) {
    assign(value, toColumn: Base.columns[keyPath: keyPath].name)
  }

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
  public subscript<Group: Table>(dynamicMember keyPath: KeyPath<Base.TableColumns, ColumnGroup<Base, Group>>) -> GroupUpdates<Base, Group> {
    get { GroupUpdates(updates: self) }
    set { self = newValue.updates }
  }

  /// An optional column group's columns, to assign: `$0.archive.reason = "moved"`.
  public subscript<Group: Table>(
    dynamicMember keyPath: KeyPath<Base.TableColumns, OptionalColumnGroup<Base, Group>>
  ) -> GroupUpdates<Base, Group> {
    get { GroupUpdates(updates: self) }
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
///
/// Assigning a case of an ``EnumSelection`` (`$0.kind.note = "Hi"`, `$0.kind.image = image`)
/// NULLs the columns of its other cases, so that the row holds that case.
@dynamicMemberLookup
public struct GroupUpdates<Base: Table, Group: Table> {
  var updates: Updates<Base>
  /// The columns any assignment through these NULLs: an enum's other cases, when the group is
  /// one case's.
  var otherCases: [String] = []

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

  /// Assigns a non-optional expression to an optional column of the group (an enum's case).
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
  public subscript<Inner: Table>(dynamicMember keyPath: KeyPath<Group.TableColumns, ColumnGroup<Group, Inner>>) -> GroupUpdates<Base, Inner> {
    get { GroupUpdates<Base, Inner>(updates: updates, otherCases: otherCases) }
    set { updates = newValue.updates }
  }

  /// An optional group inside the group, or an enum's case that holds a group, to assign its
  /// columns.
  public subscript<Inner: Table>(
    dynamicMember keyPath: KeyPath<Group.TableColumns, OptionalColumnGroup<Group, Inner>>
  ) -> GroupUpdates<Base, Inner> {
    get { GroupUpdates<Base, Inner>(updates: updates, otherCases: otherCases + otherColumns(than: Inner.self)) }
    set { updates = newValue.updates }
  }

  /// Assigns an enum stored as a group inside the group.
  @_disfavoredOverload
  public subscript<Inner: EnumSelection>(dynamicMember keyPath: KeyPath<Group.TableColumns, ColumnGroup<Group, Inner>>) -> Inner {
    @available(*, unavailable, message: "Read the group's columns through their expressions instead")
    get { fatalError("unavailable") }
    set {
      updates.assign(newValue)
      clearOtherCases(keeping: Inner.TableColumns.columnNames)
    }
  }

  /// Assigns a whole optional group inside the group, or an enum's case that holds a group:
  /// `$0.kind.image = Image(…)`.
  public subscript<Inner: Table>(
    dynamicMember keyPath: KeyPath<Group.TableColumns, OptionalColumnGroup<Group, Inner>>
  ) -> Inner? {
    @available(*, unavailable, message: "Read the group's columns through their expressions instead")
    get { fatalError("unavailable") }
    set {
      updates.assign(newValue)
      clearOtherCases(keeping: Inner.TableColumns.columnNames)
    }
  }

  private mutating func assign<Value>(_ value: QueryFragment, to keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>) {
    let name = Group.columns[keyPath: keyPath].name
    updates.assign(value, toColumn: name)
    clearOtherCases(keeping: [name])
  }

  /// The group's columns other than `Inner`'s, when the group is an enum and `Inner` one case's.
  private func otherColumns<Inner: Table>(than inner: Inner.Type) -> [String] {
    guard Group.self is any EnumSelection.Type else { return [] }
    let kept = Set(Inner.TableColumns.columnNames)
    return Group.TableColumns.columnNames.filter { !kept.contains($0) }
  }

  /// NULLs the enum's other cases: those of an enclosing enum, and this group's own when it is
  /// an enum and `kept` are one case's columns.
  private mutating func clearOtherCases(keeping kept: [String]) {
    var others = otherCases
    if Group.self is any EnumSelection.Type {
      others += Group.TableColumns.columnNames.filter { !kept.contains($0) }
    }
    for name in others {
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
/// target that imports StrataPostgreSQL without GRDB met this. The consumer package's
/// PostgreSQL target compiles `update { $0.score += 1 }` to keep it needed and sufficient.
public enum _CompoundAssignmentHint {
  public static func += (lhs: Self, rhs: Self) -> Self {}
  public static func -= (lhs: Self, rhs: Self) -> Self {}
  public static func *= (lhs: Self, rhs: Self) -> Self {}
  public static func /= (lhs: Self, rhs: Self) -> Self {}
}

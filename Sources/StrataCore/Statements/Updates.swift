/// One `"column" = value` of a `SET` clause.
struct Assignment: Hashable, Sendable {
  var column: String
  var value: QueryFragment

  var queryFragment: QueryFragment {
    QueryFragment(quoting: column) + " = " + value
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
    let name = Base.columns[keyPath: keyPath].name
    return assignments.last { $0.column == name }?.value
      ?? Base.columns[keyPath: keyPath].queryFragment
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
}

/// The columns of a column group in an update's assignments: `$0.timestamps.updatedAt = date`.
@dynamicMemberLookup
public struct GroupUpdates<Base: Table, Group: Table> {
  var updates: Updates<Base>

  /// Assigns a Swift value to one of the group's columns; `nil` for an optional column or group.
  public subscript<Value: QueryBindable>(dynamicMember keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>) -> Value.QueryOutput? {
    @available(*, unavailable, message: "Read the column through its expression instead")
    get { fatalError("unavailable") }
    set {
      updates.assign(newValue.map { Value(queryOutput: $0).queryFragment } ?? QueryFragment(raw: "NULL"), toColumn: Group.columns[keyPath: keyPath].name)
    }
  }
}

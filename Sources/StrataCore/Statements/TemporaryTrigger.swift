import Foundation

// Temporary triggers, in StructuredQueries' spelling:
//
//   Reminder.createTemporaryTrigger(after: .insert { new in
//     Reminder.find(new.id).update { $0.position = Reminder.select { ($0.position.max() ?? -1) + 1 } }
//   })
//   Reminder.createTemporaryTrigger(after: .update(touch: \.updatedAt))
//   ReminderWithList.createTemporaryTrigger(insteadOf: .insert { new in … })
//
// `old` and `new` are the table's columns under those names; the body is Strata statements.
// SQLite keeps a trigger as SQL text, which cannot have parameters, so the values in the body and
// the condition are written into it as literals, quoted like every string Strata writes.

extension Table {
  /// `CREATE TEMPORARY TRIGGER … AFTER <operation> ON "table"`, for the connection that runs it.
  ///
  /// - Parameters:
  ///   - name: The trigger's name; by default one made of the operation, the table and where in
  ///     the source the trigger is created, so that two triggers do not share one.
  ///   - ifNotExists: Adds `IF NOT EXISTS`.
  public static func createTemporaryTrigger(
    _ name: String? = nil, ifNotExists: Bool = false, after operation: TemporaryTrigger<Self>.Operation,
    fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
  ) -> TemporaryTrigger<Self> {
    TemporaryTrigger(
      name: name ?? TemporaryTrigger<Self>.defaultName("after", operation, fileID, line, column), ifNotExists: ifNotExists,
      timing: "AFTER", operation: operation)
  }

  /// `CREATE TEMPORARY TRIGGER … BEFORE <operation> ON "table"`.
  public static func createTemporaryTrigger(
    _ name: String? = nil, ifNotExists: Bool = false, before operation: TemporaryTrigger<Self>.Operation,
    fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
  ) -> TemporaryTrigger<Self> {
    TemporaryTrigger(
      name: name ?? TemporaryTrigger<Self>.defaultName("before", operation, fileID, line, column), ifNotExists: ifNotExists,
      timing: "BEFORE", operation: operation)
  }

  /// `CREATE TEMPORARY TRIGGER … INSTEAD OF <operation> ON "view"`: makes a view writable by
  /// doing `operation`'s statements instead.
  public static func createTemporaryTrigger(
    _ name: String? = nil, ifNotExists: Bool = false, insteadOf operation: TemporaryTrigger<Self>.Operation,
    fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
  ) -> TemporaryTrigger<Self> {
    TemporaryTrigger(
      name: name ?? TemporaryTrigger<Self>.defaultName("instead_of", operation, fileID, line, column),
      ifNotExists: ifNotExists, timing: "INSTEAD OF", operation: operation)
  }
}

/// A `CREATE TEMPORARY TRIGGER` statement: see ``Table/createTemporaryTrigger(_:ifNotExists:after:fileID:line:column:)``.
public struct TemporaryTrigger<On: Table>: QueryStatement, Hashable, Sendable {
  public typealias QueryValue = ()

  let name: String
  let ifNotExists: Bool
  let timing: String
  let operation: Operation

  /// The name `old` rows go by in a trigger.
  public enum OldRow: AliasName { public static var aliasName: String { "old" } }
  /// The name `new` rows go by in a trigger.
  public enum NewRow: AliasName { public static var aliasName: String { "new" } }

  /// The row before an update or delete: `old.score`.
  public typealias Old = AliasedColumns<On, OldRow>
  /// The row after an insert or update: `new.score`.
  public typealias New = AliasedColumns<On, NewRow>

  /// The write that fires a trigger, with the statements it runs for each row and its condition.
  public struct Operation: Hashable, Sendable {
    enum Event: Hashable, Sendable {
      case insert, update(columns: [String]), delete
    }

    let event: Event
    let statements: [QueryFragment]
    let condition: QueryFragment?

    /// After (or before, or instead of) each inserted row: `perform`'s statements, when
    /// `condition` holds for the row.
    public static func insert(
      @TriggerBodyBuilder forEachRow perform: (_ new: New) -> [QueryFragment],
      when condition: ((_ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
      Self(event: .insert, statements: perform(New()), condition: condition?(New()).queryFragment)
    }

    /// After each inserted row, `updates` applied to it (`WHERE rowid = new.rowid`).
    @_disfavoredOverload
    public static func insert(
      touch updates: (inout Updates<On>) -> Void, when condition: ((_ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
      Self(event: .insert, statements: [touching(updates)], condition: condition?(New()).queryFragment)
    }

    /// For each updated row: `perform`'s statements, when `condition` holds.
    public static func update(
      @TriggerBodyBuilder forEachRow perform: (_ old: Old, _ new: New) -> [QueryFragment],
      when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
      Self(event: .update(columns: []), statements: perform(Old(), New()), condition: condition?(Old(), New()).queryFragment)
    }

    /// For each row an update of one of `columns` changes (`UPDATE OF "a", "b"`).
    public static func update<each Value>(
      of columns: (On.TableColumns) -> (repeat TableColumn<On, each Value>),
      @TriggerBodyBuilder forEachRow perform: (_ old: Old, _ new: New) -> [QueryFragment],
      when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
      var names: [String] = []
      for column in repeat each columns(On.columns) { names.append(column.name) }
      return Self(event: .update(columns: names), statements: perform(Old(), New()), condition: condition?(Old(), New()).queryFragment)
    }

    /// After each updated row, `updates` applied to it (`WHERE rowid = new.rowid`).
    @_disfavoredOverload
    public static func update(
      touch updates: (inout Updates<On>) -> Void,
      when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
      Self(event: .update(columns: []), statements: [touching(updates)], condition: condition?(Old(), New()).queryFragment)
    }

    /// After each updated row, `dateColumn` set to the current time, as Strata stores dates
    /// (UTC, `yyyy-MM-dd HH:mm:ss.SSS`). The update it makes does not fire the trigger again:
    /// SQLite runs triggers recursively only with `PRAGMA recursive_triggers`.
    @_disfavoredOverload
    public static func update<D>(
      touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, D>>,
      when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self where D.Unwrapped == Date {
      update(touch: dateColumn, date: AnyQueryExpression<D>(now), when: condition)
    }

    /// After each updated row, `dateColumn` set to `date`: a function of your own that returns
    /// the current time, say (`sql("customDate()")`).
    @_disfavoredOverload
    public static func update<D>(
      touch dateColumn: KeyPath<On.TableColumns, TableColumn<On, D>>,
      date: some QueryExpression<D>,
      when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
    ) -> Self where D.Unwrapped == Date {
      update(touch: { $0[dynamicMember: dateColumn] = AnyQueryExpression<D>(date.queryFragment) }, when: condition)
    }

    /// After (or before) each deleted row: `perform`'s statements, when `condition` holds.
    public static func delete(
      @TriggerBodyBuilder forEachRow perform: (_ old: Old) -> [QueryFragment],
      when condition: ((_ old: Old) -> any QueryExpression<Bool>)? = nil
    ) -> Self {
      Self(event: .delete, statements: perform(Old()), condition: condition?(Old()).queryFragment)
    }

    private static func touching(_ updates: (inout Updates<On>) -> Void) -> QueryFragment {
      On.unscoped.where { $0.rowid.eq(New().rowid) }.update(set: updates).queryFragment
    }

    /// The current time in Strata's date format.
    private static var now: QueryFragment {
      QueryFragment(raw: "strftime('%Y-%m-%d %H:%M:%f', 'now')")
    }

    var name: String {
      switch event {
      case .insert: "insert"
      case .update: "update"
      case .delete: "delete"
      }
    }
  }

  static func defaultName(_ timing: String, _ operation: Operation, _ fileID: StaticString, _ line: UInt, _ column: UInt) -> String {
    "\(timing)_\(operation.name)_on_\(On.tableName)@\(fileID):\(line):\(column)"
  }

  /// A schema statement, which PostgreSQL runs unnamed (see ``QueryStatement/isPreparedForReuse``).
  public var isPreparedForReuse: Bool { false }

  public var queryFragment: QueryFragment {
    var fragment: QueryFragment = ifNotExists ? "CREATE TEMPORARY TRIGGER IF NOT EXISTS " : "CREATE TEMPORARY TRIGGER "
    fragment.append(quoting: name)
    fragment.append(raw: " \(timing) ")
    switch operation.event {
    case .insert: fragment.append(raw: "INSERT")
    case .update(let columns):
      fragment.append(raw: "UPDATE")
      if !columns.isEmpty { fragment.append(raw: " OF " + columns.map(QueryFragment.quote).joined(separator: ", ")) }
    case .delete: fragment.append(raw: "DELETE")
    }
    fragment.append(raw: " ON ")
    fragment.append(raw: On._tableSQL.name)
    fragment.append(raw: " FOR EACH ROW")
    if let condition = operation.condition {
      fragment.append(raw: " WHEN ")
      fragment.append(condition.inlined())
    }
    fragment.append(raw: " BEGIN")
    for statement in operation.statements {
      fragment.append(raw: " ")
      fragment.append(statement.inlined())
      fragment.append(raw: ";")
    }
    fragment.append(raw: " END")
    return fragment.sqliteOnly("a temporary trigger").marked(.statement)
  }

  /// `DROP TRIGGER "name"`, optionally `IF EXISTS`.
  public func drop(ifExists: Bool = false) -> SQLQuery<()> {
    SQLQuery(raw: (ifExists ? "DROP TRIGGER IF EXISTS " : "DROP TRIGGER ") + QueryFragment.quote(name))
  }
}

/// The statements of a trigger's body, one per line: any Strata statement (`update`, `insert`,
/// `delete`, a select), in order.
@resultBuilder
public enum TriggerBodyBuilder: QueryFragmentListBuilder {
  public static func buildExpression(_ statement: some QueryStatement) -> [QueryFragment] {
    [statement.queryFragment]
  }
}

extension Table {
  /// `CREATE TEMPORARY VIEW "name" ("a", "b") AS SELECT …`: a view of this type's columns, for
  /// the connection that runs it, whose rows are what `select` returns.
  ///
  /// ```swift
  /// try ReminderWithList.createTemporaryView(
  ///   as: Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }
  ///     .select { ReminderWithList.Columns(reminderTitle: $0.title, remindersListTitle: $1.title) }
  /// ).execute(db)
  /// try ReminderWithList.order(by: \.reminderTitle).fetchAll(db)
  /// ```
  ///
  /// SQLite keeps a view as SQL text, which cannot have parameters: the select's values are
  /// written into it as literals, quoted like every string Strata writes.
  public static func createTemporaryView<Selected: SelectStatement>(
    ifNotExists: Bool = false, as select: Selected
  ) -> TemporaryView<Self> where Selected.QueryValue == Self {
    TemporaryView(ifNotExists: ifNotExists, select: select.queryFragment)
  }
}

/// A `CREATE TEMPORARY VIEW` statement: see ``Table/createTemporaryView(ifNotExists:as:)``.
public struct TemporaryView<View: Table>: QueryStatement, Hashable, Sendable {
  public typealias QueryValue = ()

  let ifNotExists: Bool
  let select: QueryFragment

  /// A schema statement, which PostgreSQL runs unnamed (see ``QueryStatement/isPreparedForReuse``).
  public var isPreparedForReuse: Bool { false }

  public var queryFragment: QueryFragment {
    var fragment: QueryFragment = ifNotExists ? "CREATE TEMPORARY VIEW IF NOT EXISTS " : "CREATE TEMPORARY VIEW "
    fragment.append(quoting: View.tableName)
    fragment.append(raw: " (" + View.TableColumns.columnNames.map(QueryFragment.quote).joined(separator: ", ") + ") AS ")
    fragment.append(select.inlined())
    return fragment.sqliteOnly("a temporary view").marked(.statement)
  }

  /// `DROP VIEW "name"`, optionally `IF EXISTS`.
  public func drop(ifExists: Bool = false) -> SQLQuery<()> {
    SQLQuery(raw: (ifExists ? "DROP VIEW IF EXISTS " : "DROP VIEW ") + QueryFragment.quote(View.tableName))
  }
}

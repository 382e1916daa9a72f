/// The renames the models ask for with `@Renamed(from:)`: the first step of a migration, run
/// with `ALTER TABLE … RENAME`, which also updates the foreign keys, indexes, triggers and views
/// that mention the old names.
///
/// An annotation whose rename is done asks for nothing, so it can stay in the model. The schema
/// tells when the old name is gone; when both names exist (a swap, or a rename onto a column the
/// model drops), the migrations' history does (``RenameHistory``). Renames that exchange names
/// go through a temporary name. A rename onto a column that exists and that the model no longer
/// has replaces that column's values, so it drops the column first, which needs consent like any
/// drop. A name whose case alone changes is renamed too: SQLite compares names ignoring case, so
/// queries worked either way, but the schema then says what the model says.
struct RenamePlan {
  struct TableRename: Equatable {
    var from: String
    var to: String
  }

  struct ColumnRename: Equatable {
    /// The table's name once the table renames are done.
    var table: String
    var from: String
    var to: String
  }

  /// The tables renamed, each from its old name to its new one.
  var tables: [TableRename] = []
  /// The columns renamed, each from its old name to its new one.
  var columns: [ColumnRename] = []
  /// Columns dropped to make room for a rename onto their name: their values are deleted.
  var droppedColumns: [(table: String, column: String)] = []
  var problems: [SchemaChanges.Problem] = []
  /// What the migration does, in an order the database accepts: drops first, then each rename
  /// once its new name is free, through a temporary name where names are exchanged.
  private(set) var operations: [Operation] = []

  /// One statement's worth of a rename plan.
  enum Operation: Equatable {
    case renameTable(from: String, to: String)
    case renameColumn(table: String, from: String, to: String)
    /// A column dropped to make room for a rename onto its name.
    case dropColumn(table: String, column: String)
  }

  var isEmpty: Bool { tables.isEmpty && columns.isEmpty && droppedColumns.isEmpty }

  init(current: Schema, desired: Schema, models: [String: TableModel], history: RenameHistory) {
    // `@Renamed(from:)` on a type names the old table; the old type's name is taken for the
    // table the naming convention gives it, when no table has the name itself.
    let currentNames = Set(current.tables.map { SQLName.folded($0.name) })
    let previousTables = Dictionary(
      desired.tables.compactMap { table in
        models[table.name]?.previousTableName.map { previous in
          let conventional = Naming.tableName(forType: previous)
          return (table.name, !currentNames.contains(SQLName.folded(previous)) && currentNames.contains(SQLName.folded(conventional)) ? conventional : previous)
        }
      },
      uniquingKeysWith: { first, _ in first })
    let tableNames = Resolution(
      desired: desired.tables.map(\.name), current: current.tables.map(\.name), previous: previousTables,
      isDone: { history.renamedTable($0, to: $1) })
    for (name, previous) in tableNames.conflicts {
      problems.append(
        .init(
          table: name, column: nil,
          message: "@Renamed(from: \(NameRules.display(previous))): a model still declares the table \(NameRules.display(previous)); rename only one of them"))
    }
    for (name, previous) in tableNames.duplicates {
      problems.append(
        .init(table: name, column: nil, message: "@Renamed(from: \(NameRules.display(previous))) is on two models; rename the table to one of them"))
    }
    for drop in tableNames.drops {
      problems.append(
        .init(
          table: drop.for, column: nil,
          message: "@Renamed(from: …): a table \(NameRules.display(drop.taken)) exists, which no model declares; drop it in a hand-written migration before renaming a table onto its name, or remove the annotation if the rename is done"))
    }
    guard tableNames.drops.isEmpty, tableNames.duplicates.isEmpty else { return }
    tables = tableNames.edges.map { TableRename(from: $0.from, to: $0.to) }
    operations += Self.order(tableNames.edges, occupied: current.tables.map(\.name), renamesToOtherCase: false)
      .map { Operation.renameTable(from: $0.from, to: $0.to) }

    let currentTables = Dictionary(current.tables.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    for table in desired.tables {
      let source = tableNames.source(of: table.name)
      guard let existing = currentTables[SQLName.folded(source)] else { continue }
      let previousColumns = Dictionary(
        (models[table.name]?.columns ?? []).compactMap { column in column.previousColumnName.map { (column.columnName, $0) } },
        uniquingKeysWith: { first, _ in first })
      let columnNames = Resolution(
        desired: table.columns.map(\.name), current: existing.columns.map(\.name), previous: previousColumns,
        isDone: { history.renamed($0, to: $1, in: table.name) })
      for (name, previous) in columnNames.conflicts {
        problems.append(
          .init(
            table: table.name, column: name,
            message: "@Renamed(from: \(NameRules.display(previous))): the model still has a column \(NameRules.display(previous)); rename only one of them"))
      }
      for (name, previous) in columnNames.duplicates {
        problems.append(
          .init(
            table: table.name, column: name,
            message: "@Renamed(from: \(NameRules.display(previous))) is on two properties; rename the column to one of them"))
      }
      let tableName = table.name
      columns += columnNames.edges.map { ColumnRename(table: tableName, from: $0.from, to: $0.to) }
      droppedColumns += columnNames.drops.map { (tableName, $0.taken) }
      operations += columnNames.drops.map { .dropColumn(table: tableName, column: $0.taken) }
      let remaining = existing.columns.map(\.name).filter { name in !columnNames.drops.contains { SQLName.folded($0.taken) == SQLName.folded(name) } }
      operations += Self.order(columnNames.edges, occupied: remaining, renamesToOtherCase: true)
        .map { .renameColumn(table: tableName, from: $0.from, to: $0.to) }
    }
  }

  /// How one set of names (a schema's tables, or a table's columns) reaches the models': which
  /// current name each desired name comes from.
  private struct Resolution {
    /// Renames, from a current name to a desired one.
    var edges: [(from: String, to: String)] = []
    /// Current names a rename takes whose values the models do not keep elsewhere, with the
    /// desired name that takes them.
    var drops: [(taken: String, for: String)] = []
    /// Desired names renamed from a name the models still have, unrenamed: (name, previous).
    var conflicts: [(String, String)] = []
    /// Desired names renamed from a name another desired name is renamed from.
    var duplicates: [(String, String)] = []

    /// - Parameters:
    ///   - previous: The name each desired name had, from `@Renamed(from:)`.
    ///   - isDone: Whether the history renamed the first name to the second.
    init(desired: [String], current: [String], previous: [String: String], isDone: (String, String) -> Bool) {
      let currentNames = Dictionary(current.map { (SQLName.folded($0), $0) }, uniquingKeysWith: { first, _ in first })
      let desiredNames = Set(desired.map(SQLName.folded))
      let renamedAway = Set(previous.filter { SQLName.folded($0.key) != SQLName.folded($0.value) }.values.map(SQLName.folded))
      var sources: Set<String> = []
      for name in desired {
        let folded = SQLName.folded(name)
        if let old = previous[name], SQLName.folded(old) != folded, let oldName = currentNames[SQLName.folded(old)] {
          let exists = currentNames[folded] != nil
          if desiredNames.contains(SQLName.folded(old)), !previous.keys.contains(where: { SQLName.folded($0) == SQLName.folded(old) }) {
            // The models keep the old name, not renamed: both cannot be.
            if !exists { conflicts.append((name, old)) }
          } else if !(exists && isDone(old, name)) {
            guard sources.insert(SQLName.folded(old)).inserted else {
              duplicates.append((name, old))
              continue
            }
            // A rename onto a name that exists: its values go, unless renamed away themselves.
            if let taken = currentNames[folded], !renamedAway.contains(folded) { drops.append((taken, name)) }
            edges.append((oldName, name))
            continue
          }
        }
        // The same name; only its case may change.
        if let existing = currentNames[folded], existing != name, !renamedAway.contains(folded) {
          edges.append((existing, name))
        }
      }
    }

    /// The current name `name` comes from.
    func source(of name: String) -> String {
      edges.first { SQLName.folded($0.to) == SQLName.folded(name) }?.from ?? name
    }
  }

  /// The renames, one by one, that make `edges`' renames when the names in `occupied` are taken: each
  /// rename once its new name is free, and a rename to a temporary name to break a circle of
  /// names exchanged. A name that differs only in case is free when SQLite renames to it
  /// (columns), and goes through a temporary name otherwise (tables).
  private static func order(
    _ edges: [(from: String, to: String)], occupied: [String], renamesToOtherCase: Bool
  ) -> [(from: String, to: String)] {
    var pending = edges
    var taken = Set(occupied.map(SQLName.folded))
    var steps: [(from: String, to: String)] = []
    func rename(_ from: String, _ to: String) {
      steps.append((from, to))
      taken.remove(SQLName.folded(from))
      taken.insert(SQLName.folded(to))
    }
    while !pending.isEmpty {
      let free = pending.firstIndex { edge in
        !taken.contains(SQLName.folded(edge.to)) || renamesToOtherCase && SQLName.folded(edge.to) == SQLName.folded(edge.from)
      }
      if let free {
        let edge = pending.remove(at: free)
        rename(edge.from, edge.to)
      } else {
        let edge = pending.removeFirst()
        var temporary = "strata_renaming_" + edge.from
        while taken.contains(SQLName.folded(temporary)) { temporary += "_" }
        rename(edge.from, temporary)
        pending.append((temporary, edge.to))
      }
    }
    return steps
  }
}

/// Which renames are made.
///
/// A `@Renamed(from:)` annotation can stay in a model once its migration is written, so the
/// planner must tell a rename still to make from one already made. The schema usually tells (the
/// old name is gone), but not when both names exist: a swap (`first` and `last` exchanged) looks
/// the same before and after. The schema snapshot does: it records the annotations the models had
/// when the last migration was written, so an annotation still there asks for nothing and one
/// added since (to swap back, say) asks for its rename. Without such a snapshot, the migrations'
/// `ALTER TABLE … RENAME` statements do: the last migration that renamed either name says
/// whether this rename was made.
struct RenameHistory {
  /// What one migration renamed, as its net effect (a swap through a temporary name is two
  /// renames, `first` to `last` and `last` to `first`), every name folded as SQLite compares them.
  struct Step {
    /// Tables renamed, from the name before the migration to the name after.
    var tables: [String: String] = [:]
    /// Columns renamed, by table (its name after the migration), from the old name to the new.
    var columns: [String: [String: String]] = [:]
  }

  /// The migrations' renames, oldest first.
  let steps: [Step]
  /// The annotations a snapshot recorded (see ``SchemaSnapshot/Record``), which decide when
  /// present.
  let recorded: Set<String>?

  init(_ files: [MigrationFiles.File], recorded: Set<String>? = nil) {
    steps = recorded == nil ? files.map { Self.step(of: $0.sql) } : []
    self.recorded = recorded
  }

  /// Whether the rename of the column `from` of `table` (named as it is now) to `to` is made.
  func renamed(_ from: String, to: String, in table: String) -> Bool {
    if let recorded { return recorded.contains(SQLName.folded("\(table).\(to)<-\(from)")) }
    let (from, to) = (SQLName.folded(from), SQLName.folded(to))
    var table = SQLName.folded(table)
    for step in steps.reversed() {
      let involved = (step.columns[table] ?? [:]).filter { [from, to].contains($0.key) || [from, to].contains($0.value) }
      if !involved.isEmpty { return involved[from] == to }
      // Earlier migrations knew the table by its name before this one renamed it.
      if let old = step.tables.first(where: { $0.value == table })?.key { table = old }
    }
    return false
  }

  /// Whether the rename of the table `from` to `to` is made.
  func renamedTable(_ from: String, to: String) -> Bool {
    if let recorded { return recorded.contains(SQLName.folded("\(to)<-\(from)")) }
    let (from, to) = (SQLName.folded(from), SQLName.folded(to))
    for step in steps.reversed() {
      let involved = step.tables.filter { [from, to].contains($0.key) || [from, to].contains($0.value) }
      if !involved.isEmpty { return involved[from] == to }
    }
    return false
  }

  /// The net renames of one migration's SQL.
  private static func step(of sql: String) -> Step {
    let tokens = SQLTokenizer.tokens(sql)
    // Where each table and column now named X came from at the start of the migration.
    var tableOrigins: [String: String] = [:]
    var columnOrigins: [String: [String: String]] = [:]
    var index = 0
    func name() -> String? {
      guard index < tokens.count, tokens[index].isName else { return nil }
      var text = tokens[index].text
      index += 1
      // `main.table`: the last part names it.
      while index + 1 < tokens.count, tokens[index].kind == .symbol, tokens[index].text == ".", tokens[index + 1].isName {
        text = tokens[index + 1].text
        index += 2
      }
      return text
    }
    while index < tokens.count {
      guard tokens[index].isWord("ALTER"), index + 1 < tokens.count, tokens[index + 1].isWord("TABLE") else {
        index += 1
        continue
      }
      index += 2
      guard let table = name(), index < tokens.count, tokens[index].isWord("RENAME") else { continue }
      index += 1
      if index < tokens.count, tokens[index].isWord("TO") {
        index += 1
        guard let newName = name() else { continue }
        let origin = tableOrigins.removeValue(forKey: SQLName.folded(table)) ?? table
        tableOrigins[SQLName.folded(newName)] = origin
        columnOrigins[SQLName.folded(newName)] = columnOrigins.removeValue(forKey: SQLName.folded(table))
        continue
      }
      if index < tokens.count, tokens[index].isWord("COLUMN") { index += 1 }
      guard let column = name(), index < tokens.count, tokens[index].isWord("TO") else { continue }
      index += 1
      guard let newColumn = name() else { continue }
      var origins = columnOrigins[SQLName.folded(table)] ?? [:]
      let origin = origins.removeValue(forKey: SQLName.folded(column)) ?? column
      origins[SQLName.folded(newColumn)] = origin
      columnOrigins[SQLName.folded(table)] = origins
    }
    var step = Step()
    for (newName, origin) in tableOrigins where SQLName.folded(origin) != newName {
      step.tables[SQLName.folded(origin)] = newName
    }
    for (table, origins) in columnOrigins {
      let renames = origins.filter { $0.key != SQLName.folded($0.value) }.map { (SQLName.folded($0.value), $0.key) }
      if !renames.isEmpty { step.columns[table] = Dictionary(renames, uniquingKeysWith: { first, _ in first }) }
    }
    return step
  }
}

import StrataSQL

/// What a compatibility window changes in a comparison of the models with the migrations: what
/// to keep for the older schemas in the window (recorded by earlier migrations, or new), what
/// kept thing no schema in the window needs any more, and the planned changes an older schema's
/// code would trip on.
///
/// The latest schema is always in a declared window, so anything the migrations have now is read
/// and written by some version in it: a column the models rename, a column or table they drop,
/// is kept (``Expansion``), and the models' schema the rest of the planner aims at is theirs plus
/// what is kept. A change that cannot be kept compatible (a type, a new constraint an older
/// writer can break, a renamed table) is a problem at the model's line that names the oldest
/// schema in the window it breaks.
struct CompatibilityPlan {
  /// Kept by earlier migrations, still needed, or kept by this one: what the models' schema is
  /// widened with.
  private(set) var kept: [Expansion] = []
  /// What this migration starts keeping: its expand steps.
  private(set) var new: [Expansion] = []
  /// Renamed columns' old names no schema in the window reads any more: this migration drops
  /// them and their triggers. (A kept column or table the models dropped goes the ordinary way,
  /// with consent, once it is no longer kept.)
  private(set) var retired: [Expansion] = []
  /// Views of renamed tables still kept that read a column this migration drops: each is made
  /// again without it (and its record renewed by this migration).
  private(set) var remadeViews: [Expansion] = []
  /// Constraints held back until the window moved, which this migration adds: every version in
  /// the window was written for them.
  private var dueDeferrals: Set<String> = []
  /// Changes the window's schemas cannot live with.
  private(set) var problems: [SchemaChanges.Problem] = []

  private let window: CompatibilityWindow?
  /// The schemas in the window, oldest first, by the number of the migration that leaves each.
  private let windowSchemas: [(number: Int, schema: Schema)]
  private let latest: Int

  /// - Parameters:
  ///   - recorded: What the migrations' headers say they keep.
  ///   - current: The schema the migrations produce (managed tables, generated columns included).
  ///   - desired: The models' schema.
  ///   - windowSchemas: The schemas in the window, oldest first, where the replay saw them.
  ///   - latest: The number of the last migration.
  ///   - currentObjects: The views and triggers the migrations make.
  init(
    window: CompatibilityWindow?, recorded: [Expansion], current: Schema, currentObjects: [SchemaObject], desired: Schema,
    models: [String: TableModel], windowSchemas: [(number: Int, schema: Schema)], latest: Int
  ) {
    self.window = window
    self.windowSchemas = windowSchemas
    self.latest = latest
    let currentTables = Dictionary(current.tables.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    let views = Set(currentObjects.filter { $0.kind == .view }.map { SQLName.folded($0.name) })
    // A table renamed under the window since something of it was kept has its new name now.
    let tableRenames = recorded.compactMap { expansion in expansion.renamedTable.map { (expansion.migration, $0.old, $0.new) } }
    let resolved = recorded.map { expansion -> Expansion in
      var expansion = expansion
      if let target = expansion.viewOfNow {
        var target = target
        for (migration, old, new) in tableRenames where migration > expansion.migration && SQLName.folded(old) == SQLName.folded(target) {
          target = new
        }
        expansion.viewOfBefore = target
        return expansion
      }
      for (migration, old, new) in tableRenames where migration > expansion.migration && SQLName.folded(old) == SQLName.folded(expansion.before) {
        expansion.tableBefore = new
      }
      return expansion
    }
    // A view made again is recorded again: the latest record of it counts.
    let latestViews = Dictionary(
      resolved.compactMap { expansion in expansion.renamedTable.map { (SQLName.folded($0.old), expansion.migration) } },
      uniquingKeysWith: { max($0, $1) })
    let present = resolved.filter { expansion in
      if case .deferred = expansion.kind {
        guard let table = currentTables[SQLName.folded(expansion.before)] else { return false }
        // A NOT NULL's wait (and its triggers) is over once the column is NOT NULL.
        guard expansion.isDeferredNotNull, let column = expansion.column else { return true }
        return table.column(folded: column).map { !$0.isNotNull } ?? false
      }
      if expansion.renamedTable != nil {
        return views.contains(SQLName.folded(expansion.table)) && latestViews[SQLName.folded(expansion.table)] == expansion.migration
      }
      guard let table = currentTables[SQLName.folded(expansion.before)] else { return false }
      return expansion.column.map { column in table.columns.contains { SQLName.folded($0.name) == SQLName.folded(column) } } ?? true
    }
    kept = present.filter { !$0.isDue(in: window) }
    retired = present.filter { $0.isDue(in: window) && ($0.renamedColumns != nil || $0.renamedTable != nil || $0.isDeferredNotNull) }
    dueDeferrals = Set(present.filter { expansion in
      if case .deferred = expansion.kind { expansion.isDue(in: window) } else { false }
    }.map(\.identity))
    guard window != nil else { return }

    // What earlier migrations kept is not kept again once due: it goes the ordinary way.
    let keptNames = Set(present.map(\.identity))
    // A model's old name, or the table its naming convention gives it.
    let renamedTables = Set(models.values.compactMap(\.previousTableName).flatMap { [SQLName.folded($0), SQLName.folded(Naming.tableName(forType: $0))] })
    // A table renamed (`@Renamed(from:)` on its model) is kept under its old name as a view; the
    // old type's name stands for the table its naming convention gives it, as for the rename.
    for table in desired.tables where currentTables[SQLName.folded(table.name)] == nil {
      guard let previous = models[table.name]?.previousTableName else { continue }
      let conventional = Naming.tableName(forType: previous)
      let old = currentTables[SQLName.folded(previous)] ?? currentTables[SQLName.folded(conventional)]
      guard let old, !keptNames.contains(Self.key(old.name, nil)) else { continue }
      guard old.columns.contains(where: { $0.primaryKey != nil }) || !old.compositePrimaryKey.isEmpty else {
        problem(
          table.name, nil,
          "the table is renamed from \(NameRules.display(old.name)), but \(schemaName(old.name, nil)) reads and writes it by that name, and a table without a primary key cannot be written through a view of it; rename it once the window no longer includes that schema")
        continue
      }
      // The columns the table keeps: the model's, and those kept for the window (not those this
      // migration drops, which no schema in the window reads).
      let keptColumns = Set(kept.filter { SQLName.folded($0.before) == SQLName.folded(old.name) }.compactMap { $0.column.map(SQLName.folded) })
      let modelColumns = Set(table.columns.map { SQLName.folded($0.name) })
      new.append(
        Expansion(
          table: old.name, column: nil, kind: .renamedTable(to: table.name),
          viewColumns: old.columns.map(\.name).filter { keptColumns.contains(SQLName.folded($0)) || modelColumns.contains(SQLName.folded($0)) }))
      // What is kept of the table goes with it.
      for index in kept.indices where SQLName.folded(kept[index].before) == SQLName.folded(old.name) { kept[index].tableAfter = table.name }
      for index in retired.indices where SQLName.folded(retired[index].before) == SQLName.folded(old.name) { retired[index].tableAfter = table.name }
      // So do the views of its older names.
      for index in kept.indices where kept[index].viewOfNow.map({ SQLName.folded($0) == SQLName.folded(old.name) }) ?? false {
        kept[index].viewOfAfter = table.name
      }
    }
    for table in desired.tables {
      guard let existing = currentTables[SQLName.folded(table.name)] else { continue }
      let model = models[table.name]
      let desiredColumns = Set(table.columns.map { SQLName.folded($0.name) })
      var renamedAway: Set<String> = []
      for column in model?.columns ?? [] {
        guard let previous = column.previousColumnName, SQLName.folded(previous) != SQLName.folded(column.columnName),
          let old = existing.column(folded: previous), existing.column(folded: column.columnName) == nil,
          !desiredColumns.contains(SQLName.folded(previous)), !keptNames.contains(Self.key(table.name, previous))
        else { continue }
        renamedAway.insert(SQLName.folded(previous))
        if old.primaryKey != nil || table.column(folded: column.columnName)?.primaryKey != nil {
          problem(
            table.name, column.columnName,
            "the primary key \(NameRules.display(old.name)) is renamed to \(NameRules.display(column.columnName)), but \(schemaName(table.name, old.name)) reads and writes it by its old name, and a key cannot be kept under two names; rename it once the window no longer includes that schema")
          continue
        }
        let renamed = table.column(folded: column.columnName)
        new.append(
          Expansion(
            table: table.name, column: old.name, kind: .renamedColumn(to: column.columnName),
            newDefault: renamed?.defaultValue, oldType: old.type, newType: renamed?.type))
      }
      for column in existing.columns
      where !column.isGenerated && !desiredColumns.contains(SQLName.folded(column.name)) && !renamedAway.contains(SQLName.folded(column.name))
        && !keptNames.contains(Self.key(table.name, column.name))
      {
        // A renamed column's new name that goes with the contract lost its NOT NULL for the window
        // (it had no default): the model that reads it may read it as never NULL.
        let wasRenamedTo = retired.contains { $0.renamedColumns.map { SQLName.folded($0.new) == SQLName.folded(column.name) } ?? false && SQLName.folded($0.after) == SQLName.folded(table.name) }
        if column.isNotNull || wasRenamedTo, column.defaultValue == nil, column.primaryKey == nil {
          problem(
            table.name, nil,
            "column \(NameRules.display(column.name)) is no longer in the model, but \(schemaName(table.name, column.name)) reads it as never NULL, and the rows this version inserts would have no value for it; keep the property until the window no longer includes that schema, or give the column a default first")
          // Kept, so that this is the one problem said about it.
          kept.append(Expansion(table: table.name, column: column.name, kind: .droppedColumn))
          continue
        }
        new.append(Expansion(table: table.name, column: column.name, kind: .droppedColumn))
      }
    }
    deferConstraints(current: currentTables, desired: desired, keptNames: keptNames)
    let desiredTables = Set(desired.tables.map { SQLName.folded($0.name) })
    for table in current.tables
    where !desiredTables.contains(SQLName.folded(table.name)) && !renamedTables.contains(SQLName.folded(table.name))
      && !keptNames.contains(Self.key(table.name, nil))
    {
      new.append(Expansion(table: table.name, column: nil, kind: .droppedTable))
    }
    kept += new
    remakeViews(current: current, desired: desired)
  }

  /// Finds the kept views of renamed tables that read a column this migration drops, and the
  /// columns they read instead: the table's that the models or the window keep.
  private mutating func remakeViews(current: Schema, desired: Schema) {
    for (index, view) in kept.enumerated() {
      guard let (_, table) = view.renamedTable, let now = view.viewOfNow, view.migration != 0,
        let existing = current.tables.first(where: { SQLName.folded($0.name) == SQLName.folded(now) })
      else { continue }
      let modelColumns = Set(desired.tables.first { SQLName.folded($0.name) == SQLName.folded(table) }?.columns.map { SQLName.folded($0.name) } ?? [])
      let keptColumns = Set(kept.filter { SQLName.folded($0.after) == SQLName.folded(table) }.compactMap { $0.column.map(SQLName.folded) })
      let staying = existing.columns.map(\.name).filter { modelColumns.contains(SQLName.folded($0)) || keptColumns.contains(SQLName.folded($0)) }
      guard staying.count < existing.columns.count else { continue }
      var remade = Expansion(table: view.table, column: nil, kind: .renamedTable(to: table), viewColumns: staying)
      remade.migration = 0
      remadeViews.append(view)
      kept[index] = remade
      new.append(remade)
    }
  }

  private static func key(_ expansion: Expansion) -> String { key(expansion.after, expansion.column) }

  /// Holds back what the models add that an older writer could break: `UNIQUE`, a foreign key,
  /// `CHECK`s and a unique index, on a table the migrations have.
  private mutating func deferConstraints(current: [String: TableSchema], desired: Schema, keptNames: Set<String>) {
    func add(_ expansion: Expansion) {
      if !keptNames.contains(expansion.identity) { new.append(expansion) }
    }
    for table in desired.tables {
      guard let existing = current[SQLName.folded(table.name)] else { continue }
      for column in table.columns {
        guard let old = existing.column(folded: column.name) else { continue }
        if column.isUnique, !old.isUnique { add(Expansion(table: table.name, column: old.name, kind: .deferred(.unique))) }
        // Older versions may write NULL: with a default, triggers give it to their rows; without
        // one, there is nothing this version could read, which the lint says.
        if column.isNotNull, !old.isNotNull, column.primaryKey == nil, let value = column.defaultValue, value.isConstant, value != .null {
          add(Expansion(table: table.name, column: old.name, kind: .deferred(.notNull), newDefault: value))
        }
        if let reference = column.references,
          old.references.map({ SQLName.folded($0.table) != SQLName.folded(reference.table) || SQLName.folded($0.column) != SQLName.folded(reference.column) }) ?? true
        {
          add(Expansion(table: table.name, column: old.name, kind: .deferred(.foreignKey)))
        }
      }
      let oldChecks = Set(existing.constraints.filter(SchemaChanges.isModelCheck))
      if table.constraints.filter(SchemaChanges.isModelCheck).contains(where: { !oldChecks.contains($0) }) {
        add(Expansion(table: table.name, column: nil, kind: .deferred(.checks)))
      }
      let oldUnique = Set(existing.indexes.filter(\.isUnique).map { $0.columns.map(SQLName.folded) })
      for index in table.indexes where index.isUnique && !oldUnique.contains(index.columns.map(SQLName.folded)) {
        guard index.columns.allSatisfy({ existing.column(folded: $0) != nil }) else { continue }
        add(Expansion(table: table.name, column: nil, kind: .deferred(.uniqueIndex(index.name))))
      }
    }
  }

  private static func key(_ table: String, _ column: String?) -> String {
    SQLName.folded(table) + (column.map { "." + SQLName.folded($0) } ?? "")
  }

  private mutating func problem(_ table: String, _ column: String?, _ message: String) {
    problems.append(.init(table: table, column: column, message: "table \(NameRules.display(table)): " + message))
  }

  /// What earlier migrations keep and a later one drops once the window moves, one line each.
  var pendingLines: [String] {
    kept.filter { $0.migration != 0 }.map { expansion in
      let number = CompatibilityWindow.number(expansion.migration)
      let what: String
      switch expansion.kind {
      case .renamedColumn(let to):
        what = "\(SQLQuoting.identifier(expansion.after)).\(SQLQuoting.identifier(expansion.column ?? "")) in step with \(SQLQuoting.identifier(to))"
      case .droppedColumn:
        what = "\(SQLQuoting.identifier(expansion.after)).\(SQLQuoting.identifier(expansion.column ?? "")), which the model no longer reads"
      case .droppedTable:
        what = "table \(SQLQuoting.identifier(expansion.table)), which no model declares"
      case .renamedTable(let to):
        what = "\(SQLQuoting.identifier(expansion.table)) as a view of \(SQLQuoting.identifier(to))"
      case .deferred(let deferral):
        let place = expansion.column.map { "\(SQLQuoting.identifier(expansion.after)).\(SQLQuoting.identifier($0))" } ?? "table \(SQLQuoting.identifier(expansion.after))"
        return "migration \(number) keeps \(place) \(deferral.words) for older app versions; a later migration adds it once the compatibility window starts at \(number) or later"
      }
      return "migration \(number) keeps \(what) for older app versions; a later migration drops it once the compatibility window starts at \(number) or later"
    }
  }

  /// `desired` widened with what is kept, taken from `current` as the migrations made it. An
  /// older writer writes a renamed column's old name alone, and this version the new name alone,
  /// before the triggers fill in the other, so neither may hold what a row written by one name
  /// breaks: the old name has no constraint and no default (it is NULL exactly when a writer did
  /// not give it, which is how the triggers tell who wrote), and the new name no UNIQUE or
  /// reference, and NOT NULL only with a default.
  func widened(_ desired: Schema, current: Schema) -> Schema {
    var schema = desired
    // A renamed table's view is no table of the models'.
    for expansion in kept where expansion.renamedTable == nil {
      guard let existing = current.tables.first(where: { SQLName.folded($0.name) == SQLName.folded(expansion.before) }) else { continue }
      if case .deferred(let deferral) = expansion.kind {
        if let position = schema.tables.firstIndex(where: { SQLName.folded($0.name) == SQLName.folded(expansion.after) }) {
          Self.defer(deferral, of: expansion.column, in: &schema.tables[position], keeping: existing)
        }
        continue
      }
      guard let column = expansion.column else {
        schema.tables.append(existing)
        continue
      }
      guard let position = schema.tables.firstIndex(where: { SQLName.folded($0.name) == SQLName.folded(expansion.after) }),
        var kept = existing.column(folded: column)
      else { continue }
      if let (_, new) = expansion.renamedColumns {
        kept = Self.relaxed(kept, keepingDefault: false)
        if let index = schema.tables[position].columns.firstIndex(where: { SQLName.folded($0.name) == SQLName.folded(new) }) {
          schema.tables[position].columns[index] = Self.relaxed(schema.tables[position].columns[index], keepingDefault: true)
        }
      }
      schema.tables[position].columns.append(kept)
    }
    return schema
  }

  /// `schema` without the kept columns a rename left and those retired now: the renames are
  /// planned as if they were gone, since a rename that is kept or contracted is not made again.
  func withoutRenamedColumns(_ schema: Schema) -> Schema {
    var schema = schema
    // The schema may be the one before this migration's table renames or after them.
    let names = Set((kept + retired).filter { $0.renamedColumns != nil }.flatMap { [Self.key($0.before, $0.column), Self.key($0.after, $0.column)] })
    for index in schema.tables.indices {
      let table = schema.tables[index].name
      schema.tables[index].columns.removeAll { names.contains(Self.key(table, $0.name)) }
    }
    return schema
  }

  /// The triggers that keep renamed columns in step, and the views (with their triggers) of
  /// renamed tables this migration drops: no model declares them, and none is a dependent that
  /// stops a drop.
  var ownObjectNames: Set<String> {
    let columnTriggers = (kept + retired).filter { $0.renamedColumns != nil || $0.isDeferredNotNull }.flatMap { expansion in
      expansion.triggerNames.map(SQLName.folded)
    }
    let views = (retired + remadeViews).filter { $0.renamedTable != nil }.flatMap { expansion in
      [SQLName.folded(expansion.table)] + Expansion.viewTriggerSuffixes.map { SQLName.folded(expansion.triggerName($0)) }
    }
    return Set(columnTriggers + views)
  }

  /// `table` (the models') with the table's current definition of what `deferral` holds back.
  private static func `defer`(_ deferral: Expansion.Deferral, of column: String?, in table: inout TableSchema, keeping existing: TableSchema) {
    switch deferral {
    case .unique, .foreignKey:
      guard let column, let index = table.columns.firstIndex(where: { SQLName.folded($0.name) == SQLName.folded(column) }),
        let old = existing.column(folded: column)
      else { return }
      if deferral == .unique { table.columns[index].isUnique = old.isUnique } else { table.columns[index].references = old.references }
    case .notNull:
      guard let column, let index = table.columns.firstIndex(where: { SQLName.folded($0.name) == SQLName.folded(column) }),
        let old = existing.column(folded: column)
      else { return }
      table.columns[index].isNotNull = old.isNotNull
      table.columns[index].notNullOnConflict = old.notNullOnConflict
    case .checks:
      table.constraints = table.constraints.filter { !SchemaChanges.isModelCheck($0) } + existing.constraints.filter(SchemaChanges.isModelCheck)
    case .uniqueIndex(let name):
      table.indexes.removeAll { SQLName.folded($0.name) == SQLName.folded(name) }
      table.indexes += existing.indexes.filter { SQLName.folded($0.name) == SQLName.folded(name) }
    }
  }

  private static func relaxed(_ column: ColumnSchema, keepingDefault: Bool) -> ColumnSchema {
    var column = column
    if !keepingDefault { column.defaultValue = nil }
    if column.defaultValue == nil {
      column.isNotNull = false
      column.notNullOnConflict = nil
    }
    column.isUnique = false
    column.references = nil
    return column
  }

  /// The oldest schema in the window that has the table (and the column), as messages name it.
  func schemaName(_ table: String, _ column: String?) -> String {
    guard let window else { return "" }
    let oldest = windowSchemas.first { entry in
      guard let found = entry.schema.tables.first(where: { SQLName.folded($0.name) == SQLName.folded(table) }) else { return false }
      return column.map { found.column(folded: $0) != nil } ?? true
    }
    return window.schemaName(after: oldest?.number ?? latest)
  }

  /// The changes from `current` to `desired` (widened, after the renames) that code written for
  /// an older schema in the window would trip on, and the renames that cannot be kept.
  mutating func lint(current: Schema, desired: Schema, renames: RenamePlan, currentObjects: [SchemaObject], desiredObjects: [SchemaObject]) {
    guard window != nil else { return }
    let expandedTables = Set(new.compactMap(\.renamedTable).map { SQLName.folded($0.old) })
    for rename in renames.tables where SQLName.folded(rename.from) != SQLName.folded(rename.to) && !expandedTables.contains(SQLName.folded(rename.from)) {
      problem(
        rename.to, nil,
        "the table is renamed from \(NameRules.display(rename.from)), but \(schemaName(rename.from, nil)) reads and writes it by that name; renaming a table cannot keep both names yet: rename it once the window no longer includes that schema")
    }
    for rename in renames.columns where SQLName.folded(rename.from) != SQLName.folded(rename.to) {
      problem(
        rename.table, rename.to,
        "column \(NameRules.display(rename.from)) is renamed to \(NameRules.display(rename.to)) in a way the window cannot keep (the table is renamed too, or names are exchanged), and \(schemaName(rename.table, rename.from)) reads and writes it by its old name; make this rename once the window no longer includes that schema")
    }
    let currentTables = Dictionary(current.tables.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    for table in desired.tables {
      guard let existing = currentTables[SQLName.folded(table.name)] else { continue }
      lint(existing, table)
    }
    let desiredViews = Dictionary(
      desiredObjects.compactMap { object -> (String, String)? in
        if case .view(let name, let sql) = object { (SQLName.folded(name), sql) } else { nil }
      }, uniquingKeysWith: { first, _ in first })
    for object in currentObjects {
      guard case .view(let name, let sql) = object, let wanted = desiredViews[SQLName.folded(name)], wanted != sql else { continue }
      problem(
        name, nil,
        "the view \(NameRules.display(name)) changes, but \(window!.schemaName(after: latest)) and older schemas in the window read it as it is; declare the new one as another view, and drop this one once the window no longer includes them")
    }
  }

  private mutating func lint(_ existing: TableSchema, _ table: TableSchema) {
    let name = table.name
    // A renamed column whose old name goes gets back what the window relaxed: every version in
    // the window writes it, as its model says.
    let restored = Set(retired.compactMap { expansion in
      expansion.renamedColumns.map { Self.key(expansion.after, $0.new) }
    })
    for column in table.columns where !restored.contains(Self.key(name, column.name)) {
      guard let old = existing.column(folded: column.name) else {
        if column.isNotNull, column.defaultValue == nil, column.primaryKey == nil, !column.isGenerated {
          problem(
            name, column.name,
            "\(schemaName(name, nil)) inserts into \(NameRules.display(name)) without \(NameRules.display(column.name)), which is new and NOT NULL without a default; give the property a default, or make it optional until the window no longer includes that schema")
        }
        continue
      }
      let schema = schemaName(name, old.name)
      if old.type != column.type {
        problem(
          name, column.name,
          "column \(NameRules.display(column.name)) changes type from \(old.type.sql) to \(column.type.sql), but \(schema) reads and writes it as \(old.type.sql); give the property of the new type a new name, marked // @Renamed(from: \(NameRules.display(old.name))), and triggers convert between the two until the window moves, or change the type once the window no longer includes that schema")
      }
      if column.isNotNull, !old.isNotNull, column.primaryKey == nil, !isDue(.notNull) {
        problem(
          name, column.name,
          "column \(NameRules.display(column.name)) becomes NOT NULL without a default, but \(schema) may write NULL into it, which this version could not read; give the property a default, which such rows get, or keep it optional until the window no longer includes that schema")
      }
      func isDue(_ deferral: Expansion.Deferral) -> Bool {
        dueDeferrals.contains(Expansion(table: name, column: old.name, kind: .deferred(deferral)).identity)
      }
      if column.isUnique, !old.isUnique, !isDue(.unique) {
        problem(name, column.name, "column \(NameRules.display(column.name)) becomes UNIQUE, but \(schema) may write a value another row has")
      }
      if let reference = column.references, old.references?.table != reference.table || old.references?.column != reference.column, !isDue(.foreignKey) {
        problem(
          name, column.name,
          "column \(NameRules.display(column.name)) gets a foreign key to \(NameRules.display(reference.table)), but \(schema) may write a value no row of \(NameRules.display(reference.table)) has")
      }
    }
    let schema = schemaName(name, nil)
    if table.isStrict, !existing.isStrict {
      problem(name, nil, "the table becomes STRICT, but \(schema) may write values of other types than its columns'")
    }
    if existing.compositePrimaryKey.map(SQLName.folded) != table.compositePrimaryKey.map(SQLName.folded) {
      problem(name, nil, "its primary key changes, but \(schema) finds, updates and deletes rows by the old one")
    }
    let oldChecks = Set(existing.constraints.compactMap(\.check))
    let checksDue = dueDeferrals.contains(Expansion(table: name, column: nil, kind: .deferred(.checks)).identity)
    for check in table.constraints.compactMap(\.check) where !oldChecks.contains(check) && !(checksDue && check.name == nil) {
      problem(name, nil, "it gets a CHECK (\(check.expression)), but \(schema) may write rows it refuses")
    }
    let oldUnique = Set(existing.indexes.filter(\.isUnique).map { $0.columns.map(SQLName.folded) })
    for index in table.indexes where index.isUnique && !oldUnique.contains(index.columns.map(SQLName.folded)) {
      guard index.columns.allSatisfy({ existing.column(folded: $0) != nil }),
        !dueDeferrals.contains(Expansion(table: name, column: nil, kind: .deferred(.uniqueIndex(index.name))).identity)
      else { continue }
      problem(name, nil, "the unique index \(NameRules.display(index.name)) is new, but \(schema) may write rows it refuses")
    }
  }
}

extension TableSchema {
  /// The column called `name`, compared as the database compares names.
  func column(folded name: String) -> ColumnSchema? {
    columns.first { SQLName.folded($0.name) == SQLName.folded(name) }
  }
}

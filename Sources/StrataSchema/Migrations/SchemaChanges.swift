import StrataSQL

/// What it takes to bring the schema the migrations produce (after the renames) to the one the
/// models ask for, as the steps of one migration.
///
/// Changes SQLite's `ALTER TABLE` can make are made with it: new tables, columns existing rows
/// can take, indexes, and dropping a column nothing depends on. Anything else (a column's type,
/// nullability, default, collation, key, uniqueness or reference; STRICT; a column that needs a
/// value existing rows do not have) rebuilds the table. Dropping a table or a column deletes
/// data, so it is only planned with consent; without it, it is a problem that says so.
///
/// What the models cannot express is the user's and is kept: views, triggers, virtual tables,
/// indexes not named by Strata's convention, column `CHECK` and `GENERATED` constraints, and
/// table `CHECK`s of a model that declares none.
struct SchemaChanges {
  /// A reason the planner cannot write the migration, reported at the model's line.
  struct Problem: Equatable {
    var table: String
    /// The column concerned, for pointing at its property.
    var column: String?
    var message: String
  }

  /// A table rebuilt by SQLite's procedure: create the new table, copy the rows, drop the old
  /// one, rename the new one, recreate indexes, triggers and views.
  struct Rebuild {
    /// The table as the models want it, with the constraints the models cannot express kept.
    var table: TableSchema
    /// The table as it is, before.
    var current: TableSchema
    /// What changes, in plain language, for the migration's header.
    var reasons: [String]
    /// For each column of the new table that takes values from the old rows, how it reads
    /// them; columns missing here get their default.
    var sources: [Source]
    /// The checks that stop the migration, before the rows are copied, when a row holds a value
    /// the new table cannot keep as it is.
    var guards: [MigrationGuard]
    /// Constraints of a table taken over (no longer `@Unmanaged`) that its model does not say,
    /// which the rebuild would drop: consent is needed, as for a drop.
    var lostConstraints: [String] = []
    /// Columns the rebuild drops, whose values are deleted.
    var droppedColumns: [String]
    /// Columns the rebuild drops that were kept for older schemas under a renamed column's old
    /// name (``Expansion``): the new column holds their values.
    var retiredColumns: [String] = []
    /// The current indexes that belong to the models; the others are the user's, and the
    /// rebuild recreates them as they are.
    var conventionalIndexes: Set<String>
    /// The rules of the table's enums whose `CHECK` is new or changes: the copied rows must keep
    /// them (a guard), or take the enum's default case (the sources' fallbacks).
    var caseRules: [CaseRule] = []
  }

  /// How a column of a rebuilt table takes the old rows' values.
  ///
  /// (See ``Rebuild/keepsRowidsAndValues(of:)`` for when the copied rows are the old ones.)
  struct Source: Equatable {
    /// The column of the new table.
    var column: String
    /// The column of the old table it reads; nil for a new column that only a fallback fills.
    var from: String?
    /// The type the values are converted to (with SQLite's `CAST`), when the column's type
    /// changes or the old table let it hold values of any type.
    var conversion: SQLType?
    /// Whether the conversion may change values: the model allows it with
    /// `@AllowLossyConversion`, so no guard stops it.
    var allowsLossyConversion = false
    /// The default that NULLs become, for a column that becomes NOT NULL.
    var nullsBecome: ColumnDefault?
    /// What the column gets in a row whose copied values break a rule: an enum's default case.
    var fallback: Fallback?
    /// SQL over the old row that computes the value of a column the table did not have
    /// (`@Backfill(raw:)`), instead of reading one.
    var backfill: String?

    /// The value of a column in the rows whose copied values break `rule` (SQL over the old row).
    struct Fallback: Equatable {
      var rule: String
      var value: String
    }

    /// The SQL that reads the value from an old row.
    var expression: String {
      var expression = backfill.map { "(\($0))" } ?? from.map(SQLQuoting.identifier) ?? "NULL"
      if let conversion { expression = SQLConversion.converted(expression, to: conversion) }
      if let nullsBecome { expression = "coalesce(\(expression), \(nullsBecome.sql))" }
      if let fallback { expression = "CASE WHEN \(fallback.rule) THEN \(expression) ELSE \(fallback.value) END" }
      return expression
    }
  }

  /// What the models read from a column: the type for messages, the format its values must
  /// have, and whether the model allows a lossy conversion (`@AllowLossyConversion`).
  struct ColumnReading {
    var storedType: String
    var format: ValueFormat?
    var allowsLossyConversion = false
    /// The type the models read the column as when the snapshot was last written, if known.
    var previousStoredType: String?
    /// The SQL value existing rows get when the column is added (`@Backfill(raw:)`).
    var backfill: String?
  }

  /// What the database can change in place.
  private let dialect: any SchemaDialect
  private let formerlyConventional: Set<String>
  /// What the models read, by `table.column`, folded.
  private let readings: [String: ColumnReading]
  /// Tables the migrations made that the models did not manage until now (folded).
  private let takenOver: Set<String>
  /// The rules of the models' enums, by table (folded).
  private let caseRules: [String: [CaseRule]]
  /// The columns the models had when the last migration was written, as `table.column` (folded).
  private let recordedColumns: Set<String>
  /// Renamed columns' old names whose contract step is due, by table (folded).
  private let retired: [String: [Expansion]]

  /// The steps in the order the migration runs them: by phase, and within a phase in the
  /// models' order.
  private(set) var steps: [SchemaChange] = []
  var problems: [Problem] = []

  var isEmpty: Bool { steps.isEmpty && problems.isEmpty }

  /// - Parameters:
  ///   - current: The schema the migrations produce, renames done.
  ///   - desired: The schema the models ask for.
  ///   - dependents: The views and triggers of the current schema, to check that a drop does not
  ///     break one.
  ///   - formerlyConventional: Indexes that had the conventional name of their table and
  ///     columns before a rename, so that they still belong to the models.
  ///   - readings: What the models read from each column, by `table.column`.
  ///   - takenOver: Tables whose models were `@Unmanaged` until now.
  ///   - caseRules: The rules of the models' enums, by table.
  ///   - recordedColumns: The models' columns the snapshot recorded, as `table.column`: a
  ///     generated column among them that no model has now was the models', and goes.
  ///   - retired: Renamed columns' old names kept for older schemas that none in the window
  ///     reads any more: they go without consent, their values being in the new column.
  init(
    current: Schema, desired: Schema, dependents: [SchemaObject] = [],
    formerlyConventional: Set<String> = [], readings: [String: ColumnReading] = [:], takenOver: Set<String> = [],
    caseRules: [String: [CaseRule]] = [:], recordedColumns: Set<String> = [], retired: [Expansion] = [],
    dialect: any SchemaDialect = SQLiteDialect()
  ) {
    self.dialect = dialect
    self.retired = Dictionary(grouping: retired, by: { SQLName.folded($0.after) })
    self.recordedColumns = Set(recordedColumns.map(SQLName.folded))
    self.caseRules = Dictionary(caseRules.map { (SQLName.folded($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    self.takenOver = Set(takenOver.map(SQLName.folded))
    self.formerlyConventional = Set(formerlyConventional.map(SQLName.folded))
    self.readings = Dictionary(readings.map { (SQLName.folded($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    let currentTables = Dictionary(current.tables.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    let desiredNames = Set(desired.tables.map { SQLName.folded($0.name) })
    for table in current.tables where !desiredNames.contains(SQLName.folded(table.name)) {
      steps.append(.dropTable(table))
      for dependent in dependents where dependent.uses(table.name) {
        problems.append(
          Problem(
            table: table.name, column: nil,
            message: "\(NameRules.display(dependent.name)) uses the table \(NameRules.display(table.name)), which no model declares any more; change or drop it in a hand-written migration first"))
      }
    }
    for table in desired.tables {
      guard let existing = currentTables[SQLName.folded(table.name)] else {
        steps.append(.createTable(table))
        continue
      }
      compare(existing, table, dependents: dependents)
    }
    sortSteps()
  }

  /// Adds the changes of the models' full-text indexes, views and triggers.
  mutating func include(_ objects: ObjectChanges) {
    steps += objects.steps
    sortSteps()
  }

  /// Adds the expand steps that keep what the window's older schemas need, and the contract
  /// steps of renamed tables' views no schema in the window reads any more. (A renamed column's
  /// contract step comes with its table's changes.)
  mutating func include(expansions: [Expansion], contracting views: [Expansion]) {
    steps += expansions.map(SchemaChange.expand) + views.map { .contract($0, dropsColumn: false) }
    sortSteps()
  }

  /// The tables the steps rebuild.
  var rebuilds: [Rebuild] {
    steps.compactMap { step in
      if case .rebuild(let rebuild) = step { rebuild } else { nil }
    }
  }

  /// Found table by table; run phase by phase (a stable sort keeps the models' order).
  private mutating func sortSteps() {
    steps = steps.enumerated().sorted { ($0.element.phase, $0.offset) < ($1.element.phase, $1.offset) }.map(\.element)
  }

  private mutating func compare(_ current: TableSchema, _ desired: TableSchema, dependents: [SchemaObject]) {
    let name = desired.name
    func problem(_ column: String?, _ message: String) {
      problems.append(Problem(table: name, column: column, message: "table \(NameRules.display(name)): " + message))
    }
    var reasons: [String] = []
    if current.isStrict != desired.isStrict {
      reasons.append(desired.isStrict ? "it becomes STRICT" : "it is no longer STRICT")
    }
    if current.isWithoutRowID != desired.isWithoutRowID {
      reasons.append(desired.isWithoutRowID ? "it becomes WITHOUT ROWID" : "it gets a rowid")
    }
    if current.compositePrimaryKey.map(SQLName.folded) != desired.compositePrimaryKey.map(SQLName.folded) {
      reasons.append("its primary key changes")
    }

    let currentColumns = Dictionary(current.columns.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    let desiredColumns = Set(desired.columns.map { SQLName.folded($0.name) })
    var sources: [Source] = []
    var guards: [MigrationGuard] = []
    var added: [ColumnSchema] = []
    var rebuiltTable = desired
    // The key and the checks of the enums' rules are the model's; the other constraints are the
    // migrations', except that a model that declares CHECKs (`@Check(raw:)`) owns the table's
    // unnamed CHECKs.
    func isRuleCheck(_ constraint: TableConstraint) -> Bool {
      constraint.check.map { CaseRule.isRuleCheck($0, of: name) } ?? false
    }
    let keptConstraints = current.constraints.filter { constraint in
      if case .primaryKey = constraint { false } else { !isRuleCheck(constraint) }
    }
    let desiredRuleChecks = desired.constraints.filter(isRuleCheck)
    let currentRuleChecks = current.constraints.filter(isRuleCheck)
    rebuiltTable.constraints = keptConstraints + desiredRuleChecks
    rebuiltTable.compositePrimaryKey = desired.compositePrimaryKey
    // A rule whose check is new or changes: the copied rows must keep it.
    let changedRules = (caseRules[SQLName.folded(name)] ?? []).filter { rule in
      let wanted = desiredRuleChecks.first { $0.check?.name.map(SQLName.folded) == SQLName.folded(CaseRule.checkName(table: name, property: rule.property)) }
      return wanted.map { !currentRuleChecks.contains($0) } ?? false
    }
    for rule in changedRules {
      reasons.append(
        currentRuleChecks.contains { $0.check?.name.map(SQLName.folded) == SQLName.folded(CaseRule.checkName(table: name, property: rule.property)) }
          ? "the cases of '\(rule.property)' change" : "'\(rule.property)' gets the CHECK that keeps each row to one case")
    }
    for constraint in currentRuleChecks where !desiredRuleChecks.contains(where: { $0.check?.name.map(SQLName.folded) == constraint.check?.name.map(SQLName.folded) }) {
      reasons.append("the CHECK \(NameRules.display(constraint.check?.name ?? "")) is dropped")
    }
    let desiredChecks = desired.constraints.filter(Self.isModelCheck)
    if !desiredChecks.isEmpty {
      if Set(current.constraints.filter(Self.isModelCheck)) != Set(desiredChecks) {
        reasons.append("its CHECK constraints change")
      }
      rebuiltTable.constraints = keptConstraints.filter { !Self.isModelCheck($0) } + desiredChecks + desiredRuleChecks
      rebuiltTable.compositePrimaryKey = desired.compositePrimaryKey
    }
    for (position, column) in desired.columns.enumerated() {
      guard let existing = currentColumns[SQLName.folded(column.name)] else {
        if column.isNotNull, column.defaultValue == nil, column.primaryKey == nil, !column.isGenerated {
          // The table may have rows on users' devices, which the plan cannot see: they need a
          // value, or the migration would fail there at launch.
          guard let backfill = readings[SQLName.folded("\(name).\(column.name)")]?.backfill else {
            problem(
              column.name,
              "column \(NameRules.display(column.name)) is new, NOT NULL and without a default, and the table may have rows that need a value for it: give the property a default (which new rows get too), make it optional, or give the rows the table already has a value of their own with // @Backfill(raw: \"…\") (SQL over each row, such as \"'untitled'\" or \"lower(name)\")")
            continue
          }
          sources.append(Source(column: column.name, from: nil, backfill: backfill))
        }
        if let reason = dialect.cannotAdd(column) {
          reasons.append("column \(NameRules.display(column.name)) is added, and \(reason)")
        }
        added.append(column)
        continue
      }
      // A generated column is the model's; the other column constraints are the migrations'.
      rebuiltTable.columns[position].otherConstraints =
        existing.otherConstraints.filter { if case .generated = $0 { false } else { true } } + (column.generated.map { [$0] } ?? [])
      let differences = Self.differences(existing, column)
      reasons += differences.map { "column \(NameRules.display(column.name)) \($0)" }
      if column.isGenerated {
        // The database computes it: nothing to copy, and a stored column that becomes computed
        // would lose its values.
        if !existing.isGenerated {
          problem(
            column.name,
            "column \(NameRules.display(column.name)) holds values, and making it generated would replace them with computed ones; add the generated column under another name, then drop this one")
        }
        continue
      }
      var source = Source(column: column.name, from: existing.name)
      let reading = readings[SQLName.folded("\(name).\(column.name)")]
      if dialect.converts(from: existing, in: current, to: column, in: desired) {
        source.conversion = column.type
        source.allowsLossyConversion = reading?.allowsLossyConversion ?? false
        if !source.allowsLossyConversion {
          guards.append(
            .lossyConversion(
              in: current, column: existing.name, to: column.type,
              consent: "mark the property // @AllowLossyConversion to convert such values anyway"))
        }
        if let reading, let format = reading.format {
          guards.append(
            .unreadable(in: current, column: existing.name, convertedTo: column.type, format: format, storedType: reading.storedType))
        }
      } else if let reading, let format = reading.format, let previous = reading.previousStoredType, previous != reading.storedType {
        // The same storage, read as another type (String to UUID): nothing to copy, but the
        // stored values must be ones the new type reads.
        steps.append(
          .check(.unreadable(in: current, column: existing.name, convertedTo: nil, format: format, storedType: reading.storedType)))
      }
      if column.isNotNull, !existing.isNotNull, column.primaryKey == nil {
        if let value = column.defaultValue, value.isConstant, value != .null {
          source.nullsBecome = value
          if column.isUnique || column.primaryKey != nil || desired.compositePrimaryKey.map(SQLName.folded) == [SQLName.folded(column.name)] {
            guards.append(.sharedDefault(in: current, column: existing.name, value: value))
          }
        } else {
          guards.append(.nulls(in: current, column: existing.name))
        }
      }
      if column.isUnique, !existing.isUnique {
        guards.append(.duplicates(in: current, column: existing.name, collation: column.collation))
      } else if column.isUnique, (column.collation ?? .binary) != (existing.collation ?? .binary) {
        // Values a UNIQUE column keeps apart may be one value under its new collation.
        guards.append(.duplicates(in: current, column: existing.name, collation: column.collation ?? .binary))
      }
      sources.append(source)
    }
    // Generated columns no model declares are the migrations': a rebuild keeps them; one a
    // model declared (the snapshot says) goes with the property, and holds no value of its own.
    let undeclaredGenerated = current.columns.filter { $0.isGenerated && !desiredColumns.contains(SQLName.folded($0.name)) }
    let keptGenerated = undeclaredGenerated.filter { !recordedColumns.contains(SQLName.folded("\(name).\($0.name)")) }
    for column in undeclaredGenerated where !keptGenerated.contains(column) {
      reasons.append("generated column \(NameRules.display(column.name)) is no longer in the model")
    }
    rebuiltTable.columns += keptGenerated
    let dropped = current.columns.filter { !$0.isGenerated && !desiredColumns.contains(SQLName.folded($0.name)) }
    let retiredHere = (retired[SQLName.folded(name)] ?? []).filter { expansion in
      dropped.contains { SQLName.folded($0.name) == SQLName.folded(expansion.column ?? "") }
    }
    let retiredNames = Set(retiredHere.compactMap { $0.column.map(SQLName.folded) })
    let losing = dropped.filter { !retiredNames.contains(SQLName.folded($0.name)) }
    for column in dropped {
      for dependent in dependents where dependent.uses(column.name) && dependent.uses(name)
      {
        problem(
          column.name,
          "column \(NameRules.display(column.name)) is no longer in the model, but \(NameRules.display(dependent.name)) uses it; change or drop it in a hand-written migration first")
      }
    }

    let simpleDrops = dropped.allSatisfy { column in
      column.primaryKey == nil && !column.isUnique && column.references == nil && column.otherConstraints.isEmpty
        && !current.indexes.contains { index in
          // An index on expressions may use the column; SQLite's DROP COLUMN refuses then.
          (index.hasExpressions || index.columns.contains { SQLName.folded($0) == SQLName.folded(column.name) })
            && !isConventional(index, of: current)
        }
    }
    if reasons.isEmpty, !simpleDrops, !dropped.isEmpty {
      reasons.append("a dropped column has a constraint or an index SQLite's DROP COLUMN cannot remove")
    }

    // The rows a changed rule would refuse: they take the enum's default case, or stop the
    // migration before anything changes.
    for rule in changedRules {
      let copied = Dictionary(sources.map { (SQLName.folded($0.column), $0.expression) }, uniquingKeysWith: { first, _ in first })
      let kept = rule.condition { copied[SQLName.folded($0)] ?? "NULL" }
      guard let defaultCase = rule.defaultCase else {
        guards.append(.noCase(in: current, rule: rule, keptBy: kept))
        continue
      }
      for column in rule.columns {
        let fallback = Source.Fallback(rule: kept, value: defaultCase[column] ?? "NULL")
        if let index = sources.firstIndex(where: { SQLName.folded($0.column) == SQLName.folded(column) }) {
          sources[index].fallback = fallback
        } else {
          sources.append(Source(column: column, from: nil, fallback: fallback))
        }
      }
    }
    if !reasons.isEmpty {
      let lost = takenOver.contains(SQLName.folded(name)) ? Self.lostConstraints(current, desired) : []
      steps.append(
        .rebuild(Rebuild(
          table: rebuiltTable, current: current, reasons: reasons + added.filter { dialect.cannotAdd($0) == nil }.map {
            "column \(NameRules.display($0.name)) is added"
          },
          sources: sources, guards: guards, lostConstraints: lost, droppedColumns: losing.map(\.name),
          retiredColumns: retiredHere.compactMap(\.column),
          conventionalIndexes: Set(current.indexes.filter { isConventional($0, of: current) }.map(\.name)),
          caseRules: changedRules)))
      steps += retiredHere.map { .contract($0, dropsColumn: false) }
      return
    }
    steps += losing.map { .dropColumn(table: name, column: $0.name) }
    steps += retiredHere.map { .contract($0, dropsColumn: true) }
    steps += added.map { .addColumn(table: name, column: $0) }

    // Indexes named by the generator's convention belong to the models; others are the user's.
    let desiredIndexes = Dictionary(desired.indexes.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    for index in current.indexes where isConventional(index, of: current) {
      if let wanted = desiredIndexes[SQLName.folded(index.name)], Self.sameIndex(index, wanted) { continue }
      steps.append(.dropIndex(index))
    }
    let kept = Set(current.indexes.filter { index in
      desiredIndexes[SQLName.folded(index.name)].map { Self.sameIndex(index, $0) } ?? false
    }.map { SQLName.folded($0.name) })
    for index in desired.indexes where !kept.contains(SQLName.folded(index.name)) {
      steps.append(.createIndex(index))
    }
  }

  /// What a rebuild of `current` as `desired` drops that the model does not say: keys,
  /// references, UNIQUE, collations, defaults and conventional indexes, in plain words.
  static func lostConstraints(_ current: TableSchema, _ desired: TableSchema) -> [String] {
    var lost: [String] = []
    let desiredColumns = Dictionary(desired.columns.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    if !current.compositePrimaryKey.isEmpty,
      current.compositePrimaryKey.map(SQLName.folded) != desired.compositePrimaryKey.map(SQLName.folded)
    {
      lost.append("its PRIMARY KEY (\(current.compositePrimaryKey.map(SQLQuoting.identifier).joined(separator: ", ")))")
    }
    for column in current.columns {
      guard let wanted = desiredColumns[SQLName.folded(column.name)] else { continue }
      let name = SQLQuoting.identifier(column.name)
      if column.primaryKey != nil, wanted.primaryKey == nil { lost.append("the PRIMARY KEY \(name)") }
      if let reference = column.references, !sameReference(reference, wanted.references) {
        lost.append("the foreign key \(name) REFERENCES \(describeReference(reference))")
      }
      if column.isUnique, !wanted.isUnique { lost.append("UNIQUE on \(name)") }
      if let collation = column.collation, wanted.collation != collation { lost.append("COLLATE \(collation.sql) on \(name)") }
      if let value = column.defaultValue, wanted.defaultValue == nil { lost.append("the default \(value.sql) of \(name)") }
    }
    let wantedIndexes = Set(desired.indexes.map { $0.columns.map(SQLName.folded) })
    for index in current.indexes where isConventional(index, of: current) && !wantedIndexes.contains(index.columns.map(SQLName.folded)) {
      lost.append("the index \(SQLQuoting.identifier(index.name))")
    }
    return lost
  }

  /// Whether a table constraint is an unnamed `CHECK`, which models can declare.
  static func isModelCheck(_ constraint: TableConstraint) -> Bool {
    constraint.check.map { $0.name == nil } ?? false
  }

  /// Whether an index is one the generator names: `index_<table>_on_<columns>`.
  static func isConventional(_ index: IndexSchema, of table: TableSchema) -> Bool {
    !index.hasExpressions && SQLName.folded(index.name) == SQLName.folded(IndexSchema.conventionalName(table: table.name, columns: index.columns))
  }

  /// Whether an index belongs to the models: named by the convention, now or before a rename.
  func isConventional(_ index: IndexSchema, of table: TableSchema) -> Bool {
    Self.isConventional(index, of: table) || formerlyConventional.contains(SQLName.folded(index.name))
  }

  private static func sameIndex(_ a: IndexSchema, _ b: IndexSchema) -> Bool {
    a.columns.map(SQLName.folded) == b.columns.map(SQLName.folded) && a.hasExpressions == b.hasExpressions && a.isUnique == b.isUnique && a.condition == b.condition
  }

  /// How a column that stays changes, in plain language; empty when it does not. Constraints the
  /// models cannot express (`CHECK`, `GENERATED`) are not compared: they are kept.
  static func differences(_ current: ColumnSchema, _ desired: ColumnSchema) -> [String] {
    var differences: [String] = []
    func describe(_ value: String?) -> String { value ?? "none" }
    if current.type != desired.type {
      differences.append("changes type from \(describe(current.type.sql)) to \(describe(desired.type.sql))")
    }
    if current.isNotNull != desired.isNotNull {
      differences.append(desired.isNotNull ? "becomes NOT NULL" : "becomes nullable")
    }
    if current.primaryKey != desired.primaryKey {
      differences.append("changes primary key from \(describeKey(current.primaryKey)) to \(describeKey(desired.primaryKey))")
    }
    if current.notNullOnConflict != desired.notNullOnConflict {
      differences.append(
        "changes NOT NULL ON CONFLICT from \(describe(current.notNullOnConflict?.rawValue)) to \(describe(desired.notNullOnConflict?.rawValue))")
    }
    if current.defaultValue != desired.defaultValue {
      differences.append("changes default from \(describe(current.defaultValue?.sql)) to \(describe(desired.defaultValue?.sql))")
    }
    if current.isUnique != desired.isUnique {
      differences.append(desired.isUnique ? "becomes UNIQUE" : "is no longer UNIQUE")
    }
    if current.collation != desired.collation {
      differences.append("changes collation from \(describe(current.collation?.sql)) to \(describe(desired.collation?.sql))")
    }
    if current.generated != desired.generated, desired.isGenerated || current.isGenerated {
      differences.append(
        desired.isGenerated
          ? (current.isGenerated ? "changes its generated expression" : "becomes generated") : "is no longer generated")
    }
    if !sameReference(current.references, desired.references) {
      differences.append(
        "changes its reference from \(describeReference(current.references)) to \(describeReference(desired.references))")
    }
    return differences
  }

  private static func sameReference(_ a: ForeignKey?, _ b: ForeignKey?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return SQLName.folded(a.table) == SQLName.folded(b.table) && SQLName.folded(a.column) == SQLName.folded(b.column)
      && a.onDelete == b.onDelete && a.onUpdate == b.onUpdate
  }

  private static func describeKey(_ key: ColumnSchema.PrimaryKey?) -> String {
    guard let key else { return "none" }
    var parts = ["PRIMARY KEY"]
    if let conflict = key.onConflict { parts.append("ON CONFLICT \(conflict.rawValue)") }
    if key.isAutoincrement { parts.append("AUTOINCREMENT") }
    return parts.joined(separator: " ")
  }

  private static func describeReference(_ reference: ForeignKey?) -> String {
    guard let reference else { return "none" }
    var text = "\(SQLQuoting.identifier(reference.table))(\(SQLQuoting.identifier(reference.column)))"
    if let action = reference.onDelete { text += " ON DELETE \(action.rawValue)" }
    if let action = reference.onUpdate { text += " ON UPDATE \(action.rawValue)" }
    return text
  }
}

/// Which names a piece of SQL mentions, read from its tokens.
enum SQLDependencies {
  /// Whether `sql` mentions `name` as a word or a quoted name, as SQLite compares names.
  static func mentions(_ sql: String, name: String) -> Bool {
    let folded = SQLName.folded(name)
    return SQLTokenizer.tokens(sql).contains { $0.isName && SQLName.folded($0.text) == folded }
  }
}

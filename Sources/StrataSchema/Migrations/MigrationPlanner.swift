/// The next migration of a module, if the models need one, and the schema snapshot.
public struct MigrationPlan: Sendable {
  /// A migration to write.
  public struct NewMigration: Sendable {
    /// `0002_add_players_nickname.sql`
    public var fileName: String
    /// The file's contents: a header comment and the statements.
    public var sql: String
    /// One line per change, for the command's output.
    public var summary: [String]
  }

  /// The migration the models need, or nil when the migrations are up to date.
  public var newMigration: NewMigration?
  /// The schema snapshot after the migrations, including the new one.
  public var snapshot: String
  /// That schema, for the diagram.
  public var schema: Schema
  /// What earlier migrations keep for older schemas in the compatibility window, one line each:
  /// what a later migration drops once the window moves.
  public var pending: [String] = []
}

/// Compares a module's models with its migrations.
///
/// The current schema is what the checked-in migrations produce when replayed into an
/// in-memory SQLite database, so hand-written and hand-edited migrations count. The desired
/// schema is what the models' DDL produces in another one. Both are read back with the same
/// introspection and compared: renames first (`@Renamed(from:)`), then everything else
/// (``SchemaChanges``). The migration is checked by applying it after the others and comparing
/// the result with the models again before anything is written.
public enum MigrationPlanner {
  /// The plan for the module: the next migration if the models need one, and the snapshot.
  ///
  /// - Parameters:
  ///   - allowDataLoss: Whether the migration may drop tables and columns, deleting their data.
  ///   - previousSnapshot: The text of the schema snapshot as the last migration left it, for the
  ///     types the models read each column as then.
  ///   - window: The older schemas that must keep working (``CompatibilityWindow``).
  /// - Throws: ``DiagnosticsError`` listing every change the planner cannot write, at the model's
  ///   line, or a failing migration file.
  public static func plan(
    models: ModelSet, migrations: MigrationFiles, moduleName: String, allowDataLoss: Bool = false,
    previousSnapshot: String? = nil, window: CompatibilityWindow? = nil
  ) throws -> MigrationPlan {
    let dialect = models.schemaDialect
    let comparison = try compare(
      models, with: migrations, replay: .readingSchema, recorded: previousSnapshot.flatMap(SchemaSnapshot.record),
      dialect: dialect, window: window)
    let (renames, changes) = (comparison.renames, comparison.changes)

    var problems = comparison.compatibility.problems + renames.problems + changes.problems + comparison.unmanagedProblems
    let steps = SchemaChange.steps(renames: renames, changes: changes)
    if steps.contains(where: \.losesData), !allowDataLoss { problems += consentProblems(steps) }
    if !problems.isEmpty {
      throw DiagnosticsError(
        problems.map { problem in
          Diagnostic(
            .error, problem.message,
            at: location(of: problem, in: comparison.tables) ?? comparison.creators[SQLName.folded(problem.table)]
              ?? SourceLocation(path: migrations.directory, line: 1, column: 1))
        })
    }
    let pending = comparison.compatibility.pendingLines
    guard !steps.isEmpty else {
      return MigrationPlan(
        newMigration: nil, snapshot: snapshot(comparison.before, models, moduleName: moduleName, dialect: dialect, pending: pending),
        schema: comparison.before.schema, pending: pending)
    }

    let renderer = MigrationRenderer(renames: renames, changes: changes, current: comparison.current, dialect: dialect, window: window)
    let sql = renderer.sql(moduleName: moduleName)
    let final = try dialect.replay(migrations.files, then: sql).introspect()
    let finalSchema = comparison.managed(final.schema)
    var remaining = SchemaChanges(
      current: comparison.managed(final.schemaWithGeneratedColumns), desired: comparison.desired, dialect: dialect)
    remaining.include(
      ObjectChanges(
        current: final, declared: models.schema.objects, desired: comparison.desiredObjects, recorded: [], rebuilds: []))
    let history = RenameHistory(migrations.files + [.generated(sql)])
    guard
      RenamePlan(
        current: comparison.compatibility.withoutRenamedColumns(finalSchema), desired: comparison.modelsSchema, models: comparison.tables,
        history: history
      ).isEmpty,
      remaining.isEmpty
    else {
      throw InputError("the generated migration does not produce the models' schema; please report this with the models:\n\(sql)")
    }
    return MigrationPlan(
      newMigration: MigrationPlan.NewMigration(
        fileName: migrations.nextNumber + "_" + renderer.fileDescription + ".sql", sql: sql, summary: renderer.summary),
      snapshot: snapshot(final, models, moduleName: moduleName, dialect: dialect, pending: pending), schema: final.schema,
      pending: pending)
  }

  /// What the changes would delete, each said as a problem with the way to allow it.
  private static func consentProblems(_ steps: [SchemaChange]) -> [SchemaChanges.Problem] {
    let allow = "to drop it, run `swift package --allow-writing-to-package-directory generate-migrations --allow-data-loss`"
    var problems: [SchemaChanges.Problem] = []
    var droppedColumns: [(table: String, column: String)] = []
    var rebuiltWithout: [(table: String, column: String)] = []
    var renamedOnto: [(table: String, column: String)] = []
    for step in steps {
      switch step {
      case .renames(let plan):
        renamedOnto += plan.droppedColumns
      case .dropTable(let table):
        problems.append(
          .init(
            table: table.name, column: nil,
            message: "table \(NameRules.display(table.name)) is in the migrations but no model declares it, and dropping it would delete its rows; if the model was renamed, mark it // @Renamed(from: \(NameRules.display(table.name))); \(allow)"))
      case .dropColumn(let table, let column):
        droppedColumns.append((table, column))
      case .rebuild(let rebuild):
        rebuiltWithout += rebuild.droppedColumns.map { (rebuild.table.name, $0) }
        if !rebuild.lostConstraints.isEmpty {
          problems.append(
            .init(
              table: rebuild.table.name, column: nil,
              message: "taking table \(NameRules.display(rebuild.table.name)) over would drop what its model does not say: \(rebuild.lostConstraints.joined(separator: ", ")); say it in the model (@References, @Unique, @PrimaryKey(on:), collate:, a default, @Index) or, to drop it, run `swift package --allow-writing-to-package-directory generate-migrations --allow-data-loss`"))
        }
      case .dropObject(let object, let holdsData):
        if holdsData {
          problems.append(
            .init(
              table: object.name, column: nil,
              message: "the full-text table \(NameRules.display(object.name)) holds its own text (it has no content table) and no model declares it any more, so dropping it would delete its rows; \(allow)"))
        }
      case .check, .dropIndex, .createTable, .addColumn, .createIndex, .createObject, .expand, .contract:
        break
      }
    }
    problems += renamedOnto.map { table, column in
      .init(
        table: table, column: column,
        message: "table \(NameRules.display(table)): the model's \(NameRules.display(column)) is another column renamed (@Renamed(from:)), so the column \(NameRules.display(column)) has now would be dropped, deleting its values; \(allow)")
    }
    problems += (droppedColumns + rebuiltWithout).map { table, column in
      .init(
        table: table, column: nil,
        message: "table \(NameRules.display(table)): column \(NameRules.display(column)) is in the migrations but not in the model, and dropping it would delete its values; if the property was renamed, mark it // @Renamed(from: \(NameRules.display(column))); \(allow)")
    }
    return problems
  }

  /// The snapshot of `introspection`, with what the managed models read and their renames.
  private static func snapshot(
    _ introspection: SchemaIntrospector.Introspection, _ models: ModelSet, moduleName: String, dialect: any SchemaDialect,
    pending: [String]
  ) -> String {
    let managed = models.tables.filter { !$0.isUnmanaged && $0.kind == .table }
    return SchemaSnapshot.text(
      introspection, declaredObjects: models.schema.objects.flatMap(\.objectNames),
      columns: managed.flatMap { model in
        model.columns.map { .init(table: model.tableName, column: $0.columnName, type: $0.storedType, renamedFrom: $0.previousColumnName) }
      },
      renamedTables: managed.compactMap { model in model.previousTableName.map { (model.tableName, $0) } }, pending: pending,
      moduleName: moduleName, dialect: dialect)
  }

  /// What the migrations produce, and what it takes to reach the models from there.
  struct Comparison {
    /// The schema the migrations produce.
    let before: SchemaIntrospector.Introspection
    /// The same after the renames the models ask for.
    let current: SchemaIntrospector.Introspection
    /// The models' schema, widened with what the compatibility window keeps.
    let desired: Schema
    /// The models' schema alone.
    let modelsSchema: Schema
    /// The objects the models' declarations make, as the database keeps them.
    let desiredObjects: [SchemaObject]
    let renames: RenamePlan
    let changes: SchemaChanges
    /// The migration file that created each table, by folded name.
    let creators: [String: SourceLocation]
    /// The scratch database as the migrations left it, when every statement ran: what a later
    /// build can start from.
    let checkpoint: ReplayCheckpoint?
    /// The models by table name.
    let tables: [String: TableModel]
    /// Unmanaged models whose table the migrations do not make as the model reads it.
    let unmanagedProblems: [SchemaChanges.Problem]
    /// The tables of unmanaged models, folded: the migrations' alone.
    let unmanaged: Set<String>
    /// What the compatibility window keeps, and what it cannot.
    let compatibility: CompatibilityPlan

    /// `schema` without the tables of unmanaged models, which the planner leaves out of both
    /// sides of a comparison.
    func managed(_ schema: Schema) -> Schema {
      MigrationPlanner.managed(schema, unmanaged: unmanaged)
    }
  }

  private static func managed(_ schema: Schema, unmanaged: Set<String>) -> Schema {
    Schema(tables: schema.tables.filter { !unmanaged.contains(SQLName.folded($0.name)) })
  }

  /// Replays `migrations` and compares the schema they produce with the models'.
  ///
  /// - Parameter replay: Whether to run every statement as the migrator will (the build plugin's
  ///   check), rather than let SQLite read simple `CREATE`s at once.
  ///   - recorded: What the snapshot recorded of the models when the last migration was written.
  static func compare(
    _ models: ModelSet, with migrations: MigrationFiles, replay: ReplayMode,
    recorded: SchemaSnapshot.Record? = nil, dialect: (any SchemaDialect)? = nil, window: CompatibilityWindow? = nil
  ) throws -> Comparison {
    let dialect = dialect ?? models.schemaDialect
    var creators: [String: SourceLocation] = [:]
    if case .runningEveryStatement(let checkpoint?) = replay {
      for (table, path) in checkpoint.creators { creators[table] = SourceLocation(path: path, line: 1, column: 1) }
    }
    var windowSchemas: [(number: Int, schema: Schema)] = []
    var database = try dialect.replay(migrations.files, replay) { file, database in
      for name in try database.tableNames() where creators[SQLName.folded(name)] == nil {
        creators[SQLName.folded(name)] = SourceLocation(path: file.path, line: 1, column: 1)
      }
      if let window, file.number >= window.start { windowSchemas.append((file.number, try database.introspect().schema)) }
    }
    // Taken before the renames below change the database.
    var checkpoint: ReplayCheckpoint?
    if replay.isBuildCheck {
      func ran(keeping saved: [UInt8]?) -> ReplayCheckpoint {
        ReplayCheckpoint(fileCount: migrations.files.count, database: saved, creators: creators.mapValues(\.path))
      }
      // A database of the schema alone cannot run more files: the history is recorded without it.
      if database.holdsSchemaOnly {
        checkpoint = ran(keeping: nil)
      } else if let saved = try database.serialized() {
        checkpoint = ran(keeping: saved)
      }
    }
    let before = try database.introspect()
    let tables = Dictionary(models.tables.map { ($0.tableName, $0) }, uniquingKeysWith: { first, _ in first })
    // Unmanaged tables are the migrations' alone: out of both sides of the comparison.
    let unmanaged = Set(models.tables.filter(\.isUnmanaged).map { SQLName.folded($0.tableName) })
    func managed(_ schema: Schema) -> Schema { Self.managed(schema, unmanaged: unmanaged) }
    let allDesired = try desiredSchema(models, dialect: dialect)
    let managedModels = tables.filter { !$0.value.isUnmanaged }
    var compatibility = CompatibilityPlan(
      window: window, recorded: Expansion.recorded(in: migrations.files), current: managed(before.schemaWithGeneratedColumns),
      currentObjects: before.objects, desired: managed(allDesired), models: managedModels, windowSchemas: windowSchemas, latest: migrations.files.last?.number ?? 0)
    // What the models ask for, and what older schemas in the window still need.
    let desired = compatibility.widened(managed(allDesired), current: managed(before.schemaWithGeneratedColumns))
    // A view or trigger may read a table the migrations alone make (an unmanaged model's, which
    // may have more columns than the model reads): it is created over that table as it is.
    let managedTables = Set(desired.tables.map { SQLName.folded($0.name) })
    let otherTables = before.schemaWithGeneratedColumns.tables.filter { !managedTables.contains(SQLName.folded($0.name)) }
    let desiredObjects = try self.desiredObjects(models, over: desired.tables + otherTables, dialect: dialect)

    let renames = RenamePlan(
      current: compatibility.withoutRenamedColumns(managed(before.schema)), desired: managed(allDesired), models: managedModels,
      history: RenameHistory(migrations.files, recorded: recorded?.renames))
    if !renames.isEmpty {
      // Dropping a column rewrites the table's rows, which a schema-only replay does not have.
      if !renames.droppedColumns.isEmpty, database.holdsSchemaOnly {
        database = try dialect.replay(migrations.files, .withStorage) { _, _ in }
      }
      try database.execute(dialect.statements(for: .renames(renames), from: before).joined(separator: "\n"))
    }
    let current = renames.isEmpty ? before : try database.introspect()
    let conventional = before.schema.tables.flatMap { table in
      table.indexes.filter { SchemaChanges.isConventional($0, of: table) }.map(\.name)
    }
    // A renamed column's recorded type is under its old name.
    let renamedFrom = Dictionary(
      renames.columns.map { (SQLName.folded("\($0.table).\($0.to)"), "\($0.table).\($0.from)") }, uniquingKeysWith: { first, _ in first })
    let tableRenamedFrom = Dictionary(renames.tables.map { (SQLName.folded($0.to), $0.from) }, uniquingKeysWith: { first, _ in first })
    var readings: [String: SchemaChanges.ColumnReading] = [:]
    for model in managedModels.values {
      for column in model.columns {
        let key = "\(model.tableName).\(column.columnName)"
        let previousKey = renamedFrom[SQLName.folded(key)]
          ?? tableRenamedFrom[SQLName.folded(model.tableName)].map { "\($0).\(column.columnName)" } ?? key
        readings[key] = SchemaChanges.ColumnReading(
          storedType: column.storedType, format: column.valueFormat, allowsLossyConversion: column.allowsLossyConversion,
          previousStoredType: recorded?.types[SQLName.folded(previousKey)], backfill: column.backfill)
      }
    }
    // A table the migrations made whose model the snapshot did not record was @Unmanaged: taking
    // it over must not drop what its model does not say.
    let recordedTables = Set(
      desired.tables.map { SQLName.folded($0.name) }.filter { table in
        recorded?.types.keys.contains { $0.hasPrefix(table + ".") } ?? false
      })
    let takenOver = recorded == nil ? [] : Set(desired.tables.map(\.name).filter { !recordedTables.contains(SQLName.folded($0)) })
    // Objects the models' declarations drop or recreate in this migration (a full-text index
    // whose columns change with its content table's) go before the tables change, so they do
    // not hold a column back.
    let objectsDropped = Set(
      ObjectChanges(
        current: current, declared: models.schema.objects, desired: desiredObjects, recorded: recorded?.objects ?? [],
        rebuilds: [], unmanaged: unmanaged
      ).steps.compactMap { step -> String? in
        if case .dropObject(let object, _) = step { SQLName.folded(object.name) } else { nil }
      })
    // The triggers that keep a renamed column in step, and the views of renamed tables that go
    // now, are the planner's, not a dependent that stops a drop.
    let keepingTriggers = compatibility.ownObjectNames
    var changes = SchemaChanges(
      current: managed(current.schemaWithGeneratedColumns), desired: desired,
      dependents: current.dependents.filter {
        !objectsDropped.contains(SQLName.folded($0.name)) && !keepingTriggers.contains(SQLName.folded($0.name))
      },
      formerlyConventional: Set(conventional), readings: readings, takenOver: takenOver,
      caseRules: Dictionary(managedModels.values.map { ($0.tableName, $0.caseRules) }, uniquingKeysWith: { first, _ in first }),
      recordedColumns: Set(recorded.map { Array($0.types.keys) } ?? []), retired: compatibility.retired, dialect: dialect)
    changes.include(
      ObjectChanges(
        current: current, declared: models.schema.objects, desired: desiredObjects, recorded: recorded?.objects ?? [],
        rebuilds: changes.rebuilds, unmanaged: unmanaged))
    changes.include(
      expansions: compatibility.new,
      contracting: compatibility.retired.filter { $0.renamedTable != nil || $0.isDeferredNotNull } + compatibility.remadeViews)
    compatibility.lint(
      current: managed(current.schemaWithGeneratedColumns), desired: desired, renames: renames, currentObjects: current.objects,
      desiredObjects: desiredObjects)
    return Comparison(
      before: before, current: current, desired: desired, modelsSchema: managed(allDesired), desiredObjects: desiredObjects, renames: renames,
      changes: changes, creators: creators,
      checkpoint: checkpoint,
      tables: tables, unmanagedProblems: try unmanagedProblems(models, in: current.schema, database: database),
      unmanaged: unmanaged, compatibility: compatibility)
  }

  /// What an unmanaged model reads that the migrations' table or view lacks: the table itself, or
  /// a column. Types and constraints are the migrations' business and are not compared.
  private static func unmanagedProblems(
    _ models: ModelSet, in schema: Schema, database: any ScratchDatabase
  ) throws -> [SchemaChanges.Problem] {
    try models.tables.filter(\.isUnmanaged).flatMap { model -> [SchemaChanges.Problem] in
      let name = NameRules.display(model.tableName)
      let columnNames: [String]
      let kind: String
      if let table = schema.tables.first(where: { SQLName.folded($0.name) == SQLName.folded(model.tableName) }) {
        (columnNames, kind) = (table.columns.map(\.name), "table")
      } else if let view = try database.viewColumns(model.tableName) {
        // An FTS5 model's rowid is the virtual table's own, which it does not list.
        let isIndex = if case .fullTextIndex = model.kind { true } else { false }
        (columnNames, kind) = (view.map(\.name) + (isIndex ? ["rowid"] : []), isIndex ? "virtual table" : "view")
      } else {
        return [
          .init(
            table: model.tableName, column: nil,
            message: "'\(model.swiftName)' is // @Unmanaged, but no migration creates the table or view \(name); create it in a hand-written migration, or remove // @Unmanaged to have the next migration create the table")
        ]
      }
      let columns = Set(columnNames.map(SQLName.folded))
      return model.columns.filter { !columns.contains(SQLName.folded($0.columnName)) }.map { column in
        .init(
          table: model.tableName, column: column.columnName,
          message: "'\(model.swiftName)' is // @Unmanaged, but the \(kind) \(name) the migrations make has no column \(NameRules.display(column.columnName)); add it in a hand-written migration, or remove the property")
      }
    }
  }

  /// The models' schema as the database reads it back, in the models' creation order (each table
  /// after the tables it references), so that new tables are created in that order; a table the
  /// database refuses is an error at its model.
  static func desiredSchema(_ models: ModelSet, dialect: any SchemaDialect) throws -> Schema {
    let order = Dictionary(
      models.schema.tables.enumerated().map { (SQLName.folded($0.element.name), $0.offset) }, uniquingKeysWith: { first, _ in first })
    var schema: Schema
    do {
      schema = try dialect.schema(creating: models.schema.tables)
    } catch let refused as RefusedTable {
      let location = models.tables.first { $0.tableName == refused.table }?.location
        ?? SourceLocation(path: "", line: 1, column: 1)
      throw DiagnosticsError([
        Diagnostic(.error, "the table this model asks for is not valid \(dialect.name): \(refused.message)", at: location)
      ])
    }
    schema.tables = schema.tables.enumerated().sorted { lhs, rhs in
      (order[SQLName.folded(lhs.element.name)] ?? Int.max, lhs.offset) < (order[SQLName.folded(rhs.element.name)] ?? Int.max, rhs.offset)
    }.map(\.element)
    return schema
  }

  /// The objects the models declare, as the database keeps them; one the database refuses is an
  /// error at its model.
  private static func desiredObjects(
    _ models: ModelSet, over tables: [TableSchema], dialect: any SchemaDialect
  ) throws -> [SchemaObject] {
    do {
      return try dialect.objects(creating: models.schema.objects, over: tables)
    } catch let refused as RefusedTable {
      let object = models.schema.objects.first { $0.name == refused.table }
      throw DiagnosticsError([
        Diagnostic(
          .error,
          "the \(object?.kindDescription ?? "object") \(NameRules.display(refused.table)) this model declares is not valid \(dialect.name): \(refused.message)",
          at: models.objectLocations[SQLName.folded(refused.table)] ?? SourceLocation(path: "", line: 1, column: 1))
      ])
    }
  }

  static func location(of problem: SchemaChanges.Problem, in tables: [String: TableModel]) -> SourceLocation? {
    guard let table = tables[problem.table] else { return nil }
    if let column = problem.column, let model = table.columns.first(where: { $0.columnName == column }) {
      return model.location
    }
    return table.location
  }
}

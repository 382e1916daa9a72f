/// Plans the next migration of a module.
///
/// The current schema is what the checked-in migrations produce when replayed into an
/// in-memory SQLite database, so hand-written and hand-edited migrations count. The desired
/// schema is what the models' DDL produces in another one. Both are read back with the same
/// introspection and compared: additive differences become the next migration; any other
/// difference is an error that names each one.
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
}

/// Compares a module's models with its migrations.
public enum MigrationPlanner {
  /// The plan for the module: the next migration if the models need one, and the snapshot.
  ///
  /// - Throws: ``DiagnosticsError`` listing every difference the planner cannot write as a
  ///   migration, at the model's line, or a failing migration file.
  public static func plan(models: ModelSet, migrations: MigrationFiles, moduleName: String) throws -> MigrationPlan {
    var creators: [String: SourceLocation] = [:]
    let database = try MigrationReplay.schema(of: migrations.files) { file, database in
      for row in try database.rows("SELECT name FROM sqlite_schema WHERE type = 'table'") {
        if let name = row["name"], creators[name] == nil {
          creators[name] = SourceLocation(path: file.path, line: 1, column: 1)
        }
      }
    }
    let currentIntrospection = try SchemaIntrospector.introspect(database)
    let desired = try desiredSchema(models)

    let diff = SchemaDiff(current: currentIntrospection.schema, desired: desired)
    if !diff.conflicts.isEmpty {
      let tables = Dictionary(models.tables.map { ($0.tableName, $0) }, uniquingKeysWith: { first, _ in first })
      throw DiagnosticsError(
        diff.conflicts.map { conflict in
          Diagnostic(
            .error, conflict.message,
            at: location(of: conflict, in: tables) ?? creators[conflict.table]
              ?? SourceLocation(path: migrations.directory, line: 1, column: 1))
        })
    }

    var newMigration: MigrationPlan.NewMigration?
    var final = currentIntrospection
    if !diff.changes.isEmpty {
      let (sql, summary) = render(diff.changes, models: models, moduleName: moduleName)
      final = try SchemaIntrospector.introspect(try applyGenerated(sql, after: migrations.files, on: database))
      let remaining = SchemaDiff(current: final.schema, desired: desired)
      guard remaining.isEmpty else {
        throw InputError(
          "the generated migration does not produce the models' schema: \(remaining.conflicts.map(\.message) + remaining.changes.map { "\($0)" })")
      }
      newMigration = MigrationPlan.NewMigration(
        fileName: fileName(number: migrations.nextNumber, changes: diff.changes) + ".sql",
        sql: sql, summary: summary)
    }
    return MigrationPlan(newMigration: newMigration, snapshot: snapshotText(final, moduleName: moduleName))
  }

  /// Checks the generated migration by applying it after the checked-in ones, as the migrator
  /// will; returns the database it was applied to.
  private static func applyGenerated(
    _ sql: String, after files: [MigrationFiles.File], on database: SQLiteConnection
  ) throws -> SQLiteConnection {
    if SchemaOnlyReplay.apply([sql], to: database) { return database }
    let replayed = try SQLiteConnection()
    try MigrationReplay.apply(files, to: replayed)
    let generated = MigrationFiles.File(name: "generated", path: "the generated migration", sql: sql, number: 0, numberWidth: 0)
    do {
      try MigrationReplay.apply([generated], to: replayed)
    } catch let error as DiagnosticsError {
      throw InputError("the generated migration fails on SQLite (\(error.diagnostics.map(\.message).joined(separator: "; "))):\n\(sql)")
    }
    return replayed
  }

  /// The models' schema as SQLite reads it back. SQLite parses the model's DDL all at once; if
  /// it refuses, the tables are created one by one to find the model at fault.
  private static func desiredSchema(_ models: ModelSet) throws -> Schema {
    let fast = try SQLiteConnection()
    let statements = models.schema.tables.flatMap { table in
      [SQLRenderer.createTable(table)] + table.indexes.map(SQLRenderer.createIndex)
    }
    if SchemaOnlyReplay.apply([statements.joined(separator: "\n")], to: fast) {
      return try SchemaIntrospector.introspect(fast).schema
    }
    let database = try SQLiteConnection()
    try database.execute("BEGIN")
    for table in models.schema.tables {
      let sql = ([SQLRenderer.createTable(table)] + table.indexes.map(SQLRenderer.createIndex)).joined(separator: "\n")
      do {
        try database.execute(sql)
      } catch let error as SQLiteError {
        let location = models.tables.first { $0.tableName == table.name }?.location
          ?? SourceLocation(path: "", line: 1, column: 1)
        throw DiagnosticsError([
          Diagnostic(.error, "the table this model asks for is not valid SQLite: \(error.message)", at: location)
        ])
      }
    }
    try database.execute("COMMIT")
    return try SchemaIntrospector.introspect(database).schema
  }

  private static func location(of conflict: SchemaDiff.Conflict, in tables: [String: TableModel]) -> SourceLocation? {
    guard let table = tables[conflict.table] else { return nil }
    if let column = conflict.column, let model = table.columns.first(where: { $0.columnName == column }) {
      return model.location
    }
    return table.location
  }

  // MARK: Rendering

  private static func render(
    _ changes: [SchemaDiff.Change], models: ModelSet, moduleName: String
  ) -> (sql: String, summary: [String]) {
    var blocks: [String] = []
    var summary: [String] = []
    var created: Set<String> = []
    for case .createTable(let name) in changes { created.insert(name) }
    let tables = Dictionary(models.schema.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    for table in models.schema.tables where created.contains(table.name) {
      blocks.append(([SQLRenderer.createTable(table)] + table.indexes.map(SQLRenderer.createIndex)).joined(separator: "\n"))
      summary.append("create table \(SQLLiteral.identifier(table.name))" + (table.indexes.isEmpty ? "" : " and its indexes"))
    }
    var statements: [String] = []
    for change in changes {
      switch change {
      case .addColumn(let tableName, let columnName):
        if let column = tables[tableName]?.column(named: columnName) {
          statements.append(SQLRenderer.addColumn(column, to: tableName))
          summary.append("add column \(SQLLiteral.identifier(columnName)) to \(SQLLiteral.identifier(tableName))")
        }
      case .createIndex(let tableName, let indexName):
        if !created.contains(tableName),
          let index = tables[tableName]?.indexes.first(where: { $0.name == indexName })
        {
          statements.append(SQLRenderer.createIndex(index))
          summary.append("create index \(SQLLiteral.identifier(indexName))")
        }
      case .createTable:
        break
      }
    }
    if !statements.isEmpty { blocks.append(statements.joined(separator: "\n")) }
    let header = """
      -- Generated by `swift package generate-migrations` for \(SQLLiteral.comment(moduleName)): \(SQLLiteral.comment(summary.joined(separator: "; "))).
      -- Migrations run in the order of their numbers, each in its own transaction. Review this
      -- file like code; once it is merged, change the schema with a new migration, not this one.
      """
    return (header + "\n\n" + blocks.joined(separator: "\n\n") + "\n", summary)
  }

  /// `0002_create_games_and_players`, `0003_add_players_nickname`: the changes by name, or
  /// counted when the names would make the file name long.
  static func fileName(number: String, changes: [SchemaDiff.Change]) -> String {
    var created: [String] = []
    var added: [(table: String, column: String)] = []
    var indexed: [String] = []
    for change in changes {
      switch change {
      case .createTable(let table): created.append(table)
      case .addColumn(let table, let column): added.append((table, column))
      case .createIndex(let table, let index):
        if !created.contains(table) { indexed.append(index) }
      }
    }
    var detailed: [String] = []
    var counted: [String] = []
    if !created.isEmpty {
      detailed.append("create_" + list(created))
      counted.append(created.count == 1 ? "create_\(created[0])" : "create_\(created.count)_tables")
    }
    if !added.isEmpty {
      detailed.append("add_" + list(added.map { "\($0.table)_\($0.column)" }))
      let tables = Set(added.map(\.table))
      counted.append(
        added.count == 1
          ? "add_\(added[0].table)_\(added[0].column)"
          : "add_\(added.count)_columns" + (tables.count == 1 ? "_to_\(added[0].table)" : ""))
    }
    if !indexed.isEmpty {
      detailed.append("add_" + list(indexed))
      counted.append(indexed.count == 1 ? "add_\(indexed[0])" : "add_\(indexed.count)_indexes")
    }
    let limit = 60
    var description = detailed.joined(separator: "_and_")
    if description.count > limit { description = counted.joined(separator: "_and_") }
    if description.count > limit {
      // As many counted parts as fit, then `_and_more`.
      var kept = [counted[0]]
      for part in counted.dropFirst() where (kept + [part]).joined(separator: "_and_").count <= limit - 9 {
        kept.append(part)
      }
      description = kept.joined(separator: "_and_") + (kept.count < counted.count ? "_and_more" : "")
    }
    // ASCII only: file systems store other letters in different normal forms, and the file name
    // is the migration's identity in the migrator's records.
    description = String(description.unicodeScalars.map { scalar in
      ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
        ? Character(scalar) : "_"
    })
    return number + "_" + description
  }

  private static func list(_ names: [String]) -> String {
    switch names.count {
    case 1: return names[0]
    case 2, 3: return names.dropLast().joined(separator: "_") + "_and_" + names.last!
    default: return names.prefix(2).joined(separator: "_") + "_and_\(names.count - 2)_more"
    }
  }

  /// The schema snapshot: every table with its indexes, sorted by name, then views and
  /// triggers.
  static func snapshotText(_ introspection: SchemaIntrospector.Introspection, moduleName: String) -> String {
    var text = """
      -- The schema of \(SQLLiteral.comment(moduleName)) as its migrations leave it, sorted by name.
      -- Generated by `swift package generate-migrations`; do not edit.
      """
    for table in introspection.schema.tables {
      text += "\n\n" + ([SQLRenderer.createTable(table)] + table.indexes.map(SQLRenderer.createIndex)).joined(separator: "\n")
    }
    for object in introspection.otherObjects {
      text += "\n\n" + object.sql + ";"
    }
    return text + "\n"
  }
}

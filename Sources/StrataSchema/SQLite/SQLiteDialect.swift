import StrataSQL

/// SQLite's answers to ``SchemaDialect``: STRICT tables of five types, keys that `AUTOINCREMENT`
/// or default to `uuid()`, and SQLite's limited `ALTER TABLE`, beyond which a table is rebuilt.
struct SQLiteDialect: SchemaDialect {
  /// The app's SQL functions, which scratch databases stand in for so that migrations calling
  /// them run.
  var functions: [AppFunction] = []

  var name: String { "SQLite" }

  /// The default of a UUID key the database assigns: `uuid()`, the function Strata registers.
  static let newUUID = ColumnDefault.expression("uuid()")

  func columnType(for type: ColumnValueType) -> SQLType {
    switch type {
    case .integer, .boolean: .integer
    case .real: .real
    case .text, .uuid, .date, .json: .text
    case .blob: .blob
    case .any: .any
    }
  }

  func assignedKey(_ column: ColumnSchema, holding type: ColumnValueType) -> ColumnSchema? {
    var column = column
    switch type {
    case .integer:
      column.primaryKey = .init(isAutoincrement: true)
    case .uuid:
      // An insert that binds NULL to the key gets a new UUID: `NOT NULL ON CONFLICT REPLACE`
      // applies the default, which the runtime and the shell register as `uuid()`.
      column.primaryKey = .init()
      column.isNotNull = true
      column.notNullOnConflict = .replace
      column.defaultValue = Self.newUUID
    case .boolean, .real, .text, .date, .blob, .json, .any:
      return nil
    }
    return column
  }

  func booleanDefault(_ flag: Bool) -> ColumnDefault { .integer(flag ? "1" : "0") }

  func converts(from old: ColumnSchema, in oldTable: TableSchema, to new: ColumnSchema, in newTable: TableSchema) -> Bool {
    SQLConversion.converts(from: old, in: oldTable, to: new, in: newTable)
  }

  func problems(in table: TableSchema) -> [SchemaChanges.Problem] { [] }

  func cannotAdd(_ column: ColumnSchema) -> String? {
    if column.primaryKey != nil { return "it is the primary key" }
    // SQLite adds only a VIRTUAL one, and checks its NOT NULL against no row; a rebuild computes
    // it for every row and fails, changing nothing, on one that breaks a constraint.
    if column.isGenerated { return "it is a generated column" }
    if column.isUnique { return "it is UNIQUE" }
    if column.isNotNull, column.defaultValue == nil { return "it is NOT NULL without a default" }
    if column.references != nil, let value = column.defaultValue, value != .null {
      return "it references another table and has a default other than NULL"
    }
    if let value = column.defaultValue, !value.isConstant {
      return "its default \(value.sql) is not a constant, which SQLite cannot give existing rows"
    }
    return nil
  }

  func createTable(_ table: TableSchema) -> String { SQLRenderer.createTable(table) }

  func createIndex(_ index: IndexSchema) -> String { SQLRenderer.createIndex(index) }

  func statements(for step: SchemaChange, from current: SchemaIntrospector.Introspection) -> [String] {
    switch step {
    case .renames, .dropIndex, .dropTable, .dropColumn: sharedStatements(for: step)
    case .check(let check): [check.sql]
    case .rebuild(let rebuild): TableRebuild(rebuild: rebuild, current: current).statements
    case .createTable(let table): [createTable(table)] + table.indexes.map(createIndex)
    case .addColumn(let table, let column): [SQLRenderer.addColumn(column, to: table)]
    case .createIndex(let index): [createIndex(index)]
    case .dropObject(let object, _): SQLRenderer.drop(object)
    case .createObject(let object): SQLRenderer.create(object)
    case .expand(let expansion):
      if let (_, new) = expansion.renamedTable {
        KeptTableView.expand(expansion, of: current.schema.tables.first { SQLName.folded($0.name) == SQLName.folded(new) })
      } else {
        KeptColumnTriggers.expand(expansion, in: current.schema.tables.first { SQLName.folded($0.name) == SQLName.folded(expansion.table) })
      }
    case .contract(let expansion, let dropsColumn):
      expansion.renamedTable != nil
        ? ["DROP VIEW \(SQLQuoting.identifier(expansion.table));"] : KeptColumnTriggers.contract(expansion, dropsColumn: dropsColumn)
    }
  }

  var checksComment: String { MigrationGuard.comment }

  func changing(table: String) -> (line: String, fileNameVerb: String) {
    ("rebuild table \(SQLQuoting.identifier(table)), copying every row", "rebuild")
  }

  /// An app's database has one connection writing at a time, which a migration at launch has to
  /// itself: nothing to say.
  func liveServerNotes(for steps: [SchemaChange]) -> [String] { [] }

  func replay(
    _ files: [MigrationFiles.File], _ mode: ReplayMode,
    afterEach: (MigrationFiles.File, any ScratchDatabase) throws -> Void
  ) throws -> any ScratchDatabase {
    /// Every file, statement by statement, on one database, as the migrator runs them.
    func onOneDatabase() throws -> SQLiteConnection {
      let database = try SQLiteConnection(functions: functions)
      try MigrationReplay.apply(files, to: database) { try afterEach($0, database) }
      return database
    }
    let checkpoint: ReplayCheckpoint?
    switch mode {
    case .readingSchema:
      return try MigrationReplay.schema(of: files, functions: functions, afterEach: afterEach)
    case .withStorage:
      return try onOneDatabase()
    case .runningEveryStatement(let after):
      checkpoint = after
    }
    var database = try SQLiteConnection(functions: functions)
    /// The files that ran in an earlier build whose statements need not run again.
    var ran = 0
    if let checkpoint, checkpoint.fileCount <= files.count {
      if let saved = checkpoint.database {
        if (try? database.restore(saved)) != nil {
          try MigrationReplay.apply(Array(files.dropFirst(checkpoint.fileCount)), to: database) { try afterEach($0, database) }
          return database
        }
        // A saved database SQLite cannot read is no checkpoint: every file runs.
        database = try SQLiteConnection(functions: functions)
      } else {
        ran = checkpoint.fileCount
      }
    }
    // Running n `CREATE`s on one database costs SQLite O(n²); run alone on an empty one, each
    // costs the same, and SQLite reads the schema at once. Any other statement, or an error,
    // runs every statement as the migrator does, so that errors are SQLite's own at their line.
    if SchemaOnlyReplay.apply(
      files.map(\.sql), to: database, scratch: try SQLiteConnection(functions: functions), checkingFrom: ran,
      afterEach: { try afterEach(files[$0], database) })
    {
      return database
    }
    return try onOneDatabase()
  }

  func replay(_ files: [MigrationFiles.File], then generated: String) throws -> any ScratchDatabase {
    let replayed = try MigrationReplay.schema(of: files, functions: functions)
    if SchemaOnlyReplay.apply([generated], to: replayed, scratch: try SQLiteConnection(functions: functions)) {
      return replayed
    }
    let database = try SQLiteConnection(functions: functions)
    try MigrationReplay.apply(files, to: database)
    do {
      try MigrationReplay.apply([.generated(generated)], to: database)
    } catch let error as DiagnosticsError {
      throw InputError(
        "the generated migration fails on SQLite (\(error.diagnostics.map(\.description).joined(separator: "; "))):\n\(generated)")
    }
    return database
  }

  func schema(creating tables: [TableSchema]) throws -> Schema {
    // SQLite parses the DDL all at once; if it refuses, the tables are created one by one to
    // find the one at fault.
    let fast = try SQLiteConnection(functions: functions)
    let statements = tables.flatMap { table in [createTable(table)] + table.indexes.map(createIndex) }
    if SchemaOnlyReplay.apply([statements.joined(separator: "\n")], to: fast) {
      return try SchemaIntrospector.introspect(fast).schemaWithGeneratedColumns
    }
    let database = try SQLiteConnection(functions: functions)
    try database.execute("BEGIN")
    for table in tables {
      do {
        try database.execute(([createTable(table)] + table.indexes.map(createIndex)).joined(separator: "\n"))
      } catch let error as SQLiteError {
        throw RefusedTable(table: table.name, message: error.message)
      }
    }
    try database.execute("COMMIT")
    return try SchemaIntrospector.introspect(database).schemaWithGeneratedColumns
  }
}

extension SQLiteDialect {
  func objects(creating objects: [DeclaredObject], over tables: [TableSchema]) throws -> [SchemaObject] {
    guard !objects.isEmpty else { return [] }
    let database = try SQLiteConnection(functions: functions)
    try database.execute(tables.flatMap { table in [createTable(table)] + table.indexes.map(createIndex) }.joined(separator: "\n"))
    for object in objects {
      for statement in SQLRenderer.create(object) {
        // SQL a model writes whole must make its one object: a second statement hidden in it
        // would run in the migration too.
        var count = 0
        do {
          try database.runScript(statement) { _, _ in
            count += 1
            if count > 1 { throw SQLiteError(message: "it holds more than one statement; write only the \(object.kindDescription)'s own SQL") }
          }
        } catch let error as SQLiteError {
          throw RefusedTable(table: object.name, message: error.message)
        } catch let failure as ScriptFailure {
          throw RefusedTable(table: object.name, message: failure.message)
        }
      }
      // SQLite reads a view's select when the view is used, not when it is created: reading its
      // columns checks that the select runs and gives one column per property.
      if case .view(let view) = object {
        do {
          try database.execute("SELECT * FROM \(SQLQuoting.identifier(view.name)) LIMIT 0")
        } catch let error as SQLiteError {
          throw RefusedTable(table: object.name, message: error.message)
        }
      }
    }
    return try SchemaIntrospector.introspect(database).objects
  }
}

extension SQLiteConnection: ScratchDatabase {
  func introspect() throws -> SchemaIntrospector.Introspection {
    try SchemaIntrospector.introspect(self)
  }

  func tableNames() throws -> [String] {
    try rows("SELECT name FROM sqlite_schema WHERE type = 'table'").compactMap { $0["name"] }
  }

  func viewColumns(_ name: String) throws -> [ColumnSchema]? {
    try SchemaIntrospector.viewColumns(name, in: self)
  }

  func serialized() throws -> [UInt8]? {
    try serialize()
  }
}

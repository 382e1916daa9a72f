import StrataSQL

/// PostgreSQL's answers to ``SchemaDialect``: a type for each kind of value (`uuid`,
/// `timestamptz`, `jsonb`, …), keys from an identity or `gen_random_uuid()`, and an `ALTER TABLE`
/// that changes a column in place where SQLite rebuilds the table. Migrations are checked on a
/// scratch database of a ``PostgreSQLServer``.
struct PostgreSQLDialect: SchemaDialect {
  var name: String { "PostgreSQL" }

  func columnType(for type: ColumnValueType) -> SQLType {
    switch type {
    case .integer: .other("bigint")
    case .boolean: .other("boolean")
    case .real: .other("double precision")
    case .text: .other("text")
    case .uuid: .other("uuid")
    case .date: .other("timestamptz")
    case .blob: .other("bytea")
    case .json: .other("jsonb")
    // No PostgreSQL column holds a value of any type; `problems(in:)` reports it.
    case .any: .any
    }
  }

  func assignedKey(_ column: ColumnSchema, holding type: ColumnValueType) -> ColumnSchema? {
    var column = column
    switch type {
    case .integer:
      column.primaryKey = .init(isAutoincrement: true)
    case .uuid:
      column.primaryKey = .init()
      column.isNotNull = true
      column.defaultValue = .expression("gen_random_uuid()")
    case .boolean, .real, .text, .date, .blob, .json, .any:
      return nil
    }
    return column
  }

  func booleanDefault(_ flag: Bool) -> ColumnDefault {
    .keyword(flag ? "TRUE" : "FALSE")
  }

  func problems(in table: TableSchema) -> [SchemaChanges.Problem] {
    table.columns.compactMap { column in
      let name = NameRules.display(column.name)
      if column.type == .any {
        return .init(table: table.name, column: column.name, message: "column \(name) holds values of any type (StoredValue), which no PostgreSQL column does; give the property a type")
      }
      if let collation = column.collation {
        return .init(
          table: table.name, column: column.name,
          message: "column \(name) is COLLATE \(collation.name), which PostgreSQL does not have; compare with lower(…) in queries, or drop collate: from the model (a citext column is not made for you: it needs an extension)")
      }
      if case .generated(_, let storage)? = column.generated, storage != .stored {
        return .init(
          table: table.name, column: column.name,
          message: "column \(name) is a virtual generated column, which PostgreSQL 15 does not have; write @Generated(raw: …, stored: true)")
      }
      return nil
    }
  }

  func converts(from old: ColumnSchema, in oldTable: TableSchema, to new: ColumnSchema, in newTable: TableSchema) -> Bool {
    old.type != new.type
  }

  func cannotAdd(_ column: ColumnSchema) -> String? {
    // PostgreSQL adds any column in place; one that existing rows cannot take goes through
    // `PostgreSQLAlter`, whose check stops on a table with rows and says what to do.
    if column.primaryKey != nil { return "it is the primary key" }
    if column.isNotNull, column.defaultValue == nil, !column.isGenerated { return "it is NOT NULL without a default" }
    return nil
  }

  func createTable(_ table: TableSchema) -> String { PostgreSQLRenderer.createTable(table) }

  func createIndex(_ index: IndexSchema) -> String { PostgreSQLRenderer.createIndex(index) }

  func statements(for step: SchemaChange, from current: SchemaIntrospector.Introspection) -> [String] {
    switch step {
    case .renames, .dropIndex, .dropTable, .dropColumn: sharedStatements(for: step)
    // A model that reads a column as another type stored alike (an enum of its strings, a
    // narrower integer) checks the values; a UUID or a date has a type of its own here, which
    // says what the column holds.
    case .check(let check):
      check.readableAs.flatMap { PostgreSQLAlter.readableCheck(check, format: $0.format, storedType: $0.storedType, in: current) }
        .map { [$0] } ?? []
    case .rebuild(let rebuild):
      PostgreSQLAlter(rebuild: rebuild, constraintNames: current.constraintNames, views: current.dependents).statements
    case .createTable(let table): [createTable(table)] + table.indexes.map(createIndex)
    case .addColumn(let table, let column): [PostgreSQLRenderer.addColumn(column, to: table)]
    case .createIndex(let index): [createIndex(index)]
    // Of the declared objects, models declare views for PostgreSQL (the translator refuses
    // SQLite's triggers and FTS5).
    case .dropObject(let object, _): SQLRenderer.drop(object)
    case .createObject(let object): SQLRenderer.create(object)
    case .expand(let expansion):
      if let (old, new) = expansion.renamedTable {
        // PostgreSQL writes through a view of one table's columns by itself.
        ["CREATE VIEW \(SQLQuoting.identifier(old)) AS SELECT \(expansion.viewColumns.map(SQLQuoting.identifier).joined(separator: ", ")) FROM \(SQLQuoting.identifier(new));"]
      } else {
        PostgreSQLKeptColumn.expand(expansion, in: current.schema.tables.first { SQLName.folded($0.name) == SQLName.folded(expansion.table) })
      }
    case .contract(let expansion, let dropsColumn):
      expansion.renamedTable != nil
        ? ["DROP VIEW \(SQLQuoting.identifier(expansion.table));"] : PostgreSQLKeptColumn.contract(expansion, dropsColumn: dropsColumn)
    }
  }

  func changing(table: String) -> (line: String, fileNameVerb: String) {
    ("alter table \(SQLQuoting.identifier(table)) in place", "alter")
  }

  func liveServerNotes(for steps: [SchemaChange]) -> [String] {
    var notes: [String] = []
    for step in steps {
      switch step {
      case .rebuild(let rebuild):
        notes += PostgreSQLAlter(rebuild: rebuild, constraintNames: [:], views: []).liveServerNotes
      case .createIndex(let index):
        notes.append(
          "On a live server: CREATE INDEX \(SQLQuoting.identifier(index.name)) blocks writes to \(SQLQuoting.identifier(index.table)) while it builds; for a big table, build it first by hand with CREATE INDEX CONCURRENTLY (which cannot run in a migration's transaction), and this statement then finds it and fails: drop it from this file.")
      case .addColumn(let table, let column) where column.isGenerated:
        notes.append("On a live server: adding the generated column \(SQLQuoting.identifier(column.name)) rewrites every row of \(SQLQuoting.identifier(table)) under a lock that blocks reads and writes.")
      default:
        break
      }
    }
    return notes
  }

  var checksComment: String {
    "-- Each check below stops the migration, before anything changes, when a row holds a value the change would not keep."
  }

  /// Every statement runs on a scratch database of the server, whatever `mode` says: PostgreSQL
  /// has no cheaper way to read a schema, and no checkpoint to start from.
  func replay(
    _ files: [MigrationFiles.File], _ mode: ReplayMode,
    afterEach: (MigrationFiles.File, any ScratchDatabase) throws -> Void
  ) throws -> any ScratchDatabase {
    let database = try PostgreSQLServer.shared().scratchDatabase()
    for file in files {
      try database.apply(file)
      try afterEach(file, database)
    }
    return database
  }

  func replay(_ files: [MigrationFiles.File], then generated: String) throws -> any ScratchDatabase {
    let database = try PostgreSQLServer.shared().scratchDatabase()
    for file in files { try database.apply(file) }
    do {
      try database.apply(.generated(generated))
    } catch let error as DiagnosticsError {
      throw InputError(
        "the generated migration fails on PostgreSQL (\(error.diagnostics.map(\.message).joined(separator: "; "))):\n\(generated)")
    }
    return database
  }

  func schema(creating tables: [TableSchema]) throws -> Schema {
    // All tables in one transaction; if PostgreSQL refuses, they are created one by one in
    // another database to find the one at fault.
    let statements = tables.map { table in ([createTable(table)] + table.indexes.map(createIndex)).joined(separator: "\n") }
    let database = try PostgreSQLServer.shared().scratchDatabase()
    do {
      try database.run("BEGIN;\n" + statements.joined(separator: "\n") + "\nCOMMIT;")
    } catch is PsqlError {
      let separate = try PostgreSQLServer.shared().scratchDatabase()
      for (table, sql) in zip(tables, statements) {
        do {
          try separate.run(sql)
        } catch let error as PsqlError {
          throw RefusedTable(table: table.name, message: error.serverMessage)
        }
      }
    }
    return try database.introspect().schemaWithGeneratedColumns
  }

  func objects(creating objects: [DeclaredObject], over tables: [TableSchema]) throws -> [SchemaObject] {
    guard !objects.isEmpty else { return [] }
    let database = try PostgreSQLServer.shared().scratchDatabase()
    try database.run(tables.map { table in ([createTable(table)] + table.indexes.map(createIndex)).joined(separator: "\n") }.joined(separator: "\n"))
    for object in objects {
      do {
        try database.run(SQLRenderer.create(object).joined(separator: "\n"))
      } catch let error as PsqlError {
        throw RefusedTable(table: object.name, message: error.serverMessage)
      }
    }
    return try database.introspect().objects
  }
}

import StrataSQL
import Foundation

/// What `strata import` makes of an existing SQLite database: Swift models (or a schema file)
/// and a baseline migration that together reproduce its schema exactly, so that the planner has
/// nothing to add and existing databases keep working.
///
/// The baseline is the database's own `CREATE` statements, so everything Strata cannot express
/// (views, triggers, virtual tables, `CHECK`s, partial and expression indexes) is kept as it was
/// and reported. Each table gets a model in Strata's conventions when that model asks for exactly
/// the table the baseline makes, which the planner decides by comparing them; any other table
/// gets an `@Unmanaged` model that reads and writes its rows while the migrations alone make it.
public struct DatabaseImport: Sendable {
  /// The baseline migration's file name.
  public static let baselineFileName = "0001_imported_schema.sql"

  /// The baseline migration: the database's schema in its own words.
  public let baseline: String
  /// The models, as Swift.
  public let swiftModels: String
  /// The same models, as a schema file.
  public let schemaFile: String
  /// What the import kept in SQL only, and why tables are unmanaged, one line each.
  public let notes: [String]
  /// How many tables became models, and how many of those are unmanaged.
  public let tableCount: Int
  public let unmanagedCount: Int
  /// How many views became read-only unmanaged models.
  public let viewCount: Int

  /// Reads the database at `path` (read-only) and builds the models and the baseline.
  ///
  /// - Parameter source: How the header comments name the database.
  /// - Throws: ``InputError`` for a file that is not a SQLite database or a table whose name no
  ///   model can carry; ``DiagnosticsError`` if the models would not reproduce the schema, which
  ///   is a bug to report.
  public init(databaseAt path: String, source: String) throws {
    let database: SQLiteConnection
    do {
      database = try SQLiteConnection(readingFile: path)
    } catch let error as SQLiteError {
      throw InputError("\(path): cannot read it as a SQLite database: \(error.message)")
    }
    try self.init(try DatabaseImporter(database), source: source)
  }

  /// Reads the PostgreSQL database `url` names (its `public` schema, without writing to it)
  /// and builds the models and a baseline in PostgreSQL's SQL.
  ///
  /// - Parameter source: How the header comments name the database (without its password).
  public init(postgreSQL url: String, source: String) throws {
    let database: PsqlDatabase
    do {
      database = try PostgreSQLServer(url: url).database()
    } catch let error as PsqlError {
      throw InputError("cannot read the PostgreSQL database \(source): \(error.serverMessage)")
    }
    try self.init(try DatabaseImporter(postgreSQL: database), source: source)
  }

  private init(_ importer: DatabaseImporter, source: String) throws {
    var importer = importer
    swiftModels = try importer.run(source: source)
    baseline = importer.baseline(source: source)
    schemaFile = ImportedModelRenderer.schemaFile(importer.tables, source: source)
    // The schema file says the same models; one the generator refused would be written for
    // nothing, so it stops the import before anything is written.
    do {
      _ = try Generator(sources: [("Schema.strata", schemaFile)]).models()
    } catch let error as DiagnosticsError {
      throw InputError(
        "the imported schema file is not valid (\(error.diagnostics.map(\.description).joined(separator: "; "))); please report this with the schema, and import Swift models meanwhile")
    }
    notes = importer.notes
    tableCount = importer.tables.filter { !$0.isView }.count
    unmanagedCount = importer.tables.filter { $0.isUnmanaged && !$0.isView }.count
    viewCount = importer.tables.filter(\.isView).count
  }
}

/// The steps of an import: read the schema, name the models, and decide which tables the models
/// can manage.
struct DatabaseImporter {
  /// The database the schema is read from, whose SQL the baseline and the planner speak.
  private let dialect: DatabaseDialect
  private let introspection: SchemaIntrospector.Introspection
  /// The introspected tables by folded name.
  private let tablesByName: [String: TableSchema]
  /// Each `CREATE` statement of the schema, in an order that replays: tables, indexes, views,
  /// triggers, each in the order the database created them.
  let statements: [String]
  /// The views whose columns SQLite can list, as tables of those columns.
  private let views: [TableSchema]
  private(set) var tables: [ImportedTable] = []
  /// Each model's position in `tables`, by folded table name; models are replaced in place.
  private var modelPositions: [String: Int] = [:]
  private(set) var notes: [String] = []

  init(_ database: SQLiteConnection) throws {
    dialect = .sqlite
    introspection = try SchemaIntrospector.introspect(database)
    tablesByName = Dictionary(
      introspection.schema.tables.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    // FTS5 makes its shadow tables with the virtual table; a full-text index's table of replaced
    // rows is made by the statements that declare the index, and must be in the baseline.
    let replaced = Set(introspection.virtualTables.map(FullTextIndex.replacedRowsTable(of:)))
    let excluded = Set((SchemaIntrospector.internalTables.union(introspection.shadowTables.subtracting(replaced))).map(SQLName.folded))
    statements = try database.rows(
      """
      SELECT type, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
      ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END, rowid
      """
    ).compactMap { row in
      guard let table = row["tbl_name"], let sql = row["sql"], !excluded.contains(SQLName.folded(table)) else { return nil }
      return sql.hasSuffix(";") ? sql : sql + ";"
    }
    var views: [TableSchema] = []
    for case .view(let name, _) in introspection.objects {
      var columns = try SchemaIntrospector.viewColumns(name, in: database) ?? []
      for index in columns.indices where columns[index].type == .none {
        columns[index].type = try Self.typeOfValues(in: columns[index].name, of: name, database)
      }
      let view = TableSchema(name: name, columns: columns, isStrict: false)
      if NameRules.tableNameProblem(name) == nil, view.columns.contains(where: { NameRules.columnNameProblem($0.name) == nil }) {
        views.append(view)
      }
    }
    self.views = views
    try Self.checkNames(introspection)
  }

  /// Reads a PostgreSQL database: its tables and their indexes, as Strata writes them in
  /// PostgreSQL's SQL (the baseline), in an order that creates each table after those it
  /// references, then its views as PostgreSQL prints them. Sequences, functions and triggers
  /// are not read.
  init(postgreSQL database: PsqlDatabase) throws {
    dialect = .postgresql
    introspection = try database.introspect()
    tablesByName = Dictionary(
      introspection.schema.tables.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    let postgreSQL = PostgreSQLDialect()
    statements = SchemaRules.creationOrder(introspection.schemaWithGeneratedColumns.tables).flatMap { table in
      [postgreSQL.createTable(table)] + table.indexes.map(postgreSQL.createIndex)
    } + introspection.objects.map { $0.sql + ";" }
    views = try introspection.objects.compactMap { object in
      guard let columns = try database.viewColumns(object.name) else { return nil }
      let view = TableSchema(name: object.name, columns: columns, isStrict: false)
      return NameRules.tableNameProblem(object.name) == nil && columns.contains { NameRules.columnNameProblem($0.name) == nil } ? view : nil
    }
    try Self.checkNames(introspection)
  }

  /// Every table needs a name a model can have and a column it can read.
  private static func checkNames(_ introspection: SchemaIntrospector.Introspection) throws {
    var problems = introspection.schema.tables.compactMap { NameRules.tableNameProblem($0.name) }
    problems += introspection.schema.tables.filter { table in
      NameRules.tableNameProblem(table.name) == nil && !table.columns.contains { NameRules.columnNameProblem($0.name) == nil }
    }.map { "table \(NameRules.display($0.name)) has no column a model can read (only rowid's names or generated columns)" }
    if !problems.isEmpty {
      throw InputError("cannot import the database: " + problems.joined(separator: "; ") + "; change the table in the database first")
    }
  }

  /// The baseline migration's text.
  func baseline(source: String) -> String {
    let words = dialect == .sqlite ? "in its own words" : "its tables and indexes in Strata's PostgreSQL SQL"
    return """
    \(MigrationFiles.baselineMarker)
    -- The schema of \(SQLLiteral.comment(source)), \(words), as `strata import` read it.
    -- A database that already holds this schema records this migration as applied without
    -- running it; a new database runs it. Like any applied migration, it must not be edited.

    """ + statements.joined(separator: "\n\n") + "\n"
  }

  /// Decides each table's model and returns the Swift models; throws if they do not reproduce the
  /// schema.
  mutating func run(source: String) throws -> String {
    let typeNames = Self.typeNames(for: introspection.schema.tables.map(\.name) + views.map(\.name))
    tables = introspection.schema.tables.map { table in
      conventionalModel(of: table, typeNames: typeNames)
    }
    tables += views.map { view in
      var model = model(
        of: view, typeName: typeNames[view.name]!, typeNames: typeNames,
        reasons: ["it is a view, whose rows it reads; writing them takes the view's INSTEAD OF triggers"])
      model.isView = true
      return model
    }
    modelPositions = Dictionary(
      tables.enumerated().map { (SQLName.folded($1.tableName), $0) }, uniquingKeysWith: { first, _ in first })
    let migrations = MigrationFiles(directory: "Migrations", files: [("0001_imported_schema", baseline(source: source))])
    // Each round makes unmanaged the tables whose conventional model the generator rejects or
    // the planner would change, and an unmanaged model the generator rejects says its columns
    // only; a table can only go one way, so this ends.
    while true {
      let (swift, ranges) = ImportedModelRenderer.swift(tables, source: source)
      let comparison: MigrationPlanner.Comparison
      do {
        let models = try Generator(sources: [("ImportedModels.swift", swift)]).models(for: dialect)
        // SQLite refuses what the models' DDL says wrongly, such as an expression it cannot parse.
        comparison = try MigrationPlanner.compare(models, with: migrations, replay: .readingSchema)
      } catch let error as DiagnosticsError {
        var rejected: [String: [String]] = [:]
        for diagnostic in error.diagnostics where diagnostic.severity == .error {
          guard let table = ranges.first(where: { $0.range.contains(diagnostic.location.line) })?.table,
            let position = modelPositions[SQLName.folded(table)], !tables[position].saysColumnsOnly
          else { throw error }
          rejected[table, default: []].append(diagnostic.message)
        }
        for (table, messages) in rejected {
          let position = modelPositions[SQLName.folded(table)]!
          if tables[position].isUnmanaged {
            tables[position].sayColumnsOnly()
          } else {
            tables[position].unmanagedReasons = messages
          }
        }
        continue
      }
      let lines = MigrationRenderer(
        renames: comparison.renames, changes: comparison.changes, current: comparison.current, dialect: dialect.schemaDialect()
      ).changeLines
      let problems = comparison.changes.problems + comparison.renames.problems + comparison.unmanagedProblems
      guard lines.isEmpty, problems.isEmpty else {
        var changed: [String: [String]] = [:]
        for (table, line) in lines { changed[original(table), default: []].append("Strata's model would " + line) }
        for problem in problems { changed[original(problem.table), default: []].append(problem.message) }
        if changed.keys.contains(where: { model(of: $0)?.isUnmanaged ?? true }) {
          throw InputError(
            "the imported models do not reproduce the database's schema; please report this with the schema:\n"
              + changed.values.flatMap { $0 }.joined(separator: "\n"))
        }
        makeUnmanaged(changed)
        continue
      }
      collectNotes()
      return swift
    }
  }

  /// The tables as models for a data migration (``DataMigrationFile``), views left out: each
  /// table's model, `// @Unmanaged` (the migrations make the table; a data migration only reads
  /// and writes its rows), saying its columns' types alone where the generator refuses more. No
  /// planner compares them with the schema: they are not the module's models.
  mutating func frozenModels(source: String) throws -> String {
    let typeNames = Self.typeNames(for: introspection.schema.tables.map(\.name))
    tables = introspection.schema.tables.map { table in
      var model = conventionalModel(of: table, typeNames: typeNames)
      if !model.isUnmanaged { model.unmanagedReasons = ["the table as these migrations leave it, frozen"] }
      return model
    }
    modelPositions = Dictionary(
      tables.enumerated().map { (SQLName.folded($1.tableName), $0) }, uniquingKeysWith: { first, _ in first })
    while true {
      let (swift, ranges) = ImportedModelRenderer.swift(tables, source: source)
      do {
        _ = try Generator(sources: [("FrozenModels.swift", swift)]).models(for: dialect)
        return swift
      } catch let error as DiagnosticsError {
        for diagnostic in error.diagnostics where diagnostic.severity == .error {
          guard let table = ranges.first(where: { $0.range.contains(diagnostic.location.line) })?.table,
            let position = modelPositions[SQLName.folded(table)], !tables[position].saysColumnsOnly
          else { throw error }
          tables[position].sayColumnsOnly()
        }
      }
    }
  }

  /// The model of the table or view called `name`, as SQLite compares names.
  private func model(of name: String) -> ImportedTable? {
    modelPositions[SQLName.folded(name)].map { tables[$0] }
  }

  /// The table's name as the database spells it.
  private func original(_ name: String) -> String {
    model(of: name)?.tableName ?? name
  }

  private mutating func makeUnmanaged(_ reasons: [String: [String]]) {
    for (name, why) in reasons {
      guard let index = modelPositions[SQLName.folded(name)] else { continue }
      tables[index].unmanagedReasons = why
    }
  }

  private mutating func collectNotes() {
    for table in tables where table.isView {
      notes.append("view \(NameRules.display(table.tableName)) is kept in the baseline and gets a read-only // @Unmanaged model, '\(table.typeName)'")
    }
    for table in tables where table.isUnmanaged && !table.isView {
      notes.append(
        "table \(NameRules.display(table.tableName)) is // @Unmanaged (its migrations make it as it is): "
          + table.unmanagedReasons.joined(separator: "; "))
    }
    for table in introspection.schema.tables {
      for column in introspection.generatedColumns[table.name] ?? [] {
        notes.append("table \(NameRules.display(table.name)): the generated column \(NameRules.display(column)) is not a property; read it with raw SQL")
      }
      for column in table.columns where NameRules.columnNameProblem(column.name) != nil {
        notes.append(
          "table \(NameRules.display(table.name)): the column \(NameRules.display(column.name)) is not a property: \(NameRules.columnNameProblem(column.name)!)")
      }
      let isUnmanaged = model(of: table.name)?.isUnmanaged ?? true
      // Models say a key on several columns (`@PrimaryKey(on:)`) and, when managed, unnamed CHECKs.
      let kept = table.constraints.filter { constraint in
        if case .primaryKey = constraint { return false }
        return isUnmanaged || !SchemaChanges.isModelCheck(constraint)
      }.map(SQLRenderer.constraint)
        + table.columns.flatMap(\.otherConstraints).map(SQLRenderer.constraint)
      if !kept.isEmpty {
        notes.append(
          "table \(NameRules.display(table.name)): \(kept.joined(separator: ", ")) \(kept.count == 1 ? "is" : "are") kept in the baseline; its model does not say \(kept.count == 1 ? "it" : "them")")
      }
      for index in table.indexes where !SchemaChanges.isConventional(index, of: table) {
        notes.append("index \(NameRules.display(index.name)) is kept in the baseline; the planner leaves it alone")
      }
    }
    if dialect == .postgresql {
      notes.append(
        "only the public schema's tables, indexes and views are read: triggers, functions, sequences and other schemas the database has are not in the baseline; add them to it by hand if a new database needs them")
    }
    let modeledViews = Set(views.map(\.name))
    for object in introspection.objects where !modeledViews.contains(object.name) {
      notes.append("\(object.kind.description) \(NameRules.display(object.name)) is kept in the baseline; models do not describe it")
    }
  }

  // MARK: Models

  /// The model in Strata's conventions, or an unmanaged one when something shows at once that
  /// no conventional model makes the table.
  private func conventionalModel(of table: TableSchema, typeNames: [String: String]) -> ImportedTable {
    let typeName = typeNames[table.name]!
    var reasons: [String] = []
    if !table.isStrict { reasons.append("it is not STRICT") }
    if table.isWithoutRowID { reasons.append("it is WITHOUT ROWID") }
    if introspection.generatedColumns[table.name] != nil { reasons.append("it has generated columns") }
    for column in table.columns {
      let name = NameRules.display(column.name)
      if NameRules.columnNameProblem(column.name) != nil { reasons.append("column \(name) cannot be a property") }
      if column.type == .any { reasons.append("column \(name) is ANY") }
      if column.collation?.isBuiltIn == false { reasons.append("column \(name) has a collation models cannot name") }
      if let reference = column.references {
        if reference.onUpdate != nil { reasons.append("column \(name) has an ON UPDATE action") }
        if referencedModel(reference, typeNames: typeNames) == nil {
          reasons.append("column \(name) references a column that is not a table's primary key")
        }
      }
    }
    return model(of: table, typeName: typeName, typeNames: typeNames, reasons: reasons)
  }

  /// A model that says everything a model can say of the table: its key, references and their
  /// actions, unique columns, indexes, defaults, collations and checks, with types read from the
  /// declared ones (`DATETIME` is a `Date`, `BOOLEAN` a `Bool`). An unmanaged model says them too
  /// (`reasons` say why it is unmanaged): taking it over then keeps every one of them.
  private func model(of table: TableSchema, typeName: String, typeNames: [String: String], reasons: [String]) -> ImportedTable {
    let names = Self.propertyNames(for: table)
    let singleKey = table.compositePrimaryKey.isEmpty ? table.columns.first { $0.primaryKey != nil }?.name : nil
    var columns: [ImportedColumn] = []
    for column in table.columns {
      guard let property = names[column.name] else { continue }
      let isKey = column.name == singleKey
      var stored = isUUIDKey(column) ? .uuid : dialect == .postgresql ? Self.postgreSQLType(column.type) : Self.affinityType(column.type)
      if let reference = column.references, referencedColumn(reference).map(isUUIDKey) == true { stored = .uuid }
      var type = stored
      var onDelete: ReferentialAction?
      if let reference = column.references, let target = referencedModel(reference, typeNames: typeNames) {
        type = .key(of: target)
        let conventional: ReferentialAction = column.isNotNull ? .cascade : .setNull
        if reference.onDelete ?? .noAction != conventional { onDelete = reference.onDelete ?? .noAction }
      }
      var imported = ImportedColumn(
        columnName: column.name, propertyName: property, type: type, isOptional: !column.isNotNull && !isKey,
        isPrimaryKey: isKey, defaultValue: isKey ? nil : Self.literal(column.defaultValue, for: type))
      if !isKey, imported.defaultValue == nil, let value = column.defaultValue {
        // What SQLite reports as the default reads back as the same default.
        if case .expression(let sql) = value { imported.rawDefault = sql } else { imported.rawDefault = value.sql }
      }
      imported.isUnique = column.isUnique && !isKey
      if column.collation?.isBuiltIn != false { imported.collation = column.collation }
      imported.onDelete = onDelete
      imported.storedType = stored
      columns.append(imported)
    }
    var indexes: [ImportedIndex] = []
    // The generator leaves out a foreign key's own index when a wider index or the key starts
    // with its column; a database that has one anyway keeps it through an explicit @Index.
    let leading = Set(
      (table.indexes.filter { $0.columns.count > 1 && $0.condition == nil && !$0.hasExpressions }.map(\.columns[0]) + table.compositePrimaryKey.prefix(1))
        .map(SQLName.folded))
    for index in table.indexes where SchemaChanges.isConventional(index, of: table) {
      let properties = index.columns.compactMap { column in
        table.columns.first { SQLName.folded($0.name) == SQLName.folded(column) }.flatMap { names[$0.name] }
      }
      guard properties.count == index.columns.count else { continue }
      if properties.count == 1, !index.isUnique, index.condition == nil, let position = columns.firstIndex(where: { $0.propertyName == properties[0] }) {
        // A foreign key's index comes with the reference.
        if case .key = columns[position].type, !columns[position].isUnique, !columns[position].isPrimaryKey,
          !leading.contains(SQLName.folded(index.columns[0]))
        {
          continue
        }
        columns[position].isIndexed = true
      } else {
        indexes.append(ImportedIndex(properties: properties, isUnique: index.isUnique, condition: index.condition))
      }
    }
    var imported = ImportedTable(tableName: table.name, typeName: typeName, unmanagedReasons: reasons, columns: columns, indexes: indexes)
    let keyProperties = table.compositePrimaryKey.compactMap { key in
      table.columns.first { SQLName.folded($0.name) == SQLName.folded(key) }.flatMap { names[$0.name] }
    }
    if keyProperties.count == table.compositePrimaryKey.count { imported.compositeKey = keyProperties }
    imported.checks = table.constraints.filter(SchemaChanges.isModelCheck).compactMap(\.check?.expression)
    return imported
  }

  /// Whether a column is a key the database fills in with `uuid()`: text, so the model can read
  /// it as a `UUID`.
  private func isUUIDKey(_ column: ColumnSchema) -> Bool {
    if dialect == .postgresql { return column.type == .other("uuid") }
    return column.primaryKey != nil && column.type == .text && column.notNullOnConflict == .replace
      && column.defaultValue == SQLiteDialect.newUUID
  }

  /// The column a foreign key references.
  private func referencedColumn(_ reference: ForeignKey) -> ColumnSchema? {
    let table = tablesByName[SQLName.folded(reference.table)]
    return table?.columns.first { column in
      reference.column.isEmpty ? column.primaryKey != nil : SQLName.folded(column.name) == SQLName.folded(reference.column)
    }
  }

  /// The type of the model a foreign key references, when it references that table's
  /// single-column primary key.
  private func referencedModel(_ reference: ForeignKey, typeNames: [String: String]) -> String? {
    guard let table = tablesByName[SQLName.folded(reference.table)],
      let key = table.columns.first(where: { $0.primaryKey != nil }),
      table.compositePrimaryKey.isEmpty,
      reference.column.isEmpty || SQLName.folded(reference.column) == SQLName.folded(key.name)
    else { return nil }
    return typeNames[table.name]
  }

  /// The type of a view's column that declares none (an expression, `count(*)`), from the values
  /// the view holds: integers are INTEGER, numbers REAL, and so on; ANY when the values are of
  /// several kinds, or there are none to tell.
  private static func typeOfValues(in column: String, of view: String, _ database: SQLiteConnection) throws -> SQLType {
    let classes = Set(
      try database.rows(
        "SELECT DISTINCT typeof(\(SQLQuoting.identifier(column))) AS kind FROM \(SQLQuoting.identifier(view)) LIMIT 8"
      ).compactMap { $0["kind"] }.filter { $0 != "null" })
    switch classes {
    case ["integer"]: return .integer
    case ["real"], ["integer", "real"]: return .real
    case ["text"]: return .text
    case ["blob"]: return .blob
    default: return .any
    }
  }

  /// The Swift type for a column by SQLite's affinity rules, refined by the declared type's
  /// common names for booleans and dates; `StoredValue` for an ANY column, which holds any kind.
  static func affinityType(_ type: SQLType) -> ImportedType {
    let declared = type.sql.uppercased()
    if declared.contains("INT") { return .int }
    if ["CHAR", "CLOB", "TEXT"].contains(where: declared.contains) { return .string }
    if declared.isEmpty || declared.contains("BLOB") { return .data }
    if ["REAL", "FLOA", "DOUB"].contains(where: declared.contains) { return .double }
    if declared.hasPrefix("BOOL") { return .bool }
    if declared.hasPrefix("DATE") || declared.hasPrefix("TIME") { return .date }
    if declared == "ANY" { return .storedValue }
    return .double
  }

  /// The Swift type for a PostgreSQL column: the one whose column Strata declares with that
  /// type, or the nearest (`integer` reads as `Int`, `varchar(20)` as `String`), which the planner
  /// then finds different, making the table unmanaged.
  static func postgreSQLType(_ type: SQLType) -> ImportedType {
    let declared = type.sql.lowercased()
    if declared.hasPrefix("timestamp") || declared == "date" { return .date }
    if declared.contains("int") { return .int }
    if ["double precision", "real"].contains(declared) || declared.hasPrefix("numeric") { return .double }
    if declared == "boolean" { return .bool }
    if declared == "bytea" { return .data }
    if declared == "uuid" { return .uuid }
    return .string
  }

  /// A default the property can have as its initial value: a literal of its type. A number
  /// Swift cannot write as a literal (`1e999`, which SQLite keeps as infinity) stays SQL.
  private static func literal(_ value: ColumnDefault?, for type: ImportedType) -> ImportedDefault? {
    switch (value, type) {
    case (.text(let text)?, .string): .string(text)
    case (.integer(let digits)?, .int): Int64(digits).map(ImportedDefault.integer)
    case (.real(let digits)?, .double), (.integer(let digits)?, .double):
      Double(digits).flatMap { $0.isFinite ? ImportedDefault.real($0) : nil }
    case (.integer("0")?, .bool), (.keyword("FALSE")?, .bool): .bool(false)
    case (.integer("1")?, .bool), (.keyword("TRUE")?, .bool): .bool(true)
    default: nil
    }
  }

  // MARK: Names

  /// Types that a model named after them would hide from the models' own properties.
  private static let takenTypeNames: Set<String> = [
    "Table", "Selection", "Strata", "Foundation", "Date", "Data", "UUID", "String", "Int", "Double", "Bool",
    "Float", "Array", "Set", "Dictionary", "Optional", "Error", "Result", "Never", "Character", "URL", "Decimal",
    "JSON", "Any", "Self", "Type", "Protocol", "StrataMigrations",
  ]

  /// A type name for each table: the singular of its name in upper camel case, which the naming
  /// convention maps back to the table when it can; unique among the tables.
  static func typeNames(for tableNames: [String]) -> [String: String] {
    var taken = takenTypeNames
    var names: [String: String] = [:]
    for table in tableNames {
      let words = Self.words(table)
      var base = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
      if base.isEmpty || !SwiftLiteral.isPlainIdentifier(base) { base = "Table" + base }
      // The candidate whose conventional table name is this table's, if any.
      let candidates = singulars(of: base) + [base]
      var name = candidates.first { Naming.tableName(forType: $0) == table } ?? candidates[0]
      if taken.contains(name) { name += "Record" }
      names[table] = unique(name, among: &taken) { $0 }
    }
    return names
  }

  private static func singulars(of name: String) -> [String] {
    var candidates: [String] = []
    if name.hasSuffix("ies") { candidates.append(name.dropLast(3) + "y") }
    if name.hasSuffix("es") { candidates.append(String(name.dropLast(2))) }
    if name.hasSuffix("s"), !name.hasSuffix("ss") { candidates.append(String(name.dropLast())) }
    if name.hasSuffix("People") { candidates.append(name.dropLast(6) + "Person") }
    if name.hasSuffix("Children") { candidates.append(name.dropLast(8) + "Child") }
    return candidates.filter { !$0.isEmpty && SwiftLiteral.isPlainIdentifier($0) }
  }

  /// The words of a name: split at characters an identifier cannot hold, with the first kept
  /// as it is and camel case kept within words.
  private static func words(_ name: String) -> [String] {
    name.unicodeScalars.split { scalar in
      !(("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        || (scalar.value >= 0x80 && scalar.properties.isAlphabetic))
    }.map { String(String.UnicodeScalarView($0)) }
  }

  /// `name`, or `name2`, `name3`… the first that `taken` lacks (as `compared` spells names),
  /// which it then holds.
  private static func unique(
    _ name: String, among taken: inout Set<String>, compared: (String) -> String
  ) -> String {
    var candidate = name
    var counter = 2
    while taken.contains(compared(candidate)) {
      candidate = name + String(counter)
      counter += 1
    }
    taken.insert(compared(candidate))
    return candidate
  }

  /// Names of members Strata generates or Swift reserves, which a property may not take.
  private static let takenPropertyNames = ModelTranslator.generatedTableMembers.union(["primaryKey"])

  /// A property name for each column a model can read: the column's name when it is a plain
  /// identifier, otherwise its words in lower camel case; unique within the table.
  static func propertyNames(for table: TableSchema) -> [String: String] {
    var taken: Set<String> = []
    var names: [String: String] = [:]
    let hasKey = table.columns.contains { $0.primaryKey != nil } && table.compositePrimaryKey.isEmpty
    for column in table.columns where NameRules.columnNameProblem(column.name) == nil {
      var name = Naming.lowerCamelCased(column.name)
      // `created_at` reads as `createdAt` in Swift, with `@Column("created_at")`.
      if !SwiftLiteral.isPlainIdentifier(name) || name.contains("_") {
        let words = Self.words(name)
        name = words.enumerated().map { index, word in
          index == 0 ? Naming.lowerCamelCased(word) : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
        if name.isEmpty || !SwiftLiteral.isPlainIdentifier(name) { name = "column" + name }
      }
      // Names Swift or the schema language keep for themselves (a column `table`) get a suffix.
      if SwiftLiteral.reserved.contains(name) || takenPropertyNames.contains(name) || SchemaFileParser.reservedNames.contains(name) {
        name += "Value"
      }
      // `id` is the key by convention; a table whose key is another column keeps its `id`
      // column under another name.
      if name == "id", column.primaryKey == nil || !hasKey { name = "idValue" }
      names[column.name] = unique(name, among: &taken, compared: SQLName.folded)
    }
    return names
  }
}

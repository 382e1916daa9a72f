/// Turns the declarations of a module's files into models: which structs are tables and
/// selections, their columns and storage, keys, defaults and indexes, following the
/// conventions and the annotations. Every problem is a diagnostic at the line concerned.
///
/// The work is split by concern: annotations (`+Annotations`), tables and columns (`+Tables`),
/// storage and type lookup (`+Storage`), defaults (`+Defaults`), selections (`+Selections`),
/// access (`+Access`), and the checks that need every table (`SchemaRules`).
public struct ModelTranslator {
  let files: [SourceFileDeclarations]
  /// The database the migrations are for.
  let databaseDialect: DatabaseDialect
  /// How the database declares what the models ask for.
  let dialect: any SchemaDialect
  var diagnostics = Diagnostics()
  /// Every type declared in the files, by qualified name; extensions are kept apart.
  var declarations: [String: TypeDeclaration] = [:]
  var extensions: [String: [TypeDeclaration]] = [:]
  var topLevelTypealiases: [String: TypeSyntax] = [:]
  /// Tables by qualified Swift name, filled before columns are translated so that foreign keys
  /// can be resolved in any order.
  var tableNames: [String: String] = [:]
  var primaryKeys: [String: (property: PropertyDeclaration, scope: [String])] = [:]
  var enumsUsedAsColumns: [String: TypeDeclaration] = [:]
  /// The annotations of each model type and of each property of a model, read once.
  var typeOptions: [String: AnnotationOptions] = [:]
  var propertyOptions: [SourceLocation: AnnotationOptions] = [:]
  /// Tables whose key is being resolved, to stop at keys that reference each other in a circle.
  var resolvingKeys: Set<String> = []

  /// Translates the declarations a front-end read into models.
  ///
  /// - Throws: ``DiagnosticsError`` with every problem found.
  static func translate(_ files: [SourceFileDeclarations], for dialect: DatabaseDialect = .sqlite) throws -> ModelSet {
    var translator = ModelTranslator(files: files, dialect: dialect)
    return try translator.run()
  }

  private init(files: [SourceFileDeclarations], dialect: DatabaseDialect) {
    self.files = files
    self.databaseDialect = dialect
    self.dialect = dialect.schemaDialect()
  }

  private mutating func run() throws -> ModelSet {
    collectDeclarations()

    let ordered = files.flatMap(\.types).filter { $0.kind != .extension }
    var tableDeclarations: [TypeDeclaration] = []
    var selectionDeclarations: [TypeDeclaration] = []
    for type in ordered where declarations[type.qualifiedName] == type {
      let role = role(of: type)
      readAnnotations(of: type, role: role)
      switch role {
      case .table: tableDeclarations.append(type)
      case .selection: selectionDeclarations.append(type)
      case nil: break
      }
    }
    for type in extensions.values.flatMap({ $0 }) where declarations[type.name] == nil {
      if conformsToModelProtocol(type.inheritance) {
        diagnostics.error(
          "'\(type.name)' is extended with a model conformance, but it is not declared in the scanned files",
          at: type.location)
      }
    }
    let modelFiles = Set((tableDeclarations + selectionDeclarations).map(\.location.path))
    checkAnnotationsOutsideModels(modelFiles: modelFiles)

    for type in tableDeclarations {
      tableNames[type.qualifiedName] = tableName(of: type)
      if let key = primaryKeyProperty(of: type) {
        primaryKeys[type.qualifiedName] = (key, type.scope + [type.name])
      }
    }
    checkDuplicateTableNames(tableDeclarations)
    // Every table's generated code declares and names a nested `Draft`, which a model of that
    // name would hide, with errors far from the cause.
    for type in tableDeclarations + selectionDeclarations where type.name == "Draft" {
      diagnostics.error(
        "a model cannot be named 'Draft': it is the name of every table's generated draft type; rename it (the table's name can stay, with @Table(\"drafts\"))",
        at: type.location)
    }

    var tables: [TableModel] = []
    var stored: [(model: TableModel, type: TypeDeclaration, schema: TableSchema)] = []
    for type in tableDeclarations {
      if let (model, schema) = translateTable(type) {
        tables.append(model)
        stored.append((model, type, schema))
      }
    }
    // Each database names its tables and indexes on its own: the main one and each attached one
    // may have a table of the same name.
    let databases = Dictionary(grouping: stored.filter { $0.model.kind == .table }, by: \.model.schemaName)
      .mapValues { members in (models: members.map(\.model), schemas: members.map(\.schema)) }
    for database in databases.values {
      SchemaRules.check(tables: database.models, schemas: database.schemas, diagnostics: &diagnostics)
    }
    let mainTables = databases[nil]?.schemas ?? []
    checkWhatTheDatabaseHolds(stored.map { ($0.model, $0.schema) })
    let captures = syncCaptures(&stored)
    for (index, entry) in stored.enumerated() { tables[index].sync = entry.model.sync }
    var (objects, objectLocations) = declaredObjects(stored, tables: mainTables)
    objects += captures
    let selections = selectionDeclarations.compactMap { translateSelection($0) }
    var databaseFunctions: [DatabaseFunctionModel] = []
    for function in files.flatMap(\.databaseFunctions) { databaseFunctions.append(translateDatabaseFunction(function)) }
    let enums = enumsUsedAsColumns.values
      .filter { !conforms($0, to: ["QueryBindable"]) }
      .sorted { $0.qualifiedName < $1.qualifiedName }
      .map { EnumModel(swiftName: $0.qualifiedName, location: $0.location, access: memberAccess(of: $0)) }

    // What the front-end could not read is an error in a file that declares models, where it
    // may hide a column; elsewhere the compiler reports it, and it only warns.
    for file in files {
      for diagnostic in file.beyondLimits {
        diagnostics.error(diagnostic.message, at: diagnostic.location)
      }
      for diagnostic in file.diagnostics.all {
        if modelFiles.contains(file.path) {
          diagnostics.error(diagnostic.message, at: diagnostic.location)
        } else {
          diagnostics.warning("\(diagnostic.message) (Strata reads this file for models and may have missed some)", at: diagnostic.location)
        }
      }
    }
    if diagnostics.hasErrors {
      throw DiagnosticsError(diagnostics.sorted)
    }
    var models = ModelSet(
      tables: tables, selections: selections, bindableEnums: enums,
      schema: Schema(tables: SchemaRules.creationOrder(mainTables), objects: objects), warnings: diagnostics.sorted)
    for case (let name?, let database) in databases {
      models.attachedSchemas[name] = Schema(tables: SchemaRules.creationOrder(database.schemas), objects: [])
    }
    models.objectLocations = objectLocations
    models.functions = files.flatMap(\.functions) + databaseFunctions.map {
      AppFunction(name: $0.sqlName, isAggregate: $0.aggregate != nil, location: $0.location)
    }
    models.databaseFunctions = databaseFunctions
    return models
  }

  /// What a model asks for that the database cannot hold: a problem of the dialect's at the
  /// property or the model, and, for PostgreSQL, the objects only SQLite's migrations make.
  private mutating func checkWhatTheDatabaseHolds(_ tables: [(model: TableModel, schema: TableSchema)]) {
    for (model, schema) in tables {
      for problem in dialect.problems(in: schema) {
        let property = model.columns.first { $0.columnName == problem.column }
        diagnostics.error(problem.message, at: property?.location ?? model.location)
      }
      guard databaseDialect == .postgresql else { continue }
      let options = typeOptions[model.swiftName] ?? AnnotationOptions()
      let unsupported: String? = switch model.kind {
      case .fullTextIndex: "an FTS5 full-text index, which is SQLite's"
      case .view where !options.triggers.isEmpty: "a view with triggers (@Trigger) in SQLite's syntax"
      case .view: nil
      case .table where !options.triggers.isEmpty: "triggers (@Trigger) in SQLite's syntax"
      case .table where model.schemaName != nil: "in an attached database, which PostgreSQL does not have (use a schema of one database in a hand-written migration)"
      case .table: nil
      }
      if let unsupported {
        diagnostics.error(
          "'\(model.swiftName)' is \(unsupported); the target's migrations are for PostgreSQL (strata.json), so declare it in a hand-written migration and mark the model // @Unmanaged",
          at: model.location)
      }
    }
  }

  private mutating func collectDeclarations() {
    for file in files {
      topLevelTypealiases.merge(file.typealiases) { first, _ in first }
      for type in file.types {
        if type.kind == .extension {
          extensions[type.qualifiedName, default: []].append(type)
        } else if let existing = declarations[type.qualifiedName] {
          if !(existing.isConditional && type.isConditional) {
            diagnostics.error(
              "'\(type.qualifiedName)' is declared twice (also at \(existing.location.path):\(existing.location.line))",
              at: type.location)
          }
        } else {
          declarations[type.qualifiedName] = type
        }
      }
    }
  }

  // MARK: Roles

  enum Role { case table, selection }

  func conformances(of type: TypeDeclaration) -> [TypeSyntax] {
    type.inheritance + (extensions[type.qualifiedName] ?? []).flatMap(\.inheritance)
  }

  /// Whether the model is an FTS5 full-text index (`struct ItemText: FTS5`).
  func isFullTextIndex(_ type: TypeDeclaration) -> Bool {
    conforms(type, to: ["FTS5"])
  }

  func conforms(_ type: TypeDeclaration, to names: Set<String>) -> Bool {
    conformances(of: type).contains { $0.strataName.map(names.contains) ?? false }
  }

  private func conformsToModelProtocol(_ inheritance: [TypeSyntax]) -> Bool {
    inheritance.contains {
      ["Table", "FTS5", "Selection"].contains($0.strataName ?? "")
    }
  }

  private mutating func role(of type: TypeDeclaration) -> Role? {
    let isTable = conforms(type, to: ["Table"]) || isFullTextIndex(type)
    let isSelection = conforms(type, to: ["Selection"])
    guard isTable || isSelection else { return nil }
    let protocolName = isTable ? "Table" : "Selection"
    if isTable && isSelection {
      diagnostics.error("'\(type.qualifiedName)' cannot be both a Table and a Selection", at: type.location)
      return nil
    }
    // An enum stores its cases in one table's columns (`enum Kind: Selection { case note(String) }`).
    guard type.kind == .struct || type.kind == .enum && isSelection else {
      diagnostics.error(
        "'\(type.qualifiedName)' is \(type.kind == .enum || type.kind == .actor ? "an" : "a") \(type.kind.rawValue); a \(protocolName) must be a struct\(isSelection ? " or an enum" : "")",
        at: type.location)
      return nil
    }
    if type.isGeneric {
      diagnostics.error("a \(protocolName) cannot be generic: '\(type.qualifiedName)' has generic parameters", at: type.location)
      return nil
    }
    if let access = effectiveAccess(of: type), access <= .fileprivate {
      diagnostics.error(
        "'\(type.qualifiedName)' is \(access.rawValue); the generated conformance is in another file, so a \(protocolName) must be at least internal",
        at: type.location)
      return nil
    }
    if let name = (type.scope + [type.name]).first(where: { !SwiftLiteral.isPlainIdentifier($0) }) {
      diagnostics.error(
        "'\(type.qualifiedName)': the generated code names this type, and the name \(NameRules.display(name)) is not a plain Swift identifier; rename the type",
        at: type.location)
      return nil
    }
    for member in type.unread {
      diagnostics.error("\(member.reason) in \(protocolName) '\(type.qualifiedName)'", at: member.location)
    }
    return isTable ? .table : .selection
  }
}

/// Turns the declarations of a module's files into models: which structs are tables and
/// selections, their columns and storage, keys, defaults and indexes, following the
/// conventions and the annotations. Every problem is a diagnostic at the line concerned.
public struct ModelTranslator {
  private let files: [SourceFileDeclarations]
  private var diagnostics = Diagnostics()
  /// Every type declared in the files, by qualified name; extensions are kept apart.
  private var declarations: [String: TypeDeclaration] = [:]
  private var extensions: [String: [TypeDeclaration]] = [:]
  private var topLevelTypealiases: [String: TypeSyntax] = [:]
  /// Tables by qualified Swift name, filled before columns are translated so that foreign keys
  /// can be resolved in any order.
  private var tableNames: [String: String] = [:]
  private var primaryKeys: [String: (property: PropertyDeclaration, scope: [String])] = [:]
  private var enumsUsedAsColumns: [String: TypeDeclaration] = [:]

  /// Reads Swift sources and translates their models.
  ///
  /// - Parameter sources: Pairs of file path and contents; paths appear in diagnostics.
  public static func translate(sources: [(path: String, contents: String)]) throws -> ModelSet {
    let files = sources.map { SwiftParser.parse($0.contents, path: $0.path) }
    var translator = ModelTranslator(files: files)
    return try translator.run()
  }

  private init(files: [SourceFileDeclarations]) {
    self.files = files
  }

  private mutating func run() throws -> ModelSet {
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

    let ordered = files.flatMap(\.types).filter { $0.kind != .extension }
    var tableDeclarations: [TypeDeclaration] = []
    var selectionDeclarations: [TypeDeclaration] = []
    for type in ordered where declarations[type.qualifiedName] == type {
      validateAnnotations(on: type)
      let role = role(of: type)
      switch role {
      case .table: tableDeclarations.append(type)
      case .selection: selectionDeclarations.append(type)
      case .none: rejectMisplacedAnnotations(on: type)
      }
    }
    for type in extensions.values.flatMap({ $0 }) where declarations[type.name] == nil {
      if conformsToModelProtocol(type.inheritance) {
        diagnostics.error(
          "'\(type.name)' is extended with a model conformance, but it is not declared in the scanned files",
          at: type.location)
      }
    }

    for type in tableDeclarations {
      tableNames[type.qualifiedName] = tableName(of: type)
      if let key = primaryKeyProperty(of: type) {
        primaryKeys[type.qualifiedName] = (key, type.scope + [type.name])
      }
    }
    checkDuplicateTableNames(tableDeclarations)

    var tables: [TableModel] = []
    var tableSchemas: [TableSchema] = []
    for type in tableDeclarations {
      if let (model, schema) = translateTable(type) {
        tables.append(model)
        tableSchemas.append(schema)
      }
    }
    let selections = selectionDeclarations.compactMap { translateSelection($0) }
    let enums = enumsUsedAsColumns.values
      .filter { !conforms($0, to: ["QueryBindable", "Strata.QueryBindable"]) }
      .sorted { $0.qualifiedName < $1.qualifiedName }
      .map { EnumModel(swiftName: $0.qualifiedName, location: $0.location, access: memberAccess(of: $0)) }

    // What the front-end could not read is an error in a file that declares models, where it
    // may hide a column; elsewhere the compiler reports it, and it only warns.
    let modelFiles = Set((tableDeclarations + selectionDeclarations).map(\.location.path))
    for file in files {
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
    return ModelSet(
      tables: tables, selections: selections, bindableEnums: enums,
      schema: Schema(tables: Self.creationOrder(tableSchemas)), warnings: diagnostics.sorted)
  }

  // MARK: Roles

  private enum Role { case table, selection }

  private func conformances(of type: TypeDeclaration) -> [TypeSyntax] {
    type.inheritance + (extensions[type.qualifiedName] ?? []).flatMap(\.inheritance)
  }

  private func conforms(_ type: TypeDeclaration, to names: Set<String>) -> Bool {
    conformances(of: type).contains { $0.dottedName.map(names.contains) ?? false }
  }

  private func conformsToModelProtocol(_ inheritance: [TypeSyntax]) -> Bool {
    inheritance.contains {
      ["Table", "Strata.Table", "Selection", "Strata.Selection"].contains($0.dottedName ?? "")
    }
  }

  private mutating func role(of type: TypeDeclaration) -> Role? {
    let isTable = conforms(type, to: ["Table", "Strata.Table"])
    let isSelection = conforms(type, to: ["Selection", "Strata.Selection"])
    guard isTable || isSelection else { return nil }
    let protocolName = isTable ? "Table" : "Selection"
    if isTable && isSelection {
      diagnostics.error("'\(type.qualifiedName)' cannot be both a Table and a Selection", at: type.location)
      return nil
    }
    guard type.kind == .struct else {
      diagnostics.error(
        "'\(type.qualifiedName)' is a \(type.kind.rawValue); a \(protocolName) must be a struct",
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
    for member in type.unread {
      diagnostics.error("\(member.reason) in \(protocolName) '\(type.qualifiedName)'", at: member.location)
    }
    return isTable ? .table : .selection
  }

  // MARK: Tables

  private mutating func tableName(of type: TypeDeclaration) -> String {
    if let annotation = type.annotations.first(where: { $0.name == "Table" }) {
      if case .string(let name)? = annotation.arguments.first?.value, annotation.arguments.count == 1,
        annotation.arguments[0].label == nil, !name.isEmpty
      {
        return name
      }
      diagnostics.error(#"@Table takes the table's name: @Table("name")"#, at: annotation.location)
    }
    return Naming.tableName(forType: type.name)
  }

  private mutating func checkDuplicateTableNames(_ types: [TypeDeclaration]) {
    var seen: [String: TypeDeclaration] = [:]
    for type in types {
      let name = tableNames[type.qualifiedName]!
      if let other = seen[name.lowercased()] {
        diagnostics.error(
          "'\(type.qualifiedName)' and '\(other.qualifiedName)' both map to the table \"\(name)\"; rename one with @Table(\"…\")",
          at: type.location)
      } else {
        seen[name.lowercased()] = type
      }
    }
  }

  private func primaryKeyProperty(of type: TypeDeclaration) -> PropertyDeclaration? {
    let columns = type.properties.filter { isColumnCandidate($0) }
    return columns.first(where: isAnnotatedPrimaryKey) ?? columns.first { $0.name == "id" }
  }

  /// Whether the property is marked `// @Column(primaryKey: true)`.
  private func isAnnotatedPrimaryKey(_ property: PropertyDeclaration) -> Bool {
    property.annotations.contains { annotation in
      annotation.name == "Column"
        && annotation.arguments.contains { $0.label == "primaryKey" && $0.value == .bool(true) }
    }
  }

  private func isColumnCandidate(_ property: PropertyDeclaration) -> Bool {
    !property.isStatic && property.storage == .stored && !property.name.isEmpty
      && !property.annotations.contains { $0.name == "Ephemeral" }
  }

  private mutating func translateTable(_ type: TypeDeclaration) -> (TableModel, TableSchema)? {
    let tableName = tableNames[type.qualifiedName]!
    let scope = type.scope + [type.name]
    var columnModels: [ColumnModel] = []
    var columns: [ColumnSchema] = []
    var indexes: [IndexSchema] = []
    var primaryKeyIndex: Int?
    var columnNames: [String: SourceLocation] = [:]

    let annotatedKeys = type.properties.filter(isAnnotatedPrimaryKey)
    if annotatedKeys.count > 1 {
      diagnostics.error(
        "'\(type.qualifiedName)' has \(annotatedKeys.count) properties marked as primary key; composite keys are not supported",
        at: annotatedKeys[1].location)
    }
    let primaryKey = primaryKeys[type.qualifiedName]?.property

    for property in type.properties {
      guard let column = translateColumn(
        property, in: type, scope: scope, tableName: tableName,
        isPrimaryKey: property.name == primaryKey?.name && !property.name.isEmpty)
      else { continue }
      if let other = columnNames[column.schema.name] {
        diagnostics.error(
          "two properties of '\(type.qualifiedName)' map to the column \"\(column.schema.name)\" (also at line \(other.line))",
          at: property.location)
        continue
      }
      columnNames[column.schema.name] = property.location
      if column.schema.primaryKey != nil { primaryKeyIndex = columnModels.count }
      columnModels.append(column.model)
      columns.append(column.schema)
      indexes += column.indexes
    }
    guard !columns.isEmpty else {
      diagnostics.error("Table '\(type.qualifiedName)' has no stored properties to make columns of", at: type.location)
      return nil
    }
    let model = TableModel(
      swiftName: type.qualifiedName, location: type.location, access: memberAccess(of: type),
      tableName: tableName,
      columns: columnModels, primaryKeyIndex: primaryKeyIndex)
    return (model, TableSchema(name: tableName, columns: columns, indexes: indexes))
  }

  private struct TranslatedColumn {
    var model: ColumnModel
    var schema: ColumnSchema
    var indexes: [IndexSchema]
  }

  private mutating func translateColumn(
    _ property: PropertyDeclaration, in type: TypeDeclaration, scope: [String], tableName: String,
    isPrimaryKey: Bool
  ) -> TranslatedColumn? {
    guard !property.isStatic, property.storage == .stored else { return nil }
    let isEphemeral = property.annotations.contains { $0.name == "Ephemeral" }
    if isEphemeral {
      if property.initializer == nil {
        diagnostics.error(
          "@Ephemeral property '\(property.name)' needs a default value, which rows read from the database get",
          at: property.location)
      }
      return nil
    }
    guard !property.name.isEmpty else {
      diagnostics.error(
        "a tuple pattern cannot be a column; declare one property per column", at: property.location)
      return nil
    }
    if property.isConditional {
      diagnostics.error(
        "stored property '\(property.name)' is inside #if; a table's columns cannot depend on build settings (mark it // @Ephemeral or move it out)",
        at: property.location)
      return nil
    }
    if property.isLazy {
      diagnostics.error("lazy property '\(property.name)' cannot be a column; mark it // @Ephemeral", at: property.location)
      return nil
    }
    if let wrapper = property.attributes.first {
      diagnostics.error(
        "property '\(property.name)' has the attribute @\(wrapper); a column must be a plain stored property (mark it // @Ephemeral if it is not a column)",
        at: property.location)
      return nil
    }
    if property.isLet, property.initializer != nil {
      diagnostics.error(
        "'let \(property.name)' has an initial value, so it cannot be read from the database; make it 'var' or mark it // @Ephemeral",
        at: property.location)
      return nil
    }

    let options = columnOptions(property)
    guard let declaredType = property.type ?? inferredType(of: property) else {
      diagnostics.error(
        "cannot tell the type of '\(property.name)' from its initial value; add a type annotation",
        at: property.location)
      return nil
    }
    let (unwrapped, isOptional) = declaredType.unwrapped
    if case .optional = unwrapped {
      diagnostics.error("'\(property.name)' is a nested optional, which cannot be stored", at: property.location)
      return nil
    }
    guard let storage = self.storage(
      of: unwrapped, representation: options.representation, for: property, scope: scope)
    else { return nil }

    let columnName = options.name ?? property.name
    var column = ColumnSchema(name: columnName, type: storage.sqlType)
    column.collation = options.collation
    column.isUnique = options.isUnique
    var indexes: [IndexSchema] = []

    if isPrimaryKey {
      if isOptional {
        diagnostics.error(
          "primary key '\(property.name)' cannot be optional; the draft type makes it optional for inserts",
          at: property.location)
        return nil
      }
      switch storage.sqlType {
      case "INTEGER" where storage.isInteger:
        column.primaryKey = .init(isAutoincrement: true)
      case "TEXT" where storage.isUUID:
        column.primaryKey = .init()
        column.isNotNull = true
        column.notNullOnConflict = "REPLACE"
        column.defaultValue = "(uuid())"
      default:
        column.primaryKey = .init()
        column.isNotNull = true
      }
    } else {
      column.isNotNull = !isOptional
      if let initializer = property.initializer {
        column.defaultValue = sqlDefault(initializer.value, storage: storage, property: property)
      }
    }

    if let reference = options.reference ?? storage.reference {
      let action = options.onDelete ?? (isOptional ? "SET NULL" : "CASCADE")
      if action == "SET NULL", !isOptional {
        diagnostics.error(
          "'\(property.name)' is not optional, so deleting the referenced row cannot set it to NULL; use onDelete: .cascade or make it optional",
          at: property.location)
      }
      column.references = ForeignKey(table: reference.table, column: reference.column, onDelete: action)
      indexes.append(
        IndexSchema(
          name: IndexSchema.conventionalName(table: tableName, columns: [columnName]),
          table: tableName, columns: [columnName]))
    } else if options.onDelete != nil {
      diagnostics.error("onDelete needs a reference: @References(Other.self, onDelete: …)", at: property.location)
    }
    if options.isIndexed, !indexes.contains(where: { $0.columns == [columnName] }) {
      indexes.append(
        IndexSchema(
          name: IndexSchema.conventionalName(table: tableName, columns: [columnName]),
          table: tableName, columns: [columnName]))
    }

    let propertyType = declaredType.text
    let representation = options.representation?.text
    let model = ColumnModel(
      propertyName: property.name, access: memberAccess(of: property, in: type),
      typeAccess: typeAccess([declaredType] + (options.representation.map { [$0] } ?? []), from: scope),
      location: property.location, columnName: columnName,
      propertyType: propertyType,
      valueType: representation.map { isOptional ? $0 + "?" : $0 } ?? propertyType,
      representation: representation, isOptional: isOptional,
      defaultExpression: property.initializer?.text ?? (isOptional ? "nil" : nil))
    return TranslatedColumn(model: model, schema: column, indexes: indexes)
  }

  private func inferredType(of property: PropertyDeclaration) -> TypeSyntax? {
    switch property.initializer?.value {
    case .string?: return .named([.init(name: "String", arguments: [])])
    case .integer?: return .named([.init(name: "Int", arguments: [])])
    case .float?: return .named([.init(name: "Double", arguments: [])])
    case .bool?: return .named([.init(name: "Bool", arguments: [])])
    case .member(let type?, _)?, .call(let type)?:
      // Only a capitalized name is taken for a type: `Date()`, `Status.active`, not `compute()`.
      guard type.first?.isUppercase == true else { return nil }
      return .named(type.split(separator: ".").map { .init(name: String($0), arguments: []) })
    default: return nil
    }
  }

  // MARK: Storage

  private struct Storage {
    var sqlType: String
    var isInteger = false
    var isUUID = false
    var isBool = false
    var isText = false
    var enumCases: [EnumCase]?
    var enumRawType: String?
    var reference: (table: String, column: String)?
    var isJSON = false
  }

  private mutating func storage(
    of type: TypeSyntax, representation: TypeSyntax?, for property: PropertyDeclaration,
    scope: [String]
  ) -> Storage? {
    if let representation {
      guard let sqlType = StorageType.representationStorage(representation) else {
        diagnostics.error(
          "unknown representation '\(representation.text)'; known representations: \(StorageType.representationList)",
          at: property.location)
        return nil
      }
      var storage = Storage(sqlType: sqlType)
      storage.isJSON = representation.dottedName == nil
      return storage
    }
    return storage(of: type, for: property, scope: scope, seen: [])
  }

  private mutating func storage(
    of type: TypeSyntax, for property: PropertyDeclaration, scope: [String], seen: Set<String>
  ) -> Storage? {
    let cannotStore =
      "the generator cannot store '\(property.name): \(type.text)'; use a raw-value enum, a // @Column(as: …) representation (\(StorageType.representationList)), or mark it // @Ephemeral"
    switch type {
    case .array(let element) where element.dottedName == "UInt8":
      return Storage(sqlType: "BLOB")
    case .named(let components):
      let name = components.map(\.name).joined(separator: ".")
      if let sqlType = StorageType.builtIn[name], components.allSatisfy(\.arguments.isEmpty) {
        let last = components.last!.name
        return Storage(
          sqlType: sqlType, isInteger: sqlType == "INTEGER" && last != "Bool",
          isUUID: last == "UUID", isBool: last == "Bool", isText: last == "String")
      }
      // `Other.ID`: the key of another table.
      if components.count >= 2, components.last!.name == "ID", components.last!.arguments.isEmpty {
        let owner = components.dropLast().map(\.name).joined(separator: ".")
        if let table = resolve(owner, from: scope), let tableName = tableNames[table.qualifiedName] {
          guard let key = primaryKeys[table.qualifiedName], let keyType = key.property.type ?? inferredType(of: key.property)
          else {
            diagnostics.error(
              "'\(table.qualifiedName)' has no primary key for '\(property.name)' to reference", at: property.location)
            return nil
          }
          guard var storage = self.storage(of: keyType.unwrapped.type, for: key.property, scope: key.scope, seen: seen)
          else { return nil }
          storage.reference = (tableName, columnOptions(key.property).name ?? key.property.name)
          return storage
        }
      }
      guard !seen.contains(name) else {
        diagnostics.error("'\(name)' is defined in terms of itself", at: property.location)
        return nil
      }
      if let alias = typealiasTarget(name, from: scope) {
        return storage(of: alias, for: property, scope: scope, seen: seen.union([name]))
      }
      if let declaration = resolve(name, from: scope) {
        if declaration.kind == .enum, let rawType = declaration.inheritance.first?.dottedName,
          StorageType.rawValueTypes.contains(rawType), let sqlType = StorageType.builtIn[rawType]
        {
          enumsUsedAsColumns[declaration.qualifiedName] = declaration
          var storage = Storage(sqlType: sqlType)
          storage.enumCases = declaration.cases
          storage.enumRawType = rawType
          return storage
        }
        if conforms(declaration, to: ["QueryBindable", "Strata.QueryBindable"]) {
          diagnostics.error(
            "'\(name)' conforms to QueryBindable, but the generator cannot tell how it is stored; use a raw-value enum or a // @Column(as: …) representation",
            at: property.location)
          return nil
        }
        if tableNames[declaration.qualifiedName] != nil
          || conforms(declaration, to: ["Selection", "Strata.Selection"])
        {
          diagnostics.error(
            "'\(property.name)' is a whole \(name); a table column must be a value (use \(name).ID to reference it)",
            at: property.location)
          return nil
        }
      }
      diagnostics.error(cannotStore, at: property.location)
      return nil
    case .array, .dictionary:
      diagnostics.error(
        "'\(property.name): \(type.text)' has no storage of its own; store it as JSON with // @Column(as: JSONRepresentation<\(type.text)>.self)",
        at: property.location)
      return nil
    default:
      diagnostics.error(cannotStore, at: property.location)
      return nil
    }
  }

  /// Finds a declared type by name as Swift would from inside `scope`: innermost scope first.
  private func resolve(_ name: String, from scope: [String]) -> TypeDeclaration? {
    var prefix = scope
    while true {
      if let declaration = declarations[(prefix + [name]).joined(separator: ".")] {
        return declaration
      }
      guard !prefix.isEmpty else { return nil }
      prefix.removeLast()
    }
  }

  private func typealiasTarget(_ name: String, from scope: [String]) -> TypeSyntax? {
    var prefix = scope
    while !prefix.isEmpty {
      if let declaration = declarations[prefix.joined(separator: ".")],
        let target = declaration.typealiases[name]
      {
        return target
      }
      for extensionDeclaration in extensions[prefix.joined(separator: ".")] ?? [] {
        if let target = extensionDeclaration.typealiases[name] { return target }
      }
      prefix.removeLast()
    }
    return topLevelTypealiases[name]
  }

  // MARK: Defaults

  /// The SQL `DEFAULT` for a literal Swift default, or nil when the default is not a literal.
  private mutating func sqlDefault(
    _ value: ExpressionValue, storage: Storage, property: PropertyDeclaration
  ) -> String? {
    if let cases = storage.enumCases, let rawType = storage.enumRawType {
      guard case .member(_, let name) = value else { return nil }
      return enumRawValueSQL(case: name, cases: cases, rawType: rawType)
    }
    switch value {
    case .string(let text) where storage.isText:
      return SQLLiteral.string(text)
    case .integer(let digits) where storage.sqlType == "INTEGER" && !storage.isBool:
      return Self.normalizedInteger(digits)
    case .integer(let digits) where storage.sqlType == "REAL":
      return Self.normalizedInteger(digits).map { $0 + ".0" }
    case .float(let digits) where storage.sqlType == "REAL":
      return digits.replacing("_", with: "")
    case .bool(let flag) where storage.isBool:
      return flag ? "1" : "0"
    case .emptyArray where storage.isJSON:
      return "'[]'"
    case .emptyDictionary where storage.isJSON:
      return "'{}'"
    default:
      return nil
    }
  }

  private static func normalizedInteger(_ digits: String) -> String? {
    let clean = digits.replacing("_", with: "")
    let negative = clean.hasPrefix("-")
    let body = negative ? String(clean.dropFirst()) : clean
    let value: Int64?
    if body.hasPrefix("0x") {
      value = Int64(body.dropFirst(2), radix: 16)
    } else if body.hasPrefix("0b") {
      value = Int64(body.dropFirst(2), radix: 2)
    } else if body.hasPrefix("0o") {
      value = Int64(body.dropFirst(2), radix: 8)
    } else {
      value = Int64(body)
    }
    return value.map { String(negative ? -$0 : $0) }
  }

  private func enumRawValueSQL(case name: String, cases: [EnumCase], rawType: String) -> String? {
    var nextInteger: Int64 = 0
    for enumCase in cases {
      var raw: String?
      switch enumCase.rawValue {
      case .string(let text)?:
        raw = SQLLiteral.string(text)
      case .integer(let digits)?:
        if let value = Self.normalizedInteger(digits).flatMap({ Int64($0) }) {
          raw = String(value)
          nextInteger = value + 1
        }
      case .float(let digits)?:
        raw = digits
      case nil:
        if rawType == "String" {
          raw = SQLLiteral.string(enumCase.name)
        } else if StorageType.builtIn[rawType] == "INTEGER" {
          raw = String(nextInteger)
          nextInteger += 1
        }
      default:
        raw = nil
      }
      if enumCase.name == name { return raw }
    }
    return nil
  }

  // MARK: Annotations

  private struct ColumnOptions {
    var name: String?
    var representation: TypeSyntax?
    var collation: String?
    var isUnique = false
    var isIndexed = false
    var reference: (table: String, column: String)?
    var onDelete: String?
  }

  private func columnOptions(_ property: PropertyDeclaration) -> ColumnOptions {
    var options = ColumnOptions()
    for annotation in property.annotations {
      switch annotation.name {
      case "Column":
        for argument in annotation.arguments {
          switch (argument.label, argument.value) {
          case (nil, .string(let name)): options.name = name
          case ("as", .type(let type)): options.representation = type
          case ("collate", .member(let name)): options.collation = name.uppercased()
          default: break
          }
        }
      case "Unique":
        options.isUnique = true
      case "Index":
        options.isIndexed = true
      case "References":
        for argument in annotation.arguments {
          switch (argument.label, argument.value) {
          case (nil, .type(let type)):
            if let name = type.dottedName, let table = resolve(name, from: []),
              let tableName = tableNames[table.qualifiedName]
            {
              let key = primaryKeys[table.qualifiedName]?.property
              options.reference = (tableName, key.map { columnOptions($0).name ?? $0.name } ?? "id")
            }
          case ("onDelete", .member(let action)):
            options.onDelete = Self.referentialActions[action]
          default: break
          }
        }
      default:
        break
      }
    }
    return options
  }

  static let referentialActions = [
    "cascade": "CASCADE", "setNull": "SET NULL", "setDefault": "SET DEFAULT",
    "restrict": "RESTRICT", "noAction": "NO ACTION",
  ]

  private static let annotationHelp =
    #"@Table("name"), @Column("name"), @Column(primaryKey: true), @Column(as: Representation.self), @Column(collate: .nocase), @Unique, @Index, @References(Other.self, onDelete: .cascade), @Ephemeral"#

  /// Checks every annotation's name and arguments, on a type and its properties.
  private mutating func validateAnnotations(on type: TypeDeclaration) {
    for annotation in type.annotations {
      if annotation.name != "Table" {
        annotationError(annotation, "@\(annotation.name) does not apply to a type")
      }
    }
    for property in type.properties {
      for annotation in property.annotations {
        validatePropertyAnnotation(annotation, on: property)
      }
    }
  }

  private mutating func validatePropertyAnnotation(_ annotation: Annotation, on property: PropertyDeclaration) {
    switch annotation.name {
    case "Column":
      if annotation.arguments.isEmpty {
        annotationError(annotation, "@Column needs an argument")
      }
      for argument in annotation.arguments {
        switch (argument.label, argument.value) {
        case (nil, .string(let name)) where !name.isEmpty: break
        case ("primaryKey", .bool): break
        case ("as", .type): break
        case ("collate", .member(let name)) where ["nocase", "binary", "rtrim"].contains(name): break
        case ("collate", _):
          annotationError(annotation, "@Column(collate:) takes .nocase, .binary or .rtrim", at: argument.location)
        default:
          annotationError(annotation, "@Column does not take this argument", at: argument.location)
        }
      }
    case "Unique", "Index", "Ephemeral":
      if !annotation.arguments.isEmpty {
        annotationError(annotation, "@\(annotation.name) takes no arguments")
      }
    case "References":
      var hasTable = false
      for argument in annotation.arguments {
        switch (argument.label, argument.value) {
        case (nil, .type(let type)):
          hasTable = true
          if let name = type.dottedName, let table = resolve(name, from: []),
            tableNames[table.qualifiedName] != nil || conforms(table, to: ["Table", "Strata.Table"])
          {
            continue
          }
          annotationError(annotation, "@References needs a table declared in the scanned files: '\(type.text)' is not one", at: argument.location)
        case ("onDelete", .member(let action)) where Self.referentialActions[action] != nil:
          break
        case ("onDelete", _):
          annotationError(
            annotation, "onDelete takes .cascade, .setNull, .setDefault, .restrict or .noAction", at: argument.location)
        default:
          annotationError(annotation, "@References does not take this argument", at: argument.location)
        }
      }
      if !hasTable {
        annotationError(annotation, "@References needs the referenced table: @References(Other.self)")
      }
    case "Table":
      annotationError(annotation, "@Table applies to a type, not a property")
    default:
      annotationError(annotation, "unknown annotation @\(annotation.name)")
    }
  }

  private mutating func annotationError(
    _ annotation: Annotation, _ message: String, at location: SourceLocation? = nil
  ) {
    diagnostics.error("\(message); valid annotations: \(Self.annotationHelp)", at: location ?? annotation.location)
  }

  /// Annotations on a type that is not a model have nothing to apply to.
  private mutating func rejectMisplacedAnnotations(on type: TypeDeclaration) {
    for annotation in type.annotations where annotation.name == "Table" {
      diagnostics.error(
        "@Table on '\(type.qualifiedName)', which does not conform to Table", at: annotation.location)
    }
  }

  // MARK: Selections

  private mutating func translateSelection(_ type: TypeDeclaration) -> SelectionModel? {
    let scope = type.scope + [type.name]
    var fields: [FieldModel] = []
    for property in type.properties where !property.isStatic && property.storage == .stored {
      if property.annotations.contains(where: { $0.name == "Ephemeral" }) {
        if property.initializer == nil {
          diagnostics.error("@Ephemeral property '\(property.name)' needs a default value", at: property.location)
        }
        continue
      }
      guard !property.name.isEmpty else {
        diagnostics.error("a tuple pattern cannot be a field of a Selection", at: property.location)
        continue
      }
      if property.isConditional {
        diagnostics.error("field '\(property.name)' is inside #if; a Selection's fields cannot depend on build settings", at: property.location)
        continue
      }
      if property.isLet, property.initializer != nil {
        diagnostics.error(
          "'let \(property.name)' has an initial value, so it cannot be read from a query; make it 'var' or mark it // @Ephemeral",
          at: property.location)
        continue
      }
      guard let declaredType = property.type ?? inferredType(of: property) else {
        diagnostics.error("cannot tell the type of '\(property.name)'; add a type annotation", at: property.location)
        continue
      }
      let (unwrapped, isOptional) = declaredType.unwrapped
      let representation = columnOptions(property).representation
      if let representation {
        guard StorageType.representationStorage(representation) != nil else {
          diagnostics.error(
            "unknown representation '\(representation.text)'; known representations: \(StorageType.representationList)",
            at: property.location)
          continue
        }
      } else if let name = unwrapped.dottedName, let declaration = resolve(name, from: scope),
        tableNames[declaration.qualifiedName] != nil || conforms(declaration, to: ["Selection", "Strata.Selection"])
      {
        // A whole table or a nested selection.
      } else if storage(of: unwrapped, for: property, scope: scope, seen: []) == nil {
        continue
      }
      let valueType = representation.map(\.text) ?? unwrapped.text
      fields.append(
        FieldModel(
          name: property.name, access: memberAccess(of: property, in: type),
          typeAccess: typeAccess([declaredType] + (representation.map { [$0] } ?? []), from: scope),
          valueType: isOptional ? valueType + "?" : valueType,
          unwrappedValueType: valueType, isOptional: isOptional))
    }
    if fields.isEmpty {
      diagnostics.error("Selection '\(type.qualifiedName)' has no stored properties", at: type.location)
      return nil
    }
    return SelectionModel(
      swiftName: type.qualifiedName, location: type.location, access: memberAccess(of: type), fields: fields)
  }

  // MARK: Access

  /// The access of a type, limited by its enclosing types; nil when it is internal.
  private func effectiveAccess(of type: TypeDeclaration) -> AccessLevel? {
    var access = type.accessLevel ?? .internal
    var scope = type.scope
    while !scope.isEmpty {
      if let enclosing = declarations[scope.joined(separator: ".")] {
        access = min(access, enclosing.accessLevel ?? .internal)
      }
      scope.removeLast()
    }
    return access
  }

  private func memberAccess(of type: TypeDeclaration) -> MemberAccess {
    Self.memberAccess(effectiveAccess(of: type))
  }

  private func memberAccess(of property: PropertyDeclaration, in type: TypeDeclaration) -> MemberAccess {
    min(memberAccess(of: type), Self.memberAccess(property.accessLevel ?? .internal))
  }

  /// The lowest access among the types declared in the scanned files that `types` name; types
  /// from other modules are public.
  private func typeAccess(_ types: [TypeSyntax], from scope: [String]) -> MemberAccess {
    var access = MemberAccess.public
    func visit(_ type: TypeSyntax) {
      switch type {
      case .named(let components):
        var name: [String] = []
        for component in components {
          name.append(component.name)
          if let declaration = resolve(name.joined(separator: "."), from: scope) {
            access = min(access, memberAccess(of: declaration))
          }
          component.arguments.forEach(visit)
        }
      case .optional(let wrapped), .implicitlyUnwrapped(let wrapped), .array(let wrapped):
        visit(wrapped)
      case .dictionary(let key, let value):
        visit(key)
        visit(value)
      case .unsupported:
        break
      }
    }
    types.forEach(visit)
    return access
  }

  private static func memberAccess(_ level: AccessLevel?) -> MemberAccess {
    switch level {
    case .public?, .open?: return .public
    case .package?: return .package
    default: return .internal
    }
  }

  // MARK: Ordering

  /// Tables in declaration order, moved after the tables they reference.
  static func creationOrder(_ tables: [TableSchema]) -> [TableSchema] {
    var ordered: [TableSchema] = []
    var placed: Set<String> = []
    var visiting: Set<String> = []
    let byName = Dictionary(tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    func place(_ table: TableSchema) {
      guard !placed.contains(table.name), !visiting.contains(table.name) else { return }
      visiting.insert(table.name)
      for column in table.columns {
        if let target = column.references?.table, target != table.name, let referenced = byName[target] {
          place(referenced)
        }
      }
      visiting.remove(table.name)
      placed.insert(table.name)
      ordered.append(table)
    }
    tables.forEach(place)
    return ordered
  }
}

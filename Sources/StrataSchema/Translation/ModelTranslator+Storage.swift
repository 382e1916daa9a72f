import StrataSQL

/// How a property's type is stored, and finding the types it names.
extension ModelTranslator {
  struct Storage {
    var valueType: ColumnValueType
    /// The built-in Swift type, without module: `Int8`, `String`, `UUID`.
    var builtIn: String?
    var enumDeclaration: TypeDeclaration?
    var enumRawType: String?
    /// The key this column references, with the key's collation, which the column shares so that
    /// comparing it with the key finds the rows the foreign key matched, and the attached
    /// database the key's table is in (nil for the main one): two databases may each have a table
    /// of that name.
    var reference: (table: String, column: String, collation: Collation?, database: String?)?
    /// The type the column stores through: the property's `@Column(as:)`, or the one of the key
    /// it references.
    var representation: TypeSyntax?

    var isJSON: Bool { representation != nil && representation?.dottedName == nil }
    var isInteger: Bool { valueType == .integer && builtIn != nil && representation == nil }
    var isUUID: Bool { builtIn == "UUID" && representation == nil }
    var isBool: Bool { builtIn == "Bool" && representation == nil }
    var isText: Bool { builtIn == "String" && representation == nil }
  }

  /// The declared type of a column with `storage`, as the dialect declares it.
  func sqlType(of storage: Storage) -> SQLType {
    dialect.columnType(for: storage.valueType)
  }

  /// Typealiases followed in a row before the generator gives up.
  static let maximumAliasChain = 32

  func inferredType(of property: PropertyDeclaration) -> TypeSyntax? {
    switch property.initializer?.value {
    case .string?: return .named([.init(name: "String", arguments: [])])
    case .integer?: return .named([.init(name: "Int", arguments: [])])
    case .float?: return .named([.init(name: "Double", arguments: [])])
    case .bool?: return .named([.init(name: "Bool", arguments: [])])
    case .member(let type?, _)?, .call(let type)?, .enumCase(let type?, _, _)?:
      // Only a capitalized name is taken for a type: `Date()`, `Status.active`, not `compute()`.
      guard type.first?.isUppercase == true else { return nil }
      return .named(type.split(separator: ".").map { .init(name: String($0), arguments: []) })
    default: return nil
    }
  }

  mutating func storage(
    of type: TypeSyntax, representation: TypeSyntax?, for property: PropertyDeclaration,
    scope: [String]
  ) -> Storage? {
    guard let representation else {
      return storage(of: type, for: property, scope: scope, seen: [])
    }
    guard let valueType = StorageType.representationStorage(representation) else {
      diagnostics.error(
        "unknown representation '\(representation.text)'; known representations: \(StorageType.representationList)",
        at: property.location)
      return nil
    }
    var storage = Storage(valueType: valueType, representation: representation)
    // `@Column(as: …) let otherID: Other.ID` still references the other table.
    if let table = referencedTable(by: type, from: scope), let key = referencedKey(of: table) {
      guard sqlType(of: key.storage) == sqlType(of: storage) else {
        diagnostics.error(
          "'\(property.name)' is stored as \(sqlType(of: storage).sql) through its representation, but the key of '\(table.qualifiedName)' it references is \(sqlType(of: key.storage).sql); store it the way the key is stored",
          at: property.location)
        return nil
      }
      storage.reference = (key.table, key.column, key.collation, key.database)
    }
    return storage
  }

  mutating func storage(
    of type: TypeSyntax, for property: PropertyDeclaration, scope: [String], seen: Set<String>
  ) -> Storage? {
    let cannotStore =
      "the generator cannot store '\(property.name): \(type.text)'; use a raw-value enum, a // @Column(as: …) representation (\(StorageType.representationList)), or mark it // @Ephemeral"
    switch type {
    case .array(let element) where element.dottedName == "UInt8":
      return Storage(valueType: .blob)
    case .named(let components):
      let name = components.map(\.name).joined(separator: ".")
      if let valueType = StorageType.builtIn[name], components.allSatisfy(\.arguments.isEmpty) {
        return Storage(valueType: valueType, builtIn: components.last!.name)
      }
      if let table = referencedTable(by: type, from: scope) {
        guard let key = referencedKey(of: table) else {
          if primaryKeys[table.qualifiedName] == nil {
            diagnostics.error(
              "'\(table.qualifiedName)' has no primary key for '\(property.name)' to reference", at: property.location)
          } else if let key = primaryKeys[table.qualifiedName], columnGroup(key.property, in: key.scope) != nil {
            diagnostics.error(
              "'\(property.name)' references '\(table.qualifiedName)', whose primary key is a column group; a reference is to one column, so store the key's fields as columns of their own",
              at: property.location)
          } else if resolvingKeys.isEmpty {
            diagnostics.error(
              "'\(property.name)' references the primary key of '\(table.qualifiedName)', which has no storage of its own: either its type cannot be stored, or primary keys reference each other in a circle",
              at: property.location)
          }
          return nil
        }
        var storage = key.storage
        storage.reference = (key.table, key.column, key.collation, key.database)
        return storage
      }
      guard !seen.contains(name) else {
        diagnostics.error("'\(name)' is defined in terms of itself", at: property.location)
        return nil
      }
      guard seen.count < Self.maximumAliasChain else {
        diagnostics.error(
          "'\(property.name)': more than \(Self.maximumAliasChain) typealiases in a row; name the type directly",
          at: property.location)
        return nil
      }
      if let alias = typealiasTarget(name, from: scope) {
        return storage(of: alias, for: property, scope: scope, seen: seen.union([name]))
      }
      if let declaration = resolve(name, from: scope) {
        if declaration.kind == .enum, let rawType = declaration.inheritance.first?.dottedName,
          StorageType.rawValueTypes.contains(rawType), let valueType = StorageType.builtIn[rawType]
        {
          enumsUsedAsColumns[declaration.qualifiedName] = declaration
          return Storage(valueType: valueType, enumDeclaration: declaration, enumRawType: rawType)
        }
        if conforms(declaration, to: ["QueryBindable"]) {
          diagnostics.error(
            "'\(name)' conforms to QueryBindable, but the generator cannot tell how it is stored; use a raw-value enum or a // @Column(as: …) representation",
            at: property.location)
          return nil
        }
        if tableNames[declaration.qualifiedName] != nil
          || conforms(declaration, to: ["Selection"])
        {
          diagnostics.error(
            "'\(property.name)' is a whole \(name); a table column must be a value (use \(name).ID to reference it)",
            at: property.location)
          return nil
        }
      }
      if components.count >= 2, components.last!.name == "ID", resolve(name, from: scope) == nil {
        // The models of another module (or of files the target does not compile) are not read:
        // their key's storage and table name are unknown here.
        let owner = components.dropLast().map(\.name).joined(separator: ".")
        if resolve(owner, from: scope) == nil, let suggestion = NearestName.among(tableNames.keys, to: owner) {
          diagnostics.error(
            "'\(property.name): \(type.text)': no type '\(owner)' is declared in this target (did you mean '\(suggestion)'?)",
            at: property.location)
        } else {
          diagnostics.error(
            "'\(property.name): \(type.text)': no model '\(owner)' is declared in this target; declare it here as a Table model, or, if it is another module's table, store its key's own type ('var \(property.name): UUID' or 'Int') without a foreign key, since Strata reads one target's models",
            at: property.location)
        }
        return nil
      }
      if resolve(name, from: scope) == nil, typealiasTarget(name, from: scope) == nil,
        let message = unknownType(name, for: property)
      {
        diagnostics.error(message, at: property.location)
        return nil
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

  /// The table whose key `type` names: `Game.ID`.
  func referencedTable(by type: TypeSyntax, from scope: [String]) -> TypeDeclaration? {
    guard case .named(let components) = type, components.count >= 2, components.last!.name == "ID",
      components.last!.arguments.isEmpty
    else { return nil }
    let owner = components.dropLast().map(\.name).joined(separator: ".")
    guard let table = resolve(owner, from: scope), tableNames[table.qualifiedName] != nil else { return nil }
    return table
  }

  /// A table's primary key column and how it is stored, or nil when it has none. Problems with
  /// the key itself are reported where the key is translated, not here.
  mutating func referencedKey(
    of table: TypeDeclaration
  ) -> (table: String, column: String, storage: Storage, collation: Collation?, database: String?)? {
    guard let tableName = tableNames[table.qualifiedName], let key = primaryKeys[table.qualifiedName],
      let keyType = key.property.type ?? inferredType(of: key.property)
    else { return nil }
    // Keys that are foreign keys to each other in a circle have no storage to find.
    guard !resolvingKeys.contains(table.qualifiedName) else { return nil }
    resolvingKeys.insert(table.qualifiedName)
    let keyOptions = options(of: key.property)
    let saved = diagnostics
    defer {
      diagnostics = saved
      resolvingKeys.remove(table.qualifiedName)
    }
    guard let storage = storage(of: keyType.unwrapped.type, representation: keyOptions.representation, for: key.property, scope: key.scope)
    else { return nil }
    let collation = sqlType(of: storage) == dialect.columnType(for: .text) ? keyOptions.collation ?? storage.reference?.collation : nil
    return (tableName, keyOptions.columnName ?? key.property.name, storage, collation, typeOptions[table.qualifiedName]?.schemaName)
  }

  /// Finds a declared type by name as Swift would from inside `scope`: innermost scope first.
  func resolve(_ name: String, from scope: [String]) -> TypeDeclaration? {
    var prefix = scope
    while true {
      if let declaration = declarations[(prefix + [name]).joined(separator: ".")] {
        return declaration
      }
      guard !prefix.isEmpty else { return nil }
      prefix.removeLast()
    }
  }

  func typealiasTarget(_ name: String, from scope: [String]) -> TypeSyntax? {
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
}

extension ModelTranslator {
  /// The message for a property whose type is declared nowhere the generator reads: a
  /// misspelling of a type it knows, or a type a schema file cannot name; nil for a type of
  /// another module (`CGPoint`, `UInt64`), which the general message covers.
  func unknownType(_ name: String, for property: PropertyDeclaration) -> String? {
    let isSchemaFile = property.location.path.hasSuffix(".strata")
    let builtIn = StorageType.builtIn.keys.filter { !$0.contains(".") }
    let known = builtIn + (isSchemaFile ? Array(SchemaFileParser.typeNames.keys) : []) + declarations.keys
    let suggestion = Self.standardTypes.contains(name) ? nil : NearestName.among(known, to: name, preferring: Self.commonTypes)
    if isSchemaFile {
      return "'\(property.name): \(name)': no type '\(name)' is declared in this target\(suggestion.map { " (did you mean '\($0)'?)" } ?? ""); a column's type is one of Int, Int8…Int64, UInt8…UInt32, Text, Double, Float, Bool, UUID, Date, Bytes, JSON<T>, a table's ID or an enum of the file"
    }
    return suggestion.map { "'\(property.name): \(name)': no type '\(name)' is declared in this target (did you mean '\($0)'?)" }
  }

  /// The types models store most, first: of two names as near a misspelling, the more common
  /// is suggested (`Dat` is `Date` before `Data`).
  private static let commonTypes = ["String", "Int", "Date", "Bool", "Double", "UUID", "Data", "Float", "Int64"]

  /// Types of the standard library and Foundation that the generator cannot store, which are
  /// not misspellings of one it can.
  private static let standardTypes: Set<String> = [
    "UInt", "UInt64", "Float16", "Float80", "Character", "Substring", "Decimal", "URL", "CGFloat", "CGPoint", "CGSize", "CGRect",
  ]

  /// What the runtime's decoder for `storage` reads beyond its SQL type.
  mutating func valueFormat(of storage: Storage) -> ValueFormat? {
    if let declaration = storage.enumDeclaration, let rawType = storage.enumRawType {
      let values = declaration.cases.compactMap { rawValueSQL(of: $0, in: declaration, rawType: rawType) }
      return values.count == declaration.cases.count ? .oneOf(values) : nil
    }
    if storage.isJSON, case .named(let components)? = storage.representation, let value = components.last?.arguments.first {
      switch value.unwrapped.type {
      case .array: return .json(.array)
      case .dictionary: return .json(.object)
      default: return .json(.any)
      }
    }
    switch storage.representation?.dottedName {
    case "UUID.BytesRepresentation", "Strata.UUID.BytesRepresentation": return .uuidBytes
    case nil where storage.representation == nil: break
    default: return nil
    }
    switch storage.builtIn {
    case "UUID": return .uuidText
    case "Date": return .dateText
    case let name?: return Self.integerRanges[name].map(ValueFormat.integers)
    case nil: return nil
    }
  }
}

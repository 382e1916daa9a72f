/// A schema file's declarations, as the translator reads them: the types the Swift models it
/// stands for declare (``SchemaFileRenderer`` writes those models for the build), built from the
/// syntax tree, with every location in the schema file. The translator sees a schema file and
/// the equivalent hand-written models as the same declarations, so both give the same schema,
/// migrations and conformances by construction.
struct SchemaFileDeclarations {
  private let path: String
  private var types: [TypeDeclaration] = []
  /// Types already read, by their Swift text: a file repeats a few types many times.
  private var typeCache: [String: TypeSyntax?] = [:]

  static func declarations(of file: SchemaFile) -> SourceFileDeclarations {
    var builder = SchemaFileDeclarations(path: file.path)
    for declaration in file.declarations {
      switch declaration {
      case .table(let table): builder.add(table)
      case .selection(let selection): builder.add(selection)
      case .enumeration(let enumeration): builder.add(enumeration)
      }
    }
    return SourceFileDeclarations(path: file.path, types: builder.types, typealiases: [:], diagnostics: Diagnostics())
  }

  private init(path: String) {
    self.path = path
  }

  // MARK: Tables

  private mutating func add(_ table: SchemaFile.Table) {
    let at = table.name.location
    var annotations: [Annotation] = []
    if let sqlName = table.sqlName { annotations.append(Self.annotation("Table", [(nil, .string(sqlName))], at: at)) }
    if let previous = table.previousName { annotations.append(Self.annotation("Renamed", [("from", .string(previous))], at: at)) }
    if table.isUnmanaged { annotations.append(Self.annotation("Unmanaged", [], at: at)) }
    if table.isSynced { annotations.append(Self.annotation("Synced", [], at: at)) }
    for (constraint, location) in table.constraints {
      switch constraint {
      case .primaryKey(let names):
        annotations.append(Self.annotation("PrimaryKey", [("on", .string(Self.list(names)))], at: location))
      case .check(let sql):
        annotations.append(Self.annotation("Check", [("raw", .string(sql))], at: location))
      }
    }
    for index in table.indexes {
      var arguments: [(String?, Annotation.Value)] = [("on", .string(Self.list(index.columns)))]
      if let condition = index.condition { arguments.append(("whereRaw", .string(condition))) }
      annotations.append(Self.annotation(index.isUnique ? "Unique" : "Index", arguments, at: index.location))
    }
    for annotation in table.kindAnnotations {
      annotations.append(
        Self.annotation(
          annotation.name,
          annotation.arguments.map { argument in
            switch argument.value {
            case .string(let text): (argument.label, .string(text))
            case .type(let name): (argument.label, .type(Self.named([name.text])))
            }
          }, at: annotation.location))
    }
    let key = table.key
    let access = Self.access(table.access)
    var type = Self.type(
      .struct, table.name.text, at: at, access: access,
      inheritance: [table.modelProtocol] + (key?.name.text == "id" ? ["Identifiable"] : []), annotations: annotations)
    type.properties = table.columns.map { column in
      property(column, access: access, isKey: column.name.text == key?.name.text, marksKey: table.marksKey)
    }
    types.append(type)
    if let key, key.name.text != "id" {
      // `Other.ID` names a key through `Identifiable`, as in hand-written models.
      var identifiable = Self.type(.extension, table.name.text, at: key.name.location, access: nil, inheritance: ["Identifiable"])
      identifiable.properties = [
        Self.property("id", at: key.name.location, isLet: false, access: access, type: typeSyntax(key.type), storage: .computed)
      ]
      types.append(identifiable)
    }
  }

  private mutating func property(
    _ column: SchemaFile.Column, access: AccessLevel?, isKey: Bool, marksKey: Bool
  ) -> PropertyDeclaration {
    let at = column.name.location
    var annotations: [Annotation] = []
    var arguments: [(String?, Annotation.Value)] = []
    if let sqlName = column.sqlName { arguments.append((nil, .string(sqlName))) }
    if isKey, marksKey, column.name.text != "id" { arguments.append(("primaryKey", .bool(true))) }
    if let collation = column.collation { arguments.append(("collate", .member(collation.swiftMember))) }
    if let representation = column.type.representation(column.representation).flatMap({ swiftType($0) }) {
      arguments.append(("as", .type(representation)))
    }
    if !arguments.isEmpty { annotations.append(Self.annotation("Column", arguments, at: at)) }
    if let sql = column.rawDefault { annotations.append(Self.annotation("Default", [("raw", .string(sql))], at: at)) }
    if let sql = column.backfill { annotations.append(Self.annotation("Backfill", [("raw", .string(sql))], at: at)) }
    if let sql = column.generated {
      annotations.append(
        Self.annotation("Generated", [("raw", .string(sql))] + (column.isStoredGenerated ? [("stored", .bool(true))] : []), at: at))
    }
    switch column.merge {
    case .custom(let function)?: annotations.append(Self.annotation("Merge", [("with", .string(function))], at: at))
    case let merge?: annotations.append(Self.annotation("Merge", [(nil, .member(merge.member))], at: at))
    case nil: break
    }
    if column.isUnique { annotations.append(Self.annotation("Unique", [], at: at)) }
    if column.isIndexed { annotations.append(Self.annotation("Index", [], at: at)) }
    if column.references != nil || column.onDelete != nil {
      var referenceArguments: [(String?, Annotation.Value)] = []
      if let table = column.referencedTable { referenceArguments.append((nil, .type(Self.named(table)))) }
      if let action = column.onDelete { referenceArguments.append(("onDelete", .member(action.swiftMember))) }
      annotations.append(Self.annotation("References", referenceArguments, at: at))
    }
    if let previous = column.previousName { annotations.append(Self.annotation("Renamed", [("from", .string(previous))], at: at)) }
    if column.allowsLossyConversion { annotations.append(Self.annotation("AllowLossyConversion", [], at: at)) }
    if column.isUnindexed { annotations.append(Self.annotation("Unindexed", [], at: at)) }
    var property = Self.property(
      column.name.text, at: at, isLet: isKey, access: access, type: typeSyntax(column.type), storage: .stored)
    property.annotations = annotations
    property.initializer = column.defaultValue.map { Self.expression($0, at: at) }
    return property
  }

  // MARK: Selections and enums

  private mutating func add(_ selection: SchemaFile.Selection) {
    let access = Self.access(selection.access)
    var type = Self.type(.struct, selection.name.text, at: selection.name.location, access: access, inheritance: ["Selection"])
    type.properties = selection.fields.map { field in
      var property = Self.property(
        field.name.text, at: field.name.location, isLet: true, access: access, type: typeSyntax(field.type), storage: .stored)
      if let representation = field.type.representation(field.representation).flatMap({ swiftType($0) }) {
        property.annotations = [Self.annotation("Column", [("as", .type(representation))], at: field.name.location)]
      }
      return property
    }
    types.append(type)
  }

  private mutating func add(_ enumeration: SchemaFile.Enumeration) {
    var type = Self.type(
      .enum, enumeration.name.text, at: enumeration.name.location, access: Self.access(enumeration.access),
      inheritance: [])
    type.inheritance = swiftType(enumeration.rawType).map { [$0] } ?? []
    type.cases = enumeration.cases.map { name, value in
      EnumCase(name: name.text, rawValue: value.map { Self.expression($0, at: name.location).value }, location: name.location)
    }
    types.append(type)
  }

  // MARK: Pieces

  private static func type(
    _ kind: TypeDeclaration.Kind, _ name: String, at location: SourceLocation, access: AccessLevel?,
    inheritance: [String], annotations: [Annotation] = []
  ) -> TypeDeclaration {
    TypeDeclaration(
      kind: kind, name: name, scope: [], location: location, accessLevel: access, isGeneric: false,
      inheritance: inheritance.map { named([$0]) }, annotations: annotations, isConditional: false)
  }

  private static func property(
    _ name: String, at location: SourceLocation, isLet: Bool, access: AccessLevel?, type: TypeSyntax?,
    storage: PropertyDeclaration.Storage
  ) -> PropertyDeclaration {
    PropertyDeclaration(
      name: name, location: location, isLet: isLet, isStatic: false, isLazy: false, accessLevel: access, attributes: [],
      annotations: [], type: type, initializer: nil, storage: storage, isConditional: false)
  }

  private static func annotation(_ name: String, _ arguments: [(String?, Annotation.Value)], at location: SourceLocation) -> Annotation {
    Annotation(
      name: name, arguments: arguments.map { Annotation.Argument(label: $0.0, value: $0.1, location: location) },
      location: location)
  }

  private static func access(_ access: SchemaFile.Access?) -> AccessLevel? {
    switch access {
    case .public?: .public
    case .package?: .package
    case .internal?: .internal
    case nil: nil
    }
  }

  private static func list(_ names: [SchemaFile.Name]) -> String {
    names.map(\.text).joined(separator: ", ")
  }

  private static func named(_ components: [String]) -> TypeSyntax {
    .named(components.map { TypeSyntax.Component(name: $0, arguments: []) })
  }

  /// A column's or field's Swift type, optional with `?`.
  private mutating func typeSyntax(_ type: SchemaFile.ColumnType) -> TypeSyntax? {
    swiftType(type.swiftText)
  }

  /// A type written in Swift's syntax (a JSON type may be any: `[String: [Int]]`), read with the
  /// Swift parser's type grammar, as annotations' types are.
  private mutating func swiftType(_ text: String) -> TypeSyntax? {
    if let known = typeCache[text] { return known }
    let type = SwiftParser.parse("typealias T = " + text, path: "").typealiases["T"]
    typeCache[text] = type
    return type
  }

  /// A default value as Swift writes it, and what the translator reads it as.
  private static func expression(_ value: SchemaFile.DefaultValue, at location: SourceLocation) -> Expression {
    let text: String
    let read: ExpressionValue
    switch value {
    case .string(let string): (text, read) = (SwiftLiteral.string(string), .string(string))
    case .integer(let digits): (text, read) = (digits, .integer(digits))
    case .float(let digits): (text, read) = (digits, .float(digits))
    case .bool(let flag): (text, read) = (flag ? "true" : "false", .bool(flag))
    case .nil: (text, read) = ("nil", .nil)
    case .member(let name):
      // Swift reads `.name` as a member; a name that needs backticks is not one it classifies.
      let identifier = SwiftLiteral.identifier(name)
      (text, read) = ("." + identifier, identifier == name ? .member(type: nil, name: name) : .other)
    case .emptyArray: (text, read) = ("[]", .emptyArray)
    case .emptyDictionary: (text, read) = ("[:]", .emptyDictionary)
    }
    return Expression(text: text, value: read, location: location)
  }
}

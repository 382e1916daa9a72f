/// Writes the Swift models a schema file stands for: a struct per table and selection, an enum
/// per enum, with annotation comments for what the conventions do not say.
///
/// The text is what the build compiles (the plugin writes it next to the conformances); the
/// translator reads the same models as declarations (``SchemaFileDeclarations``). Every name is
/// checked to be a plain identifier or written through ``SwiftLiteral``, and every literal is
/// rebuilt from its value, so nothing in the schema file reaches the Swift as code.
struct SchemaFileRenderer {
  /// The Swift text.
  private(set) var lines: [String] = []
  private(set) var diagnostics = Diagnostics()

  /// The file's models as Swift, without imports.
  static func render(_ file: SchemaFile) -> SchemaFileRenderer {
    var renderer = SchemaFileRenderer()
    for declaration in file.declarations {
      if !renderer.lines.isEmpty { renderer.emit("") }
      switch declaration {
      case .table(let table): renderer.render(table)
      case .selection(let selection): renderer.render(selection)
      case .enumeration(let enumeration): renderer.render(enumeration)
      }
    }
    return renderer
  }

  private mutating func emit(_ line: String) {
    lines.append(line)
  }

  private static func access(_ access: SchemaFile.Access?) -> String {
    access.map { $0.rawValue + " " } ?? ""
  }

  /// A name the models can use: a plain Swift identifier. Others are reported.
  /// Column names for an annotation's list, each checked.
  private mutating func checkedList(_ names: [SchemaFile.Name]) -> String {
    names.map { name in
      _ = checked(name)
      return name.text
    }.joined(separator: ", ")
  }

  private mutating func checked(_ name: SchemaFile.Name) -> String {
    if !SwiftLiteral.isPlainIdentifier(name.text) {
      diagnostics.error("'\(name.text)' is not a plain identifier; use letters, digits and _", at: name.location)
    }
    return SwiftLiteral.identifier(name.text)
  }

  private static func literal(_ value: SchemaFile.DefaultValue) -> String {
    switch value {
    case .string(let text): SwiftLiteral.string(text)
    case .integer(let digits), .float(let digits): digits
    case .bool(let value): value ? "true" : "false"
    case .nil: "nil"
    case .member(let name): "." + SwiftLiteral.identifier(name)
    case .emptyArray: "[]"
    case .emptyDictionary: "[:]"
    }
  }

  private mutating func render(_ table: SchemaFile.Table) {
    let access = Self.access(table.access)
    let name = checked(table.name)
    if let sqlName = table.sqlName { emit("// @Table(\(SwiftLiteral.string(sqlName)))") }
    if let previous = table.previousName { emit("// @Renamed(from: \(SwiftLiteral.string(previous)))") }
    if table.isUnmanaged { emit("// @Unmanaged") }
    if table.isSynced { emit("// @Synced") }
    for (constraint, _) in table.constraints {
      switch constraint {
      case .primaryKey(let names):
        emit("// @PrimaryKey(on: \(SwiftLiteral.string(checkedList(names))))")
      case .check(let sql):
        emit("// @Check(raw: \(SwiftLiteral.string(sql)))")
      }
    }
    for index in table.indexes {
      let condition = index.condition.map { ", whereRaw: " + SwiftLiteral.string($0) } ?? ""
      emit(
        "// @\(index.isUnique ? "Unique" : "Index")(on: \(SwiftLiteral.string(checkedList(index.columns)))\(condition))")
    }
    for annotation in table.kindAnnotations {
      let arguments = annotation.arguments.map { argument in
        let value = switch argument.value {
        case .string(let text): SwiftLiteral.string(text)
        case .type(let name): checked(name) + ".self"
        }
        return (argument.label.map { $0 + ": " } ?? "") + value
      }
      emit("// @\(annotation.name)(\(arguments.joined(separator: ", ")))")
    }
    let key = table.key
    let identifiable = key?.name.text == "id" ? ", Identifiable" : ""
    emit("\(access)struct \(name): \(table.modelProtocol)\(identifiable) {")
    for column in table.columns {
      render(
        column, access: access, isKey: column.name.text == key?.name.text, marksKey: table.marksKey,
        compositeKey: table.compositeKey != nil)
    }
    if table.access == .public {
      // Swift's memberwise initializer is internal; a public model needs its own.
      let parameters = table.columns.map { column in
        "\(SwiftLiteral.identifier(column.name.text)): \(column.type.swiftText)"
          + (column.defaultValue.map { " = " + Self.literal($0) } ?? (column.type.isOptional ? " = nil" : ""))
      }
      emit("")
      let oneLine = "  public init(\(parameters.joined(separator: ", "))) {"
      if oneLine.count <= 100 {
        emit(oneLine)
      } else {
        emit("  public init(")
        for (index, parameter) in parameters.enumerated() {
          emit("    \(parameter)" + (index == parameters.count - 1 ? "" : ","))
        }
        emit("  ) {")
      }
      for column in table.columns {
        let property = SwiftLiteral.identifier(column.name.text)
        emit("    self.\(property) = \(property)")
      }
      emit("  }")
    }
    emit("}")
    if let key, key.name.text != "id" {
      // `Other.ID` names a key through `Identifiable`, as in hand-written models.
      emit("")
      emit("extension \(name): Identifiable {")
      emit(
        "  \(access)var id: \(key.type.swiftText) { \(SwiftLiteral.identifier(key.name.text)) }")
      emit("}")
    }
  }

  private mutating func render(_ column: SchemaFile.Column, access: String, isKey: Bool, marksKey: Bool, compositeKey: Bool) {
    let at = column.name.location
    var arguments: [String] = []
    if let sqlName = column.sqlName { arguments.append(SwiftLiteral.string(sqlName)) }
    if isKey, marksKey, column.name.text != "id" { arguments.append("primaryKey: true") }
    if let collation = column.collation { arguments.append("collate: .\(collation.swiftMember)") }
    if let representation = column.type.representation(column.representation) { arguments.append("as: \(representation).self") }
    if column.isPrimary, !isKey {
      diagnostics.error(
        compositeKey ? "the table's key is its 'primary (…)' line; remove 'primary' here" : "a table has one primary key; this one has two",
        at: at)
    }
    if !arguments.isEmpty { emit("  // @Column(\(arguments.joined(separator: ", ")))") }
    if let sql = column.rawDefault { emit("  // @Default(raw: \(SwiftLiteral.string(sql)))") }
    if let sql = column.backfill { emit("  // @Backfill(raw: \(SwiftLiteral.string(sql)))") }
    if let sql = column.generated {
      emit("  // @Generated(raw: \(SwiftLiteral.string(sql))\(column.isStoredGenerated ? ", stored: true" : ""))")
    }
    switch column.merge {
    case .custom(let function)?: emit("  // @Merge(with: \(SwiftLiteral.string(function)))")
    case let merge?: emit("  // @Merge(.\(merge.member))")
    case nil: break
    }
    if column.isUnique { emit("  // @Unique") }
    if column.isIndexed { emit("  // @Index") }
    if column.references != nil || column.onDelete != nil {
      var referenceArguments: [String] = []
      if let table = column.references {
        referenceArguments.append("\(checked(table)).self")
      } else if let table = column.referencedTable {
        referenceArguments.append(table.map(SwiftLiteral.identifier).joined(separator: ".") + ".self")
      }
      if let action = column.onDelete { referenceArguments.append("onDelete: .\(action.swiftMember)") }
      emit("  // @References(\(referenceArguments.joined(separator: ", ")))")
    }
    if let previous = column.previousName { emit("  // @Renamed(from: \(SwiftLiteral.string(previous)))") }
    if column.allowsLossyConversion { emit("  // @AllowLossyConversion") }
    if column.isUnindexed { emit("  // @Unindexed") }
    let keyword = isKey ? "let" : "var"
    let defaultValue = column.defaultValue.map { " = " + Self.literal($0) } ?? ""
    emit("  \(access)\(keyword) \(checked(column.name)): \(column.type.swiftText)\(defaultValue)")
  }

  private mutating func render(_ selection: SchemaFile.Selection) {
    let access = Self.access(selection.access)
    emit("\(access)struct \(checked(selection.name)): Selection {")
    for field in selection.fields {
      if let representation = field.type.representation(field.representation) {
        emit("  // @Column(as: \(representation).self)")
      }
      emit("  \(access)let \(checked(field.name)): \(field.type.swiftText)")
    }
    emit("}")
  }

  private mutating func render(_ enumeration: SchemaFile.Enumeration) {
    let access = Self.access(enumeration.access)
    emit("\(access)enum \(checked(enumeration.name)): \(enumeration.rawType) {")
    for (name, value) in enumeration.cases {
      emit("  case \(checked(name))" + (value.map { " = " + Self.literal($0) } ?? ""))
    }
    emit("}")
  }
}

/// The objects models declare beside their tables: full-text indexes (`FTS5` models), views
/// (`@View(raw:)`) and triggers (`@Trigger`), each checked against what it stores.
extension ModelTranslator {
  /// The declarations of `stored` models, full-text indexes first, then views, then triggers
  /// (which may fire on a view), with where each is declared. `tables` are the main database's,
  /// where these objects are.
  mutating func declaredObjects(
    _ stored: [(model: TableModel, type: TypeDeclaration, schema: TableSchema)], tables: [TableSchema]
  ) -> ([DeclaredObject], [String: SourceLocation]) {
    var indexes: [DeclaredObject] = []
    var views: [DeclaredObject] = []
    var triggers: [DeclaredObject] = []
    var locations: [String: SourceLocation] = [:]
    let tablesByName = Dictionary(tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    for (model, type, schema) in stored {
      let options = typeOptions[type.qualifiedName] ?? AnnotationOptions()
      if model.kind == .table {
        for key in ["FTS5.content", "FTS5.tokenize", "FTS5.prefix"] {
          if let location = options.argumentLocations[key] {
            diagnostics.error("@FTS5 on '\(type.qualifiedName)' does nothing: declare it `struct \(type.name): FTS5`", at: location)
          }
        }
      }
      if case .fullTextIndex = model.kind {} else {
        for property in type.properties {
          if let location = self.options(of: property).present["Unindexed"] {
            diagnostics.error(
              "@Unindexed does nothing on '\(type.qualifiedName).\(property.name)': it stores a column of an FTS5 model without searching it", at: location)
          }
        }
      }
      if !model.isUnmanaged {
        switch model.kind {
        case .table: break
        case .fullTextIndex:
          if let index = fullTextIndex(model, type: type, schema: schema, options: options, tables: tablesByName) {
            indexes.append(.fullTextIndex(index))
          }
        case .view:
          if isFullTextIndex(type), let location = options.present["View"] {
            diagnostics.error("'\(type.qualifiedName)' is an FTS5 index; it cannot also be a view", at: location)
          }
          rejectTableAnnotations(of: type, kind: "a view")
          views.append(
            .view(ViewDeclaration(name: model.tableName, columns: schema.columns.map(\.name), select: options.viewSelect ?? "")))
        }
        if model.kind != .table { locations[SQLName.folded(model.tableName)] = model.location }
      }
      for (trigger, location) in options.triggers {
        triggers.append(.trigger(trigger))
        locations[SQLName.folded(trigger.name)] = location ?? model.location
      }
    }
    var seen: [String: SourceLocation] = [:]
    for object in indexes + views + triggers {
      for name in object.objectNames {
        let location = locations[SQLName.folded(object.name)] ?? SourceLocation(path: "", line: 1, column: 1)
        if let other = seen[SQLName.folded(name)] {
          diagnostics.error(
            "two models declare an object named \(NameRules.display(name)) (also at \(other.path):\(other.line)); rename one of them",
            at: location)
        }
        seen[SQLName.folded(name)] = location
        locations[SQLName.folded(name)] = location
      }
    }
    return (indexes + views + triggers, locations)
  }

  /// An FTS5 model's index: its text columns, and the content table whose rows it covers.
  private mutating func fullTextIndex(
    _ model: TableModel, type: TypeDeclaration, schema: TableSchema, options: AnnotationOptions,
    tables: [String: TableSchema]
  ) -> FullTextIndex? {
    guard let key = model.primaryKey, key.columnName == "rowid", schema.column(named: "rowid")?.type == .integer else {
      diagnostics.error(
        "'\(type.qualifiedName)' is an FTS5 index, whose rows are keyed by their rowid: declare `let rowid: Int`",
        at: type.location)
      return nil
    }
    rejectTableAnnotations(of: type, kind: "an FTS5 index")
    let columns = schema.columns.filter { $0.name != "rowid" }
    let unindexed = Set(
      type.properties.filter { self.options(of: $0).isUnindexed }.compactMap { property in
        model.columns.first { $0.propertyName == property.name }?.columnName
      })
    for column in columns where column.type != .text && !unindexed.contains(column.name) {
      let location = model.columns.first { $0.columnName == column.name }?.location ?? model.location
      diagnostics.error(
        "'\(column.name)' of the FTS5 index '\(type.qualifiedName)' is stored as \(column.type.sql); an FTS5 index searches text: make it a String, or mark it // @Unindexed to store it beside the text without searching it",
        at: location)
    }
    guard columns.contains(where: { !unindexed.contains($0.name) }) else {
      diagnostics.error("the FTS5 index '\(type.qualifiedName)' needs a text column to index beside its rowid", at: type.location)
      return nil
    }
    var index = FullTextIndex(
      name: model.tableName, columns: columns.map(\.name), unindexed: unindexed, tokenizer: options.tokenizer,
      prefixes: options.prefixes)
    guard let contentType = options.fullTextContent else { return index }
    let location = options.argumentLocations["FTS5.content"] ?? type.location
    let declaration = contentType.dottedName.flatMap { resolve($0, from: type.scope + [type.name]) }
    if let declaration, let database = typeOptions[declaration.qualifiedName]?.schemaName {
      diagnostics.error(
        "@FTS5(content: \(declaration.name).self) names a table of the attached database \"\(database)\"; an FTS5 index reads its content from a table of its own database, the main one",
        at: location)
      return nil
    }
    guard let declaration, let tableName = tableNames[declaration.qualifiedName], let content = tables[tableName]
    else {
      let named = contentType.dottedName ?? contentType.text
      let suggestion = NearestName.among(tableNames.keys.map { $0.split(separator: ".").last.map(String.init) ?? $0 }, to: named)
      diagnostics.error(
        "@FTS5(content: \(named).self) names no Table model of this module\(suggestion.map { " (did you mean '\($0)'?)" } ?? ""); the content table is a model declared here",
        at: location)
      return nil
    }
    for column in columns where content.column(named: column.name) == nil {
      diagnostics.error(
        "the FTS5 index '\(type.qualifiedName)' indexes \(NameRules.display(column.name)), which its content table \(NameRules.display(tableName)) has no column of; an index with a content table reads each column from it by name",
        at: model.columns.first { $0.columnName == column.name }?.location ?? location)
    }
    index.content = .init(table: tableName, rowidColumn: content.integerKey?.name ?? "rowid", replacingKeys: content.uniqueKeys)
    return index
  }

  /// A view or full-text index stores no constraints or indexes of its own: annotations that
  /// would ask for them are errors at their line. (What conventions would add, such as the index
  /// of a `Game.ID` property, is simply not made.)
  private mutating func rejectTableAnnotations(of type: TypeDeclaration, kind: String) {
    let schemaAnnotations: Set<String> = ["Index", "Unique", "References", "Check", "Default", "PrimaryKey", "Renamed"]
    var found = (typeOptions[type.qualifiedName]?.present ?? [:]).filter { schemaAnnotations.contains($0.key) }.map { ($0.key, $0.value) }
    for property in type.properties {
      let options = options(of: property)
      found += options.present.filter { schemaAnnotations.contains($0.key) }.map { ($0.key, $0.value) }
      if let location = options.argumentLocations["Column.collate"] { found.append(("Column(collate:)", location)) }
    }
    for (name, location) in found.sorted(by: { $0.1 < $1.1 }) {
      diagnostics.error(
        "@\(name) does nothing on '\(type.qualifiedName)', \(kind): the database keeps no keys, indexes, checks, defaults or renames for it",
        at: location)
    }
  }
}

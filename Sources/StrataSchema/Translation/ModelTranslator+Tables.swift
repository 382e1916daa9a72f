import StrataSQL

/// Tables and their columns: names, keys, nullability, uniqueness, collation, references and
/// indexes.
extension ModelTranslator {
  mutating func tableName(of type: TypeDeclaration) -> String {
    let options = typeOptions[type.qualifiedName]
    let name = options?.tableName ?? Naming.tableName(forType: type.name)
    if let problem = NameRules.tableNameProblem(name) {
      diagnostics.error(problem, at: options?.argumentLocations["Table."] ?? type.location)
    }
    return name
  }

  /// Two models of one database cannot name one table; the main database and an attached one
  /// each have tables of their own, so there the name may repeat.
  mutating func checkDuplicateTableNames(_ types: [TypeDeclaration]) {
    var seen: [String: TypeDeclaration] = [:]
    for type in types {
      let name = tableNames[type.qualifiedName]!
      let database = typeOptions[type.qualifiedName]?.schemaName
      let key = (database.map { SQLName.folded($0) + "." } ?? "") + SQLName.folded(name)
      if let other = seen[key] {
        diagnostics.error(
          "'\(type.qualifiedName)' and '\(other.qualifiedName)' both map to the table \(NameRules.display(name))\(database.map { " of the attached database \"\($0)\"" } ?? "") (SQLite ignores the case of ASCII letters in names); rename one with @Table(\"…\")",
          at: type.location)
      } else {
        seen[key] = type
      }
    }
  }

  func options(of property: PropertyDeclaration) -> AnnotationOptions {
    propertyOptions[property.location] ?? AnnotationOptions()
  }

  func primaryKeyProperty(of type: TypeDeclaration) -> PropertyDeclaration? {
    // A key on several columns leaves the table without a single key, even with an `id`.
    if typeOptions[type.qualifiedName]?.compositeKey != nil { return nil }
    let columns = type.properties.filter { isColumnCandidate($0) }
    // A full-text index's rows are keyed by their rowid, which the model reads as `rowid`.
    if isFullTextIndex(type) { return columns.first { $0.name == "rowid" } }
    return columns.first { options(of: $0).isPrimaryKey } ?? columns.first { $0.name == "id" }
  }

  private func isColumnCandidate(_ property: PropertyDeclaration) -> Bool {
    !property.isStatic && property.storage == .stored && !property.name.isEmpty && !options(of: property).isEphemeral
  }

  /// Names of members the generated code declares on a table, or that Strata's protocols use, so
  /// that a property of the same name would make the conformance ambiguous.
  static let generatedTableMembers: Set<String> = [
    "TableColumns", "Draft", "Base", "Nullable", "PrimaryKey", "QueryOutput", "Unwrapped",
  ]

  mutating func translateTable(_ type: TypeDeclaration) -> (TableModel, TableSchema)? {
    let tableName = tableNames[type.qualifiedName]!
    let scope = type.scope + [type.name]
    var columnModels: [ColumnModel] = []
    var columns: [ColumnSchema] = []
    var indexes: [IndexSchema] = []
    var primaryKeyIndex: Int?
    var keyIsAssigned = false
    var columnNames: [String: SourceLocation] = [:]
    // The column of each field or case of a group, by `Owner.name`.
    var groupColumns: [String: String] = [:]

    let annotatedKeys = type.properties.filter { options(of: $0).isPrimaryKey }
    if annotatedKeys.count > 1 {
      diagnostics.error(
        "'\(type.qualifiedName)' has \(annotatedKeys.count) properties marked as primary key; for a key on several columns, write // @PrimaryKey(on: \"a, b\") above the struct",
        at: annotatedKeys[1].location)
    }
    let primaryKey = primaryKeys[type.qualifiedName]?.property
    rejectGeneratedNames(in: type, names: ["TableColumns", "Draft", "Columns"])

    // A column group's fields are columns of the table, translated as they are declared.
    var members: [(property: PropertyDeclaration, owner: TypeDeclaration, scope: [String], group: ColumnGroupModel?, isNullable: Bool)] = []
    for property in type.properties {
      if let group = columnGroup(property, in: scope, allowingTables: true) {
        let model = ColumnGroupModel(
          propertyName: property.name, swiftType: group.type.qualifiedName, isOptional: group.isOptional,
          access: memberAccess(of: property, in: type))
        members += leaves(of: group.type, isNullable: group.isOptional)
          .map { ($0.property, $0.owner, $0.owner.scope + [$0.owner.name], model, $0.isNullable) }
      } else {
        members.append((property, type, scope, nil, false))
      }
    }
    for (property, owner, memberScope, group, isNullable) in members {
      let isPrimaryKey = group == nil && property.name == primaryKey?.name && !property.name.isEmpty
      guard var column = translateColumn(
        property, in: owner, scope: memberScope, tableName: tableName, isPrimaryKey: isPrimaryKey,
        hasPrimaryKey: primaryKey != nil)
      else { continue }
      if let group {
        column.model.group = group
        if isNullable {
          column.schema.isNotNull = false
          column.model.isOptional = true
          // A database default would give a row inserted without the group (or in another
          // case) a value here, and the row would no longer read as missing the group.
          column.schema.defaultValue = nil
        }
      }
      if let other = columnNames[SQLName.folded(column.schema.name)] {
        diagnostics.error(
          "two properties of '\(type.qualifiedName)' map to the column \(NameRules.display(column.schema.name)) (also at line \(other.line); SQLite ignores the case of ASCII letters in names)",
          at: property.location)
        continue
      }
      columnNames[SQLName.folded(column.schema.name)] = property.location
      groupColumns["\(owner.qualifiedName).\(property.name)"] = column.schema.name
      if column.schema.primaryKey != nil {
        primaryKeyIndex = columnModels.count
        keyIsAssigned = column.keyIsAssignedByDatabase
      }
      columnModels.append(column.model)
      columns.append(column.schema)
      indexes += column.indexes
    }
    guard !columns.isEmpty else {
      // Properties that could not be columns were reported already.
      if !type.properties.contains(where: { !$0.isStatic && $0.storage == .stored && !options(of: $0).isEphemeral }) {
        diagnostics.error("Table '\(type.qualifiedName)' has no stored properties to make columns of", at: type.location)
      }
      return nil
    }
    indexes += tableIndexes(of: type, tableName: tableName, columns: columnModels, existing: indexes)
    let tableOptions = typeOptions[type.qualifiedName] ?? AnnotationOptions()
    var compositeKey = tableOptions.compositeKey.map { compositeKeyColumns($0, of: type, columns: columnModels) } ?? []
    // A key that is a column group is its columns together.
    let groupKey = primaryKey.flatMap { key in columnGroup(key, in: scope).map { (key, $0.isOptional) } }
    if let (key, isOptional) = groupKey {
      let keyColumns = columnModels.filter { $0.group?.propertyName == key.name }
      if isOptional {
        diagnostics.error("'\(key.name)' is optional, but a primary key's columns cannot be NULL; make it non-optional", at: key.location)
      } else if let nullable = keyColumns.first(where: \.isOptional) {
        diagnostics.error(
          "'\(key.name)' is the primary key, whose columns cannot be NULL, but its '\(nullable.propertyName)' can be (an optional field, or an enum's case); key on fields that are never nil",
          at: key.location)
      } else if let generated = keyColumns.first(where: \.isGenerated) {
        diagnostics.error("'\(key.name)' is the primary key, whose '\(generated.propertyName)' cannot be a generated column", at: key.location)
      }
      compositeKey = keyColumns.map(\.columnName)
    }
    // A foreign key's own index adds nothing when the key on several columns, or another index
    // that covers every row, starts with its column: SQLite uses that one.
    let leading = Set(
      (indexes.filter { $0.columns.count > 1 && $0.condition == nil }.map(\.columns[0]) + compositeKey.prefix(1)).map(SQLName.folded))
    indexes.removeAll { index in
      guard index.columns.count == 1, leading.contains(SQLName.folded(index.columns[0])),
        let column = columnModels.first(where: { $0.columnName == index.columns[0] }),
        let property = type.properties.first(where: { $0.name == column.propertyName })
      else { return false }
      return !options(of: property).isIndexed && columns.contains { $0.name == column.columnName && $0.references != nil }
    }
    let previousName = typeOptions[type.qualifiedName]?.previousName
    if let previousName, let problem = NameRules.tableNameProblem(previousName) {
      diagnostics.error(problem, at: typeOptions[type.qualifiedName]?.argumentLocations["Renamed.from"] ?? type.location)
    }
    var model = TableModel(
      swiftName: type.qualifiedName, location: type.location, access: memberAccess(of: type),
      tableName: tableName, previousTableName: previousName, columns: columnModels,
      primaryKeyIndex: primaryKeyIndex, keyIsAssignedByDatabase: keyIsAssigned)
    model.caseRules = type.properties.compactMap { property in
      columnGroup(property, in: scope, allowingTables: true).flatMap { group in
        caseRule(of: property, group: group.type, isOptional: group.isOptional) { owner, name in
          groupColumns["\(owner.qualifiedName).\(name)"]
        }
      }
    }
    model.groupKeyProperty = groupKey?.0.name
    model.isUnmanaged = typeOptions[type.qualifiedName]?.isUnmanaged ?? false
    if model.isUnmanaged { warnAboutRenames(in: type) }
    if isFullTextIndex(type) {
      model.kind = .fullTextIndex(hasContentTable: tableOptions.fullTextContent != nil)
    } else if tableOptions.viewSelect != nil {
      model.kind = .view
    }
    model.schemaName = tableOptions.schemaName
    if model.schemaName != nil, model.kind != .table || !tableOptions.triggers.isEmpty {
      diagnostics.error(
        "'\(type.qualifiedName)' is in an attached database, where Strata declares tables only; make its \(model.kind == .table ? "triggers" : model.kind == .view ? "view" : "full-text index") in a hand-written migration of that database",
        at: tableOptions.argumentLocations["Table.schema"] ?? type.location)
    }
    return (
      model,
      TableSchema(
        name: tableName, columns: columns, compositePrimaryKey: compositeKey, indexes: indexes,
        constraints: tableOptions.checks.map { .check(CheckConstraint(expression: $0)) }
          + model.caseRules.map { .check($0.check(table: tableName)) })
    )
  }

  /// On an unmanaged model, annotations that shape the schema describe the table as it is, for
  /// the day it is taken over (the import writes them so); a rename, though, is a change the
  /// planner would make, and it makes none to an unmanaged table.
  private mutating func warnAboutRenames(in type: TypeDeclaration) {
    let found = ([typeOptions[type.qualifiedName]?.present["Renamed"]] + type.properties.map { options(of: $0).present["Renamed"] })
      .compactMap { $0 }
    for location in found.sorted() {
      diagnostics.warning(
        "@Renamed does nothing on '\(type.qualifiedName)', which is // @Unmanaged: its migrations alone make its table; rename it in a hand-written migration",
        at: location)
    }
  }

  /// The columns of `@PrimaryKey(on:)`: properties of the table, none optional, and no other key.
  private mutating func compositeKeyColumns(_ properties: [String], of type: TypeDeclaration, columns: [ColumnModel]) -> [String] {
    let location = typeOptions[type.qualifiedName]?.argumentLocations["PrimaryKey.on"] ?? type.location
    for property in type.properties where options(of: property).isPrimaryKey {
      diagnostics.error(
        "'\(property.name)' is marked as primary key, but @PrimaryKey(on:) gives '\(type.qualifiedName)' a key on several columns; keep one of them",
        at: options(of: property).argumentLocations["Column.primaryKey"] ?? property.location)
    }
    let listed = listedColumns(properties, of: type, columns: columns, at: location)
    for column in listed where column.isOptional {
      diagnostics.error(
        "'\(column.propertyName)' is optional, but a primary key's columns cannot be NULL; make it non-optional", at: column.location)
    }
    if properties.count == 1 {
      diagnostics.error(
        "@PrimaryKey(on:) is for a key on several columns; for one, mark the property // @Column(primaryKey: true)", at: location)
    }
    return listed.map(\.columnName)
  }

  /// The columns of the properties an annotation lists (`on: "a, b"`), in order; each property
  /// that is not a column, or is listed twice, is an error at `location` and left out.
  private mutating func listedColumns(
    _ properties: [String], of type: TypeDeclaration, columns: [ColumnModel], at location: SourceLocation
  ) -> [ColumnModel] {
    var listed: [ColumnModel] = []
    for property in properties {
      guard let column = columns.first(where: { $0.propertyName == property }) else {
        // A stored property that could not be a column was reported at its own line already.
        if !type.properties.contains(where: { $0.name == property && !$0.isStatic && $0.storage == .stored }) {
          diagnostics.error("'\(property)' is not a column of '\(type.qualifiedName)'; list stored properties", at: location)
        }
        continue
      }
      guard !listed.contains(where: { $0.columnName == column.columnName }) else {
        diagnostics.error("'\(property)' is listed twice", at: location)
        continue
      }
      listed.append(column)
    }
    return listed
  }

  /// A model that declares a type or typealias the generator also writes.
  mutating func rejectGeneratedNames(in type: TypeDeclaration, names: Set<String>) {
    for name in names.sorted() {
      guard let nested = declarations[type.qualifiedName + "." + name] else { continue }
      diagnostics.error(
        "'\(type.qualifiedName)' declares its own '\(nested.name)', which Strata generates for it; rename it",
        at: nested.location)
    }
    for name in type.typealiases.keys.sorted() where names.contains(name) {
      diagnostics.error("'\(type.qualifiedName)' declares its own '\(name)', which Strata generates for it; rename it", at: type.location)
    }
  }

  private struct TranslatedColumn {
    var model: ColumnModel
    var schema: ColumnSchema
    var indexes: [IndexSchema]
    var keyIsAssignedByDatabase = false
  }

  /// Why a stored property cannot be a column at all, reported at its line; nil when it can.
  private mutating func rejectNonColumn(_ property: PropertyDeclaration, in type: TypeDeclaration, hasPrimaryKey: Bool) -> Bool {
    guard !property.name.isEmpty else {
      diagnostics.error("a tuple pattern cannot be a column; declare one property per column", at: property.location)
      return true
    }
    if property.isConditional {
      diagnostics.error(
        "stored property '\(property.name)' is inside #if; a table's columns cannot depend on build settings (mark it // @Ephemeral or move it out)",
        at: property.location)
      return true
    }
    if property.isLazy {
      diagnostics.error("lazy property '\(property.name)' cannot be a column; mark it // @Ephemeral", at: property.location)
      return true
    }
    if let wrapper = property.attributes.first {
      diagnostics.error(
        "property '\(property.name)' has the attribute @\(wrapper); a column must be a plain stored property (mark it // @Ephemeral if it is not a column)",
        at: property.location)
      return true
    }
    if property.isLet, property.initializer != nil {
      diagnostics.error(
        "'let \(property.name)' has an initial value, so it cannot be read from the database; make it 'var' or mark it // @Ephemeral",
        at: property.location)
      return true
    }
    if Self.generatedTableMembers.contains(property.name) || (hasPrimaryKey && property.name == "primaryKey") {
      diagnostics.error(
        "property '\(property.name)' has the name of a member Strata generates for '\(type.qualifiedName)', so the conformance would not compile; rename the property (// @Column(\"\(property.name)\") keeps the column's name)",
        at: property.location)
      return true
    }
    return false
  }

  private mutating func translateColumn(
    _ property: PropertyDeclaration, in type: TypeDeclaration, scope: [String], tableName: String,
    isPrimaryKey: Bool, hasPrimaryKey: Bool
  ) -> TranslatedColumn? {
    guard !property.isStatic, property.storage == .stored else { return nil }
    let options = options(of: property)
    for index in options.tableIndexes {
      diagnostics.error(
        "@\(index.isUnique ? "Unique" : "Index")(on:) lists a table's columns; put it above the struct, or use @\(index.isUnique ? "Unique" : "Index") alone here",
        at: index.location ?? property.location)
    }
    if options.isEphemeral {
      if property.initializer == nil {
        diagnostics.error(
          "@Ephemeral property '\(property.name)' needs a default value, which rows read from the database get",
          at: property.location)
      }
      return nil
    }
    if rejectNonColumn(property, in: type, hasPrimaryKey: hasPrimaryKey) { return nil }

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

    let columnName = options.columnName ?? property.name
    let isRowID = isPrimaryKey && isFullTextIndex(type) && columnName == "rowid"
    if !isRowID, let problem = NameRules.columnNameProblem(columnName) {
      diagnostics.error(problem, at: options.argumentLocations["Column."] ?? property.location)
    }
    if let previousName = options.previousName, let problem = NameRules.columnNameProblem(previousName) {
      diagnostics.error(problem, at: options.argumentLocations["Renamed.from"] ?? property.location)
    }
    var column = ColumnSchema(name: columnName, type: sqlType(of: storage))
    if let collation = options.collation {
      if column.type == dialect.columnType(for: .text) {
        column.collation = collation
      } else {
        diagnostics.error(
          "@Column(collate:) compares text, but '\(property.name)' is stored as \(column.type.sql); remove the collation",
          at: options.argumentLocations["Column.collate"] ?? property.location)
      }
    }
    column.isUnique = options.isUnique
    let reference = resolveReference(of: property, options: options, storage: storage)
    var indexes: [IndexSchema] = []
    var keyIsAssigned = false

    if isPrimaryKey {
      if isOptional {
        diagnostics.error(
          "primary key '\(property.name)' cannot be optional; the draft type makes it optional for inserts",
          at: property.location)
        return nil
      }
      // A key that references another table's row is that row's key: never generated.
      if storage.isInteger || storage.isUUID, reference == nil,
        let assigned = dialect.assignedKey(column, holding: storage.valueType)
      {
        column = assigned
        keyIsAssigned = true
      } else {
        column.primaryKey = .init()
        column.isNotNull = true
      }
      if let location = options.present["Unique"] {
        diagnostics.warning("@Unique on the primary key '\(property.name)' adds nothing: a primary key is unique", at: location)
        column.isUnique = false
      }
      if let location = options.present["Index"] {
        diagnostics.warning("@Index on the primary key '\(property.name)' adds nothing: SQLite indexes the primary key", at: location)
      }
    } else {
      column.isNotNull = !isOptional
      if let initializer = property.initializer {
        column.defaultValue = sqlDefault(initializer, storage: storage, property: property)
      }
    }
    if let raw = options.rawDefault {
      let location = options.argumentLocations["Default.raw"] ?? property.location
      if isPrimaryKey {
        diagnostics.error("@Default(raw:) on the primary key '\(property.name)': the key's default is Strata's; remove it", at: location)
      } else if column.defaultValue != nil {
        diagnostics.error(
          "'\(property.name)' has a literal initial value, which is its SQL default already; keep the value or @Default(raw:)",
          at: location)
      } else {
        column.defaultValue = ColumnDefault(reported: raw)
      }
    }

    if let reference {
      checkReferenceWithinOneDatabase(property, of: type, to: reference.table, in: reference.database)
      let action = options.onDelete ?? (isOptional ? .setNull : .cascade)
      if action == .setNull, !isOptional {
        diagnostics.error(
          "'\(property.name)' is not optional, so deleting the referenced row cannot set it to NULL; use onDelete: .cascade or make it optional",
          at: options.argumentLocations["References.onDelete"] ?? property.location)
      }
      if action == .setDefault, column.isNotNull, column.defaultValue == nil {
        diagnostics.error(
          "onDelete: .setDefault sets '\(property.name)' to its default when the referenced row is deleted, but it has none; give it a literal default or make it optional",
          at: options.argumentLocations["References.onDelete"] ?? property.location)
      }
      column.references = ForeignKey(table: reference.table, column: reference.column, onDelete: action)
      if options.collation == nil { column.collation = reference.collation }
      // The primary key and UNIQUE columns have SQLite's own index already.
      if !isPrimaryKey, !column.isUnique {
        indexes.append(
          IndexSchema(
            name: IndexSchema.conventionalName(table: tableName, columns: [columnName]),
            table: tableName, columns: [columnName]))
      }
    } else if let location = options.argumentLocations["References.onDelete"] {
      diagnostics.error("onDelete needs a reference: @References(Other.self, onDelete: …)", at: location)
    }
    if options.isIndexed, !isPrimaryKey {
      if column.isUnique {
        diagnostics.warning(
          "@Index next to @Unique adds nothing: SQLite indexes UNIQUE columns", at: options.present["Index"] ?? property.location)
      } else if !indexes.contains(where: { $0.columns == [columnName] }) {
        indexes.append(
          IndexSchema(
            name: IndexSchema.conventionalName(table: tableName, columns: [columnName]),
            table: tableName, columns: [columnName]))
      }
    }

    if let expression = options.generatedExpression {
      let location = options.argumentLocations["Generated.raw"] ?? property.location
      if isPrimaryKey {
        diagnostics.error("'\(property.name)' is the primary key, which cannot be a generated column", at: location)
      } else if column.defaultValue != nil {
        diagnostics.error(
          "'\(property.name)' is a generated column, which has no default: remove its initial value or @Default(raw:)", at: location)
      }
      column.otherConstraints.append(.generated(expression: expression, storage: options.isStoredGenerated ? .stored : .virtual))
    }

    let propertyType = declaredType.swiftText
    let representation = storage.representation?.swiftText
    var model = ColumnModel(
      propertyName: property.name, access: memberAccess(of: property, in: type),
      typeAccess: typeAccess([declaredType] + (storage.representation.map { [$0] } ?? []), from: scope),
      location: property.location, columnName: columnName, previousColumnName: options.previousName,
      propertyType: propertyType,
      valueType: representation.map { isOptional ? $0 + "?" : $0 } ?? propertyType,
      representation: representation, isOptional: isOptional,
      defaultExpression: property.initializer?.text ?? (isOptional ? "nil" : nil))
    model.allowsLossyConversion = options.allowsLossyConversion
    model.backfill = options.backfill
    model.isGenerated = options.generatedExpression != nil
    model.storedType = storage.representation?.text ?? storage.enumDeclaration?.qualifiedName ?? storage.builtIn ?? sqlType(of: storage).sql
    model.valueFormat = valueFormat(of: storage)
    return TranslatedColumn(model: model, schema: column, indexes: indexes, keyIsAssignedByDatabase: keyIsAssigned)
  }

  /// The indexes on several columns that `@Index(on:)` and `@Unique(on:)` above the table ask
  /// for, named by the convention so that the planner manages them.
  private mutating func tableIndexes(
    of type: TypeDeclaration, tableName: String, columns: [ColumnModel], existing: [IndexSchema]
  ) -> [IndexSchema] {
    let options = typeOptions[type.qualifiedName] ?? AnnotationOptions()
    for name in ["Index", "Unique"] where options.present[name] != nil && options.argumentLocations["\(name).on"] == nil {
      diagnostics.error(
        "@\(name) above a table needs the properties to index: @\(name)(on: \"gameID, score\")", at: options.present[name]!)
    }
    var indexes: [IndexSchema] = []
    for index in options.tableIndexes {
      let location = index.location ?? type.location
      let names = listedColumns(index.properties, of: type, columns: columns, at: location).map(\.columnName)
      guard names.count == index.properties.count else { continue }
      let schema = IndexSchema(
        name: IndexSchema.conventionalName(table: tableName, columns: names), table: tableName, columns: names,
        isUnique: index.isUnique, condition: index.condition)
      if let same = (existing + indexes).first(where: { $0.columns == names }) {
        if same.isUnique == schema.isUnique {
          diagnostics.warning("an index on these columns exists already; this one adds nothing", at: location)
        } else {
          diagnostics.error(
            "the index on these columns is \(same.isUnique ? "unique" : "not unique") already; keep one of them", at: location)
        }
        continue
      }
      indexes.append(schema)
    }
    return indexes
  }

  /// SQLite enforces a foreign key within one database only: a table of an attached database
  /// cannot reference the main database's, nor the other way round.
  private mutating func checkReferenceWithinOneDatabase(
    _ property: PropertyDeclaration, of type: TypeDeclaration, to target: String, in targetDatabase: String?
  ) {
    let database = typeOptions[type.qualifiedName]?.schemaName
    guard targetDatabase != database else { return }
    func name(_ database: String?) -> String { database.map { "the attached database \"\($0)\"" } ?? "the main database" }
    diagnostics.error(
      "'\(property.name)' references \(NameRules.display(target)) in \(name(targetDatabase)), but '\(type.qualifiedName)' is in \(name(database)); SQLite enforces references within one database only: declare the property with the key's own type (UUID, Int) instead of the other table's ID, or keep both tables in one database",
      at: property.location)
  }

  /// The table and column a property references: through `@References(Other.self)` or its type
  /// `Other.ID`. Either way the column must store what the key stores.
  private mutating func resolveReference(
    of property: PropertyDeclaration, options: AnnotationOptions, storage: Storage
  ) -> (table: String, column: String, collation: Collation?, database: String?)? {
    guard let annotated = options.reference else { return storage.reference }
    let location = options.argumentLocations["References."] ?? property.location
    guard let name = annotated.dottedName, let table = resolve(name, from: []),
      tableNames[table.qualifiedName] != nil
    else {
      diagnostics.error(
        "@References needs a table declared in the scanned files: '\(annotated.text)' is not one; valid annotations: \(Annotations.help)",
        at: location)
      return nil
    }
    guard let key = referencedKey(of: table) else {
      diagnostics.error("'\(table.qualifiedName)' has no primary key for '\(property.name)' to reference", at: location)
      return nil
    }
    if let implied = storage.reference, (implied.table, implied.column, implied.database) != (key.table, key.column, key.database) {
      diagnostics.error(
        "'\(property.name)' has the type of one table's key but @References names '\(table.qualifiedName)'; keep one of them",
        at: location)
      return nil
    }
    if sqlType(of: key.storage) != sqlType(of: storage) {
      diagnostics.error(
        "'\(property.name)' is stored as \(sqlType(of: storage).sql) but references \(NameRules.display(key.table)).\(NameRules.display(key.column)), which is \(sqlType(of: key.storage).sql), so no row would ever match; declare it as \(table.qualifiedName).ID",
        at: property.location)
      return nil
    }
    return (key.table, key.column, key.collation, key.database)
  }
}

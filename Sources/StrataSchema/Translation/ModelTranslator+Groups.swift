/// Column groups: a property whose type is a `Selection` stored as the columns it is made of.
/// A struct's fields are columns or groups themselves; an enum's cases each hold one value, a
/// column's or a group's, in columns that are NULL in the rows of every other case.
extension ModelTranslator {
  /// A column of a group, as declared: a struct's field, or an enum case's value (a property
  /// named after the case, of the value's type).
  struct GroupLeaf {
    var property: PropertyDeclaration
    var owner: TypeDeclaration
    /// Whether the column is NULL in some rows whatever its type says: it is an enum case's, or
    /// inside an optional group.
    var isNullable: Bool
  }

  /// The group a property's type names, when the property is stored as a column group. A
  /// table's property may also hold another table's row (`var item: Item?`), stored as that
  /// table's columns, as StructuredQueries stores it (`allowingTables`).
  func columnGroup(
    _ property: PropertyDeclaration, in scope: [String], allowingTables: Bool = false
  ) -> (type: TypeDeclaration, isOptional: Bool)? {
    guard !property.isStatic, property.storage == .stored, !options(of: property).isEphemeral,
      let declared = property.type ?? inferredType(of: property)
    else { return nil }
    let (unwrapped, isOptional) = declared.unwrapped
    if allowingTables, let table = storableTable(unwrapped, from: scope) { return (table, isOptional) }
    return storableGroup(unwrapped, from: scope).map { ($0, isOptional) }
  }

  /// The table `type` names, when its rows can be stored in another table's columns: a struct
  /// stored in a table (not a view or a full-text index) whose fields are columns and groups.
  /// A table with a key of its own is referenced by it (`B.ID`), not copied: a property of its
  /// type is the error that says so.
  private func storableTable(_ type: TypeSyntax, from scope: [String]) -> TypeDeclaration? {
    guard let name = type.dottedName, let declaration = resolve(name, from: scope), declaration.kind == .struct,
      tableNames[declaration.qualifiedName] != nil, primaryKeys[declaration.qualifiedName] == nil,
      typeOptions[declaration.qualifiedName]?.compositeKey == nil, !isFullTextIndex(declaration),
      typeOptions[declaration.qualifiedName]?.viewSelect == nil
    else { return nil }
    let inner = declaration.scope + [declaration.name]
    for field in declaration.properties where !field.isStatic && field.storage == .stored {
      guard let named = field.type?.unwrapped.type.dottedName, let resolved = resolve(named, from: inner) else { continue }
      if tableNames[resolved.qualifiedName] != nil { return nil }
    }
    return declaration
  }

  /// The `Selection` `type` names, when it can be stored as columns: a struct whose fields are
  /// columns and such groups, or an enum whose cases each hold one value of a column or a group.
  func storableGroup(_ type: TypeSyntax, from scope: [String], seen: Set<String> = []) -> TypeDeclaration? {
    guard let name = type.dottedName, let declaration = resolve(name, from: scope),
      conforms(declaration, to: ["Selection"]), !seen.contains(declaration.qualifiedName)
    else { return nil }
    let seen = seen.union([declaration.qualifiedName])
    let inner = declaration.scope + [declaration.name]
    let valueTypes: [TypeSyntax?]
    if declaration.kind == .enum {
      guard !declaration.cases.isEmpty,
        declaration.cases.allSatisfy({ $0.associatedValues?.count == 1 && $0.associatedValues?[0].type != nil })
      else { return nil }
      valueTypes = declaration.cases.map { $0.associatedValues?[0].type }
    } else {
      valueTypes = declaration.properties.filter { !$0.isStatic && $0.storage == .stored }.map(\.type)
    }
    for valueType in valueTypes {
      guard let named = valueType?.unwrapped.type.dottedName, let field = resolve(named, from: inner) else { continue }
      if tableNames[field.qualifiedName] != nil { return nil }
      if conforms(field, to: ["Selection"]),
        storableGroup(valueType!.unwrapped.type, from: inner, seen: seen) == nil
      {
        return nil
      }
    }
    return declaration
  }

  /// The columns a storable group is made of, in order, each as declared.
  func leaves(of group: TypeDeclaration, isNullable: Bool) -> [GroupLeaf] {
    let scope = group.scope + [group.name]
    guard group.kind == .enum else {
      return group.properties.filter { !$0.isStatic && $0.storage == .stored && !options(of: $0).isEphemeral }
        .flatMap { field in
          let optional = field.type?.unwrapped.isOptional ?? false
          if let field = field.type, let inner = storableGroup(field.unwrapped.type, from: scope) {
            return leaves(of: inner, isNullable: isNullable || optional)
          }
          return [GroupLeaf(property: field, owner: group, isNullable: isNullable)]
        }
    }
    return group.cases.flatMap { enumCase -> [GroupLeaf] in
      guard let value = enumCase.associatedValues?.first?.type else { return [] }
      if let inner = storableGroup(value, from: scope) { return leaves(of: inner, isNullable: true) }
      return [GroupLeaf(property: Self.property(of: enumCase, value: value), owner: group, isNullable: true)]
    }
  }

  /// How a group's value is stored, with its columns named as `column` gives the name of an
  /// owner's field or case.
  func storedShape(
    of group: TypeDeclaration, isOptional: Bool, column: (_ owner: TypeDeclaration, _ name: String) -> String?
  ) -> StoredShape {
    let scope = group.scope + [group.name]
    guard group.kind == .enum else {
      let fields = group.properties.filter { !$0.isStatic && $0.storage == .stored && !options(of: $0).isEphemeral }
        .compactMap { field -> StoredShape? in
          let optional = field.type?.unwrapped.isOptional ?? false
          if let type = field.type, let inner = storableGroup(type.unwrapped.type, from: scope) {
            return storedShape(of: inner, isOptional: optional, column: column)
          }
          return column(group, field.name).map { .column($0, isOptional: optional) }
        }
      return .group(fields, isOptional: isOptional)
    }
    let cases = group.cases.compactMap { enumCase -> StoredShape? in
      guard let value = enumCase.associatedValues?.first?.type else { return nil }
      if let inner = storableGroup(value, from: scope) { return storedShape(of: inner, isOptional: false, column: column) }
      return column(group, enumCase.name).map { .column($0, isOptional: false) }
    }
    return .enumeration(cases, isOptional: isOptional)
  }

  /// The rule that keeps `property`, a group that is or holds an enum, readable (see
  /// ``CaseRule``), with its literal default case; nil for a group without an enum.
  mutating func caseRule(
    of property: PropertyDeclaration, group: TypeDeclaration, isOptional: Bool,
    column: (_ owner: TypeDeclaration, _ name: String) -> String?
  ) -> CaseRule? {
    let shape = storedShape(of: group, isOptional: isOptional, column: column)
    guard shape.holdsEnum else { return nil }
    var rule = CaseRule(property: property.name, swiftType: group.qualifiedName, shape: shape)
    if group.kind == .enum, let initializer = property.initializer,
      case .enumCase(_, let name, let value) = initializer.value,
      let enumCase = group.cases.first(where: { $0.name == name }), let valueType = enumCase.associatedValues?.first?.type,
      storableGroup(valueType, from: group.scope + [group.name]) == nil, let caseColumn = column(group, name)
    {
      let caseProperty = Self.property(of: enumCase, value: valueType)
      if let storage = storage(of: valueType.unwrapped.type, for: caseProperty, scope: group.scope + [group.name], seen: []),
        let value = sqlDefault(Expression(text: initializer.text, value: value, location: initializer.location), storage: storage, property: caseProperty)
      {
        rule.defaultCase = [caseColumn: value.sql]
      }
    }
    return rule
  }

  /// A `Selection` enum: its cases, and their columns as the columns of the enum's table (for
  /// common table expressions, and for the group's columns in queries).
  mutating func translateEnumSelection(_ type: TypeDeclaration) -> SelectionModel? {
    let scope = type.scope + [type.name]
    var cases: [CaseModel] = []
    var columns: [ColumnModel] = []
    if type.cases.isEmpty {
      diagnostics.error("Selection enum '\(type.qualifiedName)' has no cases", at: type.location)
    }
    for enumCase in type.cases {
      guard let values = enumCase.associatedValues, values.count == 1, let value = values[0].type else {
        diagnostics.error(
          enumCase.associatedValues == nil
            ? "case '\(enumCase.name)' of Selection enum '\(type.qualifiedName)' has no associated value; each case stores one value, a column's or a column group's (a Selection struct)"
            : "case '\(enumCase.name)' of Selection enum '\(type.qualifiedName)' has \(enumCase.associatedValues!.count) associated values; each case stores one, so make it a Selection struct of them",
          at: enumCase.location)
        continue
      }
      let (unwrapped, isOptional) = value.unwrapped
      if isOptional {
        diagnostics.error(
          "case '\(enumCase.name)' of Selection enum '\(type.qualifiedName)' holds an optional value; a NULL column means another case, so the value cannot be nil",
          at: enumCase.location)
        continue
      }
      let access = memberAccess(of: type)
      let typeAccess = typeAccess([value], from: scope)
      if let group = storableGroup(unwrapped, from: scope) {
        let model = ColumnGroupModel(propertyName: enumCase.name, swiftType: group.qualifiedName, isOptional: true, access: access)
        for leaf in leaves(of: group, isNullable: true) {
          columns.append(groupColumn(leaf.property, in: model, access: access))
        }
      } else if let name = unwrapped.dottedName, let declaration = resolve(name, from: scope),
        tableNames[declaration.qualifiedName] != nil || conforms(declaration, to: ["Selection"])
      {
        diagnostics.error(
          "case '\(enumCase.name)' of Selection enum '\(type.qualifiedName)' holds '\(name)', which is not stored as columns; a case holds a column's value or a Selection of columns",
          at: enumCase.location)
        continue
      } else {
        let property = Self.property(of: enumCase, value: value)
        guard storage(of: unwrapped, for: property, scope: scope, seen: []) != nil else { continue }
        columns.append(
          ColumnModel(
            propertyName: enumCase.name, access: access, typeAccess: typeAccess, location: enumCase.location,
            columnName: enumCase.name, previousColumnName: nil, propertyType: unwrapped.swiftText + "?",
            valueType: unwrapped.swiftText + "?", representation: nil, isOptional: true, defaultExpression: nil))
      }
      cases.append(CaseModel(name: enumCase.name, label: values[0].label, valueType: unwrapped.swiftText))
    }
    guard cases.count == type.cases.count, !cases.isEmpty else { return nil }
    var model = SelectionModel(
      swiftName: type.qualifiedName, location: type.location, access: memberAccess(of: type), fields: [],
      tableName: Naming.tableName(forType: type.name), columns: columns)
    model.cases = cases
    return model
  }

  /// An enum case's value as the property that stores it: named after the case.
  private static func property(of enumCase: EnumCase, value: TypeSyntax) -> PropertyDeclaration {
    PropertyDeclaration(
      name: enumCase.name, location: enumCase.location, isLet: true, isStatic: false, isLazy: false,
      accessLevel: nil, attributes: [], annotations: [], type: value, initializer: nil, storage: .stored,
      isConditional: false)
  }

  /// A column of a group inside a selection's table: only its name and group are emitted.
  func groupColumn(_ property: PropertyDeclaration, in group: ColumnGroupModel, access: MemberAccess) -> ColumnModel {
    var column = ColumnModel(
      propertyName: property.name, access: access, typeAccess: access, location: property.location,
      columnName: property.name, previousColumnName: nil, propertyType: "", valueType: "", representation: nil,
      isOptional: group.isOptional, defaultExpression: nil)
    column.group = group
    // A generated field is the database's to compute in the tables that store the group: the
    // group's encoding leaves it out, as the table's does.
    column.isGenerated = options(of: property).generatedExpression != nil
    return column
  }
}

/// Selections: row types whose fields are whole tables, columns or aggregates. A selection whose
/// fields are all columns can also be the table of a common table expression, so it gets a
/// `Table` conformance too (no `CREATE TABLE`: it is never stored).
extension ModelTranslator {
  /// Names Strata's protocols use on a selection, which a field cannot have.
  static let generatedSelectionMembers: Set<String> = ["Columns", "QueryOutput", "Unwrapped"]

  mutating func translateSelection(_ type: TypeDeclaration) -> SelectionModel? {
    if type.kind == .enum { return translateEnumSelection(type) }
    let scope = type.scope + [type.name]
    var fields: [FieldModel] = []
    var columns: [ColumnModel] = []
    var isTable = true
    rejectGeneratedNames(in: type, names: ["Columns"])
    for property in type.properties where !property.isStatic && property.storage == .stored {
      if options(of: property).isEphemeral {
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
      if Self.generatedSelectionMembers.contains(property.name) {
        diagnostics.error(
          "field '\(property.name)' has the name of a member Strata generates for '\(type.qualifiedName)', so the conformance would not compile; rename it",
          at: property.location)
        continue
      }
      let representation = options(of: property).representation
      if let representation, StorageType.isReadOnlyRepresentation(representation) {
        // Read, never written: the selection is not the table of a common table expression.
        isTable = false
      } else if let representation {
        guard StorageType.representationStorage(representation) != nil else {
          diagnostics.error(
            "unknown representation '\(representation.text)'; known representations: \(StorageType.representationList), and in a Selection JSONArray<Row>, JSONObject<Row>",
            at: property.location)
          continue
        }
      } else if let group = storableGroup(unwrapped, from: scope) {
        // A group of columns: its columns are the common table expression's.
        let model = ColumnGroupModel(
          propertyName: property.name, swiftType: group.qualifiedName, isOptional: isOptional,
          access: memberAccess(of: property, in: type))
        columns += leaves(of: group, isNullable: isOptional).map { groupColumn($0.property, in: model, access: model.access) }
        isTable = isTable && !Self.generatedTableMembers.contains(property.name)
        fields.append(field(property, in: type, declaredType: declaredType, representation: nil, scope: scope))
        continue
      } else if let name = unwrapped.dottedName, let declaration = resolve(name, from: scope),
        tableNames[declaration.qualifiedName] != nil || conforms(declaration, to: ["Selection"])
      {
        // A whole table or a selection of more than columns: not a column of a common table
        // expression.
        isTable = false
      } else if storage(of: unwrapped, for: property, scope: scope, seen: []) == nil {
        continue
      }
      let valueType = representation.map(\.swiftText) ?? unwrapped.swiftText
      let propertyType = isOptional ? unwrapped.swiftText + "?" : unwrapped.swiftText
      isTable = isTable && !Self.generatedTableMembers.contains(property.name)
      var column = ColumnModel(
        propertyName: property.name, access: memberAccess(of: property, in: type),
        typeAccess: typeAccess([declaredType] + (representation.map { [$0] } ?? []), from: scope),
        location: property.location, columnName: property.name, previousColumnName: nil,
        propertyType: propertyType, valueType: isOptional ? valueType + "?" : valueType,
        representation: representation?.swiftText, isOptional: isOptional, defaultExpression: nil)
      // Computed by the database where the selection is a table's column group.
      column.isGenerated = options(of: property).generatedExpression != nil
      columns.append(column)
      fields.append(field(property, in: type, declaredType: declaredType, representation: representation, scope: scope))
    }
    if fields.isEmpty, !type.properties.contains(where: { !$0.isStatic && $0.storage == .stored && !options(of: $0).isEphemeral }) {
      diagnostics.error("Selection '\(type.qualifiedName)' has no stored properties", at: type.location)
    }
    if fields.isEmpty { return nil }
    return SelectionModel(
      swiftName: type.qualifiedName, location: type.location, access: memberAccess(of: type), fields: fields,
      tableName: isTable ? Naming.tableName(forType: type.name) : nil, columns: isTable ? columns : [])
  }

  private func field(
    _ property: PropertyDeclaration, in type: TypeDeclaration, declaredType: TypeSyntax, representation: TypeSyntax?,
    scope: [String]
  ) -> FieldModel {
    let (unwrapped, isOptional) = declaredType.unwrapped
    let valueType = representation.map(\.swiftText) ?? unwrapped.swiftText
    return FieldModel(
      name: property.name, access: memberAccess(of: property, in: type),
      typeAccess: typeAccess([declaredType] + (representation.map { [$0] } ?? []), from: scope),
      valueType: isOptional ? valueType + "?" : valueType,
      unwrappedValueType: valueType, isOptional: isOptional)
  }
}

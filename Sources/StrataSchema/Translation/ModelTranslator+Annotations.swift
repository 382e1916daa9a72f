/// Reading annotations, and reporting every known annotation that would otherwise apply to
/// nothing: on a type that is not a model, on a computed or static property, on a function or
/// enum case, on an extension, or not directly above any declaration.
extension ModelTranslator {
  /// Reads the annotations of a type and its properties once, with validation for models and a
  /// check for known annotations everywhere else.
  mutating func readAnnotations(of type: TypeDeclaration, role: Role?) {
    guard let role else {
      rejectAnnotations(onNonModel: type)
      return
    }
    if !type.annotations.isEmpty {
      let options = Annotations.read(type.annotations, on: .type, diagnostics: &diagnostics)
      if role == .selection, let location = options.present["Table"] {
        diagnostics.error("@Table on '\(type.qualifiedName)', a Selection: only a Table has a table name", at: location)
      }
      typeOptions[type.qualifiedName] = options
    }
    for property in type.properties {
      let options = Annotations.read(property.annotations, on: .storedProperty, diagnostics: &diagnostics)
      propertyOptions[property.location] = options
      if property.isStatic || property.storage == .computed {
        let kind = property.isStatic ? "static" : "computed"
        for (name, location) in options.present.sorted(by: { $0.value < $1.value }) {
          diagnostics.error(
            "@\(name) on \(kind) property '\(property.name)' does nothing: only stored instance properties are columns",
            at: location)
        }
      } else if role == .selection {
        for (name, location) in options.present.sorted(by: { $0.value < $1.value })
        where name != "Ephemeral" && name != "Column" && name != "Generated" {
          diagnostics.error(
            "@\(name) on '\(property.name)' does nothing: '\(type.qualifiedName)' is a Selection, whose fields are not columns; in a Selection only @Column(as:), @Generated and @Ephemeral apply",
            at: location)
        }
        for (key, location) in options.argumentLocations.sorted(by: { $0.value < $1.value })
        where key.hasPrefix("Column.") && key != "Column.as" {
          diagnostics.error(
            "this @Column argument does nothing on '\(property.name)', a field of the Selection '\(type.qualifiedName)': in a Selection only @Column(as:) applies",
            at: location)
        }
      }
    }
  }

  /// Known annotations on a type that is not a model, and on its properties, apply to nothing.
  private mutating func rejectAnnotations(onNonModel type: TypeDeclaration) {
    for annotation in type.annotations where Annotations.byName[annotation.name] != nil {
      diagnostics.error(
        "@\(annotation.name) on '\(type.qualifiedName)', which does not conform to Table, does nothing",
        at: annotation.location)
    }
    for property in type.properties {
      for annotation in property.annotations where Annotations.byName[annotation.name] != nil {
        diagnostics.error(
          "@\(annotation.name) on '\(property.name)' does nothing: '\(type.qualifiedName)' does not conform to Table",
          at: annotation.location)
      }
    }
  }

  /// Known annotations on extensions, on declarations that are not types or properties, and
  /// those directly above no declaration. Only Strata's annotation names count: elsewhere a
  /// comment that starts with `@` may be prose.
  mutating func checkAnnotationsOutsideModels(modelFiles: Set<String>) {
    for type in extensions.values.flatMap({ $0 }) {
      for annotation in type.annotations + type.properties.flatMap(\.annotations)
      where Annotations.byName[annotation.name] != nil {
        diagnostics.error(
          "@\(annotation.name) in an extension does nothing: annotations go on the struct's own declaration and its stored properties",
          at: annotation.location)
      }
    }
    for file in files {
      for misplaced in file.misplacedAnnotations where Annotations.byName[misplaced.annotation.name] != nil {
        diagnostics.error(
          "@\(misplaced.annotation.name) above \(misplaced.declaration) does nothing: annotations apply to types and stored properties",
          at: misplaced.annotation.location)
      }
      for annotation in file.unattachedAnnotations where Annotations.byName[annotation.name] != nil {
        let message =
          "@\(annotation.name) is not directly above a declaration, so it applies to nothing; put it on the line right above the type or property, with no blank line between"
        if modelFiles.contains(file.path) {
          diagnostics.error(message, at: annotation.location)
        } else {
          diagnostics.warning(message, at: annotation.location)
        }
      }
    }
  }
}

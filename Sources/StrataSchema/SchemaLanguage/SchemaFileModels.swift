/// A schema file turned into the Swift models it stands for, with the way back from a line of
/// that Swift to the schema file, so that every diagnostic points at what the user wrote.
struct SchemaFileModels: Sendable {
  /// The Swift the front-end reads: the imports, then the models.
  let swift: String
  /// The models alone, for the file the build compiles.
  let declarations: String
  /// For each line of ``swift``, where it comes from in the schema file.
  private let origins: [SourceLocation]
  /// Grammar errors, and names the models cannot carry.
  let diagnostics: [Diagnostic]

  static let imports = ["import Foundation", "import Strata", ""]

  init(path: String, contents: String) {
    let parsed = SchemaFileParser.parse(contents, path: path)
    let rendered = SchemaFileRenderer.render(parsed.file)
    let first = rendered.origins.first ?? SourceLocation(path: path, line: 1, column: 1)
    declarations = rendered.lines.joined(separator: "\n") + (rendered.lines.isEmpty ? "" : "\n")
    swift = (Self.imports + rendered.lines).joined(separator: "\n") + "\n"
    origins = Array(repeating: first, count: Self.imports.count) + rendered.origins
    diagnostics = parsed.diagnostics.all + rendered.diagnostics.all
  }

  /// The schema file's place for a place in ``swift``.
  func origin(of location: SourceLocation) -> SourceLocation {
    guard location.line >= 1, location.line <= origins.count else { return location }
    return origins[location.line - 1]
  }
}

extension ModelSet {
  /// The set with every location moved by `move`: from generated Swift to a schema file.
  func relocated(_ move: (SourceLocation) -> SourceLocation) -> ModelSet {
    var copy = self
    for index in copy.tables.indices {
      copy.tables[index].location = move(copy.tables[index].location)
      for column in copy.tables[index].columns.indices {
        copy.tables[index].columns[column].location = move(copy.tables[index].columns[column].location)
      }
    }
    for index in copy.selections.indices { copy.selections[index].location = move(copy.selections[index].location) }
    for index in copy.bindableEnums.indices { copy.bindableEnums[index].location = move(copy.bindableEnums[index].location) }
    copy.warnings = warnings.map { Diagnostic($0.severity, $0.message, at: move($0.location)) }
    return copy
  }
}

/// A schema file read: the declarations the translator reads, and the Swift models it stands
/// for, which the build compiles.
struct SchemaFileModels: Sendable {
  /// The declarations of the models, with their places in the schema file.
  let declarations: SourceFileDeclarations
  /// The models as Swift, without imports, for the file the build compiles.
  let swift: String
  /// Grammar errors, and names the models cannot carry.
  let diagnostics: [Diagnostic]

  init(path: String, contents: String) {
    let parsed = SchemaFileParser.parse(contents, path: path)
    let rendered = SchemaFileRenderer.render(parsed.file)
    declarations = SchemaFileDeclarations.declarations(of: parsed.file)
    swift = rendered.lines.joined(separator: "\n") + (rendered.lines.isEmpty ? "" : "\n")
    diagnostics = parsed.diagnostics.all + rendered.diagnostics.all
  }
}

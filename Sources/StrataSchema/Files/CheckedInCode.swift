import Foundation

/// A module's generated code, checked in by `generate-migrations --code`: the conformances, and
/// the Swift models of its schema files next to them when it has any. The build compiles these
/// files; the build plugin only checks that they still match the models.
public struct CheckedInCode: Sendable {
  /// The conformances file, `Generated/StrataModels.swift` in the module.
  public let conformances: String
  /// The schema files' models, beside the conformances.
  public var schemaModels: String {
    ((conformances as NSString).deletingLastPathComponent as NSString).appendingPathComponent("StrataSchemaModels.swift")
  }

  var files: [String] { [conformances, schemaModels] }

  public init(conformances: String) {
    self.conformances = conformances
  }

  /// What each file must hold for `generator`'s models, by path: the schema models only when
  /// there are schema files.
  public func contents(for generator: Generator, models: ModelSet) -> [(path: String, text: String)] {
    var files = [(conformances, generator.conformances(of: models, checkedIn: true))]
    if let schemaModels = generator.schemaFileModels(checkedIn: true) { files.append((self.schemaModels, schemaModels)) }
    return files
  }
}

import Foundation

/// The generator's entry point: reads a module's Swift files and produces its models and their
/// generated code.
public struct Generator: Sendable {
  /// The Swift files read, sorted.
  public let files: [String]
  /// The module's directory, to which file names in headers are relative.
  public let root: String?
  private let sources: [(path: String, contents: String)]
  /// Each schema file as the Swift models it stands for, by path, in file order.
  private let schemaFiles: [(path: String, models: SchemaFileModels)]
  /// The module the generated code imports.
  public var runtime = RuntimeModule.strata

  /// - Parameters:
  ///   - inputs: Swift files or directories to search for them.
  ///   - root: The module's directory.
  ///   - checkedInCode: The module's checked-in generated code (``CheckedInCode``), which is
  ///     among its Swift files but is output, not models. Data migrations
  ///     (``MigrationFiles/isDataMigration(_:)``) are not models either.
  public init(inputs: [String], root: String?, excluding checkedInCode: CheckedInCode? = nil) throws {
    let excluded = Set((checkedInCode?.files ?? []).map { URL(fileURLWithPath: $0).standardizedFileURL.path })
    self.files = try SourceFiles.collect(inputs, suffixes: [".swift", ".strata"])
      .filter { !excluded.contains(URL(fileURLWithPath: $0).standardizedFileURL.path) && !MigrationFiles.isDataMigration($0) }
    self.root = root
    self.sources = try files.map { ($0, try SourceFiles.read($0)) }
    self.schemaFiles = Self.schemaFiles(in: sources)
  }

  /// Generates from sources held in memory (for tests and benchmarks).
  public init(sources: [(path: String, contents: String)], root: String? = nil) {
    self.files = sources.map(\.path)
    self.root = root
    self.sources = sources
    self.schemaFiles = Self.schemaFiles(in: sources)
  }

  private static func schemaFiles(
    in sources: [(path: String, contents: String)]
  ) -> [(path: String, models: SchemaFileModels)] {
    sources.filter { $0.path.hasSuffix(".strata") }.map { ($0.path, SchemaFileModels(path: $0.path, contents: $0.contents)) }
  }

  /// The models the files declare; throws ``DiagnosticsError`` with every problem found.
  ///
  /// Swift files are parsed; a schema file (`*.strata`) gives the declarations of the Swift
  /// models it stands for, placed in the schema file, so diagnostics point into it.
  public func models(for dialect: DatabaseDialect = .sqlite) throws -> ModelSet {
    let schemaFiles = Dictionary(self.schemaFiles.map { ($0.path, $0.models) }, uniquingKeysWith: { first, _ in first })
    let grammar = schemaFiles.values.flatMap(\.diagnostics)
    if grammar.contains(where: { $0.severity == .error }) {
      throw DiagnosticsError(grammar)
    }
    let parsed = sources.map { source in
      schemaFiles[source.path]?.declarations ?? SwiftParser.parse(source.contents, path: source.path)
    }
    var models = try ModelTranslator.translate(parsed, for: dialect)
    models.dialect = dialect
    return models
  }

  /// The Swift models of the schema files, for the build to compile; nil when there are none.
  ///
  /// - Parameter checkedIn: Whether the file is checked in rather than written by the build
  ///   plugin; only the header's instructions differ.
  public func schemaFileModels(checkedIn: Bool = false) -> String? {
    guard !schemaFiles.isEmpty else { return nil }
    return SwiftEmitter.schemaModels(
      schemaFiles.map(\.models.swift), sources: schemaFiles.map { SourceFiles.relative($0.path, to: root) },
      checkedIn: checkedIn, runtime: runtime)
  }

  /// The conformances file.
  public func conformances() throws -> String {
    conformances(of: try models())
  }

  /// The conformances file for models already translated.
  ///
  /// - Parameter checkedIn: Whether the file is checked in rather than written by the build
  ///   plugin; only the header's instructions differ.
  public func conformances(of models: ModelSet, checkedIn: Bool = false) -> String {
    SwiftEmitter.conformances(
      models, sources: models.modelFiles.map { SourceFiles.relative($0, to: root) }, checkedIn: checkedIn, runtime: runtime)
  }

  /// The conformances of the models each of `files` declares, each in a file of its own in
  /// `directory` (named by ``ModuleGeneration/perFileOutputName(of:)``), and the rest as one
  /// more file's text.
  public func conformances(
    of models: ModelSet, splittingFiles files: [String], into directory: String
  ) -> (shared: String, byFile: [(path: String, text: String)]) {
    let split = SwiftEmitter.conformances(
      models, splittingFiles: files, relative: { SourceFiles.relative($0, to: root) }, runtime: runtime)
    let paths = files.map { (directory as NSString).appendingPathComponent(ModuleGeneration.perFileOutputName(of: $0)) }
    return (split.shared, zip(paths, split.byFile).map { ($0, $1) })
  }
}

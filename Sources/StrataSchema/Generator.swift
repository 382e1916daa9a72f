import Foundation

/// The generator's entry point: reads a module's Swift files and produces its models and their
/// generated code.
public struct Generator: Sendable {
  /// The Swift files read, sorted.
  public let files: [String]
  /// The module's directory, to which file names in headers are relative.
  public let root: String?
  private let sources: [(path: String, contents: String)]

  /// - Parameters:
  ///   - inputs: Swift files or directories to search for them.
  ///   - root: The module's directory.
  ///   - generatedFile: The module's checked-in generated code, which is among its Swift files
  ///     but is output, not models.
  public init(inputs: [String], root: String?, excluding generatedFile: String? = nil) throws {
    let excluded = generatedFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    self.files = try SourceFiles.collect(inputs, suffix: ".swift")
      .filter { URL(fileURLWithPath: $0).standardizedFileURL.path != excluded }
    self.root = root
    self.sources = try files.map { ($0, try SourceFiles.read($0)) }
  }

  /// Generates from sources held in memory (for tests and benchmarks).
  public init(sources: [(path: String, contents: String)], root: String? = nil) {
    self.files = sources.map(\.path)
    self.root = root
    self.sources = sources
  }

  /// The models the files declare; throws ``DiagnosticsError`` with every problem found.
  public func models() throws -> ModelSet {
    try ModelTranslator.translate(sources.map { SwiftParser.parse($0.contents, path: $0.path) })
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
      models, sources: models.modelFiles.map { SourceFiles.relative($0, to: root) }, checkedIn: checkedIn)
  }
}

import Foundation
import Testing

@testable import StrataSchema

/// Bad, hostile and odd input, one file per case, each with its expected outcome written at its
/// top:
///
/// - `// expect: error 3:7 fragment` (or `warning`): a diagnostic at that line and column whose
///   message contains the fragment. Every diagnostic a case produces must be expected.
/// - `// expect: accepted`: no error; a `/* expect-schema … */` block comment gives the DDL.
///
/// Model cases (`Corpus/Models/*.swift`) are translated as a module of one file, as
/// `strata schema` does; migration cases (`Corpus/Migrations/*`, with `-- expect:` lines) are
/// validated alone, as the build plugin does.
@Suite struct CorpusTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

  static func cases(in folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(folder).path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted()
  }

  static let modelCases = cases(in: "Models")
  static let migrationCases = cases(in: "Migrations")

  struct Expectation: CustomStringConvertible {
    var severity: Diagnostic.Severity
    var line: Int
    var column: Int
    var fragment: String

    var description: String { "\(severity.rawValue) \(line):\(column) \(fragment)" }

    func matches(_ diagnostic: Diagnostic) -> Bool {
      diagnostic.severity == severity && diagnostic.location.line == line && diagnostic.location.column == column
        && diagnostic.message.contains(fragment)
    }
  }

  /// The `expect:` lines of a case, after `marker` (`//` or `--`).
  static func expectations(_ text: String, marker: String) -> (accepted: Bool, diagnostics: [Expectation]) {
    var accepted = false
    var expected: [Expectation] = []
    for rawLine in text.split(whereSeparator: \.isNewline) {
      let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
      guard line.hasPrefix("\(marker) expect: ") else { continue }
      let body = line.dropFirst("\(marker) expect: ".count)
      if body == "accepted" {
        accepted = true
        continue
      }
      let parts = body.split(separator: " ", maxSplits: 2)
      let position = parts[1].split(separator: ":")
      expected.append(
        Expectation(
          severity: Diagnostic.Severity(rawValue: String(parts[0]))!, line: Int(position[0])!, column: Int(position[1])!,
          fragment: parts.count > 2 ? String(parts[2]) : ""))
    }
    return (accepted, expected)
  }

  static func check(_ found: [Diagnostic], against expected: [Expectation], accepted: Bool, case name: String) {
    #expect(accepted || !expected.isEmpty, "\(name) states no expectation")
    if accepted {
      #expect(!found.contains { $0.severity == .error }, "\(name) should be accepted, got \(found)")
    }
    for expectation in expected {
      #expect(found.contains(where: expectation.matches), "\(name): expected \(expectation), got \(found.map(\.description))")
    }
    for diagnostic in found {
      #expect(expected.contains { $0.matches(diagnostic) }, "\(name): unexpected \(diagnostic)")
    }
  }

  @Test func theCorpusIsLargeEnough() {
    #expect(Self.modelCases.count + Self.migrationCases.count >= 60)
  }

  @Test(arguments: modelCases)
  func modelCase(_ name: String) throws {
    let text = try String(contentsOf: Self.corpus.appendingPathComponent("Models/\(name)"), encoding: .utf8)
    let (accepted, expected) = Self.expectations(text, marker: "//")
    var found: [Diagnostic] = []
    var models: ModelSet?
    do {
      models = try Generator(sources: [(name, text)]).models()
      found = models!.warnings
    } catch let error as DiagnosticsError {
      found = error.diagnostics
    }
    Self.check(found, against: expected, accepted: accepted, case: name)
    if let start = text.range(of: "/* expect-schema\n") {
      let end = try #require(text.range(of: "*/", range: start.upperBound..<text.endIndex), "\(name): unterminated expect-schema")
      let schema = try #require(models, "\(name) has an expected schema but was not accepted")
      let expected = String(text[start.upperBound..<end.lowerBound]).trimmingCharacters(in: .newlines)
      #expect(SQLRenderer.schema(schema.schema) == expected, "\(name)")
    }
  }

  @Test(arguments: migrationCases)
  func migrationCase(_ name: String) throws {
    let source = Self.corpus.appendingPathComponent("Migrations/\(name)")
    let data = try Data(contentsOf: source)
    var text = String(decoding: data, as: UTF8.self)
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    let (accepted, expected) = Self.expectations(text, marker: "--")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-corpus-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try data.write(to: directory.appendingPathComponent(name))
    var found: [Diagnostic] = []
    do {
      let files = try MigrationFiles(directory: directory.path, root: nil)
      found = files.warnings
      // The build plugin's replay; where it passes, the planner's fast schema-only replay must
      // agree with it.
      let real = try SQLiteConnection()
      try MigrationReplay.apply(files.files, to: real)
      let replayed = try MigrationReplay.schema(of: files.files)
      #expect(try SchemaIntrospector.introspect(replayed).schema == SchemaIntrospector.introspect(real).schema, "\(name)")
    } catch let error as DiagnosticsError {
      found += error.diagnostics
    }
    let relocated = found.map { diagnostic in
      var diagnostic = diagnostic
      diagnostic.location.path = (diagnostic.location.path as NSString).lastPathComponent
      return diagnostic
    }
    Self.check(relocated, against: expected, accepted: accepted, case: name)
  }
}

import Foundation
import StrataSchema
import Testing

/// `strata.json`: the dialect, the compatibility window and the marked releases, read with an
/// error at the file for anything else, and written back in one order.
@Suite struct MigrationSettingsTests {
  func read(_ json: String) throws -> MigrationSettings {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-settings-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try json.write(to: directory.appendingPathComponent("strata.json"), atomically: true, encoding: .utf8)
    return try MigrationSettings.read(migrations: directory.path)
  }

  func error(_ json: String) -> String {
    do {
      _ = try read(json)
      return "no error"
    } catch {
      return "\(error)".components(separatedBy: "strata.json:").last ?? "\(error)"
    }
  }

  @Test func theWindowIsAMigrationOrANumberOfReleases() throws {
    #expect(try read(#"{"compatibleWith": "0012"}"#) == MigrationSettings(compatibleWith: .migration(12)))
    #expect(
      try read(#"{"dialect": "postgresql", "compatibleWith": {"releases": 2}, "releases": {"2.4": "0015", "2.3": "0012"}}"#)
        == MigrationSettings(
          dialect: .postgresql, compatibleWith: .releases(2), releases: [.init(name: "2.3", migration: 12), .init(name: "2.4", migration: 15)]))
    #expect(error(#"{"compatibleWith": 12}"#).hasPrefix(#"1:1: error: "compatibleWith" is a migration's number, such as "0012""#))
    #expect(error(#"{"compatibleWith": {"releases": 0}}"#).hasPrefix(#"1:1: error: "compatibleWith" is a migration's number"#))
    #expect(error(#"{"releases": {"2.3": "twelve"}}"#) == #"1:1: error: release "2.3": twelve is not a migration's number, such as "0012""#)
    #expect(error(#"{"window": "0012"}"#).hasPrefix(#"1:1: error: unknown setting "window""#))
  }

  @Test func aMarkedReleaseIsWrittenBackInOneOrder() throws {
    var settings = try read(#"{"releases": {"2.3": "0012"}, "compatibleWith": {"releases": 2}}"#)
    #expect(try settings.markRelease("2.4", at: 15))
    #expect(try !settings.markRelease("2.4", at: 15))
    #expect(throws: InputError.self) { try settings.markRelease("2.3", at: 15) }
    #expect(settings.text == """
      {
        "compatibleWith": {"releases": 2},
        "releases": {
          "2.3": "0012",
          "2.4": "0015"
        }
      }

      """)
    #expect(try read(settings.text) == settings)
    var quoted = MigrationSettings()
    _ = try quoted.markRelease("2.5 \"beta\"\n", at: 3)
    #expect(try read(quoted.text) == quoted)
  }

  @Test func aWindowFromAMigrationThatDoesNotExistIsAnError() throws {
    let files = try MigrationFiles(directory: "/nonexistent", root: nil)
    #expect {
      try CompatibilityWindow.resolve(
        MigrationSettings(compatibleWith: .migration(3)), files: files.files, at: SourceLocation(path: "strata.json", line: 1, column: 1))
    } throws: { error in
      "\(error)" == #"strata.json:1:1: error: "compatibleWith": no migration is numbered 0003; there are no migrations yet"#
    }
    #expect(try CompatibilityWindow.resolve(MigrationSettings(compatibleWith: .releases(2)), files: files.files, at: SourceLocation(path: "", line: 1, column: 1)) == nil)
  }
}

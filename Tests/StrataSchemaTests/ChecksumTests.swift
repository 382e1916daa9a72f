import Foundation
import Testing

@testable import StrataSchema

/// The checksums of migration files and the checked-in manifest that catches edited history.
@Suite struct ChecksumTests {
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (String(repeating: "a", count: 1_000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
  ])
  func sha256MatchesTheStandardVectors(_ message: String, _ digest: String) {
    #expect(SHA256.hex(message.utf8) == digest)
  }

  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sums-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  func write(_ name: String, _ sql: String) throws {
    try sql.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
  }

  func files() throws -> [MigrationFiles.File] {
    try MigrationFiles(directory: directory.path, root: nil).files
  }

  @Test func theManifestRoundTripsAndSaysWhatChanged() throws {
    try write("0001_a.sql", "CREATE TABLE a (x) STRICT;")
    try write("0002_b.sql", "CREATE TABLE b (x) STRICT;")
    let manifest = ChecksumManifest(files: try files())
    let text = manifest.text(moduleName: "App")
    #expect(text.hasSuffix("0002_b.sql \(SHA256.hex("CREATE TABLE b (x) STRICT;".utf8))\n"))
    #expect(ChecksumManifest(text: text) == manifest)
    #expect(manifest.compare(with: try files(), directory: directory.path).isStale == false)

    // A new file: stale, no error.
    try write("0003_c.sql", "CREATE TABLE c (x) STRICT;")
    var comparison = manifest.compare(with: try files(), directory: directory.path)
    #expect(comparison.isStale && comparison.errors.isEmpty)

    // The newest recorded migration edited while nothing follows it: stale, no error.
    let latest = ChecksumManifest(files: try files())
    try write("0003_c.sql", "CREATE TABLE c (x, y) STRICT;")
    comparison = latest.compare(with: try files(), directory: directory.path)
    #expect(comparison.isStale && comparison.errors.isEmpty)

    // An earlier one edited, or removed: errors at the file, naming the later migration.
    try write("0001_a.sql", "CREATE TABLE a (x, y) STRICT;")
    try FileManager.default.removeItem(at: directory.appendingPathComponent("0002_b.sql"))
    comparison = latest.compare(with: try files(), directory: directory.path)
    #expect(comparison.errors.map { "\(($0.location.path as NSString).lastPathComponent): \($0.message.prefix(60))" } == [
      "0001_a.sql: this migration changed after 0002_b.sql was written; databas",
      "0002_b.sql: the migration 0002_b.sql was removed after 0003_c.sql was wr",
    ])
  }

  @Test func aRenamedMigrationIsAnErrorAndTheNewestRemovedAWarning() throws {
    try write("0001_a.sql", "CREATE TABLE a (x) STRICT;")
    try write("0002_b.sql", "CREATE TABLE b (x) STRICT;")
    let manifest = ChecksumManifest(files: try files())
    func messages(_ diagnostics: [Diagnostic]) -> [String] {
      diagnostics.map { "\(($0.location.path as NSString).lastPathComponent): \($0.severity): \($0.message)" }
    }

    // The newest, renumbered: an error at the new file, though nothing follows it.
    try FileManager.default.moveItem(at: directory.appendingPathComponent("0002_b.sql"), to: directory.appendingPathComponent("0003_b.sql"))
    var comparison = manifest.compare(with: try files(), directory: directory.path)
    #expect(messages(comparison.errors) == [
      "0003_b.sql: error: this migration is 0002_b.sql renamed; databases that ran it under its old name would run it again and apply its changes twice: give it back its name (if no database has run it yet, accept the new name with --accept-edits)"
    ])
    #expect(comparison.warnings.isEmpty && comparison.isStale)

    // The newest, removed: a warning.
    try FileManager.default.removeItem(at: directory.appendingPathComponent("0003_b.sql"))
    comparison = manifest.compare(with: try files(), directory: directory.path)
    #expect(comparison.errors.isEmpty && comparison.isStale)
    #expect(messages(comparison.warnings) == [
      "0002_b.sql: warning: the migration 0002_b.sql was removed; databases that ran it keep its changes, and their apps refuse to migrate them as migrated by a newer version: restore it unless no database has run it"
    ])
  }

  @Test func theRegistryCarriesEachFilesChecksum() throws {
    try write("0001_a.sql", "CREATE TABLE a (x) STRICT;\n")
    let registry = try MigrationFiles(directory: directory.path, root: nil).registry()
    #expect(registry.contains("checksum: \"\(SHA256.hex("CREATE TABLE a (x) STRICT;\n".utf8))\","))
  }

  @Test func theDiagramDrawsTablesKeysAndReferences() throws {
    let models = try Generator(sources: [("Models.swift", MigrationPlannerTests.scorekeeper + "\nstruct Note: Table {\n  // @Column(primaryKey: true)\n  let playerID: Player.ID\n  var text: String?\n}\n")]).models()
    #expect(SchemaDiagram.markdown(models.schema, moduleName: "App") == """
      # The schema of App

      Generated by `swift package generate-migrations` with the schema snapshot; do not edit.

      ```mermaid
      erDiagram
        games {
          TEXT id PK
          TEXT title
        }
        notes {
          TEXT playerID PK, FK
          TEXT text "nullable"
        }
        players {
          TEXT id PK
          TEXT gameID FK
          TEXT name
          INTEGER score
        }
        players ||--o| notes : "playerID"
        games ||--o{ players : "gameID"
      ```

      """)
  }
}

import Foundation

/// The checked-in record of every migration's checksum (`schemas/<Target>.sum`), in the spirit of
/// Atlas' `atlas.sum`: it catches a migration edited or removed after a later one was written.
///
/// Once a later migration exists, the earlier ones have probably run somewhere; GRDB's migrator
/// never runs a migration twice, so an edit would make existing databases and new ones differ
/// without a word. The newest migration may still change (it is being written), and new files
/// are simply added.
public struct ChecksumManifest: Sendable, Equatable {
  /// The migrations' file names and checksums, in the order they run.
  public var entries: [(name: String, checksum: String)]

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.entries.elementsEqual(rhs.entries) { $0.name == $1.name && $0.checksum == $1.checksum }
  }

  /// The manifest of the migrations as they are.
  public init(files: [MigrationFiles.File]) {
    entries = files.map { (($0.path as NSString).lastPathComponent, $0.checksum) }
  }

  /// Reads a manifest file's text; lines starting with `#` are comments.
  public init(text: String) {
    entries = text.split(whereSeparator: \.isNewline).compactMap { line in
      guard !line.hasPrefix("#"), let space = line.lastIndex(of: " ") else { return nil }
      return (String(line[..<space]), String(line[line.index(after: space)...]))
    }
  }

  /// The file's text.
  public func text(moduleName: String) -> String {
    """
    # SHA-256 of each migration of \(SwiftLiteral.comment(moduleName)), in the order they run. Written by
    # `swift package generate-migrations`, which, like --check, fails when a migration listed here
    # changed or disappeared after a later one was written. Do not edit.

    """ + entries.map { "\($0.name) \($0.checksum)\n" }.joined()
  }

  /// How the migrations on disk differ from the recorded ones.
  public struct Comparison: Sendable {
    /// Migrations edited, renamed or removed after a later one was written, and renamed ones,
    /// as errors at their files.
    public var errors: [Diagnostic] = []
    /// The newest migration removed: databases that ran it keep its changes.
    public var warnings: [Diagnostic] = []
    /// Whether the manifest needs rewriting: new files, or an edit of the newest one.
    public var isStale = false
  }

  /// Compares the recorded manifest with the migrations on disk.
  public func compare(with files: [MigrationFiles.File], directory: String) -> Comparison {
    var comparison = Comparison()
    let current = Dictionary(files.map { (($0.path as NSString).lastPathComponent, $0) }, uniquingKeysWith: { first, _ in first })
    let order = Dictionary(files.enumerated().map { (($0.element.path as NSString).lastPathComponent, $0.offset) }, uniquingKeysWith: { first, _ in first })
    let recordedNames = Set(entries.map(\.name))
    for (position, entry) in entries.enumerated() {
      // A later migration: one recorded after this one, or a file that runs after it.
      let later = entries.dropFirst(position + 1).first.map(\.name)
        ?? order[entry.name].flatMap { index in files.dropFirst(index + 1).first.map { ($0.path as NSString).lastPathComponent } }
      guard let file = current[entry.name] else {
        comparison.isStale = true
        // A file with the same text under a name the manifest does not list is this migration
        // renamed: databases that ran it know it by its old name and would run it again.
        if let renamed = files.first(where: { $0.checksum == entry.checksum && !recordedNames.contains(($0.path as NSString).lastPathComponent) }) {
          comparison.errors.append(
            Diagnostic(
              .error,
              "this migration is \(entry.name) renamed; databases that ran it under its old name would run it again and apply its changes twice: give it back its name (if no database has run it yet, accept the new name with --accept-edits)",
              at: SourceLocation(path: renamed.path, line: 1, column: 1)))
          continue
        }
        let location = SourceLocation(path: (directory as NSString).appendingPathComponent(entry.name), line: 1, column: 1)
        guard let later else {
          comparison.warnings.append(
            Diagnostic(
              .warning,
              "the migration \(entry.name) was removed; databases that ran it keep its changes, and their apps refuse to migrate them as migrated by a newer version: restore it unless no database has run it",
              at: location))
          continue
        }
        comparison.errors.append(
          Diagnostic(
            .error,
            "the migration \(entry.name) was removed after \(later) was written; databases that ran it keep its changes and new ones would not get them: restore it",
            at: location))
        continue
      }
      guard file.checksum != entry.checksum else { continue }
      comparison.isStale = true
      if let later {
        comparison.errors.append(
          Diagnostic(
            .error,
            "this migration changed after \(later) was written; databases that already ran it will not run it again, so they and new databases would differ: undo the edit and make the change in a new migration (if no database has run it yet, accept the edit with --accept-edits)",
            at: SourceLocation(path: file.path, line: 1, column: 1)))
      }
    }
    if files.contains(where: { !recordedNames.contains(($0.path as NSString).lastPathComponent) }) {
      comparison.isStale = true
    }
    return comparison
  }
}

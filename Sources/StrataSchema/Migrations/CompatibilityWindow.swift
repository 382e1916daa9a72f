/// The older schemas that must keep working while a newer version of the app migrates the
/// database: the previous release during a staged rollout or after a rollback, a widget or an
/// extension built from an older commit, the other instances of a server mid-deploy.
///
/// It is declared in `strata.json` (``MigrationSettings``) as the first migration whose schema
/// must keep working (`"compatibleWith": "0012"`), or as a number of marked releases
/// (`"compatibleWith": {"releases": 2}`, with releases marked by
/// `generate-migrations --mark-release 2.3`). Every schema from that migration to the latest is
/// in the window. While one is declared, the planner keeps what those schemas read and write
/// (``Expansion``), refuses what it cannot keep, and drops what it kept once the window has moved
/// past the migration that kept it.
public struct CompatibilityWindow: Sendable, Equatable {
  /// How `strata.json` declares the window.
  public enum Setting: Sendable, Equatable {
    /// Every schema from this migration number on.
    case migration(Int)
    /// The schemas of the latest this many marked releases, and every one since.
    case releases(Int)
  }

  /// The number of the first migration whose schema is in the window.
  public var start: Int
  /// The releases marked at each migration number, to name a schema in messages.
  var releases: [Int: [String]]

  /// The window `settings` declare over `files`; nil when they declare none.
  ///
  /// - Throws: ``DiagnosticsError`` at `strata.json` for a migration that does not exist.
  public static func resolve(_ settings: MigrationSettings, files: [MigrationFiles.File], at location: SourceLocation) throws -> CompatibilityWindow? {
    guard let setting = settings.compatibleWith else { return nil }
    let releases = Dictionary(grouping: settings.releases, by: \.migration).mapValues { $0.map(\.name).sorted() }
    switch setting {
    case .migration(let number):
      guard files.contains(where: { $0.number == number }) else {
        let known = files.last.map { "; the migrations run from \(Self.number(files[0].number)) to \(Self.number($0.number))" } ?? "; there are no migrations yet"
        throw DiagnosticsError([
          Diagnostic(.error, "\"compatibleWith\": no migration is numbered \(Self.number(number))\(known)", at: location)
        ])
      }
      return CompatibilityWindow(start: number, releases: releases)
    case .releases(let count):
      let marked = settings.releases.map(\.migration).sorted()
      guard count > 0, !marked.isEmpty else { return nil }
      return CompatibilityWindow(start: Array(marked.suffix(count))[0], releases: releases)
    }
  }

  /// The schema the migration numbered `number` leaves, as messages name it: `release 2.3
  /// (migration 0012)`, or `migration 0012`.
  func schemaName(after number: Int) -> String {
    if let names = releases[number] {
      return "release \(names.joined(separator: " and ")) (migration \(Self.number(number)))"
    }
    return "the schema of migration \(Self.number(number))"
  }

  /// The header line of a migration written under a window starting at `start`, which the
  /// registry embeds (``MigrationFiles/File/compatibleFrom``) and the database records when the
  /// migration runs, so that an older version of the app can tell that its schema still works.
  static func headerLine(start: Int) -> String {
    "\(headerPrefix)\(number(start)) on (strata.json \"compatibleWith\")."
  }

  private static let headerPrefix = "-- Keeps working the schemas from migration "

  /// The window start a migration's header line records, if it has one.
  static func start(inHeaderOf sql: String) -> Int? {
    for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.hasPrefix("--") else { return nil }
      guard line.hasPrefix(headerPrefix) else { continue }
      return Int(line.dropFirst(headerPrefix.count).prefix { $0.isASCII && $0.isNumber })
    }
    return nil
  }

  /// A migration number as file names write it.
  static func number(_ number: Int) -> String {
    let digits = String(number)
    return String(repeating: "0", count: max(0, MigrationFiles.numberWidth - digits.count)) + digits
  }
}

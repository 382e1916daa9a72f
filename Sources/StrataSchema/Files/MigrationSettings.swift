import Foundation

/// A target's migration settings, in `strata.json` in its `Migrations` folder:
///
/// ```json
/// {
///   "dialect": "postgresql",
///   "compatibleWith": {"releases": 2},
///   "releases": {"2.3": "0012", "2.4": "0015"}
/// }
/// ```
///
/// The migrations are written in that database's SQL; the models and the generated Swift code
/// are the same for every database. `compatibleWith` declares the older schemas that must keep
/// working (``CompatibilityWindow``); `releases` names the migration each release shipped with
/// (`generate-migrations --mark-release 2.4` adds one). Without the file, the migrations are
/// SQLite's and there is no window.
public struct MigrationSettings: Sendable, Equatable {
  /// A release of the app, and the last migration it shipped with.
  public struct Release: Sendable, Equatable {
    public var name: String
    public var migration: Int

    public init(name: String, migration: Int) {
      self.name = name
      self.migration = migration
    }
  }

  /// The database the migrations are for.
  public var dialect: DatabaseDialect
  /// The older schemas that must keep working; nil for none.
  public var compatibleWith: CompatibilityWindow.Setting?
  /// The marked releases, oldest first.
  public var releases: [Release]

  /// The settings file's name.
  public static let fileName = "strata.json"

  public init(dialect: DatabaseDialect = .sqlite, compatibleWith: CompatibilityWindow.Setting? = nil, releases: [Release] = []) {
    self.dialect = dialect
    self.compatibleWith = compatibleWith
    self.releases = releases
  }

  /// The settings file of the migrations in `directory`.
  public static func path(migrations directory: String) -> String {
    (directory as NSString).appendingPathComponent(fileName)
  }

  /// The settings of the migrations in `directory`: SQLite's, without a window, when it has no
  /// settings file.
  ///
  /// - Throws: ``DiagnosticsError`` at the file for text that is not the settings.
  public static func read(migrations directory: String) throws -> MigrationSettings {
    let path = path(migrations: directory)
    guard let data = FileManager.default.contents(atPath: path) else { return MigrationSettings() }
    let location = SourceLocation(path: path, line: 1, column: 1)
    let valid =
      "\(fileName) holds one object with \"dialect\" (\"sqlite\" or \"postgresql\"), \"compatibleWith\" (a migration number such as \"0012\", or {\"releases\": 2}) and \"releases\" ({\"2.3\": \"0012\"})"
    func error(_ message: String) -> DiagnosticsError {
      DiagnosticsError([Diagnostic(.error, message, at: location)])
    }
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw error("this is not JSON: \(valid)")
    }
    var settings = MigrationSettings()
    for (key, value) in object.sorted(by: { $0.key < $1.key }) {
      switch key {
      case "dialect":
        guard let name = value as? String, let dialect = DatabaseDialect(rawValue: name.lowercased()) else {
          throw error("unknown dialect \(value); \(DatabaseDialect.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")) are known")
        }
        settings.dialect = dialect
      case "compatibleWith":
        if let text = value as? String, let number = migrationNumber(text) {
          settings.compatibleWith = .migration(number)
        } else if let window = value as? [String: Any], window.count == 1, let count = window["releases"] as? Int, count > 0 {
          settings.compatibleWith = .releases(count)
        } else {
          throw error("\"compatibleWith\" is a migration's number, such as \"0012\" (every schema from that migration on), or {\"releases\": 2} (the latest two marked releases' schemas and every one since)")
        }
      case "releases":
        guard let releases = value as? [String: Any] else { throw error("\"releases\" maps each release's name to its last migration: {\"2.3\": \"0012\"}") }
        for (name, migration) in releases {
          guard let text = migration as? String, let number = migrationNumber(text) else {
            throw error("release \"\(name)\": \(migration) is not a migration's number, such as \"0012\"")
          }
          settings.releases.append(Release(name: name, migration: number))
        }
        settings.releases.sort { ($0.migration, $0.name) < ($1.migration, $1.name) }
      default:
        throw error("unknown setting \"\(key)\"; \(valid)")
      }
    }
    return settings
  }

  /// The number a migration's name starts with, written alone: `0012`.
  private static func migrationNumber(_ text: String) -> Int? {
    guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
    return Int(text)
  }

  /// The file's text: the settings that differ from the defaults, one per line, in a fixed order.
  public var text: String {
    // JSON's string literal: quotes, backslashes and control characters escaped.
    func string(_ text: String) -> String {
      var literal = "\""
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"", "\\": literal += "\\\(scalar)"
        case _ where scalar.value < 0x20: literal += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
        default: literal.unicodeScalars.append(scalar)
        }
      }
      return literal + "\""
    }
    var entries: [String] = []
    if dialect != .sqlite { entries.append("\"dialect\": \(string(dialect.rawValue))") }
    switch compatibleWith {
    case .migration(let number): entries.append("\"compatibleWith\": \(string(CompatibilityWindow.number(number)))")
    case .releases(let count): entries.append("\"compatibleWith\": {\"releases\": \(count)}")
    case nil: break
    }
    if !releases.isEmpty {
      let lines = releases.map { "    \(string($0.name)): \(string(CompatibilityWindow.number($0.migration)))" }
      entries.append("\"releases\": {\n" + lines.joined(separator: ",\n") + "\n  }")
    }
    return entries.isEmpty ? "{}\n" : "{\n  " + entries.joined(separator: ",\n  ") + "\n}\n"
  }

  /// Marks `name` as a release shipped with the migration numbered `migration`.
  ///
  /// - Returns: false when it is already marked there.
  /// - Throws: ``InputError`` when it is marked at another migration.
  public mutating func markRelease(_ name: String, at migration: Int) throws -> Bool {
    if let existing = releases.first(where: { $0.name == name }) {
      guard existing.migration == migration else {
        throw InputError(
          "release \(name) is already marked at migration \(CompatibilityWindow.number(existing.migration)); a release's schema does not change once it ships, so mark this one under another name")
      }
      return false
    }
    releases.append(Release(name: name, migration: migration))
    releases.sort { ($0.migration, $0.name) < ($1.migration, $1.name) }
    return true
  }
}

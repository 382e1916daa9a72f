import Foundation

/// A target's migration settings, in `strata.json` in its `Migrations` folder:
///
/// ```json
/// { "dialect": "postgresql" }
/// ```
///
/// The migrations are written in that database's SQL; the models and the generated Swift code
/// are the same for every database. Without the file, the migrations are SQLite's.
public struct MigrationSettings: Sendable, Equatable {
  /// The database the migrations are for.
  public var dialect: DatabaseDialect

  /// The settings file's name.
  public static let fileName = "strata.json"

  public init(dialect: DatabaseDialect = .sqlite) {
    self.dialect = dialect
  }

  /// The settings of the migrations in `directory`: SQLite's when it has no settings file.
  ///
  /// - Throws: ``DiagnosticsError`` at the file for text that is not the settings.
  public static func read(migrations directory: String) throws -> MigrationSettings {
    let path = (directory as NSString).appendingPathComponent(fileName)
    guard let data = FileManager.default.contents(atPath: path) else { return MigrationSettings() }
    let location = SourceLocation(path: path, line: 1, column: 1)
    let valid = "\(fileName) holds one object, {\"dialect\": \"sqlite\"} or {\"dialect\": \"postgresql\"}"
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw DiagnosticsError([Diagnostic(.error, "this is not JSON: \(valid)", at: location)])
    }
    var settings = MigrationSettings()
    for (key, value) in object.sorted(by: { $0.key < $1.key }) {
      switch key {
      case "dialect":
        guard let name = value as? String, let dialect = DatabaseDialect(rawValue: name.lowercased()) else {
          throw DiagnosticsError([
            Diagnostic(.error, "unknown dialect \(value); \(DatabaseDialect.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")) are known", at: location)
          ])
        }
        settings.dialect = dialect
      default:
        throw DiagnosticsError([Diagnostic(.error, "unknown setting \"\(key)\"; \(valid)", at: location)])
      }
    }
    return settings
  }
}

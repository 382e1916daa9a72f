import Foundation

/// One database of a module: the main one, or an attached one that models name with
/// `// @Table(schema: "cache")`. Each has migrations of its own, in a folder of its own
/// (`Migrations/` for the main database, `Migrations/cache/` for `cache`), and its own snapshot,
/// diagram and checksums beside the main ones (`schemas/App.cache.sql`, …): the attached file is
/// migrated on its own, with its own history, so its migrations name its tables unqualified.
public struct ModuleDatabase: Sendable {
  /// The attached database's name; nil for the main database.
  public var schemaName: String?
  /// The models of the tables in this database, and (for the main one) the declared objects.
  public var models: ModelSet

  /// The main database and each attached one, the main one first, then by name: those the models
  /// name, and those that have a migrations folder (`migrations`/`name`) but no model any more,
  /// whose migrations still run and whose tables the planner may need to drop.
  public static func all(of models: ModelSet, migrations: String?) -> [ModuleDatabase] {
    var names = Set(models.tables.compactMap(\.schemaName))
    if let migrations {
      let folders = (try? FileManager.default.contentsOfDirectory(atPath: migrations)) ?? []
      // `Squashed` holds the migrations a squash replaced, not a database's.
      for folder in folders where NameRules.schemaNameProblem(folder) == nil && folder != MigrationSquash.archiveFolder {
        var isDirectory: ObjCBool = false
        let path = (migrations as NSString).appendingPathComponent(folder)
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
          names.insert(folder)
        }
      }
    }
    return [ModuleDatabase(schemaName: nil, models: models.restricted(to: nil))]
      + names.sorted().map { ModuleDatabase(schemaName: $0, models: models.restricted(to: $0)) }
  }

  /// The migrations folder of this database, given the main database's.
  public func migrationsDirectory(_ main: String) -> String {
    schemaName.map { (main as NSString).appendingPathComponent($0) } ?? main
  }

  /// A file of this database beside the main database's: `schemas/App.sql` for the main one,
  /// `schemas/App.cache.sql` for `cache`.
  public func file(besides main: String) -> String {
    guard let schemaName else { return main }
    let directory = (main as NSString).deletingLastPathComponent
    let name = (main as NSString).lastPathComponent
    let dot = name.lastIndex(of: ".")
    let renamed = dot.map { name[..<$0] + "." + schemaName + name[$0...] } ?? name + "." + schemaName
    return directory.isEmpty ? renamed : (directory as NSString).appendingPathComponent(renamed)
  }

  /// How messages name the module's database: `App`, or `App (cache)`.
  public func displayName(module: String) -> String {
    schemaName.map { "\(module) (\($0))" } ?? module
  }
}

extension ModelSet {
  /// The models of one database: its tables and their schema; the declared objects (full-text
  /// indexes, views, triggers) are the main database's.
  func restricted(to schemaName: String?) -> ModelSet {
    var restricted = self
    restricted.tables = tables.filter { $0.schemaName == schemaName }
    restricted.attachedSchemas = [:]
    if let schemaName {
      restricted.schema = attachedSchemas[schemaName] ?? Schema(tables: [], objects: [])
      restricted.objectLocations = [:]
    }
    return restricted
  }
}

import ArgumentParser
import Foundation
import StrataCommandLine
import StrataSchema

/// `strata import`: models and a baseline migration from an existing SQLite database.
struct ImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Write models and a first migration that reproduce an existing database's schema.",
    discussion: """
      Reads the database (without writing to it) and writes, into the target's directory, one \
      model per table (ImportedModels.swift, or Schema.strata with --schema-file) and \
      Migrations/0001_imported_schema.sql: the database's own CREATE statements, which databases \
      that already hold them record as applied without running. In a package, it also writes the \
      schema snapshot, diagram and checksums that `generate-migrations --check` compares. Tables \
      Strata's conventions cannot make get @Unmanaged models; what is kept in SQL only is listed.
      """)

  @Argument(help: ArgumentHelp("The SQLite database file, or a PostgreSQL URL (postgres://user@host:port/database).", valueName: "database"))
  var database: String

  /// Whether `database` is a PostgreSQL URL rather than a file.
  private var isPostgreSQL: Bool {
    database.hasPrefix("postgres://") || database.hasPrefix("postgresql://")
  }

  @Option(help: ArgumentHelp("The target's directory, such as Sources/App.", valueName: "dir"))
  var target: String

  @Flag(help: "Write the models as a schema file (Schema.strata) instead of Swift.")
  var schemaFile = false

  func run() throws {
    try reportingFailures(importSchema)
  }

  private func importSchema() throws -> Int32 {
    let files = FileManager.default
    if !isPostgreSQL {
      guard files.fileExists(atPath: database) else {
        throw InputError("\(database): no such file")
      }
      // SQLite opens an empty file as an empty database; an app's database is never empty.
      if (try? files.attributesOfItem(atPath: database)[.size] as? Int) == 0 {
        throw InputError("\(database): the file is empty, so it is not an app's database")
      }
    }
    var isDirectory: ObjCBool = false
    if files.fileExists(atPath: target, isDirectory: &isDirectory), !isDirectory.boolValue {
      throw InputError("--target \(target) is a file; give the target's directory, such as Sources/App")
    }
    let source: String
    let result: DatabaseImport
    if isPostgreSQL {
      // Named without its password, which must not reach a checked-in file.
      var components = URLComponents(string: database)
      components?.password = nil
      source = components?.string ?? "the PostgreSQL database"
      result = try DatabaseImport(postgreSQL: database, source: source)
    } else {
      source = (database as NSString).lastPathComponent
      result = try DatabaseImport(databaseAt: database, source: source)
    }
    let modelsPath = (target as NSString).appendingPathComponent(schemaFile ? "Schema.strata" : "ImportedModels.swift")
    let migrations = (target as NSString).appendingPathComponent("Migrations")
    let baselinePath = (migrations as NSString).appendingPathComponent(DatabaseImport.baselineFileName)
    if FileManager.default.fileExists(atPath: modelsPath) {
      throw InputError("\(modelsPath) exists already; the import writes only new files")
    }
    if try !MigrationFiles(directory: migrations, root: target).files.isEmpty {
      throw InputError("\(migrations) has migrations already; import into a target without them")
    }
    // All or nothing: a half-written import would make the next one refuse to start.
    let createsMigrations = !files.fileExists(atPath: migrations)
    var written: [String] = []
    func undo() {
      for path in written.reversed() { try? files.removeItem(atPath: path) }
      if createsMigrations { try? files.removeItem(atPath: migrations) }
    }
    do {
      try files.createDirectory(atPath: migrations, withIntermediateDirectories: true)
      _ = try AtomicFile.write(schemaFile ? result.schemaFile : result.swiftModels, to: modelsPath)
      written.append(modelsPath)
      _ = try AtomicFile.write(result.baseline, to: baselinePath)
      written.append(baselinePath)
      if isPostgreSQL {
        let settings = (migrations as NSString).appendingPathComponent(MigrationSettings.fileName)
        _ = try AtomicFile.write("{ \"dialect\": \"postgresql\" }\n", to: settings)
        written.append(settings)
      }
    } catch {
      undo()
      throw error
    }
    let views = result.viewCount == 0 ? "" : " and \(result.viewCount) view\(result.viewCount == 1 ? "" : "s")"
    print("Imported \(result.tableCount) tables\(views) from \(source) (\(result.unmanagedCount) unmanaged):")
    print("  wrote \(modelsPath)")
    print("  wrote \(baselinePath)")
    for note in result.notes { print("  - \(note)") }

    // The files `generate-migrations --check` compares, written as the command plugin would.
    guard let package = Self.packageDirectory(containing: target) else {
      print("Run `swift package --allow-writing-to-package-directory generate-migrations` to write the schema snapshot and checksums.")
      return 0
    }
    let module = (target as NSString).lastPathComponent
    // Named from the working directory, like every path the commands print.
    let schemasPath = (package as NSString).appendingPathComponent("schemas")
    let workingDirectory = URL(fileURLWithPath: files.currentDirectoryPath).standardizedFileURL.path
    let schemas = schemasPath.hasPrefix(workingDirectory + "/") ? SourceFiles.relative(schemasPath, to: workingDirectory) : schemasPath
    do {
      try files.createDirectory(atPath: schemas, withIntermediateDirectories: true)
      let migrationsCommand = try PlanMigrationsCommand.parse([
        "--module", module, "--root", target, "--migrations", migrations,
        "--snapshot", (schemas as NSString).appendingPathComponent("\(module).sql"),
        "--diagram", (schemas as NSString).appendingPathComponent("\(module).md"),
        "--checksums", (schemas as NSString).appendingPathComponent("\(module).sum"),
        target,
      ])
      try migrationsCommand.run()
    } catch {
      undo()
      throw error
    }
    return 0
  }

  /// The nearest directory at or above `directory` that holds a `Package.swift`.
  private static func packageDirectory(containing directory: String) -> String? {
    var url = URL(fileURLWithPath: directory).standardizedFileURL
    while url.path != "/" {
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
      url.deleteLastPathComponent()
    }
    return nil
  }
}

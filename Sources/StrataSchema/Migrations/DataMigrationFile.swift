import Foundation

/// A new data migration written in Swift (`Migrations/0008_split_names.swift`): the function
/// its author fills in, and the tables as the migrations before it leave them, frozen.
///
/// The tables are read from the migrations, replayed into a scratch database, as `strata import`
/// reads a database: structs of plain values, with their conformances, in an enum named for the
/// migration's number (`Migration0008`). They are written once, when the file is made, and the
/// file's checksum covers them: a later change to the app's models changes neither what the
/// data migration reads nor what it writes, as Django's historical models do not.
public enum DataMigrationFile {
  /// The file's name (without `.swift`) and text.
  ///
  /// - Parameters:
  ///   - description: What the migration does, in the file name's words (`split_names`).
  ///   - files: The module's migrations, whose schema the migration reads and writes.
  ///   - models: The module's models, for the database the migrations are written for and the
  ///     SQL functions they call.
  ///   - runtime: The module the file imports.
  /// - Throws: ``InputError`` for a description that cannot be a file name.
  public static func make(
    description: String, files: MigrationFiles, models: ModelSet, runtime: RuntimeModule
  ) throws -> (name: String, text: String) {
    guard !description.isEmpty, description.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
      throw InputError("a data migration's description is its file name's end: ASCII letters, digits and '_' (split_names), not \(SwiftLiteral.string(description))")
    }
    let name = files.nextNumber + "_" + description
    let type = "Migration" + files.nextNumber
    // A file name, in comments.
    let previous = files.files.last.map { SwiftLiteral.comment($0.name) }
    let tables = try frozenTables(after: files, models: models, type: type, runtime: runtime)
    let connection = runtime == .strata ? "Database" : "PostgreSQLConnection"
    let signature = runtime == .strata ? "throws" : "async throws"
    // `nonisolated`, so that the registry can call `migrate` from any isolation in a module
    // whose declarations default to the main actor.
    var text = """
      // \(name): a data migration.
      //
      // It runs in the numbered sequence with the SQL migrations, in their transaction: what
      // `migrate` throws stops them all, and nothing is kept. It reads and writes the tables as
      // \(previous.map { "migration \($0)" } ?? "an empty database") leaves them: the types in `\(type)` below,
      // generated when this file was made and frozen, so that a later change to the models does
      // not change what this migration does. Once a database has run it, leave the file as it is:
      // its checksum covers all of it, and an edit is reported like an edited SQL migration's.
      import Foundation
      import \(runtime.rawValue)

      nonisolated extension \(type) {
        static func migrate(_ db: \(connection)) \(signature) {
          // Read and write with the typed builder (`Table.all.fetchAll(db)`, `Table.find(id).update
          // { … }.execute(db)`) or raw SQL (`sql("…").execute(db)`), through \(type)'s types.
        }
      }

      // MARK: - The tables as \(previous ?? "an empty database") leaves them (generated, frozen)

      nonisolated enum \(type) {
      \(tables.declarations)
      }

      """
    text += "\n" + tables.conformances
    return (name, text)
  }

  /// The frozen tables' declarations, indented for the enum, and their conformances.
  private static func frozenTables(
    after files: MigrationFiles, models: ModelSet, type: String, runtime: RuntimeModule
  ) throws -> (declarations: String, conformances: String) {
    let scratch = try models.schemaDialect.replay(files.files, .withStorage) { _, _ in }
    var importer: DatabaseImporter
    switch scratch {
    case let database as SQLiteConnection: importer = try DatabaseImporter(database)
    case let database as PsqlDatabase: importer = try DatabaseImporter(postgreSQL: database)
    default: throw InputError("the migrations' schema cannot be read back from \(models.schemaDialect.name)")
    }
    let imported = try importer.frozenModels(source: "the migrations")
    // The structs, without the import's header and imports.
    let structs = imported.split(separator: "\n", omittingEmptySubsequences: false)
      .drop { !$0.hasPrefix("import ") }.drop { $0.hasPrefix("import ") }
      .map { $0.isEmpty ? "" : "  " + $0 }
      .joined(separator: "\n").trimmingCharacters(in: .newlines)
    let source = "nonisolated enum \(type) {\n\(structs)\n}\n"
    var generator = Generator(sources: [("\(type).swift", source)])
    generator.runtime = runtime
    let conformances = generator.conformances(of: try generator.models(for: models.dialect), checkedIn: true)
      .split(separator: "\n", omittingEmptySubsequences: false)
      .drop { !$0.hasPrefix("import ") }.drop { $0.hasPrefix("import ") }
      .joined(separator: "\n").trimmingCharacters(in: .newlines)
    return (structs, conformances + "\n")
  }
}

import Foundation
import StrataSQL

/// Squashing a long history: one migration that makes the schema of the migrations through a
/// given one, for new databases, while databases that ran them carry on.
///
/// The squash's header records what it replaces, by name and checksum (the runtime's
/// `Migration.replaces`): a database that ran all of them records the squash without running it,
/// one that ran some runs the others first. The replaced files move to `Migrations/Squashed`,
/// which the planner does not read and the build embeds for those databases only, until it is
/// deleted. What the squashed migrations keep for a compatibility window is carried over.
public enum MigrationSquash {
  /// The first line of a squash.
  public static let marker = "-- strata: squash"
  /// The folder inside `Migrations` the replaced files move to.
  public static let archiveFolder = "Squashed"
  private static let replaces = "replaces "

  /// What `file` replaces, if it is a squash, from its header.
  static func replaced(by file: MigrationFiles.File) -> [(name: String, checksum: String)] {
    guard file.sql.hasPrefix(marker) else { return [] }
    return file.headerLines.compactMap { line in
      guard line.hasPrefix(replaces) else { return nil }
      // The checksum is the last word; a migration's name may hold spaces.
      let entry = line.dropFirst(replaces.count)
      guard let space = entry.lastIndex(of: " ") else { return nil }
      return (String(entry[..<space]), String(entry[entry.index(after: space)...]))
    }
  }

  /// A squash to write.
  public struct Plan: Sendable {
    /// The squash's file name, without `.sql`.
    public var name: String
    public var sql: String
    /// The files it replaces, which move to the archive.
    public var replaced: [MigrationFiles.File]
  }

  /// The squash of the migrations through `through` (a name or a number).
  ///
  /// - Throws: ``InputError`` when there is nothing to squash, when the compatibility window
  ///   still keeps a schema the squash would replace, when the squash would not make the same
  ///   schema as the migrations it replaces, and, on PostgreSQL, for triggers and functions,
  ///   which it cannot read back.
  public static func plan(
    _ files: MigrationFiles, through: String, models: ModelSet, window: CompatibilityWindow?, moduleName: String
  ) throws -> Plan {
    guard let last = files.files.lastIndex(where: { $0.name == through || Int(through) == $0.number }) else {
      throw InputError("there is no migration \(through) in \(files.directory) to squash through")
    }
    let replaced = Array(files.files[...last])
    guard replaced.count > 1 else {
      throw InputError("\(replaced[0].name) is the only migration through \(through): there is nothing to squash")
    }
    if let window, window.start <= replaced[last].number {
      throw InputError(
        "the compatibility window (strata.json) keeps working the schemas from migration \(CompatibilityWindow.number(window.start)) on, which this squash would replace: squash through a migration before \(CompatibilityWindow.number(window.start))")
    }
    let dialect = models.schemaDialect
    let number = files.files[last].numberWidth >= MigrationFiles.numberWidth
      ? String(files.files[last].name.prefix(files.files[last].numberWidth)) : CompatibilityWindow.number(files.files[last].number)
    let name = number + "_squashed"
    let statements = try schemaStatements(of: replaced, dialect: dialect)
    var header = [
      marker + " of \(replaced.count) migrations, " + SQLLiteral.comment("\(replaced[0].name) through \(replaced[last].name)."),
      "-- Written by `strata migrations squash` for \(SQLLiteral.comment(moduleName)): the schema those migrations make, for new",
      "-- databases. A database that ran all of them records this migration without running it; one that",
      "-- ran some runs the others first, from Migrations/Squashed, which the app embeds until you delete",
      "-- that folder. Like any migration, once merged it must not be edited.",
    ]
    header += replaced.map { "-- " + SQLLiteral.comment(replaces + "\($0.name) \($0.checksum)") }
    let kept = Expansion.recorded(in: replaced)
    if !kept.isEmpty {
      // What the squashed migrations keep for older app versions, which a later migration drops.
      header.append("-- Kept for older app versions by the migrations it replaces:")
      header += kept.map { "-- " + SQLLiteral.comment($0.marker) }
    }
    let sql = header.joined(separator: "\n") + "\n\n" + statements.joined(separator: "\n\n") + "\n"
    let squash = MigrationFiles.File(name: name, path: (files.directory as NSString).appendingPathComponent(name + ".sql"), sql: sql, number: files.files[last].number, numberWidth: number.count)
    try checkSameSchema(squash, replacing: replaced, later: Array(files.files[(last + 1)...]), dialect: dialect)
    return Plan(name: name, sql: sql, replaced: replaced)
  }

  /// The statements that make the schema `files` leave, as the database keeps it.
  private static func schemaStatements(of files: [MigrationFiles.File], dialect: any SchemaDialect) throws -> [String] {
    let scratch = try dialect.replay(files, .withStorage) { _, _ in }
    switch scratch {
    case let database as SQLiteConnection:
      return try DatabaseImporter(database).statements
    case let database as PsqlDatabase:
      let unread = try database.run(
        """
        SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = 'public'::regnamespace AND NOT t.tgisinternal;
        SELECT count(*) FROM pg_proc WHERE pronamespace = 'public'::regnamespace;
        """
      ).split(separator: "\n").compactMap { Int($0) }
      guard unread.allSatisfy({ $0 == 0 }) else {
        throw InputError(
          "the migrations to squash make triggers or functions, which a squash on PostgreSQL cannot read back yet (it reads tables, indexes and views): squash through a migration before the first that makes one")
      }
      return try DatabaseImporter(postgreSQL: database).statements
    default:
      throw InputError("the migrations' schema cannot be read back from \(dialect.name)")
    }
  }

  /// Checks that the squash, then the migrations after it, make the schema the replaced
  /// migrations do: a new database gets what an upgraded one has.
  private static func checkSameSchema(
    _ squash: MigrationFiles.File, replacing replaced: [MigrationFiles.File], later: [MigrationFiles.File], dialect: any SchemaDialect
  ) throws {
    func schema(_ files: [MigrationFiles.File]) throws -> String {
      let database = try dialect.replay(files, .withStorage) { _, _ in }
      // The snapshot leaves out the tables that go with a virtual table; their names count too.
      return SchemaSnapshot.text(try database.introspect(), columns: [], renamedTables: [], moduleName: "", dialect: dialect)
        + "\n-- tables: " + (try database.tableNames()).sorted().joined(separator: ", ")
    }
    let squashed = try schema([squash] + later)
    let original = try schema(replaced + later)
    guard squashed == original else {
      let difference = zip(squashed.split(separator: "\n"), original.split(separator: "\n")).first { $0 != $1 }
      throw InputError(
        "the squash would not make the schema the migrations it replaces make\(difference.map { " (it has \($0.0), where they have \($0.1))" } ?? ""); please report this, and keep the migrations meanwhile")
    }
  }
}

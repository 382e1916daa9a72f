import ArgumentParser
import Foundation
import GRDB
import Strata
import StrataCommandLine
import StrataSchema

/// `strata db`: commands on an app's database file.
struct DatabaseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "db",
    abstract: "Work on an app's SQLite database file.",
    subcommands: [ResetCommand.self])
}

/// `strata db reset PATH --migrations DIR`: a development database that ran a migration since
/// edited, moved aside and made again from the migrations.
struct ResetCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reset",
    abstract: "Move a development database that ran an edited migration aside, and make it again from the migrations.",
    discussion: """
      Only for a database whose differences from the migrations are in migrations no release \
      strata.json marks shipped (`generate-migrations --mark-release`): those only development \
      databases can have run. The file is renamed, not deleted (PATH.before-reset-DATE), and a \
      new one is migrated at PATH, unless the migrations need the app's code (Swift data \
      migrations, SQL functions written in Swift): then the app makes it at its next launch.
      """)

  @Argument(help: ArgumentHelp("The database file.", valueName: "path"))
  var path: String

  @Option(help: ArgumentHelp("The app target's migration files.", valueName: "dir"))
  var migrations: String

  func run() async throws {
    try reportingFailures {
      let files = try MigrationFiles(directory: migrations, root: nil)
      let settings = try MigrationSettings.read(migrations: migrations)
      guard settings.dialect == .sqlite else {
        throw InputError("\(migrations) holds PostgreSQL migrations: drop and create the development database on its server instead")
      }
      let registered = try files.registered(releasedThrough: settings.releases.map(\.migration).max())
      let differences = try self.differences(from: registered)
      guard !differences.isEmpty else {
        throw InputError("\(path) ran the migrations of \(migrations) as they are: there is nothing to reset")
      }
      if let shipped = differences.first(where: \.isReleased) {
        throw InputError(
          "\(path) ran \(shipped.name) as it was before an edit, and that migration shipped in a release strata.json marks: the file may hold users' data, which a reset would set aside. Restore the migration instead (git log -p \(migrations))")
      }
      let backup = try moveAside()
      print("strata: moved \(path) aside to \(backup): it ran \(differences.map(\.name).joined(separator: ", ")) as \(differences.count == 1 ? "it was" : "they were") before an edit.")
      do {
        let database = try openDatabase(.file(path))
        try database.migrate(try registered.map(Migration.init))
        try database.close()
        print("strata: made \(path) again from the \(registered.count) migrations of \(migrations).")
      } catch {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        print("strata: did not make \(path) again (\(error)); the app makes it at its next launch.")
      }
      return 0
    }
  }

  /// The migrations the database ran that differ from the files: edited since, or gone.
  private func differences(from registered: [SwiftEmitter.RegisteredMigration]) throws -> [(name: String, isReleased: Bool)] {
    guard FileManager.default.fileExists(atPath: path) else { throw InputError("there is no database at \(path)") }
    var configuration = Configuration()
    configuration.readonly = true
    let recorded = try DatabaseQueue(path: path, configuration: configuration).read { db -> [(String, String)] in
      guard try db.tableExists("strata_migrations") else { return [] }
      return try Row.fetchAll(db, sql: "SELECT name, checksum FROM strata_migrations").map { ($0["name"], $0["checksum"]) }
    }
    func flattened(_ migrations: [SwiftEmitter.RegisteredMigration]) -> [SwiftEmitter.RegisteredMigration] {
      migrations.flatMap { flattened($0.replaces) + [$0] }
    }
    let known = Dictionary(flattened(registered).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    return recorded.compactMap { name, checksum in
      guard let file = known[name] else { return (name, false) }
      return file.checksum == checksum ? nil : (name, file.isReleased)
    }.sorted { $0.name < $1.name }
  }

  /// Renames the file, and SQLite's files beside it, to a name with the date; returns it.
  private func moveAside() throws -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyyMMdd-HHmmss"
    let backup = "\(path).before-reset-\(formatter.string(from: Date()))"
    for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
      try FileManager.default.moveItem(atPath: path + suffix, toPath: backup + suffix)
    }
    return backup
  }
}

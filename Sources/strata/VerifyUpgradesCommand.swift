import ArgumentParser
import Foundation
import Strata
import StrataPostgreSQL
import StrataSchema

/// `strata migrations verify-upgrades`: upgrade tests from every schema of a migrations folder's
/// history (see `UpgradeVerification`), on SQLite in memory, or on PostgreSQL for a folder whose
/// `strata.json` says so.
struct VerifyUpgradesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify-upgrades",
    abstract: "Fill a database at each schema of the history with generated rows, migrate it, and check that nothing was lost.",
    discussion: """
      Starts from each migration's schema, or from each release strata.json marks. After \
      migrating, every row and value must be where it was (through renames and conversions), \
      the database's own checks must pass, and the schema must be a new install's. Exits 1 on \
      a failure, which names the schema, migration, table, row, value and seed. Migrations \
      written in Swift and SQL functions written in Swift run only in the app's code: check \
      those histories from a test with verifyUpgrades(_:).
      """)

  @Option(help: ArgumentHelp("Where the migration files are.", valueName: "dir"))
  var migrations: String

  @Option(help: ArgumentHelp("The module's directory; file names in messages are relative to it.", valueName: "dir"))
  var root: String?

  @Option(help: "The rows to write into each table.")
  var rows = 100

  @Option(help: "The seed of the generated values; the same seed writes the same rows.")
  var seed: UInt64 = 1

  @Option(
    name: .customLong("from"),
    help: ArgumentHelp("A migration whose schema to start from (its name or number); repeat for more. Default: each marked release's, or every migration's.", valueName: "migration"))
  var starts: [String] = []

  @Option(
    help: ArgumentHelp(
      "For PostgreSQL migrations: the database to check in (a scratch schema is made and dropped). Default: STRATA_POSTGRES_URL, or a throwaway server.",
      valueName: "url"))
  var postgresql: String?

  func validate() throws {
    if rows < 0 { throw ValidationError("--rows takes 0 or more") }
  }

  func run() async throws {
    do {
      let report = try await verify()
      print(report)
    } catch let failure as UpgradeFailure {
      FileHandle.standardError.write(Data("\(migrations): error: \(failure)\n".utf8))
      throw ExitCode.failure
    } catch {
      guard ToolOutput.reportFailure(error, tool: "strata") else { throw error }
      throw ExitCode.failure
    }
  }

  private func verify() async throws -> UpgradeReport {
    let files = try MigrationFiles(directory: migrations, root: root)
    ToolOutput.report(files.warnings)
    let settings = try MigrationSettings.read(migrations: migrations)
    let all: [Migration]
    do {
      all = try files.registered(releasedThrough: nil).map(Migration.init)
    } catch let error as InputError {
      throw InputError(
        "\(error.description): check this history from a test of the app's target, with verifyUpgrades(UpgradeVerification(StrataMigrations.all))")
    }
    let verification = UpgradeVerification(all, rowsPerTable: rows, seed: seed, startingSchemas: try startingSchemas(all, settings))
    switch settings.dialect {
    case .sqlite:
      return try await verifyUpgrades(verification)
    case .postgresql:
      return try await verifyOnPostgreSQL(verification)
    }
  }

  /// The migrations `--from` names, or those releases shipped with, or nil for every one.
  private func startingSchemas(_ migrations: [Migration], _ settings: MigrationSettings) throws -> [String]? {
    // The names a database can have run: the app's, and those its squashes replace.
    func names(_ migrations: [Migration]) -> [String] { migrations.flatMap { names($0.replaces) + [$0.name] } }
    let known = names(migrations)
    func number(_ name: String) -> Int? { Int(name.prefix { $0.isASCII && $0.isNumber }) }
    if !starts.isEmpty {
      return try starts.map { start in
        // By number, the app's own migration rather than one a squash of that number replaced.
        guard let name = known.last(where: { $0 == start || (Int(start) != nil && number($0) == Int(start)) }) else {
          throw InputError("there is no migration \(start) in \(self.migrations)")
        }
        return name
      }
    }
    if settings.releases.isEmpty { return nil }
    return settings.releases.compactMap { release in known.last { number($0) == release.migration } }
      .filter { $0 != migrations.last?.name }
  }

  private func verifyOnPostgreSQL(_ verification: UpgradeVerification) async throws -> UpgradeReport {
    #if PostgreSQL
      var scratch: PsqlDatabase?
      let url: String
      if let given = postgresql ?? ProcessInfo.processInfo.environment["STRATA_POSTGRES_URL"], !given.isEmpty {
        url = given
      } else {
        scratch = try PostgreSQLServer.shared().scratchDatabase()
        url = scratch!.url
      }
      defer { _ = scratch }
      return try await PostgreSQLDatabase.withDatabase(try .init(url: url)) { database in
        try await database.verifyUpgrades(verification)
      }
    #else
      throw InputError(
        "\(migrations) holds PostgreSQL migrations, and this strata was built without Strata's PostgreSQL trait; enable it (traits: [\"PostgreSQL\"]) or check them from a test with verifyUpgrades(_:)")
    #endif
  }
}

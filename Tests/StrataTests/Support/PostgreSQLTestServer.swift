import Foundation
import StrataPostgreSQL
@testable import StrataSchema
import StrataTestSupport

/// The PostgreSQL server the runtime tests run on: `STRATA_POSTGRES_URL` (which `.ci/run` sets
/// to the server it starts), or a throwaway one from the machine's binaries.
///
/// Each test gets a database of its own, copied from a template that holds this target's models
/// as PostgreSQL tables: the schema the generator writes for them (`strata schema --dialect
/// postgresql`), so the tests run on the tables a PostgreSQL app's migrations make.
actor PostgreSQLTestServer {
  static let shared = PostgreSQLTestServer()

  /// Whether a server is at hand.
  static var isAvailable: Bool { PostgreSQLServer.isAvailable }

  /// The model files whose tables the template holds: those PostgreSQL can store (not FTS5,
  /// SQLite's triggers, virtual generated columns or attached databases).
  static let modelFiles = ["Catalog", "Groups", "Hardening", "OddNames", "Organization", "RoundScores", "Scorekeeper", "Tags"]

  private var template: Task<String, any Error>?
  private var counter = 0
  private var admin: PostgreSQLDatabase?

  /// The server's URL for the database `name`.
  nonisolated func url(of name: String) throws -> String {
    if let url = ProcessInfo.processInfo.environment[PostgreSQLServer.urlVariable], !url.isEmpty {
      guard var components = URLComponents(string: url) else { return url }
      components.path = "/" + name
      return components.string ?? url
    }
    return try PostgreSQLServer.shared().url(of: name)
  }

  /// The tests' database configuration: the whole suite shares two threads with builds and
  /// other processes, so a connection can be slow to come, and no test that uses it is about
  /// the wait. In CI runs on 2 cores every test that started in the suite's first minutes
  /// waited 250–300 s (SQLite-only ones too), and two of them gave up on a connection after
  /// the 120 s this was: suites that waited for `psql` without suspending held both of the
  /// threads Swift's tasks share (they now run on their own, `.blockingWork`). CI's own watchdog
  /// (25 minutes) still stops a real hang.
  static let patient: PostgreSQLDatabase.Configuration = {
    var configuration = PostgreSQLDatabase.Configuration()
    configuration.connectionTimeout = .seconds(600)
    return configuration
  }()

  /// A client for the server's maintenance database, which creates and drops the tests'.
  private func adminDatabase() throws -> PostgreSQLDatabase {
    if let admin { return admin }
    let maintenance = ProcessInfo.processInfo.environment[PostgreSQLServer.urlVariable].flatMap { URLComponents(string: $0)?.path.dropFirst() }.map(String.init)
    var configuration = try PostgresClient.Configuration(url: try url(of: maintenance.flatMap { $0.isEmpty ? nil : $0 } ?? "postgres"))
    configuration.options.maximumConnections = 4
    let client = PostgresClient(configuration: configuration)
    // Runs for as long as the test process does.
    Task.detached { await client.run() }
    let database = PostgreSQLDatabase(client: client, configuration: Self.patient)
    admin = database
    return database
  }

  /// The PostgreSQL schema of the models, as the generator writes it.
  static func schema() throws -> String {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Models")
    let sources = try modelFiles.map { name in
      let path = folder.appendingPathComponent(name + ".swift").path
      return (path: path, contents: try String(contentsOfFile: path, encoding: .utf8))
    }
    let models = try Generator(sources: sources, root: folder.path).models(for: .postgresql)
    return DatabaseDialect.postgresql.sql(models.schema)
  }

  /// A new database holding the models' tables without rows, or nothing at all when `empty`;
  /// its name.
  func newDatabase(empty: Bool = false) async throws -> String {
    let admin = try adminDatabase()
    let template = empty ? "template0" : try await templateDatabase(admin)
    counter += 1
    let name = "strata_test_\(getpid())_\(counter)"
    try await admin.withConnection { db in
      try await sql("DROP DATABASE IF EXISTS \(quote: name)").execute(db)
      try await sql("CREATE DATABASE \(quote: name) TEMPLATE \(quote: template)").execute(db)
    }
    return name
  }

  /// Runs `body` on a new empty database, dropped when it returns or throws.
  nonisolated func withEmptyDatabase(_ body: (PostgreSQLDatabase) async throws -> Void) async throws {
    let name = try await newDatabase(empty: true)
    do {
      try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: try url(of: name)), configuration: Self.patient) { database in
        try await body(database)
      }
    } catch {
      await drop(name)
      throw error
    }
    await drop(name)
  }

  /// Drops a database `newDatabase()` made.
  func drop(_ name: String) async {
    _ = try? await adminDatabase().withConnection { db in
      try await sql("DROP DATABASE IF EXISTS \(quote: name) WITH (FORCE)").execute(db)
    }
  }

  /// The template: made once per schema (its name holds the schema's hash), so runs share it.
  private func templateDatabase(_ admin: PostgreSQLDatabase) async throws -> String {
    if let template { return try await template.value }
    let task = Task { try await Self.makeTemplate(admin, url: { try self.url(of: $0) }) }
    template = task
    return try await task.value
  }

  private static func makeTemplate(_ admin: PostgreSQLDatabase, url: @Sendable (String) throws -> String) async throws -> String {
    // The generator plans PostgreSQL tables through psql, waited for without suspending.
    let schema = try await blockingWork { try Self.schema() }
    var hash: UInt64 = 14_695_981_039_346_656_037
    for byte in schema.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
    let name = "strata_runtime_template_\(String(hash, radix: 16))"
    let exists = try await admin.withConnection { db in
      try await sql("SELECT count(*) FROM pg_database WHERE datname = \(name)", as: Int.self).fetchOne(db) ?? 0
    }
    if exists == 0 {
      let building = name + "_building_\(getpid())"
      try await admin.withConnection { db in
        try await sql("DROP DATABASE IF EXISTS \(quote: building)").execute(db)
        try await sql("CREATE DATABASE \(quote: building)").execute(db)
      }
      var configuration = try PostgresClient.Configuration(url: try url(building))
      configuration.options.maximumConnections = 1
      try await PostgreSQLDatabase.withDatabase(configuration, configuration: Self.patient) { database in
        // As a migration of its tables would.
        try await database.migrate([Migration(name: "0001_schema", sql: schema)])
      }
      // Renamed when complete, so an interrupted run never leaves a template without tables.
      // The pool's connection may still be closing: a database in use cannot be renamed.
      try await admin.withConnection { db in
        try await sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(building)").execute(db)
        try await sql("ALTER DATABASE \(quote: building) RENAME TO \(quote: name)").execute(db)
      }
    }
    return name
  }
}

// `strata-sync-harness server`: the sync server as a process of its own, which the harness
// kills and starts again, and moves to a newer schema mid-run. Its users are the devices'
// tokens: `user-NAME` is NAME.
#if SyncServer
import Foundation
import Logging
import StrataPostgreSQL
import StrataSyncServer

enum ServerRole {
  /// Serves until killed; `schema` is where the harness has migrated its database, whose
  /// window decides which devices it syncs with.
  static func run(postgres url: String, port: Int, schema: SyncSchema?) async throws {
    var configuration = try PostgresClient.Configuration(url: url)
    configuration.options.maximumConnections = 16
    var databaseConfiguration = PostgreSQLDatabase.Configuration()
    databaseConfiguration.connectionTimeout = .seconds(60)
    try await PostgreSQLDatabase.withDatabase(configuration, configuration: databaseConfiguration) { database in
      // As a service manager would, start again while PostgreSQL is down (the harness stops it).
      var attempts = 0
      var started: SyncServer?
      while started == nil {
        do {
          var serverConfiguration = SyncServer.Configuration()
          serverConfiguration.schema = schema
          started = try await SyncServer(database: database, tables: StrataSyncedTables.all, configuration: serverConfiguration) { token in
            token.hasPrefix("user-") ? String(token.dropFirst(5)) : nil
          }
        } catch {
          attempts += 1
          if attempts > 120 { throw error }
          try await Task.sleep(for: .milliseconds(500))
        }
      }
      guard let server = started else { return }
      var logger = Logger(label: "harness.server")
      logger.logLevel = .error
      try await server.serve(port: port, logger: logger) { port in print("serving on \(port)") }
    }
  }
}
#endif

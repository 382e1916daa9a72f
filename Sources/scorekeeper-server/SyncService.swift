// `scorekeeper-server serve`: the sync server of the Scorekeeper app. It keeps the games of
// every user's devices in a database of its own on the PostgreSQL server the URL names, made
// and migrated when missing and kept between runs, and serves sync on a loopback port until
// stopped.
import Foundation
import StrataPostgreSQL

#if SyncServer
import StrataSyncServer
#endif

enum SyncService {
  static let usage = """
    usage: scorekeeper-server serve postgres://user@host:port/database [--port 8080] [--database scorekeeper_sync] [--users alice:TOKEN,bob:TOKEN]
      Each user signs in with their TOKEN (scorekeeper sync … TOKEN); without --users,
      SCOREKEEPER_USERS holds the list.

    """

  static func run(_ arguments: [String]) async throws {
    #if SyncServer
    var arguments = arguments[...]
    var serverURL: String?
    var port = 8080
    var name = "scorekeeper_sync"
    var users = ProcessInfo.processInfo.environment["SCOREKEEPER_USERS"] ?? ""
    while let argument = arguments.popFirst() {
      switch argument {
      case "--port": port = arguments.popFirst().flatMap(Int.init) ?? -1
      case "--database": name = arguments.popFirst() ?? ""
      case "--users": users = arguments.popFirst() ?? ""
      default: serverURL = argument
      }
    }
    let tokens = Dictionary(
      users.split(separator: ",").compactMap { entry -> (String, String)? in
        let parts = entry.split(separator: ":", maxSplits: 1)
        return parts.count == 2 ? (String(parts[1]), String(parts[0])) : nil
      }, uniquingKeysWith: { first, _ in first })
    guard let serverURL, var components = URLComponents(string: serverURL), port >= 0, !name.isEmpty, !tokens.isEmpty else {
      FileHandle.standardError.write(Data(usage.utf8))
      exit(2)
    }
    try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: serverURL)) { server in
      try await server.withConnection { db in
        let exists = try await sql("SELECT count(*) > 0 FROM pg_database WHERE datname = \(name)", as: Bool.self).fetchOne(db) ?? false
        if !exists { try await sql("CREATE DATABASE \(quote: name)").execute(db) }
      }
    }
    components.path = "/" + name
    try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: components.string ?? serverURL)) { database in
      let migrated = try await database.migrate(StrataMigrations.all)
      if !migrated.applied.isEmpty { print("scorekeeper-server: migrated \(name): \(migrated.applied.joined(separator: ", "))") }
      let sync = try await SyncServer(database: database, tables: StrataSyncedTables.all) { token in tokens[token] }
      let databaseName = name
      try await sync.serve(port: port) { port in
        // One line, at once: a script that starts the server waits for it.
        FileHandle.standardOutput.write(Data("scorekeeper-server: serving sync of the games in \(databaseName) on http://127.0.0.1:\(port)\n".utf8))
      }
    }
    #else
    FileHandle.standardError.write(Data("scorekeeper-server: serving sync needs the SyncServer trait: swift run --traits SyncServer scorekeeper-server serve …\n".utf8))
    exit(2)
    #endif
  }
}

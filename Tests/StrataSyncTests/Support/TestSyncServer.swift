#if SyncServer
import Foundation
import HummingbirdWSClient
import Logging
import Strata
import StrataPostgreSQL
@testable import StrataSchema
import StrataSync
import StrataSyncClient
import StrataSyncServer
import StrataTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A sync server as an app team runs one: a PostgreSQL database holding the test models'
/// tables (the schema the generator writes for them as PostgreSQL models), and the server on
/// a loopback port, which clients reach over real HTTP. A token `user-NAME` is the user NAME.
struct TestSyncServer {
  let url: URL
  let server: SyncServer
  let database: PostgreSQLDatabase
  private let scratch: PsqlDatabase

  static var isAvailable: Bool { PostgreSQLServer.isAvailable }

  /// Runs SQL text such as a migration's in the server's database, through psql.
  func execute(_ sql: String) async throws {
    let scratch = scratch
    try await blockingWork { try scratch.execute(sql) }
  }

  /// The models' PostgreSQL tables, as the generator writes them.
  static func schema() throws -> String {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Models/Boards.swift").path
    let models = try Generator(sources: [(path, try String(contentsOfFile: path, encoding: .utf8))]).models(for: .postgresql)
    return DatabaseDialect.postgresql.sql(models.schema)
  }

  /// Runs `body` with a server on a scratch database made by `schema` (the test models' tables
  /// by default) that syncs `tables`.
  static func run(
    configuration: SyncServer.Configuration = SyncServer.Configuration(), schema: String? = nil,
    tables: [SyncedTable] = StrataSyncedTables.all, _ body: (TestSyncServer) async throws -> Void
  ) async throws {
    // psql is a child process, waited for: on one of the threads Swift's tasks share, it would
    // stall the in-process server's handlers (a push timed out so in a full CI run).
    let scratch = try await blockingWork { try PostgreSQLServer.shared().scratchDatabase() }
    let schema = try await blockingWork { try schema ?? Self.schema() }
    try await blockingWork { try scratch.execute(schema) }
    var options = PostgresClient.Configuration.Options()
    options.maximumConnections = 8
    var clientConfiguration = try PostgresClient.Configuration(url: scratch.url)
    clientConfiguration.options = options
    // A machine busy with other tests (and a server just started) may take more than the
    // default 10 seconds to hand out a first connection.
    var databaseConfiguration = PostgreSQLDatabase.Configuration()
    databaseConfiguration.connectionTimeout = .seconds(120)
    try await PostgreSQLDatabase.withDatabase(clientConfiguration, configuration: databaseConfiguration) { database in
      let server = try await SyncServer(
        database: database, tables: tables, configuration: configuration, authenticate: Self.authenticate)
      let (ports, port) = AsyncStream<Int>.makeStream()
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          defer { port.finish() }
          try await server.serve(port: 0, logger: Self.quietLogger) { port.yield($0) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let number = await iterator.next() else { return try await group.waitForAll() }
        defer { group.cancelAll() }
        try await body(TestSyncServer(url: URL(string: "http://127.0.0.1:\(number)/")!, server: server, database: database, scratch: scratch))
      }
    }
    withExtendedLifetime(scratch) {}
  }

  /// A loopback port nothing listens on now.
  static func freePort() throws -> Int {
    #if canImport(Glibc)
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
    #endif
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
    }
    guard bound else { throw CocoaError(.fileReadUnknown) }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// The changesets a server's live channel (`ws://…/sync/live?after=0`) sends `token`'s user,
  /// as they arrive, until the returned task is cancelled.
  static func liveChangesets(_ url: String, token: String?) -> (AsyncStream<Changeset>, Task<Void, any Error>) {
    var configuration = WebSocketClientConfiguration()
    if let token { configuration.additionalHeaders[.authorization] = "Bearer \(token)" }
    let (received, receiver) = AsyncStream<Changeset>.makeStream()
    let listening = Task {
      defer { receiver.finish() }
      try await WebSocketClient.connect(url: url, configuration: configuration, logger: quietLogger) { inbound, _, _ in
        for try await message in inbound.messages(maxSize: 1 << 20) {
          guard case .binary(let buffer) = message else { continue }
          receiver.yield(try Changeset(decoding: Array(buffer.readableBytesView)))
        }
      }
    }
    return (received, listening)
  }

  /// The servers' logger: cancelling a server at the end of a test is not an error to report.
  static let quietLogger = {
    var logger = Logger(label: "test-sync-server")
    logger.logLevel = .critical
    return logger
  }()

  /// The tests' sign-in: the token `user-NAME` is the user NAME.
  @Sendable static func authenticate(_ token: String) -> String? {
    token.hasPrefix("user-") ? String(token.dropFirst(5)) : nil
  }

  /// Runs another instance of the server on the same database, on a port of its own, for
  /// `body`: its URL.
  func anotherInstance(port: Int = 0, _ body: (URL) async throws -> Void) async throws {
    let instance = try await SyncServer(database: database, tables: StrataSyncedTables.all, authenticate: Self.authenticate)
    let (ports, listening) = AsyncStream<Int>.makeStream()
    let logger = Self.quietLogger
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        // A server that cannot start ends the wait for its port.
        defer { listening.finish() }
        try await instance.serve(port: port, logger: logger) { listening.yield($0) }
      }
      var iterator = ports.makeAsyncIterator()
      guard let number = await iterator.next() else { return try await group.waitForAll() }
      defer { group.cancelAll() }
      try await body(URL(string: "http://127.0.0.1:\(number)/")!)
    }
  }

  /// A client of this server for `replica`, signed in as `user`.
  func client(_ replica: TestReplica, user: String) -> SyncClient {
    var configuration = SyncClient.Configuration()
    configuration.pullWait = .seconds(5)
    return SyncClient(replica: replica.sync, server: url, configuration: configuration) { "user-\(user)" }
  }

  /// Sends `body` to `path` as `user` (nil: no token), as a client of any make would: the
  /// status and the answer's text.
  func send(_ path: String, method: String = "POST", user: String?, body: [UInt8]) async throws -> (Int, String) {
    var request = URLRequest(url: URL(string: path, relativeTo: url)!)
    request.httpMethod = method
    if let user { request.setValue("Bearer user-\(user)", forHTTPHeaderField: "Authorization") }
    request.httpBody = Data(body)
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// The rows of the server's tables, as the team's SQL sees them.
  func contents() async throws -> [String] {
    try await database.read { db in
      let boards = try await sql("SELECT id::text, title, rank, likes, tags, notes FROM boards ORDER BY id", as: (String, String, Int, Int, String, String).self)
        .fetchAll(db).map { "boards \($0.0) \($0.1.debugDescription) rank \($0.2) likes \($0.3) \($0.4) \($0.5.debugDescription)" }
      let cards = try await sql("SELECT id::text, \"boardID\"::text, text, position FROM cards ORDER BY id", as: (String, String, String, Int).self)
        .fetchAll(db).map { "cards \($0.0) \($0.1) \($0.2.debugDescription) \($0.3)" }
      return boards + cards
    }
  }
}

extension SyncClient {
  /// A round, again after a request that timed out, as an app's next round would: in the full
  /// suite, two cores busy with hundreds of tests have kept a request of the in-process test
  /// server waiting over 30 and 60 seconds (four times, across sessions, each in another test).
  /// Suspected, not proven: tests that block a thread of Swift's cooperative pool (two threads
  /// here) while a child process runs leave none for the server's tasks.
  func syncRetrying() async throws {
    for attempt in 1...3 {
      do {
        return try await sync()
      } catch let error as URLError where error.code == .timedOut && attempt < 3 {
        continue
      }
    }
  }
}
#endif

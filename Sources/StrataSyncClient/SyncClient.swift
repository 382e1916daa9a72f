import Foundation
import GRDB
import Observation
import StrataCore
import StrataSQL
import StrataSync

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Syncs a replica's synced tables with a sync server (`StrataSyncServer`) over HTTP: pushes
/// what changed on the device, pulls what changed elsewhere, keeps working offline and catches
/// up, and tells a UI where it is (``status``, observable).
///
/// ```swift
/// let replica = try SyncReplica(database, tables: StrataSyncedTables.all)
/// let client = SyncClient(replica: replica, server: URL(string: "https://sync.example.com")!) {
///   try await session.token()          // the bearer token of the signed-in user
/// }
/// Task { await client.run() }          // until cancelled
/// ```
///
/// It uses Foundation's URLSession, so an Apple app builds no SwiftNIO; changes from elsewhere
/// arrive through long polling (a pull the server holds until something commits), which works
/// wherever URLSession does (Linux's URLSession has no WebSockets); the server's WebSocket
/// channel is there for clients that have them.
///
/// The cursors (what the server confirmed, and what was pulled) are kept in the replica's
/// database, in `strata_sync_peers`, one row per server.
public final class SyncClient: Observable, @unchecked Sendable {
  /// How the client waits and retries.
  public struct Configuration: Sendable {
    /// The most rows a push carries; more are sent in several (500).
    public var pushRows = 500
    /// How long a pull waits at the server for a change when there is none (25 seconds).
    public var pullWait: Duration = .seconds(25)
    /// The first wait after a failure; it doubles after each, up to ``maximumBackoff``.
    public var initialBackoff: Duration = .milliseconds(250)
    /// The longest wait between attempts (30 seconds).
    public var maximumBackoff: Duration = .seconds(30)

    public init() {}
  }

  /// The replica it syncs.
  public let replica: SyncReplica
  /// The server's base URL; the endpoints are under `sync/`.
  public let server: URL
  public let configuration: Configuration
  private let token: @Sendable () async throws -> String
  private let session: URLSession
  // Guarded by `lock` (Synchronization's Mutex needs macOS 15).
  private let lock = NSLock()
  private var current = SyncStatus()
  private let registrar = ObservationRegistrar()

  /// A client of `server` for `replica`.
  ///
  /// - Parameters:
  ///   - replica: The replica it syncs.
  ///   - server: The server's base URL; the endpoints are under `sync/`.
  ///   - configuration: How it waits and retries.
  ///   - session: The session requests go through; by default one of the client's own. A session
  ///     must let two requests to the server run at once (``run()`` pushes while a pull waits):
  ///     Linux's URLSession was seen to queue a push behind the long pulls of other clients
  ///     sharing `URLSession.shared` until they ended.
  ///   - token: The bearer token of the signed-in user, asked for each request.
  public init(
    replica: SyncReplica, server: URL, configuration: Configuration = Configuration(), session: URLSession? = nil,
    token: @escaping @Sendable () async throws -> String
  ) {
    self.replica = replica
    self.server = server
    self.configuration = configuration
    self.session = session ?? {
      let configuration = URLSessionConfiguration.default
      configuration.httpMaximumConnectionsPerHost = 4
      configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
      configuration.urlCache = nil
      return URLSession(configuration: configuration)
    }()
    self.token = token
  }

  /// Where the client is. Observable: a SwiftUI view that reads it updates with it.
  public var status: SyncStatus {
    registrar.access(self, keyPath: \.status)
    return lock.withLock { current }
  }

  private func update(_ change: (inout SyncStatus) -> Void) {
    registrar.withMutation(of: self, keyPath: \.status) {
      lock.withLock { change(&current) }
    }
  }

  // MARK: Syncing

  /// Syncs until the task is cancelled: a round at once, then a push after every change made
  /// on the device, and the server's changes as they come (a long pull, always waiting at the
  /// server); after a failure it tries again, waiting longer each time (with jitter), and
  /// catches up when it gets through.
  public func run() async {
    let (writes, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let cancellable = replica.observeChanges { continuation.yield() }
    defer {
      cancellable.cancel()
      continuation.finish()
    }
    guard await retrying({ try await self.sync() }) else { return }
    // Pushing and pulling go on side by side: a change made here is pushed while a pull waits.
    // (The stream of changes has this one reader for as long as the client runs: a reader
    // cancelled while it waits would end the stream.)
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for await _ in writes {
          guard await self.retrying({ try await self.push() }) else { return }
        }
      }
      group.addTask {
        while await self.retrying({ while try await self.pull(waiting: self.configuration.pullWait) {} }) {}
      }
    }
  }

  /// Runs `body` until it succeeds (then records the sync and returns true) or the task is
  /// cancelled (false), waiting longer after each failure.
  private func retrying(_ body: () async throws -> Void) async -> Bool {
    var backoff = configuration.initialBackoff
    while !Task.isCancelled {
      do {
        try await body()
        try await recordSynced()
        return true
      } catch {
        if Task.isCancelled { return false }
        update { $0.phase = Self.isUnreachable(error) ? .offline : .error(String(describing: error)) }
        let jittered = backoff * Double.random(in: 0.5...1)
        try? await Task.sleep(for: jittered)
        backoff = min(backoff * 2, configuration.maximumBackoff)
      }
    }
    return false
  }

  /// One round: pushes every change the server has not confirmed, then pulls every change it
  /// has for this user.
  public func sync() async throws {
    update { $0.phase = .syncing }
    try await push()
    while try await pull(waiting: .zero) {}
    try await recordSynced()
  }

  /// Tells observers the client got through: idle, and what waits for the next push.
  private func recordSynced() async throws {
    let pending = try await pendingChanges()
    update {
      $0.phase = .idle
      $0.pendingChanges = pending
      $0.lastSynced = Date()
    }
  }

  /// Sends what changed here since the server's last confirmation, in pushes of at most
  /// ``Configuration/pushRows`` rows; each confirmed push moves the cursor.
  ///
  /// A change the server refuses because of what the user may do (a record shared read-only,
  /// a share that ended) is undone here: the row's unconfirmed changes are discarded and its
  /// record fetched again as the server holds it (``SyncStatus/lastRefusal`` says why); the
  /// rest is pushed. Other refusals throw.
  public func push() async throws {
    var discarded: Set<String> = []
    while true {
      let cursors = try await cursors()
      let changeset = try await replica.database.read { db in
        try self.replica.changes(since: SyncCursor(cursors.pushed), limit: self.configuration.pushRows, in: db)
      }
      if changeset.rows.isEmpty {
        try await replica.database.write { db in try self.save(db, pushed: changeset.cursor.sequence) }
        return
      }
      do {
        _ = try await request("sync/push", method: "POST", body: Data(changeset.encoded()), timeout: 60)
      } catch let error as SyncRequestError where error.status == 403 {
        guard let row = error.refusedRow, discarded.insert("\(row.table)/\(row.key)").inserted else { throw error }
        try await discard(row, reason: error.reason)
        continue
      }
      try await replica.database.write { db in try self.save(db, pushed: changeset.cursor.sequence) }
      update { $0.pendingChanges = max(0, $0.pendingChanges - changeset.rows.count) }
    }
  }

  /// Undoes the unconfirmed changes of a row the server refused: forgets the row (and the rows
  /// below it) and applies the record the server holds it in, as the server has it.
  private func discard(_ row: (table: String, key: String), reason: String) async throws {
    var components = URLComponents()
    components.path = "sync/record"
    components.queryItems = [URLQueryItem(name: "table", value: row.table), URLQueryItem(name: "key", value: row.key)]
    let (data, response) = try await request(components.string ?? "sync/record", method: "GET", body: nil, timeout: 30)
    let record = try Changeset(decoding: Array(data))
    let waiting = Self.rows(in: response, header: SyncProtocol.waitingHeader).map { (table: $0, key: StoredValue.text($1)) }
    try await replica.database.write { db in
      try self.replica.forget(table: row.table, key: .text(row.key), in: db)
      try self.replica.apply(record, waitingAtServer: waiting, in: db)
    }
    update { $0.lastRefusal = reason }
  }

  /// Pulls one page of the server's changes and applies it; true when there may be more.
  /// With `wait`, the server holds the request until something commits (or `wait` passes).
  @discardableResult
  public func pull(waiting wait: Duration = .zero) async throws -> Bool {
    let cursors = try await cursors()
    let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
    var path = "sync/pull?after=\(cursors.pulled)"
    if seconds > 0 { path += "&wait=\(seconds)" }
    let (data, response) = try await request(path, method: "GET", body: nil, timeout: seconds + 30)
    let changeset = try Changeset(decoding: Array(data))
    let revoked = Self.rows(in: response, header: SyncProtocol.revokedHeader)
    let waiting = Self.rows(in: response, header: SyncProtocol.waitingHeader).map { (table: $0, key: StoredValue.text($1)) }
    try await replica.database.write { db in
      // What arrives is not this device's to send back: when nothing of its own waited, the
      // confirmed cursor moves past what the apply records.
      let nothingPending = try self.replica.changedRowCount(since: SyncCursor(cursors.pushed), in: db) == 0
      try self.replica.apply(changeset, waitingAtServer: waiting, in: db)
      for (table, key) in revoked { try self.replica.forget(table: table, key: .text(key), in: db) }
      try self.save(db, pulled: changeset.cursor.sequence)
      if nothingPending { try self.save(db, pushed: try self.replica.newestCursor(in: db).sequence) }
    }
    return changeset.cursor.sequence > cursors.pulled && !changeset.rows.isEmpty
  }

  /// The rows (`table/key`, separated by commas) an answer's header names.
  private static func rows(in response: HTTPURLResponse, header: String) -> [(String, String)] {
    (response.value(forHTTPHeaderField: header) ?? "").split(separator: ",").compactMap { entry in
      let parts = entry.split(separator: "/", maxSplits: 1)
      return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
    }
  }

  /// How many rows changed here that the server has not confirmed.
  public func pendingChanges() async throws -> Int {
    let pushed = try await cursors().pushed
    return try await replica.database.read { db in try self.replica.changedRowCount(since: SyncCursor(pushed), in: db) }
  }

  // MARK: Sharing

  /// Shares a record this user owns (a row of a table with no synced parent, and the rows
  /// below it) with `user`.
  public func share(table: String, key: UUID, with user: String, access: SyncShareAccess) async throws {
    try await send("sync/shares", method: "POST", SyncShareRequest(table: table, key: Self.keyText(key), user: user, access: access))
  }

  /// Accepts a record shared with this user: its rows come with the next pull.
  public func accept(table: String, key: UUID) async throws {
    try await send("sync/shares/accept", method: "POST", SyncShareRequest(table: table, key: Self.keyText(key)))
  }

  /// Leaves a record shared with this user: its rows leave this device with the next pull.
  public func leave(table: String, key: UUID) async throws {
    try await send("sync/shares", method: "DELETE", SyncShareRequest(table: table, key: Self.keyText(key)))
  }

  /// Ends `user`'s share of a record this user owns.
  public func revoke(table: String, key: UUID, from user: String) async throws {
    try await send("sync/shares", method: "DELETE", SyncShareRequest(table: table, key: Self.keyText(key), user: user))
  }

  /// The shares of this user's records, and those offered to them.
  public func shares() async throws -> SyncShareList {
    let (data, _) = try await request("sync/shares", method: "GET", body: nil, timeout: 30)
    return try JSONDecoder().decode(SyncShareList.self, from: data)
  }

  private static func keyText(_ key: UUID) -> String {
    UUIDText.format(key)
  }

  private func send(_ path: String, method: String, _ body: SyncShareRequest) async throws {
    _ = try await request(path, method: method, body: try JSONEncoder().encode(body), timeout: 30)
  }

  // MARK: HTTP

  private func request(_ path: String, method: String, body: Data?, timeout: Double) async throws -> (Data, HTTPURLResponse) {
    guard let url = URL(string: path, relativeTo: server.hasDirectoryPath ? server : server.appendingPathComponent("")) else {
      throw SyncRequestError(status: 0, reason: "\(path) is not a path under \(server)")
    }
    var request = URLRequest(url: url, timeoutInterval: timeout)
    request.httpMethod = method
    request.setValue("Bearer \(try await token())", forHTTPHeaderField: "Authorization")
    if let schema = try await replica.database.read({ db in try self.replica.schema(in: db) }) {
      request.setValue(schema.headerValue, forHTTPHeaderField: SyncProtocol.schemaHeader)
    }
    if let body {
      request.httpBody = body
      request.setValue(path.hasSuffix("push") ? SyncProtocol.changesetContentType : "application/json", forHTTPHeaderField: "Content-Type")
    }
    let (data, response) = try await send(request)
    guard let http = response as? HTTPURLResponse else { throw SyncRequestError(status: 0, reason: "not an HTTP answer") }
    guard (200..<300).contains(http.statusCode) else {
      let refused = http.value(forHTTPHeaderField: SyncProtocol.refusedRowHeader)?.split(separator: "/", maxSplits: 1)
      throw SyncRequestError(
        status: http.statusCode, reason: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
        refusedRow: refused.flatMap { $0.count == 2 ? (String($0[0]), String($0[1])) : nil })
    }
    return (data, http)
  }

  /// The request's answer, through a data task that cancelling the calling task cancels at
  /// once, so that cancelling ``run()`` ends the pull waiting at the server instead of leaving it
  /// to run out.
  private func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
    let box = TaskBox()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
        let task = session.dataTask(with: request) { data, response, error in
          if let data, let response {
            continuation.resume(returning: (data, response))
          } else {
            continuation.resume(throwing: error ?? URLError(.badServerResponse))
          }
        }
        box.start(task)
      }
    } onCancel: {
      box.cancel()
    }
  }

  private static func isUnreachable(_ error: any Error) -> Bool {
    if error is URLError { return true }
    if let error = error as? SyncRequestError { return error.status == 502 || error.status == 503 || error.status == 504 }
    return (error as NSError).domain == NSURLErrorDomain
  }

  // MARK: Cursors

  private var serverName: String { server.absoluteString }

  private func cursors() async throws -> (pushed: Int64, pulled: Int64) {
    try await replica.database.read { db in
      guard try db.tableExists(SyncTables.peers) else { return (0, 0) }
      let row = try Row.fetchOne(
        db, sql: "SELECT pushed, pulled FROM \(SQLQuoting.identifier(SyncTables.peers)) WHERE server = ?", arguments: [self.serverName])
      return (row?["pushed"] ?? 0, row?["pulled"] ?? 0)
    }
  }

  /// Makes the cursors' table when it is missing. Not on every save: a `CREATE TABLE`, even one
  /// that makes nothing, is a schema change to GRDB's observers, and `run()`, which pushes
  /// after every change to the synced tables, would take each round's own save for one.
  private func makePeers(_ db: Database) throws {
    guard try !db.tableExists(SyncTables.peers) else { return }
    try db.execute(
      sql: "CREATE TABLE \(SQLQuoting.identifier(SyncTables.peers)) (server TEXT PRIMARY KEY, pushed INTEGER NOT NULL DEFAULT 0, pulled INTEGER NOT NULL DEFAULT 0)")
  }

  private func save(_ db: Database, pushed: Int64? = nil, pulled: Int64? = nil) throws {
    try makePeers(db)
    let peers = SQLQuoting.identifier(SyncTables.peers)
    try db.execute(sql: "INSERT OR IGNORE INTO \(peers) (server) VALUES (?)", arguments: [serverName])
    if let pushed {
      try db.execute(sql: "UPDATE \(peers) SET pushed = max(pushed, ?) WHERE server = ?", arguments: [pushed, serverName])
    }
    if let pulled {
      try db.execute(sql: "UPDATE \(peers) SET pulled = ? WHERE server = ?", arguments: [pulled, serverName])
    }
  }
}

/// A data task that may be cancelled before it is started: started then, it is cancelled at
/// once.
private final class TaskBox: @unchecked Sendable {
  // Guarded by `lock`.
  private let lock = NSLock()
  private var task: URLSessionDataTask?
  private var cancelled = false

  func start(_ task: URLSessionDataTask) {
    let cancelled = lock.withLock {
      self.task = task
      return self.cancelled
    }
    task.resume()
    if cancelled { task.cancel() }
  }

  func cancel() {
    lock.withLock {
      cancelled = true
      return task
    }?.cancel()
  }
}

#if SyncServer
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore
import StrataSyncCore

extension SyncServer {
  /// Adds sync's endpoints (`SyncProtocol`) under `/sync` to an app's router, whose server
  /// must take WebSocket upgrades (`.http1WebSocketUpgrade(webSocketRouter: router)`) for the
  /// live channel.
  public func addRoutes<Context: WebSocketRequestContext & RequestContext>(to router: Router<Context>) {
    let group = router.group("sync")
    group.post("push") { request, context in
      try await self.respond {
        let user = try await self.user(of: request)
        let body = try await self.body(of: request, upTo: self.configuration.maximumPushBytes)
        let changeset: Changeset
        do {
          changeset = try Changeset(decoding: body)
        } catch {
          throw SyncRefusal(.badRequest, "the body is not a changeset: \(error); nothing was written")
        }
        return try Self.json(try await self.push(changeset, user: user))
      }
    }
    group.get("pull") { request, context in
      try await self.respond {
        let user = try await self.user(of: request)
        let cursor = try Self.cursor(of: request)
        let wait = request.uri.queryParameters["wait"].flatMap { Double(String($0)) }.map { Duration.milliseconds(Int64($0 * 1000)) } ?? .zero
        let (changeset, revoked, waiting) = try await self.pull(user: user, after: cursor, waiting: wait)
        return Self.changesetResponse(changeset, revoked: revoked, waiting: waiting)
      }
    }
    group.get("record") { request, context in
      try await self.respond {
        let user = try await self.user(of: request)
        guard let table = request.uri.queryParameters["table"], let key = request.uri.queryParameters["key"] else {
          throw SyncRefusal(.badRequest, "a record is asked for by a row of it: table= and key=")
        }
        let (changeset, waiting) = try await self.record(of: RowID(table: String(table), key: String(key)), user: user)
        return Self.changesetResponse(changeset, revoked: [], waiting: waiting)
      }
    }
    group.get("shares") { request, context in
      try await self.respond { try Self.json(try await self.shares(user: try await self.user(of: request))) }
    }
    group.post("shares") { request, context in
      try await self.respond {
        let user = try await self.user(of: request)
        try await self.share(try await self.shareRequest(request), user: user)
        return Response(status: .noContent)
      }
    }
    group.post("shares/accept") { request, context in
      try await self.respond {
        let user = try await self.user(of: request)
        try await self.accept(try await self.shareRequest(request), user: user)
        return Response(status: .noContent)
      }
    }
    group.delete("shares") { request, context in
      try await self.respond {
        let user = try await self.user(of: request)
        try await self.endShare(try await self.shareRequest(request), user: user)
        return Response(status: .noContent)
      }
    }
    group.ws("live") { request, context in
      (try? await self.user(of: request)) == nil ? .dontUpgrade : .upgrade([:])
    } onUpgrade: { inbound, outbound, context in
      guard let user = try? await self.user(of: context.request), let cursor = try? Self.cursor(of: context.request) else { return }
      try await self.live(user: user, after: cursor, inbound: inbound, outbound: outbound)
    }
  }

  /// Serves sync's endpoints alone on `host` and `port` (0: any free port) until the task is
  /// cancelled; `onServerRunning` gets the port it listens on. An app with routes of its own
  /// adds sync's to its router with ``addRoutes(to:)`` instead.
  public func serve(
    host: String = "127.0.0.1", port: Int, logger: Logger? = nil, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) async throws {
    let router = Router(context: BasicWebSocketRequestContext.self)
    addRoutes(to: router)
    let logger = logger ?? {
      var logger = Logger(label: "strata.sync-server")
      logger.logLevel = .warning
      return logger
    }()
    let app = Application(
      router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
      configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
      onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) }, logger: logger)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await app.runService(gracefulShutdownSignals: []) }
      group.addTask { try await self.listenForCommits() }
      try await group.next()
      group.cancelAll()
    }
  }

  /// Sends the user's changes after `cursor` as they commit, one binary message per changeset,
  /// until the client closes the channel.
  private func live(user: String, after cursor: Int64, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
    let commits = commits.subscribe()
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        // The client sends nothing; the channel ends when it closes.
        for try await _ in inbound {}
      }
      group.addTask {
        var cursor = cursor
        var pending = true
        var iterator = commits.makeAsyncIterator()
        while !Task.isCancelled {
          if pending {
            let (changeset, _, _) = try await self.pull(user: user, after: cursor)
            if !changeset.rows.isEmpty {
              try await outbound.write(.binary(ByteBuffer(bytes: changeset.encoded())))
            }
            pending = changeset.cursor.sequence > cursor && changeset.rows.count >= self.configuration.maximumPullRows
            cursor = changeset.cursor.sequence
            if pending { continue }
          }
          guard await iterator.next() != nil else { return }
          pending = true
        }
      }
      try await group.next()
      group.cancelAll()
    }
  }

  // MARK: Requests

  private func respond(_ body: () async throws -> Response) async throws -> Response {
    do {
      return try await body()
    } catch let refusal as SyncRefusal {
      var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8"]
      if let row = refusal.row, let name = HTTPField.Name(SyncProtocol.refusedRowHeader) {
        headers[name] = "\(row.table)/\(row.key)"
      }
      return Response(status: refusal.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: refusal.reason + "\n")))
    }
  }

  /// The user a request's token names, once its schema is one the server syncs with.
  private func user(of request: Request) async throws -> String {
    try checkSchema(of: request)
    guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
      throw SyncRefusal(.unauthorized, "the request has no Authorization: Bearer token")
    }
    guard let user = try await authenticate(String(header.dropFirst("Bearer ".count))), !user.isEmpty else {
      throw SyncRefusal(.unauthorized, "the token names no user")
    }
    return user
  }

  /// An encoded changeset, with the headers naming the records to forget and the rows the
  /// server keeps out of its tables.
  private static func changesetResponse(_ changeset: Changeset, revoked: [RowID], waiting: [RowID]) -> Response {
    var headers: HTTPFields = [.contentType: SyncProtocol.changesetContentType]
    for (header, rows) in [(SyncProtocol.revokedHeader, revoked), (SyncProtocol.waitingHeader, waiting)] {
      if !rows.isEmpty, let name = HTTPField.Name(header) {
        headers[name] = rows.map { "\($0.table)/\($0.key)" }.joined(separator: ",")
      }
    }
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: changeset.encoded())))
  }

  /// Refuses a client whose schema cannot sync with the server's; what it wrote stays on it.
  private func checkSchema(of request: Request) throws {
    guard let server = configuration.schema, let name = HTTPField.Name(SyncProtocol.schemaHeader),
      let header = request.headers[name], let client = SyncSchema(headerValue: header)
    else { return }
    switch server.verdict(for: client) {
    case .compatible:
      return
    case .otherTooOld:
      throw SyncRefusal(
        .init(code: 426, reasonPhrase: "Upgrade Required"),
        "update the app: its schema (migration \(client.number)) is older than the sync server keeps working (from migration \(server.keepsWorkingFrom)); what it wrote stays on this device and syncs after the update")
    case .otherTooNew:
      throw SyncRefusal(
        .conflict,
        "the sync server's schema (migration \(server.number)) is older than this app works with (from migration \(client.keepsWorkingFrom)); what it writes stays on this device and syncs once the server is updated")
    }
  }

  private func body(of request: Request, upTo limit: Int) async throws -> [UInt8] {
    do {
      let buffer = try await request.body.collect(upTo: limit)
      return Array(buffer.readableBytesView)
    } catch {
      throw SyncRefusal(.contentTooLarge, "the body is larger than the server takes (\(limit) bytes); push fewer rows at a time")
    }
  }

  private func shareRequest(_ request: Request) async throws -> SyncShareRequest {
    let body = try await body(of: request, upTo: 64 << 10)
    do {
      return try JSONDecoder().decode(SyncShareRequest.self, from: Data(body))
    } catch {
      throw SyncRefusal(.badRequest, "the body is not a share request ({\"table\", \"key\", \"user\", \"access\"}): \(error)")
    }
  }

  private static func cursor(of request: Request) throws -> Int64 {
    guard let text = request.uri.queryParameters["after"] else { return 0 }
    guard let cursor = Int64(String(text)), cursor >= 0 else {
      throw SyncRefusal(.badRequest, "after=\(text) is not a cursor (a number the server sent)")
    }
    return cursor
  }

  private static func json(_ value: some Encodable) throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return Response(
      status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
  }
}
#endif

import Foundation
@testable import StrataSchema

/// A PostgreSQL server of a test's own, from the machine's binaries, in a temporary folder, on a
/// Unix socket there: one a test may stop and start again, which the shared server is not.
final class OwnPostgreSQLServer: @unchecked Sendable {
  static var isAvailable: Bool {
    PostgreSQLServer.binary("initdb") != nil && PostgreSQLServer.binary("pg_ctl") != nil
      && (geteuid() != 0 || getpwnam("postgres") != nil)
  }

  let folder: String
  private let initdb: String
  private let pgCtl: String

  /// The URL of the server's `postgres` database.
  var url: String { "postgres://strata@/postgres?host=\(folder)&port=5432" }

  init() async throws {
    guard let initdb = PostgreSQLServer.binary("initdb"), let pgCtl = PostgreSQLServer.binary("pg_ctl") else {
      throw CocoaError(.fileNoSuchFile)
    }
    (self.initdb, self.pgCtl) = (initdb, pgCtl)
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-own-pg-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    if geteuid() == 0, let user = getpwnam("postgres") { chown(folder, user.pointee.pw_uid, user.pointee.pw_gid) }
    try await run([initdb, "--pgdata=\(folder)/data", "--username=strata", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"])
    try await start()
  }

  func start() async throws {
    try await run([
      pgCtl, "--pgdata=\(folder)/data", "--log=\(folder)/server.log", "--wait",
      "--options=-c listen_addresses='' -k \(folder) -p 5432 -c fsync=off", "start",
    ])
  }

  /// Stops the server at once, as a crash or a lost machine would: connections break.
  func stop() async throws {
    try await run(stopCommand)
  }

  /// Stops the server if it runs and removes its folder; for a `defer`, so it waits for `pg_ctl`
  /// on the calling thread.
  func remove() {
    _ = try? ChildProcess.run(asPostgreSQLUser(stopCommand), timeout: 60, capturing: false)
    try? FileManager.default.removeItem(atPath: folder)
  }

  private var stopCommand: [String] { [pgCtl, "--pgdata=\(folder)/data", "--mode=immediate", "stop"] }

  private func asPostgreSQLUser(_ arguments: [String]) -> [String] {
    (geteuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + arguments
  }

  /// Runs a program as the user PostgreSQL runs as (`postgres` when the tests run as root),
  /// waiting without holding one of the few threads Swift's tasks share: a full test run on two
  /// cores has other tests' tasks (and the pool's) to run meanwhile.
  private func run(_ arguments: [String]) async throws {
    let result = try await ChildProcess.start(asPostgreSQLUser(arguments), capturing: false).finish(timeout: 60)
    guard result.status == 0 else {
      throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(arguments.joined(separator: " ")) failed"])
    }
  }
}

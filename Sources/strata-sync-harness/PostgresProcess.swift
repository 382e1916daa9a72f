// The harness's own PostgreSQL server, from the machine's binaries, in a temporary folder on a
// loopback port: the harness stops it (as a crash would, or politely) and starts it again on
// the same port while the sync server and the devices go on.
import Foundation

final class PostgresProcess: @unchecked Sendable {
  let folder: String
  let port: Int
  private let bin: String
  private let asUser: [String]

  init() throws {
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
    let candidates = versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
      + ["/opt/homebrew/bin", "/usr/local/bin"]
    guard let bin = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }) else {
      throw HarnessError("the harness runs PostgreSQL from its binaries (initdb, pg_ctl), and this machine has none")
    }
    self.bin = bin
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-harness-pg-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // PostgreSQL refuses to run as root; a root process runs it as the `postgres` user.
    if geteuid() == 0, let user = getpwnam("postgres") {
      chown(folder, user.pointee.pw_uid, user.pointee.pw_gid)
      asUser = ["/usr/sbin/runuser", "-u", "postgres", "--"]
    } else {
      asUser = []
    }
    port = try freePort()
    try runToEnd(asUser + [bin + "/initdb", "--pgdata=\(folder)/data", "--username=strata", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"])
    try start()
  }

  /// The URL of `database` on it.
  func url(_ database: String = "postgres") -> String {
    "postgres://strata@127.0.0.1:\(port)/\(database)"
  }

  func start() throws {
    try runToEnd(asUser + [
      bin + "/pg_ctl", "--pgdata=\(folder)/data", "--log=\(folder)/server.log", "--wait", "--timeout=60",
      "--options=-c listen_addresses=127.0.0.1 -p \(port) -k \(folder) -c max_connections=200 -c fsync=off -c log_min_duration_statement=2000 -c log_lock_waits=on -c log_line_prefix=%m_[%p]_", "start",
    ])
  }

  /// Stops it: `immediate` is a crash (no checkpoint, recovery at the next start), `fast` a
  /// shutdown that ends every connection.
  func stop(mode: String = "fast") throws {
    try runToEnd(asUser + [bin + "/pg_ctl", "--pgdata=\(folder)/data", "--mode=\(mode)", "--wait", "stop"])
  }

  /// `psql` with `sql` on `database`: its unaligned output.
  @discardableResult
  func psql(_ sql: String, database: String = "postgres") throws -> String {
    try runToEnd([bin + "/psql", "--no-psqlrc", "--quiet", "--no-align", "--tuples-only", "--set=ON_ERROR_STOP=1", "--dbname=\(url(database))"], input: sql)
  }

  func remove() {
    try? stop(mode: "immediate")
    try? FileManager.default.removeItem(atPath: folder)
  }
}

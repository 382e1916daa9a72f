import Foundation

/// A PostgreSQL server the planner replays migrations into: the one `STRATA_POSTGRES_URL` names,
/// or, when none is named, a throwaway server started from the machine's PostgreSQL binaries in
/// a temporary folder (listening on a Unix socket there, no TCP port) and stopped when the
/// planner is done.
///
/// The planner talks to it through `psql`, so the `strata` tool needs no PostgreSQL client
/// library: an app that uses PostgreSQL pays for none in its build.
package final class PostgreSQLServer: @unchecked Sendable {
  /// The environment variable that names a server: a `postgres://` URL whose user may create
  /// databases.
  static let urlVariable = "STRATA_POSTGRES_URL"

  /// Whether a server can be had: one named, or the binaries for a throwaway one (and, for root,
  /// a `postgres` user to run it as).
  static var isAvailable: Bool {
    if let url = ProcessInfo.processInfo.environment[urlVariable], !url.isEmpty { return binary("psql") != nil }
    return binary("initdb") != nil && binary("pg_ctl") != nil && binary("psql") != nil && (geteuid() != 0 || getpwnam("postgres") != nil)
  }

  /// The server every planner in this process shares, started at the first use.
  package static func shared() throws -> PostgreSQLServer {
    try lock.withLock {
      if let server = sharedServer { return server }
      let server = try PostgreSQLServer()
      sharedServer = server
      atexit { PostgreSQLServer.lock.withLock { PostgreSQLServer.sharedServer?.stop() } }
      return server
    }
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var sharedServer: PostgreSQLServer?

  /// psql's connection arguments for the server's maintenance database.
  private let connection: [String]
  private let psql: String
  /// The throwaway server's folder and `pg_ctl`, when the planner started one.
  private let throwaway: (folder: String, data: String, pgCtl: String, asUser: String?)?
  private var databaseCounter = 0

  /// The server and database `url` names (`postgres://user@host:port/database`).
  init(url: String) throws {
    guard let psql = Self.binary("psql") else {
      throw InputError("reading a PostgreSQL database takes psql, which is not on this machine; install PostgreSQL's client")
    }
    self.psql = psql
    connection = ["--dbname=" + url]
    throwaway = nil
  }

  private convenience init() throws {
    if let url = ProcessInfo.processInfo.environment[Self.urlVariable], !url.isEmpty {
      try self.init(url: url)
    } else {
      try self.init(throwawayServer: ())
    }
  }

  /// Starts a throwaway server from the machine's binaries.
  private init(throwawayServer: Void) throws {
    guard let initdb = Self.binary("initdb"), let pgCtl = Self.binary("pg_ctl"), let psql = Self.binary("psql") else {
      throw InputError(
        "a PostgreSQL target's migrations are checked on a scratch PostgreSQL server: set \(Self.urlVariable) to a server whose user may create databases (postgres://user@localhost:5432/postgres), or install PostgreSQL (initdb, pg_ctl and psql) for a throwaway server")
    }
    self.psql = psql
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-postgres-\(UUID().uuidString.prefix(8))").path
    let data = (folder as NSString).appendingPathComponent("data")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // PostgreSQL refuses to run as root; a root process runs it as the `postgres` user.
    var asUser: String?
    if geteuid() == 0 {
      guard let user = getpwnam("postgres") else {
        throw InputError("PostgreSQL does not run as root, and this machine has no `postgres` user to run the throwaway server as; set \(Self.urlVariable)")
      }
      chown(folder, user.pointee.pw_uid, user.pointee.pw_gid)
      asUser = "postgres"
    }
    throwaway = (folder, data, pgCtl, asUser)
    connection = ["--host=" + folder, "--port=5432", "--username=strata", "--dbname=postgres"]
    let log = (folder as NSString).appendingPathComponent("server.log")
    let run = { (arguments: [String], capturing: Bool) throws in
      let result = try ChildProcess.run(
        (asUser.map { ["/usr/sbin/runuser", "-u", $0, "--"] } ?? []) + arguments, timeout: 60, capturing: capturing)
      if result.status != 0 {
        let output = capturing ? result.errors : (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        throw InputError("could not start a throwaway PostgreSQL server (\((arguments[0] as NSString).lastPathComponent)): \(output)")
      }
    }
    try run([initdb, "--pgdata=" + data, "--username=strata", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"], true)
    // The server inherits pg_ctl's output, so it goes to the log, not to pipes that would stay
    // open for as long as the server runs.
    try run([pgCtl, "--pgdata=" + data, "--log=" + log, "--wait", "--options=-c listen_addresses='' -k \(folder) -p 5432 -c fsync=off", "start"], false)
    // `atexit` stops it when this process exits normally; a process killed by a signal (Ctrl-C in
    // `generate-migrations`, a test run stopped) runs no exit handler, and would leave the server
    // running until the machine restarts.
    try ChildProcess.afterProcessEnds(
      getpid(), run: (asUser.map { ["/usr/sbin/runuser", "-u", $0, "--"] } ?? []) + [pgCtl, "--pgdata=" + data, "--mode=immediate", "stop"],
      removing: folder)
  }

  /// Stops the throwaway server and removes its folder; a named server is left as it was.
  func stop() {
    guard let throwaway else { return }
    _ = try? ChildProcess.run(
      (throwaway.asUser.map { ["/usr/sbin/runuser", "-u", $0, "--"] } ?? [])
        + [throwaway.pgCtl, "--pgdata=" + throwaway.data, "--mode=immediate", "stop"], timeout: 30)
    try? FileManager.default.removeItem(atPath: throwaway.folder)
  }

  /// The database the server's URL names (the maintenance database of a throwaway server),
  /// which is left as it is.
  func database() -> PsqlDatabase {
    PsqlDatabase(server: self, name: nil)
  }

  /// A new empty database on the server, for one replay.
  package func scratchDatabase() throws -> PsqlDatabase {
    let name = Self.lock.withLock { () -> String in
      databaseCounter += 1
      return "strata_scratch_\(getpid())_\(databaseCounter)_\(UUID().uuidString.prefix(6).lowercased())"
    }
    _ = try run("CREATE DATABASE \"\(name)\"", database: nil)
    return PsqlDatabase(server: self, name: name)
  }

  /// A URL for the database `name` on this server, for psql and the tools that read one.
  package func url(of name: String) -> String {
    if let throwaway {
      return "postgresql://strata@/\(name)?host=\(throwaway.folder)&port=5432"
    }
    let target = connection.first { $0.hasPrefix("--dbname=") }.map { String($0.dropFirst("--dbname=".count)) } ?? ""
    return Self.replacingDatabase(in: target, with: name)
  }

  /// Drops a scratch database.
  package func drop(_ database: String) {
    _ = try? run("DROP DATABASE IF EXISTS \"\(database)\" WITH (FORCE)", database: nil)
  }

  /// Runs `sql` with psql, stopping at the first error, in `database` (the maintenance one when
  /// nil); returns what it printed, unaligned, without headers.
  ///
  /// - Throws: ``PsqlError`` with psql's message (`psql:<stdin>:LINE: ERROR: …`).
  func run(_ sql: String, database: String?) throws -> String {
    var arguments = [psql, "--no-psqlrc", "--quiet", "--no-align", "--tuples-only", "--set=ON_ERROR_STOP=1"]
    arguments += connection.map { argument in
      guard let database, argument.hasPrefix("--dbname=") else { return argument }
      return "--dbname=" + Self.replacingDatabase(in: String(argument.dropFirst("--dbname=".count)), with: database)
    }
    let result = try ChildProcess.run(arguments, input: sql, timeout: 120)
    guard result.status == 0 else { throw PsqlError(message: result.errors) }
    return result.output
  }

  /// A connection string or URL naming `database` instead of the one it names.
  private static func replacingDatabase(in target: String, with database: String) -> String {
    guard var components = URLComponents(string: target), components.scheme?.hasPrefix("postgres") == true else {
      return database
    }
    components.path = "/" + database
    return components.string ?? target
  }

  // MARK: Processes

  /// The path of a PostgreSQL program: on the PATH, or in the usual installation folders.
  static func binary(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    var folders = path.split(separator: ":").map(String.init)
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
    folders += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
    folders += ["/opt/homebrew/bin", "/usr/local/bin", "/Applications/Postgres.app/Contents/Versions/latest/bin"]
    return folders.map { ($0 as NSString).appendingPathComponent(name) }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}

/// An error PostgreSQL reported through psql (or psql itself).
struct PsqlError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }

  /// The line of the script the error is at, as psql reports it (`psql:<stdin>:12: ERROR: …`).
  var line: Int? {
    guard let range = message.range(of: #"psql:[^:]*:(\d+):"#, options: .regularExpression) else { return nil }
    return Int(message[range].split(separator: ":").dropFirst(2).first ?? "")
  }

  /// The message without psql's prefix: `ERROR:  relation "x" does not exist`.
  var serverMessage: String {
    message.split(separator: "\n").first.map { line in
      guard let range = line.range(of: #"^psql:[^:]*:\d+: "#, options: .regularExpression) else { return String(line) }
      return String(line[range.upperBound...])
    } ?? message
  }
}

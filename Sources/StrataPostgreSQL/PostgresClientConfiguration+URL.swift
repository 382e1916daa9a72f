#if PostgreSQL
import Foundation
import PostgresNIO

extension PostgresClient.Configuration {
  /// A configuration from a connection URL, as libpq reads one:
  /// `postgres://user:password@host:5432/database?sslmode=disable`.
  ///
  /// The user defaults to `postgres` and the port to 5432; a `host` query item that is a folder
  /// (`?host=/var/run/postgresql`) connects through the server's Unix socket there. `sslmode`
  /// is `disable`, `prefer` (the default: TLS when the server offers it) or `require`.
  ///
  /// - Throws: ``PostgreSQLError`` naming what is wrong with the URL (never its password).
  public init(url: String) throws {
    func invalid(_ reason: String) -> PostgreSQLError {
      PostgreSQLError(.other, "not a PostgreSQL URL (\(reason)); write postgres://user:password@host:port/database")
    }
    guard let components = URLComponents(string: url) else { throw invalid("it does not parse as a URL") }
    guard let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased()) else {
      throw invalid("its scheme is not postgres://")
    }
    let user = components.user ?? "postgres"
    let password = components.password
    let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
    let database = path.isEmpty ? nil : path
    let items = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
    let port = components.port ?? items["port"].flatMap { Int($0) } ?? 5432
    if let folder = items["host"], folder.hasPrefix("/") {
      self.init(unixSocketPath: folder + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
      return
    }
    let tls: TLS
    switch items["sslmode"] ?? "prefer" {
    case "disable": tls = .disable
    case "allow", "prefer": tls = .prefer(.makeClientConfiguration())
    case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
    case let mode: throw invalid("sslmode=\(mode) is not one of disable, prefer, require")
    }
    guard let host = components.host, !host.isEmpty else { throw invalid("it names no host") }
    self.init(host: host, port: port, username: user, password: password, database: database, tls: tls)
  }
}
#endif

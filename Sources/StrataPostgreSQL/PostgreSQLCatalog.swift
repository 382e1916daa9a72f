#if PostgreSQL
import StrataCore

extension PostgreSQLConnection {
  /// A table of the current schema as PostgreSQL's catalog describes it: its columns with the
  /// values they take, and its references; nil when there is no such table. The upgrade check
  /// and the sync server read tables through this one description.
  package func catalogTable(_ name: String) async throws -> UpgradeTable? {
    let exists = try await sql("SELECT to_regclass(quote_ident(\(name))) IS NOT NULL", as: Bool.self).fetchOne(self) ?? false
    guard exists else { return nil }
    return try await PostgreSQLUpgradeDatabase(db: self).table(name)
  }
}
#endif

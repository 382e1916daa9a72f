// `import StrataPostgreSQL` brings in the query builder and postgres-nio (`PostgresClient` and
// its configuration). Without the package's PostgreSQL trait, postgres-nio is not resolved and
// the module is empty but for the names an app would use first, each unavailable with the
// message that says how to turn the trait on. (Empty rather than an `#error`: the `strata` tool
// links this module, and must build in an app on SQLite alone.)
@_exported import StrataCore

#if PostgreSQL
  @_exported import PostgresNIO
#else
  @available(*, unavailable, message: "StrataPostgreSQL needs Strata's PostgreSQL trait: depend on Strata with .package(url: \"https://github.com/strata-swift/Strata.git\", from: \"0.1.0\", traits: [\"PostgreSQL\"])")
  public enum PostgreSQLDatabase {}

  @available(*, unavailable, message: "StrataPostgreSQL needs Strata's PostgreSQL trait: depend on Strata with .package(url: \"https://github.com/strata-swift/Strata.git\", from: \"0.1.0\", traits: [\"PostgreSQL\"])")
  public enum PostgreSQLConnection {}

  @available(*, unavailable, message: "postgres-nio comes with Strata's PostgreSQL trait: depend on Strata with .package(url: \"https://github.com/strata-swift/Strata.git\", from: \"0.1.0\", traits: [\"PostgreSQL\"])")
  public enum PostgresClient {}
#endif

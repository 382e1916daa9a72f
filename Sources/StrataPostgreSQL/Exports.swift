// `import StrataPostgreSQL` brings in the query builder and postgres-nio (`PostgresClient` and
// its configuration). Without the package's PostgreSQL trait, postgres-nio is not resolved and
// the module holds nothing but the error that says how to turn it on.
@_exported import StrataCore

#if PostgreSQL
@_exported import PostgresNIO
#else
#error(
  """
  StrataPostgreSQL needs Strata's PostgreSQL trait: depend on Strata with \
  .package(url: "https://github.com/strata-swift/Strata.git", from: "0.1.0", traits: ["PostgreSQL"]) \
  (in this repository, build with --traits PostgreSQL)
  """)
#endif

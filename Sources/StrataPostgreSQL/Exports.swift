// `import StrataPostgreSQL` brings in the query builder and postgres-nio (`PostgresClient` and
// its configuration).
@_exported import PostgresNIO
@_exported import StrataCore

import Foundation
import StrataPostgreSQL

/// One of many processes that read a counter and write it back plus one, each in `write`'s
/// SERIALIZABLE transaction with the default retries: `strata-bench postgres-increment URL
/// COUNT` increments the row `id = 1` of table `counters` COUNT times and prints how many
/// times its closures ran, then `done`. The contention test starts several at once.
enum PostgreSQLIncrementer {
  static func run(_ arguments: [String]) async throws {
    guard arguments.count == 2, let count = Int(arguments[1]) else {
      FileHandle.standardError.write(Data("usage: strata-bench postgres-increment URL COUNT\n".utf8))
      exit(2)
    }
    var configuration = try PostgresClient.Configuration(url: arguments[0])
    configuration.options.maximumConnections = 1
    let runs = try await PostgreSQLDatabase.withDatabase(configuration) { database in
      var runs = 0
      for _ in 0..<count {
        try await database.write { db in
          runs += 1
          let value = try await sql(#"SELECT "value" FROM "counters" WHERE "id" = 1"#, as: Int.self).fetchOne(db) ?? 0
          try await sql(#"UPDATE "counters" SET "value" = \#(value + 1) WHERE "id" = 1"#).execute(db)
        }
      }
      return runs
    }
    print("\(runs)\ndone")
  }
}

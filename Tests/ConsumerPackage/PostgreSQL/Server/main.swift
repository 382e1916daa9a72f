// The ledger's server: with STRATA_POSTGRES_URL set, it creates a database of its own on that
// server, migrates it with the ledger's migrations, runs the ledger's statements, and drops it.
import Foundation
import Ledger
import StrataPostgreSQL

guard let url = ProcessInfo.processInfo.environment["STRATA_POSTGRES_URL"], var components = URLComponents(string: url) else {
  print("skipped: STRATA_POSTGRES_URL names no server")
  exit(0)
}
let name = "consumer_server_\(ProcessInfo.processInfo.processIdentifier)"
components.path = "/" + name
let server = try PostgresClient.Configuration(url: url)
try await PostgreSQLDatabase.withDatabase(server) { database in
  try await database.withConnection { db in try await sql("CREATE DATABASE \(quote: name)").execute(db) }
}
do {
  try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: components.string ?? url)) { database in
    try await database.migrate(StrataMigrations.all)
    let balances = try await database.write { db in
      let ada = try await Ledger.open(owner: "Ada", at: Date()).fetchOne(db)
      let bob = try await Ledger.open(owner: "Bob", at: Date()).fetchOne(db)
      guard let ada, let bob else { throw StrataError("no account was opened") }
      try await Ledger.credit(ada, 10, tags: ["gift"]).execute(db)
      try await Ledger.credit(ada, 2.5, tags: []).execute(db)
      // Compound assignments compile in a target that imports StrataPostgreSQL alone.
      try await Entry.where { $0.accountID.eq(ada) }.update { $0.amount += 1 }.execute(db)
      try await Account.find(bob).update { $0.isFrozen.toggle() }.execute(db)
      return try await Ledger.balances().fetchAll(db)
    }
    guard balances.map(\.0) == ["Ada", "Bob"], balances.map(\.1) == [14.5, nil] else {
      throw StrataError("unexpected balances: \(balances)")
    }
    print("OK: \(balances.count) accounts on PostgreSQL")
  }
} catch {
  try? await PostgreSQLDatabase.withDatabase(server) { database in
    try await database.withConnection { db in try await sql("DROP DATABASE IF EXISTS \(quote: name) WITH (FORCE)").execute(db) }
  }
  throw error
}
try await PostgreSQLDatabase.withDatabase(server) { database in
  try await database.withConnection { db in try await sql("DROP DATABASE IF EXISTS \(quote: name) WITH (FORCE)").execute(db) }
}

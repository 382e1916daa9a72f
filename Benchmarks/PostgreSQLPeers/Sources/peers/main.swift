// Strata, Fluent and postgres-nio's own API on the same PostgreSQL database, in one run: decode
// rows, insert them, look one up by its key, update one. Each section checks the rows it reads.
import FluentKit
import FluentPostgresDriver
import Foundation
import Logging
import NIOCore
import NIOPosix
import StrataPostgreSQL

guard let url = CommandLine.arguments.dropFirst().first, var components = URLComponents(string: url) else {
  print("usage: peers postgres://user@host:port/database [rows] [statements] [runs]")
  exit(2)
}
let rows = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 100_000
let statements = CommandLine.arguments.dropFirst(3).first.flatMap(Int.init) ?? 10_000
let runs = CommandLine.arguments.dropFirst(4).first.flatMap(Int.init) ?? 5

let name = "strata_peers_\(ProcessInfo.processInfo.processIdentifier)"
components.path = "/" + name
let databaseURL = components.string!
func onServer(_ statement: SQLQuery<()>) async throws {
  try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: url)) { server in
    try await server.withConnection { db in try await statement.execute(db) }
  }
}
try await onServer(sql("CREATE DATABASE \(quote: name)"))

/// The median and best of `runs` timed runs, after one to warm up.
@MainActor func measure(_ label: String, _ run: () async throws -> Void) async throws -> Duration {
  try await run()
  var durations: [Duration] = []
  for _ in 0..<runs {
    let start = ContinuousClock.now
    try await run()
    durations.append(ContinuousClock.now - start)
  }
  durations.sort()
  let median = durations[durations.count / 2]
  print("  \(label.padding(toLength: 34, withPad: " ", startingAt: 0)) \(median)  (best \(durations[0]))")
  return median
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func ratio(_ a: Duration, _ b: Duration) -> String {
  String(format: "%.2fx", seconds(a) / seconds(b))
}

let databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
databases.use(try .postgres(url: databaseURL, maxConnectionsPerEventLoop: 1), as: .psql)
let fluent = databases.database(.psql, logger: Logger(label: "peers"), on: MultiThreadedEventLoopGroup.singleton.any())!

do {
  try await PostgreSQLDatabase.withDatabase(try PostgresClient.Configuration(url: databaseURL)) { database in
    try await database.withConnection { db in
      try await sql(#"CREATE TABLE "players" ("id" uuid PRIMARY KEY, "gameID" uuid NOT NULL, "name" text NOT NULL DEFAULT '', "score" bigint NOT NULL DEFAULT 0)"#).execute(db)
      let games = (0..<100).map { _ in UUID() }
      let players = (0..<rows).map { Player(id: UUID(), gameID: games[$0 % games.count], name: "Player \($0)", score: $0 % 1000) }
      let expected = players.reduce(0) { $0 + $1.score }
      print("\(rows) rows, \(statements) statements, \(runs) runs (median, best)")

      print("insert \(rows) players")
      let strataInsert = try await measure("Strata") {
        try await sql(#"TRUNCATE "players""#).execute(db)
        try await Player.insert { players }.execute(db)
      }
      let fluentInsert = try await measure("Fluent, batches of 16,383") {
        try await FluentPlayer.query(on: fluent).delete()
        for start in stride(from: 0, to: players.count, by: 16_383) {
          let batch = players[start..<min(start + 16_383, players.count)]
            .map { FluentPlayer(id: $0.id, gameID: $0.gameID, name: $0.name, score: $0.score) }
          try await batch.create(on: fluent)
        }
      }
      print("  Fluent takes \(ratio(fluentInsert, strataInsert)) Strata's time")

      print("fetchAll of \(rows) players")
      let strataFetch = try await measure("Strata") {
        guard try await Player.all.fetchAll(db).reduce(0, { $0 + $1.score }) == expected else { fatalError("Strata") }
      }
      let fluentFetch = try await measure("Fluent") {
        guard try await FluentPlayer.query(on: fluent).all().reduce(0, { $0 + $1.score }) == expected else { fatalError("Fluent") }
      }
      print("  Fluent takes \(ratio(fluentFetch, strataFetch)) Strata's time")

      let keys = (0..<statements).map { players[($0 * 7_919) % players.count].id }
      print("\(statements) primary-key lookups")
      let strataFind = try await measure("Strata") {
        for key in keys { guard try await Player.find(key).fetchOne(db)?.id == key else { fatalError("Strata") } }
      }
      let fluentFind = try await measure("Fluent") {
        for key in keys { guard try await FluentPlayer.find(key, on: fluent)?.id == key else { fatalError("Fluent") } }
      }
      print("  Fluent takes \(ratio(fluentFind, strataFind)) Strata's time")

      print("\(statements) updates of one row")
      let strataUpdate = try await measure("Strata") {
        for (index, key) in keys.enumerated() { try await Player.find(key).update { $0.score = index }.execute(db) }
      }
      let fluentUpdate = try await measure("Fluent") {
        for (index, key) in keys.enumerated() {
          try await FluentPlayer.query(on: fluent).filter(\.$id == key).set(\.$score, to: index).update()
        }
      }
      print("  Fluent takes \(ratio(fluentUpdate, strataUpdate)) Strata's time")
    }
  }
} catch {
  await databases.shutdownAsync()
  try? await onServer(sql("DROP DATABASE IF EXISTS \(quote: name) WITH (FORCE)"))
  throw error
}
await databases.shutdownAsync()
try await onServer(sql("DROP DATABASE IF EXISTS \(quote: name) WITH (FORCE)"))

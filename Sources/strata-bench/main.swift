// Strata's benchmark: decoding, inserting and query building, each beside raw sqlite3 and GRDB
// in the same run. Run it in release: `swift run -c release strata-bench`.
import Foundation
import GRDB
import Strata

if CommandLine.arguments.dropFirst().first == "external-writer" {
  try ExternalWriter.run(Array(CommandLine.arguments.dropFirst(2)))
  exit(0)
}
if CommandLine.arguments.dropFirst().first == "postgres-migrate" {
  try await PostgreSQLMigrator.run(Array(CommandLine.arguments.dropFirst(2)))
  exit(0)
}
if CommandLine.arguments.dropFirst().first == "postgres-increment" {
  try await PostgreSQLIncrementer.run(Array(CommandLine.arguments.dropFirst(2)))
  exit(0)
}
let options = BenchmarkOptions(CommandLine.arguments.dropFirst())
let path = FileManager.default.temporaryDirectory
  .appendingPathComponent("strata-bench-\(ProcessInfo.processInfo.processIdentifier).sqlite").path
defer { try? FileManager.default.removeItem(atPath: path) }
let database = try openDatabase(.file(path))
var migrator = DatabaseMigrator()
try migrator.registerMigrations(StrataMigrations.all)
try migrator.migrate(database)

let gameIDs = (0..<100).map { _ in UUID() }
let drafts = (0..<options.rows).map { index in
  Player.Draft(gameID: gameIDs[index % gameIDs.count], name: "Player \(index)", score: index % 1000)
}
try database.write { db in
  try Game.insert { gameIDs.map { Game(id: $0, title: "Game \($0)") } }.execute(db)
}

print("Strata benchmark: \(options.rows) rows, \(options.runs) runs (median, best)")
print()

// 1. fetchAll
try database.write { db in try Player.insert { drafts }.execute(db) }
let expectedScore = drafts.reduce(0) { $0 + $1.score }
func check(_ total: Int, _ name: String) {
  guard total == expectedScore else { fatalError("\(name) read a wrong total score: \(total)") }
}
if ProcessInfo.processInfo.environment["STRATA_BENCH_PROFILE"] == "fetch" {
  // For `perf record`: one contender's fetchAll, `--runs` times.
  let raw = ProcessInfo.processInfo.environment["STRATA_BENCH_CONTENDER"] == "raw"
  try database.read { db in
    for _ in 0..<options.runs {
      check(
        raw ? RawSQLite.fetchAll(db.sqliteConnection!).reduce(0) { $0 + $1.score }
          : try Player.all.fetchAll(db).reduce(0) { $0 + $1.score }, "profile")
    }
  }
  exit(0)
}
// The statements of the per-statement benchmark, built and rendered as executors do.
let renderID = UUID()
let renderDraft = Player.Draft(gameID: renderID, name: "Player", score: 1)
let perStatementRenders: [(name: String, build: () -> QueryFragment)] = [
  ("find(id) (per-statement benchmark)", { Player.find(renderID).singleBatch! }),
  ("find(id).update { $0.score += 1 }", { Player.find(renderID).update { $0.score += 1 }.singleBatch! }),
  ("find(id).delete()", { Player.find(renderID).delete().singleBatch! }),
  ("insert { draft }", { Player.insert { renderDraft }.singleBatch! }),
  ("find(id).join(Game.all) { … }.select { … }", {
    BuiltOnce.join(renderID).singleBatch!
  }),
]
if ProcessInfo.processInfo.environment["STRATA_BENCH_PROFILE"] == "render" {
  // For `perf record`: building and rendering the per-statement benchmark's statements, or
  // those whose names start with `STRATA_BENCH_RENDER`.
  let prefix = ProcessInfo.processInfo.environment["STRATA_BENCH_RENDER"] ?? ""
  let renders = perStatementRenders.filter { $0.name.hasPrefix(prefix) }
  var length = 0
  for _ in 0..<options.runs * 100_000 {
    for render in renders { length &+= render.build().sql.utf8.count }
  }
  print(length)
  exit(0)
}
if options.runs("fetch") {
let fetch = Comparison(title: "fetchAll of \(options.rows) players")
/// Times a read that returns the players' total score, and checks the total.
func timedRead(_ name: String, _ read: (Database) throws -> Int) throws -> Duration {
  try database.read { db in
    var total = 0
    let duration = try timed { total = try read(db) }
    check(total, name)
    return duration
  }
}
fetch.measure("raw sqlite3 loop (floor)", runs: options.runs) {
  try timedRead("raw") { RawSQLite.fetchAll($0.sqliteConnection!).reduce(0) { $0 + $1.score } }
}
fetch.measure("Strata", runs: options.runs) {
  try timedRead("Strata") { try Player.all.fetchAll($0).reduce(0) { $0 + $1.score } }
}
fetch.measure("GRDB FetchableRecord init(row:)", runs: options.runs) {
  try timedRead("GRDB row") {
    try RowPlayer.fetchAll($0, sql: "SELECT id, gameID, name, score FROM players").reduce(0) { $0 + $1.score }
  }
}
fetch.measure("GRDB Codable", runs: options.runs) {
  try timedRead("GRDB Codable") { try CodablePlayer.fetchAll($0).reduce(0) { $0 + $1.score } }
}
fetch.report(baseline: "raw sqlite3 loop (floor)", also: "GRDB Codable")
}

if options.runs("shapes") {
  try ShapeBenchmark.run(database, rows: options.rows, runs: options.runs)
}

// 2. insert
let rawDrafts = drafts.map { (gameID: $0.gameID, name: $0.name, score: $0.score) }
let codableDrafts = drafts.map { CodablePlayer(id: nil, gameID: $0.gameID, name: $0.name, score: $0.score) }
/// Empties the table, then times `insert` inside one write transaction (the commit is not
/// timed) and checks the row count.
func timedInsert(_ insert: (Database) throws -> Void) throws -> Duration {
  try database.write { db in try Player.delete().execute(db) }
  return try database.write { db in
    let duration = try timed { try insert(db) }
    guard try Player.fetchCount(db) == options.rows else { fatalError("insert lost rows") }
    return duration
  }
}
if options.runs("insert") {
let insert = Comparison(title: "insert \(options.rows) drafts in one transaction")
insert.measure("raw sqlite3 prepared loop (floor)", runs: options.runs) {
  try timedInsert { RawSQLite.insert(rawDrafts, $0.sqliteConnection!) }
}
insert.measure("Strata insert { drafts }", runs: options.runs) {
  try timedInsert { try Player.insert { drafts }.execute($0) }
}
insert.measure("Strata insert { draft } per row", runs: options.runs) {
  try timedInsert { db in for draft in drafts { try Player.insert { draft }.execute(db) } }
}
insert.measure("GRDB PersistableRecord insert", runs: options.runs) {
  try timedInsert { db in for record in codableDrafts { try record.insert(db) } }
}
insert.report(baseline: "raw sqlite3 prepared loop (floor)", also: nil)
}

// 3. building and rendering queries: the games list's, a common table expression and a CASE
if options.runs("render") {
let iterations = options.renderIterations
let render = Comparison(title: "build and render a query", unit: .microsecondsPer(iterations))
func measureRender(_ name: String, _ build: () -> QueryFragment) {
  render.measure(name, runs: options.runs) {
    var length = 0
    let duration = timed {
      for _ in 0..<iterations { length &+= build().sql.utf8.count }
    }
    guard length > 0 else { fatalError("nothing rendered") }
    return duration
  }
}
measureRender("games list's group/leftJoin/order/select") {
  Game
    .group(by: \.id)
    .leftJoin(Player.all) { $0.id.eq($1.gameID) }
    .order { $1.count().desc() }
    .select { GameRow.Columns(game: $0, playerCount: $1.count()) }
    .queryFragment
}
measureRender("WITH (a CTE of totals) SELECT … JOIN") {
  With {
    Player.group(by: \.gameID).select { GameTotal.Columns(gameID: $0.gameID, total: $0.score.sum() ?? 0) }
  } query: {
    Game.join(GameTotal.where { $0.total > 100 }) { $0.id.eq($1.gameID) }.select { ($0.title, $1.total) }
  }
  .queryFragment
}
measureRender("CASE in select and order") {
  Player
    .order { Case().when($0.score > 100, then: 0).when($0.score > 10, then: 1).else(2) }
    .select { ($0.name, Case($0.score).when(0, then: "none").else("some")) }
    .queryFragment
}
for render in perStatementRenders { measureRender(render.name, render.build) }
// The same, respelled for PostgreSQL (numbered placeholders), as its executor does per statement.
measureRender("find(id), for PostgreSQL") { QueryFragment(raw: try! Player.find(renderID).statements(for: .postgreSQL)[0].sql) }
measureRender("find(id).update { $0.score += 1 }, for PostgreSQL") {
  QueryFragment(raw: try! Player.find(renderID).update { $0.score += 1 }.statements(for: .postgreSQL)[0].sql)
}
// Prepared once (`PreparedStatement`): each run binds its values into SQL rendered before.
let preparedRenders = try PreparedPlayerStatements()
measureRender("find(id) prepared") { preparedRenders.find(renderID).singleBatch! }
measureRender("find(id) prepared, for PostgreSQL") {
  QueryFragment(raw: try! preparedRenders.find(renderID).statements(for: .postgreSQL)[0].sql)
}
measureRender("find(id).update { $0.score += 1 } prepared, for PostgreSQL") {
  QueryFragment(raw: try! preparedRenders.update(renderID).statements(for: .postgreSQL)[0].sql)
}
render.report(baseline: nil, also: nil)
}

if options.runs("generator") {
  try runGeneratorBenchmark(runs: options.runs, tables: options.tables)
}

if options.runs("rebuild") {
  try RebuildBenchmark.run(rows: options.rebuildRows, runs: options.runs)
  try RebuildBenchmark.runPlanning(runs: options.runs)
}

if options.runs("upgrades") {
  try await UpgradeBenchmark.run(rows: options.upgradeRows, migrations: options.upgradeMigrations, postgres: options.postgres)
}

if options.runs("sync") {
  try SyncBenchmark.run(rows: options.rows, runs: options.runs)
}

if options.runs("statements") {
  try StatementBenchmark.run(count: options.statements, pages: options.pages, runs: options.runs)
}

if options.runs("allocations") {
  let over = try AllocationBenchmark.run(count: options.allocationCount)
  if options.checkAllocations, !over.isEmpty {
    FileHandle.standardError.write(Data(("error: heap allocations over budget:\n" + over.map { "  " + $0 + "\n" }.joined()).utf8))
    exit(1)
  }
}

if options.runs("upsert") {
  try UpsertBenchmark.run(database, rows: options.rows, runs: options.runs)
}

if options.runs("search") {
  try SearchBenchmark.run(database, rows: options.rows, runs: options.runs, pages: options.pages)
}

if options.runs("live") {
  try await LiveQueryBenchmark.run(
    runs: options.runs, updates: options.liveUpdates, unrelatedWrites: options.unrelatedWrites)
  try await ExternalChangeBenchmark.run(commits: options.externalCommits, idleSeconds: options.idleSeconds)
}

#if SyncServer
if options.runs("sync-server"), let url = options.postgres {
  try await SyncServerBenchmark.run(postgres: url, changes: options.liveUpdates)
}
#endif

if options.runs("postgres"), let url = options.postgres {
  try await PostgreSQLBenchmark.run(url: url, rows: options.rows, statements: options.statements, runs: options.runs)
}

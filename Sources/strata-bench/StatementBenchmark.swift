import Foundation
import GRDB
import GRDBSQLite
import Strata
@_spi(Benchmark) import StrataCore

/// The statements apps run one at a time, thousands of times: each beside a raw `sqlite3`
/// prepared statement reused in a loop (the floor) and GRDB's record API, on a file database,
/// in one transaction.
enum StatementBenchmark {
  static func run(count: Int, pages: Int, runs: Int) throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-bench-statements-\(ProcessInfo.processInfo.processIdentifier).sqlite").path
    defer { for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let database = try openDatabase(.file(path))
    var migrator = DatabaseMigrator()
    try migrator.registerMigrations(StrataMigrations.all)
    try migrator.migrate(database)
    // A profile's instruction counts can repeat only if its rows do: random keys would shape the
    // B-trees differently on every run. So a profile's keys come from a fixed sequence (and its
    // inserts bind their ids rather than have SQLite's `uuid()` make them). The setup still varies
    // by a few million instructions from run to run (Scripts/instructions-per-statement.sh).
    let profiling = ProcessInfo.processInfo.environment["STRATA_BENCH_PROFILE"] != nil
    var keys = SeededUUIDs()
    let gameIDs = (0..<100).map { _ in profiling ? keys.next() : UUID() }
    try database.write { db in
      try Game.insert { gameIDs.enumerated().map { Game(id: $1, title: "Game \($0)") } }.execute(db)
    }
    let drafts = (0..<count).map { index in
      Player.Draft(
        id: profiling ? keys.next() : nil, gameID: gameIDs[index % gameIDs.count], name: "Player \(index)",
        score: index % 1000)
    }
    /// Empties the players, inserts `drafts` in one statement, and returns their ids.
    func refill() throws -> [UUID] {
      try database.write { db in
        try Player.delete().execute(db)
        try Player.insert { drafts }.execute(db)
        return try Player.select(\.id).fetchAll(db)
      }
    }

    if let operation = ProcessInfo.processInfo.environment["STRATA_BENCH_PROFILE"] {
      // For `perf record` and `valgrind`: one contender's side of one operation, `count` times
      // (`runs` times over for a find or an update, so that the setup does not fill the profile).
      let contender = ProcessInfo.processInfo.environment["STRATA_BENCH_CONTENDER"] ?? "strata"
      let ids = try refill()
      let repeats = ["find", "update", "join"].contains(operation) ? runs : 1
      let builtOnce = BuiltOnce(draft: drafts[0], id: ids[0])
      let prepared = try PreparedPlayerStatements()
      // The statements alone, in a function of their own, so that a profiler can count inside it
      // and nothing of the setup (`Scripts/instructions-per-statement.sh` does).
      func profiledStatements(_ db: Database) throws {
        let connection = db.sqliteConnection!
        switch (operation, contender) {
        case ("insert", "strata"): for draft in drafts { try Player.insert { draft }.execute(db) }
        case ("insert", "grdb"):
          for draft in drafts { try CodablePlayer(id: nil, gameID: draft.gameID, name: draft.name, score: draft.score).insert(db) }
        case ("insert", "raw"): RawSQLite.insert(drafts.map { (gameID: $0.gameID, name: $0.name, score: $0.score) }, connection)
        case ("find", "strata"): for id in ids { _ = try Player.find(id).fetchOne(db) }
        case ("find", "grdb"): for id in ids { _ = try CodablePlayer.fetchOne(db, key: id.uuidString.lowercased()) }
        case ("find", "raw"): _ = RawStatements.findScores(ids, connection)
        case ("update", "strata"): for id in ids { try Player.find(id).update { $0.score += 1 }.execute(db) }
        case ("update", "grdb"):
          for id in ids { _ = try CodablePlayer.filter(key: id.uuidString.lowercased()).updateAll(db, Column("score") += 1) }
        case ("update", "raw"): RawStatements.run(#"UPDATE "players" SET "score" = "score" + 1 WHERE "id" = ?"#, ids, connection)
        case ("delete", "strata"): for id in ids { try Player.find(id).delete().execute(db) }
        case ("join", "strata"): for id in ids { _ = try BuiltOnce.join(id).fetchOne(db) }
        case ("delete", "grdb"): for id in ids { _ = try CodablePlayer.deleteOne(db, key: id.uuidString.lowercased()) }
        case ("delete", "raw"): RawStatements.run(#"DELETE FROM "players" WHERE "id" = ?"#, ids, connection)
        // Strata's executor on SQL rendered before the loop: GRDB's cached-statement path, the
        // limit the per-statement goals are measured against.
        case ("insert", "prebuilt"): for draft in drafts { try builtOnce.insert(draft, db) }
        case ("find", "prebuilt"): for id in ids { _ = try builtOnce.find(id, db) }
        case ("update", "prebuilt"): for id in ids { try builtOnce.update(id, db) }
        case ("delete", "prebuilt"): for id in ids { try builtOnce.delete(id, db) }
        case ("join", "prebuilt"): for id in ids { _ = try builtOnce.join(id, db) }
        // The same statements prepared once with `PreparedStatement`, each run binding its values.
        case ("insert", "prepared"): for draft in drafts { try prepared.insert(draft).execute(db) }
        case ("find", "prepared"): for id in ids { _ = try prepared.find(id).fetchOne(db) }
        case ("update", "prepared"): for id in ids { try prepared.update(id).execute(db) }
        case ("delete", "prepared"): for id in ids { try prepared.delete(id).execute(db) }
        case ("join", "prepared"): for id in ids { _ = try prepared.join(id).fetchOne(db) }
        case (_, "none"): break
        default: fatalError("unknown operation or contender: \(operation) \(contender)")
        }
      }
      for _ in 0..<repeats {
        try database.write { db in
          if operation == "insert" { try Player.delete().execute(db) }
          try profiledStatements(db)
        }
      }
      return
    }

    // Strata's executor on SQL built once (only the values are new each time): what running a
    // statement through GRDB costs without building it, to tell the two apart.
    let prebuiltName = "Strata's executor, SQL built once"
    let preparedName = "Strata PreparedStatement, run with new values"
    let prepared = try PreparedPlayerStatements()
    let insert = Comparison(title: "insert one row per statement, \(count) times", unit: .microsecondsPer(count))
    func timedInsert(_ body: (Database) throws -> Void) throws -> Duration {
      try database.write { db in try Player.delete().execute(db) }
      return try database.write { db in
        let duration = try timed { try body(db) }
        guard try Player.fetchCount(db) == count else { fatalError("insert lost rows") }
        return duration
      }
    }
    let rawDrafts = drafts.map { (gameID: $0.gameID, name: $0.name, score: $0.score) }
    insert.measure("raw sqlite3 prepared statement (floor)", runs: runs) {
      try timedInsert { RawSQLite.insert(rawDrafts, $0.sqliteConnection!) }
    }
    insert.measure("Strata insert { draft }.execute(db)", runs: runs) {
      try timedInsert { db in for draft in drafts { try Player.insert { draft }.execute(db) } }
    }
    let builtOnce = BuiltOnce(draft: drafts[0], id: UUID())
    insert.measure(prebuiltName, runs: runs) {
      try timedInsert { db in for draft in drafts { try builtOnce.insert(draft, db) } }
    }
    insert.measure(preparedName, runs: runs) {
      try timedInsert { db in for draft in drafts { try prepared.insert(draft).execute(db) } }
    }
    let records = drafts.map { CodablePlayer(id: nil, gameID: $0.gameID, name: $0.name, score: $0.score) }
    insert.measure("GRDB record.insert(db)", runs: runs) {
      try timedInsert { db in for record in records { try record.insert(db) } }
    }
    insert.report(baseline: "raw sqlite3 prepared statement (floor)", also: nil)

    var ids = try refill().shuffled()
    let find = Comparison(title: "find one row by id, \(count) times", unit: .microsecondsPer(count))
    func timedRead(_ body: (Database) throws -> Int) throws -> Duration {
      try database.read { db in
        var total = 0
        let duration = try timed { total = try body(db) }
        guard total == drafts.reduce(0, { $0 + $1.score }) else { fatalError("read a wrong total: \(total)") }
        return duration
      }
    }
    find.measure("raw sqlite3 prepared statement (floor)", runs: runs) {
      try timedRead { db in RawStatements.findScores(ids, db.sqliteConnection!) }
    }
    find.measure("Strata T.find(id).fetchOne(db)", runs: runs) {
      try timedRead { db in try ids.reduce(0) { $0 + (try Player.find($1).fetchOne(db)?.score ?? 0) } }
    }
    find.measure(prebuiltName, runs: runs) {
      try timedRead { db in try ids.reduce(0) { $0 + (try builtOnce.find($1, db)?.score ?? 0) } }
    }
    find.measure(preparedName, runs: runs) {
      try timedRead { db in try ids.reduce(0) { $0 + (try prepared.find($1).fetchOne(db)?.score ?? 0) } }
    }
    find.measure("GRDB Record.fetchOne(db, key:)", runs: runs) {
      try timedRead { db in try ids.reduce(0) { $0 + (try CodablePlayer.fetchOne(db, key: $1.uuidString.lowercased())?.score ?? 0) } }
    }
    find.report(baseline: "raw sqlite3 prepared statement (floor)", also: nil)

    let update = Comparison(title: "update one row by id, \(count) times", unit: .microsecondsPer(count))
    func timedWrite(_ body: (Database) throws -> Void) throws -> Duration {
      try database.write { db in
        let duration = try timed { try body(db) }
        guard db.changesCount == 1 else { fatalError("the last statement changed \(db.changesCount) rows") }
        return duration
      }
    }
    update.measure("raw sqlite3 prepared statement (floor)", runs: runs) {
      try timedWrite { db in RawStatements.run(#"UPDATE "players" SET "score" = "score" + 1 WHERE "id" = ?"#, ids, db.sqliteConnection!) }
    }
    update.measure("Strata T.find(id).update { $0.score += 1 }", runs: runs) {
      try timedWrite { db in for id in ids { try Player.find(id).update { $0.score += 1 }.execute(db) } }
    }
    update.measure(prebuiltName, runs: runs) {
      try timedWrite { db in for id in ids { try builtOnce.update(id, db) } }
    }
    update.measure(preparedName, runs: runs) {
      try timedWrite { db in for id in ids { try prepared.update(id).execute(db) } }
    }
    update.measure("GRDB Record.filter(key:).updateAll(db, …)", runs: runs) {
      try timedWrite { db in
        for id in ids { _ = try CodablePlayer.filter(key: id.uuidString.lowercased()).updateAll(db, Column("score") += 1) }
      }
    }
    update.report(baseline: "raw sqlite3 prepared statement (floor)", also: nil)

    let delete = Comparison(title: "delete one row by id, \(count) times", unit: .microsecondsPer(count))
    func timedDelete(_ body: (Database) throws -> Void) throws -> Duration {
      ids = try refill().shuffled()
      return try database.write { db in
        let duration = try timed { try body(db) }
        guard try Player.fetchCount(db) == 0 else { fatalError("delete left rows") }
        return duration
      }
    }
    delete.measure("raw sqlite3 prepared statement (floor)", runs: runs) {
      try timedDelete { db in RawStatements.run(#"DELETE FROM "players" WHERE "id" = ?"#, ids, db.sqliteConnection!) }
    }
    delete.measure("Strata T.find(id).delete().execute(db)", runs: runs) {
      try timedDelete { db in for id in ids { try Player.find(id).delete().execute(db) } }
    }
    delete.measure(prebuiltName, runs: runs) {
      try timedDelete { db in for id in ids { try builtOnce.delete(id, db) } }
    }
    delete.measure(preparedName, runs: runs) {
      try timedDelete { db in for id in ids { try prepared.delete(id).execute(db) } }
    }
    delete.measure("GRDB Record.deleteOne(db, key:)", runs: runs) {
      try timedDelete { db in for id in ids { _ = try CodablePlayer.deleteOne(db, key: id.uuidString.lowercased()) } }
    }
    delete.report(baseline: "raw sqlite3 prepared statement (floor)", also: nil)

    ids = try refill()
    let page = Comparison(title: "a 20-row page (where/order/limit), \(pages) times", unit: .microsecondsPer(pages))
    let pagesPerGame = max(1, count / gameIDs.count / 20)
    func timedPages(_ body: (Database, UUID, Int) throws -> Int) throws -> Duration {
      try database.read { db in
        var rows = 0
        let duration = try timed {
          for index in 0..<pages {
            rows += try body(db, gameIDs[index % gameIDs.count], (index / gameIDs.count) % pagesPerGame * 20)
          }
        }
        guard rows == pages * 20 else { fatalError("pages read \(rows) rows") }
        return duration
      }
    }
    page.measure("raw sqlite3 prepared statement (floor)", runs: runs) {
      try timedPages { db, game, offset in RawStatements.page(game, offset, db.sqliteConnection!).count }
    }
    page.measure("Strata where/order/limit fetchAll", runs: runs) {
      try timedPages { db, game, offset in
        try Player.where { $0.gameID.eq(game) }.order(by: \.name).limit(20, offset: offset).fetchAll(db).count
      }
    }
    let pageSQL = Player.where { $0.gameID.eq(gameIDs[0]) }.order(by: \.name).limit(20, offset: 20).singleBatch!.sql
    page.measure(prebuiltName, runs: runs) {
      try timedPages { db, game, offset in
        let bindings: [QueryBinding] = [game.queryBinding, .integer(20), .integer(Int64(offset))]
        return try PrebuiltStatement<Player>(queryFragment: QueryFragment(raw: pageSQL, bindings: bindings)).fetchAll(db).count
      }
    }
    page.measure(preparedName, runs: runs) {
      try timedPages { db, game, offset in try prepared.page(game, offset).fetchAll(db).count }
    }
    page.measure("GRDB filter/order/limit fetchAll", runs: runs) {
      try timedPages { db, game, offset in
        // GRDB binds a UUID as a 16-byte blob; the column holds text.
        try CodablePlayer.filter(Column("gameID") == game.uuidString.lowercased()).order(Column("name"))
          .limit(20, offset: offset)
          .fetchAll(db).count
      }
    }
    page.report(baseline: "raw sqlite3 prepared statement (floor)", also: nil)

    // A one-row join: a player and its game's title, by the player's id.
    let join = Comparison(title: "a one-row join (find(id).join(…).select), \(count) times", unit: .microsecondsPer(count))
    let joinSQL = BuiltOnce.join(ids[0]).singleBatch!.sql
    guard joinSQL == RawStatements.joinSQL else { fatalError("the floor's join is not Strata's: \(joinSQL)") }
    func timedJoin(_ body: (Database) throws -> Int) throws -> Duration {
      try database.read { db in
        var found = 0
        let duration = try timed { found = try body(db) }
        guard found == count else { fatalError("the join found \(found) rows") }
        return duration
      }
    }
    join.measure("raw sqlite3 prepared statement (floor)", runs: runs) {
      try timedJoin { db in RawStatements.joinedTitles(ids, db.sqliteConnection!) }
    }
    join.measure("Strata find(id).join(…).select { … }.fetchOne(db)", runs: runs) {
      try timedJoin { db in try ids.reduce(0) { $0 + (try BuiltOnce.join($1).fetchOne(db) == nil ? 0 : 1) } }
    }
    join.measure(prebuiltName, runs: runs) {
      try timedJoin { db in
        try ids.reduce(0) { $0 + (try builtOnce.join($1, db) == nil ? 0 : 1) }
      }
    }
    join.measure(preparedName, runs: runs) {
      try timedJoin { db in try ids.reduce(0) { $0 + (try prepared.join($1).fetchOne(db) == nil ? 0 : 1) } }
    }
    join.measure("GRDB Row.fetchOne(db, sql:arguments:)", runs: runs) {
      try timedJoin { db in
        try ids.reduce(0) { $0 + (try Row.fetchOne(db, sql: joinSQL, arguments: [$1.uuidString.lowercased()]) == nil ? 0 : 1) }
      }
    }
    join.report(baseline: "raw sqlite3 prepared statement (floor)", also: nil)

    // The games list screen: 100 games and 1,000 players (about ten a game).
    let seedPlayers = min(count, 1_000)
    try database.write { db in
      try Player.delete().execute(db)
      try Player.insert { drafts.prefix(seedPlayers) }.execute(db)
    }
    let seed = Comparison(
      title: "the games list's group/leftJoin/order/select, 100 games and \(seedPlayers) players, \(pages) times",
      unit: .microsecondsPer(pages))
    func timedSeed(_ body: (Database) throws -> Int) throws -> Duration {
      try database.read { db in
        var players = 0
        let duration = try timed { for _ in 0..<pages { players += try body(db) } }
        guard players == pages * seedPlayers else { fatalError("the games list's query counted \(players) players") }
        return duration
      }
    }
    seed.measure("raw sqlite3 prepared statement (floor)", runs: runs) {
      try timedSeed { db in RawStatements.gameRows(db.sqliteConnection!).reduce(0) { $0 + $1.playerCount } }
    }
    seed.measure("Strata group/leftJoin/order/select", runs: runs) {
      try timedSeed { db in
        try Game.group(by: \.id)
          .leftJoin(Player.all) { $0.id.eq($1.gameID) }
          .order { $1.count().desc() }
          .select { GameRow.Columns(game: $0, playerCount: $1.count()) }
          .fetchAll(db)
          .reduce(0) { $0 + $1.playerCount }
      }
    }
    seed.measure("GRDB Row.fetchAll(db, sql:)", runs: runs) {
      try timedSeed { db in
        try Row.fetchAll(db, sql: RawStatements.gameRowsSQL).reduce(0) { $0 + ($1[2] as Int) }
      }
    }
    seed.report(baseline: "raw sqlite3 prepared statement (floor)", also: nil)
  }
}

/// Hand-written `sqlite3` loops with one prepared statement each, for the statements above.
enum RawStatements {
  static let gameRowsSQL = """
    SELECT "games"."id", "games"."title", count("players"."id") FROM "games" \
    LEFT JOIN "players" ON "games"."id" = "players"."gameID" GROUP BY "games"."id" \
    ORDER BY count("players"."id") DESC
    """

  private static func prepare(_ sql: String, _ connection: OpaquePointer) -> OpaquePointer? {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK else {
      fatalError(String(cString: sqlite3_errmsg(connection)))
    }
    return statement
  }

  private static func player(_ statement: OpaquePointer?) -> RawSQLite.Player {
    RawSQLite.Player(
      id: RawSQLite.uuid(statement, 0), gameID: RawSQLite.uuid(statement, 1), name: String(cString: sqlite3_column_text(statement, 2)),
      score: Int(sqlite3_column_int64(statement, 3)))
  }

  /// The sum of the scores of the players with the given ids, one lookup each.
  static func findScores(_ ids: [UUID], _ connection: OpaquePointer) -> Int {
    let statement = prepare(#"SELECT "id", "gameID", "name", "score" FROM "players" WHERE "id" = ?"#, connection)
    defer { sqlite3_finalize(statement) }
    var total = 0
    for id in ids {
      RawSQLite.bind(id, 1, statement)
      if sqlite3_step(statement) == SQLITE_ROW { total += player(statement).score }
      sqlite3_reset(statement)
    }
    return total
  }

  static let joinSQL = """
    SELECT "players"."name", "games"."title" FROM "players" JOIN "games" \
    ON "players"."gameID" = "games"."id" WHERE "players"."id" = ?
    """

  /// The number of players found with their game's title, one join each.
  static func joinedTitles(_ ids: [UUID], _ connection: OpaquePointer) -> Int {
    let statement = prepare(joinSQL, connection)
    defer { sqlite3_finalize(statement) }
    var found = 0
    for id in ids {
      RawSQLite.bind(id, 1, statement)
      if sqlite3_step(statement) == SQLITE_ROW {
        let name = String(cString: sqlite3_column_text(statement, 0))
        let title = String(cString: sqlite3_column_text(statement, 1))
        if !name.isEmpty, !title.isEmpty { found += 1 }
      }
      sqlite3_reset(statement)
    }
    return found
  }

  /// Runs a statement with one id parameter for each id.
  static func run(_ sql: String, _ ids: [UUID], _ connection: OpaquePointer) {
    let statement = prepare(sql, connection)
    defer { sqlite3_finalize(statement) }
    for id in ids {
      RawSQLite.bind(id, 1, statement)
      guard sqlite3_step(statement) == SQLITE_DONE else { fatalError(String(cString: sqlite3_errmsg(connection))) }
      sqlite3_reset(statement)
    }
  }

  // The statement of a page is kept from call to call, as an app would keep it.
  nonisolated(unsafe) private static var pageStatement: OpaquePointer?

  static func page(_ game: UUID, _ offset: Int, _ connection: OpaquePointer) -> [RawSQLite.Player] {
    if pageStatement == nil {
      pageStatement = prepare(
        #"SELECT "id", "gameID", "name", "score" FROM "players" WHERE "gameID" = ? ORDER BY "name" LIMIT ? OFFSET ?"#,
        connection)
    }
    let statement = pageStatement
    defer { sqlite3_reset(statement) }
    RawSQLite.bind(game, 1, statement)
    sqlite3_bind_int64(statement, 2, 20)
    sqlite3_bind_int64(statement, 3, Int64(offset))
    var players: [RawSQLite.Player] = []
    while sqlite3_step(statement) == SQLITE_ROW { players.append(player(statement)) }
    return players
  }

  struct GameRow {
    var id: UUID
    var title: String
    var playerCount: Int
  }

  nonisolated(unsafe) private static var gameRowsStatement: OpaquePointer?

  static func gameRows(_ connection: OpaquePointer) -> [GameRow] {
    if gameRowsStatement == nil { gameRowsStatement = prepare(gameRowsSQL, connection) }
    let statement = gameRowsStatement
    defer { sqlite3_reset(statement) }
    var rows: [GameRow] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      rows.append(
        GameRow(
          id: RawSQLite.uuid(statement, 0), title: String(cString: sqlite3_column_text(statement, 1)),
          playerCount: Int(sqlite3_column_int64(statement, 2))))
    }
    return rows
  }
}

/// A statement whose SQL was built beforehand: the benchmark's measure of the executor alone.
struct PrebuiltStatement<QueryValue>: QueryStatement {
  let queryFragment: QueryFragment
}

/// The per-statement goals' statements with their SQL rendered once, run through Strata's
/// executor with only their values new: GRDB's cached-statement path, the limit the goals are
/// measured against (the timed, profiled and allocation-counting benchmarks share it).
struct BuiltOnce {
  let insertSQL: String
  let findSQL: String
  let updateSQL: String
  let deleteSQL: String
  let joinSQL: String

  /// The one-row join the benchmarks run: a player and its game's title, by the player's id.
  /// (The key an expression, so that the prepared contender builds the same statement with its
  /// parameter.)
  static func join(_ id: some QueryExpression<UUID>) -> some QueryStatement<(String, String)> {
    Player.find(id).join(Game.all) { $0.gameID.eq($1.id) }.select { ($0.name, $1.title) }
  }

  init(draft: Player.Draft, id: UUID) {
    insertSQL = Player.insert { draft }.singleBatch!.sql
    findSQL = Player.find(id).singleBatch!.sql
    updateSQL = Player.find(id).update { $0.score += 1 }.singleBatch!.sql
    deleteSQL = Player.find(id).delete().singleBatch!.sql
    joinSQL = Self.join(id).singleBatch!.sql
  }

  func insert(_ draft: Player.Draft, _ db: Database) throws {
    var bindings: [QueryBinding] = []
    draft.encode(into: &bindings)
    try PrebuiltStatement<()>(queryFragment: QueryFragment(raw: insertSQL, bindings: bindings)).execute(db)
  }

  func find(_ id: UUID, _ db: Database) throws -> Player? {
    try PrebuiltStatement<Player>(queryFragment: QueryFragment(raw: findSQL, bindings: [id.queryBinding])).fetchOne(db)
  }

  /// `score += 1`, its 1 bound as the builder binds it.
  func update(_ id: UUID, _ db: Database) throws {
    try PrebuiltStatement<()>(queryFragment: QueryFragment(raw: updateSQL, bindings: [.integer(1), id.queryBinding])).execute(db)
  }

  func delete(_ id: UUID, _ db: Database) throws {
    try PrebuiltStatement<()>(queryFragment: QueryFragment(raw: deleteSQL, bindings: [id.queryBinding])).execute(db)
  }

  func join(_ id: UUID, _ db: Database) throws -> (String, String)? {
    try PrebuiltStatement<(String, String)>(queryFragment: QueryFragment(raw: joinSQL, bindings: [id.queryBinding])).fetchOne(db)
  }
}

/// The per-statement goals' statements as an app prepares them once (``PreparedStatement``):
/// built and rendered here, each run binding only its values.
struct PreparedPlayerStatements {
  let insertWithID: PreparedStatement<UUID, UUID, String, Int, ()>
  let insertWithoutID: PreparedStatement<UUID, String, Int, ()>
  let find: PreparedStatement<UUID, Player>
  let update: PreparedStatement<UUID, ()>
  let delete: PreparedStatement<UUID, ()>
  let page: PreparedStatement<UUID, Int, Player>
  let join: PreparedStatement<UUID, (String, String)>

  init() throws {
    insertWithID = try PreparedStatement(UUID.self, UUID.self, String.self, Int.self) { id, gameID, name, score in
      Player.insert { ($0.id, $0.gameID, $0.name, $0.score) } values: { (id, gameID, name, score) }
    }
    insertWithoutID = try PreparedStatement(UUID.self, String.self, Int.self) { gameID, name, score in
      Player.insert { ($0.gameID, $0.name, $0.score) } values: { (gameID, name, score) }
    }
    find = try PreparedStatement(UUID.self) { id in Player.find(id) }
    update = try PreparedStatement(UUID.self) { id in Player.find(id).update { $0.score += 1 } }
    delete = try PreparedStatement(UUID.self) { id in Player.find(id).delete() }
    page = try PreparedStatement(UUID.self, Int.self) { game, offset in
      Player.where { $0.gameID.eq(game) }.order(by: \.name).limit({ _ in 20 }, offset: { _ in offset })
    }
    join = try PreparedStatement(UUID.self) { id in BuiltOnce.join(id) }
  }

  /// The insert of `draft`: a statement's shape is decided when it is prepared, so a draft
  /// whose id the database makes (`uuid()`, the column's default) takes a statement of its own,
  /// as `insert { draft }` writes one of its own.
  func insert(_ draft: Player.Draft) -> BoundStatement<()> {
    if let id = draft.id { insertWithID(id, draft.gameID, draft.name, draft.score) } else { insertWithoutID(draft.gameID, draft.name, draft.score) }
  }
}

/// UUIDs from a fixed sequence (the upgrade check's seeded generator), the same on every run,
/// spread over the key space as random ones are.
struct SeededUUIDs {
  private var numbers = UpgradeValues(seed: 0x5EED)

  mutating func next() -> UUID {
    let (high, low) = (numbers.next(), numbers.next())
    return withUnsafeBytes(of: (high, low)) { UUID(uuid: $0.load(as: uuid_t.self)) }
  }
}

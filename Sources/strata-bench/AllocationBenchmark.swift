import Foundation
import GRDB
import GRDBSQLite
import Strata
@_spi(Benchmark) import StrataCore
import StrataBenchAllocations

/// Heap allocations per statement and per decoded row, counted rather than timed: a count is the
/// same on every run of one build, where a time on a shared machine moves by a fifth, so CI can
/// hold it. Each of Strata's counts has a budget; `--check-allocations` fails the run when one is
/// exceeded, so a change that adds an allocation to a statement or a row fails CI.
///
/// A count is the difference between running an operation `2n` times and `n` times, over `n`:
/// what one more run of it allocates once everything it warms (GRDB's statement cache, the
/// table's rendered SQL, the Swift runtime's metadata) is warm. Every allocation of the process
/// is counted, SQLite's included, so the raw sqlite3 loop's column is SQLite's own share.
enum AllocationBenchmark {
  /// One operation of Strata's, counted against its budget, beside the same work done with the
  /// SQL built once (Strata's executor alone) and by a raw sqlite3 loop where there is one.
  ///
  /// A budget is the count measured when it was set, with less than one allocation to spare:
  /// SQLite's share of an insert or a delete moves by a tenth with the B-tree's pages, and one
  /// allocation more per statement or per row is over. Lower a budget when a change saves one.
  struct Operation {
    var name: String
    /// The most allocations Strata's operation may make, in a release build and in a debug one
    /// (CI's), where generic code the optimizer has not specialized allocates more.
    var releaseBudget: Double
    var debugBudget: Double
    /// Runs the operation for items `range` of the prepared rows.
    var strata: (Database, Range<Int>) throws -> Void
    var builtOnce: ((Database, Range<Int>) throws -> Void)? = nil
    /// The same statement prepared once (``PreparedStatement``), each run binding its values,
    /// and the most allocations it may make (release, debug).
    var prepared: ((Database, Range<Int>) throws -> Void)? = nil
    var preparedBudgets: (release: Double, debug: Double)? = nil
    var raw: ((Database, Range<Int>) throws -> Void)? = nil

    var budget: Double { Self.inThisBuild(release: releaseBudget, debug: debugBudget) }

    var preparedBudget: Double? { preparedBudgets.map { Self.inThisBuild(release: $0.release, debug: $0.debug) } }

    private static func inThisBuild(release: Double, debug: Double) -> Double {
      #if DEBUG
      debug
      #else
      release
      #endif
    }
  }

  /// Counts every operation, prints the counts beside their budgets, and returns a line for each
  /// count over its budget.
  static func run(count n: Int) throws -> [String] {
    guard strata_bench_allocations_available() else {
      print("## allocations: not counted here (the counter interposes glibc's malloc, on Linux)\n")
      return []
    }
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-bench-allocations-\(ProcessInfo.processInfo.processIdentifier).sqlite").path
    defer { for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let database = try openDatabase(.file(path))
    var migrator = DatabaseMigrator()
    try migrator.registerMigrations(StrataMigrations.all)
    try migrator.migrate(database)

    // Rows enough for every run of every operation, deletes included: a warm-up of n, then n
    // and 2n, each on rows of its own.
    let rowCount = 4 * n
    let gameIDs = (0..<10).map { _ in UUID() }
    let drafts = (0..<rowCount).map { index in
      Player.Draft(gameID: gameIDs[index % gameIDs.count], name: "Player \(index)", score: index % 1000)
    }
    let ids: [UUID] = try database.write { db in
      try Game.insert { gameIDs.enumerated().map { Game(id: $1, title: "Game \($0)") } }.execute(db)
      try Player.insert { drafts }.execute(db)
      return try Player.select(\.id).order(by: \.id).fetchAll(db)
    }
    let builtOnce = BuiltOnce(draft: drafts[0], id: ids[0])
    func page(_ index: Int) -> Where<Player> {
      Player.where { $0.gameID.eq(gameIDs[index % gameIDs.count]) }.order(by: \.name).limit(20)
    }
    let pageSQL = page(0).singleBatch!.sql
    let prepared = try PreparedPlayerStatements()

    let operations = [
      Operation(
        name: "insert { draft }.execute(db)", releaseBudget: 13, debugBudget: 29,
        strata: { db, range in for index in range { try Player.insert { drafts[index] }.execute(db) } },
        builtOnce: { db, range in for index in range { try builtOnce.insert(drafts[index], db) } },
        prepared: { db, range in for index in range { try prepared.insert(drafts[index]).execute(db) } },
        preparedBudgets: (13, 20),
        raw: { db, range in
          RawSQLite.insert(range.map { (gameID: drafts[$0].gameID, name: drafts[$0].name, score: drafts[$0].score) }, db.sqliteConnection!)
        }),
      Operation(
        name: "find(id).fetchOne(db)", releaseBudget: 8.5, debugBudget: 12.5,
        strata: { db, range in for index in range { _ = try Player.find(ids[index]).fetchOne(db) } },
        builtOnce: { db, range in for index in range { _ = try builtOnce.find(ids[index], db) } },
        prepared: { db, range in for index in range { _ = try prepared.find(ids[index]).fetchOne(db) } },
        preparedBudgets: (8.5, 12.5),
        raw: { db, range in _ = RawStatements.findScores(Array(ids[range]), db.sqliteConnection!) }),
      // Debug: 22 until the update's `+=` went through a `_modify` accessor and its text was
      // written at its length (`Assignment.updateByKey`): unoptimized code makes two allocations
      // more for each (measured by turning each off), the optimized none: 15 before and after.
      Operation(
        name: "find(id).update { $0.score += 1 }", releaseBudget: 14.5, debugBudget: 25.5,
        strata: { db, range in for index in range { try Player.find(ids[index]).update { $0.score += 1 }.execute(db) } },
        builtOnce: { db, range in for index in range { try builtOnce.update(ids[index], db) } },
        prepared: { db, range in for index in range { try prepared.update(ids[index]).execute(db) } },
        preparedBudgets: (9.5, 14.5),
        raw: { db, range in
          RawStatements.run(#"UPDATE "players" SET "score" = "score" + 1 WHERE "id" = ?"#, Array(ids[range]), db.sqliteConnection!)
        }),
      Operation(
        name: "find(id).delete()", releaseBudget: 9, debugBudget: 12,
        strata: { db, range in for index in range { try Player.find(ids[index]).delete().execute(db) } },
        builtOnce: { db, range in for index in range { try builtOnce.delete(ids[index], db) } },
        prepared: { db, range in for index in range { try prepared.delete(ids[index]).execute(db) } },
        preparedBudgets: (9, 12),
        raw: { db, range in RawStatements.run(#"DELETE FROM "players" WHERE "id" = ?"#, Array(ids[range]), db.sqliteConnection!) }),
      Operation(
        name: "a 20-row page: where/order/limit", releaseBudget: 36.5, debugBudget: 47.5,
        strata: { db, range in for index in range { _ = try page(index).fetchAll(db) } },
        builtOnce: { db, range in
          for index in range {
            let bindings: [QueryBinding] = [gameIDs[index % gameIDs.count].queryBinding, .integer(20)]
            _ = try PrebuiltStatement<Player>(queryFragment: QueryFragment(raw: pageSQL, bindings: bindings)).fetchAll(db)
          }
        },
        prepared: { db, range in for index in range { _ = try prepared.page(gameIDs[index % gameIDs.count], 0).fetchAll(db) } },
        preparedBudgets: (25.5, 34.5),
        raw: nil),
      Operation(
        name: "a one-row join: find(id).join(…).select { … }", releaseBudget: 19.5, debugBudget: 26.5,
        strata: { db, range in for index in range { _ = try BuiltOnce.join(ids[index]).fetchOne(db) } },
        builtOnce: { db, range in for index in range { _ = try builtOnce.join(ids[index], db) } },
        prepared: { db, range in for index in range { _ = try prepared.join(ids[index]).fetchOne(db) } },
        preparedBudgets: (10.5, 14.5),
        raw: nil),
    ]

    // Decoding: a fetch of 2n rows less a fetch of n, over n, with the statement built once.
    let tuples = Player.order(by: \.id).select { ($0.name, $0.score) }
    let joined = Game.leftJoin(Player.all) { $0.id.eq($1.gameID) }.order { $1.id }
    let totals = Player.group(by: \.id).select { PlayerTotal.Columns(player: $0, total: $0.score.sum()) }
    let rowOperations = [
      Operation(
        name: "a row of Player.all", releaseBudget: 0.5, debugBudget: 0.5,
        strata: { db, range in _ = try Player.order(by: \.id).limit(range.count).fetchAll(db) },
        raw: { db, range in try stepThrough(Player.order(by: \.id).limit(range.count), db) }),
      Operation(
        name: "a row of select { ($0.name, $0.score) }", releaseBudget: 0.5, debugBudget: 0.5,
        strata: { db, range in _ = try tuples.limit(range.count).fetchAll(db) },
        raw: { db, range in try stepThrough(tuples.limit(range.count), db) }),
      Operation(
        name: "a Selection of a table and an aggregate", releaseBudget: 5.5, debugBudget: 5.5,
        strata: { db, range in _ = try totals.limit(range.count).fetchAll(db) },
        raw: { db, range in try stepThrough(totals.limit(range.count), db) }),
      Operation(
        name: "a (Game, Player?) of a left join", releaseBudget: 1, debugBudget: 1,
        strata: { db, range in _ = try joined.limit(range.count).fetchAll(db) },
        raw: { db, range in try stepThrough(joined.limit(range.count), db) }),
    ]

    // Each contender counts in a transaction rolled back afterwards, so the next finds the rows
    // the deletes removed and none that the inserts added.
    func counted(_ body: @escaping (Database, Range<Int>) throws -> Void) throws -> Double {
      var count = 0.0
      try database.writeWithoutTransaction { db in
        try db.inTransaction {
          count = try perOperation(n) { try body(db, $0) }
          return .rollback
        }
      }
      return count
    }
    var over: [String] = []
    for (title, section) in [
      ("## heap allocations per statement (a count: the same on every run of this build)", operations),
      ("## heap allocations per decoded row (raw sqlite3: the same SQL stepped through, reading each value)", rowOperations),
    ] {
      print(title)
      print(pad("", 50) + pad("Strata", 9) + pad("prepared", 10) + pad("SQL built once", 16) + pad("raw sqlite3", 13) + "budgets: Strata, prepared")
      for operation in section {
        let strata = try counted(operation.strata)
        let builtOnce = try operation.builtOnce.map { try counted($0) }
        let prepared = try operation.prepared.map { try counted($0) }
        let raw = try operation.raw.map { try counted($0) }
        print(
          pad(operation.name, 50) + pad(format(strata), 9) + pad(prepared.map(format) ?? "—", 10) + pad(builtOnce.map(format) ?? "—", 16)
            + pad(raw.map(format) ?? "—", 13) + format(operation.budget) + (operation.preparedBudget.map { ", " + format($0) } ?? ""))
        if strata > operation.budget {
          over.append("\(operation.name): \(format(strata)) allocations, over its budget of \(format(operation.budget))")
        }
        if let prepared, let budget = operation.preparedBudget, prepared > budget {
          over.append("\(operation.name), prepared: \(format(prepared)) allocations, over its budget of \(format(budget))")
        }
      }
      print()
    }
    return over
  }

  /// Prepares `statement`'s SQL with `sqlite3` alone, binds its integers (the benchmark's
  /// statements bind only a limit) and steps through its rows, reading every value as SQLite
  /// stores it: SQLite's own allocations for the rows.
  static func stepThrough(_ statement: some QueryStatement, _ db: Database) throws {
    let fragment = statement.singleBatch!
    var handle: OpaquePointer?
    guard sqlite3_prepare_v2(db.sqliteConnection, fragment.sql, -1, &handle, nil) == SQLITE_OK else {
      throw StrataError(String(cString: sqlite3_errmsg(db.sqliteConnection)))
    }
    defer { sqlite3_finalize(handle) }
    for (offset, binding) in fragment.bindings.enumerated() {
      guard case .integer(let value) = binding else { fatalError("stepThrough binds integers only") }
      sqlite3_bind_int64(handle, Int32(offset + 1), value)
    }
    // The calls into SQLite are the work; what they return is not needed.
    while sqlite3_step(handle) == SQLITE_ROW {
      for column in 0..<sqlite3_column_count(handle) {
        switch sqlite3_column_type(handle, column) {
        // Text read as bytes, as Strata reads it: asking for a C string makes SQLite copy
        // text that is not terminated where it lies.
        case SQLITE_TEXT: _ = (sqlite3_column_blob(handle, column), sqlite3_column_bytes(handle, column))
        default: _ = sqlite3_column_int64(handle, column)
        }
      }
    }
  }

  /// What one more run of `body` allocates: the count of `2n` runs less the count of `n` runs
  /// after them, over `n`, each on items of its own after `n` runs to warm up.
  static func perOperation(_ n: Int, _ body: (Range<Int>) throws -> Void) throws -> Double {
    try body(0..<n)
    strata_bench_allocations_counting(true)
    defer { strata_bench_allocations_counting(false) }
    let start = strata_bench_allocations_count()
    try body(n..<2 * n)
    let middle = strata_bench_allocations_count()
    try body(2 * n..<4 * n)
    let end = strata_bench_allocations_count()
    return Double(Int(end - middle) - Int(middle - start)) / Double(n)
  }

  private static func format(_ count: Double) -> String {
    String(format: "%.2f", count)
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
  }
}

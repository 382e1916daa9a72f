import Foundation
import GRDB
import GRDBSQLite
import Strata

/// Decoding row shapes other than whole tables: tuples of columns, a selection with a
/// whole-table field and an aggregate, and `(Game, Player?)` from an outer join, each beside a
/// hand-written `sqlite3` loop that builds the same values from the same SQL.
enum ShapeBenchmark {
  static func run(_ database: any DatabaseWriter, rows: Int, runs: Int) throws {
    let tuples = Player.order(by: \.name).select { ($0.name, $0.score) }
    compare("tuples (name, score)", database, runs: runs, rows: rows, statement: tuples.queryFragment.sql) { db in
      let values: [(String, Int)] = try tuples.fetchAll(db)
      return values.reduce(0) { $0 + $1.1 }
    } raw: { statement in
      var values: [(String, Int)] = []
      while sqlite3_step(statement) == SQLITE_ROW {
        values.append((String(cString: sqlite3_column_text(statement, 0)), Int(sqlite3_column_int64(statement, 1))))
      }
      return values.reduce(0) { $0 + $1.1 }
    }

    let totals = Player.group(by: \.id).select { PlayerTotal.Columns(player: $0, total: $0.score.sum()) }
    compare("Selection: a whole table and an aggregate", database, runs: runs, rows: rows, statement: totals.queryFragment.sql) { db in
      try totals.fetchAll(db).reduce(0) { $0 + ($1.total ?? 0) }
    } raw: { statement in
      var values: [PlayerTotal] = []
      while sqlite3_step(statement) == SQLITE_ROW {
        let total = sqlite3_column_type(statement, 4) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(statement, 4))
        values.append(PlayerTotal(player: player(statement, from: 0), total: total))
      }
      return values.reduce(0) { $0 + ($1.total ?? 0) }
    }

    let joined = Game.leftJoin(Player.all) { $0.id.eq($1.gameID) }
    compare("(Game, Player?) of a left join", database, runs: runs, rows: rows, statement: joined.queryFragment.sql) { db in
      let values: [(Game, Player?)] = try joined.fetchAll(db)
      return values.reduce(0) { $0 + ($1.1?.score ?? 0) }
    } raw: { statement in
      var values: [(Game, Player?)] = []
      while sqlite3_step(statement) == SQLITE_ROW {
        let game = Game(id: RawSQLite.uuid(statement, 0), title: String(cString: sqlite3_column_text(statement, 1)))
        let player = sqlite3_column_type(statement, 2) == SQLITE_NULL ? nil : player(statement, from: 2)
        values.append((game, player))
      }
      return values.reduce(0) { $0 + ($1.1?.score ?? 0) }
    }
  }

  /// Times Strata's fetch and a raw loop over the same SQL, checking that they agree.
  private static func compare(
    _ title: String, _ database: any DatabaseWriter, runs: Int, rows: Int, statement sql: String,
    strata: @escaping (Database) throws -> Int, raw: @escaping (OpaquePointer?) -> Int
  ) {
    let comparison = Comparison(title: "decode \(rows) rows: \(title)")
    var totals: [String: Int] = [:]
    comparison.measure("hand-written sqlite3 loop (floor)", runs: runs) {
      try database.read { db in
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        var total = 0
        let duration = timed { total = raw(statement) }
        totals["raw"] = total
        return duration
      }
    }
    comparison.measure("Strata", runs: runs) {
      try database.read { db in
        var total = 0
        let duration = try timed { total = try strata(db) }
        totals["Strata"] = total
        return duration
      }
    }
    guard totals["raw"] == totals["Strata"] else { fatalError("\(title): the loops disagree: \(totals)") }
    comparison.report(baseline: "hand-written sqlite3 loop (floor)", also: nil)
  }

  private static func player(_ statement: OpaquePointer?, from column: Int32) -> Player {
    Player(
      id: RawSQLite.uuid(statement, column), gameID: RawSQLite.uuid(statement, column + 1),
      name: String(cString: sqlite3_column_text(statement, column + 2)),
      score: Int(sqlite3_column_int64(statement, column + 3)))
  }
}

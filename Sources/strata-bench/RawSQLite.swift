import Foundation
import GRDBSQLite

/// The floor: a hand-written sqlite3 loop, with no library between the loop and SQLite.
enum RawSQLite {
  struct Player {
    var id: UUID
    var gameID: UUID
    var name: String
    var score: Int
  }

  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  static func fetchAll(_ connection: OpaquePointer) -> [Player] {
    var statement: OpaquePointer?
    sqlite3_prepare_v2(connection, "SELECT id, gameID, name, score FROM players", -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    var players: [Player] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      players.append(
        Player(
          id: uuid(statement, 0), gameID: uuid(statement, 1),
          name: String(cString: sqlite3_column_text(statement, 2)),
          score: Int(sqlite3_column_int64(statement, 3))))
    }
    return players
  }

  /// The UUID in a column, with the floor's own parser.
  static func uuid(_ statement: OpaquePointer?, _ column: Int32) -> UUID {
    FloorUUIDText.parse(sqlite3_column_text(statement, column), count: Int(sqlite3_column_bytes(statement, column)))!
  }

  /// Binds a UUID as its lowercase text, with the floor's own formatter.
  static func bind(_ id: UUID, _ index: Int32, _ statement: OpaquePointer?) {
    FloorUUIDText.withText(id) { text in _ = sqlite3_bind_text(statement, index, text, 36, transient) }
  }

  /// Inserts rows with a NULL id, one prepared statement reset and rebound per row.
  static func insert(_ drafts: [(gameID: UUID, name: String, score: Int)], _ connection: OpaquePointer) {
    var statement: OpaquePointer?
    sqlite3_prepare_v2(
      connection, #"INSERT INTO "players" ("id", "gameID", "name", "score") VALUES (?, ?, ?, ?)"#,
      -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    for draft in drafts {
      sqlite3_bind_null(statement, 1)
      bind(draft.gameID, 2, statement)
      sqlite3_bind_text(statement, 3, draft.name, -1, transient)
      sqlite3_bind_int64(statement, 4, Int64(draft.score))
      guard sqlite3_step(statement) == SQLITE_DONE else {
        fatalError(String(cString: sqlite3_errmsg(connection)))
      }
      sqlite3_reset(statement)
    }
  }
}

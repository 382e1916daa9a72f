// 0002_trim_player_names: a data migration.
//
// It runs in the numbered sequence with the SQL migrations, in their transaction: what
// `migrate` throws stops them all, and nothing is kept. It reads and writes the tables as
// migration 0001_create_games_and_players leaves them: the types in `Migration0002` below,
// generated when this file was made and frozen, so that a later change to the models does
// not change what this migration does. Once a database has run it, leave the file as it is:
// its checksum covers all of it, and an edit is reported like an edited SQL migration's.
import Foundation
import StrataPostgreSQL

nonisolated extension Migration0002 {
  /// Players' names as people type them ("  Blob   Jr "): trimmed, with one space between
  /// words, so that the games list sorts and searches them alike.
  static func migrate(_ db: PostgreSQLConnection) async throws {
    for player in try await Player.all.fetchAll(db) {
      let name = player.name.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      if name != player.name {
        try await Player.find(player.id).update { $0.name = name }.execute(db)
      }
    }
  }
}

// MARK: - The tables as 0001_create_games_and_players leaves them (generated, frozen)

nonisolated enum Migration0002 {
  /// The table "games".
  /// Unmanaged: the table as these migrations leave it, frozen.
  // @Unmanaged
  struct Game: Table, Identifiable {
    let id: UUID
    var title: String = ""
  }

  /// The table "players".
  /// Unmanaged: the table as these migrations leave it, frozen.
  // @Unmanaged
  struct Player: Table, Identifiable {
    let id: UUID
    var gameID: Game.ID
    var name: String = ""
    var score: Int = 0
  }
}

nonisolated extension Migration0002.Game: StrataCore.PrimaryKeyedTable {
  static let tableName = "games"

  nonisolated struct TableColumns: StrataCore.PrimaryKeyedColumnSet {
    typealias QueryValue = Migration0002.Game
    static let columnNames = ["id", "title"]
    let id = StrataCore.TableColumn<Migration0002.Game, UUID>("id")
    let title = StrataCore.TableColumn<Migration0002.Game, String>("title")
    var primaryKey: StrataCore.TableColumn<Migration0002.Game, UUID> { id }
  }

  static var columns: TableColumns { TableColumns() }

  var primaryKey: UUID { id }

  init(decoder: inout some StrataCore.QueryDecoder) throws {
    id = try decoder.decode(UUID.self)
    title = try decoder.decode(String.self)
  }

  func encode(into bindings: inout [StrataCore.QueryBinding]) {
    bindings.append(id.queryBinding)
    bindings.append(title.queryBinding)
  }

  nonisolated struct Draft: StrataCore.TableDraft {
    typealias Base = Migration0002.Game
    var id: UUID? = nil
    var title: String = ""

    init(id: UUID? = nil, title: String = "") {
      self.id = id
      self.title = title
    }

    init(decoder: inout some StrataCore.QueryDecoder) throws {
      id = try decoder.decode(UUID?.self)
      title = try decoder.decode(String.self)
    }

    func encode(into bindings: inout [StrataCore.QueryBinding]) {
      bindings.append(id.queryBinding)
      bindings.append(title.queryBinding)
    }
  }
}

nonisolated extension Migration0002.Player: StrataCore.PrimaryKeyedTable {
  static let tableName = "players"

  nonisolated struct TableColumns: StrataCore.PrimaryKeyedColumnSet {
    typealias QueryValue = Migration0002.Player
    static let columnNames = ["id", "gameID", "name", "score"]
    let id = StrataCore.TableColumn<Migration0002.Player, UUID>("id")
    let gameID = StrataCore.TableColumn<Migration0002.Player, Game.ID>("gameID")
    let name = StrataCore.TableColumn<Migration0002.Player, String>("name")
    let score = StrataCore.TableColumn<Migration0002.Player, Int>("score")
    var primaryKey: StrataCore.TableColumn<Migration0002.Player, UUID> { id }
  }

  static var columns: TableColumns { TableColumns() }

  var primaryKey: UUID { id }

  init(decoder: inout some StrataCore.QueryDecoder) throws {
    id = try decoder.decode(UUID.self)
    gameID = try decoder.decode(Game.ID.self)
    name = try decoder.decode(String.self)
    score = try decoder.decode(Int.self)
  }

  func encode(into bindings: inout [StrataCore.QueryBinding]) {
    bindings.append(id.queryBinding)
    bindings.append(gameID.queryBinding)
    bindings.append(name.queryBinding)
    bindings.append(score.queryBinding)
  }

  nonisolated struct Draft: StrataCore.TableDraft {
    typealias Base = Migration0002.Player
    var id: UUID? = nil
    var gameID: Game.ID
    var name: String = ""
    var score: Int = 0

    init(id: UUID? = nil, gameID: Game.ID, name: String = "", score: Int = 0) {
      self.id = id
      self.gameID = gameID
      self.name = name
      self.score = score
    }

    init(decoder: inout some StrataCore.QueryDecoder) throws {
      id = try decoder.decode(UUID?.self)
      gameID = try decoder.decode(Game.ID.self)
      name = try decoder.decode(String.self)
      score = try decoder.decode(Int.self)
    }

    func encode(into bindings: inout [StrataCore.QueryBinding]) {
      bindings.append(id.queryBinding)
      bindings.append(gameID.queryBinding)
      bindings.append(name.queryBinding)
      bindings.append(score.queryBinding)
    }
  }
}

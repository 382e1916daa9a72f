import Foundation
import Strata

/// The benchmark's row: two UUID TEXT columns, a TEXT and an INTEGER, as in the seed's
/// `players` table.
struct Player: Table, Identifiable {
  let id: UUID
  let gameID: UUID
  var name = ""
  var score = 0
}

// The conformance in the generator's shape (Documentation/GeneratedCode.md).
nonisolated extension Player: Strata.PrimaryKeyedTable {
  static let tableName = "players"

  struct TableColumns: Strata.PrimaryKeyedColumnSet {
    typealias QueryValue = Player
    static let columnNames = ["id", "gameID", "name", "score"]
    let id = Strata.TableColumn<Player, UUID>("id")
    let gameID = Strata.TableColumn<Player, UUID>("gameID")
    let name = Strata.TableColumn<Player, String>("name")
    let score = Strata.TableColumn<Player, Int>("score")
    var primaryKey: Strata.TableColumn<Player, UUID> { id }
  }

  static let columns = TableColumns()

  var primaryKey: UUID { id }

  init(decoder: inout some Strata.QueryDecoder) throws {
    id = try decoder.decode(UUID.self)
    gameID = try decoder.decode(UUID.self)
    name = try decoder.decode(String.self)
    score = try decoder.decode(Int.self)
  }

  func encode(into bindings: inout [Strata.QueryBinding]) {
    bindings.append(id.queryBinding)
    bindings.append(gameID.queryBinding)
    bindings.append(name.queryBinding)
    bindings.append(score.queryBinding)
  }

  struct Draft: Strata.TableDraft {
    typealias Base = Player
    var id: UUID?
    var gameID: UUID
    var name = ""
    var score = 0

    init(id: UUID? = nil, gameID: UUID, name: String = "", score: Int = 0) {
      self.id = id
      self.gameID = gameID
      self.name = name
      self.score = score
    }

    init(decoder: inout some Strata.QueryDecoder) throws {
      id = try decoder.decode(UUID?.self)
      gameID = try decoder.decode(UUID.self)
      name = try decoder.decode(String.self)
      score = try decoder.decode(Int.self)
    }

    func encode(into bindings: inout [Strata.QueryBinding]) {
      bindings.append(id.queryBinding)
      bindings.append(gameID.queryBinding)
      bindings.append(name.queryBinding)
      bindings.append(score.queryBinding)
    }
  }
}

struct Game: Table, Identifiable {
  let id: UUID
  var title = ""
}

nonisolated extension Game: Strata.PrimaryKeyedTable {
  static let tableName = "games"

  struct TableColumns: Strata.PrimaryKeyedColumnSet {
    typealias QueryValue = Game
    static let columnNames = ["id", "title"]
    let id = Strata.TableColumn<Game, UUID>("id")
    let title = Strata.TableColumn<Game, String>("title")
    var primaryKey: Strata.TableColumn<Game, UUID> { id }
  }

  static let columns = TableColumns()

  var primaryKey: UUID { id }

  init(decoder: inout some Strata.QueryDecoder) throws {
    id = try decoder.decode(UUID.self)
    title = try decoder.decode(String.self)
  }

  func encode(into bindings: inout [Strata.QueryBinding]) {
    bindings.append(id.queryBinding)
    bindings.append(title.queryBinding)
  }
}

struct GameRow: Selection {
  let game: Game
  let playerCount: Int
}

nonisolated extension GameRow {
  struct Columns: Strata.SelectionColumns {
    typealias QueryValue = GameRow
    let resultColumns: [Strata.ResultColumn]

    init(game: some Strata.QueryExpression<Game>, playerCount: some Strata.QueryExpression<Int>) {
      resultColumns =
        game.resultColumns(named: "game")
        + playerCount.resultColumns(named: "playerCount")
    }
  }

  static var queryColumnCount: Int { Game.queryColumnCount + Int.queryColumnCount }

  init(decoder: inout some Strata.QueryDecoder) throws {
    game = try decoder.decode(Game.self)
    playerCount = try decoder.decode(Int.self)
  }
}

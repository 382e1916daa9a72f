import Foundation
import Strata

/// The seed's hand-written migration (seed 003), run on a fresh in-memory database.
func scorekeeperDatabase(configuration: Configuration = Configuration()) throws -> any DatabaseWriter {
  let database = try openDatabase(.inMemory, configuration: configuration)
  try database.write { db in
    try createScorekeeperTables(db)
  }
  return database
}

func createScorekeeperTables(_ db: Database) throws {
  try sql(
    """
    CREATE TABLE "games" (
      "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
      "title" TEXT NOT NULL DEFAULT ''
    ) STRICT
    """
  ).execute(db)
  try sql(
    """
    CREATE TABLE "players" (
      "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
      "gameID" TEXT NOT NULL REFERENCES "games"("id") ON DELETE CASCADE,
      "name" TEXT NOT NULL DEFAULT '',
      "score" INTEGER NOT NULL DEFAULT 0
    ) STRICT
    """
  ).execute(db)
  try sql(
    """
    CREATE INDEX "index_players_on_gameID" ON "players"("gameID")
    """
  ).execute(db)
}

/// Deterministic UUIDs for tests: `UUID(3)` is `00000000-0000-0000-0000-000000000003`.
extension UUID {
  init(_ value: Int) {
    self.init(uuidString: String(format: "00000000-0000-0000-0000-%012x", value))!
  }
}

/// The seed's data (seed 000): three games, and three players in the first.
func seedScorekeeper(_ db: Database) throws {
  try db.seed(scorekeeperRows)
}

/// The rows of ``seedScorekeeper(_:)``, for a database of either dialect.
@SeedsBuilder func scorekeeperRows() -> Seeds {
  Game.Draft(id: UUID(1), title: "Family gin rummy")
  Game.Draft(id: UUID(2), title: "Weekly poker night")
  Game.Draft(id: UUID(3), title: "Mahjong with grandma")
  Player.Draft(id: UUID(11), gameID: UUID(1), name: "Blob", score: 20)
  Player.Draft(id: UUID(12), gameID: UUID(1), name: "Blob Jr", score: 100)
  Player.Draft(id: UUID(13), gameID: UUID(1), name: "Blob Sr", score: 60)
}

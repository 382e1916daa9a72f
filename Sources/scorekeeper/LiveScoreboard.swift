import Foundation
import Observation
import Strata

/// The game screen as a model: a game's players and the number of players in all games,
/// kept current by live queries as other tasks write.
@MainActor @Observable
final class LiveScoreboard {
  // `Player.none` runs nothing: the initializer chooses the game. (`@FetchAll var players:
  // [Player]` would first fetch and observe every player.)
  @ObservationIgnored @FetchAll(Player.none) var players
  @ObservationIgnored @FetchOne(Player.count()) var playerCount = 0
  @ObservationIgnored private let game: UUID
  /// The last line printed by ``printChanges()``.
  @ObservationIgnored private(set) var lastLine = ""

  init(game: UUID) {
    self.game = game
    _players = FetchAll(Player.where { $0.gameID.eq(game) }.order(by: \.name))
  }

  /// Sorts the players by score instead, highest first: the live query is replaced.
  func sortByScore() async throws {
    try await $players.load(Player.where { $0.gameID.eq(game) }.order { $0.score.desc() })
  }

  /// Prints the list now and after every change.
  func printChanges() {
    let line = "  live: \(playerCount) players in all; this game: "
      + players.map { "\($0.name) \($0.score)" }.joined(separator: ", ")
    if line != lastLine { print(line) }
    lastLine = line
    withObservationTracking {
      _ = players
      _ = playerCount
    } onChange: {
      // Called as the value is about to change: print once it has.
      DispatchQueue.main.async { MainActor.assumeIsolated { self.printChanges() } }
    }
  }
}

// `scorekeeper sync`: the app on a device that syncs its games through `scorekeeper-server
// serve`. Each run is a session on the device: it syncs, does what it is told, syncs again and
// prints the games; `watch` stays in sync and prints the scores as other devices change them.
import Foundation
import Strata
import StrataSync
import StrataSyncClient

enum SyncCommand {
  static let usage = """
    usage: scorekeeper sync DATABASE SERVER TOKEN [ACTION...]
      add-game TITLE               a new game
      add-player GAME NAME         a new player in the game titled GAME
      score NAME POINTS            add POINTS (negative to take away) to NAME's score
      share GAME USER read|write   share the game titled GAME, which you own, with USER
      accept GAME-ID               accept a game shared with you
      watch SECONDS                stay in sync for SECONDS, printing the scores as they change
    DATABASE is this device's SQLite file (made when missing); SERVER is scorekeeper-server's URL,
    TOKEN the user's token there. It syncs before and after the actions, then prints the games.

    """

  static func run(_ arguments: [String]) async throws {
    guard arguments.count >= 3, let server = URL(string: arguments[1]) else {
      FileHandle.standardError.write(Data(usage.utf8))
      exit(2)
    }
    let token = arguments[2]
    let database = try openDatabase(.file(arguments[0]))
    try database.migrate(StrataMigrations.all)
    let replica = try SyncReplica(database, tables: StrataSyncedTables.all)
    let client = SyncClient(replica: replica, server: server) { token }
    try await client.sync()
    var actions = arguments.dropFirst(3)
    func next(_ what: String) throws -> String {
      guard let value = actions.popFirst() else { throw StrataError("\(what) is missing\n\(usage)") }
      return value
    }
    while let action = actions.popFirst() {
      switch action {
      case "add-game":
        let title = try next("the game's title")
        try await database.write { db in try Game.insert { Game.Draft(id: UUID(), title: title) }.execute(db) }
      case "add-player":
        let game = try gameID(titled: try next("the game's title"), in: database)
        let name = try next("the player's name")
        try await database.write { db in try Player.insert { Player.Draft(id: UUID(), gameID: game, name: name) }.execute(db) }
      case "score":
        let name = try next("the player's name")
        guard let points = Int(try next("the points")) else { throw StrataError("the points must be a whole number") }
        let changed = try await database.write { db in
          try Player.where { $0.name.eq(name) }.update { $0.score += points }.returning(\.id).fetchAll(db)
        }
        guard !changed.isEmpty else { throw StrataError("there is no player \(name)") }
      case "share":
        let game = try gameID(titled: try next("the game's title"), in: database)
        let user = try next("the user")
        guard let access = SyncShareAccess(rawValue: try next("read or write")) else { throw StrataError("the access is read or write") }
        try await client.share(table: "games", key: game, with: user, access: access)
        print("shared \(game.uuidString.lowercased()) with \(user) (\(access.rawValue))")
      case "accept":
        guard let game = UUID(uuidString: try next("the game's id")) else { throw StrataError("the game's id is a UUID") }
        try await client.accept(table: "games", key: game)
        try await client.sync()
      case "watch":
        guard let seconds = Double(try next("the seconds")) else { throw StrataError("the seconds must be a number") }
        try await watch(database, client: client, for: .milliseconds(Int64(seconds * 1000)))
      default:
        throw StrataError("unknown action \(action)\n\(usage)")
      }
    }
    try await client.sync()
    print(try await database.read { db in try scores(db) })
  }

  private static func gameID(titled title: String, in database: any DatabaseWriter) throws -> UUID {
    guard let id = try database.read({ db in try Game.where { $0.title.eq(title) }.select(\.id).fetchOne(db) }) else {
      throw StrataError("there is no game titled \(title)")
    }
    return id
  }

  /// Every game and its players with their scores, as the device holds them.
  private static func scores(_ db: Database) throws -> String {
    let games = try Game.order(by: \.title).fetchAll(db)
    let players = try Player.order(by: \.name).fetchAll(db)
    return games.map { game in
      (["\(game.title) (\(game.id.uuidString.lowercased()))"]
        + players.filter { $0.gameID == game.id }.map { "  \($0.name) \($0.score)" }).joined(separator: "\n")
    }.joined(separator: "\n")
  }

  /// Keeps the device in sync for `duration`, printing the scores each time they change.
  private static func watch(_ database: any DatabaseWriter, client: SyncClient, for duration: Duration) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      group.addTask {
        for try await text in ValueObservation.tracking({ db in try scores(db) }).values(in: database) {
          // Written at once, not buffered: a program reading the output through a pipe sees
          // each change as it happens.
          FileHandle.standardOutput.write(Data("-- \(Date().formatted(.iso8601.time(includingFractionalSeconds: true)))\n\(text)\n".utf8))
        }
      }
      group.addTask { try await Task.sleep(for: duration) }
      try await group.next()
      group.cancelAll()
    }
  }
}

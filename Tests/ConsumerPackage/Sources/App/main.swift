import Catalog
import Foundation
import Observation
import Strata

/// Checks a result; a failed check exits with status 1.
func check(_ condition: Bool, _ message: String) {
  if !condition {
    print("FAILED: \(message)")
    exit(1)
  }
}

// The app's own tables, migrated with its embedded migrations.
let games = try openDatabase(.inMemory, functions: [exclaim, medianScore, shoutFunction])
try games.migrate(StrataMigrations.all)
try games.write { db in
  let id = UUID()
  try db.seed {
    Game.Draft(id: id, title: "Family gin rummy")
    Game.Draft(title: "Weekly poker night")
    Player.Draft(gameID: id, name: "Blob", score: 20)
    Player.Draft(gameID: id, name: "Blob Jr", score: 100)
  }
  try Player.where { $0.name.eq("Blob") }.update { $0.score += 1 }.execute(db)
}
let rows = try games.read { db in
  try Game.group(by: \.id)
    .leftJoin(Player.all) { $0.id.eq($1.gameID) }
    .order { $1.count().desc() }
    .select { GameRow.Columns(game: $0, playerCount: $1.count()) }
    .fetchAll(db)
}
check(rows.map(\.playerCount) == [2, 0], "player counts: \(rows.map(\.playerCount))")
let scores = try games.read { db in try Player.order(by: \.name).select { $0.score }.fetchAll(db) }
check(scores == [21, 100], "scores: \(scores)")

// A table from the schema file, joined with a Swift model.
let tournaments = try games.write { db in
  let gameID = try Game.where { $0.title.eq("Family gin rummy") }.select(\.id).fetchOne(db)!
  try Tournament.insert { Tournament.Draft(gameID: gameID, name: "Spring cup", prize: 100) }.execute(db)
  return try Tournament.join(Game.all) { $0.gameID.eq($1.id) }
    .select { TournamentRow.Columns(tournament: $0, gameTitle: $1.title) }
    .fetchAll(db)
}
check(tournaments.map(\.gameTitle) == ["Family gin rummy"], "tournaments: \(tournaments.map(\.gameTitle))")
check(tournaments.first?.tournament.prize == 100, "prize")

// The schema file's key on two columns, check and SQL default hold in SQLite.
let entrySeeds = try games.write { db in
  let tournamentID = try Tournament.select(\.id).fetchOne(db)!
  let gameID = try Game.where { $0.title.eq("Family gin rummy") }.select(\.id).fetchOne(db)!
  try Entry.insert { Entry.Draft(tournamentID: tournamentID, gameID: gameID, seed: 1, enteredAt: "today") }.execute(db)
  do {
    try Entry.insert { Entry.Draft(tournamentID: tournamentID, gameID: gameID, seed: 2, enteredAt: "again") }.execute(db)
    check(false, "a second entry of one game in one tournament was stored")
  } catch let error as DatabaseError {
    check(error.message?.contains("UNIQUE constraint failed") == true, "\(error)")
  }
  do {
    try db.execute(sql: #"UPDATE "entries" SET "seed" = -1"#)
    check(false, "a negative seed was stored")
  } catch let error as DatabaseError {
    check(error.message?.contains("CHECK constraint failed") == true, "\(error)")
  }
  return try Entry.select(\.seed).fetchAll(db)
}
check(entrySeeds == [1], "seeds: \(entrySeeds)")

// Full-text search, a declared view and trigger, and a temporary view and trigger.
try games.write { db in
  let found = try Game.join(GameText.all) { $0.rowid.eq($1.rowid) }
    .where { $1.match(FullTextQuery.allTerms(in: "rummies")) }
    .select { ($0.title, $1.title.highlight("[", "]")) }
    .fetchAll(db)
  check(found.map(\.1) == ["Family gin [rummy]"], "search: \(found)")
  let summaries = try GameSummary.order(by: \.title).fetchAll(db)
  check(summaries.map(\.playerCount) == [2, 0], "summaries: \(summaries.map(\.playerCount))")
  try Player.where { $0.name.eq("Blob") }.update { $0.score = -5 }.execute(db)
  check(try Player.where { $0.name.eq("Blob") }.select(\.score).fetchOne(db) == 0, "the trigger keeps scores from going negative")
  try PlayerWithGame.createTemporaryView(
    as: Player.join(Game.all) { $0.gameID.eq($1.id) }.select { PlayerWithGame.Columns(playerName: $0.name, gameTitle: $1.title) }
  ).execute(db)
  let trigger = Player.createTemporaryTrigger(after: .insert { new in Player.find(new.id).update { $0.score = 1 } })
  try trigger.execute(db)
  let gameID = try Game.where { $0.title.eq("Weekly poker night") }.select(\.id).fetchOne(db)!
  try Player.insert { Player.Draft(gameID: gameID, name: "Blobby") }.execute(db)
  let joined = try PlayerWithGame.where { $0.gameTitle.eq("Weekly poker night") }.fetchAll(db)
  check(joined.map(\.playerName) == ["Blobby"], "temporary view: \(joined.map(\.playerName))")
  check(try Player.where { $0.name.eq("Blobby") }.select(\.score).fetchOne(db) == 1, "temporary trigger")
  try trigger.drop().execute(db)
  try Player.where { $0.name.eq("Blobby") }.delete().execute(db)
}

// A generated column, computed by the database, and a column group.
try games.write { db in
  let gameID = try Game.select(\.id).fetchOne(db)!
  let start = Date(timeIntervalSince1970: 1_700_000_000)
  try Round.insert { Round.Draft(gameID: gameID, points: 21, played: Played(startedAt: start, endedAt: nil)) }.execute(db)
  check(try Round.select(\.doubled).fetchOne(db) == 42, "generated column")
  check(try Round.where { $0.played.endedAt.is(nil) }.select(\.played).fetchOne(db)?.startedAt == start, "column group")
}

// An enum stored in one table: each case in columns of its own.
try games.write { db in
  try Event.insert {
    Event.Draft(kind: .scored(3))
    Event.Draft(kind: .fouled(Event.Foul(reason: "offside")))
  }.execute(db)
  try Event.find(1).update { $0.kind.fouled = Event.Foul(reason: "late", penalty: 2) }.execute(db)
  check(try Event.where { $0.kind.is(\.fouled) }.order(by: \.id).select(\.kind).fetchAll(db)
    == [.fouled(Event.Foul(reason: "late", penalty: 2)), .fouled(Event.Foul(reason: "offside"))], "enum table")
}

// Functions written in Swift, in a query and in a view; window functions.
try games.read { db in
  let excited = try ExcitedGame.order(by: \.title).fetchAll(db).map(\.title)
  check(excited == ["Family gin rummy!", "Weekly poker night!"], "excited: \(excited)")
  let medians = try Player.group(by: \.gameID).select { medianScore($0.score) }.fetchAll(db)
  check(medians == [50.0], "medians: \(medians)")
  let ranks = try Player.order(by: \.name).select { ($0.name, rank().over(partitionBy: $0.gameID, orderBy: $0.score.desc())) }.fetchAll(db)
  check(ranks.map(\.1) == [2, 1], "ranks: \(ranks)")
  check(try Game.select { exclaim($0.title) }.fetchAll(db).count == 2, "exclaim")
  let shouted = try Game.order(by: \.title).select { (shoutFunction($0.title), shoutFunction($0.title, times: 1)) }.fetchAll(db)
  check(shouted.map(\.0) == ["FAMILY GIN RUMMY!!", "WEEKLY POKER NIGHT!!"] && shouted.map(\.1) == ["FAMILY GIN RUMMY!", "WEEKLY POKER NIGHT!"], "shout: \(shouted)")
}

// The library's public tables, migrated with the library's migrations.
let catalog = try openDatabase(.inMemory)
var catalogMigrator = DatabaseMigrator()
try catalogMigrator.registerMigrations(Catalog.StrataMigrations.all)
try catalogMigrator.migrate(catalog)
try catalog.write { db in
  try Category.insert { Category.Draft(name: "Books") }.execute(db)
  try Item.insert {
    Item.Draft(categoryID: 1, title: "Novel", priority: .high, tags: ["paper"])
    Item.Draft(categoryID: 1, title: "Atlas")
  }.execute(db)
}
let stats = try catalog.read { db in
  try Category.group(by: \.id)
    .join(Item.all) { $0.id.eq($1.categoryID) }
    .select { CategoryStats.Columns(category: $0, itemCount: $1.count(), topPriority: $1.priority.max()) }
    .fetchAll(db)
}
check(stats.count == 1 && stats[0].category.name == "Books" && stats[0].itemCount == 2, "stats")
check(stats[0].topPriority == .high, "top priority: \(String(describing: stats[0].topPriority))")
let tags = try catalog.read { db in try Item.where { $0.title.eq("Novel") }.select { $0.tags }.fetchOne(db) }
check(tags == ["paper"], "tags: \(String(describing: tags))")
// The library's public models, made in this module: a table with a public initializer and the
// Draft of a table without a key.
try catalog.write { db in
  try Category.insert { Category(id: 7, name: "Maps") }.execute(db)
  let atlas = try Item.where { $0.title.eq("Atlas") }.select(\.id).fetchOne(db)
  try ItemLabel.insert { ItemLabel.Draft(itemID: atlas!, label: "heavy") }.execute(db)
}
let maps = try catalog.read { db in try Category.find(7).fetchOne(db) }
check(maps?.name == "Maps", "maps: \(String(describing: maps))")
let labels = try catalog.read { db in
  try ItemLabel.join(Item.all) { $0.itemID.eq($1.id) }.select { ($1.title, $0.label) }.fetchAll(db)
}
check(labels.map { "\($0.0): \($0.1)" } == ["Atlas: heavy"], "labels: \(labels)")

// A cache in a file of its own, attached to the app's database, migrated with its own migrations.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let withCache = try openDatabase(
  .file(folder.appendingPathComponent("app.sqlite").path),
  attaching: [AttachedDatabase("cache", at: folder.appendingPathComponent("cache.sqlite").path, migrations: StrataMigrations.attached)])
try withCache.migrate(StrataMigrations.all)
try withCache.write { db in
  try Game.insert { Game.Draft(title: "Chess") }.execute(db)
  try BestScore.insert { BestScore.Draft(gameTitle: "Chess", best: 12) }.execute(db)
}
let cached = try withCache.read { db in
  try Game.join(BestScore.all) { $0.title.eq($1.gameTitle) }.select { ($0.title, $1.best) }.fetchAll(db)
}
check(cached.map { "\($0.0) \($0.1)" } == ["Chess 12"], "attached database: \(cached)")

// Live queries in an `@Observable` model, updated by writes from another task.
@Observable final class Scoreboard {
  @ObservationIgnored @FetchAll(Player.order { $0.score.desc() }) var players
  @ObservationIgnored @FetchOne(Player.count()) var playerCount = 0
}
DefaultDatabase.set(games)
let board = Scoreboard()
check(board.players.map(\.name) == ["Blob Jr", "Blob"], "live players: \(board.players.map(\.name))")
let gameID = try games.read { db in try Game.where { $0.title.eq("Family gin rummy") }.select(\.id).fetchOne(db) }!
try await Task.detached {
  try await games.write { db in try Player.insert { Player.Draft(gameID: gameID, name: "Grandma", score: 50) }.execute(db) }
}.value
// The two live queries update independently; wait for both.
for _ in 0..<5000 where board.playerCount != 3 || board.players.count != 3 { try await Task.sleep(for: .milliseconds(2)) }
check(board.playerCount == 3, "live count: \(board.playerCount)")
check(board.players.map(\.name) == ["Blob Jr", "Grandma", "Blob"], "live order: \(board.players.map(\.name))")
try await board.$players.load(Player.order(by: \.name))
check(board.players.map(\.name) == ["Blob", "Blob Jr", "Grandma"], "reloaded: \(board.players.map(\.name))")

// Every schema of the app's history, filled with rows and migrated as above: nothing lost.
let upgrades = try await verifyUpgrades(UpgradeVerification(StrataMigrations.all, rowsPerTable: 30), functions: [exclaim, medianScore])
print("upgrades checked from \(upgrades.starts.count) schemas")

print("OK: \(rows.count) games, \(stats[0].itemCount) items, \(board.playerCount) live players")

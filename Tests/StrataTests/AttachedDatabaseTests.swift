import Foundation
import Strata
import Testing

/// A model in an attached database (`// @Table(schema: "cache")`): its own file, migrated with its
/// own migrations (`Migrations/cache/`), attached to every connection, joined with the main
/// database's tables in one statement.
@Suite struct AttachedDatabaseTests {
  let directory: URL
  let mainPath: String
  let cachePath: String

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-attached-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    mainPath = directory.appendingPathComponent("app.sqlite").path
    cachePath = directory.appendingPathComponent("cache.sqlite").path
  }

  func open(pooled: Bool = false) throws -> any DatabaseWriter {
    let database = try openDatabase(
      .file(mainPath), pooled: pooled,
      attaching: [AttachedDatabase("cache", at: cachePath, migrations: StrataMigrations.attached)])
    try database.migrate(StrataMigrations.all)
    return database
  }

  @Test func statementsNameTheAttachedDatabase() throws {
    expectSQL(
      CachedScore.where { $0.best > 10 },
      #"SELECT "cachedScores"."id", "cachedScores"."playerName", "cachedScores"."best" FROM "cache"."cachedScores" WHERE "cachedScores"."best" > 10"#)
    expectSQL(
      CachedScore.insert { CachedScore.Draft(playerName: "Blob", best: 3) },
      #"INSERT INTO "cache"."cachedScores" ("id", "playerName", "best") VALUES (NULL, 'Blob', 3)"#)
    expectSQL(
      CachedScore.find(1).update { $0.best += 1 },
      #"UPDATE "cache"."cachedScores" SET "best" = "cachedScores"."best" + 1 WHERE "cachedScores"."id" = 1"#)
    expectSQL(CachedScore.find(1).delete(), #"DELETE FROM "cache"."cachedScores" WHERE "cachedScores"."id" = 1"#)
  }

  @Test func theFileHasItsOwnMigrationsAndJoinsTheMainDatabase() throws {
    let database = try open()
    try database.write { db in
      try seedScorekeeper(db)
      try CachedScore.insert {
        CachedScore.Draft(playerName: "Blob", best: 25)
        CachedScore.Draft(playerName: "Blob Jr", best: 90)
        CachedScore.Draft(playerName: "Nobody", best: 1)
      }.execute(db)
    }
    // Players whose score beats their cached best, across the two files.
    let beaten = Player.join(CachedScore.all) { $0.name.eq($1.playerName) }
      .where { $0.score > $1.best }
      .order { $0.name }
      .select { ($0.name, $1.best) }
    expectSQL(
      beaten,
      #"SELECT "players"."name", "cachedScores"."best" FROM "players" JOIN "cache"."cachedScores" ON "players"."name" = "cachedScores"."playerName" WHERE "players"."score" > "cachedScores"."best" ORDER BY "players"."name""#)
    let rows = try database.read { try beaten.fetchAll($0) }
    #expect(rows.map(\.0) == ["Blob Jr"])
    #expect(rows.map(\.1) == [90])
    try database.write { db in
      try CachedScore.where { $0.playerName.eq("Blob") }.update { $0.best = 30 }.execute(db)
      try CachedScore.where { $0.playerName.eq("Nobody") }.delete().execute(db)
    }
    #expect(try database.read { try CachedScore.order(by: \.id).select { ($0.playerName, $0.best) }.fetchAll($0) }.map { "\($0.0)=\($0.1)" }
      == ["Blob=30", "Blob Jr=90"])
    try database.close()

    // Each file holds its own tables and its own migration history.
    let main = try openDatabase(.file(mainPath))
    #expect(try main.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_schema WHERE name = 'cachedScores'") } == [])
    let cache = try openDatabase(.file(cachePath))
    #expect(try cache.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY 1") } == ["0001_create_cachedScores", "0002_create_players"])
    #expect(try cache.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM cachedScores") } == 2)
  }

  @Test func everyConnectionOfAPoolHasTheFileAttached() throws {
    let database = try open(pooled: true)
    try database.write { try CachedScore.insert { CachedScore.Draft(playerName: "Blob", best: 1) }.execute($0) }
    let counts = try (0..<4).map { _ in try database.read { try CachedScore.count().fetchOne($0) } }
    #expect(counts == [1, 1, 1, 1])
    // Reopening migrates nothing: the file's history has its one migration.
    try database.close()
    _ = try open(pooled: true)
  }

  @MainActor @Test func liveQueriesSeeWritesToTheAttachedFile() async throws {
    let database = try open()
    let names = FetchAll(CachedScore.order(by: \.playerName).select(\.playerName), database: database)
    #expect(names.wrappedValue == [])
    try await database.write { try CachedScore.insert { CachedScore.Draft(playerName: "Ada") }.execute($0) }
    #expect(await eventually { names.wrappedValue == ["Ada"] })
  }

  /// The main database's "players" and the cache's "players" (StructuredQueries lets two
  /// databases name one table): each statement reaches its own, a join of the two gives one of
  /// them an alias, and a live query of one sees its own table's writes.
  @MainActor @Test func aTableOfTheMainDatabaseAndOneOfTheCacheShareAName() async throws {
    let database = try open()
    try await database.write { db in
      try seedScorekeeper(db)
      try CachedPlayer.insert {
        CachedPlayer.Draft(id: UUID(11), name: "Blob", rank: 2)
        CachedPlayer.Draft(id: UUID(12), name: "Blob Jr", rank: 1)
        CachedPlayer.Draft(id: UUID(99), name: "Retired", rank: 9)
      }.execute(db)
    }
    expectSQL(
      CachedPlayer.where { $0.rank < 5 }.order(by: \.rank),
      #"SELECT "players"."id", "players"."name", "players"."rank" FROM "cache"."players" WHERE "players"."rank" < 5 ORDER BY "players"."rank""#)
    #expect(try await database.read { try CachedPlayer.where { $0.rank < 5 }.order(by: \.rank).fetchAll($0) }.map(\.name) == ["Blob Jr", "Blob"])
    #expect(try await database.read { try Player.order(by: \.name).fetchAll($0) }.map(\.name) == ["Blob", "Blob Jr", "Blob Sr"])

    // Writes by key reach one table of the two.
    try await database.write { db in
      try CachedPlayer.find(UUID(12)).update { $0.rank += 10 }.execute(db)
      try CachedPlayer.find(UUID(99)).delete().execute(db)
      try CachedPlayer.upsert { CachedPlayer.Draft(id: UUID(13), name: "Blob Sr", rank: 3) }.execute(db)
      try Player.find(UUID(11)).update { $0.score = 21 }.execute(db)
    }
    #expect(try await database.read { try CachedPlayer.order(by: \.name).select { ($0.name, $0.rank) }.fetchAll($0) }.map { "\($0.0)=\($0.1)" }
      == ["Blob=2", "Blob Jr=11", "Blob Sr=3"])
    #expect(try await database.read { try Player.order(by: \.name).select { ($0.name, $0.score) }.fetchAll($0) }.map { "\($0.0)=\($0.1)" }
      == ["Blob=21", "Blob Jr=100", "Blob Sr=60"])

    // SQLite reads "players"."id" as either table's, so a join of the two names one by an alias.
    let compared = Player.join(CachedPlayer.as(Cached.self).all) { $0.id.eq($1.id) }
      .order { $0.name }
      .select { ($0.name, $0.score, $1.rank) }
    expectSQL(
      compared,
      #"SELECT "players"."name", "players"."score", "Cached"."rank" FROM "players" JOIN "cache"."players" AS "Cached" ON "players"."id" = "Cached"."id" ORDER BY "players"."name""#)
    #expect(try await database.read { try compared.fetchAll($0) }.map { "\($0.0) \($0.1) #\($0.2)" } == ["Blob 21 #2", "Blob Jr 100 #11", "Blob Sr 60 #3"])

    // Each live query follows its own table; a write to the other table changes nothing it shows.
    let cached = FetchAll(CachedPlayer.order(by: \.name).select(\.name), database: database)
    let local = FetchAll(Player.order(by: \.name).select(\.name), database: database)
    try await database.write { db in try CachedPlayer.insert { CachedPlayer.Draft(id: UUID(14), name: "Ada") }.execute(db) }
    #expect(await eventually { cached.wrappedValue == ["Ada", "Blob", "Blob Jr", "Blob Sr"] })
    #expect(local.wrappedValue == ["Blob", "Blob Jr", "Blob Sr"])
    try await database.write { db in try Player.find(UUID(13)).delete().execute(db) }
    #expect(await eventually { local.wrappedValue == ["Blob", "Blob Jr"] })
    #expect(cached.wrappedValue == ["Ada", "Blob", "Blob Jr", "Blob Sr"])
    try database.close()

    // Each file holds its own table.
    let cache = try openDatabase(.file(cachePath))
    #expect(try await cache.read { try String.fetchAll($0, sql: "SELECT name FROM players ORDER BY name") } == ["Ada", "Blob", "Blob Jr", "Blob Sr"])
    let main = try openDatabase(.file(mainPath))
    #expect(try await main.read { try String.fetchAll($0, sql: "SELECT name FROM players ORDER BY name") } == ["Blob", "Blob Jr"])
  }

  @Test func aFailingMigrationNamesTheAttachedDatabase() throws {
    let broken = AttachedDatabase("cache", at: cachePath, migrations: [Migration(name: "0001_broken", sql: "CREATE TABLE t (")])
    let database = try openDatabase(.file(mainPath), attaching: [broken])
    #expect {
      try database.migrate(StrataMigrations.all)
    } throws: { error in
      "\(error)".hasPrefix("the attached database \"cache\" (\(cachePath)): ")
    }
    // The main database's migrations were rolled back with the file's.
    #expect(try database.read { try String.fetchAll($0, sql: "SELECT name FROM main.sqlite_schema WHERE name = 'games'") } == [])
  }

  /// An app's databases are one upgrade: the main database's migration stops at a value it would
  /// change, so the attached file's migration, which would drop a column of rows, is not kept
  /// either, and the previous version of the app still opens both.
  @Test func whenTheMainDatabaseStopsNoAttachedFileChanges() throws {
    let main = try ModelHistory()
    let cache = try ModelHistory()
    try main.generate("struct Doc: Table { let id: Int; var score = 0.0 }")
    // The cache's migrations name its tables unqualified, as a model in its own history does.
    try cache.generate("struct Page: Table { let id: Int; var url = \"\"; var etag: String? }")
    func open() throws -> any DatabaseWriter {
      try openDatabase(.file(mainPath), attaching: [AttachedDatabase("cache", at: cachePath, migrations: try cache.migrations)])
    }
    let v1 = try open()
    try v1.migrate(try main.migrations)
    try v1.write { db in
      try db.execute(sql: "INSERT INTO docs (id, score) VALUES (1, 2.5)")
      try db.execute(sql: #"INSERT INTO "cache"."pages" (id, url, etag) VALUES (1, 'a.html', 'W/"1"')"#)
    }
    try v1.close()

    try main.generate("struct Doc: Table { let id: Int; var score = 0 }")
    try cache.generate("struct Page: Table { let id: Int; var url = \"\" }", allowDataLoss: true)
    #expect(try cache.migrations.map(\.name) == ["0001_create_pages", "0002_drop_pages_etag"])
    let v2 = try open()
    #expect {
      try v2.migrate(try main.migrations)
    } throws: { error in
      "\(error)".contains("stopped before changing anything")
    }
    #expect(try v2.read { try String.fetchAll($0, sql: #"SELECT etag FROM "cache"."pages""#) } == [#"W/"1""#])
    #expect(try v2.read { try String.fetchAll($0, sql: #"SELECT identifier FROM "cache"."grdb_migrations""#) } == ["0001_create_pages"])
    #expect(try v2.read { try Double.fetchAll($0, sql: "SELECT score FROM docs") } == [2.5])
    try v2.close()

    // The previous version opens and migrates both files as before.
    try main.discardNewest()
    let previous = try openDatabase(
      .file(mainPath), attaching: [AttachedDatabase("cache", at: cachePath, migrations: Array(try cache.migrations.prefix(1)))])
    #expect(try previous.migrate(try main.migrations).applied == [])
    try previous.close()

    // With a migration that keeps every value, both files migrate together.
    try main.generate("struct Doc: Table { let id: Int; var score = 0.0; var note = \"\" }")
    let v3 = try open()
    #expect(try v3.migrate(try main.migrations).applied == ["0002_add_docs_note"])
    #expect(try v3.read { try String.fetchAll($0, sql: #"SELECT identifier FROM "cache"."grdb_migrations" ORDER BY 1"#) }
      == ["0001_create_pages", "0002_drop_pages_etag"])
    #expect(try v3.read { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "cache"."pages""#) } == 1)
    // The main database's connection has the file attached again.
    try v3.write { db in try db.execute(sql: #"INSERT INTO "cache"."pages" (id, url) VALUES (2, 'b.html')"#) }
  }
}

private enum Cached: AliasName {}

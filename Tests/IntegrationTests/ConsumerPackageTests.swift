import Foundation
import Testing

@testable import StrataSchema

/// A scratch package that depends on this one by path and uses the plugins the way a user does:
/// `generate-migrations` (and `--check`), then `swift build`, then running the app, whose
/// queries check their own results. Its library target has public models; its app target's
/// default isolation is the main actor.
///
/// The scratch package lives in the temporary folder under a name derived from this checkout,
/// so that later runs build incrementally; every run starts from fresh sources. The name has
/// spaces, as user paths often do.
@Suite(.serialized) struct ConsumerPackageTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let fixture = repository.appendingPathComponent("Tests/ConsumerPackage")

  let package: URL

  init() throws {
    let checkout = Self.repository.path.unicodeScalars.reduce(into: UInt64(5381)) { $0 = ($0 &* 33) &+ UInt64($1.value) }
    package = FileManager.default.temporaryDirectory.appendingPathComponent("strata consumer \(String(checkout, radix: 36))")
    let manager = FileManager.default
    try manager.createDirectory(at: package, withIntermediateDirectories: true)
    for item in try manager.contentsOfDirectory(atPath: package.path) where item != ".build" {
      try manager.removeItem(at: package.appendingPathComponent(item))
    }
    try manager.copyItem(at: Self.fixture.appendingPathComponent("Sources"), to: package.appendingPathComponent("Sources"))
    let manifest = try String(contentsOf: Self.fixture.appendingPathComponent("Package.swift.template"), encoding: .utf8)
      .replacingOccurrences(of: "@STRATA_PATH@", with: Self.repository.path)
      .replacingOccurrences(of: "@STRATA_PACKAGE@", with: Self.repository.lastPathComponent.lowercased())
    try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
  }

  /// Runs `swift` with `arguments` in the scratch package; what it printed to both outputs. A
  /// first build on a slow machine takes minutes, so the deadline is far off: it is there so
  /// that a hung command fails the test rather than CI.
  func swift(_ arguments: String...) async throws -> (status: Int32, output: String) {
    let result = try await ChildProcess.start(["/usr/bin/env", "swift"] + arguments, directory: package.path).finish(timeout: 1_200)
    return (result.status, result.output + result.errors)
  }

  /// Copies the fixture's targets `names` from its folder `folder` into the package, and puts
  /// `declarations` (given the name SwiftPM knows Strata by) in the manifest.
  func addTargets(from folder: String, _ names: [String], declarations: (String) -> String) throws {
    for target in names {
      try FileManager.default.copyItem(
        at: Self.fixture.appendingPathComponent("\(folder)/\(target)"), to: package.appendingPathComponent("Sources/\(target)"))
    }
    let manifest = package.appendingPathComponent("Package.swift")
    try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(
      of: "/* @MORE_TARGETS@ */", with: declarations(Self.repository.lastPathComponent.lowercased())
    ).write(to: manifest, atomically: true, encoding: .utf8)
  }

  func read(_ path: String) throws -> String {
    try String(contentsOf: package.appendingPathComponent(path), encoding: .utf8)
  }

  /// An app on SQLite alone, which asks for no trait, resolves what it uses: GRDB, and the
  /// argument parser of the migrations command's tool; neither postgres-nio and its SwiftNIO
  /// packages nor swift-dependencies. A server that asks for the PostgreSQL trait resolves
  /// postgres-nio, and still neither Hummingbird nor swift-dependencies.
  @Test func anAppResolvesOnlyWhatItUses() async throws {
    let sqlite = try await resolvedPackages(traits: "", product: "Strata")
    #expect(sqlite == ["grdb.swift", "swift-argument-parser"])
    let server = try await resolvedPackages(traits: #", traits: ["PostgreSQL"]"#, product: "StrataPostgreSQL")
    #expect(server.contains("postgres-nio") && server.contains("swift-nio"), "\(server)")
    #expect(!server.contains("hummingbird") && !server.contains("swift-dependencies"), "\(server)")
  }

  /// The identities `swift package resolve` lists for an app that depends on Strata with
  /// `traits` (the dependency's arguments after its path) and uses its product `product`.
  func resolvedPackages(traits: String, product: String) async throws -> [String] {
    let app = FileManager.default.temporaryDirectory.appendingPathComponent("strata resolving \(UUID().uuidString)")
    try FileManager.default.createDirectory(at: app.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: app) }
    let strata = Self.repository.lastPathComponent.lowercased()
    let manifest = """
      // swift-tools-version:6.2
      import PackageDescription

      let package = Package(
        name: "NotesApp",
        platforms: [.macOS(.v14)],
        dependencies: [.package(path: "\(Self.repository.path)"\(traits))],
        targets: [
          .executableTarget(
            name: "App", dependencies: [.product(name: "\(product)", package: "\(strata)")],
            plugins: [.plugin(name: "StrataPlugin", package: "\(strata)")])
        ]
      )
      """
    try manifest.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    try "import \(product)\nstruct Note: Table { let id: Int; var body = \"\" }\n".write(
      to: app.appendingPathComponent("Sources/App/main.swift"), atomically: true, encoding: .utf8)
    let resolve = try await ChildProcess.start(["/usr/bin/env", "swift", "package", "resolve"], directory: app.path).finish(timeout: 600)
    #expect(resolve.status == 0, "\(resolve.output)\(resolve.errors)")
    let resolved = try String(contentsOf: app.appendingPathComponent("Package.resolved"), encoding: .utf8)
    return resolved.split(separator: "\n").filter { $0.contains(#""identity""#) }.map { String($0.split(separator: "\"")[3]) }.sorted()
  }

  @Test func aUserPackageGeneratesMigrationsBuildsAndRuns() async throws {
    // The first generate-migrations writes each target's first migration and snapshot.
    let generate = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations")
    #expect(generate.status == 0, "\(generate.output)")
    let appMigration = try read("Sources/App/Migrations/0001_create_games_players_and_8_more.sql")
    #expect(appMigration.contains(#""gameID" TEXT NOT NULL REFERENCES "games"("id") ON DELETE CASCADE,"#))
    // The schema file's table is in the same migration as the Swift models'.
    #expect(appMigration.contains(#"CREATE TABLE "tournaments""#))
    #expect(appMigration.contains(#"  PRIMARY KEY ("tournamentID", "gameID"),\#n  CHECK (seed >= 0)\#n) STRICT;"#), "\(appMigration)")
    #expect(appMigration.contains(#"CREATE INDEX "index_entries_on_seed" ON "entries"("seed") WHERE seed > 0;"#), "\(appMigration)")
    // So are the full-text index with its sync triggers, the view and the trigger.
    #expect(appMigration.contains(#"CREATE VIRTUAL TABLE "gameTexts" USING fts5("title", content='games', content_rowid='rowid', tokenize='porter');"#), "\(appMigration)")
    #expect(appMigration.contains(#"CREATE TRIGGER "gameTexts_after_insert" AFTER INSERT ON "games" BEGIN"#), "\(appMigration)")
    #expect(appMigration.contains(#"CREATE VIEW "gameSummaries" ("title", "playerCount") AS"#), "\(appMigration)")
    #expect(appMigration.contains(#"CREATE TRIGGER "players_no_negative_score" AFTER UPDATE OF score ON players"#), "\(appMigration)")
    // An enum stored in one table: a nullable column per case, a group's columns for one.
    #expect(appMigration.contains(#"CREATE TABLE "events" (\#n  "id" INTEGER PRIMARY KEY AUTOINCREMENT,\#n  "scored" INTEGER,\#n  "reason" TEXT,\#n  "penalty" INTEGER,\#n  CONSTRAINT "events_kind_holds_one_case" CHECK ((CASE WHEN "scored" IS NOT NULL THEN 1 ELSE 0 END + CASE WHEN ("reason" IS NOT NULL OR "penalty" IS NOT NULL) THEN 1 ELSE 0 END) = 1 AND (NOT ("reason" IS NOT NULL OR "penalty" IS NOT NULL) OR ("reason" IS NOT NULL AND "penalty" IS NOT NULL)))\#n) STRICT;"#), "\(appMigration)")
    #expect(try read("Sources/Catalog/Migrations/0001_create_catalog_categories_items_and_itemLabels.sql").contains(#"CREATE TABLE "items""#))
    // Quiet, with paths relative to the package.
    #expect(generate.output.contains("App: wrote Sources/App/Migrations/0001_create_games_players_and_8_more.sql:"), "\(generate.output)")
    #expect(generate.output.contains("App: updated the schema snapshot schemas/App.sql."), "\(generate.output)")
    // The attached database's model has its own folder and files.
    #expect(generate.output.contains("App (cache): wrote Sources/App/Migrations/cache/0001_create_bestScores.sql:"), "\(generate.output)")
    #expect(try read("schemas/App.cache.sql").contains(#"CREATE TABLE "bestScores""#))
    #expect(!appMigration.contains("bestScores"))
    #expect(!generate.output.contains(package.path), "\(generate.output)")
    #expect(!generate.output.contains("nothing to do"), "\(generate.output)")
    #expect(try read("schemas/App.sql").contains(#"CREATE INDEX "index_players_on_gameID""#))
    #expect(try read("schemas/App.md").contains("games ||--o{ players"))
    #expect(try read("schemas/App.sum").contains("0001_create_games_players_and_8_more.sql "))

    // Unchanged models: nothing to write, and --check passes.
    let again = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations")
    #expect(again.output.contains("App: the schema is up to date; no migration written."), "\(again.output)")
    let check = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--check")
    #expect(check.status == 0, "\(check.output)")

    // The app builds, with the conformances generated by the build plugin, and its queries pass.
    let build = try await swift("build")
    #expect(build.status == 0, "\(build.output)")
    #expect(build.output.contains("Generating Strata code for App"), "\(build.output)")
    // An app on SQLite alone links neither postgres-nio nor SwiftNIO, nor sync's engine.
    let linked = try read(".build/debug/App.product/Objects.LinkFileList")
    #expect(linked.contains("GRDB") && !linked.contains("PostgresNIO") && !linked.contains("NIOCore"), "\(linked)")
    #expect(!linked.contains("StrataSync"), "\(linked)")
    let run = try await swift("run", "App")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("OK: 2 games, 2 items"), "\(run.output)")
    // The app that syncs: its migration has the capture triggers, and its replicas merge.
    let notesMigrations = try FileManager.default.contentsOfDirectory(atPath: package.appendingPathComponent("Sources/Notes/Migrations").path)
    let first = try #require(notesMigrations.first { $0.hasPrefix("0001_") })
    #expect(first == "0001_create_notebooks_and_notes_and_sync_notebooks_and_notes.sql")
    #expect(try read("Sources/Notes/Migrations/\(first)").contains(#"CREATE TRIGGER "strata_sync_notes_update_text""#))
    let notes = try await swift("run", "Notes")
    #expect(notes.status == 0, "\(notes.output)")
    #expect(notes.output.contains(#"OK: 3 replicas hold "sync, tested" with 3 likes; 1 concurrent edit listed"#), "\(notes.output)")

    // Comparing columns with `==` is a compile error that says what to write instead.
    let misuse = package.appendingPathComponent("Sources/App/Misuse.swift")
    try "import Strata\nfunc misuse() { _ = Player.where { $0.name == \"Blob\" } }\n".write(to: misuse, atomically: true, encoding: .utf8)
    let misused = try await swift("build")
    #expect(misused.status != 0)
    #expect(misused.output.contains("Use 'eq' (or 'is') instead."), "\(misused.output)")
    try FileManager.default.removeItem(at: misuse)
    #expect(try await swift("build").status == 0)

    // A build with no changed input does not run the generator again.
    let rebuild = try await swift("build")
    #expect(rebuild.status == 0)
    #expect(!rebuild.output.contains("Generating Strata code"), "\(rebuild.output)")

    // A new optional column: the build warns at the model until a migration adds it; --check
    // fails and names it; generate-migrations writes it.
    let models = package.appendingPathComponent("Sources/App/Models.swift")
    let original = try String(contentsOf: models, encoding: .utf8)
    try original.replacingOccurrences(of: "  var score = 0\n", with: "  var score = 0\n  var nickname: String?\n")
      .write(to: models, atomically: true, encoding: .utf8)
    let drifted = try await swift("build")
    #expect(drifted.status == 0, "\(drifted.output)")
    #expect(
      drifted.output.contains(#"Models.swift:10:8: warning: the migrations do not match 'Player' yet (the next migration would add column "nickname" to "players")"#),
      "\(drifted.output)")
    let stale = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--check", "--target", "App")
    #expect(stale.status != 0)
    #expect(stale.output.contains(#"the models ask for a change the migrations lack: add column "nickname" to "players""#), "\(stale.output)")
    let added = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--target", "App")
    #expect(added.status == 0, "\(added.output)")
    #expect(try read("Sources/App/Migrations/0002_add_players_nickname.sql").contains(#"ALTER TABLE "players" ADD COLUMN "nickname" TEXT;"#))
    #expect(try await swift("build").status == 0)
    let rerun = try await swift("run", "App")
    #expect(rerun.output.contains("OK:"), "\(rerun.output)")

    // `--check` tells "out of date" (2) from errors (1) when the tool runs without SwiftPM.
    let toolCheck = try await swift(
      "run", "strata", "migrations", "--check", "--module", "App", "--root", "Sources/App", "--migrations", "Sources/App/Migrations",
      "--snapshot", "schemas/App.sql", "--checksums", "schemas/App.sum", "Sources/App")
    #expect(toolCheck.status == 0, "\(toolCheck.output)")
    // The tool links StrataPostgreSQL, built here without the PostgreSQL trait: empty but for the
    // names a server would use first, whose message says how to turn the trait on.
    let server = package.appendingPathComponent("Server.swift")
    try "import StrataPostgreSQL\nfunc open(_ database: PostgreSQLDatabase) {}\n".write(to: server, atomically: true, encoding: .utf8)
    let traitless = try await ChildProcess.start(
      ["/usr/bin/env", "swiftc", "-typecheck", "-swift-version", "6", "-I", package.appendingPathComponent(".build/debug/Modules").path, server.path]
    ).finish(timeout: 300)
    #expect(
      (traitless.output + traitless.errors).contains(#"'PostgreSQLDatabase' is unavailable: StrataPostgreSQL needs Strata's PostgreSQL trait: depend on Strata with .package(url: "https://github.com/strata-swift/Strata.git", from: "0.1.0", traits: ["PostgreSQL"])"#),
      "\(traitless.output)\(traitless.errors)")
    try FileManager.default.removeItem(at: server)
    try original.replacingOccurrences(of: "  var score = 0\n", with: "  var score = 0\n  var nickname: String?\n  var rank = 0\n")
      .write(to: models, atomically: true, encoding: .utf8)
    let toolStale = try await swift(
      "run", "strata", "migrations", "--check", "--module", "App", "--root", "Sources/App", "--migrations", "Sources/App/Migrations",
      "--snapshot", "schemas/App.sql", "--checksums", "schemas/App.sum", "Sources/App")
    #expect(toolStale.status == 2, "\(toolStale.output)")

    // Dropping a column needs consent.
    try original.write(to: models, atomically: true, encoding: .utf8)
    let refused = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--target", "App")
    #expect(refused.status != 0)
    #expect(refused.output.contains(#"column "nickname" is in the migrations but not in the model, and dropping it would delete its values"#), "\(refused.output)")
    let dropped = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--target", "App", "--allow-data-loss")
    #expect(dropped.status == 0, "\(dropped.output)")
    #expect(try read("Sources/App/Migrations/0003_drop_players_nickname.sql").contains(#"ALTER TABLE "players" DROP COLUMN "nickname";"#))

    // Editing a migration that a later one follows is caught, by --check and by the command.
    let firstMigration = package.appendingPathComponent("Sources/App/Migrations/0001_create_games_players_and_8_more.sql")
    let firstText = try String(contentsOf: firstMigration, encoding: .utf8)
    try (firstText + "-- edited\n").write(to: firstMigration, atomically: true, encoding: .utf8)
    let edited = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--check", "--target", "App")
    #expect(edited.status != 0)
    #expect(edited.output.contains("error: this migration changed after 0002_add_players_nickname.sql was written"), "\(edited.output)")
    // An edited migration is an error, not models the migrations do not match yet.
    #expect(edited.output.contains("error: generate-migrations --check failed: 1 error, the first at Sources/App/Migrations/0001_create_games_players_and_8_more.sql:1"), "\(edited.output)")
    try firstText.write(to: firstMigration, atomically: true, encoding: .utf8)
    #expect(try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--check", "--target", "App").status == 0)

    // A migration that would fail at launch fails the build, at its statement's line.
    let badMigration = package.appendingPathComponent("Sources/App/Migrations/0003_tidy.sql")
    try "DELETE FROM players WHERE score < 0;\nCOMMIT;\n".write(to: badMigration, atomically: true, encoding: .utf8)
    let committing = try await swift("build")
    #expect(committing.status != 0)
    #expect(committing.output.contains("0003_tidy.sql:2:1: error: a migration runs inside the transaction"), "\(committing.output)")
    try "DELETE FROM players WHERE score < 0;\n\nUPDATE player SET score = 0;\n".write(to: badMigration, atomically: true, encoding: .utf8)
    let misspelled = try await swift("build")
    #expect(misspelled.status != 0)
    #expect(misspelled.output.contains("0003_tidy.sql:3:1: error: this migration fails on SQLite: no such table: player"), "\(misspelled.output)")
    // generate-migrations reports it at the same place, with the path relative to the package.
    try "UPDATE players SET score = 0;\nALTR TABLE players ADD COLUMN rank INTEGER;\n".write(to: badMigration, atomically: true, encoding: .utf8)
    let failing = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--target", "App")
    #expect(failing.status != 0)
    #expect(
      failing.output.contains(#"Sources/App/Migrations/0003_tidy.sql:2:1: error: this migration fails on SQLite: near "ALTR": syntax error"#),
      "\(failing.output)")
    #expect(failing.output.contains("error: generate-migrations failed: 1 error, the first at Sources/App/Migrations/0003_tidy.sql:2"), "\(failing.output)")
    try FileManager.default.removeItem(at: badMigration)

    // A data migration in Swift, on the tables as the migrations leave them (frozen), runs in
    // the sequence; the app's upgrade check runs it from every earlier schema.
    let data = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--target", "App", "--data", "tidy_player_names")
    #expect(data.status == 0, "\(data.output)")
    let dataMigration = package.appendingPathComponent("Sources/App/Migrations/0004_tidy_player_names.swift")
    let template = try String(contentsOf: dataMigration, encoding: .utf8)
    #expect(template.contains("  static func migrate(_ db: Database) throws {"), "\(template)")
    try template.replacingOccurrences(
      of: "  static func migrate(_ db: Database) throws {\n",
      with: "  static func migrate(_ db: Database) throws {\n    for player in try Player.all.fetchAll(db) where player.name != player.name.trimmingCharacters(in: .whitespaces) {\n      try Player.find(player.id).update { $0.name = player.name.trimmingCharacters(in: .whitespaces) }.execute(db)\n    }\n"
    ).write(to: dataMigration, atomically: true, encoding: .utf8)
    #expect(try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--target", "App").status == 0)
    let withData = try await swift("run", "App")
    #expect(withData.status == 0 && withData.output.contains("upgrades checked from 3 schemas"), "\(withData.output)")

    // Squashing the three SQL migrations: new databases run one file, the others what they lack.
    let squashed = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--target", "App", "--squash-through", "0003")
    #expect(squashed.status == 0, "\(squashed.output)")
    #expect(try read("Sources/App/Migrations/0003_squashed.sql").hasPrefix("-- strata: squash of 3 migrations"))
    #expect(try read("Sources/App/Migrations/Squashed/0002_add_players_nickname.sql").contains("ADD COLUMN"))
    #expect(try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--check", "--target", "App").status == 0)
    let afterSquash = try await swift("run", "App")
    #expect(afterSquash.status == 0 && afterSquash.output.contains("upgrades checked from 4 schemas"), "\(afterSquash.output)")

    // Bad input is an error at the model's line, and the build fails without a partial file.
    try original.replacingOccurrences(of: "  var score = 0\n", with: "  // @Colum(\"points\")\n  var score = 0\n")
      .write(to: models, atomically: true, encoding: .utf8)
    let broken = try await swift("build")
    #expect(broken.status != 0)
    #expect(broken.output.contains("Models.swift:14:6: error: unknown annotation @Colum"), "\(broken.output)")
    try original.write(to: models, atomically: true, encoding: .utf8)

    // Checked-in generated code: --code writes the library's conformances into its sources; the
    // build compiles that file, and fails at it when it no longer matches the models.
    let coded = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--target", "Catalog", "--code")
    #expect(coded.status == 0, "\(coded.output)")
    #expect(coded.output.contains("Catalog: updated the generated code Sources/Catalog/Generated/StrataModels.swift."), "\(coded.output)")
    #expect(try read("Sources/Catalog/Generated/StrataModels.swift").contains("public nonisolated struct Draft: StrataCore.TableDraft"))
    let codedBuild = try await swift("build")
    #expect(codedBuild.status == 0, "\(codedBuild.output)")
    #expect(try await swift("run", "App").output.contains("OK:"))
    let catalog = package.appendingPathComponent("Sources/Catalog/Catalog.swift")
    let catalogText = try String(contentsOf: catalog, encoding: .utf8)
    try catalogText.replacingOccurrences(of: "  var internalNote: String?\n", with: "  var internalNote: String?\n  public var isbn: String?\n")
      .write(to: catalog, atomically: true, encoding: .utf8)
    let staleCode = try await swift("build")
    #expect(staleCode.status != 0)
    #expect(
      staleCode.output.contains("Generated/StrataModels.swift:1:1: error: this generated file does not match the models"),
      "\(staleCode.output)")
    #expect(try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--check", "--target", "Catalog").status != 0)
    let recoded = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--target", "Catalog")
    #expect(recoded.status == 0, "\(recoded.output)")
    #expect(try read("Sources/Catalog/Generated/StrataModels.swift").contains("isbn"))
    #expect(try await swift("build").status == 0)
    #expect(try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--check", "--target", "Catalog").status == 0)
  }

  /// An app that has a GRDB database adopts Strata: `swift run strata import` writes models and
  /// a baseline migration; `--check` passes at once; the app adds a model and takes every table
  /// over by removing `// @Unmanaged` alone; migrating its own file keeps every row and value,
  /// the unique index, the cascade, the trigger and the views; a new database gets the same
  /// schema.
  @Test func anExistingDatabaseIsImported() async throws {
    try addTargets(from: "Import", ["LegacyMaker", "Legacy"]) { strata in
      """
      .executableTarget(name: "LegacyMaker", dependencies: [.product(name: "Strata", package: "\(strata)")]),
          .executableTarget(
            name: "Legacy", dependencies: [.product(name: "Strata", package: "\(strata)")],
            plugins: [.plugin(name: "StrataPlugin", package: "\(strata)")]),
      """
    }

    let made = try await swift("run", "LegacyMaker", "legacy.sqlite")
    #expect(made.status == 0, "\(made.output)")
    let imported = try await swift("run", "strata", "import", "legacy.sqlite", "--target", "Sources/Legacy")
    #expect(imported.status == 0, "\(imported.output)")
    #expect(imported.output.contains("Imported 3 tables and 2 views from legacy.sqlite (3 unmanaged):"), "\(imported.output)")
    #expect(imported.output.contains(#"table "bookShelf" is // @Unmanaged (its migrations make it as it is): it is not STRICT"#), "\(imported.output)")
    #expect(imported.output.contains(#"virtual table "bookText" is kept in the baseline"#), "\(imported.output)")
    let models = try read("Sources/Legacy/ImportedModels.swift")
    #expect(models.contains("struct Author: Table, Identifiable {"), "\(models)")
    #expect(try read("Sources/Legacy/Migrations/0001_imported_schema.sql").hasPrefix("-- strata: baseline\n"))
    // The app knows its blob is a UUID, as GRDB stores them, and says so.
    #expect(models.contains("  var token: Data?\n"), "\(models)")
    try models.replacingOccurrences(
      of: "  var token: Data?\n", with: "  // @Column(as: UUID.BytesRepresentation.self)\n  var token: UUID?\n"
    ).write(to: package.appendingPathComponent("Sources/Legacy/ImportedModels.swift"), atomically: true, encoding: .utf8)

    let check = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--check", "--target", "Legacy")
    #expect(check.status == 0, "\(check.output)")
    // The view's aggregates read as what they hold.
    #expect(models.contains("  var books: Int?\n  var spent: Double?\n"), "\(models)")

    // A new model, and every table taken over by removing the mark alone.
    try "import Strata\n\nstruct Review: Table, Identifiable {\n  let id: Int\n  var bookID: Book.ID\n  var stars = 0\n}\n"
      .write(to: package.appendingPathComponent("Sources/Legacy/Review.swift"), atomically: true, encoding: .utf8)
    let modelsFile = package.appendingPathComponent("Sources/Legacy/ImportedModels.swift")
    let takenOver = try String(contentsOf: modelsFile, encoding: .utf8).components(separatedBy: "\n\n").map { block in
      block.contains("/// The table ") ? block.replacingOccurrences(of: "// @Unmanaged\n", with: "") : block
    }.joined(separator: "\n\n")
    try takenOver.write(to: modelsFile, atomically: true, encoding: .utf8)
    let generated = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--target", "Legacy")
    #expect(generated.status == 0, "\(generated.output)")
    #expect(generated.output.contains(#"rebuild table "book", copying every row, because it becomes STRICT"#), "\(generated.output)")
    #expect(try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--check", "--target", "Legacy").status == 0)

    let run = try await swift("run", "Legacy", "legacy.sqlite")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("OK: 2 authors, 2 books"), "\(run.output)")
  }

  /// Two releases of an app on one database file, as a staged rollout or a widget built from an
  /// older commit has them: release 2 renames a column under a compatibility window, release 1
  /// keeps reading, inserting, updating and deleting by the old name, each sees the other's
  /// writes (in a live query too, across processes), and once the window moves the contract
  /// step loses no row.
  @Test func twoReleasesShareADatabaseThroughACompatibilityWindow() async throws {
    let manager = FileManager.default
    try addTargets(from: "Window", ["Release1", "Release2"]) { strata in
      """
      .executableTarget(
            name: "Release1", dependencies: [.product(name: "Strata", package: "\(strata)")],
            plugins: [.plugin(name: "StrataPlugin", package: "\(strata)")]),
          .executableTarget(
            name: "Release2", dependencies: [.product(name: "Strata", package: "\(strata)")],
            exclude: ["Migrations/strata.json"], plugins: [.plugin(name: "StrataPlugin", package: "\(strata)")]),
      """
    }

    // Release 2's history is release 1's, then the expand step.
    let first = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--target", "Release1")
    #expect(first.status == 0, "\(first.output)")
    try manager.copyItem(
      at: package.appendingPathComponent("Sources/Release1/Migrations/0001_create_members.sql"),
      to: package.appendingPathComponent("Sources/Release2/Migrations/0001_create_members.sql"))
    let expand = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--target", "Release2")
    #expect(expand.status == 0, "\(expand.output)")
    #expect(try read("Sources/Release2/Migrations/0002_rename_members_displayName_and_rebuild_members.sql").contains(#"-- keeps "members"."name" in step with "displayName""#))
    let build = try await swift("build", "--product", "Release1")
    #expect(build.status == 0, "\(build.output)")
    let build2 = try await swift("build", "--product", "Release2")
    #expect(build2.status == 0, "\(build2.output)")

    let database = package.appendingPathComponent("members.sqlite").path
    for suffix in ["", "-wal", "-shm", ".release1-watching", ".release2-watching"] { try? manager.removeItem(atPath: database + suffix) }
    func run(_ product: String, _ arguments: String...) async throws -> String {
      let result = try await ChildProcess.start([package.appendingPathComponent(".build/debug/\(product)").path, database] + arguments)
        .finish(timeout: 180)
      #expect(result.status == 0, "\(product) \(arguments): \(result.output)\(result.errors)")
      return result.output
    }
    /// Starts a live query in `product` that ends once it sees `name`, and waits until it runs.
    func watch(_ product: String, for name: String) async throws -> ChildProcess {
      let watcher = try ChildProcess.start([package.appendingPathComponent(".build/debug/\(product)").path, database, "watch", name])
      let ready = database + ".\(product.lowercased())-watching"
      let deadline = Date().addingTimeInterval(120)
      while !manager.fileExists(atPath: ready), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
      return watcher
    }

    #expect(try await run("Release1", "seed").contains("release 1 reads: 1 Ann 1, 2 Bob 2"))
    let expanded = try await run("Release2", "write")
    #expect(expanded.contains("release 2 migrated: 0002_rename_members_displayName_and_rebuild_members"), "\(expanded)")
    #expect(expanded.contains("release 2 reads: 1 Annie 1, 2 Bob 2, 3 Cyd 3"), "\(expanded)")

    // Release 1 opens the database release 2 migrated: it migrates nothing, says why, and
    // writes by the old name while release 2's live query follows.
    let release2Watching = try await watch("Release2", for: "Old")
    let old = try await run("Release1", "write")
    #expect(old.contains("release 1 migrated: 0 applied; a newer version of the app migrated this database"), "\(old)")
    #expect(old.contains("release 1 reads: 1 Annie 1, 2 Bobby 2, 4 Old 5"), "\(old)")
    let sawOld = try await release2Watching.finish(timeout: 180)
    #expect(sawOld.status == 0, "\(sawOld.output)\(sawOld.errors)")
    #expect(sawOld.output.contains("release 2 reads: 1 Annie 1, 2 Bobby 2, 4 Old 5"), "\(sawOld.output)")

    // And the other way round.
    let release1Watching = try await watch("Release1", for: "New")
    _ = try await run("Release2", "write2")
    let sawNew = try await release1Watching.finish(timeout: 180)
    #expect(sawNew.status == 0, "\(sawNew.output)\(sawNew.errors)")
    #expect(sawNew.output.contains("release 1 reads: 1 Annie 1, 2 Bobby 2, 4 Old 5, 5 New 6"), "\(sawNew.output)")

    // Release 1 is no longer in use: the window moves, and the contract step keeps every row.
    try #"{ "compatibleWith": "0002" }"#.write(
      to: package.appendingPathComponent("Sources/Release2/Migrations/strata.json"), atomically: true, encoding: .utf8)
    let contract = try await swift("package", "--allow-writing-to-package-directory", "generate-migrations", "--target", "Release2")
    #expect(contract.output.contains("Release2: wrote Sources/Release2/Migrations/0003_contract_members_name_and_rebuild_members.sql"), "\(contract.output)")
    #expect(try await swift("build", "--product", "Release2").status == 0)
    let after = try await run("Release2", "read")
    #expect(after.contains("release 2 migrated: 0003_contract_members_name_and_rebuild_members"), "\(after)")
    #expect(after.contains("release 2 reads: 1 Annie 1, 2 Bobby 2, 4 Old 5, 5 New 6"), "\(after)")
  }
}

import Foundation
import StrataSQL
import Testing

@testable import StrataSchema
import StrataTestSupport

/// The `strata` tool behaves like the Swift tools people know: help for the tool and each
/// command, a version that the changelog names, usage errors with status 64, diagnostics at
/// their lines with status 1, and status 2 from `--check` when something is out of date.
@Suite(.blockingWork) struct CommandLineTests {
  static let repository = ConsumerPackageTests.repository

  /// The tool built next to the tests (SwiftPM builds it for the plugins the test targets use).
  static let tool = executable("strata")
  /// The build plugin's tool, built the same way.
  static let buildTool = executable("strata-build")

  static func executable(_ name: String) -> URL? {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
      repository.appendingPathComponent(".build/debug/\(name)"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  func strata(_ arguments: String...) throws -> (status: Int32, output: String, errors: String) {
    try strata(arguments)
  }

  func strata(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    try run(Self.tool, arguments)
  }

  func strataBuild(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    try run(Self.buildTool, arguments)
  }

  private func run(_ tool: URL?, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    let tool = try #require(tool, "Strata's tools are not built; run `swift build` first")
    let result = try ChildProcess.run([tool.path] + arguments, directory: directory.path, timeout: 300)
    return (result.status, result.output, result.errors)
  }

  func write(_ name: String, _ text: String) throws {
    let url = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }

  @Test func helpForTheToolAndEachCommand() throws {
    let help = try strata("--help")
    #expect(help.status == 0)
    #expect(help.output.contains("USAGE: strata <subcommand>"), "\(help.output)")
    for command in ["generate", "migrations", "schema", "import", "sql"] {
      #expect(help.output.contains("  \(command) "), "\(command) in \(help.output)")
      let commandHelp = try strata(command, "--help")
      #expect(commandHelp.status == 0)
      #expect(commandHelp.output.contains("USAGE: strata \(command)"), "\(commandHelp.output)")
    }
    #expect(try strata("migrations", "plan", "--help").output.contains("--allow-data-loss"))
    #expect(try strata("migrations", "--help").output.contains("verify-upgrades"))
    #expect(try strata("migrations", "verify-upgrades", "--help").output.contains("--seed"))
    // Models are Swift files or schema files, and the help says both.
    #expect(try strata("generate", "--help").output.contains("Model files (Swift or .strata schema files)"))
    // With no arguments: the usage, not an error about an empty command.
    let bare = try strata()
    #expect(bare.status == 0 && bare.output.contains("USAGE: strata <subcommand>"))
  }

  @Test func theVersionIsTheChangelogsNewest() throws {
    let version = try strata("--version")
    #expect(version.status == 0)
    let changelog = try String(contentsOf: Self.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
    let printed = version.output.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(!printed.isEmpty && newest?.hasPrefix("## \(printed)") == true, "\(printed) vs \(String(describing: newest))")
  }

  @Test func badArgumentsExit64WithTheUsage() throws {
    let unknown = try strata("frobnicate")
    #expect(unknown.status == 64)
    #expect(unknown.errors.contains("Usage: strata <subcommand>"), "\(unknown.errors)")
    let noModels = try strata("schema")
    #expect(noModels.status == 64)
    #expect(noModels.errors.contains("give the model files"), "\(noModels.errors)")
    let missing = try strata("generate", "Models.swift")
    #expect(missing.status == 64)
    #expect(missing.errors.contains("--output"), "\(missing.errors)")
  }

  @Test func aFileThatIsNotSwiftIsAClearError() throws {
    try write("notes.txt", "struct A: Table { let id: Int }")
    let result = try strata("schema", "notes.txt")
    #expect(result.status == 1)
    #expect(result.errors == "strata: error: notes.txt is not a .swift or .strata file; give model files or the directories that hold them\n")
  }

  @Test func modelErrorsAreDiagnosticsAtTheirLines() throws {
    try write("Models.swift", "struct A: Table {\n  let id: Int\n  var point: CGPoint\n}\n")
    let result = try strata("schema", "Models.swift")
    #expect(result.status == 1)
    #expect(result.errors.hasPrefix("Models.swift:3:7: error: the generator cannot store 'point: CGPoint'"), "\(result.errors)")
  }

  @Test func checkExits2WhenAMigrationIsMissing() throws {
    try write("Models.swift", "struct Note: Table {\n  let id: Int\n  var body = \"\"\n}\n")
    let stale = try strata("migrations", "--check", "--migrations", "Migrations", "Models.swift")
    #expect(stale.status == 2)
    #expect(stale.errors.contains("the models ask for a change the migrations lack: create table \"notes\""), "\(stale.errors)")
    let written = try strata("migrations", "--migrations", "Migrations", "Models.swift")
    #expect(written.status == 0)
    #expect(written.output.contains("wrote Migrations/0001_create_notes.sql"), "\(written.output)")
    #expect(try strata("migrations", "--check", "--migrations", "Migrations", "Models.swift").status == 0)
  }

  /// `migrations verify-upgrades` on a folder's SQL: every schema of the history, or the ones
  /// `--from` names; a lossy migration fails with the schema, migration, row, value and seed.
  @Test func verifyUpgradesChecksEverySchemaOfAFolder() throws {
    try write("Migrations/0001_create_notes.sql", #"CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY, "body" TEXT NOT NULL, "score" INTEGER) STRICT;"#)
    try write("Migrations/0002_rename.sql", #"ALTER TABLE "notes" RENAME COLUMN "body" TO "text";"#)
    try write("Migrations/0003_tag.sql", #"ALTER TABLE "notes" ADD COLUMN "tag" TEXT;"#)
    let passed = try strata("migrations", "verify-upgrades", "--migrations", "Migrations", "--rows", "25", "--seed", "4")
    #expect(passed.status == 0, "\(passed.errors)")
    #expect(
      passed.output == """
        Upgraded 2 schemas (seed 4, 25 rows per table):
          from 0001_create_notes: 2 migrations, 25 rows in 1 table, checked
            note: column "body" of "notes" is now "text"
          from 0002_rename: 1 migration, 25 rows in 1 table, checked

        """)
    #expect(try strata("migrations", "verify-upgrades", "--migrations", "Migrations", "--from", "2").output.contains("Upgraded 1 schema "))

    try write("Migrations/0004_halve.sql", #"UPDATE "notes" SET "score" = "score" / 2 WHERE "score" > 1000;"#)
    let failed = try strata("migrations", "verify-upgrades", "--migrations", "Migrations", "--from", "0003_tag", "--rows", "25")
    #expect(failed.status == 1)
    #expect(failed.errors.hasPrefix("Migrations: error: upgrading from the schema of 0003_tag, migration 0004_halve, table \"notes\", row \"id\" = "), "\(failed.errors)")
    #expect(failed.errors.hasSuffix(". Replay with seed 1 and 25 rows per table.\n"))
  }

  /// A folder of PostgreSQL migrations is checked on a throwaway server (or STRATA_POSTGRES_URL's).
  @Test(.enabled(if: PostgreSQLServer.isAvailable)) func verifyUpgradesRunsPostgreSQLMigrationsOnPostgreSQL() throws {
    try write("Migrations/strata.json", #"{ "dialect": "postgresql" }"#)
    try write("Migrations/0001_create_notes.sql", #"CREATE TABLE "notes" ("id" bigint PRIMARY KEY, "body" text NOT NULL, "score" integer);"#)
    try write("Migrations/0002_widen.sql", #"ALTER TABLE "notes" ALTER COLUMN "score" TYPE bigint;"#)
    let result = try strata("migrations", "verify-upgrades", "--migrations", "Migrations", "--rows", "20")
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.hasPrefix("Upgraded 1 schema (seed 1, 20 rows per table):\n  from 0001_create_notes: 1 migration, 20 rows in 1 table, checked"), "\(result.output)")
  }

  /// `migrations --data NAME` writes a data migration in Swift with the tables as the
  /// migrations leave them, frozen; the planner knows it changes no schema; the registry runs
  /// its `migrate`; its checksum covers the file, so an edit is reported like an SQL one's.
  @Test func aDataMigrationIsWrittenWithFrozenTablesAndCheckedLikeOthers() throws {
    let models = "struct Note: Table {\n  let id: Int\n  var body = \"\"\n}\n"
    try write("App/Models.swift", models)
    let arguments = ["--migrations", "App/Migrations", "--checksums", "App.sum", "App"]
    #expect(try strata(["migrations"] + arguments).status == 0)
    // Bad descriptions, and a model change the migrations lack, stop it before writing.
    let bad = try strata(["migrations", "--data", "split names"] + arguments)
    #expect(bad.status == 1 && bad.errors.contains("a data migration's description is its file name's end"), "\(bad.errors)")
    try write("App/Models.swift", models.replacingOccurrences(of: "var body = \"\"", with: "var body = \"\"\n  var title = \"\""))
    let pending = try strata(["migrations", "--data", "fill_titles"] + arguments)
    #expect(pending.status == 1)
    #expect(pending.errors.contains("the models ask for a change the migrations lack (add column \"title\" to \"notes\"): write that migration first"), "\(pending.errors)")
    #expect(try strata(["migrations"] + arguments).status == 0)

    let written = try strata(["migrations", "--data", "fill_titles"] + arguments)
    #expect(written.status == 0, "\(written.errors)")
    #expect(written.output.contains("wrote App/Migrations/0003_fill_titles.swift"), "\(written.output)")
    let file = try String(contentsOfFile: directory.appendingPathComponent("App/Migrations/0003_fill_titles.swift").path, encoding: .utf8)
    #expect(file.contains("nonisolated extension Migration0003 {\n  static func migrate(_ db: Database) throws {"))
    #expect(file.contains("nonisolated enum Migration0003 {\n  /// The table \"notes\".\n  /// Unmanaged: the table as these migrations leave it, frozen.\n  // @Unmanaged\n  struct Note: Table, Identifiable {\n    let id: Int\n    var body: String = \"\"\n    var title: String = \"\"\n  }\n}"))
    #expect(file.contains("nonisolated extension Migration0003.Note: StrataCore.PrimaryKeyedTable {"))
    // The file is not models: the schema is up to date, and the checksums hold it.
    let check = try strata(["migrations", "--check"] + arguments)
    #expect(check.status == 0, "\(check.errors)")
    let sums = try String(contentsOfFile: directory.appendingPathComponent("App.sum").path, encoding: .utf8)
    #expect(sums.contains("0003_fill_titles.swift \(SHA256.hex(file.utf8))"))

    // The registry runs its function; without a compatibility window it promises older
    // versions nothing, as the migration before it does not.
    let generate = try strata(["generate", "--output", "Out/Models.swift", "--migrations", "App/Migrations", "--registry-output", "Out/Migrations.swift", "App"])
    #expect(generate.status == 0, "\(generate.errors)")
    let registry = try String(contentsOfFile: directory.appendingPathComponent("Out/Migrations.swift").path, encoding: .utf8)
    #expect(registry.contains("name: \"0003_fill_titles\",\n      checksum: \"\(SHA256.hex(file.utf8))\",\n      data: Migration0003.migrate\n"), "\(registry)")
    let conformances = try String(contentsOfFile: directory.appendingPathComponent("Out/Models.swift").path, encoding: .utf8)
    #expect(!conformances.contains("Migration0003"))

    // Once a later migration is written, an edit to the data migration is reported.
    try write("App/Models.swift", models.replacingOccurrences(of: "var body = \"\"", with: "var body = \"\"\n  var title = \"\"\n  var pinned = false"))
    #expect(try strata(["migrations"] + arguments).status == 0)
    try write("App/Migrations/0003_fill_titles.swift", file.replacingOccurrences(of: "static func migrate(_ db: Database) throws {", with: "static func migrate(_ db: Database) throws {\n    _ = 1"))
    let edited = try strata(["migrations", "--check"] + arguments)
    #expect(edited.status == 1)
    #expect(edited.errors.contains("0003_fill_titles.swift"), "\(edited.errors)")
  }

  /// `migrations squash --through`: one migration of the schema for new databases; the replaced
  /// files move to Migrations/Squashed, which the registry embeds for databases partway; the
  /// snapshot does not change, `--check` passes, and upgrades are checked from schemas before, at
  /// and after the squash. A run cut short is finished by the next.
  @Test func squashReplacesMigrationsWithTheSchemaTheyMake() throws {
    let arguments = ["--migrations", "App/Migrations", "--checksums", "App.sum", "App"]
    let plan = arguments + ["--snapshot", "App.sql"]
    for properties in [
      "var body = \"\"", "var body = \"\"\n  var title: String?", "// @Renamed(from: \"body\")\n  var text = \"\"\n  var title: String?",
      "// @Renamed(from: \"body\")\n  var text = \"\"\n  var title: String?\n  var pinned = false",
    ] {
      try write("App/Models.swift", "struct Note: Table {\n  let id: Int\n  \(properties)\n}\n")
      #expect(try strata(["migrations"] + plan).status == 0)
    }
    let snapshot = try String(contentsOfFile: directory.appendingPathComponent("App.sql").path, encoding: .utf8)
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("App/Migrations").path).sorted()
    #expect(names == ["0001_create_notes.sql", "0002_add_notes_title.sql", "0003_rename_notes_text.sql", "0004_add_notes_pinned.sql"])

    let only = try strata(["migrations", "squash", "--through", "1"] + arguments)
    #expect(only.status == 1 && only.errors.contains("0001_create_notes is the only migration through 1: there is nothing to squash"), "\(only.errors)")
    let squashed = try strata(["migrations", "squash", "--through", "0003"] + arguments)
    #expect(squashed.status == 0, "\(squashed.errors)")
    #expect(squashed.output.contains("wrote App/Migrations/0003_squashed.sql, the schema of 3 migrations for new databases, and moved them to App/Migrations/Squashed"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("App/Migrations").path).sorted() == ["0003_squashed.sql", "0004_add_notes_pinned.sql", "Squashed"])
    let squash = try String(contentsOfFile: directory.appendingPathComponent("App/Migrations/0003_squashed.sql").path, encoding: .utf8)
    #expect(squash.hasPrefix("-- strata: squash of 3 migrations, 0001_create_notes through 0003_rename_notes_text."))
    #expect(squash.contains("\n-- replaces 0001_create_notes "))
    #expect(squash.contains(#"CREATE TABLE "notes" ("#))
    // The planner sees the same schema: nothing to write, the snapshot unchanged, the checksums current.
    let check = try strata(["migrations", "--check"] + plan)
    #expect(check.status == 0, "\(check.errors)")
    #expect(try String(contentsOfFile: directory.appendingPathComponent("App.sql").path, encoding: .utf8) == snapshot)
    let sums = try String(contentsOfFile: directory.appendingPathComponent("App.sum").path, encoding: .utf8)
    #expect(sums.contains("0003_squashed.sql ") && !sums.contains("0001_create_notes"))

    // Upgrades from before, at (both ways) and after the squash.
    let verified = try strata("migrations", "verify-upgrades", "--migrations", "App/Migrations", "--rows", "20")
    #expect(verified.status == 0, "\(verified.errors)")
    #expect(verified.output.hasPrefix("Upgraded 4 schemas (seed 1, 20 rows per table):\n  from 0001_create_notes: 4 migrations"), "\(verified.output)")
    #expect(verified.output.contains("  from 0003_rename_notes_text: 2 migrations") && verified.output.contains("  from 0003_squashed: 1 migration"))

    // The registry embeds what the squash replaces.
    #expect(try strata("generate", "--output", "Out/Models.swift", "--migrations", "App/Migrations", "--registry-output", "Out/Migrations.swift", "App").status == 0)
    let registry = try String(contentsOfFile: directory.appendingPathComponent("Out/Migrations.swift").path, encoding: .utf8)
    #expect(registry.contains("name: \"0003_squashed\",") && registry.contains("replaces: [") && registry.contains("name: \"0002_add_notes_title\","))

    // A run cut short after writing the squash leaves the replaced files beside it; the next finishes.
    let archived = directory.appendingPathComponent("App/Migrations/Squashed/0002_add_notes_title.sql").path
    try FileManager.default.copyItem(atPath: archived, toPath: directory.appendingPathComponent("App/Migrations/0002_add_notes_title.sql").path)
    let finished = try strata(["migrations", "squash", "--through", "0003"] + arguments)
    #expect(finished.status == 0 && finished.output.contains("finished the squash 0003_squashed, which a run cut short"), "\(finished.errors)")
    #expect(try strata(["migrations", "--check"] + plan).status == 0)
  }

  /// A squash refuses to replace a schema the compatibility window keeps working.
  @Test func squashKeepsTheCompatibilityWindowsSchemas() throws {
    try write("App/Models.swift", "struct Note: Table {\n  let id: Int\n  var body = \"\"\n}\n")
    #expect(try strata("migrations", "--migrations", "App/Migrations", "App").status == 0)
    try write("App/Models.swift", "struct Note: Table {\n  let id: Int\n  var body = \"\"\n  var title: String?\n}\n")
    #expect(try strata("migrations", "--migrations", "App/Migrations", "App").status == 0)
    try write("App/Migrations/strata.json", #"{ "compatibleWith": "0002" }"#)
    let refused = try strata("migrations", "squash", "--through", "2", "--migrations", "App/Migrations", "App")
    #expect(refused.status == 1)
    #expect(refused.errors.contains("the compatibility window (strata.json) keeps working the schemas from migration 0002 on, which this squash would replace"), "\(refused.errors)")
  }

  /// `db reset`: a development database that ran a migration since edited is moved aside, not
  /// deleted, and made again; one whose edited migration shipped in a marked release is refused.
  @Test func dbResetRecreatesADevelopmentDatabaseOnly() throws {
    try write("App/Models.swift", "struct Note: Table {\n  let id: Int\n  var body = \"\"\n}\n")
    #expect(try strata("migrations", "--migrations", "App/Migrations", "App").status == 0)
    try write("App/Models.swift", "struct Note: Table {\n  let id: Int\n  var body = \"\"\n  var title: String?\n}\n")
    #expect(try strata("migrations", "--migrations", "App/Migrations", "App").status == 0)
    let files = try MigrationFiles(directory: directory.appendingPathComponent("App/Migrations").path, root: nil).files
    // A database as the app's migrate leaves it, which ran 0002 before it was edited.
    try write("app.sqlite", "")
    let made = try strata(
      ["sql", "app.sqlite", "--"] + files.map(\.sql) + [
        "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
        "CREATE TABLE strata_migrations (name TEXT PRIMARY KEY NOT NULL, checksum TEXT NOT NULL, compatibleFrom INTEGER) STRICT",
        "INSERT INTO grdb_migrations VALUES ('\(files[0].name)'), ('\(files[1].name)')",
        "INSERT INTO strata_migrations (name, checksum) VALUES ('\(files[0].name)', '\(files[0].checksum)'), ('\(files[1].name)', 'before-the-edit')",
        #"INSERT INTO "notes" ("id", "body") VALUES (1, 'a note')"#,
      ])
    #expect(made.status == 0, "\(made.errors) \(made.output)")

    try write("App/Migrations/strata.json", #"{ "releases": { "1.0": "0002" } }"#)
    let refused = try strata("db", "reset", "app.sqlite", "--migrations", "App/Migrations")
    #expect(refused.status == 1)
    #expect(refused.errors.contains("app.sqlite ran 0002_add_notes_title as it was before an edit, and that migration shipped in a release strata.json marks"), "\(refused.errors)")
    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("app.sqlite").path))

    try write("App/Migrations/strata.json", #"{ "releases": { "1.0": "0001" } }"#)
    // The registry says which migrations shipped, for the app's own error about an edit.
    #expect(try strata("generate", "--output", "Out/Models.swift", "--migrations", "App/Migrations", "--registry-output", "Out/Migrations.swift", "App").status == 0)
    let registry = try String(contentsOfFile: directory.appendingPathComponent("Out/Migrations.swift").path, encoding: .utf8)
    #expect(registry.components(separatedBy: "isReleased: true,").count == 2)
    let reset = try strata("db", "reset", "app.sqlite", "--migrations", "App/Migrations")
    #expect(reset.status == 0, "\(reset.errors)")
    #expect(reset.output.hasPrefix("strata: moved app.sqlite aside to app.sqlite.before-reset-"), "\(reset.output)")
    #expect(reset.output.contains("it ran 0002_add_notes_title as it was before an edit"))
    #expect(reset.output.contains("strata: made app.sqlite again from the 2 migrations of App/Migrations."))
    let backups = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("app.sqlite.before-reset-") }
    #expect(backups.count == 1)
    #expect(try strata("sql", backups[0], #"SELECT "body" FROM "notes""#).output == "a note\n")
    #expect(try strata("sql", "app.sqlite", "SELECT checksum FROM strata_migrations ORDER BY name").output == "\(files[0].checksum)\n\(files[1].checksum)\n")
    // Now as the files are: nothing to reset.
    let again = try strata("db", "reset", "app.sqlite", "--migrations", "App/Migrations")
    #expect(again.status == 1 && again.errors.contains("there is nothing to reset"), "\(again.errors)")
  }

  /// The build plugin runs `strata-build`, which is `strata generate` without swift-argument-parser:
  /// the same arguments write the same files and report the same warnings and errors; bad
  /// arguments exit 64 with the usage, as `strata`'s do.
  @Test func theBuildPluginsToolDoesWhatGenerateDoes() throws {
    try write("Models.swift", "struct Note: Table {\n  let id: Int\n  var body = \"\"\n}\n")
    #expect(try strata("migrations", "--migrations", "Migrations", "Models.swift").status == 0)
    try write("Models.swift", "struct Note: Table {\n  let id: Int\n  var body = \"\"\n  var pinned = false\n}\n")
    func generate(into folder: String) -> [String] {
      [
        "--output", "\(folder)/Models.swift", "--migrations=Migrations", "--registry-output", "\(folder)/Migrations.swift",
        "--module", "App", "--runtime", "Strata", "Models.swift",
      ]
    }
    func contents(_ folder: String) throws -> [String] {
      try ["Models.swift", "Migrations.swift"].map { try String(contentsOfFile: directory.appendingPathComponent("\(folder)/\($0)").path, encoding: .utf8) }
    }
    let full = try strata(["generate"] + generate(into: "Full"))
    let build = try strataBuild(generate(into: "Build"))
    #expect(full.status == 0 && build.status == 0)
    #expect(full.errors.hasPrefix("Models.swift:1:8: warning: the migrations do not match 'Note' yet"), "\(full.errors)")
    #expect(build.errors == full.errors)
    #expect(try contents("Build") == contents("Full"))

    try write("Bad.swift", "struct A: Table {\n  let id: Int\n  var point: CGPoint\n}\n")
    let fullError = try strata(["generate", "--output", "Full/Bad.swift", "Bad.swift"])
    let buildError = try strataBuild(["--output", "Build/Bad.swift", "Bad.swift"])
    #expect(fullError.status == 1 && buildError.status == 1)
    #expect(buildError.errors.hasPrefix("Bad.swift:3:7: error: the generator cannot store 'point: CGPoint'"), "\(buildError.errors)")
    #expect(buildError.errors == fullError.errors)
    #expect(try strataBuild(["--output", "Build/None.swift", "notes.txt"]).errors.hasPrefix("strata-build: error: "))

    for (arguments, message) in [
      (["--outptu", "x.swift", "Models.swift"], "unknown option '--outptu'"),
      (["Models.swift", "--output"], "missing value for '--output'"),
      (["--output", "x.swift", "--runtime", "GRDB", "Models.swift"], "the value 'GRDB' is invalid for '--runtime'; give one of 'Strata', 'StrataPostgreSQL'"),
      (["Models.swift"], "give --output, or --checked-in for a module whose generated code is checked in"),
      (["--output", "x.swift", "--migrations", "Migrations", "Models.swift"], "--migrations and --registry-output go together"),
      (["--checked-in", "x.swift", "--per-file-outputs", "Out", "Models.swift"], "--per-file-outputs goes with --output, which holds what is not in a model file's own"),
    ] {
      let result = try strataBuild(arguments)
      #expect(result.status == 64)
      #expect(result.errors == "strata-build: error: \(message)\nUsage: strata-build <strata generate's options> <models> ...\n")
    }
    let help = try strataBuild(["--help"])
    #expect(help.status == 0 && help.output.contains("strata generate --help"), "\(help.output)")
    // Every option `strata generate` lists, `strata-build` takes: the two lists cannot drift apart.
    let options = try strata("generate", "--help").output.split(separator: "\n")
      .compactMap { $0.firstMatch(of: /^\s+(--[a-z-]+) </)?.1 }
    #expect(options.count == 9, "\(options)")
    for option in options {
      #expect(!(try strataBuild([String(option), "x"]).errors.contains("unknown option")), "\(option)")
    }
  }

  /// With `--per-file-outputs` (as the build plugin runs it), each model file's conformances are
  /// a file of their own and the module's shared declarations stay in `--output`; together they
  /// hold what the one file holds. An edit of one model file rewrites only its own generated file,
  /// so the build recompiles that one: a synced table's description is in its own file too, and
  /// the shared list only names it.
  @Test func eachModelFilesConformancesAreAFileOfTheirOwn() throws {
    try write("Games.swift", "import Foundation\n\n// @Synced\nstruct Game: Table, Identifiable {\n  let id: UUID\n  var title = \"\"\n}\n")
    try write(
      "Players.swift",
      "import Foundation\n\nstruct Player: Table {\n  let id: UUID\n  var name = \"\"\n}\n\nstruct Row: Selection {\n  let game: Game\n  let players: Int\n}\n")
    try write("main.swift", "print(1)\n")
    let inputs = ["--module", "App", "Games.swift", "Players.swift", "main.swift"]
    #expect(try strataBuild(["--output", "One/StrataModels.swift"] + inputs).status == 0)
    let split = ["--output", "Split/StrataModels.swift", "--per-file-outputs", "Split/Files"] + inputs
    let build = try strataBuild(split)
    #expect(build.status == 0, "\(build.errors)")
    func read(_ path: String) throws -> String {
      try String(contentsOfFile: directory.appendingPathComponent(path).path, encoding: .utf8)
    }
    let games = try read("Split/Files/StrataModels+Games.swift")
    let players = try read("Split/Files/StrataModels+Players.swift")
    let shared = try read("Split/StrataModels.swift")
    #expect(games.hasPrefix("// Generated by Strata from Games.swift.\n// Do not edit: edit the models instead; this file is regenerated on every build.\nimport Foundation\nimport Strata\n\nnonisolated extension Game: StrataCore.PrimaryKeyedTable {\n"), "\(games)")
    #expect(!games.contains("Player") && !games.contains("StrataSyncedTables"))
    #expect(players.contains("nonisolated extension Player: StrataCore.PrimaryKeyedTable {") && players.contains("nonisolated extension Row {"))
    #expect(try read("Split/Files/StrataModels+main.swift") == "// Generated by Strata from main.swift, which declares no models.\n")
    #expect(shared.hasPrefix("// Generated by Strata from the module's model files: what belongs to the whole module.\n"), "\(shared)")
    #expect(shared.contains("nonisolated enum StrataSyncedTables {\n  static let all: [StrataCore.SyncedTable] = [\n    Game._strataSyncedTable,\n  ]\n}"), "\(shared)")
    #expect(!shared.contains("extension Game"))
    #expect(games.contains("nonisolated extension Game {\n  static var _strataSyncedTable: StrataCore.SyncedTable {\n    StrataCore.SyncedTable(\n      \"games\", key: \"id\",\n      columns: [\n        StrataCore.SyncedColumn(\"title\"),\n      ]\n    )\n  }\n}"), "\(games)")
    // What the one file holds, the split files hold, each model once.
    func body(_ text: String) -> String { text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(4).joined(separator: "\n") }
    #expect(try body(read("One/StrataModels.swift")) == body(games) + body(players) + body(shared))
    #expect(try strata(["generate"] + split.map { $0.replacingOccurrences(of: "Split", with: "Full") }).status == 0)
    for file in ["StrataModels.swift", "Files/StrataModels+Games.swift", "Files/StrataModels+Players.swift", "Files/StrataModels+main.swift"] {
      #expect(try read("Full/\(file)") == read("Split/\(file)"), "\(file)")
    }

    // An edit of Players.swift rewrites its file alone.
    func modified(_ path: String) throws -> Date {
      try #require(FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(path).path)[.modificationDate] as? Date)
    }
    let before = try ["Games", "Players"].map { try modified("Split/Files/StrataModels+\($0).swift") }
    Thread.sleep(forTimeInterval: 0.05)
    try write("Players.swift", try read("Players.swift").replacingOccurrences(of: "var name = \"\"", with: "var name = \"\"\n  var note: String?"))
    #expect(try strataBuild(split).status == 0)
    #expect(try modified("Split/Files/StrataModels+Games.swift") == before[0])
    #expect(try modified("Split/Files/StrataModels+Players.swift") > before[1])
    #expect(try read("Split/Files/StrataModels+Players.swift").contains("let note = StrataCore.TableColumn<Player, String?>(\"note\")"))
    // A synced table's new column changes its own file, not the list of synced tables.
    let sharedBefore = try modified("Split/StrataModels.swift")
    Thread.sleep(forTimeInterval: 0.05)
    try write("Games.swift", try read("Games.swift").replacingOccurrences(of: "var title = \"\"", with: "var title = \"\"\n  var rounds = 0"))
    #expect(try strataBuild(split).status == 0)
    #expect(try modified("Split/StrataModels.swift") == sharedBefore)
    #expect(try read("Split/Files/StrataModels+Games.swift").contains("StrataCore.SyncedColumn(\"rounds\"),"))

    // Two model files of one name would write one generated file: an error, before writing.
    try write("More/Games.swift", "struct Score: Table {\n  let id: Int\n}\n")
    let clash = try strataBuild(["--output", "Clash/StrataModels.swift", "--per-file-outputs", "Clash/Files", "Games.swift", "More/Games.swift"])
    #expect(clash.status == 1)
    #expect(clash.errors.contains("Games.swift and More/Games.swift have one name, so their generated files (StrataModels+Games.swift) would be one; rename one of them"), "\(clash.errors)")
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Clash").path))
  }

  /// The build plugin's check runs every statement of a migration history once. A history of
  /// simple `CREATE`s runs each on its own on an empty database, and only a mark is kept; a
  /// history with other statements runs on one database, which is kept. While the files and the
  /// tool stay the same, SQLite reads the schema at once; after a new migration, only the new file
  /// runs on a kept database, and every file after a mark. The warnings are the same either way.
  /// A migration that fails has its error at its line, and nothing is recorded; a saved database
  /// that cannot be read is ignored.
  @Test func aHistoryRunsStatementByStatementUntilItChanges() throws {
    try write("Models.swift", "struct Note: Table {\n  let id: Int\n  var body = \"\"\n}\n")
    #expect(try strata("migrations", "--migrations", "Migrations", "Models.swift").status == 0)
    let generate = [
      "generate", "--output", "Out/Models.swift", "--migrations", "Migrations", "--registry-output", "Out/Migrations.swift", "Models.swift",
    ]
    #expect(try strata(generate).status == 0)
    let histories = directory.appendingPathComponent("Out/.strata-run-migrations").path
    func saved() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: histories).sorted() }
    let marked = try saved()
    #expect(marked.count == 1 && marked[0].hasSuffix(".checked"), "a mark for a history of CREATEs: \(marked)")
    /// Runs `generate` with the saved histories and again without them: both warn at the model,
    /// alike.
    func expectSameWarningFromSavedHistoryAndFullRun() throws {
      let saved = try strata(generate)
      try FileManager.default.removeItem(atPath: histories)
      let full = try strata(generate)
      #expect(saved.status == 0 && full.status == 0)
      #expect(saved.errors.contains("Models.swift:1:8: warning: the migrations do not match 'Note' yet"), "\(saved.errors)")
      #expect(saved.errors == full.errors)
    }

    // The model changes: the schema is read at once.
    try write("Models.swift", "struct Note: Table {\n  let id: Int\n  var body = \"\"\n  var color = 0\n}\n")
    try expectSameWarningFromSavedHistoryAndFullRun()
    #expect(try saved() == marked)

    // A new migration of CREATEs: they run on their own, and a new mark replaces the old.
    try write("Migrations/0002_archive.sql", "CREATE TABLE archive (id INTEGER PRIMARY KEY);\n")
    try expectSameWarningFromSavedHistoryAndFullRun()
    let remarked = try saved()
    #expect(remarked.count == 1 && remarked[0].hasSuffix(".checked") && remarked != marked, "\(remarked)")
    try FileManager.default.removeItem(atPath: directory.appendingPathComponent("Migrations/0002_archive.sql").path)

    // A migration that writes rows: the history runs on one database, which replaces the mark.
    try write("Migrations/0002_first_note.sql", "INSERT INTO notes (id, body) VALUES (1, 'first');\n")
    try expectSameWarningFromSavedHistoryAndFullRun()
    let first = try saved()
    #expect(first.count == 2 && first[0].hasSuffix(".sqlite") && first[1].hasSuffix(".tables"), "one database per history: \(first)")
    let tables = try String(contentsOfFile: "\(histories)/\(first[1])", encoding: .utf8)
    #expect(tables.hasPrefix("notes\t") && tables.contains("Migrations/0001_create_notes.sql\n"), "\(tables)")

    // A new migration runs alone on the saved database, and the new history replaces the old.
    #expect(try strata("migrations", "--migrations", "Migrations", "Models.swift").status == 0)
    try write("Models.swift", "struct Note: Table {\n  let id: Int\n  var body = \"\"\n}\n")
    try expectSameWarningFromSavedHistoryAndFullRun()
    let second = try saved()
    #expect(second.count == 2 && second != first, "\(second)")

    // A new migration that fails stops the build at its line, whether or not it runs alone.
    try write("Migrations/0009_bad.sql", "INSERT INTO notes (id, missing) VALUES (1, 2);\n")
    let failing = try strata(generate)
    #expect(failing.status == 1)
    #expect(
      failing.errors.contains("Migrations/0009_bad.sql:1:1: error: this migration fails on SQLite: table notes has no column named missing"),
      "\(failing.errors)")
    #expect(try saved() == second)

    // An edited migration runs every file again; so does a saved database that cannot be read.
    let migration = directory.appendingPathComponent("Migrations/0001_create_notes.sql").path
    try FileManager.default.removeItem(atPath: directory.appendingPathComponent("Migrations/0009_bad.sql").path)
    try write("Migrations/0001_create_notes.sql", try String(contentsOfFile: migration, encoding: .utf8) + "INSERT INTO notes (id, missing) VALUES (1, 2);\n")
    let edited = try strata(generate)
    #expect(edited.status == 1)
    #expect(edited.errors.contains("error: this migration fails on SQLite: table notes has no column named missing"), "\(edited.errors)")
    #expect(try saved() == second)
    try write("Migrations/0001_create_notes.sql", try String(contentsOfFile: migration, encoding: .utf8).replacingOccurrences(of: "INSERT INTO notes (id, missing) VALUES (1, 2);\n", with: ""))
    try write("Migrations/0009_more.sql", "CREATE TABLE extra (id INTEGER PRIMARY KEY);\n")
    try Data("not a database".utf8).write(to: URL(fileURLWithPath: "\(histories)/\(second[0])"))
    let unreadable = try strata(generate)
    #expect(unreadable.status == 0, "\(unreadable.errors)")
    #expect(unreadable.errors.contains("Migrations/0009_more.sql:1:1: warning: no model declares this table any more"), "\(unreadable.errors)")
  }

  /// A `CREATE` that SQLite refuses, in a history of `CREATE`s that each run on their own, is an
  /// error at its line, as when every statement runs on one database: in a new history, and in
  /// a file added to one that ran. Nothing is recorded for it.
  @Test func aCreateSQLiteRefusesIsAnErrorAtItsLine() throws {
    try write("Models.swift", "struct Note: Table {\n  let id: Int\n  var body = \"\"\n}\n")
    #expect(try strata("migrations", "--migrations", "Migrations", "Models.swift").status == 0)
    let generate = [
      "generate", "--output", "Out/Models.swift", "--migrations", "Migrations", "--registry-output", "Out/Migrations.swift", "Models.swift",
    ]
    let histories = directory.appendingPathComponent("Out/.strata-run-migrations").path
    func saved() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: histories)) ?? []).sorted() }
    #expect(try strata(generate).status == 0)
    let ran = saved()
    #expect(ran.count == 1 && ran[0].hasSuffix(".checked"), "\(ran)")
    try write("Migrations/0002_extra.sql", "CREATE TABLE extra (id INTEGER PRIMARY KEY);\nCREATE INDEX extra_missing ON extra (missing);\n")
    let error = "Migrations/0002_extra.sql:2:38: error: this migration fails on SQLite: no such column: missing\n"
    let added = try strata(generate)
    #expect(added.status == 1)
    #expect(added.errors == error)
    #expect(saved() == ran)
    try FileManager.default.removeItem(atPath: histories)
    let new = try strata(generate)
    #expect(new.status == 1)
    #expect(new.errors == error)
    #expect(saved().isEmpty)
  }

  @Test func checkedInCodeIsWrittenCheckedAndNotReadAsModels() throws {
    try write("App/Models.swift", "struct Note: Table {\n  let id: Int\n  var body = \"\"\n}\n")
    let migrations = ["migrations", "--root", "App", "--migrations", "App/Migrations", "--code", "App/Generated/StrataModels.swift"]
    let written = try strata(migrations + ["App"])
    #expect(written.status == 0, "\(written.errors)")
    let code = try String(contentsOf: directory.appendingPathComponent("App/Generated/StrataModels.swift"), encoding: .utf8)
    #expect(code.hasPrefix("// Generated by Strata from Models.swift.\n// Do not edit: edit the models, then run `swift package --allow-writing-to-package-directory generate-migrations`.\n"))
    #expect(code.contains("extension Note: StrataCore.PrimaryKeyedTable"))
    // The folder holds the generated file too; it is output, not models, so nothing changes.
    #expect(try strata(migrations + ["--check", "App"]).status == 0)
    let generate = ["generate", "--root", "App", "--checked-in", "App/Generated/StrataModels.swift", "App"]
    #expect(try strata(generate).status == 0)

    try write("App/Models.swift", "struct Note: Table {\n  let id: Int\n  var body = \"\"\n  var color = 0\n}\n")
    let stale = try strata(generate)
    #expect(stale.status == 1)
    #expect(
      stale.errors.contains("App/Generated/StrataModels.swift:1:1: error: this generated file does not match the models; run `swift package --allow-writing-to-package-directory generate-migrations` to update it"),
      "\(stale.errors)")
    let check = try strata(migrations + ["--check", "App"])
    #expect(check.status == 2)
    #expect(check.errors.contains("the generated code App/Generated/StrataModels.swift is out of date"), "\(check.errors)")
  }

  @Test func checkedInCodeHoldsTheSchemaFilesModels() throws {
    try write("App/Schema.strata", "table Note {\n  id Int primary\n  body Text = \"\"\n}\n")
    let migrations = ["migrations", "--root", "App", "--migrations", "App/Migrations", "--code", "App/Generated/StrataModels.swift"]
    #expect(try strata(migrations + ["App"]).status == 0)
    let models = try String(contentsOf: directory.appendingPathComponent("App/Generated/StrataSchemaModels.swift"), encoding: .utf8)
    #expect(models.contains("struct Note: Table, Identifiable {"), "\(models)")
    #expect(models.contains("edit the schema file, then run `swift package --allow-writing-to-package-directory generate-migrations`"))
    // Both generated files are output, not models: reading the folder again changes nothing.
    #expect(try strata(migrations + ["--check", "App"]).status == 0)
    let generate = ["generate", "--root", "App", "--checked-in", "App/Generated/StrataModels.swift", "App"]
    #expect(try strata(generate).status == 0)
    try write("App/Schema.strata", "table Note {\n  id Int primary\n  body Text = \"\"\n  pinned Bool = false\n}\n")
    let stale = try strata(generate)
    #expect(stale.status == 1)
    #expect(stale.errors.contains("App/Generated/StrataModels.swift:1:1: error: this generated file does not match the models"), "\(stale.errors)")
    #expect(stale.errors.contains("App/Generated/StrataSchemaModels.swift:1:1: error: this generated file does not match the models"), "\(stale.errors)")
  }

  @Test func schemaFileErrorsAreDiagnosticsAtTheirLines() throws {
    try write("Schema.strata", "table Note {\n  id Int primary\n  body Txt = \"\"\n  color Text sorted\n}\n")
    let result = try strata("schema", "Schema.strata")
    #expect(result.status == 1)
    #expect(result.errors.contains("Schema.strata:4:14: error: expected a column option"), "\(result.errors)")
    try write("Schema.strata", "table Note {\n  id Int primary\n  body Txt = \"\"\n}\n")
    let translated = try strata("schema", "Schema.strata")
    #expect(translated.status == 1)
    #expect(translated.errors.hasPrefix("Schema.strata:3:3: error: 'body: Txt': no type 'Txt' is declared in this target (did you mean 'Text'?); a column's type is one of"), "\(translated.errors)")
    // The build needs a place for the models a schema file declares.
    try write("Schema.strata", "table Note {\n  id Int primary\n}\n")
    let generate = try strata("generate", "--output", "Out.swift", "Schema.strata")
    #expect(generate.status == 1)
    #expect(generate.errors.contains("schema files (*.strata) need --schema-models-output"), "\(generate.errors)")
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Out.swift").path))
  }

  /// `strata import` writes only new files, and says what is wrong with its input. (An empty file
  /// is an empty SQLite database; the consumer-package test imports a real one.)
  /// Writes an SQLite database file made by `sql`.
  func database(_ name: String, _ sql: String) throws {
    let connection = try SQLiteConnection()
    try connection.execute(sql)
    try connection.execute("VACUUM INTO \(SQLQuoting.string(directory.appendingPathComponent(name).path))")
  }

  @Test func importWritesNewFilesOnly() throws {
    try database("app.sqlite", "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT;")
    let first = try strata("import", "app.sqlite", "--target", "Sources/App")
    #expect(first.status == 0, "\(first.errors)")
    #expect(first.output.contains("Imported 1 tables from app.sqlite (1 unmanaged):"), "\(first.output)")
    // Outside a package, the snapshot and checksums are left to generate-migrations.
    #expect(first.output.contains("Run `swift package --allow-writing-to-package-directory generate-migrations`"), "\(first.output)")
    let baseline = try String(contentsOf: directory.appendingPathComponent("Sources/App/Migrations/0001_imported_schema.sql"), encoding: .utf8)
    #expect(baseline.hasPrefix("-- strata: baseline\n"))

    let again = try strata("import", "app.sqlite", "--target", "Sources/App")
    #expect(again.status == 1)
    #expect(again.errors.contains("Sources/App/ImportedModels.swift exists already; the import writes only new files"), "\(again.errors)")
    let intoMigrations = try strata("import", "app.sqlite", "--target", "Sources/App", "--schema-file")
    #expect(intoMigrations.status == 1)
    #expect(intoMigrations.errors.contains("Sources/App/Migrations has migrations already"), "\(intoMigrations.errors)")

    try write("notes.sqlite", "not a database, just notes")
    let notDatabase = try strata("import", "notes.sqlite", "--target", "Sources/Other")
    #expect(notDatabase.status == 1)
    #expect(notDatabase.errors.contains("notes.sqlite: cannot read it as a SQLite database"), "\(notDatabase.errors)")
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Sources/Other").path))
    let missing = try strata("import", "missing.sqlite", "--target", "Sources/Other")
    #expect(missing.status == 1)
    #expect(missing.errors.contains("missing.sqlite: no such file"), "\(missing.errors)")
    try write("empty.sqlite", "")
    let empty = try strata("import", "empty.sqlite", "--target", "Sources/Other")
    #expect(empty.status == 1)
    #expect(empty.errors.contains("empty.sqlite: the file is empty, so it is not an app's database"), "\(empty.errors)")
    try write("Sources/File.swift", "")
    let intoFile = try strata("import", "app.sqlite", "--target", "Sources/File.swift")
    #expect(intoFile.status == 1)
    #expect(intoFile.errors == "strata: error: --target Sources/File.swift is a file; give the target's directory, such as Sources/App\n", "\(intoFile.errors)")
  }

  /// A row fixed by hand in a table whose UUID key defaults to uuid(), which other tools lack.
  @Test func sqlRunsWithStratasFunctions() throws {
    try database(
      "app.sqlite",
      "CREATE TABLE players (id TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()), name TEXT NOT NULL) STRICT;")
    let insert = try strata("sql", "app.sqlite", "INSERT INTO players (name) VALUES ('Blob'); SELECT length(id), name FROM players;")
    #expect(insert.status == 0, "\(insert.errors)")
    #expect(insert.output == "36|Blob\n")
    // Each argument is its own script: no `;` is needed between them.
    let two = try strata("sql", "app.sqlite", "UPDATE players SET name = 'Blob Jr'", "SELECT name FROM players")
    #expect(two.status == 0, "\(two.errors)")
    #expect(two.output == "Blob Jr\n")
    let refused = try strata("sql", "app.sqlite", "INSERT INTO players (nam) VALUES ('x')")
    #expect(refused.status == 1)
    #expect(refused.errors == "strata: error: app.sqlite: table players has no column named nam\n", "\(refused.errors)")
  }

  /// A column whose name the schema language keeps (`table`) gets a property of another name, in
  /// a package, whose files the import names from the working directory.
  @Test func importIntoAPackageWithASchemaFile() throws {
    try write("Package.swift", "// swift-tools-version:6.1\n")
    try database("app.sqlite", "CREATE TABLE seats (id INTEGER PRIMARY KEY, \"table\" INTEGER NOT NULL, created_at TEXT) STRICT;")
    let result = try strata("import", "app.sqlite", "--target", "Sources/App", "--schema-file")
    #expect(result.status == 0, "\(result.errors)")
    let schema = try String(contentsOf: directory.appendingPathComponent("Sources/App/Schema.strata"), encoding: .utf8)
    #expect(schema.contains(#"tableValue  Int named "table""#), "\(schema)")
    #expect(schema.contains(#"createdAt   Text? named "created_at""#), "\(schema)")
    #expect(!result.output.contains(directory.path), "\(result.output)")
    #expect(result.output.contains("updated the schema snapshot schemas/App.sql"), "\(result.output)")
  }
}

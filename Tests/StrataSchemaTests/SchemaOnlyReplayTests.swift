import Foundation
import Testing

@testable import StrataSchema

/// The planner's fast schema-only replay must read exactly the schema that running the
/// statements gives, and must give up (so that the statements run for real) wherever it cannot.
@Suite struct SchemaOnlyReplayTests {
  /// The schema and the views and triggers, as the introspector reads them.
  func introspect(_ database: SQLiteConnection) throws -> (Schema, [String]) {
    let introspection = try SchemaIntrospector.introspect(database)
    return (introspection.schema, introspection.objects.map { "\($0.kind.rawValue) \($0.name): \($0.sql)" })
  }

  func realRun(_ scripts: [String]) throws -> SQLiteConnection {
    let database = try SQLiteConnection()
    for script in scripts { try database.execute(script) }
    return database
  }

  static let supported: [[String]] = [
    [
      """
      CREATE TABLE "games" (
        "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
        "title" TEXT NOT NULL DEFAULT ''
      ) STRICT;
      CREATE TABLE "players" (
        "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
        "gameID" TEXT NOT NULL REFERENCES "games"("id") ON DELETE CASCADE,
        "name" TEXT NOT NULL DEFAULT '' COLLATE NOCASE,
        "score" INTEGER NOT NULL DEFAULT 0 CHECK ("score" >= 0)
      ) STRICT;
      CREATE INDEX "index_players_on_gameID" ON "players"("gameID");
      CREATE UNIQUE INDEX "players_by_name" ON "players"("name" COLLATE NOCASE DESC, "score") WHERE "score" > 0;
      CREATE INDEX lowered ON players(lower(name));
      """
    ],
    [
      #"CREATE TABLE "odd ""names""" ([the id] INTEGER PRIMARY KEY, `it's` TEXT, "b" TEXT AS (upper(`it's`)) STORED) STRICT, WITHOUT ROWID;"#,
      #"ALTER TABLE "odd ""names""" ADD COLUMN "extra" TEXT NOT NULL DEFAULT 'x'; CREATE INDEX i ON "odd ""names"""("extra");"#,
      "ALTER TABLE \"odd \"\"names\"\"\" RENAME COLUMN \"extra\" TO \"more\"; CREATE VIEW v AS SELECT \"more\" FROM \"odd \"\"names\"\"\";",
      "CREATE TABLE IF NOT EXISTS t (a INTEGER PRIMARY KEY, b INTEGER); CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE t SET b = 1 WHERE a = new.a; END; ALTER TABLE t RENAME TO u; DROP VIEW v;",
    ],
  ]

  @Test(arguments: supported)
  func readsTheSchemaThatRunningGives(_ scripts: [String]) throws {
    let fast = try SQLiteConnection()
    #expect(SchemaOnlyReplay.apply(scripts, to: fast))
    let real = try realRun(scripts)
    let (fastSchema, fastOthers) = try introspect(fast)
    let (realSchema, realOthers) = try introspect(real)
    #expect(fastSchema == realSchema)
    #expect(fastOthers == realOthers)
    // The rows SQLite keeps for automatic indexes have no SQL and need no row here.
    let rows = "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY name"
    #expect(try fast.rows(rows) == real.rows(rows))
  }

  /// Added columns run with their table alone on a scratch database, so a long history of them
  /// does not read the whole schema once per column; the schema is still exactly what running
  /// every statement gives. Columns whose checks SQLite verifies by reading the table's rows (a
  /// `CHECK`, a generated `NOT NULL`) show the scratch path was taken: the tables here have no
  /// rows to read.
  @Test(arguments: [
    [
      #"CREATE TABLE "players" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '') STRICT;"#,
      #"ALTER TABLE "players" ADD COLUMN "score" INTEGER NOT NULL DEFAULT 0 CHECK ("score" >= 0);"#,
      #"CREATE TABLE "teams" ("id" INTEGER PRIMARY KEY); ALTER TABLE Players ADD "teamID" INTEGER REFERENCES "teams"("id");"#,
      #"ALTER TABLE "players" ADD COLUMN "upper" TEXT AS (upper("name")) NOT NULL; CREATE INDEX "by_team" ON "players"("teamID");"#,
      // A table created after the replay first looked up a table's row.
      #"ALTER TABLE "TEAMS" ADD COLUMN "name" TEXT;"#,
    ],
    [
      #"CREATE TABLE "odd ""names""" ([the id] INTEGER PRIMARY KEY, `it's` TEXT) WITHOUT ROWID;"#,
      #"ALTER TABLE "odd ""names""" ADD COLUMN "extra" TEXT NOT NULL DEFAULT 'x' CHECK ("extra" <> ''); -- said"#,
      // A view makes SQLite read the schema again: the column is added on the replayed database.
      #"CREATE VIEW v AS SELECT "extra" FROM "odd ""names"""; ALTER TABLE "odd ""names""" ADD COLUMN "more" TEXT;"#,
    ],
  ])
  func addedColumnsRunWithTheirTableAlone(_ scripts: [String]) throws {
    let fast = try SQLiteConnection()
    #expect(SchemaOnlyReplay.apply(scripts, to: fast, scratch: try SQLiteConnection()))
    let real = try realRun(scripts)
    let rows = "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY name"
    #expect(try fast.rows(rows) == real.rows(rows))
    #expect(try introspect(fast).0 == introspect(real).0)
  }

  /// An added column the replay accepts is one that running every statement accepts, with the
  /// same schema; one SQLite refuses makes the replay give up, so the caller runs the statements
  /// for SQLite's error at its line. (On an empty table SQLite accepts a `NOT NULL` column without
  /// a default, a default that is not constant, and a stored generated column: it refuses them
  /// only when the table has rows.)
  @Test(arguments: [
    ("CREATE TABLE t (a INTEGER); ALTER TABLE t ADD COLUMN a TEXT;", false),
    ("CREATE TABLE t (a INTEGER); ALTER TABLE t ADD COLUMN b INTEGER UNIQUE;", false),
    ("CREATE TABLE t (a INTEGER); ALTER TABLE t ADD COLUMN b CHECK (missing > 0);", false),
    ("CREATE TABLE t (a INTEGER); ALTER TABLE t ADD COLUMN b INTEGER NOT NULL;", true),
    ("CREATE TABLE t (a INTEGER); ALTER TABLE t ADD COLUMN b INTEGER DEFAULT (random());", true),
    ("CREATE TABLE t (a INTEGER); ALTER TABLE t ADD COLUMN b AS (a) STORED;", true),
    // Refused only while foreign keys are on, which they are not while a migration runs.
    ("CREATE TABLE t (a INTEGER); ALTER TABLE t ADD COLUMN b INTEGER REFERENCES t(a) DEFAULT 1;", true),
  ])
  func anAddedColumnIsRefusedWhereRunningRefusesIt(_ script: String, runs: Bool) throws {
    let fast = try SQLiteConnection()
    #expect(SchemaOnlyReplay.apply([script], to: fast, scratch: try SQLiteConnection()) == runs)
    let real = try SQLiteConnection()
    try real.execute("PRAGMA foreign_keys = OFF")
    #expect(((try? real.execute(script)) != nil) == runs)
    if runs {
      let rows = "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name"
      #expect(try fast.rows(rows) == real.rows(rows))
    }
  }

  /// A table that held rows before the replay gets its column from SQLite itself, which checks
  /// the rows: a `CHECK` one of them fails stops the replay, one they pass is added.
  @Test func aTableWithRowsHasItsColumnAddedBySQLite() throws {
    func database() throws -> SQLiteConnection {
      let database = try SQLiteConnection()
      try database.execute("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1);")
      return database
    }
    let failing = "ALTER TABLE t ADD COLUMN b INTEGER NOT NULL DEFAULT 0 CHECK (b > 0);"
    #expect(!SchemaOnlyReplay.apply([failing], to: try database(), scratch: try SQLiteConnection()))
    #expect(throws: SQLiteError.self) { try database().execute(failing) }
    let passing = try database()
    #expect(SchemaOnlyReplay.apply(["ALTER TABLE t ADD COLUMN b INTEGER NOT NULL DEFAULT 2 CHECK (b > 0);"], to: passing, scratch: try SQLiteConnection()))
    #expect(try passing.rows("SELECT a, b FROM t").map { [$0["a"], $0["b"]] } == [["1", "2"]])
  }

  /// Statements that touch rows, and statements SQLite would refuse when running them but accept
  /// when only reading its schema: the replay gives up on each.
  @Test(arguments: [
    "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1);",
    "CREATE TABLE t (a INTEGER); DROP TABLE t;",
    "CREATE TABLE t (a INTEGER); CREATE INDEX i ON t(a); DROP INDEX i;",
    "CREATE TABLE t (a INTEGER, b INTEGER); ALTER TABLE t DROP COLUMN b;",
    "CREATE TABLE t AS SELECT 1 AS a;",
    "CREATE TABLE IF NOT EXISTS t AS SELECT 1 AS a;",
    "CREATE VIRTUAL TABLE t USING fts5(a);",
    "CREATE TABLE t (a COLLATE nosuch);",
    "CREATE TABLE t (a INTEGER DEFAULT (?));",
    "CREATE TABLE t (a INTEGER CHECK (nosuch(a)));",
    "CREATE TABLE t (a INTEGER); CREATE INDEX i ON t(nosuch(a));",
    "CREATE TABLE t (a INTEGER); CREATE INDEX t ON t(a);",
    "CREATE TABLE t (a INTEGER); CREATE TABLE T (b INTEGER);",
    "CREATE TABLE sqlite_t (a INTEGER);",
    "CREATE TABLE t (a INTEGER); CREATE INDEX i ON t(missing);",
    "CREATE TABLE t (a INTEGER, CHECK (missing > 0));",
    "CREATE TABLE t (a, a);",
    "CREATE TABLE t (a INTEGER); ALTER TABLE t ADD COLUMN b INTEGER NOT NULL;",
    "CREATE TABLE t (a FOO) STRICT;",
    "CREATE TABLE t (a INTEGER); COMMIT;",
  ])
  func givesUpWhereItCannotTell(_ script: String) throws {
    #expect(!SchemaOnlyReplay.apply([script], to: try SQLiteConnection()))
  }

  @Test func splitsLikeSQLite() {
    let script = """
      -- a comment; with a semicolon
      CREATE TABLE t (a TEXT DEFAULT ';');
      CREATE TRIGGER tr AFTER INSERT ON t BEGIN
        UPDATE t SET a = 'x;y';
        DELETE FROM t WHERE a = "b;c";
      END;
      /* ; */ SELECT 1
      """
    let statements = SQLStatements.split(script)
    #expect(statements.map(\.text.first) == ["C", "C", "S"])
    #expect(statements[1].text.hasSuffix("END;"))
    #expect(statements[2].text == "SELECT 1")
  }

  /// Five thousand tables must not take SQLite's quadratic time; this one test keeps it honest
  /// without timing anything: the fast path must be taken for the generator's own output.
  @Test func theGeneratorsOwnMigrationsTakeTheFastPath() throws {
    let source = (0..<50).map { "struct T\($0): Table { let id: UUID; var parentID: T\(max($0 - 1, 0)).ID?; var name = \"\" }" }
      .joined(separator: "\n")
    let models = try Generator(sources: [("Models.swift", source)]).models()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-fast-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let plan = try MigrationPlanner.plan(models: models, migrations: try MigrationFiles(directory: directory.path, root: nil), moduleName: "App")
    let migration = try #require(plan.newMigration)
    #expect(SchemaOnlyReplay.apply([migration.sql], to: try SQLiteConnection()))
  }
}

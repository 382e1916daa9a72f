import Testing

@testable import StrataSchema

/// The introspector reads a table's constraints by kind, so the planner and the importer never
/// read SQL text again; what it cannot read whole stays as the table wrote it.
@Suite struct IntrospectionTests {
  func table(_ sql: String, named name: String = "t") throws -> TableSchema {
    let database = try SQLiteConnection()
    try database.execute(sql)
    return try #require(try SchemaIntrospector.introspect(database).schema.table(named: name))
  }

  @Test func tableConstraintsAreReadByKind() throws {
    let table = try self.table(
      """
      CREATE TABLE "p" ("x" INTEGER, "y" INTEGER, PRIMARY KEY ("x", "y"));
      CREATE TABLE t (
        a INTEGER, b TEXT, c INTEGER, d INTEGER,
        check(a>=0),
        CONSTRAINT "b not empty" CHECK (length(b) > 0),
        UNIQUE (a, b) ON CONFLICT IGNORE,
        CONSTRAINT pair UNIQUE ("c", [d]),
        FOREIGN KEY (c, d) REFERENCES p (x, y) ON DELETE SET NULL ON UPDATE CASCADE,
        FOREIGN KEY (a, c) REFERENCES p (x, y) DEFERRABLE INITIALLY DEFERRED,
        UNIQUE (b COLLATE NOCASE, a)
      );
      """)
    #expect(
      table.constraints == [
        .check(CheckConstraint(expression: "a >= 0")),
        .check(CheckConstraint(name: "b not empty", expression: "length (b) > 0")),
        .unique(name: nil, columns: ["a", "b"], onConflict: .ignore),
        .unique(name: "pair", columns: ["c", "d"], onConflict: nil),
        .foreignKey(name: nil, columns: ["c", "d"], references: "p", referencedColumns: ["x", "y"], onDelete: .setNull, onUpdate: .cascade),
        .raw("FOREIGN KEY (a, c) REFERENCES p (x, y) DEFERRABLE INITIALLY DEFERRED"),
        .raw("UNIQUE (b COLLATE NOCASE, a)"),
      ])
    #expect(
      table.constraints.map(SQLRenderer.constraint) == [
        "CHECK (a >= 0)",
        #"CONSTRAINT "b not empty" CHECK (length (b) > 0)"#,
        #"UNIQUE ("a", "b") ON CONFLICT IGNORE"#,
        #"CONSTRAINT "pair" UNIQUE ("c", "d")"#,
        #"FOREIGN KEY ("c", "d") REFERENCES "p" ("x", "y") ON DELETE SET NULL ON UPDATE CASCADE"#,
        "FOREIGN KEY (a, c) REFERENCES p (x, y) DEFERRABLE INITIALLY DEFERRED",
        "UNIQUE (b COLLATE NOCASE, a)",
      ])
  }

  /// A key on several columns is the table's first constraint, read from the pragmas.
  @Test func aCompositeKeyIsAConstraint() throws {
    let table = try self.table(#"CREATE TABLE "t" ("x" INTEGER NOT NULL, "y" TEXT NOT NULL, CHECK (x > 0), PRIMARY KEY ("y", "x")) STRICT;"#)
    #expect(table.constraints == [.primaryKey(["y", "x"]), .check(CheckConstraint(expression: "x > 0"))])
    #expect(table.compositePrimaryKey == ["y", "x"])
    #expect(
      SQLRenderer.createTable(table) == """
        CREATE TABLE "t" (
          "x" INTEGER NOT NULL,
          "y" TEXT NOT NULL,
          PRIMARY KEY ("y", "x"),
          CHECK (x > 0)
        ) STRICT;
        """)
  }

  @Test func columnConstraintsKeepTheirNames() throws {
    let table = try self.table(
      """
      CREATE TABLE t (
        a INTEGER CONSTRAINT positive CHECK (a > 0),
        b INTEGER AS (a * 2),
        c INTEGER GENERATED ALWAYS AS (a + 1) STORED,
        d TEXT CHECK (d IN ('x', 'y'))
      );
      """)
    let constraints = table.columns.map(\.otherConstraints)
    #expect(
      constraints == [
        [.check(CheckConstraint(name: "positive", expression: "a > 0"))],
        [.check(CheckConstraint(expression: "d IN ('x', 'y')"))],
      ])
    #expect(
      table.columns.map(SQLRenderer.columnDefinition) == [
        #""a" INTEGER CONSTRAINT "positive" CHECK (a > 0)"#,
        #""d" TEXT CHECK (d IN ('x', 'y'))"#,
      ])
  }

  @Test func generatedColumnsAreReadByKind() throws {
    let details = CreateTableParser(sql: "CREATE TABLE t (a INTEGER, b INTEGER AS (a * 2), c INTEGER GENERATED ALWAYS AS (a + 1) STORED)")
    #expect(details.columns["b"]?.otherConstraints == [.generated(expression: "a * 2", storage: nil)])
    #expect(details.columns["c"]?.otherConstraints == [.generated(expression: "a + 1", storage: .stored)])
    #expect(SQLRenderer.constraint(ColumnConstraint.generated(expression: "a + 1", storage: .stored)) == "GENERATED ALWAYS AS (a + 1) STORED")
  }
}

extension IntrospectionTests {
  /// Views, triggers and virtual tables are read by their kind in `sqlite_schema`, not from
  /// their SQL; a trigger knows its table.
  @Test func objectsAreReadByKind() throws {
    let database = try SQLiteConnection()
    try database.execute(
      """
      CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
      CREATE VIEW "Recent" AS SELECT * FROM notes;
      CREATE TEMP VIEW scratch AS SELECT 1;
      CREATE TRIGGER touch AFTER UPDATE ON notes BEGIN SELECT 1; END;
      CREATE VIRTUAL TABLE search USING fts5(body);
      """)
    let introspection = try SchemaIntrospector.introspect(database)
    #expect(
      introspection.objects == [
        .virtualTable(name: "search", sql: "CREATE VIRTUAL TABLE search USING fts5(body)"),
        .view(name: "Recent", sql: #"CREATE VIEW "Recent" AS SELECT * FROM notes"#),
        .trigger(name: "touch", table: "notes", sql: "CREATE TRIGGER touch AFTER UPDATE ON notes BEGIN SELECT 1; END"),
      ])
    #expect(introspection.dependents.map(\.kind) == [.view, .trigger])
    #expect(introspection.schema.tables.map(\.name) == ["notes"])
  }
}

extension IntrospectionTests {
  /// An index on an expression lists its named columns and says it has expressions; it is never
  /// the models' (conventional), and a column it may use is not dropped with `DROP COLUMN`,
  /// which SQLite refuses then, but by a rebuild that recreates the index as written.
  @Test func expressionIndexesAreTypedAndKept() throws {
    let table = try self.table(
      #"CREATE TABLE t ("id" INTEGER PRIMARY KEY, "name" TEXT, "note" TEXT) STRICT; CREATE INDEX "by_name" ON t (lower("name"), "id");"#)
    #expect(table.indexes == [IndexSchema(name: "by_name", table: "t", columns: ["id"], hasExpressions: true)])

    let files = MigrationFiles(
      directory: "Migrations",
      files: [("0001_step", #"CREATE TABLE "ts" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT, "note" TEXT) STRICT; CREATE INDEX "by_name" ON "ts" (lower("name"), "id");"#)])
    let plan = try MigrationPlanner.plan(
      models: try Generator(sources: [("Models.swift", "struct T: Table { let id: Int; var note: String? }")]).models(),
      migrations: files, moduleName: "App", allowDataLoss: true)
    let sql = try #require(plan.newMigration?.sql)
    #expect(!sql.contains(#"DROP COLUMN "name""#), "\(sql)")
    #expect(sql.contains("rebuild table \"ts\""), "\(sql)")
  }
}

extension IntrospectionTests {
  /// A generated column no model declares is the migrations': a rebuild keeps it, computed
  /// again for every row.
  @Test func aRebuildKeepsAGeneratedColumnNoModelDeclares() throws {
    let files = MigrationFiles(
      directory: "Migrations",
      files: [("0001_step", #"CREATE TABLE "ts" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "x" INTEGER, "g" INTEGER AS ("x" * 2)) STRICT;"#)])
    let models = try Generator(sources: [("Models.swift", "struct T: Table {\n  let id: Int\n  var x = 0\n}\n")]).models()
    let plan = try MigrationPlanner.plan(models: models, migrations: files, moduleName: "App")
    let migration = try #require(plan.newMigration)
    #expect(
      migration.summary == [
        #"rebuild table "ts", copying every row, because column "x" becomes NOT NULL, column "x" changes default from none to 0; rows whose "x" is NULL get the default"#
      ])
    #expect(migration.sql.contains(#"  "g" INTEGER GENERATED ALWAYS AS ("x" * 2)\#n"#), "\(migration.sql)")
    #expect(migration.sql.contains(#"INSERT INTO "strata_new_ts" ("id", "x") SELECT "id", coalesce("x", 0) FROM "ts";"#), "\(migration.sql)")
    let database = try SQLiteConnection()
    try database.execute(files.files[0].sql + #"INSERT INTO "ts" ("x") VALUES (3), (NULL);"#)
    try database.execute("BEGIN; " + migration.sql + " COMMIT;")
    #expect(try database.rows(#"SELECT "g" FROM "ts" ORDER BY "id""#).map { $0["g"] } == ["6", "0"])
  }
}

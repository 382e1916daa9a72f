import Foundation
import Testing

@testable import StrataSchema

/// Composite keys, CHECKs, SQL defaults and partial indexes: what the planner writes when a model
/// gains or changes them, and the errors for what cannot be.
@Suite struct TableConstraintPlanningTests {
  static let scores = """
    CREATE TABLE "scores" ("gameID" INTEGER NOT NULL, "round" INTEGER NOT NULL, "points" INTEGER NOT NULL DEFAULT 0) STRICT;
    """

  /// The `scores` table's model, with `annotations` above it and `more` inside it.
  static func score(_ annotations: String = "", round: String = "Int", more: String = "") -> String {
    """
    \(annotations)
    struct Score: Table {
      var gameID: Int
      var round: \(round)
      var points = 0
    \(more)
    }
    """
  }

  static func migration(_ models: String, after migrations: [String] = [scores]) throws -> String? {
    try UnmanagedTableTests.plan(models, migrations: migrations).newMigration?.sql
  }

  static func errors(_ models: String) -> [String] {
    do {
      _ = try Generator(sources: [("Models.swift", models)]).models()
      return []
    } catch let error as DiagnosticsError {
      return error.diagnostics.map(\.description)
    } catch {
      return ["\(error)"]
    }
  }

  @Test func aKeyOnTwoColumnsRebuildsTheTable() throws {
    let sql = try #require(try Self.migration(Self.score(#"// @PrimaryKey(on: "gameID, round")"#)))
    #expect(sql.contains("its primary key changes"), "\(sql)")
    #expect(sql.contains(#"  PRIMARY KEY ("gameID", "round")"#), "\(sql)")
  }

  @Test func aCheckTheModelDeclaresIsAddedAndAHandWrittenOneIsKept() throws {
    let checked = try #require(try Self.migration(Self.score(#"// @Check(raw: "points >= 0")"#)))
    #expect(checked.contains("its CHECK constraints change"), "\(checked)")
    #expect(checked.contains("  CHECK (points >= 0)\n) STRICT;"), "\(checked)")

    // A CHECK written by hand in a migration, in a model that declares none: the migrations'.
    let handWritten = """
      CREATE TABLE "scores" ("gameID" INTEGER NOT NULL, "round" INTEGER NOT NULL, "points" INTEGER NOT NULL DEFAULT 0, CHECK ("points" >= 0)) STRICT;
      """
    #expect(try Self.migration(Self.score(), after: [handWritten]) == nil)
    // Rebuilt for another reason, the table keeps it, with its operator whole.
    let rebuilt = try #require(try Self.migration(Self.score(round: "Int?"), after: [handWritten]))
    #expect(rebuilt.contains(#"CHECK ("points" >= 0)"#), "\(rebuilt)")

    // So do operators and blob literals that normalized text could have split.
    let odd = #"CREATE TABLE "scores" ("gameID" INTEGER NOT NULL, "round" INTEGER NOT NULL, "points" INTEGER NOT NULL DEFAULT 0, CHECK ("points" <> -1 AND ("gameID" || '') != X'00' AND "round" <= 99)) STRICT;"#
    let oddRebuilt = try #require(try Self.migration(Self.score(round: "Int?"), after: [odd]))
    #expect(oddRebuilt.contains(#"CHECK ("points" <> - 1 AND ("gameID" || '') != X'00' AND "round" <= 99)"#), "\(oddRebuilt)")
  }

  @Test func aColumnWithAnSQLDefaultIsAddedByARebuild() throws {
    let sql = try #require(try Self.migration(Self.score(more: "  // @Default(raw: \"CURRENT_TIMESTAMP\")\n  var recordedAt: String")))
    #expect(sql.contains(#""recordedAt" TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP"#), "\(sql)")
    #expect(sql.contains("is not a constant"), "\(sql)")
  }

  @Test func aPartialIndexIsCreatedAndRecreatedWhenItsConditionChanges() throws {
    let model = Self.score(#"// @Index(on: "points", whereRaw: "points > 10")"#)
    let created = try #require(try Self.migration(model))
    #expect(created.contains(#"CREATE INDEX "index_scores_on_points" ON "scores"("points") WHERE points > 10;"#), "\(created)")
    let changed = try #require(try Self.migration(model.replacingOccurrences(of: "points > 10", with: "points > 20"), after: [Self.scores, created]))
    #expect(changed.contains(#"DROP INDEX "index_scores_on_points";"#), "\(changed)")
    #expect(changed.contains("WHERE points > 20;"), "\(changed)")
    #expect(try Self.migration(model, after: [Self.scores, created]) == nil)
  }

  /// A foreign key on two columns is a table constraint the models cannot say; a rebuild for
  /// another reason keeps it as written.
  @Test func aRebuildKeepsAForeignKeyOnTwoColumns() throws {
    let base = """
      CREATE TABLE "parents" ("a" INTEGER NOT NULL, "b" INTEGER NOT NULL, PRIMARY KEY ("a", "b")) STRICT;
      CREATE TABLE "children" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "a" INTEGER NOT NULL, "b" INTEGER NOT NULL, "note" TEXT, FOREIGN KEY ("a", "b") REFERENCES "parents"("a", "b") ON DELETE CASCADE) STRICT;
      """
    let models = """
      // @PrimaryKey(on: "a, b")
      struct Parent: Table { var a: Int; var b: Int }
      struct Child: Table, Identifiable { let id: Int; var a: Int; var b: Int; var note: String }
      """
    let sql = try #require(try Self.migration(models, after: [base]))
    #expect(sql.contains("column \"note\" becomes NOT NULL"), "\(sql)")
    #expect(sql.contains(#"  FOREIGN KEY ("a", "b") REFERENCES "parents" ("a", "b") ON DELETE CASCADE"#), "\(sql)")
  }

  @Test(arguments: [
    ("// @PrimaryKey(on: \"a\")\nstruct T: Table {\n  var a: Int\n}\n", "Models.swift:1:16: error: @PrimaryKey(on:) is for a key on several columns"),
    ("// @PrimaryKey(on: \"a, b\")\nstruct T: Table {\n  var a: Int\n  var b: Int?\n}\n", "Models.swift:4:7: error: 'b' is optional, but a primary key's columns cannot be NULL"),
    ("// @PrimaryKey(on: \"a, c\")\nstruct T: Table {\n  var a: Int\n  var b: Int\n}\n", "Models.swift:1:16: error: 'c' is not a column of 'T'"),
    ("// @PrimaryKey(on: \"a, b\")\nstruct T: Table {\n  // @Column(primaryKey: true)\n  var a: Int\n  var b: Int\n}\n", "Models.swift:3:14: error: 'a' is marked as primary key, but @PrimaryKey(on:) gives 'T' a key on several columns"),
    ("struct T: Table {\n  let id: Int\n  // @Default(raw: \"1\")\n  var a = 2\n}\n", "Models.swift:3:15: error: 'a' has a literal initial value, which is its SQL default already"),
    ("// @Check(raw: \"a > 0; DROP TABLE t\")\nstruct T: Table {\n  var a: Int\n}\n", "Models.swift:1:11: error: @Check(raw:) contains ';', which would end the statement"),
    ("// @Check(raw: \"(a > 0\")\nstruct T: Table {\n  var a: Int\n}\n", "Models.swift:1:11: error: @Check(raw:) leaves a parenthesis open"),
    ("struct T: Table {\n  let id: Int\n  // @Index(whereRaw: \"a > 0\")\n  var a: Int\n}\n", "Models.swift:3:6: error: @Index(whereRaw:) makes the index that on: lists partial"),
  ])
  func whatCannotBeIsAnErrorAtItsLine(source: String, expected: String) {
    let errors = Self.errors(source)
    #expect(errors.contains { $0.hasPrefix(expected) }, "\(errors)")
  }

  @Test func checksReachTheMigrationOnlyAsOneExpression() throws {
    // SQLite checks the expression when the planner builds the models' schema.
    let errors = Self.errors("// @Check(raw: \"a >\")\nstruct T: Table {\n  var a: Int\n}\n")
    #expect(errors.isEmpty)
    #expect(throws: DiagnosticsError.self) {
      _ = try Self.migration("// @Check(raw: \"a >\")\nstruct T: Table {\n  var a: Int\n}\n", after: [])
    }
  }
}

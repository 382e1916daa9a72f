import Foundation
import Testing

@testable import StrataSchema

/// The schema language: a `*.strata` file and the equivalent Swift models give the same DDL,
/// migration, snapshot and conformances; its generated models are stable; its errors point at
/// the schema file; no input crashes it or reaches the generated Swift as code.
@Suite struct SchemaLanguageTests {
  static let fixtures = EmitterGoldenTests.fixtures.appendingPathComponent("SchemaLanguage")

  static func source(_ name: String) throws -> (path: String, contents: String) {
    let url = fixtures.appendingPathComponent(name)
    return (url.path, try String(contentsOf: url, encoding: .utf8))
  }

  /// The first migration and snapshot the planner writes for `sources`.
  static func firstMigration(_ sources: [(path: String, contents: String)]) throws -> (sql: String, snapshot: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-language-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let plan = try MigrationPlanner.plan(
      models: try Generator(sources: sources).models(), migrations: try MigrationFiles(directory: directory.path, root: nil),
      moduleName: "App")
    return (try #require(plan.newMigration).sql, plan.snapshot)
  }

  /// Conformances without the header line, which names the model files.
  static func conformancesBody(_ sources: [(path: String, contents: String)]) throws -> String {
    try Generator(sources: sources).conformances().split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
      .joined(separator: "\n")
  }

  /// The schema language's article shows the Library schema file as it is, so the grammar's
  /// reference stays true.
  @Test func theArticleShowsTheLibraryFixture() throws {
    let article = EmitterGoldenTests.fixtures.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/Strata/Strata.docc/SchemaLanguage.md")
    let text = try String(contentsOf: article, encoding: .utf8)
    #expect(text.contains("```\n" + (try Self.source("Library.strata")).contents + "```\n"))
  }

  @Test(arguments: [
    ("Scorekeeper.strata", EmitterGoldenTests.scorekeeperModels.path),
    ("Library.strata", fixtures.appendingPathComponent("Library.swift").path),
    ("Search.strata", fixtures.appendingPathComponent("Search.swift").path),
  ])
  func aSchemaFileAndItsSwiftModelsAgree(schemaFile: String, swiftFile: String) throws {
    let schema = try Self.source(schemaFile)
    let swift = (swiftFile, try String(contentsOfFile: swiftFile, encoding: .utf8))
    #expect(
      SQLRenderer.schema(try Generator(sources: [schema]).models().schema)
        == SQLRenderer.schema(try Generator(sources: [swift]).models().schema))
    let fromSchema = try Self.firstMigration([schema])
    let fromSwift = try Self.firstMigration([swift])
    #expect(fromSchema.sql == fromSwift.sql)
    #expect(fromSchema.snapshot == fromSwift.snapshot)
    #expect(try Self.conformancesBody([schema]) == Self.conformancesBody([swift]))
  }

  @Test func theGeneratedModelsAreStable() throws {
    let schema = try Self.source("Library.strata")
    let generator = Generator(sources: [schema], root: Self.fixtures.path)
    let text = try #require(generator.schemaFileModels())
    try EmitterGoldenTests().expectGolden(text, "SchemaLanguage", "LibraryModels.swift.golden")
    // Byte-identical across runs.
    #expect(Generator(sources: [schema], root: Self.fixtures.path).schemaFileModels() == text)
    // Without schema files there is nothing to write.
    #expect(Generator(sources: [("A.swift", "struct A {}")]).schemaFileModels() == nil)
  }

  @Test func swiftModelsAndASchemaFileMix() throws {
    let swift = ("Models.swift", "import Strata\nstruct Game: Table, Identifiable {\n  let id: UUID\n  var title = \"\"\n}\n")
    let schema = ("Schema.strata", "table Tournament {\n  id Int primary\n  gameID Game.ID\n  name Text = \"\"\n}\n")
    let models = try Generator(sources: [swift, schema]).models()
    #expect(models.tables.map(\.swiftName) == ["Game", "Tournament"])
    #expect(models.tables[1].location.path == "Schema.strata")
    #expect(models.tables[1].location.line == 1)
    #expect(SQLRenderer.schema(models.schema).contains(#""gameID" TEXT NOT NULL REFERENCES "games"("id") ON DELETE CASCADE"#))
    // A table declared in both is an error at the schema file's declaration.
    let twice = ("Schema.strata", "table Game {\n  id Int primary\n}\n")
    let errors = Self.errors([swift, twice])
    #expect(errors.contains { $0.hasPrefix("Schema.strata:1:7: 'Game' is declared twice") }, "\(errors)")
  }

  static func errors(_ sources: [(path: String, contents: String)]) -> [String] {
    do {
      _ = try Generator(sources: sources).models()
      return []
    } catch let error as DiagnosticsError {
      return error.diagnostics.map { "\($0.location.path):\($0.location.line):\($0.location.column): \($0.message)" }
    } catch {
      return ["\(error)"]
    }
  }

  @Test func aSyncedTableInASchemaFileIsTheSameAsInSwift() throws {
    let schema = (
      "Notes.strata",
      """
      table Note synced {
        id UUID primary
        text Text merge with "mergeTexts" = ""
        likes Int merge counter = 0
        rank Int merge max = 0
      }
      """
    )
    let swift = (
      "Notes.swift",
      """
      import Foundation
      // @Synced
      struct Note: Table {
        let id: UUID
        // @Merge(with: "mergeTexts")
        var text = ""
        // @Merge(.counter)
        var likes = 0
        // @Merge(.max)
        var rank = 0
      }
      """
    )
    let fromSchema = try Self.firstMigration([schema])
    #expect(fromSchema.sql.contains(#"CREATE TRIGGER "strata_sync_notes_update_likes""#))
    #expect(fromSchema.sql == (try Self.firstMigration([swift])).sql)
    let code = try Generator(sources: [schema]).conformances()
    #expect(code.contains(#"StrataCore.SyncedColumn("text", merge: .custom(Note.mergeTexts)),"#))
    #expect(code.contains(#"StrataCore.SyncedColumn("likes", merge: .counter),"#))
  }

  @Test(arguments: [
    ("table {\n}\n", "S.strata:1:7: expected the name of the table, found '{'"),
    ("table A\n  id Int\n}\n", "S.strata:2:3: expected 'named \"…\"', 'renamed from \"…\"', 'unmanaged', 'synced' or '{' after the table's name"),
    ("table A {\n  id Int primary\n  name\n}\n", "S.strata:4:1: expected a type (Int, Text, UUID, Game.ID, JSON<…>, …), found '}'"),
    ("table A {\n  id Int primary\n  n Text = \"a\\(b)\"\n}\n", "S.strata:3:12: a default is a plain string literal; interpolation is not allowed"),
    ("table A {\n  id Int primary\n  n Text sorted\n}\n", "S.strata:3:10: expected a column option"),
    ("table A {\n  id Int primary\n  n Text collate french\n}\n", "S.strata:3:18: collate takes nocase, binary or rtrim, found 'french'"),
    ("table A {\n  id Int primary\n  n Int on delete explode\n}\n", "S.strata:3:19: on delete takes cascade, set null"),
    ("table A {\n  id Int primary\n  b Int\n  primary (id, b)\n}\n", "S.strata:2:3: the table's key is its 'primary (…)' line; remove 'primary' here"),
    ("table A {\n  a Int\n  b Int\n  primary (a, c)\n}\n", "S.strata:4:3: 'c' is not a column of 'A'"),
    ("table A {\n  a Int\n  check (a > 0)\n}\n", "S.strata:3:3: a check is SQL: check raw \"score >= 0\""),
    ("table A {\n  a Int\n  check raw \"a > 0; DROP TABLE x\"\n}\n", "S.strata:3:3: @Check(raw:) contains ';', which would end the statement"),
    ("table A {\n  a Int default 3\n}\n", "S.strata:2:17: 'default' takes SQL: default raw \"CURRENT_TIMESTAMP\"; for a value, write '= value'"),
    ("table A {\n  a Int\n  index (a) where \"a > 0\"\n}\n", "S.strata:3:19: a partial index's condition is SQL: where raw \"isArchived = 0\""),
    ("table A {\n  a Int\n  index (a) where raw \"a > 0 -- x\"\n}\n", "S.strata:3:3: @Index(whereRaw:) contains a comment"),
    ("table A {\n  id Int primary\n  index (id, nope)\n}\n", "S.strata:3:3: 'nope' is not a column of 'A'"),
    ("table A {\n  id Int primary\n  index (id nope)\n}\n", "S.strata:3:13: expected ',' or ')' in the list of columns"),
    ("table A {\n  id Int primary\n  x JSON<[String]); DROP TABLE a; //>\n}\n", "S.strata:3:9: JSON takes the Swift type it stores"),
    ("table A {\n  id Int primary\n  n Text = \"a\" = \"b\"\n}\n", "S.strata:3:16: a column has one default"),
    ("index A {}\n", "S.strata:1:1: expected 'table', 'fts5', 'view', 'selection' or 'enum', found 'index'"),
    ("view A {}\n", "S.strata:1:8: a view needs its select: view A as raw \"SELECT …\" { … }"),
    ("fts5 A content {\n}\n", "S.strata:1:16: expected the name of the content table, found '{'"),
    ("view A as \"SELECT 1\" {\n}\n", "S.strata:1:11: a view's select is SQL, marked raw: as raw \"SELECT …\"; found '\"SELECT 1\"'"),
    ("table A {\n  id Int primary\n  trigger \"t\" \"AFTER INSERT\"\n}\n", "S.strata:3:15: expected 'raw' and the SQL after the trigger's name"),
    ("table A tokenize \"x\" {\n}\n", "S.strata:1:9: expected 'named \"…\"', 'renamed from \"…\"', 'unmanaged', 'synced' or '{' after the table's name, found 'tokenize'"),
    ("enum E { a, b }\n", "S.strata:1:8: an enum declares its raw type"),
    ("enum E: Date { a }\n", "S.strata:1:9: an enum's raw type is Int, Text"),
    ("table A {\n  id Int primary\n  n Text\n", "S.strata:4:1: table 'A' has no closing '}'"),
    // Errors the Swift translation finds point at the schema file's line.
    ("table A {\n  id Int primary\n  n Int8 = 300\n}\n", "S.strata:3:3: "),
    ("table A {\n  id Int primary\n  p CGPoint\n}\n", "S.strata:3:3: 'p: CGPoint': no type 'CGPoint' is declared in this target; a column's type is one of Int, Int8…Int64"),
    ("table A {\n  id Int primary\n  n Intt\n}\n", "S.strata:3:3: 'n: Intt': no type 'Intt' is declared in this target (did you mean 'Int'?); a column's type is one of Int"),
    ("table A {\n  id Int primary\n  k Text primary\n}\n", "S.strata:3:3: a table has one primary key; this one has two"),
    ("table A {\n  id Int primary\n  n Text nocase = 1\n}\n", "S.strata:3:3: "),
  ])
  func errorsPointAtTheSchemaFile(source: String, expected: String) {
    let errors = Self.errors([("S.strata", source)])
    #expect(errors.contains { $0.hasPrefix(expected) }, "\(errors)")
  }

  @Test func everyGrammarErrorOfAFileIsReported() {
    let errors = Self.errors([("S.strata", "table A {\n  id Int primary\n  n Text sorted\n}\ntable B {\n  id Int primary\n  m Text = \n}\n")])
    #expect(errors.map { $0.prefix(10) } == ["S.strata:3", "S.strata:8"], "\(errors)")
  }

  @Test func namesAndStringsReachSwiftOnlyAsLiterals() throws {
    let schema = ("S.strata", #"table A named "a\"b" { id Int primary; note Text = "\"); evil(); (\"" named "n\\m" }"#)
    let models = try #require(Generator(sources: [schema]).schemaFileModels())
    #expect(models.contains(#"// @Table("a\"b")"#))
    #expect(models.contains(#"var note: String = "\"); evil(); (\"""#))
    // The rendered Swift reads back to the same names and default.
    let parsed = try Generator(sources: [schema]).models()
    #expect(parsed.tables[0].tableName == "a\"b")
    #expect(parsed.tables[0].columns[1].columnName == "n\\m")
    #expect(SQLRenderer.schema(parsed.schema).contains(#"DEFAULT '"); evil(); ("'"#))
  }

  /// Token soup and mutated schema files: every input is answered with models or diagnostics,
  /// never a crash, and accepted input always renders Swift that reads back without errors.
  @Test func randomInputNeverCrashes() throws {
    var generator = RobustnessTests.SplitMix(state: 0x5EED)
    let words = [
      "table", "selection", "enum", "public", "A", "B", "Game", "id", "name", "Int", "Text", "UUID", "Game.ID", "JSON",
      "<", ">", "[", "]", ":", "?", "{", "}", ";", "\n", "=", "\"x\"", "1", "-", "2.5", ".a", "primary", "unique",
      "indexed", "nocase", "collate", "named", "renamed", "from", "references", "on", "delete", "set", "null", "as",
      "//", "/*", "*/", "\"", "#", "\\", "(", ")", "index",
    ]
    for _ in 0..<2_000 {
      let count = Int(generator.next() % 40)
      let text = (0..<count).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " ")
      _ = Self.errors([("S.strata", text)])
    }
    let library = try Self.source("Library.strata").contents
    var bytes = Array(library.utf8)
    for _ in 0..<300 {
      var mutated = bytes
      for _ in 0..<3 {
        let index = Int(generator.next() % UInt64(mutated.count))
        mutated[index] = UInt8(truncatingIfNeeded: generator.next() % 128)
      }
      _ = Self.errors([("S.strata", String(decoding: mutated, as: UTF8.self))])
      bytes = generator.next() % 10 == 0 ? Array(library.utf8) : bytes
    }
  }
}

extension SchemaLanguageTests {
  /// Every delete action and collation the schema language spells becomes the annotation that
  /// spells it in Swift.
  @Test func everyActionAndCollationIsSpelledInSwift() throws {
    let source = """
      table Owner {
        id Int primary
      }
      table Pet {
        id Int primary
        a Owner.ID on delete cascade
        b Owner.ID? on delete set null
        c Owner.ID = 1 on delete set default
        d Owner.ID on delete restrict
        e Owner.ID on delete no action
        f Text collate binary
        g Text collate rtrim
        h Text nocase
      }
      """
    let text = try #require(Generator(sources: [("S.strata", source)]).schemaFileModels())
    for line in [
      "// @References(Owner.self, onDelete: .cascade)", "// @References(Owner.self, onDelete: .setNull)",
      "// @References(Owner.self, onDelete: .setDefault)", "// @References(Owner.self, onDelete: .restrict)",
      "// @References(Owner.self, onDelete: .noAction)", "// @Column(collate: .binary)", "// @Column(collate: .rtrim)",
      "// @Column(collate: .nocase)",
    ] {
      #expect(text.contains(line), "\(line)\n\(text)")
    }
  }
}

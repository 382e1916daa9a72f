import Testing

@testable import StrataSchema

/// Bad input is an error at its line and column, with a message that says what to do.
@Suite struct DiagnosticsTests {
  /// The errors for a model file, as `line:column: message`.
  func errors(_ source: String) -> [String] {
    do {
      _ = try Generator(sources: [("Models.swift", source)]).models()
      return []
    } catch let error as DiagnosticsError {
      return error.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
    } catch {
      return ["unexpected \(error)"]
    }
  }

  func expectError(_ source: String, _ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let found = errors(source)
    #expect(found.contains { $0.hasPrefix(expected) }, "got \(found)", sourceLocation: sourceLocation)
  }

  @Test func aModelNamedDraftIsRefusedAtItsLine() {
    #expect(errors("""
      struct Draft: Table {
        let id: Int
        var text = ""
      }
      """).first?.hasSuffix(#"a model cannot be named 'Draft': it is the name of every table's generated draft type; rename it (the table's name can stay, with @Table("drafts"))"#) == true)
  }

  @Test func diagnosticsUseThePathLineColumnForm() throws {
    let diagnostic = Diagnostic(.error, "bad", at: StrataSchema.SourceLocation(path: "A/Models.swift", line: 3, column: 7))
    #expect(diagnostic.description == "A/Models.swift:3:7: error: bad")
  }

  /// A new user's slips, each said once and pointing at the fix.
  @Test func misspelledAndMissingModelsSayWhatIsMissing() {
    // A key of a model that is nowhere: declare it (or, for another module's, store the key).
    #expect(errors("struct Task: Table {\n  let id: Int\n  var projectID: Project.ID\n}") == [
      "3:7: 'projectID: Project.ID': no model 'Project' is declared in this target; declare it here as a Table model, or, if it is another module's table, store its key's own type ('var projectID: UUID' or 'Int') without a foreign key, since Strata reads one target's models"
    ])
    // A misspelled model is one error, not a second one where an index lists the property.
    #expect(errors("struct Folder: Table { let id: Int }\n// @Index(on: \"folderID, title\")\nstruct Note: Table {\n  let id: Int\n  var title = \"\"\n  var folderID: Foldr.ID\n}") == [
      "6:7: 'folderID: Foldr.ID': no type 'Foldr' is declared in this target (did you mean 'Folder'?)"
    ])
    // Of two types as near, the one models use most.
    expectError("struct A: Table {\n  let id: Int\n  var due: Dat?\n}", "3:7: 'due: Dat': no type 'Dat' is declared in this target (did you mean 'Date'?)")
    // A content table that is not a model names the type and the nearest model.
    expectError(
      "struct Memos: Table { let id: Int; var text = \"\" }\n// @FTS5(content: Memo.self)\nstruct MemoText: FTS5 {\n  let rowid: Int\n  let text: String\n}",
      "2:10: @FTS5(content: Memo.self) names no Table model of this module (did you mean 'Memos'?)")
  }

  @Test func typesThatCannotBeStored() {
    expectError(
      "struct A: Table {\n  let id: Int\n  var location: CGPoint\n}",
      "3:7: the generator cannot store 'location: CGPoint'; use a raw-value enum, a // @Column(as: …) representation")
    expectError(
      "struct A: Table {\n  let id: Int\n  var tags: [String]\n}",
      "3:7: 'tags: [String]' has no storage of its own; store it as JSON with // @Column(as: JSONRepresentation<[String]>.self)")
    expectError("struct A: Table {\n  let id: Int\n  var big: UInt64\n}", "3:7: the generator cannot store 'big: UInt64'")
    expectError("struct A: Table {\n  let id: Int\n  var pair: (Int, Int)\n}", "3:7: the generator cannot store")
    expectError("struct A: Table {\n  let id: Int\n  var x: Int??\n}", "3:7: 'x' is a nested optional")
    expectError(
      "struct B: Table { let id: Int }\nstruct A: Table {\n  let id: Int\n  var b: B\n}",
      "4:7: 'b' is a whole B; a table column must be a value (use B.ID to reference it)")
  }

  @Test func unknownAndMalformedAnnotations() {
    expectError(
      "struct A: Table {\n  let id: Int\n  // @Colum(\"x\")\n  var name = \"\"\n}",
      "3:6: unknown annotation @Colum; did you mean @Column?; valid annotations: @Table(\"name\"), @Table(schema: \"cache\"), @Column(\"name\")")
    expectError(
      "struct A: Table {\n  let id: Int\n  // @Column(\"x\"\n  var name = \"\"\n}",
      "3:17: malformed annotation '@Column(\"x\"': expected @Name or @Name(arguments)")
    expectError(
      "struct A: Table {\n  let id: Int\n  /// @Column(size: 3)\n  var name = \"\"\n}",
      "3:15: @Column does not take this argument")
    expectError(
      "struct A: Table {\n  let id: Int\n  // @Column(collate: .french)\n  var name = \"\"\n}",
      "3:14: @Column(collate:) takes .nocase, .binary or .rtrim")
    expectError("// @Table(\"x\")\nstruct A {\n  let id: Int\n}", "1:4: @Table on 'A', which does not conform to Table")
    expectError("// @Unique\nstruct A: Table {\n  let id: Int\n}", "1:4: @Unique above a table needs the properties to index: @Unique(on: \"gameID, score\")")
    expectError(
      "struct A: Table {\n  let id: Int\n  // @Column(as: Fancy.self)\n  var x: Int\n}",
      "4:7: unknown representation 'Fancy'; known representations: JSONRepresentation<T>")
    expectError(
      "struct A: Table {\n  let id: Int\n  // @References(Nope.self)\n  var x: Int\n}",
      "3:18: @References needs a table declared in the scanned files: 'Nope' is not one")
  }

  @Test func propertiesThatCannotBeColumns() {
    expectError(
      "struct A: Table {\n  let id: Int\n  // @Ephemeral\n  var cache: [Int]\n}",
      "4:7: @Ephemeral property 'cache' needs a default value")
    expectError("struct A: Table {\n  let id: Int\n  lazy var x = 1\n}", "3:12: lazy property 'x' cannot be a column")
    expectError(
      "struct A: Table {\n  let id: Int\n  @Published var x = 1\n}",
      "3:18: property 'x' has the attribute @Published; a column must be a plain stored property")
    expectError("struct A: Table {\n  let id: Int\n  let kind = 2\n}", "3:7: 'let kind' has an initial value")
    expectError(
      "struct A: Table {\n  let id: Int\n  #if DEBUG\n  var debug = 0\n  #endif\n}",
      "4:7: stored property 'debug' is inside #if")
    expectError("struct A: Table {\n  let id: Int\n  var x = compute()\n}", "3:7: cannot tell the type of 'x'")
    expectError("struct A: Table {\n  let (a, b): (Int, Int)\n}", "2:7: a tuple pattern cannot be a column")
    expectError("struct A: Table {\n  let id: Int?\n}", "2:7: primary key 'id' cannot be optional")
    expectError(
      "struct B: Table { let id: Int }\nstruct A: Table {\n  let id: Int\n  // @References(B.self, onDelete: .setNull)\n  let bID: Int\n}",
      "4:26: 'bID' is not optional, so deleting the referenced row cannot set it to NULL")
  }

  @Test func enumsStoredInTablesHoldOneNonOptionalValuePerCase() {
    expectError(
      "enum Kind: Selection {\n  case link(String)\n  case none\n}",
      "3:8: case 'none' of Selection enum 'Kind' has no associated value; each case stores one value")
    expectError(
      "enum Kind: Selection {\n  case span(Int, Int)\n}",
      "2:8: case 'span' of Selection enum 'Kind' has 2 associated values; each case stores one, so make it a Selection struct of them")
    expectError(
      "enum Kind: Selection {\n  case note(String?)\n}",
      "2:8: case 'note' of Selection enum 'Kind' holds an optional value; a NULL column means another case")
    expectError(
      "struct Game: Table { let id: Int }\nenum Kind: Selection {\n  case game(Game)\n}",
      "3:8: case 'game' of Selection enum 'Kind' holds 'Game', which is not stored as columns")
    expectError("enum Kind: Selection {}", "1:6: Selection enum 'Kind' has no cases")
    expectError("enum Kind: Table {\n  case a(Int)\n}", "1:6: 'Kind' is an enum; a Table must be a struct")
    expectError(
      "struct A: Table {\n  let id: Int\n  var kind: Kind\n  enum Kind: Selection {\n    case a(Int)\n    case b(Int)\n  }\n  var b: Int\n}",
      "8:7: two properties of 'A' map to the column \"b\"")
  }

  @Test func modelsInAttachedDatabases() {
    expectError(
      "// @Table(schema: \"my cache\")\nstruct A: Table {\n  let id: Int\n}",
      "1:11: attached database name \"my cache\" must be letters, digits and underscores")
    expectError(
      "// @Table(schema: \"temp\")\nstruct A: Table {\n  let id: Int\n}",
      "1:11: \"temp\" is SQLite's own name for the temporary database; leave schema: out for the main database")
    // StructuredQueries' `schema: "main"` is the main database.
    #expect(errors("// @Table(\"a\", schema: \"Main\")\nstruct A: Table {\n  let id: Int\n}") == [])
    // The main database and an attached one may each have a table of one name; one database may not.
    #expect(errors("struct Tag: Table { let id: Int }\n// @Table(\"tags\", schema: \"cache\")\nstruct CachedTag: Table {\n  let id: Int\n}") == [])
    expectError(
      "// @Table(\"tags\", schema: \"cache\")\nstruct Tag: Table { let id: Int }\n// @Table(\"Tags\", schema: \"cache\")\nstruct CachedTag: Table {\n  let id: Int\n}",
      "4:8: 'CachedTag' and 'Tag' both map to the table \"Tags\" of the attached database \"cache\"")
    // A reference follows the key's type, not its table's name, which the main database may share.
    expectError(
      "struct Tag: Table { let id: Int }\n// @Table(\"tags\", schema: \"cache\")\nstruct CachedTag: Table {\n  let id: Int\n}\nstruct Post: Table {\n  let id: Int\n  var tagID: CachedTag.ID\n}",
      "8:7: 'tagID' references \"tags\" in the attached database \"cache\", but 'Post' is in the main database")
    expectError(
      "// @Table(\"posts\", schema: \"cache\")\nstruct CachedPost: Table {\n  let id: Int\n  var body = \"\"\n}\nstruct Post: Table {\n  let id: Int\n  var body = \"\"\n}\n// @FTS5(content: CachedPost.self)\nstruct PostText: FTS5 {\n  let rowid: Int\n  var body: String\n}",
      "10:10: @FTS5(content: CachedPost.self) names a table of the attached database \"cache\"; an FTS5 index reads its content from a table of its own database, the main one")
    expectError(
      "struct Game: Table { let id: UUID }\n// @Table(schema: \"cache\")\nstruct Score: Table {\n  let id: Int\n  let gameID: Game.ID\n}",
      "5:7: 'gameID' references \"games\" in the main database, but 'Score' is in the attached database \"cache\"; SQLite enforces references within one database only")
    expectError(
      "// @Table(schema: \"cache\")\n// @View(raw: \"SELECT 1\")\nstruct V: Table {\n  let one: Int\n}",
      "1:11: 'V' is in an attached database, where Strata declares tables only; make its view in a hand-written migration of that database")
  }

  @Test func modelsThatCannotBeModels() {
    expectError("class A: Table {\n  let id = 0\n}", "1:7: 'A' is a class; a Table must be a struct")
    expectError("struct A<T>: Table {\n  let id: Int\n}", "1:8: a Table cannot be generic")
    expectError("private struct A: Table {\n  let id: Int\n}", "1:16: 'A' is private")
    expectError("struct A: Table, Selection {\n  let id: Int\n}", "1:8: 'A' cannot be both a Table and a Selection")
    expectError("struct A: Table {\n  static let x = 0\n}", "1:8: Table 'A' has no stored properties")
    expectError(
      "struct Game: Table { let id: Int }\n// @Table(\"games\")\nstruct Match: Table { let id: Int }",
      "3:8: 'Match' and 'Game' both map to the table \"games\"")
    expectError(
      "struct A: Table {\n  let id: Int\n  // @Column(\"id\")\n  var other: Int\n}",
      "4:7: two properties of 'A' map to the column \"id\"")
    expectError(
      "struct A: Table {\n  let id: Int\n  subscript(i: Int) -> Int { i }\n  var x = 0\n  @objc dynamic what is this\n}",
      "5:")
  }

  @Test func everyErrorOfAFileIsReported() {
    let found = errors(
      """
      struct A: Table {
        let id: Int
        var a: CGPoint
        // @Uniqe
        var b = 0
        lazy var c = 1
      }
      """)
    #expect(found.count == 3)
    #expect(found.map { $0.prefix(2) } == ["3:", "4:", "6:"])
  }
}

@Suite struct UnreadableFilesTests {
  @Test func unreadableInputIsAnErrorOnlyInFilesThatDeclareModels() throws {
    let other = ("Other.swift", "let broken = \"unterminated\nfunc f() {}\n")
    let models = try Generator(sources: [("Models.swift", "struct A: Table { let id: Int }"), other]).models()
    #expect(models.tables.count == 1)
    #expect(models.warnings.map(\.description) == [
      "Other.swift:1:14: warning: unterminated string literal (Strata reads this file for models and may have missed some)"
    ])
    #expect(throws: DiagnosticsError.self) {
      try Generator(sources: [("Models.swift", "struct A: Table { let id: Int }\nlet s = \"open")]).models()
    }
  }
}

/// A column group as a table's primary key: its columns together, never NULL.
@Suite struct GroupKeyDiagnosticsTests {
  let diagnostics = DiagnosticsTests()

  @Test func aGroupKeyCannotBeNullOrReferenced() {
    let key = "struct Key: Selection {\n  let a: Int\n  let b: Int?\n}\n"
    diagnostics.expectError(
      key + "struct T: Table {\n  let id: Key\n  var x = 0\n}", "6:7: 'id' is the primary key, whose columns cannot be NULL, but its 'b' can be")
    diagnostics.expectError(
      key + "struct T: Table {\n  let id: Key?\n  var x = 0\n}", "6:7: 'id' is optional, but a primary key's columns cannot be NULL")
    diagnostics.expectError(
      "struct Key: Selection, Hashable {\n  let a: Int\n  let b: Int\n}\nstruct T: Table, Identifiable {\n  let id: Key\n}\nstruct U: Table {\n  let id: Int\n  var t: T.ID\n}",
      "10:7: 't' references 'T', whose primary key is a column group")
  }
}

/// `// @DatabaseFunction` on what cannot be an SQL function is an error at the function.
@Suite struct DatabaseFunctionDiagnosticsTests {
  let diagnostics = DiagnosticsTests()

  @Test func whatCannotBeAnSQLFunctionSaysWhy() {
    diagnostics.expectError(
      "final class Logger {\n  // @DatabaseFunction\n  func log(_ message: String) {}\n}",
      "3:11: @DatabaseFunction log is an instance method: make it static, or a top-level function")
    diagnostics.expectError(
      "// @DatabaseFunction\nfunc first<T>(_ values: [T]) -> T? { values.first }",
      "2:11: @DatabaseFunction first is generic")
    diagnostics.expectError("// @DatabaseFunction\nfunc fetch() async -> Int { 1 }", "2:14: @DatabaseFunction fetch is async")
    diagnostics.expectError(
      "// @DatabaseFunction\nfunc bump(_ value: inout Int) {}", "2:20: @DatabaseFunction bump: 'inout' parameters cannot be SQL arguments")
    diagnostics.expectError(
      "// @DatabaseFunction\nfunc total(_ values: some Sequence<Int>, _ extra: Int) -> Int { 0 }",
      "2:12: @DatabaseFunction total: an aggregate takes one parameter")
    diagnostics.expectError(
      "// @DatabaseFunction(isDeterministic: 1)\nfunc one() -> Int { 1 }", "1:22: @DatabaseFunction(isDeterministic:) takes true or false")
    // A property is one only when computed, static or top-level.
    diagnostics.expectError(
      "struct A: Table {\n  let id: Int\n  // @DatabaseFunction\n  static var b = 0\n}", "4:14: @DatabaseFunction b is a stored value")
    diagnostics.expectError(
      "struct A: Table {\n  let id: Int\n  // @DatabaseFunction\n  var b: Int { 1 }\n}", "4:7: @DatabaseFunction b is an instance property")
    diagnostics.expectError("// @DatabaseFunction\nlet c: Int = 1", "2:5: @DatabaseFunction c is a stored value")
  }

  @Test func theGeneratedCallKeepsLabelsAndDefaults() throws {
    let code = try Generator(sources: [
      ("Functions.swift", "// @DatabaseFunction(\"concat\")\npublic func concatenated(first: String = \"\", second: String? = nil) -> String { first }")
    ]).conformances()
    #expect(code.contains(#"public nonisolated struct ConcatenatedDatabaseFunction: StrataCore.CustomFunction {"#))
    #expect(code.contains(#"private let function = StrataCore.ScalarFunction("concat", isDeterministic: false) {"#))
    #expect(code.contains(#"first argument1: Argument1 = ("" as String),"#))
    #expect(code.contains(#"second argument2: Argument2 = (nil as String?)"#))
    #expect(code.contains("Argument2.QueryValue.Unwrapped == String"))
    #expect(code.contains("public nonisolated let concatenatedFunction = ConcatenatedDatabaseFunction()"))
  }
}

/// Another table's row held as a group keeps what that table's enums need.
@Suite struct HeldTableSchemaTests {
  @Test func anEnumInsideAHeldTableKeepsItsSingleCaseCheck() throws {
    let source = """
      enum Kind: Selection {
        case note(String)
        case link(String)
      }
      struct Clip: Table {
        var kind: Kind
      }
      struct Post: Table {
        let id: Int
        var clip: Clip?
      }
      """
    let schema = try Generator(sources: [("Models.swift", source)]).models().schema
    let sql = SQLRenderer.schema(schema)
    let post = try #require(sql.components(separatedBy: "CREATE TABLE").first { $0.contains(#""posts""#) })
    #expect(post.contains(#"CONSTRAINT "posts_clip_holds_one_case" CHECK"#), "\(post)")
    #expect(post.contains(#""note" TEXT,"#), "\(post)")
  }
}

import Foundation
import Testing

@testable import StrataSchema

/// Models in, schema and Swift models out: the conventions and the annotations.
@Suite struct TranslationTests {
  func models(_ source: String) throws -> ModelSet {
    try Generator(sources: [("Models.swift", source)]).models()
  }

  func ddl(_ source: String) throws -> String {
    SQLRenderer.schema(try models(source).schema)
  }

  @Test(arguments: [
    ("Game", "games"), ("RemindersList", "remindersLists"), ("Category", "categories"),
    ("Status", "statuses"), ("Person", "people"), ("URLRecord", "urlRecords"), ("Key", "keys"),
    ("Box", "boxes"), ("Match", "matches"), ("Wish", "wishes"), ("ID", "ids"), ("Datum", "data"),
    ("Series", "series"), ("BusStop", "busStops"),
  ])
  func tableNames(type: String, table: String) {
    #expect(Naming.tableName(forType: type) == table)
  }

  @Test func trickyFileTranslates() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/Tricky.swift")
    let set = try Generator(sources: [("Tricky.swift", try String(contentsOf: url, encoding: .utf8))]).models()
    #expect(set.tables.map(\.swiftName) == ["RemindersList", "Reminder"])
    #expect(set.selections.map(\.swiftName) == ["RemindersList.Row"])
    #expect(set.bindableEnums.map(\.swiftName) == ["Kind", "Priority"])
    #expect(set.tables[0].access == .public)
    #expect(
      SQLRenderer.schema(set.schema) == """
        CREATE TABLE "remindersLists" (
          "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
          "title" TEXT NOT NULL COLLATE NOCASE DEFAULT 'Untitled "list" // not a comment',
          "color" INTEGER NOT NULL DEFAULT 4889071,
          "position" INTEGER NOT NULL DEFAULT -1,
          "isShared" INTEGER NOT NULL DEFAULT 0
        ) STRICT;

        CREATE TABLE "reminders" (
          "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
          "remindersListID" TEXT NOT NULL REFERENCES "remindersLists"("id") ON DELETE CASCADE,
          "title" TEXT NOT NULL DEFAULT '',
          "notes" TEXT,
          "dueDate" TEXT,
          "priority" INTEGER,
          "kind" TEXT NOT NULL DEFAULT 'todo',
          "isFlagged" INTEGER NOT NULL DEFAULT 0,
          "tags" TEXT NOT NULL DEFAULT '[]',
          "score" INTEGER NOT NULL DEFAULT 0,
          "width" REAL NOT NULL,
          "height" REAL NOT NULL
        ) STRICT;
        CREATE INDEX "index_reminders_on_remindersListID" ON "reminders"("remindersListID");
        """)
  }

  @Test func keysOfEveryKind() throws {
    let sql = try ddl(
      """
      struct A: Table { let id: Int }
      struct B: Table { let id: UUID; var name: String }
      struct C: Table {
        // @Column(primaryKey: true)
        let code: String
        var id = 0
      }
      struct D: Table { var name = "" }
      """)
    #expect(sql.contains(#""id" INTEGER PRIMARY KEY AUTOINCREMENT"#))
    #expect(sql.contains(#""id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),"#))
    #expect(sql.contains(#""name" TEXT NOT NULL"#))
    #expect(sql.contains(#""code" TEXT PRIMARY KEY NOT NULL,"#))
    #expect(sql.contains(#"CREATE TABLE "ds" (\#n  "name" TEXT NOT NULL DEFAULT ''\#n) STRICT;"#))
    let set = try models("struct D: Table { var name = \"\" }")
    #expect(set.tables[0].primaryKeyIndex == nil)
  }

  @Test func primaryKeyFalseIsNotAKey() throws {
    let set = try models(
      """
      struct Code: Table {
        // @Column(primaryKey: false)
        var id = 0
        // @Column(primaryKey: true)
        let code: String
      }
      """)
    #expect(set.tables[0].primaryKey?.propertyName == "code")
    #expect(set.schema.tables[0].column(named: "id")?.primaryKey == nil)
  }

  @Test func foreignKeysFromIDTypesAndAnnotations() throws {
    let sql = try ddl(
      """
      struct Team: Table, Identifiable { let id: Int }
      struct Member: Table, Identifiable {
        let id: Int
        let teamID: Team.ID
        var mentorTeamID: Team.ID?
        // @References(Team.self, onDelete: .restrict)
        var formerTeamID: Int?
        // @Column("captain_of")
        // @References(Team.self)
        // @Index
        var captainOf: Int?
      }
      """)
    #expect(sql.contains(#""teamID" INTEGER NOT NULL REFERENCES "teams"("id") ON DELETE CASCADE"#))
    #expect(sql.contains(#""mentorTeamID" INTEGER REFERENCES "teams"("id") ON DELETE SET NULL"#))
    #expect(sql.contains(#""formerTeamID" INTEGER REFERENCES "teams"("id") ON DELETE RESTRICT"#))
    #expect(sql.contains(#""captain_of" INTEGER REFERENCES "teams"("id") ON DELETE SET NULL"#))
    #expect(sql.contains(#"CREATE INDEX "index_members_on_teamID" ON "members"("teamID");"#))
    #expect(sql.contains(#"CREATE INDEX "index_members_on_captain_of" ON "members"("captain_of");"#))
  }

  @Test func referencedTablesAreCreatedFirst() throws {
    let set = try models(
      """
      struct Player: Table, Identifiable { let id: UUID; let gameID: Game.ID }
      struct Game: Table, Identifiable { let id: UUID }
      """)
    #expect(set.schema.tables.map(\.name) == ["games", "players"])
    #expect(set.tables.map(\.swiftName) == ["Player", "Game"])
  }

  @Test func storageAndDefaults() throws {
    let sql = try ddl(
      """
      enum Level: Int { case low = 1, mid, high = 10 }
      enum Mood: String { case happy, sad = "blue" }
      typealias Cents = Int
      struct Row: Table {
        let id: Int
        var a: Int8 = -3
        var b = 2.5
        var c: Double = 3
        var d = true
        var e: Data?
        var f: [UInt8]
        var g = Date()
        var h: Level = .mid
        var i = Mood.sad
        var j: Cents = 1_000
        var k: UUID?
        var l = "it's"
        var m: Float = 0.5
        // @Column(as: Date.UnixTimeRepresentation.self)
        var n: Date
        // @Column(as: UUID.BytesRepresentation.self)
        var o: UUID?
        // @Column(as: JSONRepresentation<[String: Int]>.self)
        var p: [String: Int] = [:]
        // @Unique
        var q: String
      }
      """)
    for expected in [
      #""a" INTEGER NOT NULL DEFAULT -3"#, #""b" REAL NOT NULL DEFAULT 2.5"#, #""c" REAL NOT NULL DEFAULT 3.0"#,
      #""d" INTEGER NOT NULL DEFAULT 1"#, #""e" BLOB,"#, #""f" BLOB NOT NULL,"#, #""g" TEXT NOT NULL,"#,
      #""h" INTEGER NOT NULL DEFAULT 2"#, #""i" TEXT NOT NULL DEFAULT 'blue'"#, #""j" INTEGER NOT NULL DEFAULT 1000"#,
      #""k" TEXT,"#, #""l" TEXT NOT NULL DEFAULT 'it''s'"#, #""m" REAL NOT NULL DEFAULT 0.5"#,
      #""n" INTEGER NOT NULL,"#, #""o" BLOB,"#, #""p" TEXT NOT NULL DEFAULT '{}'"#, #""q" TEXT NOT NULL UNIQUE"#,
    ] {
      #expect(sql.contains(expected), "missing \(expected)")
    }
  }

  @Test func ephemeralComputedAndStaticPropertiesAreNotColumns() throws {
    let set = try models(
      """
      struct Note: Table {
        let id: Int
        var body = ""
        // @Ephemeral
        var isSelected = false
        var length: Int { body.count }
        static var count = 0
      }
      """)
    #expect(set.tables[0].columns.map(\.columnName) == ["id", "body"])
  }

  @Test func swiftModelsForTheEmitter() throws {
    let set = try models(
      """
      public struct Item: Table, Identifiable {
        public let id: UUID
        // @Column(as: JSONRepresentation<[String]>.self)
        public var tags: [String]? = nil
        package var count = 0
      }
      package struct Stats: Selection {
        let item: Item?
        let total: Int
      }
      """)
    let item = set.tables[0]
    #expect(item.access == .public)
    #expect(item.columns[1].valueType == "JSONRepresentation<[String]>?")
    #expect(item.columns[1].representation == "JSONRepresentation<[String]>")
    #expect(item.columns[2].defaultExpression == "0")
    #expect(set.selections[0].access == .package)
    #expect(set.selections[0].fields.map(\.valueType) == ["Item?", "Int"])
  }

  @Test func aSelectionOfColumnsIsAlsoTheTableOfACommonTableExpression() throws {
    let set = try models(
      """
      struct Item: Table { let id: Int }
      struct Counter: Selection {
        let value: Int
        // @Column(as: JSONRepresentation<[String]>.self)
        var labels: [String]?
      }
      struct Stats: Selection {
        let item: Item
        let total: Int
      }
      """)
    #expect(set.selections[0].tableName == "counters")
    #expect(set.selections[0].columns.map(\.columnName) == ["value", "labels"])
    #expect(set.selections[0].columns[1].valueType == "JSONRepresentation<[String]>?")
    #expect(set.selections[1].tableName == nil)
    #expect(set.schema.tables.map(\.name) == ["items"])
    let swift = SwiftEmitter.conformances(set, sources: ["Models.swift"])
    #expect(swift.contains("nonisolated extension Counter: StrataCore.GroupSelection {"))
    #expect(swift.contains(#"let labels = StrataCore.TableColumn<Counter, JSONRepresentation<[String]>?>("labels")"#))
    #expect(!swift.contains("extension Stats: StrataCore.GroupSelection"))
  }
}

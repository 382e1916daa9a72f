import Foundation
import Strata
import Testing

/// An enum stored in a table holds exactly one case in every row: the table's CHECK refuses any
/// other row, whoever writes it, and a migration that changes the enum says what the rows it
/// copies become — the property's default case — or stops, naming the row, before it changes
/// anything.
@Suite struct EnumMigrationTests {
  static let v1 = """
    struct Attachment: Table {
      let id: Int
      var title = ""
    }
    """

  static func withKind(_ cases: String, default value: String = "") -> String {
    """
    struct Attachment: Table {
      let id: Int
      var title = ""
      var kind: Kind\(value.isEmpty ? "" : " = " + value)

      enum Kind: Selection {
        \(cases)
      }
    }

    struct Image: Selection {
      var caption = ""
      var url: String
    }
    """
  }

  static let threeCases = "case link(String)\n    case note(String)\n    case image(Image)"

  func rows(_ database: any DatabaseWriter) throws -> [String] {
    try database.read { db in
      try Row.fetchAll(db, sql: "SELECT * FROM attachments ORDER BY id").map { row in
        row.columnNames.map { "\($0)=\(row[$0].map { "\($0)" } ?? "NULL")" }.joined(separator: " ")
      }
    }
  }

  @Test func theTableRefusesARowWithNoCaseTwoCasesOrHalfACase() throws {
    let history = try ModelHistory()
    let migration = try #require(try history.generate(Self.withKind(Self.threeCases)))
    #expect(migration.sql.contains(#"CONSTRAINT "attachments_kind_holds_one_case" CHECK ((CASE WHEN "link" IS NOT NULL THEN 1 ELSE 0 END + CASE WHEN "note" IS NOT NULL THEN 1 ELSE 0 END + CASE WHEN ("caption" IS NOT NULL OR "url" IS NOT NULL) THEN 1 ELSE 0 END) = 1 AND (NOT ("caption" IS NOT NULL OR "url" IS NOT NULL) OR ("caption" IS NOT NULL AND "url" IS NOT NULL)))"#), "\(migration.sql)")
    let database = try openDatabase(.inMemory)
    try database.migrate(try history.migrations)
    try database.write { db in
      try db.execute(sql: "INSERT INTO attachments (id, note) VALUES (1, 'hi')")
      try db.execute(sql: "INSERT INTO attachments (id, caption, url) VALUES (2, 'Cat', 'cat.png')")
    }
    for bad in [
      "INSERT INTO attachments (id) VALUES (3)",
      "INSERT INTO attachments (id, link, note) VALUES (3, 'a', 'b')",
      "INSERT INTO attachments (id, caption) VALUES (3, 'Cat')",
      "UPDATE attachments SET note = NULL WHERE id = 1",
      "UPDATE attachments SET url = NULL WHERE id = 2",
    ] {
      #expect(throws: DatabaseError.self, "\(bad)") { try database.write { try $0.execute(sql: bad) } }
      do {
        try database.write { try $0.execute(sql: bad) }
      } catch {
        #expect("\(error)".contains("CHECK constraint failed: attachments_kind_holds_one_case"), "\(error)")
        #expect(ConstraintViolation(error)?.check == "attachments_kind_holds_one_case")
      }
    }
    #expect(try rows(database) == ["id=1 title= link=NULL note=hi caption=NULL url=NULL", "id=2 title= link=NULL note=NULL caption=Cat url=cat.png"])
  }

  @Test func anEnumAddedToATableWithRowsNeedsADefaultCase() throws {
    let history = try ModelHistory()
    try history.generate(Self.v1)
    let database = try openDatabase(.inMemory)
    try database.migrate(try history.migrations)
    try database.write { try $0.execute(sql: "INSERT INTO attachments (id, title) VALUES (1, 'a'), (2, 'b')") }

    // Without a default, the rows would hold no case: the migration stops, changing nothing.
    try history.generate(Self.withKind(Self.threeCases))
    #expect {
      try database.migrate(try history.migrations)
    } throws: { error in
      "\(error)".contains(
        #"the migration "0002_rebuild_attachments" stopped before changing anything: row 1 of "attachments" would hold no single, whole case of 'kind' (Attachment.Kind) in "link", "note", "caption", "url": the migration changes nothing. Give the property a default case, which such rows get (`var kind: Kind = .someCase(value)`), or update the rows in an earlier migration"#)
    }
    #expect(try rows(database) == ["id=1 title=a", "id=2 title=b"])

    // With a default case, they get it.
    try history.discardNewest()
    let migration = try #require(try history.generate(Self.withKind(Self.threeCases, default: #".note("(none)")"#)))
    #expect(migration.sql.contains(#"SELECT "id", "title", CASE WHEN (CASE WHEN NULL IS NOT NULL THEN 1 ELSE 0 END"#), "\(migration.sql)")
    try database.migrate(try history.migrations)
    #expect(try rows(database) == [
      "id=1 title=a link=NULL note=(none) caption=NULL url=NULL", "id=2 title=b link=NULL note=(none) caption=NULL url=NULL",
    ])
  }

  @Test func aRemovedCaseThatRowsHoldStopsOrBecomesTheDefault() throws {
    let history = try ModelHistory()
    try history.generate(Self.withKind(Self.threeCases))
    let database = try openDatabase(.inMemory)
    try database.migrate(try history.migrations)
    try database.write { db in
      try db.execute(sql: "INSERT INTO attachments (id, link) VALUES (1, 'https://a')")
      try db.execute(sql: "INSERT INTO attachments (id, caption, url) VALUES (2, 'Cat', 'cat.png')")
    }
    let twoCases = "case link(String)\n    case note(String)"
    // Dropping the image's columns deletes their values: consent first.
    #expect(throws: (any Error).self) { try history.generate(Self.withKind(twoCases)) }
    try history.generate(Self.withKind(twoCases), allowDataLoss: true)
    #expect {
      try database.migrate(try history.migrations)
    } throws: { error in
      "\(error)".contains(#"row 2 of "attachments" would hold no single, whole case of 'kind'"#)
    }
    #expect(try rows(database).last == "id=2 title= link=NULL note=NULL caption=Cat url=cat.png")

    try history.discardNewest()
    try history.generate(Self.withKind(twoCases, default: #".note("")"#), allowDataLoss: true)
    try database.migrate(try history.migrations)
    #expect(try rows(database) == ["id=1 title= link=https://a note=NULL", "id=2 title= link=NULL note="])
  }

  @Test func anAddedCaseKeepsEveryRow() throws {
    let history = try ModelHistory()
    try history.generate(Self.withKind("case link(String)\n    case note(String)"))
    let database = try openDatabase(.inMemory)
    try database.migrate(try history.migrations)
    try database.write { db in
      try db.execute(sql: "INSERT INTO attachments (id, link) VALUES (1, 'https://a')")
      try db.execute(sql: "INSERT INTO attachments (id, note) VALUES (2, 'hi')")
    }
    let migration = try #require(try history.generate(Self.withKind(Self.threeCases)))
    #expect(migration.summary.first?.contains("because the cases of 'kind' change") == true, "\(migration.summary)")
    try database.migrate(try history.migrations)
    #expect(try rows(database) == [
      "id=1 title= link=https://a note=NULL caption=NULL url=NULL", "id=2 title= link=NULL note=hi caption=NULL url=NULL",
    ])
  }
}

import Foundation
import Strata
import Testing

/// Enums stored in one table (seed 004's "Single-Table Inheritance with Enums"): each case's value
/// in columns of its own, NULL in the rows of every other case, decoded back into the enum.
@Suite struct EnumTableTests {
  let database: any DatabaseWriter

  init() throws {
    database = try testDatabase()
    try database.write { db in
      try db.seed {
        Attachment.Draft(kind: .link("https://www.pointfree.co"))
        Attachment.Draft(kind: .note("Today was a good day"))
        Attachment.Draft(kind: .image(Attachment.Image(caption: "Blob", url: "blob.jpg")))
      }
    }
  }

  @Test func rowsDecodeAsTheCaseWhoseColumnsHoldAValue() throws {
    expectSQL(
      Attachment.all,
      #"SELECT "attachments"."id", "attachments"."link", "attachments"."note", "attachments"."caption", "attachments"."url" FROM "attachments""#)
    let kinds = try database.read { try Attachment.order(by: \.id).fetchAll($0) }.map(\.kind)
    #expect(kinds == [.link("https://www.pointfree.co"), .note("Today was a good day"), .image(Attachment.Image(caption: "Blob", url: "blob.jpg"))])
    let raw = try database.read { db in
      try Row.fetchAll(db, sql: #"SELECT "link", "note", "caption", "url" FROM "attachments" ORDER BY "id""#).map { row in
        (0..<4).map { row[$0] as String? }
      }
    }
    #expect(raw == [["https://www.pointfree.co", nil, nil, nil], [nil, "Today was a good day", nil, nil], [nil, nil, "Blob", "blob.jpg"]])
  }

  @Test func insertsWriteTheCasesColumnsAndNULLs() throws {
    let insert = Attachment.insert { Attachment.Draft(kind: .note("Hello world!")) }.returning(\.kind)
    expectSQL(
      insert,
      #"INSERT INTO "attachments" ("id", "link", "note", "caption", "url") VALUES (NULL, NULL, 'Hello world!', NULL, NULL) RETURNING "attachments"."link", "attachments"."note", "attachments"."caption", "attachments"."url""#)
    #expect(try database.write { try insert.fetchAll($0) } == [.note("Hello world!")])
  }

  @Test func whereOnTheCase() throws {
    let images = Attachment.where { $0.kind.image.isNot(nil) }.select(\.id)
    expectSQL(
      images,
      #"SELECT "attachments"."id" FROM "attachments" WHERE ("attachments"."caption", "attachments"."url") IS NOT (NULL, NULL)"#)
    #expect(try database.read { try images.fetchAll($0) } == [3])
    let notes = Attachment.where { $0.kind.is(\.note) }.select(\.id)
    expectSQL(notes, #"SELECT "attachments"."id" FROM "attachments" WHERE "attachments"."note" IS NOT NULL"#)
    #expect(try database.read { try notes.fetchAll($0) } == [2])
    #expect(try database.read { try Attachment.where { $0.kind.is(\.image) }.select(\.id).fetchAll($0) } == [3])
    let exact = Attachment.where { $0.kind.is(.note("Today was a good day")) }.select(\.id)
    expectSQL(
      exact,
      #"SELECT "attachments"."id" FROM "attachments" WHERE ("attachments"."link", "attachments"."note", "attachments"."caption", "attachments"."url") IS (NULL, 'Today was a good day', NULL, NULL)"#)
    #expect(try database.read { try exact.fetchAll($0) } == [2])
    let captions = Attachment.where { $0.kind.image.caption.eq("Blob") }.select { $0.kind.image.url }
    expectSQL(
      captions, #"SELECT "attachments"."url" FROM "attachments" WHERE "attachments"."caption" = 'Blob'"#)
    #expect(try database.read { try captions.fetchAll($0) } == ["blob.jpg"])
  }

  @Test func selectingTheEnumACaseOrACasesGroup() throws {
    let kinds = try database.read { try Attachment.order(by: \.id).select(\.kind).fetchAll($0) }
    #expect(kinds.count == 3)
    #expect(kinds[1] == .note("Today was a good day"))
    let images = try database.read { try Attachment.order(by: \.id).select { $0.kind.image }.fetchAll($0) }
    #expect(images == [nil, nil, Attachment.Image(caption: "Blob", url: "blob.jpg")])
    let notes = try database.read { try Attachment.order(by: \.id).select { $0.kind.note }.fetchAll($0) }
    #expect(notes == [nil, "Today was a good day", nil])
  }

  @Test func updatingTheWholeEnumNULLsTheOtherCases() throws {
    let update = Attachment.find(1).update { $0.kind = .note("Good bye world!") }
    expectSQL(
      update,
      #"UPDATE "attachments" SET "link" = NULL, "note" = 'Good bye world!', "caption" = NULL, "url" = NULL WHERE "attachments"."id" = 1"#)
    try database.write { try update.execute($0) }
    #expect(try database.read { try Attachment.find(1).fetchOne($0) }?.kind == .note("Good bye world!"))
  }

  @Test func assigningOneCaseNULLsTheOthers() throws {
    let update = Attachment.find(1).update { $0.kind.note = "Hello, world!" }
    expectSQL(
      update,
      #"UPDATE "attachments" SET "note" = 'Hello, world!', "link" = NULL, "caption" = NULL, "url" = NULL WHERE "attachments"."id" = 1"#)
    let image = Attachment.find(2).update { $0.kind.image = Attachment.Image(caption: "Cat", url: "cat.png") }
    expectSQL(
      image,
      #"UPDATE "attachments" SET "caption" = 'Cat', "url" = 'cat.png', "link" = NULL, "note" = NULL WHERE "attachments"."id" = 2"#)
    let upper = Attachment.find(3).update { $0.kind.link = $0.kind.image.url.upper() }
    expectSQL(
      upper,
      #"UPDATE "attachments" SET "link" = upper("attachments"."url"), "note" = NULL, "caption" = NULL, "url" = NULL WHERE "attachments"."id" = 3"#)
    try database.write { db in
      try update.execute(db)
      try image.execute(db)
      try upper.execute(db)
    }
    let kinds = try database.read { try Attachment.order(by: \.id).fetchAll($0) }.map(\.kind)
    #expect(kinds == [.note("Hello, world!"), .image(Attachment.Image(caption: "Cat", url: "cat.png")), .link("BLOB.JPG")])
  }

  @Test func aCaseSelectedFromExpressions() throws {
    let query = Values(Attachment.Kind.Columns.note("Hello"))
    expectSQL(query, #"SELECT NULL AS "link", 'Hello' AS "note", NULL AS "caption", NULL AS "url""#)
    #expect(try database.read { try query.fetchOne($0) } == .note("Hello"))
    let images = Attachment.where { $0.id.eq(2) }
      .select { Attachment.Kind.Columns.image(Attachment.Image.Columns(caption: $0.kind.note ?? "", url: "x.png")) }
    #expect(try database.read { try images.fetchAll($0) } == [.image(Attachment.Image(caption: "Today was a good day", url: "x.png"))])
  }

  @Test func aRowWithNoCaseIsAnErrorNamingTheColumns() throws {
    try database.write { try $0.execute(sql: #"INSERT INTO "attachments" ("id") VALUES (9)"#) }
    #expect {
      try database.read { try Attachment.find(9).fetchOne($0) }
    } throws: { error in
      "\(error)" == #"""
        column 1 "link" of the result: expected Kind (one of its cases), found NULL in all of its columns ("link", "note", "caption", "url")
          in: SELECT "attachments"."id", "attachments"."link", "attachments"."note", "attachments"."caption", "attachments"."url" FROM "attachments" WHERE "attachments"."id" = ?
        """#
    }
  }
}

/// Groups inside groups, and an optional enum.
@Suite struct NestedGroupTests {
  let database: any DatabaseWriter
  let start = referenceDate

  init() throws {
    database = try testDatabase()
    try database.write { [start] db in
      try db.seed {
        Shipment.Draft(route: Route(origin: "Lyon", bounds: Bounds(lower: 1, upper: 5)), delivery: .deliveredAt(start))
        Shipment.Draft(
          route: Route(origin: "Oslo", bounds: Bounds(lower: 2, upper: 9), detour: Detour(via: "Bergen")),
          delivery: .lost(reason: "storm"))
        Shipment.Draft(route: Route(origin: "Rome", bounds: Bounds(lower: 0, upper: 0)))
      }
    }
  }

  @Test func nestedGroupsAreTheTablesColumns() throws {
    expectSQL(
      Shipment.all,
      #"SELECT "shipments"."id", "shipments"."origin", "shipments"."lower", "shipments"."upper", "shipments"."via", "shipments"."deliveredAt", "shipments"."lost" FROM "shipments""#)
    let shipments = try database.read { try Shipment.order(by: \.id).fetchAll($0) }
    #expect(shipments.map(\.route.bounds.upper) == [5, 9, 0])
    #expect(shipments.map(\.route.detour?.via) == [nil, "Bergen", nil])
    #expect(shipments.map(\.delivery) == [.deliveredAt(start), .lost(reason: "storm"), nil])
    let wide = Shipment.where { $0.route.bounds.upper > 4 }.select { $0.route.origin }
    expectSQL(wide, #"SELECT "shipments"."origin" FROM "shipments" WHERE "shipments"."upper" > 4"#)
    #expect(try database.read { try wide.fetchAll($0) } == ["Lyon", "Oslo"])
    let bounds = try database.read { try Shipment.order(by: \.id).select { $0.route.bounds }.fetchAll($0) }
    #expect(bounds.map(\.lower) == [1, 2, 0])
    let detoured = Shipment.where { $0.route.detour.isNot(nil) }.select(\.id)
    #expect(try database.read { try detoured.fetchAll($0) } == [2])
  }

  @Test func optionalEnums() throws {
    let lost = Shipment.where { $0.delivery.is(\.lost) }.select { $0.delivery.lost }
    expectSQL(lost, #"SELECT "shipments"."lost" FROM "shipments" WHERE "shipments"."lost" IS NOT NULL"#)
    #expect(try database.read { try lost.fetchAll($0) } == ["storm"])
    let undelivered = Shipment.where { $0.delivery.is(nil) }.select(\.id)
    #expect(try database.read { try undelivered.fetchAll($0) } == [3])
  }

  @Test func updatesAssignNestedColumnsAndWholeGroups() throws {
    let update = Shipment.find(1).update {
      $0.route.bounds.upper += 1
      $0.route.detour = Detour(via: "Dijon")
      $0.delivery = nil
    }
    expectSQL(
      update,
      #"UPDATE "shipments" SET "upper" = "shipments"."upper" + 1, "via" = 'Dijon', "deliveredAt" = NULL, "lost" = NULL WHERE "shipments"."id" = 1"#)
    let bounds = Shipment.find(2).update {
      $0.route.bounds.lower = 7
      $0.delivery.lost = "found late"
      $0.route.origin = $0.route.detour.via
    }
    try database.write { db in
      try update.execute(db)
      try bounds.execute(db)
    }
    let shipments = try database.read { try Shipment.order(by: \.id).fetchAll($0) }
    #expect(shipments[0].route.bounds.upper == 6)
    #expect(shipments[0].route.detour?.via == "Dijon")
    #expect(shipments[0].delivery == nil)
    #expect(shipments[1].route.bounds.lower == 7)
    #expect(shipments[1].route.origin == "Bergen")
    #expect(shipments[1].delivery == .lost(reason: "found late"))
  }
}

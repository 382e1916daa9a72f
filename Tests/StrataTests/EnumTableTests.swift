import Foundation
import Strata
import Testing

/// Enums stored in one table (seed 004's "Single-Table Inheritance with Enums"): each case's value
/// in columns of its own, NULL in the rows of every other case, decoded back into the enum.
@Suite struct EnumTableTests {
  @SeedsBuilder func attachmentRows() -> Seeds {
    Attachment.Draft(kind: .link("https://www.pointfree.co"))
    Attachment.Draft(kind: .note("Today was a good day"))
    Attachment.Draft(kind: .image(Attachment.Image(caption: "Blob", url: "blob.jpg")))
  }

  @Test(arguments: TestDialect.all) func rowsDecodeAsTheCaseWhoseColumnsHoldAValue(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: attachmentRows()) { db throws in
      expectSQL(
        Attachment.all,
        #"SELECT "attachments"."id", "attachments"."link", "attachments"."note", "attachments"."caption", "attachments"."url" FROM "attachments""#)
      let kinds = try await Attachment.order(by: \.id).fetchAll(db).map(\.kind)
      #expect(kinds == [.link("https://www.pointfree.co"), .note("Today was a good day"), .image(Attachment.Image(caption: "Blob", url: "blob.jpg"))])
      let columns = sql(#"SELECT "link", "note", "caption", "url" FROM "attachments" ORDER BY "id""#, as: (String?, String?, String?, String?).self)
      let rows: [(String?, String?, String?, String?)] = try await columns.fetchAll(db)
      let raw = rows.map { [$0.0, $0.1, $0.2, $0.3] }
      #expect(raw == [["https://www.pointfree.co", nil, nil, nil], [nil, "Today was a good day", nil, nil], [nil, nil, "Blob", "blob.jpg"]])
    }
  }

  @Test(arguments: TestDialect.all) func insertsWriteTheCasesColumnsAndNULLs(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: attachmentRows()) { db throws in
      let insert = Attachment.insert { Attachment.Draft(kind: .note("Hello world!")) }.returning(\.kind)
      expectSQL(
        insert,
        #"INSERT INTO "attachments" ("id", "link", "note", "caption", "url") VALUES (NULL, NULL, 'Hello world!', NULL, NULL) RETURNING "attachments"."link", "attachments"."note", "attachments"."caption", "attachments"."url""#)
      #expect(try await insert.fetchAll(db) == [.note("Hello world!")])
    }
  }

  @Test(arguments: TestDialect.all) func whereOnTheCase(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: attachmentRows()) { db throws in
      let images = Attachment.where { $0.kind.image.isNot(nil) }.select(\.id)
      expectSQL(
        images,
        #"SELECT "attachments"."id" FROM "attachments" WHERE ("attachments"."caption", "attachments"."url") IS NOT (NULL, NULL)"#)
      #expect(try await images.fetchAll(db) == [3])
      let notes = Attachment.where { $0.kind.is(\.note) }.select(\.id)
      expectSQL(notes, #"SELECT "attachments"."id" FROM "attachments" WHERE "attachments"."link" IS NULL AND "attachments"."note" IS NOT NULL"#)
      #expect(try await notes.fetchAll(db) == [2])
      #expect(try await Attachment.where { $0.kind.is(\.image) }.select(\.id).fetchAll(db) == [3])
      let exact = Attachment.where { $0.kind.is(.note("Today was a good day")) }.select(\.id)
      expectSQL(
        exact,
        #"SELECT "attachments"."id" FROM "attachments" WHERE ("attachments"."link", "attachments"."note", "attachments"."caption", "attachments"."url") IS (NULL, 'Today was a good day', NULL, NULL)"#)
      #expect(try await exact.fetchAll(db) == [2])
      let captions = Attachment.where { $0.kind.image.caption.eq("Blob") }.select { $0.kind.image.url }
      expectSQL(
        captions, #"SELECT "attachments"."url" FROM "attachments" WHERE "attachments"."caption" = 'Blob'"#)
      #expect(try await captions.fetchAll(db) == ["blob.jpg"])
    }
  }

  @Test(arguments: TestDialect.all) func selectingTheEnumACaseOrACasesGroup(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: attachmentRows()) { db throws in
      let kinds = try await Attachment.order(by: \.id).select(\.kind).fetchAll(db)
      #expect(kinds.count == 3)
      #expect(kinds[1] == .note("Today was a good day"))
      let images = try await Attachment.order(by: \.id).select { $0.kind.image }.fetchAll(db)
      #expect(images == [nil, nil, Attachment.Image(caption: "Blob", url: "blob.jpg")])
      let notes = try await Attachment.order(by: \.id).select { $0.kind.note }.fetchAll(db)
      #expect(notes == [nil, "Today was a good day", nil])
    }
  }

  @Test(arguments: TestDialect.all) func updatingTheWholeEnumNULLsTheOtherCases(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: attachmentRows()) { db throws in
      let update = Attachment.find(1).update { $0.kind = .note("Good bye world!") }
      expectSQL(
        update,
        #"UPDATE "attachments" SET "link" = NULL, "note" = 'Good bye world!', "caption" = NULL, "url" = NULL WHERE "attachments"."id" = 1"#)
      try await update.execute(db)
      #expect(try await Attachment.find(1).fetchOne(db)?.kind == .note("Good bye world!"))
    }
  }

  @Test(arguments: TestDialect.all) func assigningOneCaseNULLsTheOthers(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: attachmentRows()) { db throws in
      let update = Attachment.find(1).update { $0.kind.note = "Hello, world!" }
      expectSQL(
        update,
        #"UPDATE "attachments" SET "note" = 'Hello, world!', "link" = NULL, "caption" = NULL, "url" = NULL WHERE "attachments"."id" = 1"#)
      let image = Attachment.find(2).update { $0.kind.image = Attachment.Image(caption: "Cat", url: "cat.png") }
      expectSQL(
        image,
        #"UPDATE "attachments" SET "caption" = 'Cat', "url" = 'cat.png', "link" = NULL, "note" = NULL WHERE "attachments"."id" = 2"#)
      // A case's column is NULL in the other cases' rows, so an expression that reads one says
      // what those rows get: a case cannot be assigned an optional value.
      let upper = Attachment.find(3).update { $0.kind.link = (Attachment.columns.kind.image.url ?? "").upper() }
      expectSQL(
        upper,
        #"UPDATE "attachments" SET "link" = upper(coalesce("attachments"."url", '')), "note" = NULL, "caption" = NULL, "url" = NULL WHERE "attachments"."id" = 3"#)
      try await update.execute(db)
      try await image.execute(db)
      try await upper.execute(db)
      let kinds = try await Attachment.order(by: \.id).fetchAll(db).map(\.kind)
      #expect(kinds == [.note("Hello, world!"), .image(Attachment.Image(caption: "Cat", url: "cat.png")), .link("BLOB.JPG")])
    }
  }

  @Test(arguments: TestDialect.all) func aCaseSelectedFromExpressions(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: attachmentRows()) { db throws in
      let query = Values(Attachment.Kind.Columns.note("Hello"))
      expectSQL(query, #"SELECT NULL AS "link", 'Hello' AS "note", NULL AS "caption", NULL AS "url""#)
      #expect(try await query.fetchOne(db) == .note("Hello"))
      let images = Attachment.where { $0.id.eq(2) }
        .select { Attachment.Kind.Columns.image(Attachment.Image.Columns(caption: $0.kind.note ?? "", url: "x.png")) }
      #expect(try await images.fetchAll(db) == [.image(Attachment.Image(caption: "Today was a good day", url: "x.png"))])
      // A case of a group's value, as StructuredQueries writes it.
      let value = Values(Attachment.Kind.Columns.image(Attachment.Image(caption: "Cat", url: "cat.png")))
      expectSQL(value, #"SELECT NULL AS "link", NULL AS "note", 'Cat' AS "caption", 'cat.png' AS "url""#)
      #expect(try await value.fetchOne(db) == .image(Attachment.Image(caption: "Cat", url: "cat.png")))
    }
  }

  @Test(arguments: TestDialect.all) func aCaseOfAGroupIsAssignedFromExpressions(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: attachmentRows()) { db throws in
      let update = Attachment.find(1).update {
        $0.kind.image = Attachment.Image.Columns(caption: sql("upper('blob')"), url: "https://example.com/blob.png")
      }
      expectSQL(
        update,
        #"UPDATE "attachments" SET "caption" = upper('blob'), "url" = 'https://example.com/blob.png', "link" = NULL, "note" = NULL WHERE "attachments"."id" = 1"#)
      try await update.execute(db)
      // From the row's own columns (an image: no note, and its URL in capitals).
      try await Attachment.find(3).update {
        $0.kind.image = Attachment.Image.Columns(
          caption: Attachment.columns.kind.note ?? "none", url: (Attachment.columns.kind.image.url ?? "").upper())
      }.execute(db)
      let kinds = try await Attachment.order(by: \.id).fetchAll(db).map(\.kind)
      #expect(kinds[0] == .image(Attachment.Image(caption: "BLOB", url: "https://example.com/blob.png")))
      #expect(kinds[2] == .image(Attachment.Image(caption: "none", url: "BLOB.JPG")))
    }
  }

  @Test(arguments: TestDialect.all) func aRowWithNoCaseIsRefusedAndCannotBeRead(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: attachmentRows()) { db throws in
      // The table's CHECK refuses it, whoever writes it.
      await #expect {
        try await sql(#"INSERT INTO "attachments" ("id") VALUES (9)"#).execute(db)
      } throws: { error in
        ConstraintViolation(error)?.kind == .check && "\(error)".contains("attachments_kind_holds_one_case")
      }
      // Columns that hold no case, from anywhere, are a decoding error that names them.
      let placeholder = dialect == .sqlite ? "?" : "$1"
      let empty = sql(#"SELECT 9 AS "id", NULL AS "link", NULL AS "note", NULL AS "caption", NULL AS "url" WHERE 1 = \#(1)"#, as: Attachment.self)
      await #expect {
        try await empty.fetchOne(db)
      } throws: { error in
        "\(error)" == #"""
          column 1 "link" of the result: expected Kind (one of its cases), found NULL in all of its columns ("link", "note", "caption", "url")
            in: SELECT 9 AS "id", NULL AS "link", NULL AS "note", NULL AS "caption", NULL AS "url" WHERE 1 = \#(placeholder)
          """#
      }
    }
  }

}

/// Groups inside groups, and an optional enum.
@Suite struct NestedGroupTests {
  let start = referenceDate

  @SeedsBuilder func shipmentRows() -> Seeds {
    Shipment.Draft(route: Route(origin: "Lyon", bounds: Bounds(lower: 1, upper: 5)), delivery: .deliveredAt(start))
    Shipment.Draft(
      route: Route(origin: "Oslo", bounds: Bounds(lower: 2, upper: 9), detour: Detour(via: "Bergen")),
      delivery: .lost(reason: "storm"))
    Shipment.Draft(route: Route(origin: "Rome", bounds: Bounds(lower: 0, upper: 0)))
  }

  @Test(arguments: TestDialect.all) func nestedGroupsAreTheTablesColumns(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: shipmentRows()) { db throws in
      expectSQL(
        Shipment.all,
        #"SELECT "shipments"."id", "shipments"."origin", "shipments"."lower", "shipments"."upper", "shipments"."via", "shipments"."deliveredAt", "shipments"."lost" FROM "shipments""#)
      let shipments = try await Shipment.order(by: \.id).fetchAll(db)
      #expect(shipments.map(\.route.bounds.upper) == [5, 9, 0])
      #expect(shipments.map(\.route.detour?.via) == [nil, "Bergen", nil])
      #expect(shipments.map(\.delivery) == [.deliveredAt(start), .lost(reason: "storm"), nil])
      let wide = Shipment.where { $0.route.bounds.upper > 4 }.select { $0.route.origin }
      expectSQL(wide, #"SELECT "shipments"."origin" FROM "shipments" WHERE "shipments"."upper" > 4"#)
      #expect(try await wide.fetchAll(db) == ["Lyon", "Oslo"])
      let bounds = try await Shipment.order(by: \.id).select { $0.route.bounds }.fetchAll(db)
      #expect(bounds.map(\.lower) == [1, 2, 0])
      let detoured = Shipment.where { $0.route.detour.isNot(nil) }.select(\.id)
      #expect(try await detoured.fetchAll(db) == [2])
    }
  }

  @Test(arguments: TestDialect.all) func optionalEnums(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: shipmentRows()) { db throws in
      let lost = Shipment.where { $0.delivery.is(\.lost) }.select { $0.delivery.lost }
      expectSQL(lost, #"SELECT "shipments"."lost" FROM "shipments" WHERE "shipments"."deliveredAt" IS NULL AND "shipments"."lost" IS NOT NULL"#)
      #expect(try await lost.fetchAll(db) == ["storm"])
      let undelivered = Shipment.where { $0.delivery.is(nil) }.select(\.id)
      #expect(try await undelivered.fetchAll(db) == [3])
    }
  }

  @Test(arguments: TestDialect.all) func updatesAssignNestedColumnsAndWholeGroups(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: shipmentRows()) { db throws in
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
      try await update.execute(db)
      try await bounds.execute(db)
      let shipments = try await Shipment.order(by: \.id).fetchAll(db)
      #expect(shipments[0].route.bounds.upper == 6)
      #expect(shipments[0].route.detour?.via == "Dijon")
      #expect(shipments[0].delivery == nil)
      #expect(shipments[1].route.bounds.lower == 7)
      #expect(shipments[1].route.origin == "Bergen")
      #expect(shipments[1].delivery == .lost(reason: "found late"))

      // A whole group inside a group, and the whole outer group.
      let whole = Shipment.find(1).update { $0.route.bounds = Bounds(lower: 2, upper: 3) }
      expectSQL(whole, #"UPDATE "shipments" SET "lower" = 2, "upper" = 3 WHERE "shipments"."id" = 1"#)
      try await whole.execute(db)
      try await Shipment.find(2).update { $0.route = Route(origin: "Oslo", bounds: Bounds(lower: 0, upper: 1), detour: nil) }.execute(db)
      let routes = try await Shipment.order(by: \.id).select(\.route).fetchAll(db)
      #expect(routes.map(\.bounds.lower) == [2, 0, 0])
      #expect(routes.map(\.origin) == ["Lyon", "Oslo", "Rome"])
      #expect(routes.map(\.detour?.via) == ["Dijon", nil, nil])
    }
  }
}

/// Groups and enums stored in a table, on the optional side of an outer join: every column
/// optional, the whole group nil when the join finds no row.
@Suite struct OuterJoinedGroupTests {
  @SeedsBuilder func rows() -> Seeds {
    Memo.Draft(body: "plan", timestamps: Timestamps(createdAt: referenceDate, updatedAt: nil))
    Memo.Draft(body: "old", timestamps: Timestamps(createdAt: referenceDate, updatedAt: referenceDate), archive: Archive(archivedAt: referenceDate, reason: "done"))
    Attachment.Draft(kind: .link("https://www.pointfree.co"))
    Attachment.Draft(kind: .note("Today was a good day"))
    Attachment.Draft(kind: .image(Attachment.Image(caption: "Blob", url: "blob.jpg")))
  }

  @Test(arguments: TestDialect.all) func anEnumOnTheOptionalSide(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: rows()) { db throws in
      let query = Memo.order(by: \.id)
        .leftJoin(Attachment.all) { $0.id.eq($1.id).and($1.id > 1) }
        .select { ($0.body, $1.kind.note, $1.kind.image.caption, $1.kind) }
      expectSQL(
        query,
        #"SELECT "memos"."body", "attachments"."note", "attachments"."caption", "attachments"."link", "attachments"."note", "attachments"."caption", "attachments"."url" FROM "memos" LEFT JOIN "attachments" ON ("memos"."id" = "attachments"."id") AND ("attachments"."id" > 1) ORDER BY "memos"."id""#)
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.0) == ["plan", "old"])
      #expect(rows.map(\.1) == [nil, "Today was a good day"])
      #expect(rows.map(\.2) == [nil, nil])
      #expect(rows.map(\.3) == [nil, .note("Today was a good day")])
      let notes = Memo.leftJoin(Attachment.all) { $0.id.eq($1.id) }.where { $1.kind.is(\.note) }.select(\.body)
      #expect(try await notes.fetchAll(db) == ["old"])
    }
  }

  @Test(arguments: TestDialect.all) func aGroupOnTheOptionalSide(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: rows()) { db throws in
      let query = Attachment.order(by: \.id)
        .leftJoin(Memo.all) { $0.id.eq($1.id) }
        .select { ($0.id, $1.timestamps.createdAt, $1.timestamps, $1.archive.reason) }
      let rows = try await query.fetchAll(db)
      #expect(rows.map(\.1) == [referenceDate, referenceDate, nil])
      #expect(rows.map { $0.2?.updatedAt } == [nil, referenceDate, nil])
      #expect(rows.map { $0.2 == nil } == [false, false, true])
      #expect(rows.map(\.3) == [nil, "done", nil])
      let unmatched = Attachment.leftJoin(Memo.all) { $0.id.eq($1.id) }.where { $1.timestamps.createdAt.is(nil) }.select(\.id)
      expectSQL(
        unmatched,
        #"SELECT "attachments"."id" FROM "attachments" LEFT JOIN "memos" ON "attachments"."id" = "memos"."id" WHERE "memos"."createdAt" IS NULL"#)
      #expect(try await unmatched.fetchAll(db) == [3])
    }
  }
}

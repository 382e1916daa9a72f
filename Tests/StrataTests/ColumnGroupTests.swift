import Foundation
import Strata
import Testing

/// Column groups: a `Selection` of columns as a property of a table, stored as its columns under
/// their own names, read and written as one value, queried column by column or as a whole.
@Suite struct ColumnGroupTests {
  let start = referenceDate

  @SeedsBuilder func memoRows() -> Seeds {
    Memo.Draft(body: "plan", timestamps: Timestamps(createdAt: start, updatedAt: nil))
    Memo.Draft(
      body: "old", timestamps: Timestamps(createdAt: start.addingTimeInterval(-86_400), updatedAt: start),
      archive: Archive(archivedAt: start, reason: "done"))
  }

  @Test(arguments: TestDialect.all) func aGroupIsStoredAsItsColumnsAndReadBackAsOneValue(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: memoRows()) { db throws in
      expectSQL(
        Memo.all,
        #"SELECT "memos"."id", "memos"."body", "memos"."createdAt", "memos"."updatedAt", "memos"."archivedAt", "memos"."reason" FROM "memos""#)
      let memos = try await Memo.order(by: \.id).fetchAll(db)
      #expect(memos.map(\.timestamps.createdAt) == [start, start.addingTimeInterval(-86_400)])
      #expect(memos.map(\.timestamps.updatedAt) == [nil, start])
      #expect(memos.map { $0.archive?.reason } == [nil, "done"])
    }
  }

  @Test(arguments: TestDialect.all) func theGroupsColumnsAreTheTablesInQueries(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: memoRows()) { db throws in
      let query = Memo.where { $0.timestamps.updatedAt.is(nil) }.select(\.body)
      expectSQL(query, #"SELECT "memos"."body" FROM "memos" WHERE "memos"."updatedAt" IS NULL"#)
      #expect(try await query.fetchAll(db) == ["plan"])
      let archived = Memo.where { $0.archive.reason.eq("done") }.select(\.body)
      #expect(try await archived.fetchAll(db) == ["old"])
    }
  }

  @Test(arguments: TestDialect.all) func aWholeGroupIsSelectedComparedAndPassedIntoASelection(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: memoRows()) { db throws in
      let groups = try await Memo.order(by: \.id).select(\.timestamps).fetchAll(db)
      #expect(groups.map(\.updatedAt) == [nil, start])
      let same = Memo.where { $0.timestamps.eq(Timestamps(createdAt: start, updatedAt: nil)) }.select(\.body)
      #expect(try await same.fetchAll(db) == [])  // NULL = NULL is not true in SQL
      let compared = Memo.where { $0.timestamps.eq(Timestamps(createdAt: start.addingTimeInterval(-86_400), updatedAt: start)) }
        .select(\.body)
      expectSQL(
        compared,
        #"SELECT "memos"."body" FROM "memos" WHERE ("memos"."createdAt", "memos"."updatedAt") = ('2025-01-01 03:04:05.678', '2025-01-02 03:04:05.678')"#)
      #expect(try await compared.fetchAll(db) == ["old"])
      let rows = try await Memo.order(by: \.id).select { MemoRow.Columns(body: $0.body, timestamps: $0.timestamps) }.fetchAll(db)
      #expect(rows.map(\.timestamps.createdAt) == [start, start.addingTimeInterval(-86_400)])
    }
  }

  @Test(arguments: TestDialect.all) func groupsAreWrittenByUpdatesOfWholeRows(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: memoRows()) { db throws in
      var memo = try await #require(try Memo.find(1).fetchOne(db))
      memo.timestamps.updatedAt = start.addingTimeInterval(60)
      memo.archive = Archive(archivedAt: start, reason: "moved")
      try await Memo.update(memo).execute(db)
      let update = Memo.find(2).update {
        $0.archive.reason = "kept"
        $0.timestamps.updatedAt = nil
      }
      expectSQL(update, #"UPDATE "memos" SET "reason" = 'kept', "updatedAt" = NULL WHERE "memos"."id" = 2"#)
      try await update.execute(db)
      let memos = try await Memo.order(by: \.id).fetchAll(db)
      #expect(memos[0].timestamps.updatedAt == start.addingTimeInterval(60))
      #expect(memos.map { $0.archive?.reason } == ["moved", "kept"])
      #expect(memos[1].timestamps.updatedAt == nil)
    }
  }
}

extension ColumnGroupTests {
  @Test(arguments: TestDialect.all) func aWholeGroupIsAssignedInAnUpdate(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: memoRows()) { db throws in
      let update = Memo.find(1).update {
        $0.timestamps = Timestamps(createdAt: start, updatedAt: start.addingTimeInterval(5))
        $0.body = "replanned"
      }
      expectSQL(
        update,
        #"UPDATE "memos" SET "createdAt" = '2025-01-02 03:04:05.678', "updatedAt" = '2025-01-02 03:04:10.678', "body" = 'replanned' WHERE "memos"."id" = 1"#)
      try await update.execute(db)
      // A column of the group after it, and a Swift value into one column, still go column by column.
      try await Memo.find(2).update {
        $0.timestamps.updatedAt = start
        $0.timestamps.createdAt = $0.timestamps.createdAt
      }.execute(db)
      let memos = try await Memo.order(by: \.id).fetchAll(db)
      #expect(memos.map(\.timestamps.updatedAt) == [start.addingTimeInterval(5), start])
      #expect(memos.map(\.body) == ["replanned", "old"])
      // An optional that holds nil is NULL in every column: the table refuses it for createdAt.
      let missing: Timestamps? = nil
      await #expect {
        try await Memo.find(1).update { $0.timestamps = missing }.execute(db)
      } throws: { error in
        ConstraintViolation(error)?.kind == .notNull && ConstraintViolation(error)?.columns == ["createdAt"]
      }
      #expect(try await Memo.find(1).select(\.timestamps.createdAt).fetchOne(db) == start)
    }
  }
}

extension ColumnGroupTests {
  @Test(arguments: TestDialect.all) func aGroupIsInsertedAsOneColumn(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: memoRows()) { db throws in
      let insert = Memo.insert { $0.timestamps } values: {
        Timestamps(createdAt: start, updatedAt: nil)
        Timestamps(createdAt: start, updatedAt: start)
      }
      expectSQL(
        insert,
        #"INSERT INTO "memos" ("createdAt", "updatedAt") VALUES ('2025-01-02 03:04:05.678', NULL), ('2025-01-02 03:04:05.678', '2025-01-02 03:04:05.678')"#)
      try await insert.execute(db)
      let added = try await Memo.where { $0.id > 2 }.order(by: \.id).fetchAll(db)
      #expect(added.map(\.body) == ["", ""])
      #expect(added.map(\.timestamps.updatedAt) == [nil, start])
    }
  }
}

extension ColumnGroupTests {
  @SeedsBuilder func recordRows() -> Seeds {
    Record.Draft(title: "kept", lifetime: Lifetime(createdAt: start, deletedAt: nil, isDeleted: true))
  }

  @Test(arguments: TestDialect.all) func aGeneratedColumnInsideAGroupIsTheDatabases(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: recordRows()) { db throws in
      // Its value in the draft is not written: the database computes it.
      let insert = Record.insert { Record.Draft(title: "gone", lifetime: Lifetime(createdAt: start, deletedAt: start, isDeleted: false)) }
      expectSQL(
        insert,
        #"INSERT INTO "records" ("id", "title", "createdAt", "deletedAt") VALUES (NULL, 'gone', '2025-01-02 03:04:05.678', '2025-01-02 03:04:05.678')"#)
      try await insert.execute(db)
      #expect(try await Record.order(by: \.id).select(\.lifetime.isDeleted).fetchAll(db) == [false, true])

      // Whole rows, whole groups and upserts leave it out too; a filter reads it.
      var record = try #require(try await Record.find(1).fetchOne(db))
      record.lifetime.deletedAt = start
      try await Record.update(record).execute(db)
      try await Record.find(2).update { $0.lifetime = Lifetime(createdAt: start, deletedAt: nil, isDeleted: true) }.execute(db)
      try await Record.upsert { Record(id: 3, title: "new", lifetime: Lifetime(createdAt: start, deletedAt: nil, isDeleted: true)) }.execute(db)
      let deleted = Record.where { $0.lifetime.isDeleted }.select(\.title)
      expectSQL(deleted, #"SELECT "records"."title" FROM "records" WHERE "records"."isDeleted""#)
      #expect(try await deleted.fetchAll(db) == ["kept"])
      #expect(try await Record.order(by: \.id).fetchAll(db).map(\.lifetime.isDeleted) == [true, false, false])
    }
  }
}

extension ColumnGroupTests {
  @Test(arguments: TestDialect.all) func aTablesRowFromExpressions(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: memoRows()) { db throws in
      // StructuredQueries' `A.Columns(…)`: a whole row of a table, groups included.
      let shouted = Memo.order(by: \.id).select {
        Memo.Columns(id: $0.id + 10, body: $0.body.upper(), timestamps: $0.timestamps, archive: $0.archive)
      }
      expectSQL(
        shouted,
        #"SELECT "memos"."id" + 10 AS "id", upper("memos"."body") AS "body", "memos"."createdAt" AS "createdAt", "memos"."updatedAt" AS "updatedAt", "memos"."archivedAt" AS "archivedAt", "memos"."reason" AS "reason" FROM "memos" ORDER BY "memos"."id""#)
      let memos = try await shouted.fetchAll(db)
      #expect(memos.map(\.id) == [11, 12])
      #expect(memos.map(\.body) == ["PLAN", "OLD"])
      #expect(memos.map { $0.archive?.reason } == [nil, "done"])
      let values = Values(Employee.Columns(id: 9, name: "Zed", managerID: 1, salary: Int64(10)))
      expectSQL(values, #"SELECT 9 AS "id", 'Zed' AS "name", 1 AS "managerID", 10 AS "salary""#)
      let zed = try await values.fetchOne(db)
      #expect(zed?.name == "Zed")
      #expect(zed?.managerID == 1)
      let built = Values(Memo.Columns(id: 1, body: "x", timestamps: Timestamps.Columns(createdAt: start, updatedAt: start), archive: Memo.columns.archive))
      #expect(built.queryFragment.sql.hasPrefix(#"SELECT ? AS "id", ? AS "body", ? AS "createdAt", ? AS "updatedAt", "memos"."archivedAt""#))
    }
  }
}

extension ColumnGroupTests {
  @Test(arguments: TestDialect.all) func aGroupAsThePrimaryKey(_ dialect: TestDialect) async throws {
    let first = MetadataID(recordID: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, recordType: "reminders")
    let second = MetadataID(recordID: first.recordID, recordType: "lists")
    let third = MetadataID(recordID: UUID(uuidString: "00000000-0000-0000-0000-000000000003")!, recordType: "reminders")
    try await dialect.database { db throws in
      try await Metadata.insert {
        Metadata(id: first, userModificationDate: start)
        Metadata.Draft(id: second, userModificationDate: start)
      }.execute(db)
      let find = Metadata.find(first)
      expectSQL(
        find,
        #"SELECT "metadata"."recordID", "metadata"."recordType", "metadata"."userModificationDate" FROM "metadata" WHERE ("metadata"."recordID", "metadata"."recordType") = ('00000000-0000-0000-0000-000000000001', 'reminders')"#)
      #expect(try await find.fetchOne(db)?.id == first)
      let found = Metadata.find([first, second, third]).select(\.id.recordType)
      expectSQL(
        found,
        #"SELECT "metadata"."recordType" FROM "metadata" WHERE ("metadata"."recordID", "metadata"."recordType") IN (VALUES ('00000000-0000-0000-0000-000000000001', 'reminders'), ('00000000-0000-0000-0000-000000000001', 'lists'), ('00000000-0000-0000-0000-000000000003', 'reminders'))"#)
      #expect(try await found.fetchAll(db).sorted() == ["lists", "reminders"])
      #expect(try await Metadata.find([MetadataID]()).fetchCount(db) == 0)
      #expect(try await Metadata.where { $0.id.recordType.eq("lists") }.select(\.id).fetchAll(db) == [second])
      // The key is the two columns together: the same pair again is refused.
      await #expect(throws: (any Error).self) {
        try await Metadata.insert { Metadata(id: first, userModificationDate: start) }.execute(db)
      }

      var row = try #require(try await find.fetchOne(db))
      row.userModificationDate = start.addingTimeInterval(60)
      let update = Metadata.update(row)
      expectSQL(
        update,
        #"UPDATE "metadata" SET "userModificationDate" = '2025-01-02 03:05:05.678' WHERE ("metadata"."recordID", "metadata"."recordType") = ('00000000-0000-0000-0000-000000000001', 'reminders')"#)
      try await update.execute(db)
      let upsert = Metadata.upsert {
        Metadata(id: second, userModificationDate: start.addingTimeInterval(120))
        Metadata(id: third, userModificationDate: start)
      }
      expectSQL(
        upsert,
        #"INSERT INTO "metadata" ("recordID", "recordType", "userModificationDate") VALUES ('00000000-0000-0000-0000-000000000001', 'lists', '2025-01-02 03:06:05.678'), ('00000000-0000-0000-0000-000000000003', 'reminders', '2025-01-02 03:04:05.678') ON CONFLICT ("recordID", "recordType") DO UPDATE SET "userModificationDate" = "excluded"."userModificationDate""#)
      try await upsert.execute(db)
      let dates = try await Metadata.order { ($0.id.recordID, $0.id.recordType) }.fetchAll(db)
      #expect(dates.map(\.id) == [second, first, third])
      #expect(dates.map(\.userModificationDate) == [start.addingTimeInterval(120), start.addingTimeInterval(60), start])
      try await Metadata.delete(row).execute(db)
      #expect(try await Metadata.order { ($0.id.recordID, $0.id.recordType) }.select(\.id).fetchAll(db) == [second, third])
    }
  }
}

extension ColumnGroupTests {
  @Test(arguments: TestDialect.all) func aTablesRowHeldAsAnotherTablesGroup(_ dialect: TestDialect) async throws {
    try await dialect.database { db throws in
      let insert = ParcelScan.insert {
        ParcelScan.Draft(parcel: nil, scannedAt: start)
        ParcelScan.Draft(parcel: Parcel(label: "box", weight: 2, size: Bounds(lower: 1, upper: 3)), scannedAt: start)
      }
      expectSQL(
        insert,
        #"INSERT INTO "parcelScans" ("id", "label", "weight", "lower", "upper", "scannedAt") VALUES (NULL, NULL, NULL, NULL, NULL, '2025-01-02 03:04:05.678'), (NULL, 'box', 2, 1, 3, '2025-01-02 03:04:05.678')"#)
      try await insert.execute(db)
      let parcels = try await ParcelScan.order(by: \.id).fetchAll(db).map(\.parcel)
      #expect(parcels.map { $0?.label } == [nil, "box"])
      #expect(parcels.map { $0?.size.upper } == [nil, 3])

      // Whole, column by column, nil, and in a filter.
      try await ParcelScan.find(1).update { $0.parcel = Parcel(label: "tube", weight: 1, size: Bounds(lower: 0, upper: 9)) }.execute(db)
      let heavier = ParcelScan.find(2).update {
        $0.parcel.weight += 5
        $0.parcel.size.lower = 2
      }
      expectSQL(heavier, #"UPDATE "parcelScans" SET "weight" = "parcelScans"."weight" + 5, "lower" = 2 WHERE "parcelScans"."id" = 2"#)
      try await heavier.execute(db)
      let byLabel = ParcelScan.where { $0.parcel.label.eq("box") }.select(\.parcel)
      #expect(try await byLabel.fetchOne(db)??.weight == 7)
      try await ParcelScan.find(2).update { $0.parcel = nil }.execute(db)
      let after = try await ParcelScan.order(by: \.id).select(\.parcel).fetchAll(db)
      #expect(after.map { $0?.label } == ["tube", nil])
      #expect(after.first??.size.lower == 0)
    }
  }
}

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

import Foundation
import Strata
import StrataSync
import Testing

@Suite struct CaptureTests {
  let board = UUID(uuidString: "00000000-0000-0000-0000-00000000000B")!

  @Test func everyWriteIsRecordedWhateverMakesIt() throws {
    try withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      let b = try TestReplica(in: folder, name: "b")
      // Through the builder, through raw SQL, and through another connection to the file.
      try a.database.write { db in
        try Board.insert { Board.Draft(id: board, title: "Plans") }.execute(db)
        try db.execute(sql: "UPDATE boards SET notes = 'from raw SQL' WHERE id = ?", arguments: [board.uuidString.lowercased()])
      }
      let other = try openDatabase(.file(a.path))
      try other.write { db in
        try db.execute(
          sql: "INSERT INTO cards (id, boardID, text) VALUES ('00000000-0000-0000-0000-0000000000c1', ?, 'first')",
          arguments: [board.uuidString.lowercased()])
      }
      let changes = try a.sync.changes()
      #expect(changes.rows.map(\.table).sorted() == ["boards", "cards"])
      try a.send(to: b)
      #expect(try b.contents() == a.contents())
      #expect(try b.contents() == [
        #"boards "00000000-0000-0000-0000-00000000000b", "Plans", NULL, 0, 0, "[]", "from raw SQL""#,
        #"cards "00000000-0000-0000-0000-0000000000c1", "00000000-0000-0000-0000-00000000000b", "first", 0"#,
      ])
      // What b applied is not recorded as b's own write: b's next changes hold the same stamps.
      let echoed = try b.sync.changes()
      #expect(Set(echoed.rows) == Set(changes.rows))
    }
  }

  /// What `SyncClient.run()` pushes after: GRDB's observers hear of the app's writes to the
  /// synced tables, and of a merge's (not of what the capture triggers write into sync's own
  /// tables, which is what the client watched before the fault harness found it never pushed).
  @Test func theWritesToSyncedTablesAreObservable() async throws {
    try await withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      let b = try TestReplica(in: folder, name: "b")
      let (events, continuation) = AsyncStream<Void>.makeStream()
      let observing = a.sync.observeChanges { continuation.yield() }
      defer { observing.cancel() }
      var iterator = events.makeAsyncIterator()
      try await a.database.write { db in try Board.insert { Board.Draft(id: board, title: "Plans") }.execute(db) }
      #expect(await iterator.next() != nil)
      try await a.database.write { db in try db.execute(sql: "UPDATE boards SET title = 'Later'") }
      #expect(await iterator.next() != nil)
      try await b.database.write { db in try Board.insert { Board.Draft(id: UUID(), title: "From b") }.execute(db) }
      try b.send(to: a)
      #expect(await iterator.next() != nil)
      // A write elsewhere is not one.
      try await a.database.write { db in try db.execute(sql: "INSERT INTO localNotes (id, text) VALUES (1, 'local')") }
      try await a.database.write { db in try db.execute(sql: "UPDATE boards SET rank = 1") }
      #expect(await iterator.next() != nil)
    }
  }

  @Test func aTableThatDoesNotSyncRecordsNothing() throws {
    try withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      try a.database.write { db in try LocalNote.insert { LocalNote.Draft(text: "local") }.execute(db) }
      #expect(try a.sync.changes().rows.isEmpty)
    }
  }

  @Test func aSyncedRowsKeyCannotChange() throws {
    try withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      try a.database.write { db in try Board.insert { Board.Draft(id: board, title: "Plans") }.execute(db) }
      #expect(throws: DatabaseError.self) {
        try a.database.write { db in try db.execute(sql: "UPDATE boards SET id = 'other'") }
      }
    }
  }

  @Test func changesSinceACursorHoldOnlyLaterRows() throws {
    try withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      try a.database.write { db in try Board.insert { Board.Draft(id: board, title: "One") }.execute(db) }
      let first = try a.sync.changes()
      #expect(try a.sync.changes(since: first.cursor).rows.isEmpty)
      let second = UUID()
      try a.database.write { db in try Board.insert { Board.Draft(id: second, title: "Two") }.execute(db) }
      let later = try a.sync.changes(since: first.cursor)
      #expect(later.rows.map(\.key) == [.text(second.uuidString.lowercased())])
      // A limit pages through them, earliest first.
      let page = try a.sync.changes(since: .start, limit: 1)
      #expect(page.rows.count == 1)
      #expect(try a.sync.changes(since: page.cursor).rows.count == 1)
    }
  }
}

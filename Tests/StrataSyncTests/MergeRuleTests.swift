import Foundation
import Strata
import StrataSync
import Testing

/// Each merge rule with two or three replicas writing concurrently, then exchanging in both
/// orders: the rows they end with, and what `conflicts()` lists.
@Suite struct MergeRuleTests {
  let board = UUID(uuidString: "00000000-0000-0000-0000-00000000000B")!
  var key: String { board.uuidString.lowercased() }

  /// Two replicas that both have the board, then write `a` and `b` without syncing.
  func concurrently(
    _ folder: URL, initial: Board.Draft? = nil, a writeA: (Database) throws -> Void, b writeB: (Database) throws -> Void
  ) throws -> (TestReplica, TestReplica) {
    let a = try TestReplica(in: folder, name: "a")
    let b = try TestReplica(in: folder, name: "b")
    try a.database.write { db in try Board.insert { initial ?? Board.Draft(id: board, title: "Plans") }.execute(db) }
    try a.send(to: b)
    try a.database.write(writeA)
    // b writes later: in a later millisecond, so that its stamps are later whatever either
    // replica recorded before (within one millisecond, equal clocks go by replica id).
    Thread.sleep(forTimeInterval: 0.002)
    try b.database.write(writeB)
    try a.send(to: b)
    try b.send(to: a)
    #expect(try a.contents() == b.contents())
    return (a, b)
  }

  func board(_ replica: TestReplica) throws -> Board {
    try replica.database.read { db in try #require(try Board.find(board).fetchOne(db)) }
  }

  @Test func theLatestWriteWinsAndTheOtherIsListed() throws {
    try withTemporaryFolder { folder in
      let (a, b) = try concurrently(
        folder,
        a: { db in try db.execute(sql: "UPDATE boards SET title = 'From A'") },
        b: { db in try db.execute(sql: "UPDATE boards SET title = 'From B'") })
      #expect(try board(a).title == "From B")
      let conflicts = try a.sync.conflicts()
      #expect(conflicts.count == 1)
      guard case .concurrentWrites(let column, let values, let kept) = conflicts.first?.kind else {
        Issue.record("no concurrent writes listed")
        return
      }
      #expect(column == "title")
      #expect(values.map(\.value) == [.text("From A"), .text("From B")])
      #expect(kept == .text("From B"))
      #expect(try b.sync.conflicts() == conflicts)
      // A later write settles it, everywhere.
      try a.database.write { db in try db.execute(sql: "UPDATE boards SET title = 'Settled'") }
      try a.send(to: b)
      #expect(try b.sync.conflicts().isEmpty)
      #expect(try board(b).title == "Settled")
    }
  }

  @Test func keepingTheValueAColumnHoldsSettlesItEverywhere() throws {
    try withTemporaryFolder { folder in
      let (a, b) = try concurrently(
        folder,
        a: { db in try db.execute(sql: "UPDATE boards SET title = 'From A'") },
        b: { db in try db.execute(sql: "UPDATE boards SET title = 'From B'") })
      let conflict = try #require(try b.sync.conflicts().first)
      guard case .concurrentWrites(_, _, .text(let kept)) = conflict.kind else {
        Issue.record("no concurrent writes listed")
        return
      }
      try b.sync.keep(conflict)
      #expect(try b.sync.conflicts().isEmpty)
      try b.send(to: a)
      #expect(try a.sync.conflicts().isEmpty)
      #expect(try board(a).title == kept)
      #expect(try a.contents() == b.contents())
    }
  }

  @Test func aWriteOnTopOfAnotherIsNoConflict() throws {
    try withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      let b = try TestReplica(in: folder, name: "b")
      try a.database.write { db in try Board.insert { Board.Draft(id: board, title: "One") }.execute(db) }
      try a.send(to: b)
      try b.database.write { db in try db.execute(sql: "UPDATE boards SET title = 'Two'") }
      try b.send(to: a)
      try a.database.write { db in try db.execute(sql: "UPDATE boards SET title = 'Three'") }
      try a.send(to: b)
      #expect(try board(b).title == "Three")
      #expect(try a.sync.conflicts().isEmpty && b.sync.conflicts().isEmpty)
    }
  }

  @Test func maxMinUnionAndASwiftFunctionCombine() throws {
    try withTemporaryFolder { folder in
      let (a, _) = try concurrently(
        folder,
        a: { db in try db.execute(sql: #"UPDATE boards SET rank = 7, tags = '["red","blue"]', notes = 'call Ann'"#) },
        b: { db in try db.execute(sql: #"UPDATE boards SET rank = 3, tags = '["blue","green"]', notes = 'buy milk'"#) })
      let merged = try board(a)
      #expect(merged.rank == 7)
      #expect(merged.tags == #"["red","blue","green"]"#)
      #expect(merged.notes == "call Ann | buy milk")
      // A later write replaces, whatever the rule: a max column can go down on purpose.
      try a.database.write { db in try db.execute(sql: "UPDATE boards SET rank = 1") }
      #expect(try board(a).rank == 1)
    }
  }

  @Test func aCounterAddsEveryReplicasIncrements() throws {
    try withTemporaryFolder { folder in
      let (a, b) = try concurrently(
        folder, initial: Board.Draft(id: board, title: "Plans", likes: 10),
        a: { db in try db.execute(sql: "UPDATE boards SET likes = likes + 1"); try db.execute(sql: "UPDATE boards SET likes = likes + 1") },
        b: { db in try db.execute(sql: "UPDATE boards SET likes = likes + 5") })
      #expect(try board(a).likes == 17)
      try b.database.write { db in try db.execute(sql: "UPDATE boards SET likes = likes - 3") }
      try b.send(to: a)
      #expect(try board(a).likes == 14)
      #expect(try a.sync.conflicts().isEmpty)
    }
  }

  @Test func aDeleteWinsOverAConcurrentUpdate() throws {
    try withTemporaryFolder { folder in
      let (a, b) = try concurrently(
        folder,
        a: { db in try db.execute(sql: "DELETE FROM boards") },
        b: { db in try db.execute(sql: "UPDATE boards SET title = 'Edited'") })
      #expect(try a.contents().isEmpty)
      #expect(try b.contents().isEmpty)
    }
  }

  @Test func aChildThatArrivesBeforeItsParentWaits() throws {
    try withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      let b = try TestReplica(in: folder, name: "b")
      try a.database.write { db in try Board.insert { Board.Draft(id: board, title: "Plans") }.execute(db) }
      let boardOnly = try a.sync.changes()
      try a.database.write { db in try Card.insert { Card.Draft(boardID: board, text: "first") }.execute(db) }
      let cardOnly = try a.sync.changes(since: boardOnly.cursor)
      try b.sync.apply(cardOnly)
      #expect(try b.contents().isEmpty)
      guard case .waiting(let reason) = try b.sync.conflicts().first?.kind else {
        Issue.record("the card does not wait")
        return
      }
      #expect(reason.hasPrefix("its parent in boards"))
      try b.sync.apply(boardOnly)
      #expect(try b.contents() == a.contents())
      #expect(try b.sync.conflicts().isEmpty)
    }
  }

  @Test func aChildAddedWhileItsParentIsDeletedElsewhereWaitsWithItsValues() throws {
    try withTemporaryFolder { folder in
      let (a, b) = try concurrently(
        folder,
        a: { db in try db.execute(sql: "DELETE FROM boards") },
        b: { db in try Card.insert { Card.Draft(boardID: board, text: "added meanwhile") }.execute(db) })
      #expect(try a.contents().isEmpty)
      #expect(try a.sync.conflicts().map(\.table) == ["cards"])
      #expect(try b.sync.conflicts().map(\.table) == ["cards"])
      // The card is not lost: b still sends it, and it comes back if the board is inserted again.
      #expect(try b.sync.changes().rows.contains { $0.table == "cards" && !$0.isDeleted })
    }
  }

  @Test func aUniqueValueWrittenOnTwoReplicasStaysWithTheRowInsertedFirst() throws {
    try withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      let b = try TestReplica(in: folder, name: "b")
      let first = UUID()
      let second = UUID()
      try a.database.write { db in try Board.insert { Board.Draft(id: first, title: "From A", slug: "plans") }.execute(db) }
      try b.database.write { db in try Board.insert { Board.Draft(id: second, title: "From B", slug: "plans") }.execute(db) }
      let aFirst = try a.sync.changes().rows[0].stamp < b.sync.changes().rows[0].stamp
      try a.send(to: b)
      try b.send(to: a)
      #expect(try a.contents() == b.contents())
      #expect(try a.contents().count == 1)
      #expect(try a.contents()[0].contains(aFirst ? "From A" : "From B"))
      #expect(try b.sync.conflicts().count == 1)
      #expect(try a.sync.conflicts() == b.sync.conflicts())
      // Changing the slug of the row that holds it lets the other in, on every replica.
      let holder = aFirst ? a : b
      try holder.database.write { db in
        try Board.find(aFirst ? first : second).update { $0.slug = "plans-first" }.execute(db)
      }
      try holder.send(to: aFirst ? b : a)
      // Waiting rows are tried again after every apply, and when the app asks, after its write.
      try holder.sync.placeWaitingRows()
      #expect(try a.contents() == b.contents())
      #expect(try a.contents().count == 2)
      #expect(try a.sync.conflicts().isEmpty)
    }
  }

  @Test func aColumnThisReplicaLacksIsKeptAndSentOn() throws {
    try withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      let b = try TestReplica(in: folder, name: "b")
      let c = try TestReplica(in: folder, name: "c")
      try a.database.write { db in try Board.insert { Board.Draft(id: board, title: "Plans") }.execute(db) }
      // A newer app version's column, as a changeset from it carries it.
      var changes = try a.sync.changes()
      changes.rows[0].columns.append(
        ColumnState(name: "color", values: [ColumnValue(value: .text("teal"), stamp: changes.rows[0].stamp, versions: VersionVector(changes.rows[0].stamp))]))
      try b.sync.apply(changes)
      #expect(try b.contents() == a.contents())
      try b.send(to: c)
      #expect(try c.sync.changes().rows[0].columns.contains { $0.name == "color" && $0.values[0].value == .text("teal") })
    }
  }

  @Test func aCounterThisReplicaLacksKeepsEveryShare() throws {
    try withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      let b = try TestReplica(in: folder, name: "b")
      try a.database.write { db in try Board.insert { Board.Draft(id: board, title: "Plans") }.execute(db) }
      let base = try a.sync.changes()
      let stamp = base.rows[0].stamp
      let other = String(repeating: "e", count: 32)
      // A newer app version's counter, incremented on a and on another replica.
      func stars(_ parts: [String: CounterPart]) -> Changeset {
        var changes = base
        let total = parts.values.reduce(0) { $0 + $1.total }
        changes.rows[0].columns.append(
          ColumnState(name: "stars", values: [ColumnValue(value: .integer(total), stamp: stamp, versions: VersionVector())], parts: parts))
        return changes
      }
      try b.sync.apply(stars([stamp.replica: CounterPart(clock: stamp.clock, total: 2)]))
      try b.sync.apply(stars([other: CounterPart(clock: stamp.clock + 5, total: 3)]))
      let kept = try #require(try b.sync.changes().rows[0].columns.first { $0.name == "stars" })
      #expect(kept.parts == [stamp.replica: CounterPart(clock: stamp.clock, total: 2), other: CounterPart(clock: stamp.clock + 5, total: 3)])
      #expect(kept.values.map(\.value) == [.integer(5)])
    }
  }

  @Test func aColumnKeptUntilAMigrationAddsItIsWrittenThen() throws {
    try withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      let b = try TestReplica(in: folder, name: "b")
      try a.database.write { db in try Board.insert { Board.Draft(id: board, title: "Plans") }.execute(db) }
      var changes = try a.sync.changes()
      changes.rows[0].columns.append(
        ColumnState(name: "color", values: [ColumnValue(value: .text("teal"), stamp: changes.rows[0].stamp, versions: VersionVector(changes.rows[0].stamp))]))
      try b.sync.apply(changes)
      // The migration that adds the column, and the app version that syncs it.
      try b.database.write { db in try db.execute(sql: "ALTER TABLE boards ADD COLUMN color TEXT") }
      var tables = StrataSyncedTables.all
      tables[0].columns.append(SyncedColumn("color"))
      let upgraded = try SyncReplica(b.database, tables: tables)
      try upgraded.apply(Changeset(replica: a.sync.id, schemaVersion: "", cursor: .start, rows: []))
      let color = try b.database.read { db in try String.fetchOne(db, sql: "SELECT color FROM boards") }
      #expect(color == "teal")
    }
  }

  @Test func aFullTextIndexFollowsWhatSyncWritesAndHolds() throws {
    try withTemporaryFolder { folder in
      let (a, b) = try concurrently(
        folder,
        a: { db in try db.execute(sql: "DELETE FROM boards") },
        b: { db in try Card.insert { Card.Draft(boardID: board, text: "orphaned meanwhile") }.execute(db) })
      let kept = UUID()
      try a.database.write { db in
        try Board.insert { Board.Draft(id: kept, title: "Kept") }.execute(db)
        try Card.insert { Card.Draft(boardID: kept, text: "searchable words") }.execute(db)
      }
      try a.send(to: b)
      for replica in [a, b] {
        // The card that waits is out of the index with its row; the synced one is in it.
        let found = try replica.database.read { db in
          try String.fetchAll(db, sql: "SELECT text FROM cardTexts WHERE cardTexts MATCH ? ORDER BY rowid", arguments: ["searchable OR orphaned"])
        }
        #expect(found == ["searchable words"])
        // FTS5's integrity check, against the content table, is an INSERT: a write.
        try replica.database.write { db in
          try db.execute(sql: "INSERT INTO cardTexts(cardTexts, rank) VALUES ('integrity-check', 1)")
        }
      }
    }
  }

  @Test func liveQueriesSeeAppliedRows() throws {
    try withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      let b = try TestReplica(in: folder, name: "b")
      let observed = ValueObservation.tracking { db in try Board.all.fetchCount(db) }
      let counts = LockedCounts()
      let cancellable = observed.start(
        in: b.database, scheduling: .async(onQueue: DispatchQueue(label: "observation")), onError: { _ in }, onChange: { counts.append($0) })
      try a.database.write { db in try Board.insert { Board.Draft(id: board, title: "Plans") }.execute(db) }
      try a.send(to: b)
      // Notifications arrive on their queue; wait for the one the apply makes (a minute at most,
      // for a loaded machine).
      let deadline = Date().addingTimeInterval(60)
      while counts.values.last != 1 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
      #expect(counts.values.last == 1)
      cancellable.cancel()
    }
  }
}

final class LockedCounts: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Int] = []
  func append(_ value: Int) { lock.withLock { stored.append(value) } }
  var values: [Int] { lock.withLock { stored } }
}

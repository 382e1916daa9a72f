import Foundation
import Strata
import StrataSync
import Testing

/// The binary format: every value comes back exactly, and bytes that are not a whole changeset
/// are refused with a clear error, never a crash, and nothing applied.
@Suite struct ChangesetFormatTests {
  let stamp = SyncStamp(clock: 117_687_465_492_348_928, replica: "0123456789abcdef0123456789abcdef")

  var sample: Changeset {
    let values: [StoredValue] = [
      .null, .integer(0), .integer(-1), .integer(.min), .integer(.max), .real(-0.0), .real(.greatestFiniteMagnitude),
      .real(.leastNonzeroMagnitude), .text(""), .text("é e\u{301} 🎉 'quoted' \"double\""), .blob([]), .blob([0, 255, 7]),
    ]
    return Changeset(
      replica: stamp.replica, schemaVersion: "0007_add_colors", cursor: SyncCursor(42),
      rows: [
        RowChange(
          table: "boards", key: .text("00000000-0000-0000-0000-00000000000b"), stamp: stamp, isDeleted: false,
          columns: values.enumerated().map { index, value in
            ColumnState(name: "c\(index)", values: [ColumnValue(value: value, stamp: stamp, versions: VersionVector(stamp))])
          } + [
            ColumnState(
              name: "likes", values: [ColumnValue(value: .integer(3), stamp: stamp, versions: VersionVector())],
              parts: [stamp.replica: CounterPart(clock: stamp.clock, total: 3)])
          ]),
        RowChange(table: "cards", key: .blob([1, 2, 3]), stamp: stamp, isDeleted: true, columns: []),
      ])
  }

  @Test func everyValueComesBackExactly() throws {
    let decoded = try Changeset(decoding: sample.encoded())
    #expect(decoded == sample)
    // -0.0 == 0.0 for Equatable; the bits must survive too.
    guard case .real(let zero) = decoded.rows[0].columns[5].values[0].value else {
      Issue.record("not a real")
      return
    }
    #expect(zero.bitPattern == (-0.0 as Double).bitPattern)
  }

  @Test func bytesThatAreNotAChangesetAreRefused() throws {
    let bytes = sample.encoded()
    func problem(_ bytes: [UInt8]) -> String? {
      do {
        _ = try Changeset(decoding: bytes)
        return nil
      } catch let error as ChangesetFormatError {
        return error.description
      } catch {
        return "\(error)"
      }
    }
    #expect(problem(Array("hello".utf8))?.hasSuffix("it does not start with SSYN: not a Strata changeset") == true)
    #expect(problem(Array(bytes.prefix(4)) + [2] + Array(bytes.dropFirst(5)))?.contains("it is in format 2, and this version of Strata reads format 1; update the app") == true)
    #expect(problem(Array(bytes.dropLast()))?.contains("it ends too soon") == true)
    #expect(problem(bytes + [0])?.contains("1 bytes follow its last row") == true)
    // Every truncation and thousands of random corruptions: an error or a changeset, never a
    // crash or a hang.
    for length in 0..<bytes.count { #expect(problem(Array(bytes.prefix(length))) != nil) }
    var random = SeededGenerator(seed: 40)
    for _ in 0..<5_000 {
      var corrupted = bytes
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        corrupted[Int.random(in: 4..<corrupted.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
      }
      _ = problem(corrupted)
    }
  }

  @Test func aChangesetNoReplicaMakesIsRefusedWholeAndCaptureGoesOn() throws {
    try withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      var forged = sample
      forged.rows[0].columns[0].values[0].versions = VersionVector(["\"},\"x": 1])
      #expect(throws: SyncError.self) { try a.sync.apply(forged) }
      var empty = sample
      empty.rows[0].columns[0].values = []
      #expect(throws: SyncError.self) { try a.sync.apply(empty) }
      // Inside the app's own transaction, which goes on after the error: nothing applied, and
      // the app's next write is recorded.
      try a.database.write { db in
        #expect(throws: SyncError.self) { try a.sync.apply(forged, in: db) }
        try Board.insert { Board.Draft(title: "After") }.execute(db)
      }
      #expect(try a.sync.changes().rows.map(\.table) == ["boards"])
      #expect(try a.contents().count == 1)
    }
  }

  @Test func aValueTheTableRefusesWaitsInsteadOfStoppingSync() throws {
    try withTemporaryFolder { folder in
      let a = try TestReplica(in: folder, name: "a")
      let b = try TestReplica(in: folder, name: "b")
      let board = UUID()
      try a.database.write { db in try Board.insert { Board.Draft(id: board, title: "Plans") }.execute(db) }
      var changes = try a.sync.changes()
      // A text where the STRICT table has an INTEGER: a hostile or broken peer.
      let rank = try #require(changes.rows[0].columns.firstIndex { $0.name == "rank" })
      changes.rows[0].columns[rank].values[0].value = .text("high")
      try b.sync.apply(changes)
      #expect(try b.contents().isEmpty)
      guard case .waiting(let reason) = try b.sync.conflicts().first?.kind else {
        Issue.record("the row does not wait")
        return
      }
      #expect(reason.contains("the database refused it"))
      // The right value, from the same write, lets it in.
      try b.sync.apply(try a.sync.changes())
      #expect(try b.contents().isEmpty)
      try a.database.write { db in try Board.find(board).update { $0.rank = 2 }.execute(db) }
      try b.sync.apply(try a.sync.changes())
      #expect(try b.contents() == a.contents())
    }
  }
}

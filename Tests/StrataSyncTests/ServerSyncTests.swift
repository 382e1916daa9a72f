#if SyncServer
import Foundation
import Observation
import Strata
import StrataPostgreSQL
import StrataSync
import StrataSyncClient
import StrataSyncServer
import Testing

/// Devices that sync through a server: the server's PostgreSQL tables and every device end up
/// with the same rows, each user sees only what is theirs or shared with them.
@Suite(.enabled(if: TestSyncServer.isAvailable, "needs PostgreSQL"), .serialized)
struct ServerSyncTests {
  let board = UUID(uuidString: "B0A2D000-0000-0000-0000-000000000001")!

  @Test func twoDevicesOfOneUserKeepTheSameRowsAsTheServer() async throws {
    try await TestSyncServer.run { server in
      try await withTemporaryFolder { folder in
        let phone = try TestReplica(in: folder, name: "phone")
        let laptop = try TestReplica(in: folder, name: "laptop")
        let (phoneClient, laptopClient) = (server.client(phone, user: "alice"), server.client(laptop, user: "alice"))
        try await phone.database.write { db in
          try Board.insert { Board.Draft(id: board, title: "Plans", slug: "plans") }.execute(db)
          try Card.insert { Card.Draft(id: UUID(uuidString: "CA2D0000-0000-0000-0000-000000000001")!, boardID: board, text: "first") }.execute(db)
        }
        #expect(try await phoneClient.pendingChanges() == 2)
        try await phoneClient.sync()
        #expect(phoneClient.status.pendingChanges == 0)
        try await laptopClient.sync()
        #expect(try laptop.contents() == phone.contents())
        #expect(try await server.contents() == [
          #"boards b0a2d000-0000-0000-0000-000000000001 "Plans" rank 0 likes 0 [] """#,
          #"cards ca2d0000-0000-0000-0000-000000000001 b0a2d000-0000-0000-0000-000000000001 "first" 0"#,
        ])

        // Offline on both: a counter counts both, the later title wins, both cards arrive.
        try await phone.database.write { db in try db.execute(sql: "UPDATE boards SET likes = likes + 2, title = 'Phone'") }
        try await Task.sleep(for: .milliseconds(5))
        try await laptop.database.write { db in
          try db.execute(sql: "UPDATE boards SET likes = likes + 3, title = 'Laptop'")
          try Card.insert { Card.Draft(id: UUID(uuidString: "CA2D0000-0000-0000-0000-000000000002")!, boardID: board, text: "second") }.execute(db)
        }
        try await phoneClient.sync()
        try await laptopClient.sync()
        try await phoneClient.sync()
        #expect(try laptop.contents() == phone.contents())
        #expect(try await server.contents() == [
          #"boards b0a2d000-0000-0000-0000-000000000001 "Laptop" rank 0 likes 5 [] """#,
          #"cards ca2d0000-0000-0000-0000-000000000001 b0a2d000-0000-0000-0000-000000000001 "first" 0"#,
          #"cards ca2d0000-0000-0000-0000-000000000002 b0a2d000-0000-0000-0000-000000000001 "second" 0"#,
        ])
        // What a device pulls is not sent back as its own change.
        #expect(try await phoneClient.pendingChanges() == 0)
        #expect(try await laptopClient.pendingChanges() == 0)
      }
    }
  }

  /// Found by the harness: a device with more pending rows than a push takes (offline for a
  /// while, or many rows waiting) sent a child in an earlier push than its parent, changed
  /// after the child, and the server refused every push after that.
  @Test func aPushThatTakesSomeOfThePendingRowsTakesTheParentsOfItsRowsToo() async throws {
    try await TestSyncServer.run { server in
      try await withTemporaryFolder { folder in
        let phone = try TestReplica(in: folder, name: "phone")
        let laptop = try TestReplica(in: folder, name: "laptop")
        try await phone.database.write { db in
          try Board.insert { Board.Draft(id: board, title: "Plans", slug: "plans") }.execute(db)
          try Card.insert { Card.Draft(id: UUID(uuidString: "CA2D0000-0000-0000-0000-000000000001")!, boardID: board, text: "first") }.execute(db)
        }
        // The board changes after its card: it is the later of the two in the phone's order.
        try await phone.database.write { db in try db.execute(sql: "UPDATE boards SET title = 'Later'") }
        var configuration = SyncClient.Configuration()
        configuration.pushRows = 1
        let client = SyncClient(replica: phone.sync, server: server.url, configuration: configuration) { "user-alice" }
        try await client.syncRetrying()
        #expect(client.status.pendingChanges == 0)
        try await server.client(laptop, user: "alice").syncRetrying()
        #expect(try laptop.contents() == phone.contents())
        #expect(try await server.contents() == [
          #"boards b0a2d000-0000-0000-0000-000000000001 "Later" rank 0 likes 0 [] """#,
          #"cards ca2d0000-0000-0000-0000-000000000001 b0a2d000-0000-0000-0000-000000000001 "first" 0"#,
        ])
      }
    }
  }

  @Test func aChangeReachesAnotherDevicesLiveQueryWhileItRuns() async throws {
    try await TestSyncServer.run { server in
      try await withTemporaryFolder { folder in
        let phone = try TestReplica(in: folder, name: "phone")
        let laptop = try TestReplica(in: folder, name: "laptop")
        let laptopClient = server.client(laptop, user: "alice")
        let running = Task { await laptopClient.run() }
        defer { running.cancel() }
        let titles = ValueObservation.tracking { db in try String.fetchAll(db, sql: "SELECT title FROM boards") }
        var iterator = titles.values(in: laptop.database).makeAsyncIterator()
        #expect(try await iterator.next() == [])
        try await phone.database.write { db in try Board.insert { Board.Draft(id: board, title: "Live") }.execute(db) }
        let phoneClient = server.client(phone, user: "alice")
        try await phoneClient.syncRetrying()
        #expect(try await iterator.next() == ["Live"])
        // Then it waits in its pull (5 seconds at the server here) instead of syncing round after
        // round, as it did once its first pull had returned before a write (the fault harness
        // found it): at most one sync ends per pull, however slow a busy machine makes the wait.
        var syncs: Set<Date> = []
        let started = ContinuousClock.now
        for _ in 0..<30 {
          if let last = laptopClient.status.lastSynced { syncs.insert(last) }
          try await Task.sleep(for: .milliseconds(50))
        }
        let seconds = (ContinuousClock.now - started).components.seconds
        #expect(syncs.count <= Int(seconds / 5) + 2)
        // And the other way: the running client pushes changes made on its device, each while
        // its pull waits.
        for title in ["Back", "Again"] {
          try await laptop.database.write { db in try db.execute(sql: "UPDATE boards SET title = ?", arguments: [title]) }
          for _ in 0..<200 where try await phone.database.read({ db in try String.fetchOne(db, sql: "SELECT title FROM boards") }) != title {
            try await Task.sleep(for: .milliseconds(50))
            try await phoneClient.syncRetrying()
          }
          #expect(try await phone.database.read { db in try String.fetchOne(db, sql: "SELECT title FROM boards") } == title)
        }
      }
    }
  }

  @Test func aDeviceKeepsWorkingOfflineAndCatchesUpWhenTheServerIsBack() async throws {
    try await TestSyncServer.run { server in
      try await withTemporaryFolder { folder in
        let phone = try TestReplica(in: folder, name: "phone")
        // A port nothing listens on yet: the server is down.
        let port = try TestSyncServer.freePort()
        var configuration = SyncClient.Configuration()
        configuration.maximumBackoff = .milliseconds(200)
        let client = SyncClient(replica: phone.sync, server: URL(string: "http://127.0.0.1:\(port)/")!, configuration: configuration) {
          "user-alice"
        }
        let phases = PhaseLog()
        phases.follow(client)
        let running = Task { await client.run() }
        defer { running.cancel() }
        try await phone.database.write { db in
          try Board.insert { Board.Draft(id: board, title: "Offline") }.execute(db)
          try Card.insert { Card.Draft(boardID: board, text: "written offline") }.execute(db)
        }
        for _ in 0..<200 where client.status.phase != .offline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(client.status.phase == .offline)
        #expect(try await client.pendingChanges() == 2)

        // The server comes back on that port: the client gets through on its next try.
        try await server.anotherInstance(port: port) { _ in
          for _ in 0..<500 where try await server.contents().count < 2 { try await Task.sleep(for: .milliseconds(20)) }
          #expect(try await server.contents().count == 2)
          for _ in 0..<200 where client.status.phase != .idle || client.status.pendingChanges != 0 {
            try await Task.sleep(for: .milliseconds(10))
          }
          #expect(client.status.phase == .idle)
          #expect(client.status.pendingChanges == 0)
          #expect(client.status.lastSynced != nil)
          // The client's long pull waits at this instance; shutting it down ends the pull.
          running.cancel()
        }
        // A UI that observes the status was told of each change (Observation tells before the
        // change lands, so the phases themselves are read above).
        #expect(phases.changes >= 4)
      }
    }
  }

  @Test func aRowTheServersTableRefusesWaitsAndTheRestOfThePushIsWritten() async throws {
    try await TestSyncServer.run { server in
      try await withTemporaryFolder { folder in
        let alice = try TestReplica(in: folder, name: "alice")
        let bob = try TestReplica(in: folder, name: "bob")
        try await alice.database.write { db in try Board.insert { Board.Draft(id: board, title: "Alice plans", slug: "plans") }.execute(db) }
        try await server.client(alice, user: "alice").sync()
        // Bob's board takes the same unique slug on his device, with two cards.
        let bobsBoard = UUID(uuidString: "B0B00000-0000-0000-0000-000000000001")!
        try await bob.database.write { db in
          try Board.insert { Board.Draft(id: bobsBoard, title: "Bob plans", slug: "plans") }.execute(db)
          try Card.insert { Card.Draft(boardID: bobsBoard, text: "one") }.execute(db)
          try Card.insert { Card.Draft(boardID: bobsBoard, text: "two") }.execute(db)
        }
        let bobClient = server.client(bob, user: "bob")
        try await bobClient.sync()
        // The push was accepted: bob's board waits in sync's table (the slug is taken), so its
        // cards wait for it; nothing is lost, and alice's row is untouched.
        let held = try await server.contents()
        #expect(held == [#"boards b0a2d000-0000-0000-0000-000000000001 "Alice plans" rank 0 likes 0 [] """#])
        let waiting = try await server.database.read { db in
          try await sql("SELECT table_name, waiting IS NOT NULL FROM strata_sync.rows WHERE writer = 'bob' ORDER BY 1", as: (String, Bool).self).fetchAll(db)
        }
        #expect(waiting.map(\.0) == ["boards", "cards", "cards"])
        #expect(waiting.allSatisfy { $0.1 })
        #expect(try await bobClient.pendingChanges() == 0)
        // Bob's device cannot see alice's board, but keeps his rows out as the server does: its
        // tables hold what the server's hold for bob, and it lists why.
        #expect(try bob.contents() == [])
        let bobsConflicts = try bob.sync.conflicts()
        #expect(bobsConflicts.count == 3)
        #expect(bobsConflicts.allSatisfy {
          if case .waiting(let reason) = $0.kind { reason.hasPrefix("the sync server keeps it out") || reason.hasPrefix("its parent") } else { false }
        })
        // Alice frees the slug: the next push places bob's rows, on the server and on his device.
        try await alice.database.write { db in try db.execute(sql: "UPDATE boards SET slug = 'alice-plans'") }
        try await server.client(alice, user: "alice").sync()
        let placed = try await server.contents()
        #expect(placed.count == 4)
        #expect(placed.contains(#"boards b0b00000-0000-0000-0000-000000000001 "Bob plans" rank 0 likes 0 [] """#))
        try await bobClient.sync()
        #expect(try bob.contents().count == 3)
        #expect(try bob.sync.conflicts().isEmpty)
      }
    }
  }

  /// The harness's 20 devices found that a unique value did not converge: the server kept the
  /// row that arrived first, each device its own. The row inserted first keeps it everywhere.
  @Test func theRowInsertedFirstKeepsAUniqueValueOnTheServerAndEveryDevice() async throws {
    try await TestSyncServer.run { server in
      try await withTemporaryFolder { folder in
        let alice = try TestReplica(in: folder, name: "alice")
        let bob = try TestReplica(in: folder, name: "bob")
        let bobsBoard = UUID(uuidString: "B0B00000-0000-0000-0000-000000000001")!
        // Bob, offline, takes the slug first; alice takes it later and syncs first.
        try await bob.database.write { db in
          try Board.insert { Board.Draft(id: bobsBoard, title: "Bob plans", slug: "plans") }.execute(db)
        }
        try await Task.sleep(for: .milliseconds(5))
        try await alice.database.write { db in
          try Board.insert { Board.Draft(id: board, title: "Alice plans", slug: "plans") }.execute(db)
          try Card.insert { Card.Draft(id: UUID(uuidString: "CA2D0000-0000-0000-0000-000000000001")!, boardID: board, text: "hers") }.execute(db)
        }
        let aliceClient = server.client(alice, user: "alice")
        try await aliceClient.sync()
        #expect(try await server.contents() == [
          #"boards b0a2d000-0000-0000-0000-000000000001 "Alice plans" rank 0 likes 0 [] """#,
          #"cards ca2d0000-0000-0000-0000-000000000001 b0a2d000-0000-0000-0000-000000000001 "hers" 0"#,
        ])
        // Bob's board, inserted first, takes the slug: alice's board and its card wait.
        try await server.client(bob, user: "bob").sync()
        #expect(try await server.contents() == [#"boards b0b00000-0000-0000-0000-000000000001 "Bob plans" rank 0 likes 0 [] """#])
        let waiting = try await server.database.read { db in
          try await sql("SELECT table_name, waiting FROM strata_sync.rows WHERE waiting IS NOT NULL ORDER BY 1", as: (String, String).self).fetchAll(db)
        }
        #expect(waiting.map(\.0) == ["boards", "cards"])
        #expect(waiting.first?.1 == "its unique value (slug = 'plans') is held by the row b0b00000-0000-0000-0000-000000000001, inserted earlier; change one of them")
        #expect(try bob.contents() == [#"boards "b0b00000-0000-0000-0000-000000000001", "Bob plans", "plans", 0, 0, "[]", """#])
        // Alice's device hears it: her rows leave her tables, kept with their values, listed.
        try await aliceClient.sync()
        #expect(try alice.contents() == [])
        #expect(try alice.sync.conflicts().count == 2)
        // Bob gives the slug up: the server places alice's rows again, and her device too.
        try await bob.database.write { db in try db.execute(sql: "UPDATE boards SET slug = 'bob-plans'") }
        try await server.client(bob, user: "bob").sync()
        try await aliceClient.sync()
        #expect(try alice.contents() == [
          #"boards "b0a2d000-0000-0000-0000-000000000001", "Alice plans", "plans", 0, 0, "[]", """#,
          #"cards "ca2d0000-0000-0000-0000-000000000001", "b0a2d000-0000-0000-0000-000000000001", "hers", 0"#,
        ])
        #expect(try alice.sync.conflicts().isEmpty)
        #expect(try await server.contents().count == 3)
      }
    }
  }

  @Test func anAppOutsideTheServersSchemaWindowIsToldWhichSideToUpdateAndLosesNothing() async throws {
    try await withTemporaryFolder { folder in
      let phone = try TestReplica(in: folder, name: "phone")
      let schema = try #require(try await phone.database.read { db in try phone.sync.schema(in: db) })
      try await phone.database.write { db in try Board.insert { Board.Draft(id: board, title: "Plans", slug: "plans") }.execute(db) }
      // The server moved on two migrations and keeps working only the one before its own.
      var configuration = SyncServer.Configuration()
      configuration.schema = SyncSchema(number: schema.number + 2, keepsWorkingFrom: schema.number + 1)
      try await TestSyncServer.run(configuration: configuration) { server in
        let client = server.client(phone, user: "alice")
        let error = await #expect(throws: SyncRequestError.self) { try await client.sync() }
        #expect(error?.status == 426)
        #expect(error?.reason.contains(
          "update the app: its schema (migration \(schema.number)) is older than the sync server keeps working (from migration \(schema.number + 1)); what it wrote stays on this device and syncs after the update") == true)
        let (pending, contents) = (try await client.pendingChanges(), try await server.contents())
        #expect(pending == 1)
        #expect(contents == [])
      }
      // A server whose window reaches back to the app's schema takes the board.
      configuration.schema = SyncSchema(number: schema.number + 2, keepsWorkingFrom: schema.number)
      try await TestSyncServer.run(configuration: configuration) { server in
        let client = server.client(phone, user: "alice")
        try await client.sync()
        #expect(try await client.pendingChanges() == 0)
        #expect(try await server.contents() == [#"boards b0a2d000-0000-0000-0000-000000000001 "Plans" rank 0 likes 0 [] """#])
      }
      // An app newer than the server, whose window does not reach back to the server's schema:
      // the server must be updated.
      configuration.schema = SyncSchema(number: schema.number - 1)
      try await TestSyncServer.run(configuration: configuration) { server in
        let client = server.client(phone, user: "alice")
        let error = await #expect(throws: SyncRequestError.self) { try await client.sync() }
        #expect(error?.status == 409)
        #expect(error?.reason.contains("the sync server's schema (migration \(schema.number - 1)) is older than this app works with") == true)
      }
    }
  }

  @Test func aPushWithMoreRowsThanTheServerTakesIsRefused() async throws {
    var configuration = SyncServer.Configuration()
    configuration.maximumPushRows = 2
    try await TestSyncServer.run(configuration: configuration) { server in
      try await withTemporaryFolder { folder in
        let phone = try TestReplica(in: folder, name: "phone")
        try await phone.database.write { db in
          try Board.insert { Board.Draft(id: board, title: "Three rows") }.execute(db)
          try Card.insert { Card.Draft(boardID: board, text: "one") }.execute(db)
          try Card.insert { Card.Draft(boardID: board, text: "two") }.execute(db)
        }
        let (status, reason) = try await server.send("sync/push", user: "alice", body: try phone.sync.changes().encoded())
        #expect(status == 413)
        #expect(reason == "the changeset holds 3 rows; the server takes at most 2 a push; push it in parts")
        #expect(try await server.contents() == [])
        // The client pushes in parts of the size it is told.
        var clientConfiguration = SyncClient.Configuration()
        clientConfiguration.pushRows = 2
        try await SyncClient(replica: phone.sync, server: server.url, configuration: clientConfiguration) { "user-alice" }.sync()
        #expect(try await server.contents().count == 3)
      }
    }
  }

  @Test func aCommitThroughOneServerInstanceReachesTheDevicesOfAnotherEvenAfterItsListenerIsLost() async throws {
    try await TestSyncServer.run { server in
      try await server.anotherInstance { second in
        try await withTemporaryFolder { folder in
          let phone = try TestReplica(in: folder, name: "phone")
          let laptop = try TestReplica(in: folder, name: "laptop")
          var configuration = SyncClient.Configuration()
          configuration.pullWait = .seconds(30)
          let laptopClient = SyncClient(replica: laptop.sync, server: second, configuration: configuration) { "user-alice" }
          try await laptopClient.sync()
          let running = Task { await laptopClient.run() }
          defer { running.cancel() }
          let titles = ValueObservation.tracking { db in try String.fetchAll(db, sql: "SELECT title FROM boards") }
          var iterator = titles.values(in: laptop.database).makeAsyncIterator()
          #expect(try await iterator.next() == [])
          // The laptop's long pull waits at the second instance; the phone pushes to the first,
          // whose commit PostgreSQL announces to both (well within the 30-second pull).
          try await Task.sleep(for: .milliseconds(300))
          let pushed = ContinuousClock.now
          try await phone.database.write { db in try Board.insert { Board.Draft(id: board, title: "Elsewhere") }.execute(db) }
          try await server.client(phone, user: "alice").sync()
          #expect(try await iterator.next() == ["Elsewhere"])
          #expect(ContinuousClock.now - pushed < .seconds(20))
          // The harness found that an instance stopped hearing other instances' commits once
          // PostgreSQL dropped its LISTEN connection (a restart): it listens again. Both
          // instances' listening connections end here.
          let ended = try await server.database.withConnection { db in
            try await sql(
              """
              SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()) AS t
              """, as: Int.self
            ).fetchOne(db)
          }
          #expect(ended == 2)
          try await Task.sleep(for: .seconds(1))
          let pushedAgain = ContinuousClock.now
          try await phone.database.write { db in
            try Board.insert { Board.Draft(id: UUID(uuidString: "B0A2D000-0000-0000-0000-000000000002")!, title: "Heard") }.execute(db)
          }
          try await server.client(phone, user: "alice").sync()
          #expect(try await iterator.next() == ["Elsewhere", "Heard"])
          #expect(ContinuousClock.now - pushedAgain < .seconds(20))
        }
      }
    }
  }

  @Test func theLiveChannelSendsEachCommitToTheUsersWhoMayReadIt() async throws {
    try await TestSyncServer.run { server in
      try await withTemporaryFolder { folder in
        let phone = try TestReplica(in: folder, name: "phone")
        let phoneClient = server.client(phone, user: "alice")
        let other = try TestReplica(in: folder, name: "other")
        let otherClient = server.client(other, user: "eve")
        let url = "ws://127.0.0.1:\(server.url.port ?? 0)/sync/live?after=0"
        let (received, listening) = TestSyncServer.liveChangesets(url, token: "user-alice")
        defer { listening.cancel() }
        var changesets = received.makeAsyncIterator()
        // Eve's commit is not alice's to see; alice's own is, as it commits.
        try await other.database.write { db in try Board.insert { Board.Draft(id: UUID(), title: "Eve's") }.execute(db) }
        try await otherClient.sync()
        try await phone.database.write { db in try Board.insert { Board.Draft(id: board, title: "Live") }.execute(db) }
        try await phoneClient.sync()
        let changeset = try #require(await changesets.next())
        #expect(changeset.rows.map(\.table) == ["boards"])
        #expect(changeset.rows.first?.key == .text(UUIDText.format(board)))
        #expect(changeset.replica == server.server.id)

        // A channel without a user is not opened.
        let (_, anonymous) = TestSyncServer.liveChangesets(url, token: nil)
        await #expect(throws: (any Error).self) { try await anonymous.value }
      }
    }
  }

  @Test func aSharedRecordReachesItsUsersWithTheAccessTheyWereGiven() async throws {
    try await TestSyncServer.run { server in
      try await withTemporaryFolder { folder in
        let alice = try TestReplica(in: folder, name: "alice")
        let bob = try TestReplica(in: folder, name: "bob")
        let (aliceClient, bobClient) = (server.client(alice, user: "alice"), server.client(bob, user: "bob"))
        try await alice.database.write { db in
          try Board.insert { Board.Draft(id: board, title: "Trip") }.execute(db)
          try Card.insert { Card.Draft(boardID: board, text: "tickets") }.execute(db)
        }
        try await aliceClient.sync()
        try await bobClient.sync()
        #expect(try bob.contents() == [])

        try await aliceClient.share(table: "boards", key: board, with: "bob", access: .read)
        #expect(try await bobClient.shares().received == [
          SyncShare(table: "boards", key: UUIDText.format(board), owner: "alice", user: "bob", access: .read, accepted: false)
        ])
        try await bobClient.sync()
        #expect(try bob.contents() == [], "not before bob accepts")
        try await bobClient.accept(table: "boards", key: board)
        try await bobClient.sync()
        #expect(try bob.contents() == alice.contents())

        // Read-only: bob's change is refused, nothing of it written; his device undoes it and
        // says why, and goes on syncing.
        try await bob.database.write { db in try db.execute(sql: "UPDATE boards SET title = 'Bob was here'") }
        try await bob.database.write { db in try Card.insert { Card.Draft(boardID: board, text: "bob's") }.execute(db) }
        try await bobClient.sync()
        #expect(try await server.contents().first?.contains(#""Trip""#) == true)
        #expect(try bob.contents() == alice.contents())
        #expect(bobClient.status.lastRefusal?.contains("bob may read the record boards \(UUIDText.format(board)) but not change it") == true)
        #expect(try await bobClient.pendingChanges() == 0)

        // Read-write: his changes go through.
        try await aliceClient.share(table: "boards", key: board, with: "bob", access: .write)
        try await bob.database.write { db in try db.execute(sql: "UPDATE boards SET title = 'Bob was here'") }
        try await bobClient.sync()
        try await aliceClient.sync()
        #expect(try await alice.database.read { db in try String.fetchOne(db, sql: "SELECT title FROM boards") } == "Bob was here")

        // Revoked while bob had a change waiting: the change is refused and undone, the
        // record's rows leave bob's device, and nowhere else.
        try await bob.database.write { db in try db.execute(sql: "UPDATE boards SET title = 'Too late'") }
        try await aliceClient.revoke(table: "boards", key: board, from: "bob")
        try await bobClient.sync()
        #expect(try bob.contents() == [])
        #expect(try await bobClient.pendingChanges() == 0)
        try await aliceClient.sync()
        #expect(try alice.contents().count == 2)
        #expect(try await server.contents().count == 2)
        #expect(try await server.contents().first?.contains(#""Bob was here""#) == true)

        // Shared again, accepted, then left by bob: the rows come and go again.
        try await aliceClient.share(table: "boards", key: board, with: "bob", access: .read)
        try await bobClient.accept(table: "boards", key: board)
        try await bobClient.sync()
        #expect(try bob.contents() == alice.contents())
        try await bobClient.leave(table: "boards", key: board)
        try await bobClient.sync()
        #expect(try bob.contents() == [])
        #expect(try await aliceClient.shares().given == [])
      }
    }
  }

  @Test func hostileClientsAreRefusedAndNothingIsWritten() async throws {
    try await TestSyncServer.run { server in
      try await withTemporaryFolder { folder in
        let alice = try TestReplica(in: folder, name: "alice")
        let mallory = try TestReplica(in: folder, name: "mallory")
        let aliceClient = server.client(alice, user: "alice")
        try await alice.database.write { db in try Board.insert { Board.Draft(id: board, title: "Alice's") }.execute(db) }
        try await aliceClient.sync()
        let oldPush = try alice.sync.changes().encoded()
        try await alice.database.write { db in try db.execute(sql: "UPDATE boards SET title = 'Alice''s, renamed'") }
        try await aliceClient.sync()
        let before = try await server.contents()

        // Mallory's own board and card, made on her device, then forged.
        let malloryBoard = UUID()
        try await mallory.database.write { db in
          try Board.insert { Board.Draft(id: malloryBoard, title: "Mallory's") }.execute(db)
          try Card.insert { Card.Draft(id: UUID(uuidString: "BAD00000-0000-0000-0000-000000000001")!, boardID: malloryBoard, text: "mine") }.execute(db)
        }
        let own = try mallory.sync.changes()
        let aliceKey = StoredValue.text(UUIDText.format(board))
        func forged(_ change: (inout RowChange) -> Void) -> [UInt8] {
          var changeset = own
          changeset.rows = own.rows.map { row in
            var row = row
            change(&row)
            return row
          }
          return changeset.encoded()
        }
        func setColumn(_ row: inout RowChange, _ name: String, _ value: StoredValue) {
          row.columns = row.columns.map { column in
            guard column.name == name else { return column }
            var column = column
            column.values = column.values.map { var value2 = $0; value2.value = value; return value2 }
            return column
          }
        }
        let cases: [(String, String?, [UInt8], Int, String)] = [
          ("no token", nil, own.encoded(), 401, "the request has no Authorization: Bearer token"),
          ("not a changeset", "mallory", Array("hello".utf8), 400, "the body is not a changeset"),
          ("cut short", "mallory", Array(own.encoded().dropLast(3)), 400, "the body is not a changeset"),
          (
            "a write to alice's board", "mallory",
            forged { row in if row.table == "boards" { row.key = aliceKey; row.stamp.clock += 1 << 40 } }, 403,
            "the row boards \(UUIDText.format(board)) is in the record boards \(UUIDText.format(board)), which is not shared with mallory"
          ),
          (
            "a card added to alice's board", "mallory",
            forged { row in if row.table == "cards" { setColumn(&row, "boardID", aliceKey) } }, 403,
            "mallory may not add or move rows into the record boards \(UUIDText.format(board))"
          ),
          (
            "a table the server does not sync", "mallory", forged { row in row.table = "local_notes" }, 422,
            "the server does not sync a table local_notes"
          ),
          (
            "text in an integer column", "mallory", forged { row in if row.table == "boards" { setColumn(&row, "rank", .text("high")) } },
            422, "which the server's column boards.rank does not hold"
          ),
          (
            "a clock a year ahead", "mallory", forged { row in row.stamp.clock += (365 * 86_400_000) << 16 }, 422,
            "ahead of the server's clock by more than"
          ),
        ]
        for (name, user, body, status, reason) in cases {
          let (answer, text) = try await server.send("sync/push", user: user, body: body)
          #expect(answer == status, "\(name)")
          #expect(text.contains(reason), "\(name): \(text)")
          #expect(try await server.contents() == before, "\(name) wrote nothing")
        }

        // Re-parenting her own card into alice's board, after pushing it honestly.
        #expect(try await server.send("sync/push", user: "mallory", body: own.encoded()).0 == 200)
        try await mallory.database.write { db in try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        try await mallory.database.writeWithoutTransaction { db in
          try db.execute(sql: "PRAGMA foreign_keys = OFF")
          try db.execute(sql: "UPDATE cards SET boardID = ?", arguments: [UUIDText.format(board)])
          try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let moved = try await server.send("sync/push", user: "mallory", body: try mallory.sync.changes(since: own.cursor).encoded())
        #expect(moved.0 == 403)
        #expect(moved.1.contains("mallory may not add or move rows into the record boards"))

        // A replay of alice's own old push changes nothing; her newer title stays.
        let afterMallory = try await server.contents()
        let replay = try await server.send("sync/push", user: "alice", body: oldPush)
        #expect(replay.0 == 200)
        #expect(replay.1.contains(#""changed":0"#))
        #expect(try await server.contents() == afterMallory)

        // Too large, and too many rows.
        let limited = try await server.send("sync/push", user: "mallory", body: Array(repeating: 0, count: 9 << 20))
        #expect(limited.0 == 413)
        #expect(try await server.contents() == afterMallory)

        // Pulls: mallory never sees alice's rows.
        let pulled = try await server.send("sync/pull?after=0", method: "GET", user: "mallory", body: [])
        #expect(pulled.0 == 200)
        #expect(!pulled.1.contains("Alice"))
      }
    }
  }

  @Test func manyDevicesPushingAtOnceMergeIntoOneResult() async throws {
    try await TestSyncServer.run { server in
      try await withTemporaryFolder { folder in
        let owner = try TestReplica(in: folder, name: "owner")
        try await owner.database.write { db in try Board.insert { Board.Draft(id: board, title: "Shared") }.execute(db) }
        let ownerClient = server.client(owner, user: "owner")
        try await ownerClient.sync()
        let devices = try (0..<8).map { try TestReplica(in: folder, name: "device\($0)") }
        for index in devices.indices {
          try await ownerClient.share(table: "boards", key: board, with: "user\(index)", access: .write)
          let client = server.client(devices[index], user: "user\(index)")
          try await client.accept(table: "boards", key: board)
          try await client.sync()
        }
        // Every device: 10 likes and a card each, pushed concurrently, several rounds.
        try await withThrowingTaskGroup(of: Void.self) { group in
          for (index, device) in devices.enumerated() {
            group.addTask {
              let client = server.client(device, user: "user\(index)")
              for round in 0..<5 {
                try await device.database.write { db in
                  try db.execute(sql: "UPDATE boards SET likes = likes + 2")
                  try Card.insert { Card.Draft(boardID: board, text: "device \(index) round \(round)") }.execute(db)
                }
                try await client.push()
              }
            }
          }
          try await group.waitForAll()
        }
        for (index, device) in devices.enumerated() { try await server.client(device, user: "user\(index)").sync() }
        try await ownerClient.sync()
        let contents = try owner.contents()
        #expect(contents.filter { $0.hasPrefix("cards") }.count == 40)
        #expect(try await server.database.read { db in try await sql("SELECT likes FROM boards", as: Int.self).fetchOne(db) } == 80)
        for device in devices { #expect(try device.contents() == contents) }
      }
    }
  }
}
#endif

#if SyncServer
/// How many times an observer of a client's status was told it changes.
final class PhaseLog: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  var changes: Int { lock.withLock { count } }

  /// Follows `client`'s status as a SwiftUI view observing it would.
  func follow(_ client: SyncClient) {
    withObservationTracking { _ = client.status } onChange: {
      self.lock.withLock { self.count += 1 }
      Task { self.follow(client) }
    }
  }
}
#endif

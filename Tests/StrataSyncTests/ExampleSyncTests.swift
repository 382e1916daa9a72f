#if SyncServer
import Foundation
import StrataSync
@testable import StrataSchema
import Testing
import StrataTestSupport

/// The example's sync as the README runs it: `scorekeeper-server serve` and `scorekeeper sync`
/// processes, talking HTTP, on the PostgreSQL server the tests use.
@Suite(.enabled(if: TestSyncServer.isAvailable, "needs PostgreSQL"), .serialized, .blockingWork)
struct ExampleSyncTests {
  /// The example's executables, built beside the tests.
  static func executable(_ name: String) throws -> String {
    let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [folder, folder.deletingLastPathComponent()].map { $0.appendingPathComponent(name).path }
    guard let path = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "no \(name) beside the tests: build with swift build --enable-all-traits"])
    }
    return path
  }

  /// Runs `scorekeeper sync …` to its end: what it printed.
  static func scorekeeper(_ arguments: [String], in folder: URL) throws -> String {
    let result = try ChildProcess.run([try executable("scorekeeper"), "sync"] + arguments, directory: folder.path, timeout: 120)
    guard result.status == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: result.errors]) }
    return result.output
  }

  @Test func twoDevicesAndTheServerKeepTheGamesInStep() async throws {
    let postgres = try PostgreSQLServer.shared()
    let name = "scorekeeper_sync_\(getpid())"
    defer { postgres.drop(name) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-example-sync-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    let server = Process()
    server.executableURL = URL(fileURLWithPath: try Self.executable("scorekeeper-server"))
    server.arguments = ["serve", postgres.url(of: "postgres"), "--port", "0", "--database", name, "--users", "alice:alice-token,bob:bob-token"]
    let output = Pipe()
    let errors = Pipe()
    server.standardOutput = output
    server.standardError = errors
    try server.run()
    defer {
      server.terminate()
      server.waitUntilExit()
    }
    var printed = ""
    while !printed.contains("serving sync") {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      printed += String(decoding: data, as: UTF8.self)
    }
    let line = try #require(
      printed.split(separator: "\n").last { $0.contains("serving sync") },
      "the server did not start: \(printed) \(server.isRunning ? "" : String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
    let url = String(try #require(line.split(separator: " ").last))

    let added = try Self.scorekeeper(
      ["phone.sqlite", url, "alice-token", "add-game", "Poker night", "add-player", "Poker night", "Blob", "score", "Blob", "10"], in: folder)
    let id = String(try #require(added.split(separator: "(").last?.prefix(36)))
    #expect(added == "Poker night (\(id))\n  Blob 10\n")
    // The laptop gets the game and adds to the score while the phone does too, offline.
    #expect(try Self.scorekeeper(["laptop.sqlite", url, "alice-token"], in: folder) == added)

    // A device that watches sees the phone's change arrive.
    let watcher = Process()
    watcher.executableURL = URL(fileURLWithPath: try Self.executable("scorekeeper"))
    watcher.arguments = ["sync", "laptop.sqlite", url, "alice-token", "watch", "120"]
    watcher.currentDirectoryURL = folder
    let watched = Pipe()
    watcher.standardOutput = watched
    try watcher.run()
    defer { if watcher.isRunning { watcher.terminate() } }
    var seen = ""
    func read(until text: String) {
      let deadline = Date().addingTimeInterval(90)
      while !seen.contains(text), Date() < deadline, watcher.isRunning {
        let data = watched.fileHandleForReading.availableData
        if data.isEmpty { break }
        seen += String(decoding: data, as: UTF8.self)
      }
    }
    read(until: "  Blob 10\n")
    _ = try Self.scorekeeper(["phone.sqlite", url, "alice-token", "score", "Blob", "5"], in: folder)
    read(until: "  Blob 15\n")
    watcher.terminate()
    watcher.waitUntilExit()
    #expect(seen.contains("  Blob 10\n"))
    #expect(seen.contains("  Blob 15\n"))

    // Shared with bob, who scores too; the counter adds up everywhere.
    _ = try Self.scorekeeper(["phone.sqlite", url, "alice-token", "share", "Poker night", "bob", "write"], in: folder)
    #expect(try Self.scorekeeper(["bob.sqlite", url, "bob-token", "accept", id, "score", "Blob", "1"], in: folder) == "Poker night (\(id))\n  Blob 16\n")
    #expect(try Self.scorekeeper(["phone.sqlite", url, "alice-token"], in: folder) == "Poker night (\(id))\n  Blob 16\n")
    #expect(try Self.scorekeeper(["laptop.sqlite", url, "alice-token"], in: folder) == "Poker night (\(id))\n  Blob 16\n")

    // The server process's live channel, from this process: alice's rows, then bob's next score
    // as it commits.
    let (received, listening) = TestSyncServer.liveChangesets("ws" + url.dropFirst("http".count) + "/sync/live?after=0", token: "alice-token")
    defer { listening.cancel() }
    var changesets = received.makeAsyncIterator()
    // First what alice has, then what commits.
    let current = try #require(await changesets.next())
    #expect(Set(current.rows.map(\.table)) == ["games", "players"])
    _ = try Self.scorekeeper(["bob.sqlite", url, "bob-token", "score", "Blob", "1"], in: folder)
    let pushed = try #require(await changesets.next())
    #expect(pushed.rows.map(\.table) == ["players"])

    // A wrong token is refused with the server's reason.
    let refused = try ChildProcess.run([try Self.executable("scorekeeper"), "sync", "eve.sqlite", url, "guess"], directory: folder.path, timeout: 60)
    #expect(refused.status == 1)
    #expect(refused.errors.contains("the sync server answered 401: the token names no user"))
  }
}
#endif

import Foundation
import Testing

@testable import StrataSchema

/// Running other programs: what is left to do after a process ends, however it ends.
@Suite struct ChildProcessTests {
  /// A process killed by a signal runs no exit handler; the command meant for its end runs anyway
  /// (as a throwaway PostgreSQL server is stopped after `generate-migrations` is interrupted).
  @Test func aCommandRunsAfterAKilledProcessEnds() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-after-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let marker = folder + "-stopped"
    defer { try? FileManager.default.removeItem(atPath: marker) }
    let process = try ChildProcess.start(["/bin/sleep", "600"], capturing: false)
    try ChildProcess.afterProcessEnds(process.pid, run: ["/usr/bin/touch", marker], removing: folder)
    try await Task.sleep(for: .milliseconds(1500))
    #expect(!FileManager.default.fileExists(atPath: marker), "the command ran before the process ended")
    kill(process.pid, SIGKILL)
    _ = try await process.finish(timeout: 10)
    // The shell looks once a second; give it ten, for a loaded machine.
    let deadline = Date().addingTimeInterval(10)
    while FileManager.default.fileExists(atPath: folder) && Date() < deadline {
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(FileManager.default.fileExists(atPath: marker))
    #expect(!FileManager.default.fileExists(atPath: folder))
  }
}
